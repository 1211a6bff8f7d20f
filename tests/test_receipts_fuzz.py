"""Fuzzing the receipt and ledger readers: any input is a receipt, a ledger, or our ReceiptError."""

from __future__ import annotations

import base64
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger_support import fixed_key
from wargame.receipts import (
    GENESIS, TOKEN_PREFIX, Ledger, ReceiptError, chain_problems, ledger_from_bytes, public_key_text,
    receipt_from_token, sign_receipt,
)

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=6), max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), JSON.map(lambda v: TOKEN_PREFIX + base64.urlsafe_b64encode(
    json.dumps(v).encode()).decode().rstrip("="))))
def test_any_token_is_a_receipt_or_our_error(token: str) -> None:
    try:
        receipt_from_token(TOKEN_PREFIX + token if not token.startswith(TOKEN_PREFIX) else token)
    except ReceiptError:
        pass


@settings(max_examples=100, deadline=None)
@given(JSON, st.binary(max_size=64))
def test_any_ledger_file_is_a_ledger_or_our_error(document: object, junk: bytes) -> None:
    for raw in (json.dumps(document).encode(), junk,
                json.dumps({"format": "umpire-ledger", "version": 1, "game": "g",
                            "public_key": public_key_text(fixed_key().public_key()),
                            "receipts": [document]}).encode()):
        try:
            ledger_from_bytes(raw)
        except ReceiptError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=4), st.sampled_from(["game", "seq", "time", "player", "purpose", "dice",
                                                               "result", "prev"]))
def test_any_changed_field_breaks_the_signature(index: int, field: str) -> None:
    """Whatever field of whichever receipt is changed, verification names that receipt."""
    key = fixed_key()
    receipts = []
    prev = GENESIS
    for seq in range(1, 6):
        receipts.append(sign_receipt(key, game="g", seq=seq, time=f"2026-01-01T00:00:0{seq}.000000Z", player="A",
                                     purpose="p", dice="2d6", result=[1, 2], prev=prev))
        prev = receipts[-1].digest()
    fields = receipts[index].fields()
    changed = {"game": "h", "seq": 99, "time": "2027", "player": "B", "purpose": "q", "dice": "1d6",
               "result": [6, 6], "prev": "1" * 64}[field]
    doc = Ledger("g", public_key_text(key.public_key()), tuple(receipts)).document()
    assert isinstance(doc["receipts"], list)
    doc["receipts"][index] = {**fields, field: changed}
    ledger = ledger_from_bytes(json.dumps(doc).encode())
    problems = list(chain_problems(ledger.receipts, key.public_key()))
    assert any(r.seq == ledger.receipts[index].seq and "signature" in p for r, p in problems)
