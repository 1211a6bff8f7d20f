"""A log's dice against a game's ledger (`adjudicate check --ledger`): every receipt signed and chained,
every die the receipt's result, and no roll of the ledger missing from the log (a hidden reroll).

The findings cite the `ledger` system, not a rulebook: what they rest on is the ledger's signatures
and hash chain (docs/ledger.md), each named by the rule ids of LEDGER below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from adjudicator.contract import StateT
from adjudicator.engine import Replay, replay
from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import Entry, amended, logged_dice
from wargame.errors import WargameError
from wargame.receipts import (
    Ledger, Receipt, ReceiptError, RollPurpose, chain_problems, key_id, ledger_from_bytes, parse_purpose,
    public_key_from_text, receipt_from_token, signature_problem,
)

MAX_LEDGER_BYTES = 64 * 1024 * 1024
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
    "receipt-dice": "a receipt's dice are the dice the game's rules roll for its entry (2d3 is no d6)",
    "receipt-entry": "a receipt whose purpose names its entry (turn, step, side, kind, hex) stands for that entry only",
    "ledger-key": "the ledger is signed by the key the log's [LedgerKey] header or --ledger-key pins",
})
KEY_HEADER = "LedgerKey"
"""The log header pinning the fingerprint (key id) of the ledger's key: `[LedgerKey "56475aa75463474c"]`."""
ENTRY_KINDS = {"attack": "attack", "bombard": "bombard", "rolloff": "roll"}
"""The kind of roll a log entry is, as game data (`[[roll]] entry`) and structured purposes name it."""


DOWNLOAD_DEADLINE_S = 60.0
"""The whole download of a ledger by URL, however slowly its server drips it."""
READ_TIMEOUT_S = 15.0


def download(url: str, deadline_s: float | None = None) -> bytes:
    """The body at `url`, read within an overall deadline (DOWNLOAD_DEADLINE_S); WargameError saying why not."""
    if deadline_s is None:
        deadline_s = DOWNLOAD_DEADLINE_S
    # Imported here: urllib.request (and http.client) would cost every `check` at start-up.
    import http.client
    import time
    import urllib.error
    import urllib.request
    give_up = time.monotonic() + deadline_s
    chunks: list[bytes] = []
    size = 0
    try:
        with urllib.request.urlopen(url, timeout=min(READ_TIMEOUT_S, deadline_s)) as answer:  # noqa: S310 (http(s))
            while size <= MAX_LEDGER_BYTES:
                if time.monotonic() > give_up:
                    raise WargameError(f"--ledger {url}: the download took over {deadline_s:g} s; the server is too "
                                       "slow or stalled (try again, or download the file and give its path)")
                chunk = answer.read1(64 * 1024)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as e:
        # HTTPException: a server that answers with something other than HTTP.
        raise WargameError(f"--ledger {url}: cannot download the ledger: {getattr(e, 'reason', e) or type(e).__name__}"
                           ) from None
    return b"".join(chunks)


def read_ledger(source: str, deadline_s: float | None = None) -> Ledger:
    """A ledger file, or the ledger downloaded from its URL or its game page's (http or https), within
    `deadline_s` in all; WargameError if neither."""
    if source.startswith(("http://", "https://")):
        raw = download(ledger_url(source), deadline_s)
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
        if raw.lstrip()[:1] == b"<":
            # A web page: most likely the game's public page, whose ledger is its ledger.json beside it.
            raise WargameError(f"--ledger {source}: this is a web page, not a ledger file (JSON); a game's ledger "
                               "is downloaded from http://HOST/games/GAME/ledger.json (the link on the game's page)"
                               ) from None
        raise WargameError(e.message) from None


def ledger_url(url: str) -> str:
    """The ledger file's URL of a game's page (`http://HOST/games/G` -> `.../games/G/ledger.json`); any other
    URL as given."""
    from urllib.parse import urlsplit, urlunsplit
    parts = urlsplit(url)
    segments = parts.path.rstrip("/").split("/")
    # The service's routes (ledger/app.py): /games/{game} is the page, /games/{game}/ledger.json the file.
    if len(segments) >= 3 and segments[-2] == "games" and segments[-1] and not segments[-1].endswith(".json"):
        return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/ledger.json"))
    return url


def _roll(receipt: Receipt) -> str:
    faces = "+".join(str(r) for r in receipt.result)
    return (f"#{receipt.seq} ({receipt.player} rolled {receipt.dice} = {faces} for {receipt.purpose!r} "
            f"at {receipt.time})")


