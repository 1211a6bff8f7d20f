"""A click group whose commands are imported on first use: the group's --help lists each by the one line of
help kept here as data, so `adjudicate --help` and `vmodbuild --help` import no command's module (start-up:
bench/README.md; tests/test_cli_startup.py holds each line equal to its command's own)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, NamedTuple

import click


class LazyCommand(NamedTuple):
    """Where a command is defined (`module:attribute`) and what its line in the group's --help is made of: its
    short help, or for a command without one, its help's first paragraph (which click shortens to fit)."""

    where: str
    short_help: str | None
    help: str | None = None

    def load(self) -> click.Command:
        """The command itself, its module imported."""
        module, _, attribute = self.where.partition(":")
        command = getattr(import_module(module), attribute)
        assert isinstance(command, click.Command), self.where
        return command


class LazyGroup(click.Group):
    """A group of commands named in `lazy` (name -> LazyCommand) besides those added, each imported when it is
    first resolved; a name not known loads them all, so that click's "did you mean" sees every name."""

    def __init__(self, *args: Any, lazy: Mapping[str, LazyCommand] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})
        self._listing = False

    def names(self) -> list[str]:
        """Every command's name, imported or not, in order."""
        return sorted({*self.commands, *self.lazy})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self.names()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.lazy.get(cmd_name)
        if entry is not None and cmd_name not in self.commands:
            if self._listing:
                # The group's --help: a stand-in giving the line kept as data, the module left unimported.
                return click.Command(cmd_name, short_help=entry.short_help, help=entry.help)
            self.add_command(entry.load(), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                          list[str]]:
        if args and args[0] not in self.lazy and args[0] not in self.commands:
            # An unknown name is an error: click suggests the names it holds, so it is given them all.
            for name in self.lazy:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)
