"""Writing output files atomically, so a crash never leaves half a file where a good one was."""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

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


_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_CREATE_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOINHERIT", 0)
                 | getattr(os, "O_BINARY", 0))
"""tempfile.mkstemp's: a new file only, no symlink followed, not inherited by child processes, bytes as written."""


def create_temporary(folder: Path, prefix: str) -> tuple[int, str]:
    """A new file `<prefix><8 random characters>.tmp` in a folder, readable by its owner alone, open for writing:
    tempfile.mkstemp's file, without importing tempfile and random (4 million instructions of a build's main
    process, by callgrind; with shutil and the compression modules, about 2% of a check's). Every file Umpire
    writes whole goes through it: write_atomically's and the kept games'."""
    for _ in range(10000):  # tempfile.TMP_MAX tries before giving up
        name = os.path.join(folder, prefix + "".join(_NAME_CHARACTERS[b % 37] for b in os.urandom(8)) + ".tmp")
        try:
            return os.open(name, _CREATE_FLAGS, 0o600), os.path.abspath(name)
        except FileExistsError:
            continue
        except PermissionError:
            # Windows refuses to open a name a folder holds: another name then, as mkstemp tries.
            if os.name == "nt" and os.path.isdir(folder) and os.access(folder, os.W_OK):
                continue
            raise
    raise FileExistsError(errno.EEXIST, "no usable temporary file name found")


