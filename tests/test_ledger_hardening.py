"""The ledger as an attacker and an operator would try it (issue 27): dice bound to the game's rules, bad input
answered with the documented JSON refusal (never a 500), the key pinned in the database, a bounded PostgreSQL
pool, and a server that stops when told to, its workers with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from starlette.testclient import TestClient

from ledger.app import build_app
from ledger.cli import main as umpire_ledger
from ledger.store import POOL_SIZE, PostgresStore, RateLimit, Refusal, SqliteStore, Store, WrongKey, open_store
from ledger_support import ADMIN, ROOT, LedgerProcess, Postgres, db_url, fixed_key, postgres, write_test_key

__all__ = ["db_url", "postgres"]  # fixtures used by the tests below
ALLIED, GERMAN = "allied-token-0123456789", "german-token-0123456789"
PLAYERS = {"Allied": ALLIED, "German": GERMAN}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url, fixed_key(), RateLimit(50, 60))
    yield opened
    opened.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    # raise_server_exceptions=False: a 500 is what a client would see, so the tests see it too.
    with TestClient(build_app(store, ADMIN), raise_server_exceptions=False) as test_client:
        answer = test_client.post("/games", json={"game": "ons", "rules": "onslaught", "players": PLAYERS},
                                  headers=bearer(ADMIN))
        assert answer.status_code == 201, answer.text
        yield test_client


def roll(client: TestClient, purpose: str, dice: str = "1d6", player: str = "Allied", token: str = ALLIED,
         game: str = "ons") -> httpx.Response:
    return client.post(f"/games/{game}/rolls", json={"player": player, "purpose": purpose, "dice": dice},
                       headers=bearer(token))


def refused(answer: httpx.Response, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"], answer.json()


def test_a_game_opened_with_its_rules_rolls_only_their_dice(client: TestClient) -> None:
    """Onslaught rolls 1d6 for an attack and a roll-off: 2d3 and 3d2 are refused, and so is a bombardment."""
    assert roll(client, "turn 1 step action: Allied attack 0320").status_code == 201
    assert roll(client, "turn 1 step action: German roll", player="German", token=GERMAN).status_code == 201
    assert roll(client, "a free-text purpose").status_code == 201
    refused(roll(client, "turn 1 step action: Allied attack 0320", "2d3"), 400, "roll 1d6 for an 'attack' entry, "
            "not 2d3")
    refused(roll(client, "a free-text purpose", "3d2"), 400, "not 3d2")
    refused(roll(client, "turn 1 step action: Allied bombard 0320"), 400, "roll no dice for a 'bombard' entry")
    refused(client.post("/games", json={"game": "x", "rules": "onslaugth", "players": PLAYERS},
                        headers=bearer(ADMIN)), 400, "did you mean 'onslaught'")


def test_omaha_declares_the_dice_of_all_its_rolls() -> None:
    """Omaha's combat, bombardment, Pointe du Hoc, weather and cup rolls are 1d6, read from its data."""
    from wargame.datafiles import load_toml
    from wargame.models import GameManifest
    manifest = load_toml(ROOT / "counters" / "omaha" / "game.toml", GameManifest)
    assert {r.id: r.dice for r in manifest.roll} == {"combat": "1d6", "bombardment": "1d6", "pointe-du-hoc": "1d6",
                                                    "weather": "1d6", "cup": "1d6"}


@pytest.mark.parametrize("purpose", ["turn 1\u2028attack", "attack\x7f", "\u200b\u200b", "attack on \u202e8171",
                                     "attack \u2066on\u2069", "line one\r", "tab\there"])
def test_purposes_are_one_honest_line(client: TestClient, purpose: str) -> None:
    """Line and paragraph separators, DEL, zero-width-only text and bidi overrides are refused."""
    refused(roll(client, purpose), 400, "'purpose'")


