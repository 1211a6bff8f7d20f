"""Benchmark of issue 27's figures: rolls/s of the served ledger against the floor of one process signing and
durably storing rolls, for 1, 8 and 32 clients on SQLite and PostgreSQL with p99 latency; and the public page of
a 10,000-roll game while 8 clients roll.

- Floor: `Store.roll` called in a loop in this process on a fresh database of the same kind (an Ed25519
  signature and a durable insert per roll: SQLite WAL with synchronous=FULL; PostgreSQL committed), no HTTP,
  measured just before each row it is compared with.
- Served: `umpire-ledger serve` as a process (SQLite: one worker; PostgreSQL: two), N client threads rolling
  on one game; rolls/s, p50 and p99 of a roll, and the floor's rolls/s divided by the served rolls/s. The clients
  send what `umpire-ledger roll` sends, by default over one kept-alive connection each (`--client`: CLIENT_KINDS).
- Page: a game of 10,000 rolls (made through the store, not timed), viewed by one client `--page-runs` times
  while 8 others roll (the latest page, a page picked at random, a player's latest rolls, a page of them, in
  turn); p50 and p99 of a view, the largest page's size.
- Where a roll's time goes besides the disk, under each row (Linux's schedstat, per roll): the floor's thread, the
  server's threads (its workers' too) and the client threads, each as time on a core, time runnable but waiting
  for a core, and how often put on one; on a loaded machine every wake-up waits for a core.
- `--repeat` rounds of all three against one server per store (a fresh database for each floor and game);
  each round printed with the load average, then the medians of the rounds.

Run: python bench/ledger_load.py [--rolls 100] [--floor-rolls 300] [--page-runs 200] [--repeat 3] [--store both]
     [--clients 1 8 32] [--client stdlib per-roll httpx]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import httpx  # noqa: E402

from ledger.app import PUBLIC_KEY_PATH  # noqa: E402
from ledger.client import RollRequest, roll_request, send_roll  # noqa: E402
from ledger.store import SqliteStore, open_store  # noqa: E402
from ledger_support import LedgerProcess, fixed_key, running_postgres, write_test_key  # noqa: E402
from wargame.receipts import receipt_from_fields  # noqa: E402

CLIENTS = (1, 8, 32)


def token(n: int) -> str:
    return f"token-{n:03d}-0123456789"


def players(count: int) -> dict[str, str]:
    return {f"P{n}": token(n) for n in range(count)}


def floor(db: str, rolls: int, sched: list[Sched] | None = None) -> float:
    """Rolls/s of one process signing and storing rolls on the database, no HTTP; its thread's schedstat over the
    rolls is appended to `sched` when given."""
    store = open_store(db, fixed_key())
    own = Path("/proc/thread-self/schedstat")
    try:
        store.open_game("floor", players(1))
        before = _schedstat(own)
        started = time.perf_counter()
        for i in range(rolls):
            store.roll("floor", "P0", token(0), f"roll {i}", "1d6")
        rate = rolls / (time.perf_counter() - started)
        if sched is not None:
            sched.append(_add(_schedstat(own), before, -1))
        return rate
    finally:
        store.close()


Sched = tuple[float, float, int]
"""Seconds on a core, seconds runnable but waiting for one, times put on one (Linux's schedstat)."""


def _schedstat(path: Path) -> Sched:
    try:
        on_cpu, waiting, slices = path.read_text().split()
    except (OSError, ValueError):  # a thread that just ended, or no schedstat (not Linux)
        return 0.0, 0.0, 0
    return int(on_cpu) / 1e9, int(waiting) / 1e9, int(slices)


def _add(a: Sched, b: Sched, sign: int = 1) -> Sched:
    return a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2]


def process_sched(pid: int) -> dict[str, Sched]:
    """The schedstat of each thread of the process and of its child processes (uvicorn's workers), by thread."""
    threads: dict[str, Sched] = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        threads[task.name] = _schedstat(task / "schedstat")
        children = task / "children"
        for child in children.read_text().split() if children.exists() else ():
            threads.update(process_sched(int(child)))
    return threads


def sched_since(pid: int, before: dict[str, Sched]) -> Sched:
    """What the process's threads did since `before`, thread by thread (a thread that ended since, such as an
    idle worker the thread pool retired, is left out: idle, it did nothing worth counting)."""
    total: Sched = (0.0, 0.0, 0)
    for thread, now in process_sched(pid).items():
        total = _add(total, _add(now, before.get(thread, (0.0, 0.0, 0)), -1))
    return total


CLIENT_KINDS = ("stdlib", "per-roll", "httpx")
"""How the bench's clients roll: `stdlib`, the request `umpire-ledger roll` sends (`ledger.client.roll_request`,
its receipt read as it reads it) over one kept-alive `http.client` connection per client thread; `per-roll`,
`ledger.client.send_roll` itself, which opens a connection for each roll (urllib, `Connection: close`), as the
command does; `httpx`, one kept-alive `httpx.Client` per thread (the client of the earlier passes)."""


