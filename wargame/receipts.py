"""Signed dice receipts and their hash chain, shared by the ledger service and the adjudicator.

A receipt is a JSON object: format version, game, sequence number (1, 2, ... per game, no gaps),
time (UTC, RFC 3339 with microseconds), player, purpose, dice (`NdS`), result (one value per die),
`prev` (the hash of the game's previous receipt, or GENESIS for the first), key id, and `sig`.
The signature is Ed25519 over SIGNING_PREFIX + the canonical bytes of every field but `sig`;
the hash of a receipt is the SHA-256 of the canonical bytes of every field including `sig`.
Canonical bytes: JSON with sorted keys, no spaces, ASCII only (docs/ledger.md).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # The signature library is loaded only when a key or signature is read (a check without a ledger,
    # the common case, never needs it: about 20 ms of every start-up).
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from wargame.errors import WargameError
from wargame.records import frozen

RECEIPT_VERSION = 1
SIGNING_PREFIX = b"umpire-receipt-v1\n"
GENESIS = "0" * 64
TOKEN_PREFIX = "umpire1."
LEDGER_FORMAT = "umpire-ledger"
# Matched whole (fullmatch): `$` would let a trailing newline through ("1d6\n", "Allied\n").
DICE = re.compile(r"([1-9][0-9]?)d([1-9][0-9]{0,2})")
MAX_DICE = 20
MAX_SIDES = 100
MAX_PURPOSE = 200
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A game or player name, matched whole (fullmatch)."""
# A structured purpose: the entry a roll is for (its game turn, step or phase, side, entry kind and target hex).
PURPOSE = re.compile(r"turn (?P<turn>[0-9]{1,4})(?: step (?P<step>[A-Za-z0-9_.-]{1,64}))?: "
                     r"(?P<side>[A-Za-z0-9][A-Za-z0-9_.-]{0,63}) (?P<entry>attack|bombard|roll)"
                     r"(?: (?P<hex>[A-Za-z0-9_.-]{1,16}))?")
FIELDS = ("v", "game", "seq", "time", "player", "purpose", "dice", "result", "prev", "key", "sig")


class ReceiptError(WargameError):
    """A receipt or ledger that cannot be read, or whose signature or chain does not hold."""


def parse_dice(spec: str) -> tuple[int, int]:
    """`2d6` -> (2, 6); ReceiptError for anything else or more than MAX_DICE dice of MAX_SIDES sides."""
    m = DICE.fullmatch(spec)
    if m is None:
        raise ReceiptError(f"bad dice {spec!r}: expected NdS such as 1d6 or 2d6")
    count, sides = int(m.group(1)), int(m.group(2))
    if count > MAX_DICE or sides > MAX_SIDES or sides < 2:
        raise ReceiptError(f"bad dice {spec!r}: at most {MAX_DICE} dice of 2 to {MAX_SIDES} sides")
    return count, sides


def purpose_problem(purpose: str) -> str | None:
    """Why a purpose cannot be shown as one honest line, or None: no control, format (bidi overrides,
    zero-width marks) or line-break character, nothing blank, at most MAX_PURPOSE characters."""
    if not purpose.strip():
        return "'purpose' must say what the roll is for, e.g. \"turn 3 step action: Allied attack 1718\""
    if len(purpose) > MAX_PURPOSE:
        return f"'purpose' is {len(purpose)} characters long; at most {MAX_PURPOSE}"
    for c in purpose:
        # Cc: controls (DEL too); Cf: bidi overrides and zero-width marks, which reorder or hide text
        # ("8171" shown as "1718"); Zl/Zp: U+2028/U+2029, which break the line.
        if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            return (f"'purpose' must be one line of printable text: character U+{ord(c):04X} "
                    f"({unicodedata.name(c, 'unnamed')}) is not")
    return None


