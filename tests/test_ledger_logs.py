"""Receipts in logs and `adjudicate check --ledger` (issue 16): the example game, a changed die, a hidden
reroll, receipts in the JSON twin and pasted into VASSAL's chat, and a ledger that is not sound."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem_example
from adjudicator.cli import main as adjudicate
from adjudicator.dice_ledger import check_dice
from adjudicator.notation.entries import Attack
from adjudicator.notation.jsonlog import read_json_log
from adjudicator.notation.text import parse_text, write_text
from adjudicator.vassal.load import translate_file
from ledger.store import open_store
from ledger_support import fixed_key
from test_vassal_reader import Session
from wargame.receipts import (
    GENESIS, Ledger, Receipt, ledger_from_bytes, parse_purpose, public_key_text, receipt_from_token, sign_receipt,
)

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "examples" / "pbem"
LEDGER_FILE = PBEM / f"{pbem_example.GAME}.ledger.json"


def game_log(folder: Path, out: Path) -> Path:
    """The exchanges of a folder, in name order, as one log (what `cat` makes)."""
    out.write_text("".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.log"))), encoding="utf-8")
    return out


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(adjudicate, ["check", *args])
    return result.exit_code, result.output


def make_ledger(tmp_path: Path, rolls: list[tuple[str, str, str, list[int]]]) -> tuple[Ledger, list[str]]:
    """A ledger whose rolls are (player, purpose, dice, faces), made by the real store, and the tokens."""
    faces = iter([rolled for *_, rolled in rolls])
    moments = iter(datetime(2026, 2, 1, tzinfo=timezone.utc) + timedelta(minutes=k) for k in range(len(rolls) + 1))
    store = open_store(f"sqlite:///{tmp_path / 'l.sqlite'}", fixed_key(), faces=lambda count, sides: next(faces),
                       clock=lambda: next(moments))
    store.open_game("g", {"Allied": "a" * 16, "German": "g" * 16})
    receipts = [store.roll("g", player, player[0].lower() * 16, purpose, dice) for player, purpose, dice, _ in rolls]
    ledger = Ledger("g", public_key_text(fixed_key().public_key()), tuple(store.receipts("g")))
    store.close()
    return ledger, [r.token() for r in receipts]


def test_the_example_folder_is_what_the_generator_makes(tmp_path: Path) -> None:
    """examples/pbem is reproduced byte for byte by a ledger the test starts (fixed key, clock and dice)."""
    pbem_example.make(tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(PBEM) for p in PBEM.rglob("*") if p.is_file())
    assert made == committed
    assert all((tmp_path / p).read_bytes() == (PBEM / p).read_bytes() for p in made)


def test_the_example_game_is_clean_against_its_ledger(tmp_path: Path) -> None:
    """Every die of the four exchanges has its receipt, each verifies, and no roll of the ledger is missing."""
    log = game_log(PBEM / "game", tmp_path / "game.log")
    code, output = check(str(log), "--ledger", str(LEDGER_FILE))
    assert code == 0, output
    assert "0 error(s), 0 warning(s)" in output
    # The documented way (docs/ledger.md): the key pinned by the log's header, every purpose the entry's own.
    assert "dice verified against key 56475aa75463474c, pinned by the log's [LedgerKey] header" in output
    assert all(parse_purpose(r.purpose) is not None for r in ledger_from_bytes(LEDGER_FILE.read_bytes()).receipts)
    assert len(ledger_from_bytes(LEDGER_FILE.read_bytes()).receipts) == sum(
        len(getattr(e, "receipts", [])) for e in parse_text(log.read_text(encoding="utf-8")))


def test_a_changed_die_is_reported_with_its_line_and_roll(tmp_path: Path) -> None:
    """The attack whose die was raised from 4 to 5 is named, with the receipt's roll."""
    log = game_log(PBEM / "changed-die", tmp_path / "changed.log")
    line = next(n for n, text in enumerate(log.read_text(encoding="utf-8").splitlines(), 1)
                if "attack 0319" in text and " die 5 " in text)
    code, output = check(str(log), "--ledger", str(LEDGER_FILE))
    assert code == 1
    ledger_lines = [t for t in output.splitlines() if "[ledger" in t and "[ledger ledger-key]" not in t]
    assert ledger_lines == [
        f"{log}:{line}:1: error [ledger die]: die 5 in the log, but receipt #14 (Allied rolled 1d6 = 4 for "
        f"'turn 2 step action: Allied attack 0319' at 2026-01-10T19:41:02.000000Z) rolled 4"]


