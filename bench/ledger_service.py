"""Benchmark of the dice ledger: rolls per second and latency on loopback, SQLite and PostgreSQL, and the
verification of a 5,000-roll ledger.

- Serving: `umpire-ledger serve` as a process (SQLite: one worker; PostgreSQL: two workers, a server
  started for the run from Debian's binaries as the tests do), `--clients` threads rolling `--rolls`
  times each on one game. Reported: rolls per second, p50 and p99 latency of a roll, and beside them
  the floor measured in the same run against the same server: `GET /public-key` (HTTP and the
  framework, no database), with the ratio.
- Verification: the signatures and chain of a 5,000-roll ledger (`wargame.receipts.chain_problems`),
  median of `--runs` in-process runs, against the floor of hashing the same receipts' canonical bytes;
  and the whole process, cold (`python -c` reading the file and verifying it).

Run: python bench/ledger_service.py [--clients 8] [--rolls 250] [--runs 5]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402

from ledger_support import LedgerProcess, fixed_key, running_postgres, write_test_key  # noqa: E402
from timing import median_seconds  # noqa: E402
from wargame.receipts import (  # noqa: E402
    GENESIS, Ledger, canonical_bytes, chain_problems, ledger_from_bytes, public_key_text, sign_receipt,
)


def _drive(url: str, clients: int, rolls: int, roll: bool) -> tuple[float, list[float]]:
    """Wall seconds and per-request latencies of `clients` threads making `rolls` requests each."""
    latencies: list[float] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        mine = []
        with httpx.Client(base_url=url, timeout=30) as http:
            for i in range(rolls):
                started = time.perf_counter()
                if roll:
                    answer = http.post("/games/bench/rolls", headers={"Authorization": f"Bearer token-{n}-0123456789"},
                                       json={"player": f"P{n}", "purpose": f"roll {i}", "dice": "2d6"})
                    assert answer.status_code == 201, answer.text
                else:
                    assert http.get("/public-key").status_code == 200
                mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, latencies


def serving(name: str, db: str, workers: int, clients: int, rolls: int, folder: Path) -> None:
    server = LedgerProcess(db, write_test_key(folder / f"{name}.pem"), workers=workers)
    server.start()
    try:
        server.open_game("bench", {f"P{n}": f"token-{n}-0123456789" for n in range(clients)})
        floor_wall, floor_lat = _drive(server.url, clients, rolls, roll=False)
        wall, lat = _drive(server.url, clients, rolls, roll=True)
    finally:
        server.stop()
    count = clients * rolls
    q = statistics.quantiles(lat, n=100)
    fq = statistics.quantiles(floor_lat, n=100)
    print(f"{name:<10} {count / wall:8.0f} rolls/s  p50 {q[49] * 1000:6.1f} ms  p99 {q[98] * 1000:6.1f} ms   "
          f"floor GET /public-key {count / floor_wall:6.0f}/s p50 {fq[49] * 1000:5.1f} ms   "
          f"ratio {(count / floor_wall) / (count / wall):.1f}x")


def verification(runs: int, folder: Path) -> None:
    key = fixed_key()
    receipts = []
    prev = GENESIS
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for seq in range(1, 5001):
        receipt = sign_receipt(key, game="bench", seq=seq, time=(start + timedelta(seconds=seq)).isoformat(),
                               player="P", purpose=f"roll {seq}", dice="1d6", result=[seq % 6 + 1], prev=prev)
        receipts.append(receipt)
        prev = receipt.digest()
    public = key.public_key()
    ledger = Ledger("bench", public_key_text(public), tuple(receipts))
    path = folder / "bench.ledger.json"
    path.write_bytes(ledger.file_bytes())
    assert not list(chain_problems(receipts, public))
    verify = median_seconds(lambda: list(chain_problems(receipts, public)), runs)
    floor = median_seconds(lambda: [hashlib.sha256(canonical_bytes(r.fields())).digest() for r in receipts], runs)
    script = ("import sys; from wargame.receipts import ledger_from_bytes, chain_problems, public_key_from_text; "
              "l = ledger_from_bytes(open(sys.argv[1], 'rb').read()); "
              "assert not list(chain_problems(l.receipts, public_key_from_text(l.public_key)))")
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", script, str(path)], check=True,
                       cwd=Path(__file__).resolve().parents[1])
        walls.append(time.perf_counter() - started)
    assert len(ledger_from_bytes(path.read_bytes()).receipts) == 5000
    print(f"verify 5,000 receipts in-process {verify * 1000:7.1f} ms ({5000 / verify:,.0f}/s); floor (hash only) "
          f"{floor * 1000:6.1f} ms, ratio {verify / floor:.1f}x; whole process, cold: "
          f"{statistics.median(walls) * 1000:.0f} ms ({path.stat().st_size // 1024} KiB file)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rolls", type=int, default=250)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.clients} clients x {args.rolls} "
          "requests, loopback")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        serving("sqlite", f"sqlite:///{folder / 'bench.sqlite'}", 1, args.clients, args.rolls, folder)
        with running_postgres() as postgres:
            serving("postgresql", postgres.new_database(), 2, args.clients, args.rolls, folder)
        verification(args.runs, folder)


if __name__ == "__main__":
    main()