def _roller(entry: Entry, k: int) -> str | None:
    """The side whose die the entry's k-th die is: each side's own in a roll-off, the attacker's otherwise."""
    roll = entry.as_roll_off()
    if roll is not None:
        return list(roll.rolls)[k] if k < len(roll.rolls) else None
    return entry.side


def purpose_of(entry: Entry, k: int, turn: int, step: str | None) -> RollPurpose | None:
    """The structured purpose of the entry's k-th die, rolled at that turn and step (None: no die there)."""
    side = _roller(entry, k)
    kind = ENTRY_KINDS.get(str(getattr(entry, "kind", "")))
    if side is None or kind is None:
        return None
    attacked = entry.attacked_hexes()
    target = attacked[0] if attacked else None
    return RollPurpose(turn=turn, step=step, side=side, entry=kind, hex=target)


def _binding_problems(entry: Entry, receipt: Receipt, wanted: RollPurpose | None,
                      dice_by_entry: Mapping[str, frozenset[str]] | None) -> list[Finding]:
    """The receipt used for another entry than its purpose names, or rolling other dice than the entry's rule."""
    findings: list[Finding] = []
    named = parse_purpose(receipt.purpose)
    if named is not None and wanted is not None and named != wanted:
        findings.append(LEDGER.finding(
            "error", "receipt-entry", entry.line, entry.column,
            f"receipt {_roll(receipt)} was rolled for {named.text()!r}, but stands here for {wanted.text()!r}"))
    kind = ENTRY_KINDS.get(str(getattr(entry, "kind", "")))
    if dice_by_entry is not None and kind is not None:
        allowed = dice_by_entry.get(kind, frozenset())
        if receipt.dice not in allowed:
            rolls = " or ".join(sorted(allowed)) or "no dice"
            findings.append(LEDGER.finding(
                "error", "receipt-dice", entry.line, entry.column,
                f"receipt {_roll(receipt)} rolled {receipt.dice}, but the game's rules roll {rolls} for this "
                f"{kind!r} entry"))
    return findings


def key_findings(entries: Sequence[Entry], ledger: Ledger, pinned: str | None = None) -> list[Finding]:
    """The key the ledger was verified against, always said; an error if it is not the key the log or the
    command line pins (a ledger re-signed by someone else verifies against its own key)."""
    actual = key_id(public_key_from_text(ledger.public_key))
    header = next((h for e in entries if (h := e.as_header()) is not None and h.key == KEY_HEADER), None)
    line, column = (header.line, header.column) if header is not None else (0, 1)
    if pinned is not None:
        source = "--ledger-key"
    elif header is not None:
        pinned, source = header.value.strip(), f"the log's [{KEY_HEADER}] header"
    else:
        return [LEDGER.finding("note", "ledger-key", line, column,
                               f"dice verified against key {actual}, the one the ledger file names: not pinned "
                               f"(give --ledger-key or a [{KEY_HEADER} \"{actual}\"] header, from the server's "
                               "/public-key)")]
    if pinned.lower() != actual:
        return [LEDGER.finding("error", "ledger-key", line, column,
                               f"the ledger is signed by key {actual}, not by key {pinned} that {source} pins: "
                               "not the game's ledger, or re-signed")]
    return [LEDGER.finding("note", "ledger-key", line, column, f"dice verified against key {actual}, pinned by "
                                                                f"{source}")]


