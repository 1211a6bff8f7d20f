"""Writing output files atomically, so a crash never leaves half a file where a good one was."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from wargame.errors import WargameError


def _temporary_prefix(path: Path) -> str:
    """`.<name>.<pid>.`: the hidden temporary files of `path` name the process writing them."""
    return f".{path.name}.{os.getpid()}."


def _is_running(pid: int) -> bool:
    """Whether a process with this id exists (a temporary file of a live writer is not stale)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0  # someone else's live process (or a pid we cannot ask about): leave its file
    return True


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Delete the temporary files of `path` left by writers that were killed before their rename."""
    pattern = re.compile(rf"^\.{re.escape(path.name)}\.(\d{{1,10}})\.[A-Za-z0-9_]+\.tmp$")
    removed: list[Path] = []
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return removed
    for name in names:
        match = pattern.match(name)
        if match and not _is_running(int(match.group(1))):
            try:
                (path.parent / name).unlink()
                removed.append(path.parent / name)
            except OSError:
                pass  # gone already, or not ours to remove
    return removed


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write text (UTF-8) or bytes to a temporary file beside `path`, fsync it, then rename it over.

    A refusal (the folder is a file, the disk is full, no permission) is a WargameError naming `path`.
    """
    for parent in (path.parent, *path.parent.parents):
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise WargameError(f"cannot write {path}: {parent} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WargameError(f"cannot create the folder {path.parent}: {e.strerror}") from None
    if path.is_dir():
        raise WargameError(f"cannot write {path}: it is a folder")
    remove_stale_temporaries(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_temporary_prefix(path), suffix=".tmp")
    except OSError as e:
        raise WargameError(f"cannot write into {path.parent}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            # Durable before it replaces anything: a power cut after the rename must not leave an empty file.
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as e:
        _discard(tmp)
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        _discard(tmp)
        raise
    _sync_folder(path.parent)


def _discard(tmp: str) -> None:
    """Remove a temporary file that will not be renamed."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the system allows a folder to be synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to sync a folder; the file itself is synced
    finally:
        os.close(fd)
