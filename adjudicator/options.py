"""The arguments and options the referee's commands share (and `umpire`'s commands reuse): logs, standard
input, --data, --game, --module, --force, --at."""

from __future__ import annotations

import os
from pathlib import Path

import click

# What reading standard input needs is imported when it is read: every command's --help imports this module.


def _stdin_log(ctx: click.Context, given: Path) -> Path:
    """`-`: standard input, read once; a zip (a VASSAL log or save) is spooled to a temporary .vlog."""
    if str(given) != "-":
        return given
    import shutil
    import sys
    from functools import partial

    from adjudicator.notation.syntax_errors import MAX_LOG_BYTES
    from adjudicator.sources import MAX_STDIN_BYTES, hold_stdin
    from wargame.files import TooLarge, read_stream_capped

    try:
        raw = read_stream_capped(sys.stdin.buffer, MAX_STDIN_BYTES)
    except TooLarge as e:
        raise click.BadParameter(f"standard input: {e.found}; a log may have at most {MAX_LOG_BYTES:,}, a VASSAL log "
                                 f"or save {MAX_STDIN_BYTES:,} (docs/limits.md)") from None
    if raw[:2] != b"PK":
        return hold_stdin(raw)
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="umpire-stdin-"))
    spooled = folder / "stdin.vlog"
    spooled.write_bytes(raw)
    ctx.call_on_close(partial(shutil.rmtree, folder, ignore_errors=True))
    return spooled


def logs_with_stdin(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    """The LOG... arguments, `-` standing for standard input (one log only)."""
    if len(value) > 1 and any(str(v) == "-" for v in value):
        raise click.BadParameter("standard input (-) is read as a game's only log", ctx, param)
    return tuple(_stdin_log(ctx, v) for v in value)


def log_with_stdin(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """A LOG argument, `-` standing for standard input."""
    return None if value is None else _stdin_log(ctx, value)


def parse_at(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str | None, int] | None:
    """`--at N`, or `--at LOG:N` in a chain of logs (LOG: the file as given, its name, or its place, 1...)."""
    if value is None:
        return None
    which, _, number = value.rpartition(":")
    if not (number.isascii() and number.isdigit() and len(number) <= 9):
        raise click.BadParameter(f"{value!r} is not a line or step number (or LOG:LINE for one of several logs, "
                                 "e.g. 2:12)", ctx, param)
    return which or None, int(number)


class GivenPath(click.Path):
    """click's Path of something that must exist, saying why it cannot be read: a symbolic link loop (click said
    "does not exist" of it), a link to nothing, a folder that does not exist, or the nearest name in its folder."""

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        """The path, or a usage error (exit 2) saying what is wrong with it."""
        import errno

        if self.exists and str(value) != "-":
            try:
                os.stat(value)
            except OSError as e:
                self.fail(f"{os.fspath(value)!r} {_unreachable(Path(value), e.errno or errno.ENOENT)}", param, ctx)
        return super().convert(value, param, ctx)


def _unreachable(path: Path, code: int) -> str:
    """Why a path given cannot be opened, for a person: its loop or dangling link, its missing folder, the
    nearest name beside it."""
    import errno

    if code == errno.ELOOP:
        return "is a symbolic link loop (it leads back to itself)"
    if path.is_symlink():
        return f"is a symbolic link to {os.readlink(path)!r}, which does not exist"
    if code != errno.ENOENT:
        return f"cannot be read: {os.strerror(code)}"
    folder = path.parent
    if not folder.is_dir():
        return f"does not exist (nor does its folder {str(folder)!r})"
    from wargame.errors import did_you_mean
    try:
        names = [entry.name for entry in os.scandir(folder)]
    except OSError:
        names = []
    return "does not exist" + did_you_mean(path.name, names)


DATA = click.option("--data", type=GivenPath(path_type=Path, file_okay=False, exists=True), default=None,
                    help="Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games).")
LOG = click.argument("log", type=GivenPath(path_type=Path, dir_okay=False, exists=True, allow_dash=True),
                     callback=log_with_stdin)
# A folder stands for its exchanges in name order (adjudicator.sources.expand_logs).
LOGS = click.argument("logs", metavar="LOG...", nargs=-1, required=True, callback=logs_with_stdin,
                      type=GivenPath(path_type=Path, exists=True, allow_dash=True))
GAME = click.option("--game", "game_id", default=None,
                    help="For a VASSAL .vlog/.vsav: the game, when the file does not tell (default: from its pieces).")
MODULE = click.option("--module", "module", type=GivenPath(path_type=Path, dir_okay=False, exists=True), default=None,
                      help="For a VASSAL .vlog/.vsav: the .vmod it was played with, whose own grid and zones then "
                           "name the places (default: our game data).")
FORCE = click.option("--force", is_flag=True, default=False,
                     help="Write -o over an existing file of another kind (a VASSAL log with text, text with a PNG).")
