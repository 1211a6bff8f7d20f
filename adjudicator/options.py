"""The arguments and options the referee's commands share (and `umpire`'s commands reuse): logs, standard
input, --data, --game, --module, --force, --at."""

from __future__ import annotations

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


DATA = click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None,
                    help="Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games).")
LOG = click.argument("log", type=click.Path(path_type=Path, dir_okay=False, exists=True, allow_dash=True),
                     callback=log_with_stdin)
# A folder stands for its exchanges in name order (adjudicator.sources.expand_logs).
LOGS = click.argument("logs", metavar="LOG...", nargs=-1, required=True, callback=logs_with_stdin,
                      type=click.Path(path_type=Path, exists=True, allow_dash=True))
GAME = click.option("--game", "game_id", default=None,
                    help="For a VASSAL .vlog/.vsav: the game, when the file does not tell (default: from its pieces).")
MODULE = click.option("--module", "module", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
                      help="For a VASSAL .vlog/.vsav: the .vmod it was played with, whose own grid and zones then "
                           "name the places (default: our game data).")
FORCE = click.option("--force", is_flag=True, default=False,
                     help="Write -o over an existing file of another kind (a VASSAL log with text, text with a PNG).")
