"""Whether a file is a VASSAL log or saved game, told without importing the VASSAL reader or translator
(a check of a text log then never loads them)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wargame.vassal.reader import Limits

VASSAL_SUFFIXES = (".vlog", ".vsav")


def is_vassal_file(path: Path, limits: Limits | None = None) -> bool:
    """True for a .vlog or .vsav, or a zip holding `savedGame` (only its directory is read)."""
    if path.suffix.lower() in VASSAL_SUFFIXES:
        return True
    try:
        with path.open("rb") as stream:
            if stream.read(2) != b"PK":
                return False
    except (OSError, ValueError, EOFError, NotImplementedError, RuntimeError, OverflowError):
        return False
    # A zip: only now are zipfile and the reader needed (its size limit and the saved game's entry name).
    import zipfile

    try:
        from wargame.vassal.reader import SAVED_GAME, Limits
        found = path.stat()
        # Only a regular file is opened as a zip: zipfile reads a pipe or a device whole, without bound.
        if not stat.S_ISREG(found.st_mode) or found.st_size > (limits or Limits()).max_file_bytes:
            return False
        with zipfile.ZipFile(path) as archive:
            return SAVED_GAME in archive.namelist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, RuntimeError, OverflowError):
        return False
