"""A game's data loaded, cross-checked and indexed: `load_game` is the one entry point."""

from __future__ import annotations

import os
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from wargame.bundled import game_dir
from wargame.errors import DataError, DataErrors, Place, UnreadableData, did_you_mean
from wargame.gamecache import cached_game, fingerprint, keep_game
from wargame.constraints import Model
from wargame.gamedata import Game
from wargame.models import (
    AreasFile, Arrival, GameManifest, HexRecord, HexsideRecord, MapManifest, MarkersFile, PlaceRecord, Placement,
    ReplacementRecord, TerrainChart, Unit,
)
from wargame.tables import ChartsFile, CombatTable, ParametersFile


M = TypeVar("M", bound=Model)


def _collect(errors: list[DataError], load: Callable[[], M]) -> M | None:
    try:
        return load()
    except DataErrors as e:
        errors.extend(e.errors)
    except DataError as e:
        errors.append(e)
    return None


def toml_line_of(folder: Path, key: str) -> int | None:
    """The line of a top-level key of a game's game.toml, for an error placed on it."""
    from wargame.toml_lines import toml_line
    try:
        return toml_line((folder / "game.toml").read_text(encoding="utf-8"), (key,))
    except (OSError, UnicodeDecodeError):
        return None


def _given_twice(chart: TerrainChart, path: Path) -> list[DataError]:
    """A terrain given again under an id it has already: the game keeps one terrain an id (a dict, where the
    cross-check cannot see a repeat), so one table's values would silently be lost; placed at the later id."""
    from wargame.consistency import given_again

    again = given_again([(("terrain", i), terrain.id) for i, terrain in enumerate(chart.terrain)])
    if not again:
        return []
    from wargame.toml_lines import TomlLines  # here: only a chart with a repeat is indexed

    lines = TomlLines(path.read_text(encoding="utf-8"))
    return [DataError(f"terrain {terrain_id!r} defined {'twice' if n == 2 else f'{n} times'}", Place(
        path, lines.line_of((*at, "id")), None, f"terrain[{at[1]}].id")) for terrain_id, (n, at) in again.items()]


def _file_order(error: DataError) -> tuple[str, int, int]:
    """Problems sorted by file, then line and column (keys of a TOML file without a line first)."""
    place = error.place
    if place is None:
        return ("", 0, 0)
    return (str(place.file or ""), place.line or 0, place.column or 0)


LOADED_MAX = 8
"""Games kept loaded in one process (a test run or a fuzz campaign asks for the same few games thousands of times)."""
_LOADED: OrderedDict[tuple[str, str], tuple[bytes, Game]] = OrderedDict()
def load_game(root: Path, game_id: str) -> Game:
    """Load and cross-check a game's data; DataErrors listing every problem found. A game already loaded in this
    process from the very same bytes is the same object, and one kept by an earlier run is read back from the cache
    folder (wargame/gamecache.py); either way its data are read again and compared, never trusted. It is
    shared, so whoever wants a changed game changes a copy (`copy.copy`, `dataclasses.replace`)."""
    key = (str(root.resolve()), game_id)
    cached = _LOADED.get(key)
    if cached is not None and fingerprint(cached[1].files.values()) == cached[0]:
        _LOADED.move_to_end(key)
        return cached[1]
    # An earlier run's game, from the same bytes and the same code: no data file parsed, no validator built.
    kept = cached_game(root, game_id)
    if kept is not None:
        _keep(key, *kept)
        return kept[1]
    game, before = _load_game(root, game_id)
    stamp = fingerprint(game.files.values())
    # Kept only when the files read the same before and after loading (none changed while it was read).
    if stamp is not None and stamp == before:
        keep_game(root, game_id, list(game.files.values()), stamp, game)
        _keep(key, stamp, game)
    return game


def unchanged_since_loaded(game: Game) -> bool:
    """Whether every data file still reads as `game` was loaded from (False for a game whose files changed while it
    loaded, which is never kept): what is made from it may be kept under its files' present bytes."""
    for stamp, kept in _LOADED.values():
        if kept is game:
            return fingerprint(game.files.values()) == stamp
    return False