def test_a_changed_die_is_one_error(tmp_path: Path) -> None:
    """Issue 26: the raised die is the one error (the ledger's `die`); the result claimed from the real die,
    wrong for the written one, is a note, since with the ledger's die the entry breaks no rule."""
    log = game_log(PBEM / "changed-die", tmp_path / "changed.log")
    code, output = check(str(log), "--ledger", str(LEDGER_FILE))
    assert code == 1
    errors = [t for t in output.splitlines() if ": error [" in t]
    assert len(errors) == 1 and "[ledger die]" in errors[0], errors
    assert "note [onslaught 7.1]" in output and "with the die the ledger rolled, 4, no breach" in output


def test_a_tampered_receipt_is_one_error(tmp_path: Path) -> None:
    """Issue 26: a receipt edited in the log (its signature no longer holds) or cut so it does not read is one
    `receipt` error; the ledger's roll it stood for is not also a hidden roll."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "attack", "1d6", [3]), ("German", "roll-off", "1d6", [2]),
                                            ("Allied", "roll-off", "1d6", [5])])
    edited = Receipt(**{**receipt_from_token(tokens[0]).__dict__, "result": (6,)}).token()
    for bad in (edited, tokens[0][:-12]):
        text = "\n".join([f"Allied: attack 0621 with us-inf-01 die 6 receipt {bad}",
                          f"Roll Allied 5 German 2 receipt {tokens[2]} receipt {tokens[1]}"])
        found = [(f.line, f.rule) for f in check_dice(parse_text(text), ledger) if f.severity == "error"]
        assert found == [(1, "receipt")], (bad, found)


def test_a_hidden_reroll_is_reported_with_its_purpose_and_time(tmp_path: Path) -> None:
    """The roll the Allied player made and kept quiet is reported on the line of the roll he reported."""
    log = game_log(PBEM / "hidden-reroll", tmp_path / "reroll.log")
    line = next(n for n, text in enumerate(log.read_text(encoding="utf-8").splitlines(), 1) if "attack 0620" in text)
    code, output = check(str(log), "--ledger", str(PBEM / "hidden-reroll" / LEDGER_FILE.name))
    assert code == 1
    ledger_lines = [t for t in output.splitlines() if "[ledger" in t and "[ledger ledger-key]" not in t]
    assert ledger_lines == [
        f"{log}:{line}:1: error [ledger hidden-roll]: roll #13 (Allied rolled 1d6 = 1 for 'turn 2 step action: "
        f"Allied attack 0620' at 2026-01-10T19:33:49.000000Z) is in the ledger but not in the log (before the roll of receipt "
        f"#14 on this line): a roll made and not reported"]


def test_a_log_against_another_chain_is_one_error_not_a_cascade(tmp_path: Path) -> None:
    """The hidden-reroll log against the honest ledger: its receipts leave the chain once; one error says so."""
    log = game_log(PBEM / "hidden-reroll", tmp_path / "reroll.log")
    code, output = check(str(log), "--ledger", str(LEDGER_FILE))
    assert code == 1
    ledger_lines = [t for t in output.splitlines() if "[ledger" in t and "[ledger ledger-key]" not in t]
    assert len(ledger_lines) == 3
    assert "the log follows another chain than this ledger" in ledger_lines[0]
    assert "so do 35 later receipt(s)" in ledger_lines[0]


def test_the_json_twin_carries_the_receipts(tmp_path: Path) -> None:
    """Converted to JSON and back, the receipts stay; the JSON log checks the same; the schema lists them."""
    log = game_log(PBEM / "changed-die", tmp_path / "changed.log")
    twin = tmp_path / "changed.json"
    assert CliRunner().invoke(adjudicate, ["convert", str(log), "-o", str(twin)]).exit_code == 0
    entries = read_json_log(twin.read_text(encoding="utf-8"), str(twin))
    assert write_text(entries) == write_text(parse_text(log.read_text(encoding="utf-8")))
    code, output = check(str(twin), "--ledger", str(LEDGER_FILE))
    assert code == 1 and "error [ledger die]: die 5 in the log, but receipt #14" in output
    schema = json.loads(CliRunner().invoke(adjudicate, ["schema"]).output)
    attack = schema["$defs"]["Attack"]["properties"]["receipts"]
    assert attack["items"]["pattern"].startswith("^umpire1")


@pytest.fixture
def ledger_url(tmp_path: Path) -> Iterator[str]:
    """The example ledger served over HTTP on loopback (as a club's server would, for the download)."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = LEDGER_FILE.read_bytes()
            self.send_response(200 if self.path == "/games/x/ledger.json" else 404)
            self.end_headers()
            if self.path == "/games/x/ledger.json":
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_ledger_by_url(tmp_path: Path, ledger_url: str) -> None:
    """--ledger URL downloads the ledger; a URL that does not answer with one is exit 2 with the reason."""
    log = game_log(PBEM / "changed-die", tmp_path / "changed.log")
    code, output = check(str(log), "--ledger", ledger_url + "/games/x/ledger.json")
    assert code == 1 and "[ledger die]" in output
    code, output = check(str(log), "--ledger", ledger_url + "/games/y/ledger.json")
    assert code == 2 and "cannot download the ledger" in output


def test_a_ledger_that_is_not_one(tmp_path: Path) -> None:
    """A missing file, junk, or a ledger with a bad key is exit 2 with a message, never a traceback."""
    log = game_log(PBEM / "game", tmp_path / "game.log")
    code, output = check(str(log), "--ledger", str(tmp_path / "missing.json"))
    assert code == 2 and "No such file" in output
    junk = tmp_path / "junk.json"
    for text in ("{", "[]", '{"format": "umpire-ledger", "version": 1, "game": "g", "public_key": "xx", '
                              '"receipts": []}',
                 '{"format": "umpire-ledger", "version": 1, "game": "g", "public_key": "' +
                 public_key_text(fixed_key().public_key()) + '", "receipts": [{"v": 1}]}'):
        junk.write_text(text, encoding="utf-8")
        code, output = check(str(log), "--ledger", str(junk))
        assert code == 2 and output.startswith("Error: ") and "Traceback" not in output, output


def test_a_ledger_edited_after_download_breaks_its_chain(tmp_path: Path) -> None:
    """A result changed in the ledger file itself is a broken signature; a dropped receipt a broken chain."""
    doc = json.loads(LEDGER_FILE.read_text(encoding="utf-8"))
    doc["receipts"][4]["result"] = [7 - doc["receipts"][4]["result"][0]]
    del doc["receipts"][9]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    log = game_log(PBEM / "game", tmp_path / "game.log")
    code, output = check(str(log), "--ledger", str(edited))
    assert code == 1
    ledger_lines = [t for t in output.splitlines() if "[ledger " in t and "[ledger ledger-key]" not in t]
    # The file's own two breaks, once each: nothing about the log's receipts, no link broken in consequence.
    assert len(ledger_lines) == 2, ledger_lines
    assert "#5 " in ledger_lines[0] and "the signature does not match" in ledger_lines[0]
    assert "#11 " in ledger_lines[1] and "sequence number 11 where 10 was due" in ledger_lines[1]


def test_a_receipt_numbered_far_beyond_the_others_costs_nothing_to_find(tmp_path: Path) -> None:
    """A ledger receipt renumbered 10**12: its break reported like any other, at once (the numbers it skips were
    once listed one by one, terabytes of them)."""
    doc = json.loads(LEDGER_FILE.read_text(encoding="utf-8"))
    doc["receipts"][-1]["seq"] = 10**12
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    code, output = check(str(game_log(PBEM / "game", tmp_path / "game.log")), "--ledger", str(edited))
    assert code == 1 and f"sequence number {10**12} where" in output


def test_receipt_findings_one_by_one(tmp_path: Path) -> None:
    """Damaged, foreign-key, repeated, missing and out-of-order receipts, and dice without receipts."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "attack", "1d6", [3]), ("German", "roll-off", "1d6", [2]),
                                            ("Allied", "roll-off", "1d6", [5]), ("Allied", "attack", "2d6", [1, 4])])
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    stranger = sign_receipt(Ed25519PrivateKey.from_private_bytes(bytes(32)), game="g", seq=1,
                            time="2026-02-01T00:00:00.000000Z", player="Allied", purpose="attack", dice="1d6",
                            result=[6], prev=GENESIS)
    text = "\n".join([
        f"Allied: attack 0621 with us-inf-01 die 3 receipt {tokens[0]}",
        f"Allied: attack 0621 with us-inf-01 die 3 receipt {tokens[0]}",
        f"Roll Allied 5 German 2 receipt {tokens[2]}",
        f"Allied: attack 0621 with us-inf-01 die 5 receipt {tokens[3]}",
        f"Allied: attack 0621 with us-inf-01 die 6 receipt {stranger.token()}",
        f"Allied: attack 0621 with us-inf-01 die 6 receipt {tokens[1][:-12]}",
        "Allied: attack 0621 with us-inf-01 die 1",
    ])
    findings = [(f.line, f.rule, f.severity) for f in check_dice(parse_text(text), ledger) if f.rule != "ledger-key"]
    assert sorted(findings) == sorted([
        (2, "receipt-once", "error"), (3, "die", "error"), (5, "receipt", "error"), (6, "receipt", "error"),
        (7, "no-receipt", "warning"), (3, "hidden-roll", "error")]), findings
    messages = {f.rule: f.message for f in check_dice(parse_text(text), ledger) if f.rule != "ledger-key"}
    assert "not the ledger's key" in messages["receipt"] or "damaged" in messages["receipt"]
    assert "2 die roll(s) in the entry but 1 receipt(s)" in messages["die"]
    assert "#2 (German rolled 1d6 = 2 for 'roll-off'" in messages["hidden-roll"]
    theirs = check_dice(parse_text(f"Roll Allied 2 German 5 receipt {tokens[1]} receipt {tokens[2]}"), ledger)
    assert [(f.rule, f.message) for f in theirs if f.rule == "die"] == [
        ("die", "the die is Allied's, but receipt #2 (German rolled 1d6 = 2 for 'roll-off' at "
                "2026-02-01T00:02:00.000000Z) was rolled by German"),
        ("die", "the die is German's, but receipt #3 (Allied rolled 1d6 = 5 for 'roll-off' at "
                "2026-02-01T00:03:00.000000Z) was rolled by Allied")]
    swapped = "\n".join([f"Allied: attack 0621 with us-inf-01 die 5 receipt {tokens[3]}",
                         f"Allied: attack 0621 with us-inf-01 die 3 receipt {tokens[0]}",
                         f"Roll Allied 5 German 2 receipt {tokens[2]} receipt {tokens[1]}"])
    order = [(f.line, f.rule) for f in check_dice(parse_text(swapped), ledger) if f.rule != "ledger-key"]
    assert (2, "receipt-order") in order and (3, "receipt-order") in order


def test_a_receipt_pasted_in_vassal_chat_is_the_die_or_the_dies_receipt(tmp_path: Path) -> None:
    """Pasted after an attack declared without its die, the receipt is the die; pasted after a die rolled with
    VASSAL's button, it is that die's receipt, and `check --ledger` verifies both."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "turn 1 attack on 0621", "1d6", [5]),
                                            ("Allied", "turn 1 attack on 0621", "1d6", [2])])
    s = Session()
    s.chat("a", "Allied: action combat supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02")
    s.chat("a", tokens[0])
    s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02")
    s.roll("a", 3)
    s.chat("a", "Receipt " + tokens[1])
    s.chat("a", "umpire1.notareceipt")
    vlog = s.write(tmp_path / "receipts.vlog")
    translation = translate_file(vlog)
    attacks = [e for e in translation.entries if isinstance(e, Attack)]
    assert [(a.die, a.receipts) for a in attacks] == [(5, [tokens[0]]), (3, [tokens[1]])]
    assert any("pasted a dice receipt that does not read" in n.message for n in translation.notes)
    ledger_file = tmp_path / "g.ledger.json"
    ledger_file.write_bytes(ledger.file_bytes())
    code, output = check(str(vlog), "--ledger", str(ledger_file))
    assert "error [ledger die]: die 3 in the log, but receipt #2" in output
    assert output.count("[ledger") - output.count("[ledger ledger-key]") == 1


