"""Makes examples/pbem/: the Onslaught sample game as exchanges, one a game turn, every die with its receipt
from a ledger the generator starts (SQLite, the fixed test key, a fixed clock, the dice the game has),
a copy with one die changed, and a copy whose ledger holds a hidden reroll.

Each exchange of the game is sealed too. `python tests/pbem_example.py examples/pbem` rewrites the folder; tests/test_ledger_logs.py checks that
the committed folder is what this makes, byte for byte.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from tempfile import TemporaryDirectory

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from adjudicator.cli import game_of, positions_of, read_log
from adjudicator.engine import replay
from adjudicator.dice_ledger import purpose_of
from adjudicator.notation.entries import Entry, StepMarker, TurnMarker, logged_dice
from adjudicator.notation.text import parse_line, tokens_of
from adjudicator.seal import make_seal, seal_path
from adjudicator.systems import system_for
from ledger.app import build_app
from ledger.store import open_store
from ledger_support import ADMIN, fixed_key
from wargame.files import write_atomically
from wargame.receipts import key_id, ledger_from_bytes

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-sample-game.log"
GAME = "onslaught-sample"
TOKENS = {"Allied": "alice-token-for-the-example-game", "German": "bernd-token-for-the-example-game"}
START = datetime(2026, 1, 10, 18, 0, tzinfo=timezone.utc)
# The hidden reroll: before the roll of this line's attack, the Allied player rolled once and kept quiet.
REROLL_LINE = 98
# The changed die: this line's die is raised by one in the tampered copy.
TAMPERED_LINE = 105


README = """A play-by-email game of Onslaught as its exchanges, one a game turn (the annotated sample
game of examples/onslaught), every die with its receipt from the dice ledger, each exchange sealed
by its sender (`LOG.seal`, carrying the previous exchange's final hash).

    adjudicate check game/ --ledger onslaught-sample.ledger.json    # every exchange, seal and die
    adjudicate seal --verify game/

changed-die/: one die raised after the roll; hidden-reroll/: a roll made and not reported, with
the ledger that holds it. Made by tests/pbem_example.py from a ledger it starts with a fixed test
key, clock and dice (the dice are the sample game's); tests/test_ledger_logs.py and
tests/test_exchanges.py check them.
"""


def _rolls(entry: Entry, turn: int, step: str | None) -> Iterator[tuple[str, str, int]]:
    """(player, structured purpose, die) of each die of an entry, in the order of its receipts: the purpose
    `umpire-ledger roll --entry` makes, by the checker's own function."""
    for k, die in enumerate(logged_dice(entry)):
        purpose = purpose_of(entry, k, turn, step)
        if purpose is not None:
            yield purpose.side, purpose.text(), die


def _with_receipts(line: str, tokens: list[str]) -> str:
    """The line with `receipt TOKEN` after its entry, before its comment."""
    words = tokens_of(line)
    end = words[-1].column - 1 + len(words[-1].text)
    code, comment = line[:end], line[end:].strip()
    return code + "".join(f" receipt {t}" for t in tokens) + (f"  {comment}" if comment else "")


def make(out: Path) -> None:
    """Write the example folder."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    wanted: list[tuple[int, str, str, int]] = []  # line, player, purpose, die
    turn, step = 0, None
    for number, line in enumerate(lines, 1):
        entry = parse_line(line, number)
        if isinstance(entry, TurnMarker):
            turn, step = entry.turn, None
        elif isinstance(entry, StepMarker):
            step = entry.step
        if entry is not None:
            wanted += [(number, *roll) for roll in _rolls(entry, turn, step)]

    def ledger_of(reroll: bool) -> tuple[bytes, dict[int, list[str]]]:
        plan: list[tuple[int | None, str, str, int]] = []
        for number, player, purpose, die in wanted:
            if reroll and number == REROLL_LINE:
                plan.append((None, player, purpose, 7 - die))
            plan.append((number, player, purpose, die))
        faces = iter(p[3] for p in plan)
        clock = iter(START + timedelta(minutes=7 * k, seconds=13 * k) for k in range(len(plan) + 1))
        with TemporaryDirectory() as tmp:
            store = open_store(f"sqlite:///{tmp}/ledger.sqlite", fixed_key(), None,
                               faces=lambda count, sides: [next(faces) for _ in range(count)], clock=lambda: next(clock))
            with TestClient(build_app(store, ADMIN)) as client:
                # Opened with its rules: the server refuses any dice but Onslaught's d6.
                opened = client.post("/games", json={"game": GAME, "players": TOKENS, "rules": "onslaught"},
                                     headers={"Authorization": f"Bearer {ADMIN}"})
                assert opened.status_code == 201, opened.text
                tokens: dict[int, list[str]] = {}
                for number, player, purpose, _ in plan:
                    answer = client.post(f"/games/{GAME}/rolls", json={"player": player, "purpose": purpose,
                                                                        "dice": "1d6"},
                                         headers={"Authorization": f"Bearer {TOKENS[player]}"})
                    assert answer.status_code == 201, answer.text
                    if number is not None:
                        tokens.setdefault(number, []).append(answer.json()["token"])
                raw = client.get(f"/games/{GAME}/ledger.json").content
        return raw, tokens

    def exchanges(tokens: dict[int, list[str]], change: int | None = None) -> dict[str, str]:
        text = [_with_receipts(line, tokens[n]) if n in tokens else line for n, line in enumerate(lines, 1)]
        if change is not None:
            text[change - 1] = text[change - 1].replace(" die 4 ", " die 5 ", 1)
        starts = [n for n, line in enumerate(lines) if line.startswith("Turn ")]
        # The first exchange holds the headers, the set-up and turn 1; each later one a game turn.
        cuts = [0, *starts[1:], len(lines)]
        # The game pins its ledger's key (the players read it off the server's /public-key when they start).
        scenario = next(n for n, line in enumerate(text) if line.startswith("[Scenario "))
        text.insert(scenario + 1, f'[LedgerKey "{key_id(fixed_key().public_key())}"]')
        cuts = [0, *(c + 1 for c in cuts[1:])]
        return {f"{k:02d}-turn-{k}.log": "\n".join(text[a:b]).strip("\n") + "\n"
                for k, (a, b) in enumerate(zip(cuts, cuts[1:]), 1)}

    honest, tokens = ledger_of(False)
    ledger_from_bytes(honest)
    files: dict[str, bytes | str] = {f"{GAME}.ledger.json": honest}
    files |= {f"game/{name}": text for name, text in exchanges(tokens).items()}
    files |= {f"changed-die/{name}": text for name, text in exchanges(tokens, TAMPERED_LINE).items()}
    files["changed-die/README"] = (f"The game's exchanges with the die of the attack on the sample game's line "
                                   f"{TAMPERED_LINE} raised from 4 to 5 after the roll; checked against "
                                   f"../{GAME}.ledger.json.\n")
    rerolled, reroll_tokens = ledger_of(True)
    files["hidden-reroll/" + f"{GAME}.ledger.json"] = rerolled
    files |= {f"hidden-reroll/{name}": text for name, text in exchanges(reroll_tokens).items()}
    files["hidden-reroll/README"] = (f"The same log, but the Allied player rolled for the attack on the sample "
                                     f"game's line {REROLL_LINE} twice and reported only the second roll; the "
                                     f"ledger here holds both.\n")
    files["README"] = README
    for name, data in sorted(files.items()):
        write_atomically(out / name, data)
    seal_exchanges(sorted((out / "game").glob("*.log")))


def seal_exchanges(logs: list[Path]) -> None:
    """Each exchange sealed by its sender in turn, as `adjudicate seal EARLIER... LOG` does (one replay)."""
    parts = [read_log(log)[0] for log in logs]
    combined = [e for entries in parts for e in entries]
    game = game_of(parts[0], logs[0], None)
    result = replay(game, system_for(game), combined)
    assert result.stopped is None
    previous: str | None = None
    start = 0
    for log, entries in zip(logs, parts):
        seal = make_seal(log.name, entries, positions_of(result, start, len(entries)), previous)
        write_atomically(seal_path(log), seal.file_text())
        previous, start = seal.final, start + len(entries)


if __name__ == "__main__":
    make(Path(sys.argv[1]))
