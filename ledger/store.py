"""Storage of games and receipts: SQLite (embedded default) or PostgreSQL (a club server), one schema.

A roll is numbered, chained, signed and stored in one transaction that holds the game's row
(SQLite: BEGIN IMMEDIATE, the one writer; PostgreSQL: SELECT ... FOR UPDATE), so sequence numbers
are gap-free and unique however many workers serve the game. SQLite runs in WAL mode with
synchronous=FULL, so a roll is on disk before it is acknowledged.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Generic, Protocol, TypeVar

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.rules import UnknownRules, dice_problem, dice_by_entry
from wargame.receipts import (
    GENESIS, NAME, Receipt, ReceiptError, key_id, parse_dice, public_key_from_text, purpose_problem,
    receipt_from_fields, sign_receipt,
)

# One schema for both databases; each migration is applied once, in order, and recorded.
MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, (
        "CREATE TABLE games (id TEXT PRIMARY KEY, created TEXT NOT NULL, last_seq INTEGER NOT NULL,"
        " last_hash TEXT NOT NULL)",
        "CREATE TABLE players (game TEXT NOT NULL REFERENCES games(id), name TEXT NOT NULL,"
        " token_sha256 TEXT NOT NULL, PRIMARY KEY (game, name))",
        "CREATE TABLE receipts (game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,"
        " time TEXT NOT NULL, player TEXT NOT NULL, body TEXT NOT NULL, hash TEXT NOT NULL,"
        " PRIMARY KEY (game, seq))",
        # The rate limit counts a player's recent rolls.
        "CREATE INDEX receipts_by_player ON receipts (game, player, time)",
    )),
    (2, (
        # A player may hold an Ed25519 key instead of a token (no shared secret with the server); each
        # signed request carries a nonce used once, so a signed request cannot be replayed.
        "ALTER TABLE players ADD COLUMN public_key TEXT",
        "CREATE TABLE nonces (game TEXT NOT NULL REFERENCES games(id), player TEXT NOT NULL, nonce TEXT NOT NULL,"
        " PRIMARY KEY (game, player, nonce))",
    )),
    (3, (
        # A game opened with its rules (a game id of the data) rolls only the dice they declare.
        "ALTER TABLE games ADD COLUMN rules TEXT",
        # Each roll is mailed to every player of the game who gave an address.
        "ALTER TABLE players ADD COLUMN email TEXT",
        # The key that signs this database's receipts: a server started with another key is refused.
        "CREATE TABLE server_key (key_id TEXT NOT NULL)",
    )),
    (4, (
        # Each roll's mail to each player with an address, queued in the roll's transaction and sent after it
        # (ledger/mail.py): its state (pending, sent, failed), attempts, next try and last error.
        "CREATE TABLE mail_outbox (game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,"
        " address TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL, next_try TEXT NOT NULL,"
        " error TEXT, PRIMARY KEY (game, seq, address))",
        "CREATE INDEX mail_outbox_due ON mail_outbox (state, next_try)",
    )),
)
MIN_TOKEN = 16
"""The shortest player or admin token accepted."""
SIGNED_ROLL_PREFIX = b"umpire-roll-v1\n"
NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")
EMAIL = re.compile(r"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}")
SCHEMA_VERSION = MIGRATIONS[-1][0]


@dataclass(frozen=True)
class PlayerKey:
    """A player who signs roll requests with an Ed25519 key instead of sending a token."""

    public_key: str


@dataclass(frozen=True)
class SignedRequest:
    """A roll request signed by the player: the signature over SIGNED_ROLL_PREFIX + the exact body, and its nonce."""

    signature: bytes
    body: bytes
    nonce: str


Credential = str | SignedRequest | None


class StoreUnavailable(Exception):
    """The database cannot be used at start: missing, read-only or unreachable."""


class WrongKey(Exception):
    """The server was started with another key than the one that signs the database's receipts."""


