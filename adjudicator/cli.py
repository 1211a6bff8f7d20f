"""`adjudicate`: the play-by-email referee's command line, its commands grouped by concern (check and seal;
convert, schema, state and export; combat; rules) and this group that holds them, each imported on first use."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import click

from wargame.internal_errors import exit_2_on_interrupt, exit_3_on_internal_errors
from wargame.lazy_group import LazyCommand, LazyGroup

# A command's module is imported when the command is run or asked for its --help, and what it runs (the entries'
# and the games' models, the engine, the rule systems, the ledger, the VASSAL reader) only inside it:
# `adjudicate --help` imports no command's module, a check of a text log only what a check uses
# (tests/test_cli_startup.py; start-up figures in bench/README.md).

__all__ = ["COMMANDS", "LogFirstGroup", "adjudicate_file", "game_of", "main", "make_group", "position_at",
           "positions_of", "read_log"]

_REEXPORTED = {"adjudicate_file": "adjudicator.sources", "game_of": "adjudicator.sources",
               "positions_of": "adjudicator.sources", "read_log": "adjudicator.sources",
               "position_at": "adjudicator.log_commands"}
"""Names this module has long offered (tests and scripts import them from here), imported when asked for."""


def __getattr__(name: str) -> Any:
    """A name of _REEXPORTED, from its own module (PEP 562)."""
    if name in _REEXPORTED:
        from importlib import import_module

        return getattr(import_module(_REEXPORTED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LogFirstGroup(LazyGroup):
    """`adjudicate LOG` means `adjudicate check LOG`; an internal error exits 3 (wargame.internal_errors)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with exit_3_on_internal_errors("adjudicate"):
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with exit_2_on_interrupt("adjudicate"):
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, global_options_after_command(args, self.names()))

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                          list[str]]:
        from pathlib import Path

        known = self.names()
        if args and args[0] not in known and is_log_argument(args[0]):
            return "check", self.get_command(ctx, "check"), args
        if args and args[0] not in known and Path(args[0]).is_file():
            # A file that is not a log (`game.pbem`, a notes file): say what is read, not just "No such command".
            from adjudicator.sources import LOG_SUFFIXES

            raise click.UsageError(f"{args[0]!r} is neither a command nor a log: logs are {', '.join(LOG_SUFFIXES)} "
                                   "files (or a game's folder, or - for standard input); rename it, or give it as "
                                   f"`adjudicate check {args[0]}` if it is a text log under another name", ctx)
        return super().resolve_command(ctx, args)


GLOBAL_OPTIONS = ("--data", "--format", "-o", "--output")
"""Options many commands share, accepted before the command too (`adjudicate --data DIR LOG`, as git-style
tools read them): they are moved after it, where the command's own option reads them."""


def is_log_argument(arg: str) -> bool:
    """An argument that stands for a log: `-`, a log's suffix, or a folder of exchanges."""
    from pathlib import Path

    from adjudicator.sources import LOG_SUFFIXES
    return arg == "-" or Path(arg).suffix.lower() in LOG_SUFFIXES or Path(arg).is_dir()


def global_options_after_command(args: list[str], commands: Collection[str]) -> list[str]:
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
    from pathlib import Path

    if is_log_argument(rest[0]) or Path(rest[0]).is_file():
        return ["check", *moved, *rest]
    return args


COMMANDS: Mapping[str, LazyCommand] = {
    "check": LazyCommand("adjudicator.check_commands:check", "Replay logs and report every rule breach (exit 0 clean, 1 "
                                                             "breaches, 2 could not run)."),
    "combat": LazyCommand("adjudicator.combat_command:combat", "Audit disputed combats: the claims against the "
                                                               "computation, odds, results, retreats."),
    "convert": LazyCommand("adjudicator.log_commands:convert", "Convert a log between the text notation, its JSON "
                                                               "twin and VASSAL's .vlog/.vsav."),
    "export": LazyCommand("adjudicator.log_commands:export", "Write a log as a VASSAL log (.vlog) to watch, or a "
                                                             "position as a saved game (.vsav)."),
    "rules": LazyCommand("adjudicator.rules_cli:rules", "Every section of a game's rules: what is checked, by which "
                                                        "handlers, on which data."),
    "schema": LazyCommand("adjudicator.log_commands:schema", "Print the JSON Schema of the JSON form of logs."),
    "seal": LazyCommand("adjudicator.check_commands:seal", "Seal a log's entries and positions against later "
                                                           "rewriting, or --verify seals."),
    "state": LazyCommand("adjudicator.log_commands:state", "The position at any point of a log, or of a game's logs "
                                                           "in order."),
}
"""The referee's commands, where each is defined and its line in --help, for a command line built on them
(`umpire`'s)."""


def make_group(commands: Mapping[str, LazyCommand]) -> LazyGroup:
    """A new `adjudicate` group holding `commands`, each imported on first use."""

    @click.group(cls=LogFirstGroup, context_settings={"help_option_names": ["-h", "--help"]}, lazy=commands)
    @click.version_option(package_name="umpire")
    def main() -> None:
        """Referee play-by-email wargame logs against the rules (`adjudicate LOG` checks a log)."""

    assert isinstance(main, LazyGroup)
    return main


main = make_group(COMMANDS)
"""The referee's own group (`python -m adjudicator`); the `adjudicate` console script is umpire.cli's."""
