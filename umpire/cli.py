"""`adjudicate`: the referee's commands (adjudicator.cli.COMMANDS) and those that draw what it judged
(umpire.commands), in a group of its own built from the referee's public API (importing this changes nothing of
adjudicator.cli's); each command's module is imported on first use, so `adjudicate --help` imports none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.cli import COMMANDS, make_group
from wargame.lazy_group import LazyCommand

# What a command runs is imported inside it (start-up: bench/README.md).
if TYPE_CHECKING:
    from pathlib import Path

    from umpire.judged import Judged


def judge(logs: tuple[Path, ...], data: Path | None, game_id: str | None, module: Path | None,
          ledger_source: str | None = None, ledger_key: str | None = None) -> Judged:
    """The replay of one log or of a game's logs in order (every state kept, for the pictures), with
    the ledger's findings when a ledger is given, and how to quote the lines."""
    from adjudicator.sources import open_logs
    from adjudicator.verdict import verdict_of
    from umpire.judged import Judged
    source = open_logs(logs, data, game_id, module, stop_at_unknown=True)
    result = source.replay()
    if ledger_source is not None:
        from adjudicator.dice_ledger import check_dice, read_ledger, with_ledger_dice  # with a ledger only
        ledger = read_ledger(ledger_source)
        result.findings = [*with_ledger_dice(result, ledger), *check_dice(
            result.entries, ledger, dice_by_entry=result.game.manifest.dice_by_entry() or None,
            pinned_key=ledger_key)]
    return Judged(result, source.quote, source.cite, ", ".join(p.name for p in source.paths), source.locate,
                  verdict_of(source, result))


main = make_group({
    **COMMANDS,
    "check": LazyCommand("umpire.commands:check", COMMANDS["check"].short_help),
    "picture": LazyCommand("umpire.commands:picture", "Draw the position at any point of a log as a PNG, with the "
                                                      "module's art."),
    "reach": LazyCommand("umpire.commands:reach", "The hexes a unit may still reach at any point of a log, with their "
                                                  "cost."),
    "retreats": LazyCommand("umpire.commands:retreats", "The legal retreats of the combat result pending at any point "
                                                        "of a log."),
})
"""The `adjudicate` console script: the referee's commands, its check with pictures, and umpire.commands'."""


__all__ = ["judge", "main"]