def test_write_and_read_back_a_receipt_line() -> None:
    """`receipt TOKEN` is written after the entry's claims and read back the same; junk there is our error."""
    receipt: Receipt = sign_receipt(fixed_key(), game="g", seq=1, time="2026-02-01T00:00:00.000000Z",
                                    player="German", purpose="p", dice="1d6", result=[4], prev=GENESIS)
    line = f"German: bombard 2319 diff +2 die 4 result D2 support de_sf_6 receipt {receipt.token()}"
    assert write_text(parse_text(line)) == line + "\n"
    from adjudicator.notation.text import LogSyntaxErrors
    with pytest.raises(LogSyntaxErrors) as raised:
        parse_text("Roll Allied 5 receipt 5")
    assert "expected a dice receipt" in raised.value.errors[0].message


def test_a_ledger_forked_by_its_server_is_reported(tmp_path: Path) -> None:
    """A receipt the server signed onto another chain (its prev not the receipt before it) is a ledger-chain
    error even though its signature holds."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "a", "1d6", [3]), ("German", "b", "1d6", [2])])
    forked = sign_receipt(fixed_key(), game="g", seq=2, time=ledger.receipts[1].time, player="German", purpose="b",
                          dice="1d6", result=[6], prev=GENESIS)
    fork = Ledger("g", ledger.public_key, (ledger.receipts[0], forked))
    text = f"Roll Allied 3 German 6 receipt {tokens[0]} receipt {forked.token()}"
    findings = [(f.rule, f.message) for f in check_dice(parse_text(text), fork) if f.rule != "ledger-key"]
    assert findings == [("ledger-chain", "the ledger's receipt #2 (German rolled 1d6 = 6 for 'b' at "
                                         f"{forked.time}): does not chain to the receipt before it (its prev hash "
                                         "differs)")]


def onslaught_dice() -> dict[str, frozenset[str]]:
    from wargame.datafiles import load_toml
    from wargame.models import GameManifest
    return load_toml(ROOT / "counters" / "onslaught" / "game.toml", GameManifest).dice_by_entry()


def test_dice_other_than_the_rules_are_reported(tmp_path: Path) -> None:
    """Two 2d3 rolls (never a 1) are no d6 of Onslaught's combat, though their totals are dice of a d6."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "turn 1: Allied attack 0320", "2d3", [1, 2]),
                                            ("Allied", "turn 1: Allied attack 0621", "1d6", [5])])
    text = "\n".join(["Turn 1", f"Allied: attack 0320 with us-inf-01 die 3 receipt {tokens[0]}",
                      f"Allied: attack 0621 with us-inf-01 die 5 receipt {tokens[1]}"])
    findings = [(f.line, f.rule) for f in check_dice(parse_text(text), ledger, dice_by_entry=onslaught_dice())
                if f.severity == "error"]
    assert findings == [(2, "receipt-dice")]
    assert [f for f in check_dice(parse_text(text), ledger) if f.severity == "error"] == []  # no rules, no check


