"""Benchmark of issue 27's figures: rolls/s of the served ledger against the floor of one process signing and
durably storing rolls, for 1, 8 and 32 clients on SQLite and PostgreSQL with p99 latency; and the public page of
a 10,000-roll game while 8 clients roll.

- Floor: `Store.roll` called in a loop in this process on a fresh database of the same kind (an Ed25519
  signature and a durable insert per roll: SQLite WAL with synchronous=FULL; PostgreSQL committed), no HTTP.
- Served: `umpire-ledger serve` as a process (SQLite: one worker; PostgreSQL: two), N client threads rolling
  on one game; rolls/s, p50 and p99 of a roll, and the floor's rolls/s divided by the served rolls/s.
- Page: a game of 10,000 rolls (made through the store, not timed), `GET /games/GAME` fetched by one client
  `--page-runs` times while 8 others roll; p50 and p99 of the page, its size.

Run: python bench/ledger_load.py [--rolls 100] [--floor-rolls 300] [--page-runs 50]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import httpx  # noqa: E402

from ledger.store import open_store  # noqa: E402
from ledger_support import LedgerProcess, fixed_key, running_postgres, write_test_key  # noqa: E402

CLIENTS = (1, 8, 32)


def token(n: int) -> str:
    return f"token-{n:03d}-0123456789"


def players(count: int) -> dict[str, str]:
    return {f"P{n}": token(n) for n in range(count)}


def floor(db: str, rolls: int) -> float:
    """Rolls/s of one process signing and storing rolls on the database, no HTTP."""
    store = open_store(db, fixed_key())
    try:
        store.open_game("floor", players(1))
        started = time.perf_counter()
        for i in range(rolls):
            store.roll("floor", "P0", token(0), f"roll {i}", "1d6")
        return rolls / (time.perf_counter() - started)
    finally:
        store.close()


def drive(url: str, game: str, clients: int, rolls: int, stop: threading.Event | None = None) -> tuple[float, list[float]]:
    """Wall seconds and roll latencies of `clients` threads rolling `rolls` times each (or until `stop`)."""
    latencies: list[float] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        mine = []
        with httpx.Client(base_url=url, timeout=60) as http:
            i = 0
            while (i < rolls) if stop is None else not stop.is_set():
                started = time.perf_counter()
                answer = http.post(f"/games/{game}/rolls", headers={"Authorization": f"Bearer {token(n)}"},
                                   json={"player": f"P{n}", "purpose": f"roll {i}", "dice": "1d6"})
                assert answer.status_code == 201, answer.text
                mine.append(time.perf_counter() - started)
                i += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies


def pct(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100)[p - 1] * 1000 if len(values) > 1 else values[0] * 1000


def run(name: str, make: Callable[[], str], workers: int, args: argparse.Namespace, folder: Path) -> None:
    """The floor, the served rolls for each number of clients, and the page, on new databases `make` gives."""
    rate = floor(make(), args.floor_rolls)
    print(f"{name}: floor (sign + durable insert, one process) {rate:7.0f} rolls/s")
    db = make()
    store = open_store(db, fixed_key())
    store.open_game("page", players(1))
    started = time.perf_counter()
    for i in range(10_000):
        store.roll("page", "P0", token(0), f"turn {i // 100 + 1}: P0 roll", "1d6")
    print(f"  10,000 rolls made for the page in {time.perf_counter() - started:.0f} s")
    store.close()
    server = LedgerProcess(db, write_test_key(folder / f"{name}.pem"), workers=workers)
    server.start()
    try:
        for clients in CLIENTS:
            server.open_game(f"g{clients}", players(clients))
            wall, lat = drive(server.url, f"g{clients}", clients, max(1, args.rolls * 8 // clients))
            served = len(lat) / wall
            print(f"  {clients:2d} client(s): {served:6.0f} rolls/s  p50 {pct(lat, 50):6.1f} ms  "
                  f"p99 {pct(lat, 99):6.1f} ms   floor/served {rate / served:4.1f}x")
        server.open_game("busy", players(8))
        stop = threading.Event()
        rolling: list[tuple[float, list[float]]] = []
        background = threading.Thread(target=lambda: rolling.append(drive(server.url, "busy", 8, 0, stop)))
        background.start()
        pages: list[float] = []
        size = 0
        with httpx.Client(base_url=server.url, timeout=60) as http:
            for _ in range(args.page_runs):
                started = time.perf_counter()
                answer = http.get("/games/page")
                pages.append(time.perf_counter() - started)
                assert answer.status_code == 200
                size = len(answer.content)
        stop.set()
        background.join()
        wall, lat = rolling[0]
        print(f"  page of 10,000 rolls ({size // 1024} KiB) while 8 clients roll: p50 {pct(pages, 50):6.1f} ms  "
              f"p99 {pct(pages, 99):6.1f} ms; the rolls meanwhile {len(lat) / wall:5.0f}/s p99 {pct(lat, 99):6.1f} ms")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100, help="rolls per client with 8 clients (scaled for 1 and 32)")
    parser.add_argument("--floor-rolls", type=int, default=300)
    parser.add_argument("--page-runs", type=int, default=50)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, loopback")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        count = iter(range(1000))
        run("sqlite", lambda: f"sqlite:///{folder / f'b{next(count)}.sqlite'}", 1, args, folder)
        with running_postgres() as postgres:
            run("postgresql", postgres.new_database, 2, args, folder)


if __name__ == "__main__":
    main()
