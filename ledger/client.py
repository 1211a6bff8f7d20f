"""A player's side of the ledger: a roll request, with a token or signed with the player's own key."""

from __future__ import annotations

import base64
import json
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.store import SIGNED_ROLL_PREFIX
from wargame.receipts import Receipt, ReceiptError, canonical_bytes, receipt_from_fields


@dataclass(frozen=True)
class RollRequest:
    """The exact body and headers of one roll request."""

    body: bytes
    headers: dict[str, str]


def roll_request(game: str, player: str, purpose: str, dice: str, token: str | None = None,
                 key: Ed25519PrivateKey | None = None) -> RollRequest:
    """A roll request authenticated by the token, or signed by the key over the body (with a fresh nonce)."""
    if key is not None:
        body = canonical_bytes({"game": game, "player": player, "purpose": purpose, "dice": dice,
                                "nonce": secrets.token_urlsafe(24)})
        signature = base64.b64encode(key.sign(SIGNED_ROLL_PREFIX + body)).decode("ascii")
        return RollRequest(body, {"Authorization": f"Ed25519 {signature}", "Content-Type": "application/json"})
    body = canonical_bytes({"player": player, "purpose": purpose, "dice": dice})
    return RollRequest(body, {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})


class RollRefused(Exception):
    """The ledger refused the roll (its status and reason) or could not be reached."""


def send_roll(url: str, game: str, request: RollRequest, timeout: float = 30) -> Receipt:
    """POST the request to the ledger at `url`; the receipt, or RollRefused with the server's reason."""
    http = urllib.request.Request(f"{url.rstrip('/')}/games/{game}/rolls", data=request.body,
                                  headers=request.headers, method="POST")
    try:
        with urllib.request.urlopen(http, timeout=timeout) as answer:  # noqa: S310 (the ledger's own URL)
            data = json.loads(answer.read())
    except urllib.error.HTTPError as e:
        try:
            reason = json.loads(e.read()).get("error", e.reason)
        except ValueError:
            reason = e.reason
        raise RollRefused(f"{e.code}: {reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise RollRefused(f"cannot reach the ledger at {url}: {getattr(e, 'reason', e)}") from None
    try:
        return receipt_from_fields(data.get("receipt"))
    except (ReceiptError, AttributeError) as e:
        raise RollRefused(f"the ledger's answer is not a receipt: {e}") from None


class EntryError(Exception):
    """A log entry that a roll cannot be for: it does not read, or it rolls no die."""


def purpose_for_entry(entry_text: str, turn: int, step: str | None, player: str) -> str:
    """The structured purpose of the die the player rolls for a log entry (`Allied: attack 1718 with ...`, or
    `Roll [SIDE]` for a roll-off, the side being the player's name by default), made by the checker's own
    words as the checker reads them, so the receipt names exactly the entry `check --ledger` will bind it to."""
    from wargame.receipts import purpose_of_text

    purpose = purpose_of_text(entry_text, turn, step, player)
    if purpose is None:
        raise EntryError("the entry rolls no die or names no side: give one line 'SIDE: attack HEX ...' or "
                         "'SIDE: bombard HEX ...', or 'Roll [SIDE]' for a roll-off")
    return purpose.text()
