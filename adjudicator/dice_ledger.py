"""A log's dice against a game's ledger (`adjudicate check --ledger`): every receipt signed and chained,
every die the receipt's result, and no roll of the ledger missing from the log (a hidden reroll).

The findings cite the `ledger` system, not a rulebook: what they rest on is the ledger's signatures
and hash chain (docs/ledger.md), each named by the rule ids of LEDGER below.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import Entry, RollOff, logged_dice
from wargame.errors import WargameError
from wargame.receipts import (
    Ledger, Receipt, ReceiptError, chain_problems, ledger_from_bytes, public_key_from_text, receipt_from_token,
    signature_problem,
)

MAX_LEDGER_BYTES = 64 * 1024 * 1024
LEDGER_DEADLINE_S = 60.0
"""The whole download of a ledger from a URL, connection to last byte (a game's ledger is a few KB)."""
LEDGER_READ_TIMEOUT_S = 30.0
"""One read of that download: a silent server is given up sooner than the deadline."""
LEDGER = SectionTable("ledger", {
    "ledger-chain": "the ledger's receipts are signed, numbered 1, 2, ... and each hashes the one before",
    "receipt": "a receipt in the log decodes and is signed by the ledger's key",
    "receipt-in-ledger": "a receipt in the log is the ledger's receipt of that number",
    "die": "each die in the log is its receipt's result",
    "receipt-once": "a receipt stands for one roll of the log",
    "receipt-order": "the log's receipts come in the ledger's order",
    "hidden-roll": "every roll of the ledger is in the log",
    "no-receipt": "with a ledger, every die in the log has its receipt",
    "later-rolls": "the ledger's rolls after the log's last receipt belong to the exchanges that follow it",
})


def read_ledger(source: str) -> Ledger:
    """A ledger file, or the ledger downloaded from its URL (http or https); WargameError if neither."""
    if source.startswith(("http://", "https://")):
        raw = _download(source)
    else:
        try:
            with Path(source).open("rb") as handle:
                raw = handle.read(MAX_LEDGER_BYTES + 1)
        except OSError as e:
            raise WargameError(f"--ledger {source}: {e.strerror}") from None
    if len(raw) > MAX_LEDGER_BYTES:
        raise WargameError(f"--ledger {source}: over {MAX_LEDGER_BYTES // (1024 * 1024)} MiB; not a game's ledger")
    try:
        return ledger_from_bytes(raw, source)
    except ReceiptError as e:
        raise WargameError(e.message) from None


def _download(url: str) -> bytes:
    """The ledger at `url`, whole within LEDGER_DEADLINE_S: a server that answers a byte at a time never
    trips a per-read timeout, so the download runs in a thread the command stops waiting for."""
    # Imported here: urllib.request (and http.client) would cost every `check` at start-up.
    import threading
    import urllib.error
    import urllib.request
    got: list[bytes] = []
    failed: list[str] = []

    def fetch() -> None:
        try:
            with urllib.request.urlopen(url, timeout=LEDGER_READ_TIMEOUT_S) as answer:  # noqa: S310 (http(s) only)
                got.append(answer.read(MAX_LEDGER_BYTES + 1))
        except (urllib.error.URLError, OSError, ValueError) as e:
            failed.append(str(getattr(e, "reason", e)))

    worker = threading.Thread(target=fetch, name="ledger download", daemon=True)
    worker.start()
    worker.join(LEDGER_DEADLINE_S)
    if worker.is_alive():
        raise WargameError(f"--ledger {url}: no whole answer within {LEDGER_DEADLINE_S:g} s: the download is "
                           "abandoned (docs/limits.md)")
    if failed or not got:
        raise WargameError(f"--ledger {url}: cannot download the ledger: {failed[0] if failed else 'no answer'}")
    return got[0]


def _roll(receipt: Receipt) -> str:
    faces = "+".join(str(r) for r in receipt.result)
    return (f"#{receipt.seq} ({receipt.player} rolled {receipt.dice} = {faces} for {receipt.purpose!r} "
            f"at {receipt.time})")


def _roller(entry: Entry, k: int) -> str | None:
    """The side whose die the entry's k-th die is: each side's own in a roll-off, the attacker's otherwise."""
    if isinstance(entry, RollOff):
        return list(entry.rolls)[k] if k < len(entry.rolls) else None
    return entry.side


def check_dice(entries: Sequence[Entry], ledger: Ledger, part_of_game: bool = False) -> list[Finding]:
    """Findings of the log's dice and receipts against the ledger (errors, and warnings for unreceipted dice).

    `part_of_game`: the log is one later exchange checked alone, so the ledger's rolls before its first
    receipt (earlier exchanges') and after its last (later exchanges', or not yet played) are not hidden,
    unless rolled by the same player for the purpose of one of its rolls (a reroll); the rolls between
    its first and last receipts must all be in it."""
    findings: list[Finding] = []
    public = public_key_from_text(ledger.public_key)
    by_seq = {r.seq: r for r in ledger.receipts}
    last_line = max((e.line for e in entries), default=0)
    # Where each ledger receipt is in the log (line, column), and the log's receipts in log order.
    found: dict[int, tuple[int, int]] = {}
    order: list[tuple[int, Entry]] = []
    differing: list[tuple[Receipt, Receipt, Entry]] = []
    chain = list(chain_problems(ledger.receipts, public))
    # Numbers where the ledger file itself does not hold (edited, or a receipt dropped from it).
    numbers = set(by_seq)
    unsound = {r.seq for r, _ in chain} | (set(range(1, max(numbers, default=0) + 1)) - numbers)
    # Where the ledger's players are named after the sides, a die must be rolled by its own side.
    sides = {e.side for e in entries if e.side} | {side for e in entries if isinstance(e, RollOff) for side in e.rolls}
    for entry in entries:
        tokens = list(getattr(entry, "receipts", []))
        dice = logged_dice(entry)
        if not tokens:
            if dice:
                findings.append(LEDGER.finding(
                    "warning", "no-receipt", entry.line, entry.column,
                    f"die roll{'s' if len(dice) > 1 else ''} {', '.join(map(str, dice))} without a receipt from "
                    f"the ledger of {ledger.game}: not verified"))
            continue
        if len(tokens) != len(dice):
            findings.append(LEDGER.finding(
                "error", "die", entry.line, entry.column,
                f"{len(dice)} die roll(s) in the entry but {len(tokens)} receipt(s): one receipt per die roll"))
        for k, token in enumerate(tokens):
            try:
                receipt = receipt_from_token(token)
            except ReceiptError as e:
                findings.append(LEDGER.finding("error", "receipt", entry.line, entry.column, e.message))
                continue
            problem = signature_problem(receipt, public)
            if problem is not None:
                findings.append(LEDGER.finding("error", "receipt", entry.line, entry.column,
                                               f"receipt #{receipt.seq}: {problem}"))
                continue
            stored = by_seq.get(receipt.seq)
            if receipt.game == ledger.game and receipt.seq in unsound and receipt.seq not in found:
                # The ledger file is broken at this number (its own finding says so); the log's receipt is
                # signed, so it stands for that roll.
                found[receipt.seq] = (entry.line, entry.column)
                order.append((receipt.seq, entry))
                continue
            if receipt.game != ledger.game or stored is None or stored.digest() != receipt.digest():
                if stored is not None and receipt.game == ledger.game:
                    # Validly signed yet not the ledger's: the ledger's roll of that number is accounted for here.
                    differing.append((receipt, stored, entry))
                else:
                    findings.append(LEDGER.finding(
                        "error", "receipt-in-ledger", entry.line, entry.column,
                        f"receipt {_roll(receipt)} of game {receipt.game!r} is not in the ledger of game "
                        f"{ledger.game!r}, which has {len(ledger.receipts)} roll(s)"))
                continue
            if receipt.seq in found:
                findings.append(LEDGER.finding(
                    "error", "receipt-once", entry.line, entry.column,
                    f"receipt {_roll(receipt)} already stands for the roll on line {found[receipt.seq][0]}"))
                continue
            found[receipt.seq] = (entry.line, entry.column)
            order.append((receipt.seq, entry))
            roller = _roller(entry, k)
            if roller is not None and receipt.player in sides and receipt.player != roller:
                findings.append(LEDGER.finding(
                    "error", "die", entry.line, entry.column,
                    f"the die is {roller}'s, but receipt {_roll(receipt)} was rolled by {receipt.player}"))
            if k < len(dice) and dice[k] != receipt.total:
                findings.append(LEDGER.finding(
                    "error", "die", entry.line, entry.column,
                    f"die {dice[k]} in the log, but receipt {_roll(receipt)} rolled {receipt.total}"))
    if differing:
        # One breach, one error: a log whose receipts leave the ledger's chain stays off it from there on.
        receipt, stored, entry = differing[0]
        more = differing[1:]
        findings.append(LEDGER.finding(
            "error", "receipt-in-ledger", entry.line, entry.column,
            f"receipt {_roll(receipt)} is signed by the ledger's key but is not the ledger's {_roll(stored)}: the log follows another chain than this ledger (a different download, or a server that "
            f"signed two rolls with one number)"
            + (f"; so do {len(more)} later receipt(s) of the log, on lines "
               + ", ".join(map(str, (lines := sorted({e.line for _, _, e in more}))[:10]))
               + (", ..." if len(lines) > 10 else "") if more
               else "")))
        found.update({r.seq: (e.line, e.column) for r, _, e in differing if r.seq not in found})
    # A link broken by an edited receipt before it, or by a missing number, is that breach, not another.
    broken = {r.seq for r, _ in chain}
    numbering = {r.seq for r, p in chain if not p.startswith("does not chain")}
    for receipt, problem in chain:
        if problem.startswith("does not chain") and (receipt.seq in numbering or receipt.seq - 1 in broken):
            continue
        line, column = found.get(receipt.seq, (0, 1))
        findings.append(LEDGER.finding("error", "ledger-chain", line, column,
                                       f"the ledger's receipt {_roll(receipt)}: {problem}"))
    highest = 0
    for seq, entry in order:
        if seq < highest:
            findings.append(LEDGER.finding(
                "warning", "receipt-order", entry.line, entry.column,
                f"receipt #{seq} comes after receipt #{highest} in the log, though it was rolled before it"))
        highest = max(highest, seq)
    logged = sorted(found)
    # A roll outside the exchange for the purpose of one of its own rolls is a reroll of it, not another's.
    purposes = {(by_seq[seq].player, by_seq[seq].purpose) for seq in found if seq in by_seq}
    afterwards: list[Receipt] = []
    for receipt in ledger.receipts:
        if receipt.seq in found:
            continue
        reroll = (receipt.player, receipt.purpose) in purposes
        if part_of_game and (not logged or receipt.seq < logged[0]) and not reroll:
            continue
        if logged and receipt.seq > logged[-1] and not reroll:
            afterwards.append(receipt)
            continue
        later = next((s for s in logged if s > receipt.seq), None)
        if later is not None:
            line, column = found[later]
            where = f"before the roll of receipt #{later} on this line"
        else:
            line, column = last_line, 1
            where = "after the log's last roll"
        findings.append(LEDGER.finding(
            "error", "hidden-roll", line, column,
            f"roll {_roll(receipt)} is in the ledger but not in the log ({where}): a roll made and not reported"))
    if afterwards:
        # The ledger may be newer than the log: its later rolls are the next exchanges', unless one of them
        # is not (checked with those exchanges, a roll hidden here falls before their first receipt).
        findings.append(LEDGER.finding(
            "warning", "later-rolls", last_line, 1,
            f"{len(afterwards)} roll(s) of the ledger come after the log's last receipt, from "
            f"{_roll(afterwards[0])}: the "
            "rolls of the exchanges that follow, or rolls hidden at the end of this one; check them with the "
            "exchanges that follow"))
    return findings