class Refusal(Exception):
    """A request the ledger refuses: the HTTP status and the reason given to the client."""

    def __init__(self, status: int, reason: str, retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.retry_after = status, reason, retry_after


@dataclass(frozen=True)
class RateLimit:
    """At most `rolls` rolls per player of a game in any `seconds` seconds."""

    rolls: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """`30/60` -> 30 rolls a minute."""
        try:
            rolls, seconds = (int(part) for part in text.split("/"))
        except ValueError:
            raise ValueError(f"rate limit {text!r}: expected ROLLS/SECONDS such as 30/60") from None
        if rolls < 1 or seconds < 1:
            raise ValueError(f"rate limit {text!r}: both numbers must be positive")
        return cls(rolls, seconds)


def token_digest(token: str) -> str:
    """Tokens are kept only as their SHA-256, so a copy of the database does not let anyone roll."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def timestamp(moment: datetime) -> str:
    """UTC, microseconds, `Z`: fixed width, so text order is time order."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def check_name(what: str, name: object) -> str:
    """A game or player name: letters, digits, `_.-`, at most 64 characters."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise Refusal(400, f"bad {what} name {name!r}: 1 to 64 letters, digits, '_', '.', '-', not starting with "
                           "a punctuation mark")
    return name


T = TypeVar("T")
Faces = Callable[[int, int], list[int]]
Clock = Callable[[], datetime]


def cryptographic_faces(count: int, sides: int) -> list[int]:
    """`count` dice of `sides` sides from the operating system's CSPRNG."""
    return [secrets.randbelow(sides) + 1 for _ in range(count)]


class Cursor(Protocol):
    """The part of a DB-API cursor the store uses."""

    def execute(self, sql: str, params: Sequence[object] = ...) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Store(ABC):
    """Games, players and receipts in a database."""

    def __init__(self, key: Ed25519PrivateKey, rate: RateLimit | None = None, faces: Faces | None = None,
                 clock: Clock | None = None) -> None:
        self.key = key
        self.rate = rate
        # Only the example generator replaces these (to write known dice at known times); a server never does.
        self.faces = faces or cryptographic_faces
        self.clock = clock or (lambda: datetime.now(timezone.utc))

    duplicate_key: tuple[type[Exception], ...] = ()
    """The driver's error for a primary key given twice."""
    database_errors: tuple[type[Exception], ...] = ()
    """The driver's errors: the database failed, not the request (503)."""
    skip_locked = ""
    writers = 16
    """Rolls run at once in one process (SQLite: a group commit takes all that wait); more wait on the event loop."""
    """What a SELECT adds to pass over rows another transaction holds (SQLite has one writer: nothing)."""

    @contextmanager
    def unavailable(self) -> Iterator[None]:
        """The driver's errors as a 503 Refusal (the documented JSON), never a 500; the URL's password unsaid."""
        try:
            yield
        except self.database_errors as e:
            # PoolTimeout is a psycopg.Error too: every connection busy for POOL_WAIT_S.
            raise Refusal(503, f"the ledger's database failed ({type(e).__name__}); try again later",
                          retry_after=5) from e

    @abstractmethod
    def transaction(self, write: bool) -> Any:
        """A context manager giving a cursor inside one transaction (committed on success)."""

    @abstractmethod
    def sql(self, text: str) -> str:
        """The statement in this database's parameter style (written with `?`)."""

    @abstractmethod
    def lock_game(self, cursor: Cursor, game: str) -> Any:
        """The game's (last_seq, last_hash) row, held until the transaction ends; None if unknown."""

    def close(self) -> None:
        """Release the connections."""

    def migrate(self, cursor: Cursor) -> None:
        """Bring the schema up to SCHEMA_VERSION."""
        cursor.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = cursor.execute("SELECT MAX(version) FROM schema_version").fetchone()
        current = row[0] if row and row[0] is not None else 0
        if current > SCHEMA_VERSION:
            raise RuntimeError(f"the database has schema {current}, newer than this server's {SCHEMA_VERSION}")
        for version, statements in MIGRATIONS:
            if version > current:
                for statement in statements:
                    cursor.execute(statement)
                cursor.execute(self.sql("INSERT INTO schema_version (version) VALUES (?)"), (version,))

    def pin_key(self, cursor: Cursor) -> None:
        """Record the signing key on first start; WrongKey if the database's receipts are another key's."""
        if SCHEMA_VERSION < 3:  # a test's older schema, without the table
            return
        mine = key_id(self.key.public_key())
        row = cursor.execute("SELECT key_id FROM server_key").fetchone()
        if row is None:
            # A database made before the key was recorded: its receipts name their key.
            first = cursor.execute("SELECT body FROM receipts ORDER BY game, seq LIMIT 1").fetchone()
            pinned = str(json.loads(str(first[0]))["key"]) if first else mine
            cursor.execute(self.sql("INSERT INTO server_key (key_id) VALUES (?)"), (pinned,))
        else:
            pinned = str(row[0])
        if pinned != mine:
            raise WrongKey(f"this database's receipts are signed by key {pinned}, not by the key given ({mine}): "
                           "new receipts would not chain onto them; start with the key that signed them")

    def open_game(self, game: str, players: Mapping[str, str | PlayerKey], rules: str | None = None,
                  emails: Mapping[str, str] | None = None) -> None:
        """A new game with its players and their tokens or public keys, the game data whose dice it rolls, and
        the players' e-mail addresses; Refusal if it exists or a name is bad."""
        check_name("game", game)
        emails = dict(emails or {})
        if rules is not None:
            try:
                dice_by_entry(check_name("rules", rules))
            except UnknownRules as e:
                raise Refusal(400, e.message) from None
        for name, address in emails.items():
            if name not in players:
                raise Refusal(400, f"e-mail address for {name!r}, who is not a player of the game")
            if not isinstance(address, str) or not EMAIL.fullmatch(address):
                raise Refusal(400, f"player {name}'s e-mail address {address!r} is not one (NAME@DOMAIN)")
        if not players:
            raise Refusal(400, "a game needs at least one player")
        for name, credential in players.items():
            check_name("player", name)
            if isinstance(credential, PlayerKey):
                try:
                    public_key_from_text(credential.public_key)
                except ReceiptError as e:
                    raise Refusal(400, f"player {name}'s public key: {e.message}") from None
            elif not isinstance(credential, str) or len(credential) < MIN_TOKEN or not credential.isprintable() \
                    or not credential.isascii() or credential != credential.strip():
                raise Refusal(400, f"player {name}'s token must be printable ASCII of at least {MIN_TOKEN} characters")
        with self.transaction(write=True) as cursor:
            if cursor.execute(self.sql("SELECT 1 FROM games WHERE id = ?"), (game,)).fetchone():
                raise Refusal(409, f"game {game!r} is already open")
            try:
                cursor.execute(self.sql("INSERT INTO games (id, created, last_seq, last_hash, rules) "
                                        "VALUES (?, ?, 0, ?, ?)"), (game, timestamp(self.clock()), GENESIS, rules))
            except self.duplicate_key:
                # Two workers opening the same game at once: the primary key lets one through.
                raise Refusal(409, f"game {game!r} is already open") from None
            for name in sorted(players):
                credential = players[name]
                # A key-holding player has no token: an empty digest matches no token's.
                token, key = ("", credential.public_key) if isinstance(credential, PlayerKey) else \
                    (token_digest(credential), None)
                cursor.execute(self.sql("INSERT INTO players (game, name, token_sha256, public_key, email) "
                                        "VALUES (?, ?, ?, ?, ?)"), (game, name, token, key, emails.get(name)))

    def roll(self, game: str, player: str, credential: Credential, purpose: object, dice: object) -> Receipt:
        """Roll the dice for a player of a game: the stored, signed receipt, or a Refusal saying why not."""
        if not isinstance(game, str) or not isinstance(player, str):
            raise Refusal(400, "'game' and 'player' must be strings")
        if not isinstance(purpose, str):
            raise Refusal(400, "'purpose' must be a string saying what the roll is for")
        if (problem := purpose_problem(purpose)) is not None:
            raise Refusal(400, problem)
        if not isinstance(dice, str):
            raise Refusal(400, "'dice' must be a string such as \"1d6\"")
        try:
            count, sides = parse_dice(dice)
        except ReceiptError as e:
            raise Refusal(400, e.message) from None
        return self.committed(lambda cursor: self._roll_in(cursor, game, player, credential, purpose, dice, count,
                                                           sides))

    def committed(self, work: Callable[[Cursor], T]) -> T:
        """What `work` returns, run in a write transaction and committed (durable) before this returns."""
        with self.transaction(write=True) as cursor:
            return work(cursor)

    def _roll_in(self, cursor: Cursor, game: str, player: str, credential: Credential, purpose: str, dice: str,
                 count: int, sides: int) -> Receipt:
        """The roll's receipt, numbered, signed and stored in the transaction of `cursor`, or a Refusal."""
        row = self.lock_game(cursor, game)
        if row is None:
            raise Refusal(404, f"unknown game {game!r}")
        last_seq, last_hash, rules = int(row[0]), str(row[1]), row[2]
        if rules is not None and (problem := dice_problem(str(rules), purpose, dice)) is not None:
            raise Refusal(400, problem)
        stored = cursor.execute(self.sql(
            "SELECT token_sha256, public_key FROM players WHERE game = ? AND name = ?"), (game, player)).fetchone()
        if stored is None:
            raise Refusal(403, f"{player!r} is not a player of game {game!r}")
        self.authenticate(cursor, game, player, credential, str(stored[0]), stored[1])
        now = self.clock()
        if self.rate is not None:
            since = timestamp(now - timedelta(seconds=self.rate.seconds))
            recent = cursor.execute(self.sql(
                "SELECT COUNT(*) FROM receipts WHERE game = ? AND player = ? AND time > ?"),
                (game, player, since)).fetchone()
            if int(recent[0]) >= self.rate.rolls:
                raise Refusal(429, f"{player} has rolled {self.rate.rolls} times in {self.rate.seconds} s; wait",
                              retry_after=self.rate.seconds)
        result = self.faces(count, sides)
        if len(result) != count or not all(1 <= r <= sides for r in result):
            raise RuntimeError(f"the dice source gave {result} for {dice}")
        receipt = sign_receipt(self.key, game=game, seq=last_seq + 1, time=timestamp(now), player=player,
                               purpose=purpose, dice=dice, result=result, prev=last_hash)
        digest = receipt.digest()
        cursor.execute(self.sql(
            "INSERT INTO receipts (game, seq, time, player, body, hash) VALUES (?, ?, ?, ?, ?, ?)"),
            (game, receipt.seq, receipt.time, player, json.dumps(receipt.fields(), sort_keys=True), digest))
        cursor.execute(self.sql("UPDATE games SET last_seq = ?, last_hash = ? WHERE id = ?"),
                       (receipt.seq, digest, game))
        # The roll's mails, in its transaction: a roll acknowledged is never without them (ledger/mail.py).
        cursor.execute(self.sql(
            "INSERT INTO mail_outbox (game, seq, address, state, attempts, next_try) SELECT game, ?, email, "
            "'pending', 0, ? FROM players WHERE game = ? AND email IS NOT NULL"), (receipt.seq, receipt.time, game))
        return receipt

    def authenticate(self, cursor: Cursor, game: str, player: str, credential: Credential, token_sha256: str,
                     public_key: str | None) -> None:
        """Refusal unless the request carries the player's token, or is signed by the player's key with a new nonce."""
        if credential is None:
            raise Refusal(401, "no credential: send 'Authorization: Bearer TOKEN' or sign the request "
                               "('Authorization: Ed25519 SIGNATURE')")
        if isinstance(credential, str):
            if not token_sha256 or not hmac.compare_digest(token_sha256, token_digest(credential)):
                raise Refusal(401, f"the token is not {player}'s")
            return
        if public_key is None:
            raise Refusal(401, f"{player} has no public key in this game: send the token")
        try:
            public_key_from_text(public_key).verify(credential.signature, SIGNED_ROLL_PREFIX + credential.body)
        except InvalidSignature:
            raise Refusal(401, f"the request is not signed by {player}'s key") from None
        if not NONCE.fullmatch(credential.nonce):
            raise Refusal(400, "'nonce' must be 16 to 64 letters, digits, '_' or '-'")
        used = cursor.execute(self.sql("SELECT 1 FROM nonces WHERE game = ? AND player = ? AND nonce = ?"),
                              (game, player, credential.nonce)).fetchone()
        if used is not None:
            raise Refusal(409, "this nonce was used already: a signed request is good for one roll")
        cursor.execute(self.sql("INSERT INTO nonces (game, player, nonce) VALUES (?, ?, ?)"),
                       (game, player, credential.nonce))

    def has_game(self, game: str) -> bool:
        """Whether the game is open."""
        with self.transaction(write=False) as cursor:
            return cursor.execute(self.sql("SELECT 1 FROM games WHERE id = ?"), (game,)).fetchone() is not None

    def players(self, game: str) -> list[str]:
        """The game's players by name."""
        with self.transaction(write=False) as cursor:
            rows = cursor.execute(self.sql("SELECT name FROM players WHERE game = ? ORDER BY name"), (game,)).fetchall()
        return [str(r[0]) for r in rows]

    def receipts(self, game: str) -> list[Receipt]:
        """Every receipt of the game in sequence."""
        with self.transaction(write=False) as cursor:
            rows = cursor.execute(self.sql("SELECT body FROM receipts WHERE game = ? ORDER BY seq"), (game,)).fetchall()
        return [receipt_from_fields(json.loads(str(r[0]))) for r in rows]


@dataclass
class _Job(Generic[T]):
    """Work waiting for SQLite's writer, and its outcome once committed."""

    work: Callable[[Cursor], T]
    result: T | None = None
    error: Exception | None = None
    done: bool = False


class SqliteStore(Store):
    """The embedded store: one SQLite file in WAL mode, synced before a roll is acknowledged."""

    def __init__(self, path: str, key: Ed25519PrivateKey, rate: RateLimit | None = None, faces: Faces | None = None,
                 clock: Clock | None = None) -> None:
        super().__init__(key, rate, faces, clock)
        self.lock = threading.Lock()
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StoreUnavailable(f"{path}: the folder {folder} does not exist")
        # A file (or its folder, where WAL keeps its -wal and -shm files) the server cannot write would
        # open, serve the pages, and refuse every roll: refuse it at start instead.
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise StoreUnavailable(f"{path}: the database file is read-only for this server")
        if not os.access(folder, os.W_OK):
            raise StoreUnavailable(f"{path}: the folder {folder} is read-only for this server (SQLite writes its "
                                   "WAL files beside the database)")
        self.pending: list[_Job[Any]] = []
        self.pending_lock = threading.Lock()
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        self.connection.execute("PRAGMA journal_mode=WAL")
        # FULL: the WAL is fsynced at every commit, so an acknowledged roll survives a power cut.
        self.connection.execute("PRAGMA synchronous=FULL")
        self.connection.execute("PRAGMA foreign_keys=ON")
        # Reads (the pages, the downloads, the mail outbox's polls) on a connection of their own: in WAL mode
        # they see the last commit without waiting for the writer's lock, and so never wait on a roll's fsync.
        self.read_lock = threading.Lock()
        self.reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        with self.transaction(write=True) as cursor:
            self.migrate(cursor)
            self.pin_key(cursor)

    duplicate_key: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
    database_errors: tuple[type[Exception], ...] = (sqlite3.Error,)

    def sql(self, text: str) -> str:
        return text

    @contextmanager
    def transaction(self, write: bool) -> Iterator[Cursor]:
        lock, connection = (self.lock, self.connection) if write else (self.read_lock, self.reader)
        with lock, self.unavailable():
            cursor = connection.cursor()
            # IMMEDIATE takes the write lock at once, so two worker processes cannot both read last_seq.
            cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cursor
            except BaseException:
                cursor.execute("ROLLBACK")
                raise
            cursor.execute("COMMIT")

    def committed(self, work: Callable[[Cursor], T]) -> T:
        """Group commit: the rolls waiting for the writer when it is free are run in one transaction, each in a
        savepoint of its own (a refusal undoes only its own), and made durable by one fsync, so concurrent rolls
        share it instead of queueing for one each. Every caller returns only after the commit holding its work."""
        job: _Job[T] = _Job(work)
        with self.pending_lock:
            self.pending.append(job)
        with self.lock:
            if not job.done:  # else the writer before us committed it
                with self.pending_lock:
                    batch, self.pending = self.pending, []
                self._commit_batch(batch)
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]  # set whenever error is not

    def _commit_batch(self, batch: list[_Job[Any]]) -> None:
        committed = False
        failure: Exception = RuntimeError("the rolls' transaction was interrupted")
        try:
            with self.unavailable():
                cursor = self.connection.cursor()
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    for job in batch:
                        cursor.execute("SAVEPOINT roll")
                        try:
                            job.result = job.work(cursor)
                        except Exception as e:  # a Refusal, or the dice source's RuntimeError: this roll only
                            cursor.execute("ROLLBACK TO roll")
                            job.error = e
                        cursor.execute("RELEASE roll")
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
                cursor.execute("COMMIT")
                committed = True
        except Exception as e:  # no roll of the batch was stored: each of its callers is told so
            failure = e
        finally:
            for job in batch:
                if not committed:
                    job.result, job.error = None, failure
                job.done = True

    def lock_game(self, cursor: Cursor, game: str) -> Any:
        return cursor.execute("SELECT last_seq, last_hash, rules FROM games WHERE id = ?", (game,)).fetchone()

    def close(self) -> None:
        self.connection.close()
        self.reader.close()