@frozen
class RollPurpose:
    """The entry a roll is for, as a structured purpose: `turn 3 step action: Allied attack 1718`."""

    turn: int
    step: str | None
    side: str
    entry: str
    """The log entry's kind: `attack`, `bombard` or `roll` (a roll-off, a weather or cup roll...)."""
    hex: str | None = None

    def text(self) -> str:
        """The purpose as signed in the receipt."""
        step = f" step {self.step}" if self.step else ""
        target = f" {self.hex}" if self.hex else ""
        return f"turn {self.turn}{step}: {self.side} {self.entry}{target}"



ROLLING_ENTRY = re.compile(r"^\s*(?P<side>[A-Za-z0-9][A-Za-z0-9_.-]{0,63})[:>]\s+(?:(?P<attack>attack)\s+"
                           r"(?P<target>[A-Za-z0-9_.-]{1,64})\s+with\s+[A-Za-z0-9]|(?P<bombard>bombard)\s+"
                           r"(?P<shelled>[A-Za-z0-9_.-]{1,64})\s+.*\bsupport\s+[A-Za-z0-9])")
"""The words of a log entry that rolls a die (an attack or a bombardment) a purpose names: `SIDE: attack HEX
...` (the notation's own parser is the adjudicator's; tests/test_ledger_roll_entry.py holds the two equal)."""


def purpose_of_text(entry_text: str, turn: int, step: str | None, player: str) -> RollPurpose | None:
    """The structured purpose of the die a player rolls for a log entry written in the notation: an attack or a
    bombardment (`Allied: attack 1718 with ...`), or `Roll [SIDE]` for a roll-off (the side being the player's by
    default); None for a line that rolls no die or names no side."""
    words = entry_text.split()
    if words and words[0] == "Roll" and len(words) <= 2:
        side = words[1] if len(words) == 2 else player
        return RollPurpose(turn=turn, step=step, side=side, entry="roll") if NAME.fullmatch(side) else None
    m = ROLLING_ENTRY.match(entry_text)
    if m is None or "\n" in entry_text.strip():
        return None
    kind = "attack" if m.group("attack") else "bombard"
    return RollPurpose(turn=turn, step=step, side=m.group("side"), entry=kind, hex=m.group("target") or m.group("shelled"))

def parse_purpose(purpose: str) -> RollPurpose | None:
    """The structured purpose a receipt's purpose text is, or None for free text (which binds nothing)."""
    m = PURPOSE.fullmatch(purpose)
    if m is None:
        return None
    return RollPurpose(turn=int(m["turn"]), step=m["step"], side=m["side"], entry=m["entry"], hex=m["hex"])