def check_dice(entries: Sequence[Entry], ledger: Ledger, part_of_game: bool = False,
               dice_by_entry: Mapping[str, frozenset[str]] | None = None, pinned_key: str | None = None) -> list[Finding]:
    """Findings of the log's dice and receipts against the ledger (errors, and warnings for unreceipted dice).

    `part_of_game`: the log is one later exchange checked alone, so the ledger's rolls before its first
    receipt (earlier exchanges') and after its last (later exchanges', or not yet played) are not hidden,
    unless rolled by the same player for the purpose of one of its rolls (a reroll); the rolls between
    its first and last receipts must all be in it.

    `dice_by_entry`: the dice the game's rules roll for each kind of entry (GameManifest.dice_by_entry), when
    the game is known; `pinned_key`: the key id given on the command line (else the log's header pins it)."""
    findings: list[Finding] = key_findings(entries, ledger, pinned_key)
    turn, step = 0, None
    public = public_key_from_text(ledger.public_key)
    by_seq = {r.seq: r for r in ledger.receipts}
    last_line = max((e.line for e in entries), default=0)
    # Where each ledger receipt is in the log (line, column), and the log's receipts in log order.
    found: dict[int, tuple[int, int]] = {}
    order: list[tuple[int, Entry]] = []
    differing: list[tuple[Receipt, Receipt, Entry]] = []
    # Receipts of the log that do not read (or are signed by another key, for another number): how many of the
    # log's good receipts come before each, and where it is. Each stands for one ledger roll missing there.
    unread: list[tuple[int, int, int]] = []
    chain = list(chain_problems(ledger.receipts, public))
    # Numbers where the ledger file itself does not hold (edited, or a receipt dropped from it).
    numbers = set(by_seq)
    broken = {r.seq for r, _ in chain}
    top = max(numbers, default=0)

    def unsound(seq: int) -> bool:
        # Tested, not listed: a ledger may number a receipt 10**12, and every number below it would be held.
        return seq in broken or (1 <= seq <= top and seq not in numbers)
    # Where the ledger's players are named after the sides, a die must be rolled by its own side.
    sides = {side for e in entries for side in e.sides_named()}
    for entry in entries:
        turn_marker, step_marker = entry.as_turn_marker(), entry.as_step_marker()
        if turn_marker is not None:
            turn, step = turn_marker.turn, None
        elif step_marker is not None:
            step = step_marker.step
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
                unread.append((len(order), entry.line, entry.column))
                continue
            problem = signature_problem(receipt, public)
            if problem is not None:
                findings.append(LEDGER.finding("error", "receipt", entry.line, entry.column,
                                               f"receipt #{receipt.seq}: {problem}"))
                if receipt.game == ledger.game and receipt.seq in by_seq and receipt.seq not in found:
                    # One breach, one error: a receipt edited in the log stands for the ledger's roll of its
                    # number, which is then not hidden.
                    found[receipt.seq] = (entry.line, entry.column)
                    order.append((receipt.seq, entry))
                else:
                    unread.append((len(order), entry.line, entry.column))
                continue
            stored = by_seq.get(receipt.seq)
            if receipt.game == ledger.game and unsound(receipt.seq) and receipt.seq not in found:
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
            findings += _binding_problems(entry, receipt, purpose_of(entry, k, turn, step), dice_by_entry)
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
        before = sum(1 for seq in logged if seq < receipt.seq)
        standing = next((u for u in unread if u[0] == before), None)
        if standing is not None:
            # The damaged receipt in the log where this roll falls is this roll's (its own error says so).
            unread.remove(standing)
            continue
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


def ledger_dice(entries: Sequence[Entry], ledger: Ledger) -> dict[int, list[int]]:
    """The dice the ledger rolled for each entry (by line) whose logged dice differ from its receipts' and
    whose every receipt is the ledger's own, validly signed: the dice the players changed."""
    public = public_key_from_text(ledger.public_key)
    by_seq = {r.seq: r for r in ledger.receipts}
    out: dict[int, list[int]] = {}
    for entry in entries:
        tokens = list(getattr(entry, "receipts", []))
        dice = logged_dice(entry)
        if not tokens or len(tokens) != len(dice):
            continue
        rolled: list[int] = []
        for token in tokens:
            try:
                receipt = receipt_from_token(token)
            except ReceiptError:
                break
            stored = by_seq.get(receipt.seq)
            if signature_problem(receipt, public) is not None or stored is None or receipt.game != ledger.game \
                    or stored.digest() != receipt.digest():
                break
            rolled.append(receipt.total)
        else:
            if rolled != dice:
                out[entry.line] = rolled
    return out


def _with_dice(entry: Entry, dice: list[int]) -> Entry:
    """The entry with the dice its receipts rolled in place of the logged ones (a comment on the same step of a
    VASSAL log as it is)."""
    roll = entry.as_roll_off()
    if roll is not None:
        return replace(roll, rolls=dict(zip(roll.rolls, dice)))
    return amended(entry, die=dice[0])


def with_ledger_dice(result: Replay[StateT], ledger: Ledger) -> list[Finding]:
    """The replay's findings, with each rule error on an entry whose die the players changed that the
    receipt's die would not give made a note (house style 16: the changed die is the one breach, the
    ledger's `die` error; a result claimed from it is its consequence)."""
    changed = ledger_dice(result.entries, ledger)
    if not changed:
        return result.findings
    entries = [_with_dice(e, changed[e.line]) if e.line in changed else e for e in result.entries]
    again = replay(result.game, result.system, entries, keep_states=False)
    kept = {(f.line, f.rule) for f in again.findings if f.severity == "error" and f.line in changed}
    return [replace(f, severity="note", message=f"{f.message} (with the die the ledger rolled, "
                                                f"{', '.join(map(str, changed[f.line]))}, no breach: the changed "
                                                "die is the breach)")
            if f.severity == "error" and f.line in changed and f.system == result.system.name
            and (f.line, f.rule) not in kept else f for f in result.findings]