def test_receipts_swapped_between_entries_are_errors_on_their_lines(tmp_path: Path) -> None:
    """The rolls for the attacks on 0320 and 0621 used the other way round: an error on each line, not a warning."""
    ledger, tokens = make_ledger(tmp_path, [("Allied", "turn 1 step action: Allied attack 0320", "1d6", [5]),
                                            ("Allied", "turn 1 step action: Allied attack 0621", "1d6", [2])])
    right = "\n".join(["Turn 1", "Step action", f"Allied: attack 0320 with us-inf-01 die 5 receipt {tokens[0]}",
                       f"Allied: attack 0621 with us-inf-01 die 2 receipt {tokens[1]}"])
    assert [f for f in check_dice(parse_text(right), ledger) if f.severity != "note"] == []
    swapped = "\n".join(["Turn 1", "Step action", f"Allied: attack 0621 with us-inf-01 die 5 receipt {tokens[0]}",
                         f"Allied: attack 0320 with us-inf-01 die 2 receipt {tokens[1]}"])
    errors = [(f.line, f.rule, f.message) for f in check_dice(parse_text(swapped), ledger) if f.severity == "error"]
    assert [(line, rule) for line, rule, _ in errors] == [(3, "receipt-entry"), (4, "receipt-entry")]
    assert "rolled for 'turn 1 step action: Allied attack 0320', but stands here for " \
           "'turn 1 step action: Allied attack 0621'" in errors[0][2]
    later = "\n".join(["Turn 2", "Step action", f"Allied: attack 0320 with us-inf-01 die 5 receipt {tokens[0]}"])
    assert [f.rule for f in check_dice(parse_text(later), ledger) if f.severity == "error"] == ["receipt-entry"]


