"""A game's data loaded, cross-checked and indexed: `load_game` is the one entry point."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from wargame.bundled import game_dir
from wargame.consistency import cross_check
from wargame.datafiles import load_csv, load_toml
from wargame.errors import DataError, DataErrors, Place, did_you_mean
from wargame.gamedata import Game
from wargame.models import (
    AreasFile, Arrival, ChartsFile, CombatTable, GameManifest, HexRecord, HexsideRecord, MapManifest, MarkersFile,
    ParametersFile, PlaceRecord, Placement, ReplacementRecord, TerrainChart, Unit,
)

__all__ = ["Game", "load_game"]

M = TypeVar("M", bound=BaseModel)


def _collect(errors: list[DataError], load: Callable[[], M]) -> M | None:
    try:
        return load()
    except DataErrors as e:
        errors.extend(e.errors)
    except DataError as e:
        errors.append(e)
    return None


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

    def rows(name: str, model: type[M]) -> list[tuple[int, M]]:
        path = files[name]
        if not path.exists() and name not in required:
            return []
        loaded, problems = load_csv(path, model)
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
    if map_manifest is None or terrain_chart is None:
        raise DataErrors(errors)
    errors.extend(cross_check(game))
    if errors:
        raise DataErrors(errors)
    return game


__all__ = ["Game", "load_game"]