def canonical_bytes(fields: Mapping[str, object]) -> bytes:
    """The one byte form of a JSON object that is signed and hashed."""
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def key_id(public: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key: names the key in a receipt."""
    return hashlib.sha256(raw_public_key(public)).hexdigest()[:16]


def raw_public_key(public: Ed25519PublicKey) -> bytes:
    """The 32 raw bytes of an Ed25519 public key."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def public_key_from_text(text: str) -> Ed25519PublicKey:
    """A public key from its base64 (raw 32 bytes) form, as published by the ledger."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        raw = base64.b64decode(text.strip(), validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError) as e:
        raise ReceiptError(f"not an Ed25519 public key (base64 of 32 bytes): {e}") from None


def public_key_text(public: Ed25519PublicKey) -> str:
    """The base64 form of a public key."""
    return base64.b64encode(raw_public_key(public)).decode("ascii")


@frozen
class Receipt:
    """One signed roll of a game's ledger."""

    game: str
    seq: int
    time: str
    player: str
    purpose: str
    dice: str
    result: tuple[int, ...]
    prev: str
    key: str
    sig: str
    v: int = RECEIPT_VERSION

    def unsigned_fields(self) -> dict[str, object]:
        """Every field but the signature: what is signed."""
        return {"v": self.v, "game": self.game, "seq": self.seq, "time": self.time, "player": self.player,
                "purpose": self.purpose, "dice": self.dice, "result": list(self.result), "prev": self.prev,
                "key": self.key}

    def fields(self) -> dict[str, object]:
        """Every field, signature included: the receipt as JSON."""
        return {**self.unsigned_fields(), "sig": self.sig}

    def digest(self) -> str:
        """The hash the next receipt of the game chains to."""
        return hashlib.sha256(canonical_bytes(self.fields())).hexdigest()

    @property
    def total(self) -> int:
        """The sum of the dice: the die roll of a log entry that rolls them together."""
        return sum(self.result)

    def token(self) -> str:
        """The receipt on one line, as pasted into a log or a chat: TOKEN_PREFIX + base64url JSON."""
        return TOKEN_PREFIX + base64.urlsafe_b64encode(canonical_bytes(self.fields())).decode("ascii").rstrip("=")

    def describe(self) -> str:
        """`game #seq at time: player rolled dice for 'purpose' = result`."""
        faces = "+".join(str(r) for r in self.result)
        return f"{self.game} #{self.seq} at {self.time}: {self.player} rolled {self.dice} for {self.purpose!r} = {faces}"


def sign_receipt(private: Ed25519PrivateKey, *, game: str, seq: int, time: str, player: str, purpose: str,
                 dice: str, result: Sequence[int], prev: str) -> Receipt:
    """A new receipt signed with the ledger's key."""
    unsigned = Receipt(game=game, seq=seq, time=time, player=player, purpose=purpose, dice=dice,
                       result=tuple(result), prev=prev, key=key_id(private.public_key()), sig="")
    signature = private.sign(SIGNING_PREFIX + canonical_bytes(unsigned.unsigned_fields()))
    return Receipt(**{**unsigned.__dict__, "sig": base64.b64encode(signature).decode("ascii")})


def _field(data: Mapping[str, object], name: str, kind: type, where: str) -> object:
    value = data.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ReceiptError(f"{where}: field {name!r} missing or not a {kind.__name__}")
    return value


def receipt_from_fields(data: object, where: str = "receipt") -> Receipt:
    """A receipt from its JSON object; ReceiptError naming the bad field (the signature is not checked here)."""
    if not isinstance(data, dict):
        raise ReceiptError(f"{where}: expected a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ReceiptError(f"{where}: unknown field(s) {', '.join(unknown)}")
    result = _field(data, "result", list, where)
    assert isinstance(result, list)
    if not all(isinstance(r, int) and not isinstance(r, bool) for r in result):
        raise ReceiptError(f"{where}: field 'result' must be a list of whole numbers")
    receipt = Receipt(
        v=int(str(_field(data, "v", int, where))), game=str(_field(data, "game", str, where)),
        seq=int(str(_field(data, "seq", int, where))), time=str(_field(data, "time", str, where)),
        player=str(_field(data, "player", str, where)), purpose=str(_field(data, "purpose", str, where)),
        dice=str(_field(data, "dice", str, where)), result=tuple(result), prev=str(_field(data, "prev", str, where)),
        key=str(_field(data, "key", str, where)), sig=str(_field(data, "sig", str, where)))
    if receipt.v != RECEIPT_VERSION:
        raise ReceiptError(f"{where}: receipt version {receipt.v} is not known (this reads version {RECEIPT_VERSION})")
    return receipt


def receipt_from_token(token: str) -> Receipt:
    """A receipt from its one-line form; ReceiptError if it is not one."""
    if not token.startswith(TOKEN_PREFIX):
        raise ReceiptError(f"a receipt starts with {TOKEN_PREFIX!r}")
    body = token[len(TOKEN_PREFIX):]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        data = json.loads(raw.decode("ascii"))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: a token of arrays nested 1,500 deep fits the 4,096 characters a log allows one.
        raise ReceiptError("the receipt is damaged: its text does not decode (was it cut or retyped?)") from None
    return receipt_from_fields(data)


def signature_problem(receipt: Receipt, public: Ed25519PublicKey) -> str | None:
    """Why the receipt's signature does not hold under the key, or None if it does."""
    from cryptography.exceptions import InvalidSignature

    if receipt.key != key_id(public):
        return f"signed with key {receipt.key}, not the ledger's key {key_id(public)}"
    try:
        signature = base64.b64decode(receipt.sig, validate=True)
        public.verify(signature, SIGNING_PREFIX + canonical_bytes(receipt.unsigned_fields()))
    except (binascii.Error, ValueError, InvalidSignature):
        return "the signature does not match the receipt (a field was changed after signing)"
    return None


def result_problem(receipt: Receipt) -> str | None:
    """Why the receipt's result cannot come from its dice, or None."""
    try:
        count, sides = parse_dice(receipt.dice)
    except ReceiptError as e:
        return e.message
    if len(receipt.result) != count or not all(1 <= r <= sides for r in receipt.result):
        return f"result {list(receipt.result)} is not a roll of {receipt.dice}"
    return None


def chain_problems(receipts: Iterable[Receipt], public: Ed25519PublicKey) -> Iterator[tuple[Receipt, str]]:
    """Every receipt of one game's ledger, in order, whose signature, number or chain link does not hold."""
    prev = GENESIS
    expected = 1
    game: str | None = None
    for receipt in receipts:
        game = receipt.game if game is None else game
        if receipt.game != game:
            yield receipt, f"belongs to game {receipt.game!r}, not {game!r}"
        if (problem := signature_problem(receipt, public)) is not None:
            yield receipt, problem
        if (problem := result_problem(receipt)) is not None:
            yield receipt, problem
        if receipt.seq != expected:
            yield receipt, f"sequence number {receipt.seq} where {expected} was due (a roll is missing or repeated)"
        if receipt.prev != prev:
            yield receipt, "does not chain to the receipt before it (its prev hash differs)"
        prev = receipt.digest()
        expected = receipt.seq + 1


@frozen
class Ledger:
    """A game's whole ledger as downloaded: the server's public key and every receipt in order."""

    game: str
    public_key: str
    receipts: tuple[Receipt, ...]

    def document(self) -> dict[str, object]:
        """The ledger file's JSON object."""
        return {"format": LEDGER_FORMAT, "version": RECEIPT_VERSION, "game": self.game,
                "public_key": self.public_key, "receipts": [r.fields() for r in self.receipts]}

    def file_bytes(self) -> bytes:
        """The ledger file: canonical JSON, one receipt per line, so equal ledgers give equal files."""
        head = canonical_bytes({"format": LEDGER_FORMAT, "version": RECEIPT_VERSION, "game": self.game,
                                "public_key": self.public_key})
        lines = [canonical_bytes(r.fields()) for r in self.receipts]
        body = b",\n".join(lines)
        return head[:-1] + b',"receipts":[\n' + body + (b"\n" if lines else b"") + b"]}\n"


def ledger_from_bytes(raw: bytes, where: str = "ledger") -> Ledger:
    """A ledger file read back; ReceiptError naming what is wrong with it."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ReceiptError(f"{where}: not a ledger file (JSON): {e}") from None
    except RecursionError:
        raise ReceiptError(f"{where}: not a ledger file (JSON): arrays or objects nested too deep") from None
    if not isinstance(data, dict) or data.get("format") != LEDGER_FORMAT:
        raise ReceiptError(f"{where}: not a ledger file (no \"format\": \"{LEDGER_FORMAT}\")")
    if data.get("version") != RECEIPT_VERSION:
        raise ReceiptError(f"{where}: ledger version {data.get('version')!r} is not known")
    game, key, items = data.get("game"), data.get("public_key"), data.get("receipts")
    if not isinstance(game, str) or not isinstance(key, str) or not isinstance(items, list):
        raise ReceiptError(f"{where}: needs 'game', 'public_key' and a list of 'receipts'")
    public_key_from_text(key)
    receipts = tuple(receipt_from_fields(item, f"{where}: receipt {i}") for i, item in enumerate(items, 1))
    return Ledger(game=game, public_key=key, receipts=receipts)
