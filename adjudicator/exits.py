"""The one place where the referee's exceptions and verdicts become exit statuses (wargame.exit_status):
what could not run is said on standard error (or, for a log that cannot be replayed, in its verdict document)
and ends with exit 2; a verdict ends with 0 or 1; `wargame.internal_errors` turns anything else into 3."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from wargame.exit_status import ExitStatus

if TYPE_CHECKING:
    from adjudicator.contract import StateT
    from adjudicator.engine import Replay


def leave(status: ExitStatus) -> NoReturn:
    """End the command with `status`."""
    sys.exit(int(status))


def stop(message: str) -> NoReturn:
    """`Error: message` on standard error, exit 2."""
    click.echo(f"Error: {message}", err=True)
    leave(ExitStatus.COULD_NOT_RUN)


@contextmanager
def could_not_run() -> Iterator[None]:
    """Anything that stops adjudication: a clear message and exit 2."""
    # Imported here, not at the top: every command's --help imports this module.
    from adjudicator.notation.syntax_errors import LogSyntaxErrors, caret_message
    from wargame.errors import DataErrors, WargameError

    try:
        yield
    except LogSyntaxErrors as e:
        for syntax in e.errors:
            click.echo(caret_message(syntax, e.source), err=True)
        stop(f"{len(e.errors)} problem(s) in the log; nothing was adjudicated")
    except DataErrors as e:
        for data_error in e.errors:
            click.echo(str(data_error), err=True)
        stop("the game data do not load")
    except WargameError as e:
        stop(str(e))
    except OSError as e:
        stop(f"{e.filename}: {e.strerror or e}" if e.filename else f"{e.strerror or e}")


@contextmanager
def unread_verdict(fmt: str, log: Path) -> Iterator[None]:
    """A log that cannot be replayed at all still gets its full verdict document on stdout (exit 2); the
    game data or an unreadable file are the only reasons not to run (exit 2, message on stderr)."""
    from adjudicator.notation.syntax_errors import LogSyntaxErrors
    from adjudicator.verdict import render, unread_verdict as unread
    from wargame.errors import DataErrors, WargameError
    try:
        yield
    except LogSyntaxErrors as e:
        # In a chain of logs the problem may be in any exchange: name the one its place names.
        named = next((str(x.place.file) for x in e.errors if x.place is not None and x.place.file), str(log))
        click.echo(render(unread(named, e.errors, e.source), fmt), nl=False)
        leave(ExitStatus.COULD_NOT_RUN)
    except (DataErrors, OSError):
        with could_not_run():
            raise
    except WargameError as e:
        named = str(e.place.file) if e.place is not None and e.place.file else str(log)
        click.echo(render(unread(named, [e], []), fmt), nl=False)
        leave(ExitStatus.COULD_NOT_RUN)


def status_of(result: Replay[StateT]) -> ExitStatus:
    """2 if the replay stopped, 1 if a rule was broken, 0 otherwise."""
    if result.stopped is not None:
        return ExitStatus.COULD_NOT_RUN
    return ExitStatus.BREACHES if any(f.severity == "error" for f in result.findings) else ExitStatus.CLEAN


def exit_for(result: Replay[StateT]) -> NoReturn:
    """End the command with its verdict's status (`status_of`)."""
    leave(status_of(result))