def test_a_trailing_newline_is_refused_in_names_and_dice(client: TestClient) -> None:
    """`Allied` and `Allied\\n` cannot coexist; `1d6\\n` is not signed."""
    refused(client.post("/games", json={"game": "g2", "players": {"Allied": ALLIED, "Allied\n": GERMAN}},
                        headers=bearer(ADMIN)), 400, "bad player name")
    refused(client.post("/games", json={"game": "g3\n", "players": PLAYERS}, headers=bearer(ADMIN)), 400,
            "bad game name")
    refused(roll(client, "turn 1 step action: Allied attack 0320", "1d6\n"), 400, "bad dice")
    refused(roll(client, "p", player="Allied\n"), 403, "not a player")


def test_json_nested_deep_is_a_400_before_any_credential(client: TestClient) -> None:
    """8,000 nested arrays exhaust the parser's stack: a 400, not a 500, with or without a credential."""
    deep = b"[" * 8000 + b"]" * 8000
    refused(client.post("/games", content=deep, headers=bearer(ADMIN)), 400, "nested too deep")
    refused(client.post("/games/ons/rolls", content=deep), 400, "nested too deep")


def test_a_token_that_is_not_ascii_is_a_401(client: TestClient) -> None:
    """compare_digest raises on a non-ASCII str: the admin check compares bytes instead."""
    latin = "Bearer \xe9t\xe9-\xe9t\xe9-\xe9t\xe9-\xe9t\xe9-\xe9t\xe9".encode("latin-1")
    refused(client.post("/games", json={"game": "g4", "players": PLAYERS}, headers={"Authorization": latin}),
            401, "admin token")
    refused(client.post("/games/ons/rolls", json={"player": "Allied", "purpose": "p", "dice": "1d6"},
                        headers={"Authorization": latin}), 401, "not Allied's")


