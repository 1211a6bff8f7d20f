"""`adjudicate`: the play-by-email referee's command line, its commands grouped by concern (check and seal;
convert, schema, state and export; combat; rules) and this group that holds them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click

from adjudicator.check_commands import check, seal
from adjudicator.combat_command import combat
from adjudicator.log_commands import convert, export, position_at, schema, state
from adjudicator.rules_cli import rules
from adjudicator.sources import LOG_SUFFIXES, adjudicate_file, game_of, positions_of, read_log
from wargame.internal_errors import exit_2_on_interrupt, exit_3_on_internal_errors

# What a command runs (the entries' and the games' models, the engine, the rule systems, the ledger, the
# VASSAL reader) is imported inside it: `adjudicate --help` loads none of it, a check of a text log only what
# a check uses (tests/test_cli_startup.py; start-up figures in bench/README.md).

__all__ = ["COMMANDS", "LogFirstGroup", "adjudicate_file", "game_of", "main", "make_group", "position_at",
           "positions_of", "read_log"]


class LogFirstGroup(click.Group):
    """`adjudicate LOG` means `adjudicate check LOG`; an internal error exits 3 (wargame.internal_errors)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with exit_3_on_internal_errors("adjudicate"):
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with exit_2_on_interrupt("adjudicate"):
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, global_options_after_command(args, self.commands))

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                          list[str]]:
        if args and args[0] not in self.commands and is_log_argument(args[0]):
            return "check", self.commands["check"], args
        if args and args[0] not in self.commands and Path(args[0]).is_file():
            # A file that is not a log (`game.pbem`, a notes file): say what is read, not just "No such command".
            raise click.UsageError(f"{args[0]!r} is neither a command nor a log: logs are {', '.join(LOG_SUFFIXES)} "
                                   "files (or a game's folder, or - for standard input); rename it, or give it as "
                                   f"`adjudicate check {args[0]}` if it is a text log under another name", ctx)
        return super().resolve_command(ctx, args)


GLOBAL_OPTIONS = ("--data", "--format", "-o", "--output")
"""Options many commands share, accepted before the command too (`adjudicate --data DIR LOG`, as git-style
tools read them): they are moved after it, where the command's own option reads them."""


def is_log_argument(arg: str) -> bool:
    """An argument that stands for a log: `-`, a log's suffix, or a folder of exchanges."""
    return arg == "-" or Path(arg).suffix.lower() in LOG_SUFFIXES or Path(arg).is_dir()


def global_options_after_command(args: list[str], commands: Mapping[str, click.Command]) -> list[str]:
    """The arguments with the shared options given before the command (or the LOG) moved after it."""
    moved: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        name = arg.partition("=")[0]
        if name not in GLOBAL_OPTIONS:
            break
        takes_next = "=" not in arg
        moved += args[k:k + 2] if takes_next else [arg]
        k += 2 if takes_next else 1
    if not moved or k >= len(args):
        return args
    rest = args[k:]
    if rest[0] in commands:
        return [rest[0], *moved, *rest[1:]]
    if is_log_argument(rest[0]) or Path(rest[0]).is_file():
        return ["check", *moved, *rest]
    return args




COMMANDS: tuple[click.Command, ...] = (check, combat, convert, export, rules, schema, seal, state)
"""The referee's commands, for a command line built on them (`umpire`'s)."""


def make_group(commands: Iterable[click.Command]) -> click.Group:
    """A new `adjudicate` group holding `commands` (a later one of a name replaces an earlier one)."""

    @click.group(cls=LogFirstGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="umpire")
    def main() -> None:
        """Referee play-by-email wargame logs against the rules (`adjudicate LOG` checks a log)."""

    for command in commands:
        main.add_command(command)
    return main


main = make_group(COMMANDS)
"""The referee's own group (`python -m adjudicator`); the `adjudicate` console script is umpire.cli's."""
