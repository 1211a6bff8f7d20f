"""From a .vlog/.vsav file to its translation: read, follow the pieces, find the game, translate."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from adjudicator.vassal.translate import Translation, translate
from wargame.bundled import data_root, game_ids
from wargame.errors import DataError, Place, did_you_mean
from wargame.game import Game, load_game
from wargame.vassal.buildfile import ModuleInfo, read_module
from wargame.vassal.reader import Limits, Recording, read_recording
from wargame.vassal.tracking import Tracking, track

def game_id_of(recording: Recording, tracking: Tracking, root: Path, module: ModuleInfo | None = None) -> str:
    """The game of a recording: its pieces' `Game` property, else the module name matched to a title."""
    known = game_ids(root)
    votes = Counter(p.properties["Game"] for p in tracking.initial.values() if p.properties.get("Game") in known)
    if votes:
        return votes.most_common(1)[0][0]
    names = [n for n in (module.name if module else None, recording.moduledata.get("name")) if n]
    for game_id in sorted(known):
        if load_game(root, game_id).manifest.title in names:
            return game_id
    raise DataError(f"cannot tell which game this is: no piece carries a known 'Game' property and the module "
                    f"name {names[0] if names else ''!r} is not one of ours; give --game "
                    f"({', '.join(sorted(known))})", Place(recording.file))


def game_of_recording(recording: Recording, tracking: Tracking, root: Path, game_id: str | None = None,
                      module: ModuleInfo | None = None) -> Game:
    """The game a recording is of (`game_id` if given, checked against our games)."""
    if game_id is None:
        game_id = game_id_of(recording, tracking, root, module)
    elif game_id not in game_ids(root):
        raise DataError(f"unknown game {game_id!r}{did_you_mean(game_id, game_ids(root))}")
    return load_game(root, game_id)


def translate_file(path: Path, data: Path | None = None, game_id: str | None = None,
                   module_path: Path | None = None, limits: Limits = Limits()) -> Translation:
    """Read and translate a .vlog/.vsav for its game (or `game_id`), with the module's places if given."""
    module = read_module(module_path) if module_path is not None else None
    recording = read_recording(path, limits)
    tracking = track(recording)
    game = game_of_recording(recording, tracking, data_root(data), game_id, module)
    return translate(recording, tracking, game, module=module)
