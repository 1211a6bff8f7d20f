"""The dice and ledger service against SQLite and a real PostgreSQL: receipts, refusals, rate limit,
concurrency and crash safety (issue 16)."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from click.testing import CliRunner

with warnings.catch_warnings():
    # Starlette's test client asks for a renamed httpx; the one installed is the one it drives.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ledger.app import build_app
from ledger.cli import main as umpire_ledger
import ledger.store
from ledger.client import roll_request
from ledger.store import MIGRATIONS, SCHEMA_VERSION, PlayerKey, RateLimit, Store, open_store
from ledger_support import ADMIN, LedgerProcess, Postgres, db_url, postgres, fixed_key, write_test_key
from wargame.receipts import (
    GENESIS, Receipt, chain_problems, key_id, ledger_from_bytes, public_key_from_text, public_key_text,
    receipt_from_fields, receipt_from_token, sign_receipt,
)

__all__ = ["db_url", "postgres", "Postgres"]  # fixtures used by the tests below
ALLIED, GERMAN = "allied-token-0123456789", "german-token-0123456789"
PLAYERS = {"Allied": ALLIED, "German": GERMAN}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url, fixed_key(), RateLimit(5, 60))
    yield opened
    opened.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(build_app(store, ADMIN)) as test_client:
        answer = test_client.post("/games", json={"game": "g1", "players": PLAYERS}, headers=bearer(ADMIN))
        assert answer.status_code == 201, answer.text
        yield test_client


def roll(client: TestClient, purpose: str = "turn 1 combat at 1718", dice: str = "1d6", player: str = "Allied",
         token: str = ALLIED, game: str = "g1") -> httpx.Response:
    return client.post(f"/games/{game}/rolls", json={"player": player, "purpose": purpose, "dice": dice},
                       headers=bearer(token))


def test_receipts_are_numbered_chained_and_signed(client: TestClient) -> None:
    """Each roll's receipt names game, number, purpose, dice and result, chains to the one before, and verifies."""
    answers = [roll(client, f"roll {i}", dice) for i, dice in enumerate(["1d6", "2d6", "3d10"], 1)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    receipts = [receipt_from_fields(a.json()["receipt"]) for a in answers]
    assert [r.seq for r in receipts] == [1, 2, 3]
    assert [r.purpose for r in receipts] == ["roll 1", "roll 2", "roll 3"]
    assert [len(r.result) for r in receipts] == [1, 2, 3]
    assert all(1 <= v <= 6 for v in receipts[1].result) and all(1 <= v <= 10 for v in receipts[2].result)
    assert receipts[0].prev == GENESIS and receipts[1].prev == receipts[0].digest()
    assert receipt_from_token(answers[2].json()["token"]) == receipts[2]
    published = client.get("/public-key").json()
    assert published["public_key"] == public_key_text(fixed_key().public_key())
    assert published["key_id"] == key_id(fixed_key().public_key()) == receipts[0].key
    download = client.get("/games/g1/ledger.json")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    ledger = ledger_from_bytes(download.content)
    assert list(ledger.receipts) == receipts
    assert list(chain_problems(ledger.receipts, public_key_from_text(ledger.public_key))) == []
    page = client.get("/games/g1")
    assert page.status_code == 200 and "roll 3" in page.text and receipts[2].token() in page.text


def test_a_changed_receipt_fails_verification(client: TestClient) -> None:
    """A result, a number or a dropped receipt each break the signature or the chain: the checks can fail."""
    for i in range(3):
        assert roll(client, f"roll {i}").status_code == 201
    receipts = list(ledger_from_bytes(client.get("/games/g1/ledger.json").content).receipts)
    public = fixed_key().public_key()
    changed = Receipt(**{**receipts[1].__dict__, "result": (7 - receipts[1].result[0],)})
    assert [p for _, p in chain_problems([receipts[0], changed, receipts[2]], public)] == [
        "the signature does not match the receipt (a field was changed after signing)",
        "does not chain to the receipt before it (its prev hash differs)"]
    problems = [p for _, p in chain_problems([receipts[0], receipts[2]], public)]
    assert problems == ["sequence number 3 where 2 was due (a roll is missing or repeated)",
                        "does not chain to the receipt before it (its prev hash differs)"]


@pytest.mark.parametrize(("body", "token", "status", "reason"), [
    ({"player": "Allied", "purpose": "x", "dice": "1d6"}, None, 401, "no credential"),
    ({"player": "Allied", "purpose": "x", "dice": "1d6"}, GERMAN, 401, "not Allied's"),
    ({"player": "Soviet", "purpose": "x", "dice": "1d6"}, ALLIED, 403, "not a player of game 'g1'"),
    ({"player": "Allied", "purpose": "x", "dice": "d6"}, ALLIED, 400, "bad dice 'd6'"),
    ({"player": "Allied", "purpose": "x", "dice": "1d1"}, ALLIED, 400, "bad dice '1d1'"),
    ({"player": "Allied", "purpose": "x", "dice": "99d6"}, ALLIED, 400, "bad dice '99d6'"),
    ({"player": "Allied", "purpose": "x", "dice": 6}, ALLIED, 400, "'dice' must be a string"),
    ({"player": "Allied", "purpose": "x" * 201, "dice": "1d6"}, ALLIED, 400, "201 characters long"),
    ({"player": "Allied", "purpose": "", "dice": "1d6"}, ALLIED, 400, "'purpose' must say"),
    ({"player": "Allied", "purpose": "a\nb", "dice": "1d6"}, ALLIED, 400, "one line"),
    ({"player": "Allied", "purpose": "x", "dice": "1d6", "result": 6}, ALLIED, 400, "unknown field(s) result"),
    ({"purpose": "x", "dice": "1d6"}, ALLIED, 400, "'player' must be a string"),
])
def test_bad_roll_requests_get_4xx_with_a_reason(client: TestClient, body: dict[str, object], token: str | None,
                                                 status: int, reason: str) -> None:
    """Each refusal has its status and says why; nothing is rolled."""
    answer = client.post("/games/g1/rolls", json=body, headers=bearer(token) if token else {})
    assert answer.status_code == status
    assert reason in answer.json()["error"]
    assert ledger_from_bytes(client.get("/games/g1/ledger.json").content).receipts == ()


def test_unknown_game_and_malformed_json(client: TestClient) -> None:
    """An unknown game is 404; malformed JSON, a non-object and an over-long body are refused."""
    answer = roll(client, game="g2")
    assert answer.status_code == 404 and "unknown game 'g2'" in answer.json()["error"]
    assert client.get("/games/g2").status_code == 404 and client.get("/games/g2/ledger.json").status_code == 404
    page = client.get("/games/%3Cscript%3Ex")
    assert page.status_code == 404 and "<script>" not in page.text and "&lt;script&gt;x" in page.text
    answer = client.post("/games/g1/rolls", content=b'{"player": "Allied",', headers=bearer(ALLIED))
    assert answer.status_code == 400 and "malformed JSON" in answer.json()["error"]
    answer = client.post("/games/g1/rolls", content=b"[1, 2]", headers=bearer(ALLIED))
    assert answer.status_code == 400 and "JSON object" in answer.json()["error"]
    answer = client.post("/games/g1/rolls", content=b" " * 20000, headers=bearer(ALLIED))
    assert answer.status_code == 413


def test_opening_games_needs_the_admin_token(client: TestClient) -> None:
    """No admin token, no game; a game opens once; names and tokens are checked."""
    body = {"game": "g2", "players": PLAYERS}
    assert client.post("/games", json=body).status_code == 401
    assert client.post("/games", json=body, headers=bearer(ALLIED)).status_code == 401
    assert client.post("/games", json={"game": "g1", "players": PLAYERS}, headers=bearer(ADMIN)).status_code == 409
    answer = client.post("/games", json={"game": "no spaces", "players": PLAYERS}, headers=bearer(ADMIN))
    assert answer.status_code == 400 and "bad game name" in answer.json()["error"]
    answer = client.post("/games", json={"game": "g3", "players": {"Allied": "short"}}, headers=bearer(ADMIN))
    assert answer.status_code == 400 and "at least 16 characters" in answer.json()["error"]
    assert client.post("/games", json=body, headers=bearer(ADMIN)).status_code == 201


def test_rate_limit_is_per_player(client: TestClient) -> None:
    """The sixth roll in a minute is refused with 429 and Retry-After; the other player still rolls."""
    assert [roll(client, f"r{i}").status_code for i in range(5)] == [201] * 5
    answer = roll(client, "r6")
    assert answer.status_code == 429 and answer.headers["retry-after"] == "60"
    assert "rolled 5 times in 60 s" in answer.json()["error"]
    assert roll(client, "g", player="German", token=GERMAN).status_code == 201


def test_games_are_chained_separately(client: TestClient) -> None:
    """Each game has its own numbering and chain."""
    assert client.post("/games", json={"game": "g2", "players": PLAYERS}, headers=bearer(ADMIN)).status_code == 201
    roll(client)
    second = receipt_from_fields(roll(client, game="g2").json()["receipt"])
    assert (second.game, second.seq, second.prev) == ("g2", 1, GENESIS)


def test_migrations_run_once_and_a_newer_schema_is_refused(db_url: str) -> None:
    """Opening a database twice keeps one schema version row; a database from a newer server is refused."""
    for _ in range(2):
        open_store(db_url, fixed_key()).close()
    opened = open_store(db_url, fixed_key())
    with opened.transaction(write=True) as cursor:
        rows = cursor.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
        assert [tuple(r) for r in rows] == [(v,) for v, _ in MIGRATIONS]
        cursor.execute(opened.sql("INSERT INTO schema_version (version) VALUES (?)"), (SCHEMA_VERSION + 1,))
    opened.close()
    with pytest.raises(RuntimeError, match="newer than this server's"):
        open_store(db_url, fixed_key())


def test_a_database_of_the_first_schema_is_migrated(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game opened under schema 1 keeps its players and rolls after the server's upgrade to the current one."""
    monkeypatch.setattr(ledger.store, "MIGRATIONS", MIGRATIONS[:1])
    monkeypatch.setattr(ledger.store, "SCHEMA_VERSION", 1)
    old = open_store(db_url, fixed_key())
    with old.transaction(write=True) as cursor:  # what a server of schema 1 wrote
        cursor.execute(old.sql("INSERT INTO games (id, created, last_seq, last_hash) VALUES (?, ?, 0, ?)"),
                       ("g1", "2026-01-01T00:00:00.000000Z", GENESIS))
        for name, token in PLAYERS.items():
            cursor.execute(old.sql("INSERT INTO players (game, name, token_sha256) VALUES (?, ?, ?)"),
                           ("g1", name, ledger.store.token_digest(token)))
    old.close()
    monkeypatch.undo()
    new = open_store(db_url, fixed_key())
    first = new.roll("g1", "Allied", ALLIED, "after the upgrade", "1d6")
    assert (first.seq, first.prev) == (1, GENESIS)
    key = Ed25519PrivateKey.generate()
    new.open_game("g2", {"Allied": PlayerKey(public_key_text(key.public_key()))})
    new.close()


def signed(client: TestClient, key: Ed25519PrivateKey, game: str = "keys", purpose: str = "p",
           player: str = "Allied") -> httpx.Response:
    request = roll_request(game, player, purpose, "1d6", key=key)
    return client.post(f"/games/{game}/rolls", content=request.body, headers=request.headers)


def test_players_may_sign_with_their_own_keys(client: TestClient) -> None:
    """A player opened with a public key rolls by signing the request; a replayed, altered, foreign-signed or
    token request is refused with its reason."""
    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    body = {"game": "keys", "players": {"Allied": {"public_key": public_key_text(key.public_key())},
                                        "German": GERMAN}}
    assert client.post("/games", json=body, headers=bearer(ADMIN)).status_code == 201
    answer = signed(client, key, purpose="turn 1 attack on 0621")
    assert answer.status_code == 201, answer.text
    assert receipt_from_fields(answer.json()["receipt"]).purpose == "turn 1 attack on 0621"
    request = roll_request("keys", "Allied", "p", "1d6", key=key)
    assert client.post("/games/keys/rolls", content=request.body, headers=request.headers).status_code == 201
    again = client.post("/games/keys/rolls", content=request.body, headers=request.headers)
    assert again.status_code == 409 and "nonce was used already" in again.json()["error"]
    altered = client.post("/games/keys/rolls", content=request.body.replace(b'"p"', b'"q"'), headers=request.headers)
    assert altered.status_code == 401 and "not signed by Allied's key" in altered.json()["error"]
    assert signed(client, other).status_code == 401
    assert roll(client, game="keys", token=ALLIED).status_code == 401
    elsewhere = roll_request("g1", "Allied", "p", "1d6", key=key)
    answer = client.post("/games/keys/rolls", content=elsewhere.body, headers=elsewhere.headers)
    assert answer.status_code == 400 and "'game' must be 'keys'" in answer.json()["error"]
    unsigned_key = client.post("/games/keys/rolls", json={"player": "German", "purpose": "p", "dice": "1d6",
                                                           "game": "keys"}, headers={"Authorization": "Ed25519 AAAA"})
    assert unsigned_key.status_code == 400 and "'nonce'" in unsigned_key.json()["error"]
    token_player = signed(client, key, player="German")
    assert token_player.status_code == 401 and "German has no public key" in token_player.json()["error"]
    bad_key = {"game": "keys2", "players": {"Allied": {"public_key": "not base64!"}}}
    answer = client.post("/games", json=bad_key, headers=bearer(ADMIN))
    assert answer.status_code == 400 and "public key" in answer.json()["error"]


def test_cli_keygen_open_and_export(tmp_path: Path) -> None:
    """keygen never overwrites a key; open prints the tokens; export writes the ledger file."""
    runner = CliRunner()
    key = tmp_path / "server.pem"
    made = runner.invoke(umpire_ledger, ["keygen", str(key)])
    assert made.exit_code == 0 and made.output.startswith("key id ")
    again = runner.invoke(umpire_ledger, ["keygen", str(key)])
    assert again.exit_code == 2 and "never replaced" in again.output
    db = f"sqlite:///{tmp_path / 'l.sqlite'}"
    opened = runner.invoke(umpire_ledger, ["open", "--db", db, "--key", str(key), "g1", "Allied", "German=" + GERMAN])
    assert opened.exit_code == 0, opened.output
    assert opened.output.splitlines()[1] == f"German {GERMAN}"
    twice = runner.invoke(umpire_ledger, ["open", "--db", db, "--key", str(key), "g1", "Allied"])
    assert twice.exit_code == 2 and "already open" in twice.output
    out = tmp_path / "g1.ledger.json"
    exported = runner.invoke(umpire_ledger, ["export", "--db", db, "--key", str(key), "--out", str(out), "g1"])
    assert exported.exit_code == 0 and ledger_from_bytes(out.read_bytes()).receipts == ()
    bad = runner.invoke(umpire_ledger, ["serve", "--db", "mysql://x", "--key", str(key)])
    assert bad.exit_code == 2 and "expected sqlite:///PATH or postgresql://" in bad.output
    nowhere = runner.invoke(umpire_ledger, ["open", "--db", f"sqlite:///{tmp_path}/no/such/dir.sqlite", "--key",
                                            str(key), "g2", "Allied"])
    assert nowhere.exit_code == 2 and nowhere.output.startswith("Error: database ")
    junk = tmp_path / "junk.pem"
    junk.write_text("not a key")
    unusable = runner.invoke(umpire_ledger, ["serve", "--db", db, "--key", str(junk)])
    assert unusable.exit_code == 2 and "not an unencrypted PEM private key" in unusable.output
    shown = runner.invoke(umpire_ledger, ["public-key", str(key)])
    assert shown.exit_code == 0 and shown.output == made.output


def _load(server: LedgerProcess, clients: int, rolls: int, acknowledged: list[Receipt],
          stop: threading.Event | None = None) -> list[BaseException]:
    """`clients` players rolling `rolls` times each, concurrently; every acknowledged receipt is kept."""
    errors: list[BaseException] = []
    lock = threading.Lock()

    def player(n: int) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for i in range(rolls):
                if stop is not None and stop.is_set():
                    return
                try:
                    answer = http.post("/games/load/rolls", headers=bearer(f"player-{n}-token-0123456789"),
                                       json={"player": f"P{n}", "purpose": f"P{n} roll {i}", "dice": "2d6"})
                except httpx.HTTPError as e:
                    if stop is None:
                        errors.append(e)
                    return
                if answer.status_code != 201:
                    errors.append(AssertionError(answer.text))
                    return
                with lock:
                    acknowledged.append(receipt_from_fields(answer.json()["receipt"]))

    threads = [threading.Thread(target=player, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def _check_ledger(server: LedgerProcess, acknowledged: list[Receipt]) -> list[Receipt]:
    """The downloaded ledger: gap-free, unique, verified, holding every acknowledged receipt unchanged."""
    ledger = ledger_from_bytes(httpx.get(server.url + "/games/load/ledger.json", timeout=30).content)
    receipts = list(ledger.receipts)
    assert [r.seq for r in receipts] == list(range(1, len(receipts) + 1))
    assert list(chain_problems(receipts, public_key_from_text(ledger.public_key))) == []
    by_seq = {r.seq: r for r in receipts}
    assert all(by_seq.get(r.seq) == r for r in acknowledged)
    return receipts


def test_roll_command_with_a_token_and_with_a_key(tmp_path: Path) -> None:
    """`umpire-ledger roll` against a served ledger prints the result and the receipt line; refusals are exit 2."""
    runner = CliRunner()
    server = LedgerProcess(f"sqlite:///{tmp_path / 'l.sqlite'}", write_test_key(tmp_path / "key.pem"))
    server.start()
    try:
        player_key = tmp_path / "alice.pem"
        made = runner.invoke(umpire_ledger, ["keygen", str(player_key)])
        public = made.output.splitlines()[1].removeprefix("public key ")
        opened = runner.invoke(umpire_ledger, ["open", "--db", server.db, "--key", str(server.key), "g1",
                                               f"Allied:{public}", f"German={GERMAN}"])
        assert opened.exit_code == 0 and opened.output == f"Allied signs with its key\nGerman {GERMAN}\n"
        signed_roll = runner.invoke(umpire_ledger, ["roll", "--url", server.url, "--key", str(player_key), "g1",
                                                    "Allied", "2d6", "turn 1 attack on 0621"])
        assert signed_roll.exit_code == 0, signed_roll.output
        first, line = signed_roll.output.splitlines()
        assert first.startswith("#1 2d6 = ") and line.startswith("receipt umpire1.")
        receipt = receipt_from_token(line.removeprefix("receipt "))
        assert (receipt.player, receipt.purpose) == ("Allied", "turn 1 attack on 0621")
        by_token = runner.invoke(umpire_ledger, ["roll", "--url", server.url, "--token-env", "GERMAN_TOKEN", "g1",
                                                 "German", "1d6", "roll-off"], env={"GERMAN_TOKEN": GERMAN})
        assert by_token.exit_code == 0 and by_token.output.startswith("#2 1d6 = ")
        refused = runner.invoke(umpire_ledger, ["roll", "--url", server.url, "--token-env", "GERMAN_TOKEN", "g1",
                                                "German", "1d7x", "roll-off"], env={"GERMAN_TOKEN": GERMAN})
        assert refused.exit_code == 2 and "400: bad dice '1d7x'" in refused.output
    finally:
        server.stop()
    unreachable = runner.invoke(umpire_ledger, ["roll", "--url", server.url, "--token-env", "GERMAN_TOKEN", "g1",
                                                "German", "1d6", "x"], env={"GERMAN_TOKEN": GERMAN})
    assert unreachable.exit_code == 2 and "cannot reach the ledger" in unreachable.output


@pytest.mark.slow
def test_load_eight_clients_five_hundred_rolls(db_url: str, tmp_path: Path) -> None:
    """8 clients x 500 rolls on one game: no duplicate number, no gap, every acknowledged roll present."""
    workers = 2 if db_url.startswith("postgresql") else 1  # stateless workers share PostgreSQL
    server = LedgerProcess(db_url, write_test_key(tmp_path / "key.pem"), workers=workers)
    server.start()
    try:
        server.open_game("load", {f"P{n}": f"player-{n}-token-0123456789" for n in range(8)})
        acknowledged: list[Receipt] = []
        started = time.perf_counter()
        assert _load(server, 8, 500, acknowledged) == []
        elapsed = time.perf_counter() - started
        receipts = _check_ledger(server, acknowledged)
        assert len(receipts) == len(acknowledged) == 4000
        assert len({r.seq for r in acknowledged}) == 4000
        print(f"\n{db_url.split(':')[0]}: 4000 rolls by 8 clients in {elapsed:.2f} s = {4000 / elapsed:.0f} rolls/s")
    finally:
        server.stop()


@pytest.mark.slow
def test_sigkill_under_load_loses_no_acknowledged_roll(db_url: str, tmp_path: Path) -> None:
    """A server killed with SIGKILL mid-load keeps every acknowledged roll, and the chain goes on after restart."""
    key = write_test_key(tmp_path / "key.pem")
    server = LedgerProcess(db_url, key)
    server.start()
    acknowledged: list[Receipt] = []
    stop = threading.Event()
    try:
        server.open_game("load", {f"P{n}": f"player-{n}-token-0123456789" for n in range(4)})
        loader = threading.Thread(target=_load, args=(server, 4, 100000, acknowledged, stop))
        loader.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 200 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()
        stop.set()
        loader.join(60)
        assert len(acknowledged) >= 200
    finally:
        server.stop()
    restarted = LedgerProcess(db_url, key)
    restarted.start()
    try:
        before = _check_ledger(restarted, acknowledged)
        with httpx.Client(base_url=restarted.url, timeout=30) as http:
            answer = http.post("/games/load/rolls", headers=bearer("player-0-token-0123456789"),
                               json={"player": "P0", "purpose": "after the restart", "dice": "1d6"})
        assert answer.status_code == 201
        after = receipt_from_fields(answer.json()["receipt"])
        assert (after.seq, after.prev) == (len(before) + 1, before[-1].digest())
        assert len(_check_ledger(restarted, [*acknowledged, after])) == len(before) + 1
    finally:
        restarted.stop()


def test_receipt_json_is_canonical() -> None:
    """The token decodes to sorted, compact JSON: the bytes that are hashed."""
    store_key = fixed_key()
    receipt = sign_receipt(store_key, game="g", seq=1, time="2026-01-01T00:00:00.000000Z", player="A",
                           purpose="p", dice="1d6", result=[4], prev=GENESIS)
    assert json.loads(json.dumps(receipt.fields())) == receipt.fields()
    assert receipt_from_token(receipt.token()) == receipt


def test_concurrent_rolls_share_a_commit_and_a_refusal_undoes_only_its_own(tmp_path: Path) -> None:
    """SQLite's group commit: rolls waiting for the writer are committed together (fewer commits than rolls), each
    numbered and chained in turn; a refused roll in the same transaction (a wrong token) stores nothing and
    leaves the others stored."""
    def slow_faces(count: int, sides: int) -> list[int]:
        time.sleep(0.01)  # the writer busy: the other threads' rolls queue behind it
        return [1] * count

    store = open_store(f"sqlite:///{tmp_path / 'l.sqlite'}", fixed_key(), faces=slow_faces)
    assert isinstance(store, ledger.store.SqliteStore)
    store.open_game("g", PLAYERS)
    batches: list[int] = []
    commit_batch = store._commit_batch

    def counted(batch: list[object]) -> None:
        batches.append(len(batch))
        commit_batch(batch)  # type: ignore[arg-type]

    store._commit_batch = counted  # type: ignore[method-assign]
    barrier = threading.Barrier(12)
    outcomes: list[str] = []

    def rolls(n: int) -> None:
        barrier.wait()
        for i in range(5):
            token = GERMAN if n % 4 == 3 else ALLIED  # every fourth thread sends the wrong token
            try:
                store.roll("g", "Allied", token, f"thread {n} roll {i}", "1d6")
                outcomes.append("rolled")
            except ledger.store.Refusal as e:
                outcomes.append(str(e.status))

    threads = [threading.Thread(target=rolls, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["401"] * 15 + ["rolled"] * 45
    assert sum(batches) == 60 and len(batches) < 60 and max(batches) > 1
    receipts = store.receipts("g")
    store.close()
    assert [r.seq for r in receipts] == list(range(1, 46))
    assert list(chain_problems(receipts, fixed_key().public_key())) == []
    assert not any(r.purpose.startswith(("thread 3 ", "thread 7 ", "thread 11 ")) for r in receipts)


def test_a_lone_roll_is_committed_at_once_in_a_batch_of_its_own(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Group commit batches only the rolls already waiting: a roll with none beside it is committed alone, by its
    own thread, without waiting for company (no sleep, no timed wait), and is durable when `roll` returns."""
    store = open_store(f"sqlite:///{tmp_path / 'l.sqlite'}", fixed_key())
    assert isinstance(store, ledger.store.SqliteStore)
    store.open_game("g", PLAYERS)
    batches: list[tuple[int, str]] = []
    commit_batch = store._commit_batch

    def counted(batch: list[object]) -> None:
        batches.append((len(batch), threading.current_thread().name))
        commit_batch(batch)  # type: ignore[arg-type]

    def no_waiting(*args: object, **kwargs: object) -> None:
        raise AssertionError("a lone roll waited for other rolls")

    store._commit_batch = counted  # type: ignore[method-assign]
    monkeypatch.setattr(time, "sleep", no_waiting)
    monkeypatch.setattr(threading.Event, "wait", no_waiting)
    monkeypatch.setattr(threading.Condition, "wait", no_waiting)
    receipts = [store.roll("g", "Allied", ALLIED, f"roll {i}", "1d6") for i in range(3)]
    monkeypatch.undo()
    assert batches == [(1, threading.current_thread().name)] * 3
    import sqlite3
    with sqlite3.connect(tmp_path / "l.sqlite") as other:  # another connection sees each roll: committed
        assert other.execute("SELECT seq FROM receipts WHERE game = 'g' ORDER BY seq").fetchall() == [(1,), (2,), (3,)]
    assert [r.seq for r in receipts] == [1, 2, 3]
    store.close()
