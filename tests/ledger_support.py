"""Real components for the ledger tests: a PostgreSQL server started for the session, ledger servers as
processes on loopback, and a fixed test key (so example receipts are reproducible in what is signed)."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "admin-token-for-tests-0123456789"
# A fixed key for tests and the examples: its receipts verify against its public key, nothing more.
TEST_KEY_SEED = bytes(range(32))


def fixed_key() -> Ed25519PrivateKey:
    """The fixed test signing key."""
    return Ed25519PrivateKey.from_private_bytes(TEST_KEY_SEED)


def write_test_key(path: Path) -> Path:
    """The fixed test key as a PEM file."""
    path.write_bytes(fixed_key().private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return path


def free_port() -> int:
    """A port nobody listens on at the moment, on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _postgres_bin() -> Path:
    """Debian's PostgreSQL server binaries, installed with apt-get when missing (CI runs as root)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found and os.geteuid() == 0 and shutil.which("apt-get"):
        # dpkg needs ldconfig and start-stop-daemon on PATH, which a root shell started with a bare PATH lacks.
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive",
               "PATH": os.environ.get("PATH", os.defpath) + ":/usr/local/sbin:/usr/sbin:/sbin"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-q", "postgresql"], check=True, env=env, capture_output=True)
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL's initdb is not installed and cannot be (apt-get install postgresql as root)")
    return Path(found[-1]).parent


@dataclass
class Postgres:
    """A PostgreSQL server the tests own: its port and a way to make a fresh database."""

    port: int

    def admin_url(self) -> str:
        return f"postgresql://umpire@127.0.0.1:{self.port}/postgres"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg
        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.admin_url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"postgresql://umpire@127.0.0.1:{self.port}/{name}"


def _runuser() -> str:
    """util-linux's runuser: found on PATH or in the sbin folders, which a root shell's PATH may leave out (a CI
    runner started with a bare PATH gave 52 errors 'No such file or directory: runuser')."""
    found = shutil.which("runuser") or next((c for c in ("/usr/sbin/runuser", "/sbin/runuser") if os.path.exists(c)),
                                            None)
    if found is None:
        raise RuntimeError("util-linux's runuser is not installed (apt-get install util-linux as root)")
    return found


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """initdb into a temporary folder, listen on 127.0.0.1 on a free port; stopped and removed on exit."""
    bindir = _postgres_bin()
    # In memory where there is /dev/shm: the tests kill ledger servers, never PostgreSQL, so its fsyncs
    # need not reach a disk, and the shared cores spend their time on the ledger instead.
    root = Path(tempfile.mkdtemp(prefix="umpire-pg-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    data = root / "data"
    # PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
    run_as = [_runuser(), "-u", "postgres", "--"] if os.geteuid() == 0 else []
    try:
        if run_as:
            shutil.chown(root, "postgres")
            os.chmod(root, 0o700)
        port = free_port()
        subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "umpire", "-A", "trust",
                        "--no-sync", "-E", "UTF8"], check=True, capture_output=True)
        options = f"-h 127.0.0.1 -p {port} -k {root} -c max_connections=200 -c fsync=on"
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
                        "-o", options, "start"], check=True, capture_output=True)
        try:
            yield Postgres(port)
        finally:
            subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           check=False, capture_output=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL server for the test session."""
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test against the embedded SQLite store and a real PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


class LedgerProcess:
    """`umpire-ledger serve` as a process on loopback, as a club would run it."""

    def __init__(self, db: str, key: Path, workers: int = 1, rate: str = "100000/60",
                 options: tuple[str, ...] = ()) -> None:
        self.db, self.key, self.workers, self.rate, self.options = db, key, workers, rate, options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "UMPIRE_LEDGER_ADMIN_TOKEN": ADMIN}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ledger", "serve", "--db", self.db, "--key", str(self.key), "--port",
             str(self.port), "--workers", str(self.workers), "--rate", self.rate, *self.options],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the ledger server stopped: {self.process.stderr.read().decode()}"
                                   if self.process.stderr else "the ledger server stopped")
            try:
                if httpx.get(self.url + "/public-key", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the ledger server did not answer within 30 s")

    def kill(self) -> None:
        """SIGKILL the server and its workers (its own process group)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()

    def open_game(self, game: str, players: dict[str, str], emails: dict[str, str] | None = None) -> None:
        answer = httpx.post(self.url + "/games", json={"game": game, "players": players, "emails": emails or {}},
                            headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)
        assert answer.status_code == 201, answer.text
