"""A loaded game as canonical JSON (for other tools) and as a summary a person reads."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from wargame.constraints import record_data
from wargame.game import Game
from wargame.models import SCHEMA_VERSION, is_reconstructed


def game_document(game: Game) -> dict[str, Any]:
    """Everything loaded for a game as plain JSON data, in a stable order (see README)."""
    grid = game.grid
    default_source = game.map.source
    hex_rows = {game.grid.hex_of(r.hex): r for _, r in game.hexes}
    features = game.hexside_features
    side_sources: dict[tuple[Any, str], str] = {}
    for _, side_record in game.hexsides:
        side_sources[(grid.parse_hexside(side_record.hexside), side_record.feature)] = side_record.source
    hexes = []
    for h in grid.hexes:
        column, row = grid.numbers_of(h)
        record = hex_rows.get(h)
        sides = {}
        for direction, name in enumerate(grid.direction_names):
            found = features.get(h.side(direction))
            if found:
                sides[name] = sorted(found)
        hexes.append({
            "hex": grid.label_of(h),
            "column": column,
            "row": row,
            "terrain": list(game.hex_terrain[h]),
            "source": record.source if record else default_source,
            "hexsides": sides,
        })
    hexsides = [
        {
            "hexside": grid.hexside_label(side),
            "features": [{"feature": f, "source": side_sources[(side, f)]} for f in sorted(found)],
        }
        for side, found in features.items()
    ]
    areas = []
    for area in game.areas.area:
        doc: dict[str, Any] = record_data(area)
        doc["all_hexes"] = sorted(grid.label_of(h) for h in game.area_hexes(area.id))
        areas.append(doc)

    def dump_rows(rows: list[tuple[int, Any]]) -> list[dict[str, Any]]:
        return [record_data(r) for _, r in rows]

    m = game.manifest
    return {
        "schema_version": SCHEMA_VERSION,
        "game": {
            "id": m.id, "title": m.title, "rule_system": m.rule_system, "sides": list(m.sides),
            "value_names": list(m.value_names), "source": m.source, "note": m.note,
        },
        "map": {
            "name": game.map.name,
            "grid": record_data(game.map.grid),
            "layout": {**record_data(game.map.layout), "board_size_px": list(game.board_size)},
            "default_terrain": game.map.default_terrain,
            "miles_per_hex": game.map.miles_per_hex,
            "north": game.map.north,
            "source": game.map.source,
            "hexes": hexes,
            "hexsides": hexsides,
            "places": dump_rows(game.places),
            "areas": areas,
            "lines": [record_data(line) for line in game.areas.line],
        },
        "terrain": [record_data(t) for t in game.terrain.values()],
        "nationalities": [record_data(n) for n in m.nationality],
        "unit_types": [record_data(t) for t in m.unit_type],
        "boxes": [record_data(b) for b in m.box],
        "tracks": [record_data(t) for t in m.track],
        "sequence": [record_data(s) for s in m.sequence],
        "scenarios": [record_data(s) for s in m.scenario],
        "optional_rules": [record_data(o) for o in m.optional_rule],
        "units": dump_rows(game.units),
        "markers": [record_data(mk) for mk in game.markers.marker],
        "setup": dump_rows(game.setup),
        "reinforcements": dump_rows(game.reinforcements),
        "replacements": dump_rows(game.replacements),
        "crt": record_data(game.crt) if game.crt else None,
        "charts": [record_data(c) for c in game.charts.chart],
        "parameters": [record_data(p) for p in game.parameters.parameter],
    }


def game_json(game: Game) -> str:
    """Canonical JSON text: sorted keys, two-space indent, UTF-8 names kept, final newline."""
    return json.dumps(game_document(game), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def provenance_counts(game: Game) -> tuple[int, int]:
    """How many records of the game's data are transcribed and how many reconstructed."""
    sources: list[str] = [game.map.source, game.manifest.source]
    sources += [t.source for t in game.terrain.values()]
    for rows in (game.hexes, game.hexsides, game.places, game.units, game.setup, game.reinforcements,
                 game.replacements):
        sources += [r.source for _, r in rows]
    sources += [a.source for a in game.areas.area] + [line.source for line in game.areas.line]
    sources += [mk.source for mk in game.markers.marker] + [c.source for c in game.charts.chart]
    sources += [p.source for p in game.parameters.parameter]
    m = game.manifest
    for group in (m.nationality, m.unit_type, m.box, m.track, m.scenario):
        sources += [item.source for item in group]
    if game.crt:
        sources += [game.crt.source] + [line.source for line in game.crt.line]
    reconstructed = sum(1 for s in sources if is_reconstructed(s))
    return len(sources) - reconstructed, reconstructed


def game_summary(game: Game) -> str:
    """A few paragraphs describing the loaded game for a person."""
    m = game.manifest
    spec = game.map.grid
    terrain = Counter(t for ts in game.hex_terrain.values() for t in ts)
    features = Counter(f for fs in game.hexside_features.values() for f in fs)
    transcribed, reconstructed = provenance_counts(game)
    w, h = game.board_size
    lines = [
        f"{m.title} [{m.id}], rule system {m.rule_system}; sides {m.sides[0]} and {m.sides[1]}",
        f"Map: {game.map.name}",
        f"  grid: {spec.orientation}-topped, {spec.columns} columns x {spec.rows} rows = {len(game.grid)} hexes, "
        f"{spec.shifted} {'columns' if spec.orientation == 'flat' else 'rows'} shifted, labels "
        f"{game.grid.label_of(game.grid.hexes[0])}..{game.grid.label_of(game.grid.hexes[-1])}",
        f"  image: {w} x {h} px at {game.map.layout.hex_size_px:g} px per hex side",
        "  terrain: " + (", ".join(f"{t} {n}" for t, n in sorted(terrain.items())) or "none"),
        "  hexside features: " + (", ".join(f"{f} {n}" for f, n in sorted(features.items())) or "none"),
        f"  places: {len(game.places)}; areas: {len(game.areas.area)}; lines: {len(game.areas.line)}",
    ]
    by_side = Counter((u.side, u.type) for _, u in game.units)
    lines.append(f"Units: {len(game.units)}" + (
        " (" + ", ".join(f"{s} {t} {n}" for (s, t), n in sorted(by_side.items())) + ")" if by_side else ""))
    lines.append(f"Markers: {sum(mk.count for mk in game.markers.marker)} in {len(game.markers.marker)} kinds")
    for s in m.scenario:
        placed = sum(1 for _, p in game.setup if p.scenario == s.id)
        arriving = sum(1 for _, a in game.reinforcements if a.scenario == s.id)
        lines.append(f"Scenario {s.id}: {s.name}, turns {s.first_turn}-{s.last_turn}, {s.first_player} first; "
                     f"{placed} set-up entries, {arriving} reinforcements")
    tables = []
    if game.crt:
        tables.append(f"CRT ({game.crt.kind}, {len(game.crt.columns)} columns, {len(game.crt.line)} terrain lines)")
    tables += [c.name for c in game.charts.chart]
    lines.append("Tables: " + (", ".join(tables) or "none"))
    lines.append(f"Tracks: " + (", ".join(f"{t.name} {t.first}-{t.last}" for t in m.track) or "none"))
    lines.append(f"Provenance: {transcribed} records from the rulebook, {reconstructed} reconstructed")
    return "\n".join(lines) + "\n"
