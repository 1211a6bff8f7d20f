"""What a finding's arithmetic rests on: the data records (CRT cell, hex terrain, hexside feature,
unit strength) named with their file, record and source, so a verdict resting on a reconstructed
value says so (docs/log-format.md, "basis"). The records come from the loaded game; a player who
corrects the data folder (`--data`) gets verdicts, and bases, on their values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from adjudicator.findings import Basis
from wargame.game import Game
from wargame.hexes import Hex, Hexside

__all__ = ["Basis", "attack_records", "crt_cell", "hex_terrain", "hexside_features", "marker_values", "unit_strength"]


@dataclass(frozen=True)
class _Index:
    """A game's hex and hexside records by hex, with their line in the data file."""

    hexes: dict[Hex, tuple[int, str, str]]
    hexsides: dict[Hexside, list[tuple[int, str, str]]]


_INDEXES: dict[int, tuple[Game, _Index]] = {}
"""One index per game loaded (the adjudicator's cache, not the kernel's: house style 15)."""


def _index(game: Game) -> _Index:
    known = _INDEXES.get(id(game))
    if known is not None and known[0] is game:
        return known[1]
    grid = game.grid
    hexes = {grid.hex_of(r.hex): (n, r.hex, r.source) for n, r in game.hexes if grid.is_label(r.hex)}
    sides: dict[Hexside, list[tuple[int, str, str]]] = {}
    for n, r in game.hexsides:
        try:
            side = grid.parse_hexside(r.hexside)
        except Exception:  # GridError: the cross-check reports it when the game loads
            continue
        sides.setdefault(side, []).append((n, f"{r.hexside} {r.feature}", r.source))
    if len(_INDEXES) > 8:
        _INDEXES.clear()
    index = _INDEXES[id(game)] = (game, _Index(hexes, sides))
    return index[1]


_FILES: dict[int, tuple[Game, dict[str, str]]] = {}
"""Each game's data files by name, as a basis names them (asked for every record of every audit)."""


def _file(game: Game, name: str) -> str:
    known = _FILES.get(id(game))
    if known is None or known[0] is not game:
        if len(_FILES) > 8:
            _FILES.clear()
        known = _FILES[id(game)] = (game, {})
    files = known[1]
    if name not in files:
        files[name] = _file_of(game, name)
    return files[name]


def _file_of(game: Game, name: str) -> str:
    path = game.files.get(name)
    if path is None:
        return name
    try:
        return path.relative_to(game.root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def crt_cell(game: Game, column: str, die: int, line: str | None = None) -> Basis:
    """The combat table's cell of a column and (modified) die roll, on a terrain line if given: its source is a
    stated cell's, else the table's, and reconstructed when the terrain line is."""
    assert game.crt is not None
    stated = next((s.source for s in game.crt.stated if s.column == column and s.die == die), None)
    source = stated or game.crt.source
    crt_line = next((x for x in game.crt.line if x.id == line), None)
    if crt_line is not None and crt_line.source.startswith("reconstructed"):
        source = crt_line.source
    where = f"line {line} " if line else ""
    return Basis(_file(game, "crt"), f"results {where}{column}/{die}", source, f"crt {where}{column}/{die}")


def marker_values(game: Game, marker_ids: Iterable[str]) -> tuple[Basis, ...]:
    """The support fire markers' values (markers.toml)."""
    markers = game.markers_by_id
    return tuple(Basis(_file(game, "markers"), m, markers[m].source, f"marker {m}") for m in dict.fromkeys(marker_ids)
                 if m in markers)


def attack_records(game: Game, target: Hex, attackers: Iterable[tuple[str, bool]], defenders: Iterable[tuple[str, bool]],
                   sides: Iterable[Hexside] = (), markers: Iterable[str] = (),
                   values: tuple[str, str] = ("combat", "combat")) -> tuple[Basis, ...]:
    """Everything an attack's arithmetic reads: attackers' and defenders' values (unit, depleted?), the
    defending hex's terrain, the hexsides attacked across and the support markers."""
    return (*(unit_strength(game, u, "reduced" if depleted else "full", values[0]) for u, depleted in attackers
              if u in game.units_by_id),
            *(unit_strength(game, u, "reduced" if depleted else "full", values[1]) for u, depleted in defenders
              if u in game.units_by_id),
            *hex_terrain(game, [target]), *hexside_features(game, sides), *marker_values(game, markers))


def hex_terrain(game: Game, hexes: Iterable[Hex]) -> tuple[Basis, ...]:
    """The terrain records (hexes.csv rows) of hexes."""
    index = _index(game)
    out = []
    for h in hexes:
        row = index.hexes.get(h)
        if row is not None:
            n, label, source = row
            out.append(Basis(_file(game, "hexes"), f"{label} (line {n})", source, f"terrain {label}"))
    return tuple(out)


def hexside_features(game: Game, sides: Iterable[Hexside]) -> tuple[Basis, ...]:
    """The feature records (hexsides.csv rows) of hexsides (a hexside without a feature has none)."""
    index = _index(game)
    return tuple(Basis(_file(game, "hexsides"), f"{key} (line {n})", source, f"hexside {key}")
                 for side in sides for n, key, source in index.hexsides.get(side, ()))


def unit_strength(game: Game, unit_id: str, face: Literal["full", "reduced"], value: str) -> Basis:
    """A unit's printed value (`combat`, `attack`, `defence`) on one face, reconstructed if units.csv says so."""
    unit = game.units_by_id[unit_id]
    reconstructed = face in unit.reconstructed or f"{face}.{value}" in unit.reconstructed
    return Basis(_file(game, "units"), f"{unit_id} {face}.{value}", "reconstructed" if reconstructed else unit.source,
                 f"{unit_id} {face} {value}")