class StdlibRoller:
    """The real client's request and answer over one kept-alive connection (http.client, which urllib uses)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)

    def warm(self) -> None:
        """Connect, and answer one request, before the clock starts."""
        self.connection.request("GET", "/public-key")
        self.connection.getresponse().read()

    def roll(self, game: str, request: RollRequest) -> None:
        self.connection.request("POST", f"/games/{game}/rolls", body=request.body, headers=request.headers)
        answer = self.connection.getresponse()
        body = answer.read()
        assert answer.status == 201, body
        receipt_from_fields(json.loads(body)["receipt"])  # what send_roll does with the answer

    def close(self) -> None:
        self.connection.close()


class PerRollRoller:
    """`ledger.client.send_roll` itself: a connection opened and closed for each roll."""

    def __init__(self, url: str) -> None:
        self.url = url

    def warm(self) -> None:
        """Nothing to keep: each roll connects anew."""

    def roll(self, game: str, request: RollRequest) -> None:
        send_roll(self.url, game, request, timeout=60)

    def close(self) -> None:
        """Nothing kept open."""


class HttpxRoller:
    """One kept-alive `httpx.Client` (the earlier passes' client; the same request bytes)."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=60)

    def warm(self) -> None:
        self.http.get(PUBLIC_KEY_PATH)

    def roll(self, game: str, request: RollRequest) -> None:
        answer = self.http.post(f"/games/{game}/rolls", headers=request.headers, content=request.body)
        assert answer.status_code == 201, answer.text
        receipt_from_fields(answer.json()["receipt"])

    def close(self) -> None:
        self.http.close()


ROLLERS: dict[str, Callable[[str], StdlibRoller | PerRollRoller | HttpxRoller]] = {
    "stdlib": StdlibRoller, "per-roll": PerRollRoller, "httpx": HttpxRoller}


def drive(url: str, game: str, clients: int, rolls: int, stop: threading.Event | None = None,
          client_sched: list[Sched] | None = None, kind: str = "stdlib") -> tuple[float, list[float]]:
    """Wall seconds and roll latencies of `clients` threads rolling `rolls` times each (or until `stop`) with the
    client `kind` (CLIENT_KINDS); each client thread's schedstat over its rolls is appended to `client_sched`."""
    latencies: list[float] = []
    lock = threading.Lock()
    own = Path("/proc/thread-self/schedstat")
    # Clients made and connected before the clock starts: building 32 httpx clients (an SSL context each) and
    # starting their threads is the load generator's cost, not the server's.
    ready = threading.Barrier(clients + 1)

    def client(n: int) -> None:
        mine = []
        roller = ROLLERS[kind](url)
        try:
            roller.warm()
            ready.wait()
            before = _schedstat(own)
            i = 0
            while (i < rolls) if stop is None else not stop.is_set():
                request = roll_request(game, f"P{n}", f"roll {i}", "1d6", token=token(n))
                started = time.perf_counter()
                roller.roll(game, request)
                mine.append(time.perf_counter() - started)
                i += 1
            used = _add(_schedstat(own), before, -1)
        finally:
            roller.close()
        with lock:
            latencies.extend(mine)
            if client_sched is not None:
                client_sched.append(used)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies


def pct(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100)[p - 1] * 1000 if len(values) > 1 else values[0] * 1000


def page_game(db: str) -> None:
    """A game of 10,000 rolls by two players in turn, for the page (made through the store, not timed)."""
    store = open_store(db, fixed_key())
    if isinstance(store, SqliteStore):
        store.connection.execute("PRAGMA synchronous=OFF")  # making the game is not what is measured
    store.open_game("page", players(2))
    started = time.perf_counter()
    for i in range(10_000):
        store.roll("page", f"P{i % 2}", token(i % 2), f"turn {i // 100 + 1}: P{i % 2} roll", "1d6")
    print(f"  10,000 rolls made for the page in {time.perf_counter() - started:.0f} s")
    store.close()


PAGES = ("/games/page", "/games/page?page={n}", "/games/page/players/P1", "/games/page/players/P0?page={m}")
"""What a viewer asks for, in turn: the latest page, a page of the game, a player's latest rolls, a page of them."""


def view_pages(url: str, runs: int) -> tuple[list[float], int]:
    """Latencies of `runs` page views (PAGES in turn, pages picked by a seeded generator) and the largest size."""
    pick = random.Random(1)
    latencies: list[float] = []
    size = 0
    with httpx.Client(base_url=url, timeout=60) as http:
        for i in range(runs):
            path = PAGES[i % len(PAGES)].format(n=pick.randint(1, 100), m=pick.randint(1, 50))
            started = time.perf_counter()
            answer = http.get(path)
            latencies.append(time.perf_counter() - started)
            assert answer.status_code == 200, (path, answer.status_code)
            size = max(size, len(answer.content))
    return latencies, size


def run(name: str, make: Callable[[], str], workers: int, args: argparse.Namespace, folder: Path) -> None:
    """`--repeat` rounds of the floor, the served rolls for each number of clients and the page, on new
    databases `make` gives, against one server; each round printed, then the medians of the rounds."""
    db = make()
    if args.page_runs:  # the 10,000-roll game only when its pages are viewed
        page_game(db)
    server = LedgerProcess(db, write_test_key(folder / f"{name}.pem"), workers=workers)
    server.start()
    assert server.process is not None
    server_pid = server.process.pid
    rows: dict[tuple[int, str], list[tuple[float, float, float, float, float]]] = {
        (clients, kind): [] for clients in args.clients for kind in args.client}
    viewed: list[tuple[float, float, float, float]] = []
    try:
        for round_ in range(args.repeat):
            print(f"{name} round {round_ + 1}: load {os.getloadavg()[0]:.1f}")
            for clients, kind in rows:
                # The floor just before each row: the host's load (and its disk's) moves within a minute.
                floor_sched: list[Sched] = []
                rate = floor(make(), args.floor_rolls, floor_sched)
                game = f"g{clients}{kind}r{round_}"
                server.open_game(game, players(clients))
                client_sched: list[Sched] = []
                server_before = process_sched(server_pid)
                wall, lat = drive(server.url, game, clients, max(1, args.rolls * 8 // clients),
                                  client_sched=client_sched, kind=kind)
                server_used = sched_since(server_pid, server_before)
                served = len(lat) / wall
                rows[clients, kind].append((rate, served, pct(lat, 50), pct(lat, 99), rate / served))
                print(f"  {clients:2d} client(s), {kind:8s}: floor {rate:5.0f}/s, served {served:6.0f} rolls/s  p50 "
                      f"{pct(lat, 50):6.1f} ms  p99 {pct(lat, 99):6.1f} ms   floor/served {rate / served:4.1f}x")
                # Where a roll's wall time goes besides the disk: on a core, or runnable and waiting for one.
                client_used: Sched = (0.0, 0.0, 0)
                for used in client_sched:
                    client_used = _add(client_used, used)
                for who, (on_cpu, waiting, slices), count in (("floor", floor_sched[0], args.floor_rolls),
                                                               ("server", server_used, len(lat)),
                                                               ("clients", client_used, len(lat))):
                    print(f"      {who}: on a core {on_cpu / count * 1000:5.2f} ms, waiting for one "
                          f"{waiting / count * 1000:5.2f} ms, put on one {slices / count:4.1f} times a roll")
            if not args.page_runs:
                continue
            game = f"busy{round_}"
            server.open_game(game, players(8))
            stop = threading.Event()
            rolling: list[tuple[float, list[float]]] = []
            background = threading.Thread(target=lambda: rolling.append(drive(server.url, game, 8, 0, stop)))
            background.start()
            pages, size = view_pages(server.url, args.page_runs)
            stop.set()
            background.join()
            wall, lat = rolling[0]
            viewed.append((pct(pages, 50), pct(pages, 99), len(lat) / wall, pct(lat, 99)))
            print(f"  pages of the 10,000-roll game (at most {size // 1024} KiB) while 8 clients roll: "
                  f"p50 {pct(pages, 50):6.1f} ms  p99 {pct(pages, 99):6.1f} ms; the rolls meanwhile "
                  f"{len(lat) / wall:5.0f}/s p99 {pct(lat, 99):6.1f} ms")
    finally:
        server.stop()
    print(f"{name}, medians of {args.repeat} round(s):")
    for (clients, kind), measured in rows.items():
        rate, served, p50, p99, ratio = (statistics.median(column) for column in zip(*measured))
        print(f"  {clients:2d} client(s), {kind:8s}: floor {rate:5.0f}/s, served {served:6.0f} rolls/s  p50 {p50:6.1f} ms  "
              f"p99 {p99:6.1f} ms   floor/served {ratio:4.1f}x (each a median of the rounds)")
    if not viewed:
        return
    p50, p99, rate, roll_p99 = (statistics.median(column) for column in zip(*viewed))
    print(f"  pages while 8 clients roll: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms; the rolls {rate:5.0f}/s "
          f"p99 {roll_p99:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100, help="rolls per client with 8 clients (scaled for 1 and 32)")
    parser.add_argument("--floor-rolls", type=int, default=300)
    parser.add_argument("--page-runs", type=int, default=200, help="page views per round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (floor, served rolls, pages) per store")
    parser.add_argument("--store", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--clients", type=int, nargs="+", default=list(CLIENTS), metavar="N",
                        help="the numbers of clients rolling at once, one row each (default: 1 8 32)")
    parser.add_argument("--client", choices=CLIENT_KINDS, nargs="+", default=["stdlib"], metavar="KIND",
                        help="how the clients roll, one row each: stdlib (the request of `umpire-ledger roll`, one "
                             "kept-alive connection per client), per-roll (send_roll itself, a connection a roll), "
                             "httpx (default: stdlib)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, loopback")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        count = iter(range(1000))
        if args.store != "postgresql":
            run("sqlite", lambda: f"sqlite:///{folder / f'b{next(count)}.sqlite'}", 1, args, folder)
        if args.store != "sqlite":
            with running_postgres() as postgres:
                run("postgresql", postgres.new_database, 2, args, folder)


if __name__ == "__main__":
    main()