def test_a_ledger_re_signed_by_another_key_is_an_error_when_the_key_is_pinned(tmp_path: Path) -> None:
    """A cheater's ledger re-signed with their own key verifies against itself; the pinned key says it is not
    the game's; the verdict names the key it verified against either way."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from wargame.receipts import key_id
    real = key_id(fixed_key().public_key())
    cheat = Ed25519PrivateKey.generate()
    receipt = sign_receipt(cheat, game="g", seq=1, time="2026-02-01T00:00:00.000000Z", player="Allied",
                           purpose="attack", dice="1d6", result=[6], prev=GENESIS)
    forged = Ledger("g", public_key_text(cheat.public_key()), (receipt,))
    text = f'[LedgerKey "{real}"]\nAllied: attack 0621 with us-inf-01 die 6 receipt {receipt.token()}'
    errors = [(f.line, f.rule) for f in check_dice(parse_text(text), forged) if f.severity == "error"]
    assert errors == [(1, "ledger-key")]
    unpinned = check_dice(parse_text(text.split("\n", 1)[1]), forged)
    assert [(f.severity, f.rule) for f in unpinned] == [("note", "ledger-key")]
    assert key_id(cheat.public_key()) in unpinned[0].message and "not pinned" in unpinned[0].message
    log = game_log(PBEM / "game", tmp_path / "game.log")
    code, output = check(str(log), "--ledger", str(LEDGER_FILE), "--ledger-key", "0123456789abcdef")
    assert code == 1 and "error [ledger ledger-key]: the ledger is signed by key 56475aa75463474c, not by key " \
                         "0123456789abcdef that --ledger-key pins" in output
    code, output = check(str(log), "--ledger", str(LEDGER_FILE), "--ledger-key", "56475aa75463474c")
    assert code == 0 and "dice verified against key 56475aa75463474c, pinned by --ledger-key" in output


def test_the_ledger_by_its_game_page_url_and_a_stalled_or_strange_server(tmp_path: Path, ledger_url: str) -> None:
    """The game page's URL is accepted; a server dripping a byte every 0.5 s or answering in another protocol
    is exit 2 with a clear message within the overall deadline, never a hang or an internal error."""
    import socket
    import time
    from adjudicator import dice_ledger
    log = game_log(PBEM / "changed-die", tmp_path / "changed.log")
    code, output = check(str(log), "--ledger", ledger_url + "/games/x")
    assert code == 1 and "[ledger die]" in output

    def serve(reply: bytes, drip: bool) -> tuple[str, threading.Event]:
        listener = socket.create_server(("127.0.0.1", 0))
        stop = threading.Event()

        def run() -> None:
            connection, _ = listener.accept()
            connection.recv(4096)
            connection.sendall(reply)
            while drip and not stop.is_set():
                connection.sendall(b"[")
                time.sleep(0.5)
            connection.close()
            listener.close()
        threading.Thread(target=run, daemon=True).start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}/games/x", stop

    url, stop = serve(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n", drip=True)
    old = dice_ledger.DOWNLOAD_DEADLINE_S
    dice_ledger.DOWNLOAD_DEADLINE_S = 2.0
    started = time.monotonic()
    try:
        code, output = check(str(log), "--ledger", url)
    finally:
        dice_ledger.DOWNLOAD_DEADLINE_S = old
        stop.set()
    assert code == 2 and "the download took over 2 s" in output and time.monotonic() - started < 10
    url, _ = serve(b"SSH-2.0-OpenSSH_9.6\r\n", drip=False)
    code, output = check(str(log), "--ledger", url)
    assert code == 2 and "cannot download the ledger" in output, output
