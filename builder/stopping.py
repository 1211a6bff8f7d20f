"""How `vmodbuild`'s commands stop on an error: the message, and exit 2 (could not run)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

from wargame.errors import DataErrors, WargameError


def fail(error: WargameError) -> NoReturn:
    """Report an error that stopped the command and exit 2 (could not run)."""
    click.echo(f"Error: {error}", err=True)
    sys.exit(2)


def _validate_command(game: str | None, data: Path | None) -> str:
    """The validate command a hint should give, with the same game and --data."""
    words = ["vmodbuild", "validate"] + ([game] if game else []) + (["--data", str(data)] if data else [])
    return " ".join(words)


@contextmanager
def stopping_on_errors(writing_to: Path | None = None, game: str | None = None,
                       data: Path | None = None) -> Iterator[None]:
    """Turn data, kernel and file errors into a clear message and exit 2 (could not run)."""
    try:
        yield
    except DataErrors as e:
        for error in e.errors:
            click.echo(str(error), err=True)
        click.echo(f"Error: the data has {len(e.errors)} problem(s); run `{_validate_command(game, data)}`", err=True)
        sys.exit(2)
    except WargameError as e:
        fail(e)
    except OSError as e:
        # The file the error names, read or written (a data file we may not read was blamed on the output folder).
        where = f"{e.filename}" if e.filename else f"cannot write into {writing_to}" if writing_to else "a file"
        click.echo(f"Error: {where}: {e.strerror or e}", err=True)
        sys.exit(2)