def test_a_database_failure_is_the_documented_503(db_url: str, postgres: Postgres,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gone under a running server: every route answers 503 with the JSON refusal."""
    # A request waits POOL_WAIT_S for a connection before its 503: a second here, not ten for each of four.
    monkeypatch.setattr("ledger.store.POOL_WAIT_S", 1.0)
    store = open_store(db_url, fixed_key())
    with TestClient(build_app(store, ADMIN), raise_server_exceptions=False) as client:
        assert client.post("/games", json={"game": "g", "players": PLAYERS}, headers=bearer(ADMIN)).status_code == 201
        if isinstance(store, SqliteStore):
            store.connection.close()
            store.reader.close()  # reads have a connection of their own
        else:
            import psycopg
            name = db_url.rsplit("/", 1)[1]
            with psycopg.connect(postgres.admin_url(), autocommit=True) as admin:
                admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        refused(roll(client, "p", game="g"), 503, "database failed")
        refused(client.post("/games", json={"game": "h", "players": PLAYERS}, headers=bearer(ADMIN)), 503,
                "database failed")
        refused(client.get("/games/g/ledger.json"), 503, "database failed")
        assert "Retry-After" in client.get("/games/g/ledger.json").headers
    store.close()


def test_the_postgresql_pool_is_bounded_and_closed(postgres: Postgres) -> None:
    """40 threads at once share at most POOL_SIZE connections, and closing the store closes them all."""
    import psycopg
    url = postgres.new_database()
    name = url.rsplit("/", 1)[1]
    store = open_store(url, fixed_key())
    assert isinstance(store, PostgresStore)
    store.open_game("g", PLAYERS)
    barrier = threading.Barrier(40)

    def reads() -> None:
        barrier.wait()
        for _ in range(5):
            store.receipts("g")

    threads = [threading.Thread(target=reads) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    def connections() -> int:
        with psycopg.connect(postgres.admin_url(), autocommit=True) as admin:
            row = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
        return int(row[0]) if row else 0

    assert 1 <= connections() <= POOL_SIZE
    store.close()
    deadline = time.monotonic() + 5
    while connections() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert connections() == 0


def test_a_server_started_with_another_key_is_refused(db_url: str, tmp_path: Path) -> None:
    """The database records the key of its receipts: serve/export with another key would chain onto them."""
    store = open_store(db_url, fixed_key())
    store.open_game("g", PLAYERS)
    store.roll("g", "Allied", ALLIED, "p", "1d6")
    store.close()
    with pytest.raises(WrongKey, match="signed by key"):
        open_store(db_url, Ed25519PrivateKey.generate())
    other = tmp_path / "other.pem"
    other.write_bytes(Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    result = CliRunner().invoke(umpire_ledger, ["export", "--db", db_url, "--key", str(other), "g"])
    assert result.exit_code == 2 and "not by the key given" in result.stderr, result.output
    open_store(db_url, fixed_key()).close()  # its own key still opens it


def test_a_database_of_receipts_without_a_recorded_key_pins_the_receipts_key(tmp_path: Path) -> None:
    """A database from before the key was recorded: the key its receipts name is the one pinned."""
    db = f"sqlite:///{tmp_path / 'old.sqlite'}"
    store = open_store(db, fixed_key())
    store.open_game("g", PLAYERS)
    store.roll("g", "Allied", ALLIED, "p", "1d6")
    assert isinstance(store, SqliteStore)
    store.connection.execute("DELETE FROM server_key")
    store.close()
    with pytest.raises(WrongKey):
        open_store(db, Ed25519PrivateKey.generate())


def test_secrets_are_not_echoed_and_short_admin_tokens_refused(tmp_path: Path) -> None:
    """The password of --db never appears in an error; a 1-character admin token does not start a server."""
    key = write_test_key(tmp_path / "key.pem")
    result = CliRunner().invoke(umpire_ledger, ["export", "--db", "postgresql://umpire:hunter2secret@127.0.0.1:1/x",
                                                "--key", str(key), "g"])
    assert result.exit_code == 2 and "hunter2secret" not in result.stderr and "***" in result.stderr, result.stderr
    result = CliRunner().invoke(umpire_ledger, ["serve", "--db", str(tmp_path / "l.sqlite"), "--key", str(key)],
                                env={"UMPIRE_LEDGER_ADMIN_TOKEN": "x"})
    assert result.exit_code == 2 and "at least 16 characters" in result.stderr, result.output


def test_a_read_only_or_missing_sqlite_database_is_refused_at_start(tmp_path: Path) -> None:
    """A database the server cannot write would serve pages and refuse every roll: refused at start, clearly."""
    key = write_test_key(tmp_path / "key.pem")
    with pytest.raises(Exception, match="does not exist"):
        open_store(str(tmp_path / "no" / "such" / "ledger.sqlite"), fixed_key())
    db = tmp_path / "ledger.sqlite"
    open_store(str(db), fixed_key()).close()
    # Root writes any file whatever its mode: for root the file is made immutable (what a read-only mount does).
    as_root = os.geteuid() == 0
    for path in (db, tmp_path):
        if as_root:
            subprocess.run(["chattr", "+i", str(path)], check=True)
        else:
            path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        result = CliRunner().invoke(umpire_ledger, ["export", "--db", str(db), "--key", str(key), "g"])
    finally:
        for path in (tmp_path, db):
            if as_root:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(0o755 if path.is_dir() else 0o644)
    assert result.exit_code == 2, result.output
    assert "the database file is read-only for this server" in result.stderr, result.stderr


def _port_is_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    """SIGKILL to the supervisor of `--workers 2` alone: its workers notice and free the port."""
    server = LedgerProcess(f"sqlite:///{tmp_path / 'l.sqlite'}", write_test_key(tmp_path / "key.pem"), workers=2)
    server.start()
    try:
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(10)
        deadline = time.monotonic() + 20
        while not _port_is_free(server.port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _port_is_free(server.port), "the workers still hold the port after their supervisor died"
    finally:
        server.kill()


def test_sigterm_stops_the_server_despite_a_slow_client(tmp_path: Path) -> None:
    """A client dripping its request body does not keep a stopping server alive past its bound."""
    server = LedgerProcess(f"sqlite:///{tmp_path / 'l.sqlite'}", write_test_key(tmp_path / "key.pem"))
    server.start()
    assert server.process is not None
    with socket.create_connection(("127.0.0.1", server.port)) as slow:
        slow.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{")
        time.sleep(0.5)
        started = time.monotonic()
        os.killpg(server.process.pid, signal.SIGTERM)
        try:
            server.process.wait(20)
        finally:
            server.kill()
        assert time.monotonic() - started < 15