def _keep(key: tuple[str, str], stamp: bytes, game: Game) -> None:
    """Keep a loaded game for this process, the LOADED_MAX most recent."""
    _LOADED[key] = (stamp, game)
    _LOADED.move_to_end(key)
    while len(_LOADED) > LOADED_MAX:
        _LOADED.popitem(last=False)


def _load_game(root: Path, game_id: str) -> tuple[Game, bytes | None]:
    """Load and cross-check a game's data from its files, with their fingerprint as loading began."""
    # Imported here: a game kept from an earlier run (wargame/gamecache.py) needs neither the parsers nor the checks.
    from wargame.consistency import cross_check
    from wargame.datafiles import load_csv, load_toml
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
        "charts": counters / "charts.toml", "parameters": counters / "parameters.toml", "rules": counters / "rules.toml",
    }
    before = fingerprint(files.values())
    required = {"map", "terrain", "game"}
    if manifest.id != game_id:
        # Logs, modules and the command line name a game by its folder: the two must agree.
        errors.append(DataError(f"id {manifest.id!r} differs from the game's folder counters/{game_id}: the game "
                                f"is known by its folder; write id = {game_id!r}",
                                Place(counters / "game.toml", toml_line_of(counters, "id"), None, "id")))
    failed: dict[str, list[dict[str, str]]] = defaultdict(list)
    stated: dict[str, dict[int, frozenset[str]]] = defaultdict(dict)

    # An optional file is absent only when no name is there: a broken symlink or a loop is read, and its error
    # given (it was taken for absent, and a loop's units.csv gave an "unknown unit" for every set-up row).
    unread: list[str] = []
    """The CSV files refused whole (not read, or their header refused) and the TOML files refused: what refers to
    theirs is not cross-checked, lest each reference give an error of its own (one mistake, one error: a misspelt
    key of markers.toml made every set-up row of a marker an "unknown unit or marker" too)."""
    unreadable: list[DataError] = []
    """The problems of the data files that could not be read at all."""

    def rows(name: str, model: type[M]) -> list[tuple[int, M]]:
        path = files[name]
        if not os.path.lexists(path) and name not in required:
            return []
        try:
            loaded, problems = load_csv(path, model, failed[name], stated[name])
        except DataError as e:  # a file that cannot be read (not UTF-8, too large...) is a problem of the data
            loaded, problems = [], [e]
            unreadable.append(e)
        if problems and not loaded and not failed[name]:
            unread.append(name)
        errors.extend(problems)
        return loaded

    def table(name: str, model: type[M], empty: M | None) -> M | None:
        path = files[name]
        if not os.path.lexists(path) and name not in required:
            return empty
        loaded = _collect(errors, lambda: load_toml(path, model))
        if loaded is None:
            unread.append(name)
        return loaded

    map_manifest = table("map", MapManifest, None)
    terrain_chart = table("terrain", TerrainChart, None)
    if terrain_chart is not None:
        errors.extend(_given_twice(terrain_chart, files["terrain"]))
    areas = table("areas", AreasFile, AreasFile(schema_version=1))
    markers = table("markers", MarkersFile, MarkersFile(schema_version=1))
    charts = table("charts", ChartsFile, ChartsFile(schema_version=1))
    crt = table("crt", CombatTable, None)
    parameters = table("parameters", ParametersFile, ParametersFile(schema_version=1))
    rules = None
    if os.path.lexists(files["rules"]):
        from wargame.rulebook import RulesFile  # the classic series' vocabulary: loaded for a game that has rules.toml
        rules = table("rules", RulesFile, None)
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
        rules=rules,
        files=files,
    )
    game.unloaded_units = frozenset(row["id"] for row in failed["units"] if row.get("id"))
    game.zoc_stated = frozenset(unit.id for n, unit in game.units if "zoc" in stated["units"].get(n, ()))
    if unreadable:
        raise UnreadableData(errors)
    if map_manifest is None or terrain_chart is None or unread:
        raise DataErrors(sorted(errors, key=_file_order))
    errors.extend(cross_check(game))
    if errors:
        raise DataErrors(sorted(errors, key=_file_order))
    return game, before


__all__ = ["Game", "fingerprint", "load_game", "unchanged_since_loaded"]
