"""Where the games' data live: a checkout's maps/ and counters/, or the copy inside the wheel."""

from __future__ import annotations

import os
from pathlib import Path

from wargame.errors import DataError, did_you_mean

_PACKAGE = Path(__file__).resolve().parent


def bundled_root() -> Path:
    """The bundled games' data (the wheel's copy or the checkout), whatever $UMPIRE_DATA says."""
    candidates = [_PACKAGE / "bundled_data", _PACKAGE.parent]
    for root in candidates:
        if (root / "maps").is_dir() and (root / "counters").is_dir():
            return root
    raise DataError(f"no bundled game data (maps/ and counters/) under {candidates[0]} or {candidates[1]}")


def is_checkout(root: Path) -> bool:
    """True when a data root is a source checkout's (beside the code), not the copy inside an installed wheel."""
    return root.resolve() == _PACKAGE.parent.resolve() and (root / "pyproject.toml").is_file()


def data_root(explicit: Path | None = None) -> Path:
    """The folder holding maps/ and counters/: explicit, $UMPIRE_DATA, the wheel's copy or the checkout."""
    candidates: list[Path] = []
    if explicit is not None:
        candidates.append(explicit)
    elif os.environ.get("UMPIRE_DATA"):
        candidates.append(Path(os.environ["UMPIRE_DATA"]))
    else:
        # A regular install carries the data inside the package; an editable one or a plain
        # checkout keeps them beside it.
        candidates += [_PACKAGE / "bundled_data", _PACKAGE.parent]
    for root in candidates:
        if (root / "maps").is_dir() and (root / "counters").is_dir():
            return root
    raise DataError(f"no game data (maps/ and counters/) under {candidates[0]}")


def game_ids(root: Path) -> list[str]:
    """Games found under a data root: folders of counters/ with a game.toml."""
    return sorted(p.name for p in (root / "counters").iterdir() if (p / "game.toml").is_file())


def game_dir(root: Path, game_id: str) -> Path:
    """The counters folder of a game; DataError with suggestions if there is none."""
    games = game_ids(root)
    if game_id not in games:
        known = ", ".join(games) or "none"
        raise DataError(f"no game {game_id!r} under {root} (games: {known}){did_you_mean(game_id, games)}")
    return root / "counters" / game_id