def _kind(head: bytes) -> str:
    """What the first bytes of a file say it is: a zip archive, a PNG picture, text or other bytes."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "a zip archive (a VASSAL module, saved game or log)"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "a PNG picture"
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return "text"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        # A character cut by the end of the sample is still text.
        if e.start < len(head) - 3:
            return "binary data"
    return "text"


def _refuse_another_kind(path: Path, payload: bytes, is_text: bool) -> None:
    """An existing file of another kind than the output (a VASSAL recording given as a text log's
    output) is kept: writing over it is almost certainly a slip of the command line."""
    try:
        with open(path, "rb") as given:
            head = given.read(512)
    except OSError:
        return
    if not head:
        return
    found, writing = _kind(head), "text" if is_text else _kind(payload[:512])
    if found != writing:
        raise WargameError(f"{path} is {found}, and the output is {writing}: it is kept (give --force to "
                           "overwrite it, or choose another name)")


def write_atomically(path: Path, data: str | bytes, force: bool = False) -> None:
    """Write text (UTF-8) or bytes to a temporary file beside `path`, fsync it, then rename it over.

    What `path` names is never destroyed: a character device or FIFO (`/dev/stdout`, a pipe) is written
    through; a symlink is followed and its target written; an existing file keeps its mode, its owner
    where we may and, when it has other hard links, its inode (written in place); a file of another
    kind than the output is refused unless `force`. A refusal (the folder is a file, the disk is full,
    no permission) is a WargameError naming `path`.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        found = os.stat(path)  # follows a symlink: what would be written is its target
    except (FileNotFoundError, NotADirectoryError):
        found = None  # a parent that is a file is reported below
    except OSError as e:
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None
    if found is not None and _is_ours(found):
        _write_to_our_stream(found, payload)
        return
    if found is not None and not stat.S_ISREG(found.st_mode):
        _write_through(path, payload, found)
        return
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if found is not None and not force:
        _refuse_another_kind(path, payload, isinstance(data, str))
    if found is not None and found.st_nlink > 1:
        _write_in_place(path, payload)
        return
    for parent in (path.parent, *path.parent.parents):
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise WargameError(f"cannot write {path}: {parent} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WargameError(f"cannot create the folder {path.parent}: {e.strerror}") from None
    remove_stale_temporaries(path)
    try:
        fd, tmp = create_temporary(path.parent, _temporary_prefix(path))
    except OSError as e:
        raise WargameError(f"cannot write into {path.parent}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            # Durable before it replaces anything: a power cut after the rename must not leave an empty file.
            os.fsync(out.fileno())
        if found is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        else:
            _keep_owner_and_mode(tmp, found)
        os.replace(tmp, path)
    except OSError as e:
        _discard(tmp)
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        _discard(tmp)
        raise
    _sync_folder(path.parent)


def check_output(path: Path, inputs: Iterable[Path] = ()) -> None:
    """Before any work, a WargameError for an output file that cannot be written where it is named (a symlink
    loop, a folder that does not exist or is a file) or that is one of the command's `inputs` (the same name,
    a symlink to it or another hard link of it: writing it would destroy what is read, --force or not)."""
    try:
        found: os.stat_result | None = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        found = None
    except OSError as e:  # a symlink loop, a folder we may not search
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None
    if found is None:
        # A file is written into a folder that exists: a mistyped folder is not made (the folders an output
        # of folders names, `--out`, `--images`, are).
        folder = Path(os.path.realpath(path)).parent
        if not folder.is_dir():
            what = "is a file, not a folder" if folder.exists() else "does not exist"
            raise WargameError(f"cannot write {path}: the folder {folder} {what}")
        return
    if not stat.S_ISREG(found.st_mode):
        return  # a device or a pipe is written through, never replaced; a folder is refused when written
    for given in inputs:
        try:
            same = os.path.samestat(found, os.stat(given))
        except OSError:
            continue  # standard input (`-`), or an input read already that is gone
        if same:
            named = "" if os.path.abspath(path) == os.path.abspath(given) else f" ({given}, the same file)"
            raise WargameError(f"cannot write {path}: the output would overwrite an input{named}; choose another "
                               "name")


def _is_ours(found: os.stat_result) -> bool:
    """Whether the target is this process's standard output or error (`-o /dev/stdout > file`)."""
    for fd in (1, 2):
        try:
            if os.path.samestat(found, os.fstat(fd)):
                return True
        except OSError:
            pass
    return False


def _write_to_our_stream(found: os.stat_result, payload: bytes) -> None:
    """Write through the standard stream the target is, after what was printed on it already, so
    the output and the messages around it keep their order (a rename would cut the shell's file)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    fd = 1 if os.path.samestat(found, os.fstat(1)) else 2
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
    except OSError as e:
        raise WargameError(f"cannot write the output to standard {'output' if fd == 1 else 'error'}: "
                           f"{e.strerror or e}") from None


def _keep_owner_and_mode(tmp: str, found: os.stat_result) -> None:
    """The replacement gets the replaced file's owner (where we may give it) and mode."""
    try:
        os.chown(tmp, found.st_uid, found.st_gid)
    except OSError:
        pass  # not ours to give away: the mode is still kept
    os.chmod(tmp, stat.S_IMODE(found.st_mode))


def _write_through(path: Path, payload: bytes, found: os.stat_result) -> None:
    """A FIFO or character device (`/dev/null`, `/dev/stdout`, a terminal) is written, never replaced."""
    if stat.S_ISDIR(found.st_mode):
        raise WargameError(f"cannot write {path}: it is a folder")
    if not (stat.S_ISCHR(found.st_mode) or stat.S_ISFIFO(found.st_mode)):
        raise WargameError(f"cannot write {path}: it is not a file, a pipe or a character device (a disk or a "
                           "socket is not written)")
    try:
        fd = os.open(path, os.O_WRONLY)
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    except OSError as e:
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None


def _write_in_place(path: Path, payload: bytes) -> None:
    """A file with other hard links is rewritten in its own inode, so every name still shows the new
    content (not atomic: a rename would cut the links, which is the worse loss)."""
    try:
        with open(path, "r+b") as out:
            out.write(payload)
            out.truncate()
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        raise WargameError(f"cannot write {path}: {e.strerror or e}") from None


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


class TooLarge(Exception):
    """A file, pipe or device gave more than the cap: `found` says how much, as well as it is known."""

    def __init__(self, found: str) -> None:
        super().__init__(found)
        self.found = found


def read_stream_capped(stream: BinaryIO, limit: int) -> bytes:
    """All of `stream` if it holds at most `limit` bytes, read while counting (a pipe, a device or a
    growing file reports no true size); TooLarge at the first byte past the cap."""
    chunks: list[bytes] = []
    held = 0
    while held <= limit:
        chunk = stream.read(min(2**20, limit + 1 - held))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        held += len(chunk)
    try:
        size = os.fstat(stream.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        size = 0
    raise TooLarge(f"{size:,} bytes" if size > limit else f"more than {limit:,} bytes")


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of a file, pipe or device of at most `limit` bytes; TooLarge past it, OSError as open()."""
    with open(path, "rb") as stream:
        return read_stream_capped(stream, limit)
