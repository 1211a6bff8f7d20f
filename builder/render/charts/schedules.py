"""The schedules: reinforcements turn by turn and replacement points, per scenario."""

from __future__ import annotations

from collections import defaultdict
from math import ceil

from builder.render.charts.blocks import Gap, Heading, Paragraph
from builder.render.charts.layout import BODY_PX, EMPTY_FILL, HEADER_FILL, SMALL_PX, Block, Sheet
from builder.render.charts.table import Cell, Table
from builder.render.charts.words import (
    cited, display_names, humane, section_order, side_colour, sources_footer,
)
from builder.render.ink import PAPER, hex_colour, mix, rgb, text_colour_on
from wargame.game import Game
from wargame.models import Arrival, Unit

TAG_SYMBOLS = ("*", "†", "‡", "§", "¶", "#")


def _has_designations(game: Game) -> bool:
    """Whether units carry their own names; if any name is shared, counters are generic and get counted."""
    names = [u.name for _, u in game.units]
    return len(set(names)) == len(names)


def _entry_name(game: Game, entry: str | None, names: dict[str, str]) -> str:
    """Where a reinforcement enters, as players read it."""
    if not entry:
        return ""
    if entry in names:
        return names[entry]
    if "@" in entry:
        track, _, space = entry.partition("@")
        tracks = {t.id: t.name for t in game.manifest.track}
        return f"{tracks.get(track, track)} {space}"
    if entry.isdigit():
        return f"Hex {entry}"
    words = humane(entry)
    return words[:1].upper() + words[1:]


def _units_text(game: Game, units: list[Unit], designated: bool, suffix: str) -> str:
    """Designated units by id; generic counters counted by nationality and type."""
    if designated:
        return ", ".join(f"{u.id}{suffix}" for u in units)
    nationalities = [n.id for n in game.manifest.nationality]
    types = [t.id for t in game.manifest.unit_type]
    names = display_names(game)
    groups: dict[tuple[int, int], list[Unit]] = defaultdict(list)
    for u in units:
        groups[(nationalities.index(u.nationality), types.index(u.type))].append(u)
    parts = []
    for key in sorted(groups):
        members = groups[key]
        shared = sorted({u.name for u in members})
        nationality, unit_type = members[0].nationality, members[0].type
        label = shared[0] if len(shared) == 1 else f"{names[nationality]} {names[unit_type].lower()}"
        # No-break spaces keep "3 × US infantry division" from breaking after the count.
        parts.append(f"{len(members)}\u00a0×\u00a0{label}{suffix}")
    return ", ".join(parts)


def reinforcement_sheet(game: Game) -> Sheet:
    """Reinforcement schedule: per scenario, turn by turn, each side's arrivals and entries."""
    names = display_names(game)
    designated = _has_designations(game)
    sides = list(game.manifest.sides)
    tags = sorted({tag for _, a in game.reinforcements for tag in a.tags})
    symbols = {tag: TAG_SYMBOLS[i % len(TAG_SYMBOLS)] for i, tag in enumerate(tags)}
    notes: list[str] = []
    blocks: list[Block] = []
    scenarios = [s for s in game.manifest.scenario if any(a.scenario == s.id for _, a in game.reinforcements)]
    for scenario in scenarios:
        by_turn: dict[int, dict[str, list[Arrival]]] = defaultdict(lambda: defaultdict(list))
        for _, arrival in game.reinforcements:
            if arrival.scenario == scenario.id and arrival.unit in game.units_by_id:
                by_turn[arrival.turn][game.units_by_id[arrival.unit].side].append(arrival)
        header = [Cell("Turn", bold=True, fill=HEADER_FILL)]
        header += [Cell(side, bold=True, fill=side_colour(game, side), colour=text_colour_on(side_colour(game, side)),
                        align="left") for side in sides]
        rows = [header]
        for turn in sorted(by_turn):
            row = [Cell(str(turn), bold=True, fill=HEADER_FILL)]
            for side in sides:
                # One line per entry and tag group, in the order the schedule lists them.
                groups: dict[tuple[str, tuple[str, ...], str], list[Unit]] = defaultdict(list)
                for arrival in by_turn[turn][side]:
                    key = (arrival.entry or "", arrival.tags, arrival.note)
                    groups[key].append(game.units_by_id[arrival.unit])
                lines = []
                for (entry, group_tags, note), units in groups.items():
                    suffix = "".join(symbols[t] for t in group_tags)
                    text = _units_text(game, units, designated, suffix)
                    where = _entry_name(game, entry, names)
                    if note:
                        if note not in notes:
                            notes.append(note)
                        text += f" ({notes.index(note) + 1})"
                    lines.append(f"{where}: {text}" if where else text)
                row.append(Cell("\n".join(lines), align="left", size=BODY_PX - 1))
            rows.append(row)
        if blocks:
            blocks.append(Gap(10))
        # Each side's column gets room in proportion to its longest line (in characters, a fair proxy).
        weights = {c: float(max(20, *(len(line) for row in rows[1:] for line in row[c].text.split("\n"))))
                   for c in range(1, len(sides) + 1)}
        blocks += [Heading(scenario.name), Table(rows, wrap=weights, min_wrap_px=260, max_wrap_px=600)]
    legend = []
    for tag in tags:
        legend.append(f"{symbols[tag]} {humane(tag)}")
    if legend:
        blocks += [Gap(4), Paragraph("Marks: " + "; ".join(legend) + ".", size=SMALL_PX + 1)]
    if notes:
        blocks.append(Paragraph("  ".join(f"({i}) {note}." if not note.endswith(".") else f"({i}) {note}"
                                          for i, note in enumerate(notes, 1)), size=SMALL_PX + 1))
    footer = sources_footer(*(a.source for _, a in game.reinforcements))
    return Sheet("Reinforcement Schedule", game.manifest.title, blocks, footer)


