"""The charts of time: the turn record track, the supply tracks and the sequence of play."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from builder.render.charts.blocks import Gap, Heading, Outline, Paragraph, Space, TrackRow
from builder.render.charts.layout import END_OUTLINE, HEADER_FILL, SMALL_PX, Block, Sheet
from builder.render.charts.words import cited, first_players, side_colour, sources_footer
from builder.render.ink import INK, PAPER, hex_colour, mix, rgb
from wargame.game import Game
from wargame.models import SequenceItem, Track


def turn_sheet(game: Game, track: Track) -> Sheet:
    """Turn record track: a space per turn, reinforcement turns marked by side, scenario ends captioned."""
    arriving: dict[int, set[str]] = defaultdict(set)
    for _, arrival in game.reinforcements:
        unit = game.units_by_id.get(arrival.unit)
        if unit is not None:
            arriving[arrival.turn].add(unit.side)
    ends: dict[int, list[str]] = defaultdict(list)
    for scenario in game.manifest.scenario:
        if scenario.last_turn < track.last or len(game.manifest.scenario) > 1:
            ends[scenario.last_turn].append(scenario.name)
    spaces = []
    for turn in range(track.first, track.last + 1):
        marks = tuple((side[0], side_colour(game, side)) for side in game.manifest.sides if side in arriving[turn])
        caption = "\n".join(f"end: {_short(name)}" for name in ends.get(turn, []))
        spaces.append(Space(str(turn), PAPER, marks, caption, END_OUTLINE if caption else INK))
    legend = "  ".join(f"{side[0]} = {side} reinforcements arrive" for side in game.manifest.sides
                       if any(side in sides for sides in arriving.values()))
    blocks: list[Block] = [TrackRow(tuple(spaces), space_px=62, number_px=22)]
    if legend:
        blocks.append(Paragraph(legend, size=SMALL_PX + 1))
    if track.note:
        blocks.append(Paragraph(track.note, size=SMALL_PX + 1))
    for scenario in game.manifest.scenario:
        blocks.append(Paragraph(f"{scenario.name}: turns {scenario.first_turn}–{scenario.last_turn}, "
                                f"{scenario.first_player} player first.", size=SMALL_PX + 1))
    return Sheet(track.name, game.manifest.title, blocks, sources_footer(track.source))


def _short(name: str) -> str:
    """A scenario name without its parenthesis, for a caption under a small space."""
    return name.split(" (")[0]


def supply_sheet(game: Game, tracks: list[Track]) -> Sheet:
    """Every supply track: numbered spaces in the side's colour."""
    blocks: list[Block] = []
    for track in tracks:
        colour = side_colour(game, track.side) if track.side else HEADER_FILL
        fill = hex_colour(mix(rgb(colour), rgb(PAPER), 0.45))
        spaces = tuple(Space(str(n), fill) for n in range(track.first, track.last + 1))
        if blocks:
            blocks.append(Gap(8))
        blocks += [Heading(track.name + (f" ({cited(track.source)})" if track.source else "")),
                   TrackRow(spaces, space_px=46, number_px=16)]
        if track.note:
            blocks.append(Paragraph(track.note, size=SMALL_PX + 1))
    return Sheet("Supply Tracks", game.manifest.title, blocks, sources_footer(*(t.source for t in tracks)))


def _sequence_lines(items: Sequence[SequenceItem], prefix: str, depth: int, players: tuple[str | None, str | None]
                    ) -> list[tuple[int, str, str, str]]:
    """Outline lines of nested sequence items, numbered 1., 1.1, ..."""
    first, second = players
    who = {"both": "", "first": first or "first player", "second": second or "second player",
           "each": "each player in turn"}
    lines = []
    for i, item in enumerate(items, 1):
        number = f"{prefix}{i}"
        once = "once, before the first turn" if item.before_first_turn else ""
        aside = " · ".join(part for part in (once, who[item.player], cited(item.source)) if part)
        lines.append((depth, number + ("." if depth == 0 else ""), item.name, aside))
        lines += _sequence_lines(item.items, number + ".", depth + 1, players)
    return lines


def sequence_sheet(game: Game) -> Sheet:
    """Sequence of play as a numbered outline."""
    lines = _sequence_lines(game.manifest.sequence, "", 0, first_players(game))
    blocks: list[Block] = [Outline(tuple(lines))]
    footer = sources_footer(*(s.source for s in game.manifest.sequence))
    return Sheet("Sequence of Play", game.manifest.title, blocks, footer)
