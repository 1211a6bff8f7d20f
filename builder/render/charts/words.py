"""Words a chart prints from the data: numbers, rule sections, footers and the names of ids."""

from __future__ import annotations

from builder.render.charts.layout import HEADER_FILL
from wargame.game import Game
from wargame.models import is_reconstructed


def number(value: float) -> str:
    """A number without a needless '.0': 1.0 -> '1', 0.5 -> '0.5'."""
    return f"{value:g}"


def signed(value: int) -> str:
    """A modifier with its sign: +1, −1."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def cited(source: str) -> str:
    """A source as players read it: the section, or 'reconstructed'."""
    return "reconstructed" if is_reconstructed(source) else source


def sources_footer(*sources: str) -> str:
    """The footer naming the rule sections a chart's values come from, and whether any are reconstructed."""
    sections = sorted({s for s in sources if not is_reconstructed(s)}, key=section_key)
    reconstructed = any(is_reconstructed(s) for s in sources)
    if not sections:
        return "Reconstructed: not printed in the rulebook (see PROVENANCE.md)" if reconstructed else ""
    return f"Rules {', '.join(sections)}" + ("; some values reconstructed (PROVENANCE.md)" if reconstructed else "")


def humane(word: str) -> str:
    """An identifier as words."""
    return word.replace("_", " ")


def display_names(game: Game) -> dict[str, str]:
    """Display names of every id a chart cell may hold: unit types, nationalities, terrain, areas, boxes."""
    names: dict[str, str] = {}
    for t in game.terrain.values():
        names[t.id] = t.name
    for a in game.areas.area:
        names[a.id] = a.name
    for b in game.manifest.box:
        names[b.id] = b.name
    for n in game.manifest.nationality:
        names[n.id] = n.name
    for u in game.manifest.unit_type:
        names[u.id] = u.name
    return names


def side_colour(game: Game, side: str) -> str:
    """A side's colour: the counter background of its first nationality."""
    for nationality in game.manifest.nationality:
        if nationality.side == side:
            return nationality.background_colour
    return HEADER_FILL


def first_players(game: Game) -> tuple[str | None, str | None]:
    """First and second player when every scenario agrees, else None."""
    firsts = {s.first_player for s in game.manifest.scenario}
    if len(firsts) != 1:
        return None, None
    first = firsts.pop()
    others = [s for s in game.manifest.sides if s != first]
    return first, (others[0] if others else None)


def section_key(section: str) -> tuple[int, ...]:
    """Sort key of a rule section number."""
    return tuple(int(part) for part in section.split("."))


def section_order(source: str) -> tuple[int, ...]:
    """Sort key of a source: rule sections in number order, the rest after them."""
    return section_key(source) if all(part.isdigit() for part in source.split(".")) else (999,)