def replacement_sheet(game: Game) -> Sheet:
    """Replacement points: per scenario a grid of turns against side and kind."""
    blocks: list[Block] = []
    scenarios = [s for s in game.manifest.scenario if any(r.scenario == s.id for _, r in game.replacements)]
    for scenario in scenarios:
        records = [r for _, r in game.replacements if r.scenario == scenario.id]
        turns = list(range(scenario.first_turn, scenario.last_turn + 1))
        # One row per side, kind and source: rates from two sections (Omaha's campaign, 14.0 and
        # 11.2.5 added by 14.0 g) are shown apart, each as its section gives it, never summed.
        keys: list[tuple[str, str, str]] = []
        for side in game.manifest.sides:
            keys += sorted({(r.side, r.kind, r.source) for r in records if r.side == side},
                           key=lambda k: (k[1], section_order(k[2])))
        several = len({r.source for r in records}) > 1
        amounts: dict[tuple[str, str, str, int], int] = defaultdict(int)
        for r in records:
            amounts[(r.side, r.kind, r.source, r.turn)] += r.amount
        # Long scenarios split into chunks so the grid stays within the chart width.
        parts = ceil(len(turns) / 26)
        chunk = ceil(len(turns) / parts)
        if blocks:
            blocks.append(Gap(10))
        blocks.append(Heading(scenario.name))
        for start in range(0, len(turns), chunk):
            part = turns[start:start + chunk]
            rows = [[Cell("Turn", bold=True, fill=HEADER_FILL, align="left")]
                    + [Cell(str(t), bold=True, fill=HEADER_FILL) for t in part]]
            for side, kind, source in keys:
                fill = hex_colour(mix(rgb(side_colour(game, side)), rgb(PAPER), 0.55))
                label = f"{side} {humane(kind)}" + (f" ({cited(source)})" if several else "")
                rows.append([Cell(label, bold=True, fill=fill, align="left")]
                            + [Cell(str(amounts[(side, kind, source, t)]) if (side, kind, source, t) in amounts
                                    else "", fill=None if (side, kind, source, t) in amounts else EMPTY_FILL)
                               for t in part])
            if start:
                blocks.append(Gap(6))
            blocks.append(Table(rows, min_column_px=44))
        absent = [side for side in game.manifest.sides if not any(r.side == side for r in records)]
        if absent:
            blocks.append(Paragraph(f"{', '.join(absent)}: no replacements in this scenario.", size=SMALL_PX + 1))
    notes = sorted({r.note for _, r in game.replacements if r.note})
    for note in notes:
        blocks.append(Paragraph(note, size=SMALL_PX + 1))
    footer = sources_footer(*(r.source for _, r in game.replacements))
    return Sheet("Replacement Points", game.manifest.title, blocks, footer)