POOL_SIZE = 8
"""PostgreSQL connections per server process at most: uvicorn's thread pool shares them."""
POOL_WAIT_S = 10.0


class PostgresStore(Store):
    """The club store: PostgreSQL shared by stateless workers, a bounded pool of connections per worker."""

    def __init__(self, url: str, key: Ed25519PrivateKey, rate: RateLimit | None = None, faces: Faces | None = None,
                 clock: Clock | None = None) -> None:
        super().__init__(key, rate, faces, clock)
        import psycopg
        from psycopg_pool import ConnectionPool
        self.duplicate_key = (psycopg.errors.UniqueViolation,)
        self.database_errors = (psycopg.Error,)
        # autocommit: every transaction is an explicit `transaction()` block (BEGIN ... COMMIT). A connection
        # broken by a PostgreSQL restart is checked and replaced when taken from the pool.
        self.pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True},
                                   timeout=POOL_WAIT_S, check=ConnectionPool.check_connection, open=False)
        try:
            self.pool.open(wait=True, timeout=POOL_WAIT_S)
        except Exception as e:
            self.pool.close()
            raise StoreUnavailable(f"cannot connect to {redact(url)}: {e}") from None
        with self.transaction(write=True) as cursor:
            # Workers starting together migrate one at a time.
            cursor.execute("SELECT pg_advisory_xact_lock(7400316)")
            self.migrate(cursor)
            self.pin_key(cursor)

    skip_locked = " FOR UPDATE SKIP LOCKED"
    writers = POOL_SIZE

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")

    @contextmanager
    def transaction(self, write: bool) -> Iterator[Cursor]:
        with self.unavailable(), self.pool.connection() as connection:
            with connection.transaction():
                with connection.cursor() as cursor:
                    yield cursor

    def lock_game(self, cursor: Cursor, game: str) -> Any:
        return cursor.execute("SELECT last_seq, last_hash, rules FROM games WHERE id = %s FOR UPDATE",
                              (game,)).fetchone()

    def close(self) -> None:
        self.pool.close()


def redact(url: str) -> str:
    """The database URL without its password, for messages."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def open_store(url: str, key: Ed25519PrivateKey, rate: RateLimit | None = None, faces: Faces | None = None,
               clock: Clock | None = None) -> Store:
    """`sqlite:///relative/path`, `sqlite:////absolute/path` (SQLAlchemy's convention), a bare path, or
    `postgresql://...`."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url, key, rate, faces, clock)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):], key, rate, faces, clock)
    if "://" in url:
        raise ValueError(f"database {url!r}: expected sqlite:///PATH or postgresql://...")
    return SqliteStore(url, key, rate, faces, clock)
