"""The `Game` object: one game's data, loaded and indexed (`wargame.game.load_game` makes it)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from wargame.errors import GridError, did_you_mean
from wargame.grid import Grid
from wargame.hexes import Hex, Hexside
from wargame.layout import Layout
from wargame.models import (
    Area, AreasFile, Arrival, GameManifest, HexRecord, HexsideRecord, Line, MapManifest, Marker, MarkersFile,
    PlaceRecord, Placement, ReplacementRecord, TerrainType, Unit,
)
from wargame.tables import ChartsFile, CombatTable, ParametersFile

if TYPE_CHECKING:
    from wargame.rulebook import RulesFile


@dataclass
class Game:
    """Everything bundled for one game, with the indexes the builder and adjudicator use."""

    id: str
    root: Path
    manifest: GameManifest
    map: MapManifest
    terrain: dict[str, TerrainType]
    hexes: list[tuple[int, HexRecord]]
    hexsides: list[tuple[int, HexsideRecord]]
    places: list[tuple[int, PlaceRecord]]
    areas: AreasFile
    units: list[tuple[int, Unit]]
    markers: MarkersFile
    setup: list[tuple[int, Placement]]
    reinforcements: list[tuple[int, Arrival]]
    replacements: list[tuple[int, ReplacementRecord]]
    crt: CombatTable | None
    charts: ChartsFile
    parameters: ParametersFile
    rules: RulesFile | None = None
    """The rules as data (rules.toml), for a game on the classic rule system."""
    files: dict[str, Path] = field(default_factory=dict)
    unloaded_units: frozenset[str] = frozenset()
    """Ids of units.csv rows that did not load: already reported, so not unknown where referred to."""
    zoc_stated: frozenset[str] = frozenset()
    """Ids of units whose units.csv row gives `zoc` (the others exert a zone of control by the rules' default)."""

    @cached_property
    def grid(self) -> Grid:
        """The map's grid."""
        return Grid(self.map.grid)

    @cached_property
    def layout(self) -> Layout:
        """The map's pixel layout (VASSAL-compatible)."""
        return Layout.for_grid(self.grid, self.map.layout.hex_size_px, self.map.layout.margin_px)

    @cached_property
    def board_size(self) -> tuple[int, int]:
        """The map image size in pixels."""
        return self.layout.board_size(self.grid, self.map.layout.margin_px)

    @cached_property
    def hex_terrain(self) -> dict[Hex, tuple[str, ...]]:
        """Terrain ids of every map hex (the default terrain where hexes.csv is silent)."""
        out: dict[Hex, tuple[str, ...]] = {h: (self.map.default_terrain,) for h in self.grid.hexes}
        for _, record in self.hexes:
            out[self.grid.hex_of(record.hex)] = record.terrain
        return out

    @cached_property
    def hexside_features(self) -> dict[Hexside, frozenset[str]]:
        """Features on every hexside that has any."""
        acc: dict[Hexside, set[str]] = defaultdict(set)
        for _, record, side in self.placed_hexsides:
            acc[side if side is not None else self.grid.parse_hexside(record.hexside)].add(record.feature)
        return {side: frozenset(features) for side, features in sorted(acc.items())}

    @cached_property
    def placed_hexsides(self) -> tuple[tuple[int, HexsideRecord, Hexside | None], ...]:
        """Each hexside record with its line and the hexside it names (None for one the map does not have: the
        cross-check reports it), read once for every table built on them."""
        out = []
        for n, record in self.hexsides:
            try:
                side: Hexside | None = self.grid.parse_hexside(record.hexside)
            except GridError:
                side = None
            out.append((n, record, side))
        return tuple(out)

    @cached_property
    def units_by_id(self) -> dict[str, Unit]:
        """Units by id."""
        return {u.id: u for _, u in self.units}

    @cached_property
    def markers_by_id(self) -> dict[str, Marker]:
        """Markers by id."""
        return {m.id: m for m in self.markers.marker}

    def unknown_unit(self, word: str) -> str:
        """The message for a word written where a unit belongs that names none: a marker's id said to be one, else
        the closest unit ids."""
        marker = self.markers_by_id.get(word)
        if marker is not None:
            # A marker is a counter but no unit in play: a player who writes one where a unit belongs has the
            # wrong word, not a typo, and the ids closest to it would mislead (docs/log-format.md: markers).
            return (f"unknown unit {word!r}: that is a marker ({marker.name}), not a unit; a log names markers only "
                    "after 'support', 'draw', 'aside' or 'lose'")
        return f"unknown unit {word!r}{did_you_mean(word, self.units_by_id)}"

    @cached_property
    def parameter(self) -> dict[str, int | float | bool | str]:
        """The rules' numbers by id."""
        return {p.id: p.value for p in self.parameters.parameter}

    @cached_property
    def areas_by_id(self) -> dict[str, Area]:
        """Areas by id."""
        return {a.id: a for a in self.areas.area}

    @cached_property
    def lines_by_id(self) -> dict[str, Line]:
        """Lines by id."""
        return {line.id: line for line in self.areas.line}

    def area_hexes(self, area_id: str) -> frozenset[Hex]:
        """Every hex of an area, members included."""
        area = self.areas_by_id[area_id]
        out = {self.grid.hex_of(label) for label in area.hexes}
        for member in area.members:
            out |= self.area_hexes(member)
        return frozenset(out)
