"""A game's data loaded, cross-checked and indexed: `load_game` is the one entry point."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from wargame.bundled import game_dir
from wargame.consistency import cross_check
from wargame.datafiles import load_csv, load_toml
from wargame.errors import DataError, DataErrors, Place, did_you_mean
from wargame.grid import Grid
from wargame.hexes import Hex, Hexside
from wargame.layout import Layout
from wargame.models import (
    Area,
    AreasFile,
    Arrival,
    ChartsFile,
    ParametersFile,
    CombatTable,
    GameManifest,
    HexRecord,
    HexsideRecord,
    Line,
    MapManifest,
    Marker,
    MarkersFile,
    PlaceRecord,
    Placement,
    ReplacementRecord,
    TerrainChart,
    TerrainType,
    Unit,
)

M = TypeVar("M", bound=BaseModel)


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
    files: dict[str, Path] = field(default_factory=dict)
    unloaded_units: frozenset[str] = frozenset()
    """Ids of units.csv rows that did not load: already reported, so not unknown where referred to."""

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
        for _, record in self.hexsides:
            acc[self.grid.parse_hexside(record.hexside)].add(record.feature)
        return {side: frozenset(features) for side, features in sorted(acc.items())}

    @cached_property
    def units_by_id(self) -> dict[str, Unit]:
        """Units by id."""
        return {u.id: u for _, u in self.units}

    @cached_property
    def markers_by_id(self) -> dict[str, Marker]:
        """Markers by id."""
        return {m.id: m for m in self.markers.marker}

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


def _collect(errors: list[DataError], load: Callable[[], M]) -> M | None:
    try:
        return load()
    except DataErrors as e:
        errors.extend(e.errors)
    except DataError as e:
        errors.append(e)
    return None


def _file_order(error: DataError) -> tuple[str, int, int]:
    """Problems sorted by file, then line and column (keys of a TOML file without a line first)."""
    place = error.place
    if place is None:
        return ("", 0, 0)
    return (str(place.file or ""), place.line or 0, place.column or 0)


def load_game(root: Path, game_id: str) -> Game:
    """Load and cross-check a game's data; DataErrors listing every problem found."""
    counters = game_dir(root, game_id)
    errors: list[DataError] = []
    manifest = _collect(errors, lambda: load_toml(counters / "game.toml", GameManifest))
    if manifest is None:
        raise DataErrors(errors)
    maps = root / "maps" / manifest.map
    if not maps.is_dir():
        maps_known = sorted(p.name for p in (root / "maps").iterdir() if p.is_dir())
        errors.append(DataError(f"map folder {manifest.map!r} not found{did_you_mean(manifest.map, maps_known)}",
                                Place(counters / "game.toml", None, None, "map")))
        raise DataErrors(errors)
    files = {
        "map": maps / "map.toml", "terrain": maps / "terrain.toml", "hexes": maps / "hexes.csv",
        "hexsides": maps / "hexsides.csv", "places": maps / "places.csv", "areas": maps / "areas.toml",
        "game": counters / "game.toml", "units": counters / "units.csv", "markers": counters / "markers.toml",
        "setup": counters / "setup.csv", "reinforcements": counters / "reinforcements.csv",
        "replacements": counters / "replacements.csv", "crt": counters / "crt.toml",
        "charts": counters / "charts.toml", "parameters": counters / "parameters.toml",
    }
    required = {"map", "terrain", "game"}
    if manifest.id != game_id:
        errors.append(DataError(f"id {manifest.id!r} differs from the game's folder counters/{game_id}: the game "
                                f"is known by its folder; write id = {game_id!r}",
                                Place(counters / "game.toml", None, None, "id")))
    failed: dict[str, list[dict[str, str]]] = defaultdict(list)

    def rows(name: str, model: type[M]) -> list[tuple[int, M]]:
        path = files[name]
        if not path.exists() and name not in required:
            return []
        loaded, problems = load_csv(path, model, failed[name])
        errors.extend(problems)
        return loaded

    def table(name: str, model: type[M], empty: M | None) -> M | None:
        path = files[name]
        if not path.exists() and name not in required:
            return empty
        return _collect(errors, lambda: load_toml(path, model))

    map_manifest = table("map", MapManifest, None)
    terrain_chart = table("terrain", TerrainChart, None)
    areas = table("areas", AreasFile, AreasFile(schema_version=1))
    markers = table("markers", MarkersFile, MarkersFile(schema_version=1))
    charts = table("charts", ChartsFile, ChartsFile(schema_version=1))
    crt = table("crt", CombatTable, None)
    parameters = table("parameters", ParametersFile, ParametersFile(schema_version=1))
    game = Game(
        id=game_id,
        root=root,
        manifest=manifest,
        map=map_manifest,  # type: ignore[arg-type]  # checked below before use
        terrain={t.id: t for t in terrain_chart.terrain} if terrain_chart else {},
        hexes=rows("hexes", HexRecord),
        hexsides=rows("hexsides", HexsideRecord),
        places=rows("places", PlaceRecord),
        areas=areas or AreasFile(schema_version=1),
        units=rows("units", Unit),
        markers=markers or MarkersFile(schema_version=1),
        setup=rows("setup", Placement),
        reinforcements=rows("reinforcements", Arrival),
        replacements=rows("replacements", ReplacementRecord),
        crt=crt,
        charts=charts or ChartsFile(schema_version=1),
        parameters=parameters or ParametersFile(schema_version=1),
        files=files,
    )
    game.unloaded_units = frozenset(row["id"] for row in failed["units"] if row.get("id"))
    if map_manifest is None or terrain_chart is None:
        raise DataErrors(errors)
    errors.extend(cross_check(game))
    if errors:
        raise DataErrors(sorted(errors, key=_file_order))
    return game


__all__ = ["Game", "load_game"]
