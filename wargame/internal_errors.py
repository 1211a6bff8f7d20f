"""Internal errors (a bug in Umpire, not a fault of the input): exit 3, a one-line request for a report,
and the traceback kept in a file instead of shown.

Both command lines wrap their whole run in `exit_3_on_internal_errors`, so a crash never exits 1
(which means "rule breaches found") or prints a traceback at a user.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from wargame.exit_status import ExitStatus

# tempfile, traceback and pathlib are imported on a crash only: every command's start-up passes here.
if TYPE_CHECKING:
    from pathlib import Path

EXIT_INTERNAL_ERROR = int(ExitStatus.INTERNAL_ERROR)
"""The documented exit code of an internal error (wargame.exit_status)."""


def traceback_path(program: str) -> Path:
    """Where a crash of `program` in this process keeps its traceback: <tmp>/umpire-<program>-<pid>.traceback.txt."""
    import tempfile
    from pathlib import Path

    return Path(tempfile.gettempdir()) / f"umpire-{program}-{os.getpid()}.traceback.txt"


def report_internal_error(program: str, error: BaseException) -> int:
    """Write the traceback of `error` to its file, print one line asking for a report; the exit code."""
    try:
        import traceback

        path = traceback_path(program)
        where = f"the traceback is in {path}"
        text = "".join(traceback.format_exception(error))
        # O_NOFOLLOW: the name is predictable, so a symbolic link planted there must not be written through.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(f"{program} {' '.join(sys.argv[1:])}\n{text}")
    except (OSError, MemoryError, RecursionError):
        # The report must go out even when the disk is full or memory short: name the error instead.
        where = f"the traceback could not be written ({type(error).__name__}: {str(error)[:200]})"
    try:
        print(f"Error: internal error in {program} (a bug, not a fault of your files): please report it with "
              f"the command you ran; {where}", file=sys.stderr)
    except (OSError, ValueError):
        pass  # stderr closed: the exit code still tells
    return EXIT_INTERNAL_ERROR


_OUTPUT_FAILURES = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EBADF}
"""What the machine, not Umpire, does to a write on standard output: a full disk, a quota, a broken pipe."""


def _say(message: str) -> None:
    try:
        print(message, file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass  # stderr closed too: the exit code still tells


@contextmanager
def exit_3_on_internal_errors(program: str) -> Iterator[None]:
    """Any exception escaping a command (not SystemExit, not Ctrl+C) ends the process with exit code 3;
    standard output closed, full or cut is exit 2 (the machine's fault, not a bug, not a clean run)."""
    if sys.stdout is None:
        # Python sets it to None when descriptor 1 is closed, and click then prints nothing and exits 0.
        _say(f"Error: {program}: standard output is closed: nothing could be printed")
        sys.exit(ExitStatus.COULD_NOT_RUN)
    try:
        yield
        sys.stdout.flush()  # a full disk shows at the last write, which may be this one
    except OSError as e:
        if e.errno not in _OUTPUT_FAILURES or e.filename is not None:
            sys.exit(report_internal_error(program, e))
        _say(f"Error: {program} could not write its output: {e.strerror or e}")
        _silence_stdout()
        sys.exit(ExitStatus.COULD_NOT_RUN)
    except Exception as e:  # every error we meant to report was caught earlier, as a WargameError
        sys.exit(report_internal_error(program, e))


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush does not fail again at exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


@contextmanager
def exit_2_on_interrupt(program: str) -> Iterator[None]:
    """Ctrl+C ends a command with exit code 2 (could not run), not 1, which means "rule breaches found"."""
    try:
        yield
    except KeyboardInterrupt:
        try:
            print(f"Error: {program} interrupted; no output was written in part", file=sys.stderr)
        except (OSError, ValueError):
            pass
        sys.exit(ExitStatus.COULD_NOT_RUN)
