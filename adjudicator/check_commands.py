"""`adjudicate check` and `adjudicate seal`: the verdict on a game's logs, and the seals that keep them honest."""

from __future__ import annotations

import os
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from adjudicator.exits import could_not_run, exit_for, leave, unread_verdict
from adjudicator.options import DATA, GAME, LOGS, MODULE
from wargame.exit_status import ExitStatus

# What a command runs is imported inside it: `adjudicate check --help` imports only the options
# (tests/test_cli_startup.py).
if TYPE_CHECKING:
    from collections.abc import Sequence

    from adjudicator.contract import StateT
    from adjudicator.engine import Replay
    from adjudicator.findings import Finding
    from adjudicator.notation.entries import Entry
    from adjudicator.vassal.chain import Chain
    from wargame.receipts import Ledger


def chain_seal_findings(chain: Chain, result: Replay[StateT]) -> list[Finding]:
    """Each sealed text exchange of a chain against its seal, and each seal's link to the exchange before it,
    numbered in the chain; the positions are the chain's replay's (`result`, every state kept)."""
    import dataclasses

    from adjudicator.seal import SEAL, make_seal, read_seal, seal_findings, seal_path
    from adjudicator.sources import positions_of
    findings: list[Finding] = []
    previous: str | None = None
    start = 0
    broken = False
    for k, part in enumerate(chain.parts):
        count = len(part.entries)
        positions = positions_of(result, start, count, chain) if len(result.states) > 1 + start else None
        if part.is_vassal or not seal_path(part.path).exists():
            fresh = make_seal(part.path.name, part.entries, positions or [None] * count, previous)
            previous = fresh.final
            start += count
            continue
        sealed = read_seal(seal_path(part.path))
        shifted = dataclasses.replace(sealed, entries=tuple(
            dataclasses.replace(e, line=e.line + part.base) for e in sealed.entries))
        # After a broken exchange the later positions follow from the break: its finding stands for them.
        found = seal_findings(part.entries, None if broken else positions, shifted)
        if sealed.previous != previous:
            found.append(SEAL.finding("error", "previous", part.base + 1, 1, (
                "the seal carries no previous exchange's hash, but follows " + chain.parts[k - 1].name
                if sealed.previous is None else "the seal carries a previous hash that is not the final hash of "
                + (chain.parts[k - 1].name if k else "any exchange given before it"))))
        broken = broken or bool(found)
        findings += found
        previous = sealed.final
        start += count
    return findings


@click.command(short_help="Replay logs and report every rule breach (exit 0 clean, 1 breaches, 2 could not run).")
@LOGS
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: file:line:col findings with carets; json: for tools; markdown: a table for a forum post.")
@DATA
@GAME
@MODULE
@click.option("--ledger", "ledger_source", metavar="LEDGER_FILE_OR_URL", default=None,
              help="The game's dice ledger (a downloaded file, or its URL): every receipt's signature and the chain "
                   "are verified, each die against its receipt, and every roll of the ledger must be in the log.")
@click.option("--ledger-key", "ledger_key", metavar="KEY_ID", default=None,
              help="The fingerprint (key id) of the ledger's key, as the server's /public-key gives it: a ledger "
                   "signed by another key is an error (the log's [LedgerKey] header pins it too).")
def check(logs: tuple[Path, ...], fmt: str, data: Path | None, game_id: str | None, module: Path | None,
          ledger_source: str | None, ledger_key: str | None) -> None:
    """Replay a log (text, JSON, or a VASSAL .vlog/.vsav) and report every rule breach; several logs of
    one game in order are checked as one game. Exit 0 clean, 1 breaches, 2 could not run."""
    from wargame.collector import collector_off, out_of_sight
    with collector_off():  # code, kept for the whole run: none of it is garbage
        from adjudicator.seal import read_seal, seal_findings, seal_path
        from adjudicator.sources import expand_logs, names_game, open_logs, positions_of, read_log
        from adjudicator.vassal.detect import is_vassal_file
        from adjudicator.verdict import render, verdict_of
    ledger = None
    if ledger_source is not None:
        from adjudicator.dice_ledger import read_ledger
        with could_not_run():
            ledger = read_ledger(ledger_source)

    def with_dice(result: Replay[StateT]) -> Replay[StateT]:
        if ledger is not None:
            from adjudicator.dice_ledger import check_dice, with_ledger_dice
            result.findings = [*with_ledger_dice(result, ledger), *check_dice(result.entries, ledger, dice_by_entry=
                                                             result.game.manifest.dice_by_entry() or None,
                                                             pinned_key=ledger_key)]
        return result

    with could_not_run():
        logs = expand_logs(logs)
    if ledger is not None and len(logs) == 1 and not is_vassal_file(logs[0]):
        with could_not_run():
            entries, lines = read_log(logs[0])
        if not names_game(entries):
            _exchange_dice(logs[0], entries, lines, ledger, fmt, ledger_key)
    with ExitStack() as kept:
        with unread_verdict(fmt, logs[0]):
            # A text log's entries and its game are kept for the whole check: read and loaded with the collector off
            # (none of it is garbage), then frozen out of its sight with the code imported, so neither the collections
            # while replaying nor the one at exit walk them again (wargame/collector.py; ~6% of a cold check). A
            # VASSAL file's translation, which may leave garbage, is read with the collector on.
            with collector_off() if len(logs) == 1 and not is_vassal_file(logs[0]) else nullcontext():
                source = open_logs(logs, data, game_id, module, stop_at_unknown=True)
            kept.enter_context(out_of_sight())
            # A sealed log's check hashes the position after every entry, so its one replay keeps the states.
            sealed_log = source.is_text and seal_path(source.path).exists()
            result = with_dice(source.replay(keep_states=any(seal_path(p).exists() for p in source.paths)))
            chain = source.chain
            if chain is not None and any(not p.is_vassal and seal_path(p.path).exists() for p in chain.parts):
                result.findings = [*result.findings, *chain_seal_findings(chain, result)]
            if sealed_log:
                sealed = read_seal(seal_path(source.path))
                # A later exchange's positions follow from the earlier ones: `adjudicate seal --verify` checks them.
                positions = positions_of(result, 0, len(result.entries)) if sealed.previous is None else None
                result.findings = [*result.findings, *seal_findings(result.entries, positions, sealed)]
        click.echo(render(verdict_of(source, result), fmt), nl=False)
    exit_for(result)


