"""Omaha's charts and places as data the rules check against: the Pointe du Hoc chart (11.2.3),
the German +6 marker it may cost, and the places whose capture costs the German a marker (11.1.4)."""

from __future__ import annotations


from wargame.game import Game
from wargame.records import frozen


@frozen
class PointeDuHoc:
    """One row of the Pointe du Hoc chart (11.2.3)."""

    die: int
    ranger: str
    """'eliminated', 'reduced' or 'none'."""
    move_hexes: int | None
    """How far the Rangers may move on GT 1; None when eliminated."""
    german_plus6: str
    """'eliminate' (for GT 1), 'eliminate_permanently' or 'none'."""


def pointe_du_hoc(game: Game, die: int) -> PointeDuHoc | None:
    """The chart's row for a die, None when the die is not on it (or the game has no such chart)."""
    chart = next((c for c in game.charts.chart if c.id == "pointe_du_hoc"), None)
    if chart is None:
        return None
    cells = [dict(zip(chart.columns, row)) for row in chart.rows]
    row = next((c for c in cells if c["die"] == str(die)), None)
    if row is None:
        return None
    move = row["move_hexes"]
    return PointeDuHoc(die, row["ranger"], int(move) if move else None, row["german_plus6"])


def plus_six(game: Game) -> str | None:
    """The German +6 support fire marker 11.2.3 names."""
    return next((m.id for m in game.markers.marker if m.side == "German" and m.kind == "support_fire"
                 and m.value == 6), None)


def capture_locations(game: Game) -> list[tuple[str, frozenset[str]]]:
    """11.1.4's places, each with every hex the Allies must hold: a single hex of the area, or a
    member area (Isigny: both hexes)."""
    area = game.areas_by_id.get("german_marker_loss")
    if area is None:
        return []
    names = {p.hex: p.name for _, p in game.places}
    out = [(names.get(label, label), frozenset({label})) for label in area.hexes]
    for member in area.members:
        sub = game.areas_by_id[member]
        out.append((sub.name, frozenset(sub.hexes)))
    return sorted(out, key=lambda item: sorted(item[1]))
