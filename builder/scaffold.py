"""`vmodbuild new`: a new game's data folder, copied from a bundled game or a blank one to edit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from builder import blank_game
from wargame.bundled import bundled_root, game_dir, game_ids
from wargame.errors import DataError, did_you_mean
from wargame.records import frozen

BLANK_SOURCE = "moscow"
"""The bundled game a blank one is derived from: its sides, sequence of play, terrain chart and table (the one place
outside the rule systems that names a game: builder/blank_game.py rewrites its copy; tests/test_architecture.py)."""

TEMPLATES = ("blank", *game_ids(bundled_root()))
"""What a new game starts from: a bundled game's data, or `blank` (a plain map on the classic series)."""

_GAME_ID = re.compile(r"^[a-z][a-z0-9_-]*$")


@frozen
class NewGame:
    """The folders a new game was written into, and its sample log (a blank game's only)."""

    counters: Path
    maps: Path
    sample_log: Path | None = None


def _set_key(text: str, key: str, value: str) -> str:
    """A top-level `key = "..."` line of a TOML text set to value (comments and layout kept)."""
    pattern = re.compile(rf'^{key}\s*=\s*"[^"\n]*"', re.MULTILINE)
    if not pattern.search(text):
        raise DataError(f"game.toml of the template has no {key} = \"...\" line")
    return pattern.sub(f'{key} = "{value}"', text, count=1)


_NOTE = re.compile(r'^note\s*=\s*(?:"""(?:.|\n)*?"""|"[^"\n]*")\n', re.MULTILINE)
_HEADER = re.compile(r"\A(?:#[^\n]*\n)+")


def _adapt_toml(path: Path, *header: str) -> None:
    """A copied TOML file of the source game without its notes, under a new opening comment.

    The notes and the opening comment tell the source game's story (its editions, its places); the
    tables and the comments that explain a key stay."""
    text = _NOTE.sub("", path.read_text(encoding="utf-8"))
    text = _HEADER.sub("", text)
    path.write_text("".join(f"# {line}\n" for line in header) + text, encoding="utf-8")


def _blank_game(maps: Path, counters: Path, game_id: str) -> None:
    """Turn a copy of Battle for Moscow into a blank map with four units, its rules renamed to fit."""
    origin = f"{game_id}: copied from Battle for Moscow by `vmodbuild new --from blank`; edit it to your game."
    for name, text in (("map.toml", blank_game.map_toml(game_id)), ("hexes.csv", blank_game.HEXES_CSV),
                       ("hexsides.csv", blank_game.HEXSIDES_CSV), ("places.csv", blank_game.PLACES_CSV),
                       ("areas.toml", blank_game.AREAS_TOML)):
        (maps / name).write_text(text, encoding="utf-8")
    _adapt_toml(maps / "terrain.toml", origin, "mp_cost: hexes of allowance spent to enter a hex (the costliest "
                "terrain of a hex counts);", "rules.toml gives the combat effects.")
    # The terrain id `moscow` stays (rules.toml's column shift names it); the chart calls it a major city.
    terrain = (maps / "terrain.toml").read_text(encoding="utf-8")
    (maps / "terrain.toml").write_text(terrain.replace('name = "Moscow"', 'name = "Major city"')
                                        .replace("in Moscow", "in a major city"), encoding="utf-8")
    for name, text in (("units.csv", blank_game.UNITS_CSV), ("setup.csv", blank_game.SETUP_CSV),
                       ("reinforcements.csv", blank_game.REINFORCEMENTS_CSV),
                       ("replacements.csv", blank_game.REPLACEMENTS_CSV), ("charts.toml", blank_game.CHARTS_TOML),
                       ("rules.toml", blank_game.RULES_TOML)):
        (counters / name).write_text(text, encoding="utf-8")
    for name in ("crt.toml", "markers.toml"):
        _adapt_toml(counters / name, origin)
    game_toml = counters / "game.toml"
    _adapt_toml(game_toml, origin, "The sides, unit types and sequence of play are Battle for Moscow's.")
    header, _, text = game_toml.read_text(encoding="utf-8").partition("schema_version")
    text = _set_key("schema_version" + text, "title", f"{game_id} (a new game on the classic series)")
    # The scenario keeps its id (setup.csv names it); its name was the source game's.
    text = re.sub(r'^(\[\[scenario\]\]\nid = "[^"\n]*"\n)name = "[^"\n]*"', rf'\1name = "{game_id}"', text,
                  flags=re.MULTILINE)
    # The comments of the sequence of play name the source game's one victory place.
    text = re.sub(r"\bMoscow\b", "the Capital", text)
    game_toml.write_text(header + text, encoding="utf-8")


def new_game(source_root: Path, game_id: str, template: str, target_root: Path) -> NewGame:
    """Write counters/GAME and maps/GAME (and a blank game's sample log) under target_root; never overwrite."""
    if not _GAME_ID.match(game_id):
        raise DataError(f"{game_id!r} is not a game id: lower-case letters, digits, '-' and '_', "
                        "beginning with a letter (e.g. 'ardennes')")
    if template not in TEMPLATES:
        raise DataError(f"no template {template!r} (templates: {', '.join(TEMPLATES)})"
                        f"{did_you_mean(template, TEMPLATES)}")
    source_game = BLANK_SOURCE if template == "blank" else template
    source_counters = game_dir(source_root, source_game)
    # Imported here: the data models (pydantic) are needed by this command only, not by every vmodbuild start-up.
    from wargame.datafiles import load_toml
    from wargame.models import GameManifest

    manifest = load_toml(source_counters / "game.toml", GameManifest)
    counters = target_root / "counters" / game_id
    maps = target_root / "maps" / game_id
    sample = target_root / "examples" / game_id / "sample-game.log" if template == "blank" else None
    for made in (counters, maps, sample):
        if made is not None and made.exists():
            raise DataError(f"{made} exists already: choose another game id or --data folder "
                            "(nothing is overwritten)")
    counters.parent.mkdir(parents=True, exist_ok=True)
    maps.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source_counters, counters)
    shutil.copytree(source_root / "maps" / manifest.map, maps)
    game_toml = (counters / "game.toml").read_text(encoding="utf-8")
    game_toml = _set_key(_set_key(game_toml, "id", game_id), "map", game_id)
    (counters / "game.toml").write_text(game_toml, encoding="utf-8")
    if sample is not None:
        _blank_game(maps, counters, game_id)
        sample.parent.mkdir(parents=True, exist_ok=True)
        sample.write_text(blank_game.sample_log(game_id), encoding="utf-8")
    return NewGame(counters, maps, sample)