def _exchange_dice(log: Path, entries: list[Entry], lines: Sequence[str], ledger: Ledger, fmt: str,
                   ledger_key: str | None) -> NoReturn:
    """A later exchange checked alone against the game's ledger: its dice and receipts only (its rules need
    the exchanges before it); the ledger's rolls before its first receipt and after its last are not its own."""
    from adjudicator.dice_ledger import check_dice
    from adjudicator.verdict import dice_verdict, render
    verdict = dice_verdict(str(log), len(entries), check_dice(entries, ledger, part_of_game=True,
                                                              pinned_key=ledger_key), lines)
    click.echo(render(verdict, fmt), nl=False)
    leave(ExitStatus.BREACHES if verdict.summary["errors"] else ExitStatus.CLEAN)


def _finding_lines(findings: list[Finding], file: Path) -> list[str]:
    return [f"{file}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}"
            for f in sorted(findings, key=lambda f: (f.line, f.column))]


@click.command(short_help="Seal a log's entries and positions against later rewriting, or --verify seals.")
@LOGS
@click.option("--verify", is_flag=True, help="Check the logs' seals (and their links) instead of sealing.")
@DATA
def seal(logs: tuple[Path, ...], verify: bool, data: Path | None) -> None:
    """Seal the last LOG (the earlier ones are the game's exchanges before it, in order): write LOG.seal with
    the hash of every entry and of the position after it, chained from the previous exchange's final hash.
    With --verify, report every entry added, removed or rewritten since sealing, by its line. Exit 0 sound,
    1 a seal does not hold, 2 could not run."""
    from adjudicator.seal import Seal, make_seal, read_seal, seal_findings, seal_path
    from adjudicator.findings import Finding
    from adjudicator.sources import expand_logs, game_of, positions_of, read_log, replay_entries
    from adjudicator.vassal.detect import is_vassal_file
    from wargame.errors import WargameError
    from wargame.files import write_atomically
    with could_not_run():
        logs = expand_logs(logs)
        parts = []
        for log in logs:
            if is_vassal_file(log):
                raise WargameError(f"{log}: seals are for text and JSON logs; convert a VASSAL log first")
            parts.append(read_log(log))
        combined = [e for entries, _ in parts for e in entries]
        game = game_of(parts[0][0], logs[0], data)
        result = replay_entries(game, combined, logs[0], parts[0][1])
        if result.stopped is not None:
            raise WargameError(f"the replay stops ({result.stopped}); a log that does not replay to its end is not "
                               "sealed")
        # A seal's name that is a broken link or a loop is read (and refused), not taken for no seal at all.
        seals: list[Seal | None] = [read_seal(seal_path(log)) if os.path.lexists(seal_path(log)) else None
                                    for log in logs]
        if not verify and seals[-1] is not None:
            raise WargameError(f"{seal_path(logs[-1])} exists: a log is sealed once (check it with --verify)")
    problems: list[str] = []
    previous: str | None = None
    start = 0
    checked = logs if verify else logs[:-1]
    for k, (log, (entries, _)) in enumerate(zip(logs, parts)):
        positions = positions_of(result, start, len(entries))
        fresh = make_seal(log.name, entries, positions, previous)
        if k < len(checked) and (sealed := seals[k]) is not None:
            # After a broken exchange the later positions follow from the break: its finding stands for them.
            found = seal_findings(entries, None if problems else positions, sealed)
            if sealed.previous != previous:
                found.append(Finding("error", "seal", "previous", 1, 1, (
                    "the seal carries no previous exchange's hash, but follows " + logs[k - 1].name if
                    sealed.previous is None else "the seal carries a previous hash that is not the final hash of "
                    + (logs[k - 1].name if k else "any exchange given before it"))))
            problems += _finding_lines(found, log)
            previous = sealed.final
        else:
            previous = fresh.final
        start += len(entries)
    for line in problems:
        click.echo(line)
    if verify or problems:
        click.echo(f"{len(logs)} log(s), {sum(1 for s in seals if s is not None)} sealed: "
                   f"{len(problems)} problem(s)")
        leave(ExitStatus.BREACHES if problems else ExitStatus.CLEAN)
    with could_not_run():
        write_atomically(seal_path(logs[-1]), fresh.file_text())
    click.echo(str(seal_path(logs[-1])))

