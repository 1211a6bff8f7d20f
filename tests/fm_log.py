"""Replaying short Omaha logs for the Fire & Movement tests: errors as (rule, entry text)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from adjudicator.cli import adjudicate_file
from adjudicator.findings import Finding
from adjudicator.notation.entries import Header
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from play_support import Played, play
from wargame.game import Game

SETUP = ("German: setup 914/352 2117\nGerman: setup 915/352 2021\nGerman: setup 916/352 2022\n"
         "German: setup 352/352 1510\nGerman: setup 1Flak 1610\n"
         "Allied: setup 16/1 2319\nAllied: setup 18/1 2319\nAllied: setup 26/1 2318\nAllied: setup 115/29 2219\n"
         "Allied: setup 116/29 2219\nAllied: setup 175/29 2120\nAllied: setup 2Rgr 2417\n")
"""A legal set-up (11.0, 11.2.1, 11.2.3): two German units beside the beach, the assault landed."""
BEACH = ("2318", "2319", "2219", "2120", "2121", "2122")


def landed(setup: str) -> str:
    """A set-up followed by what comes before GT 1 (11.2.3): the Pointe du Hoc roll when the Rangers
    landed (a 5: one German +6 marker lost for good) and a beach assault of every beach hex with
    Allied units, without a die (a warning, no result to carry out)."""
    stacks: dict[str, list[str]] = {}
    for line in setup.splitlines():
        words = line.split()
        if words[:2] == ["Allied:", "setup"] and len(words) == 4 and words[3] in BEACH:
            stacks.setdefault(words[3], []).append(words[2])
    out = setup + ("Roll Allied 5\nGerman: lose de_sf_6\n" if "setup 2Rgr 2417" in setup else "")
    return out + "".join(f"Allied: attack {h} with {' '.join(units)}\n" for h, units in stacks.items())


def replay_errors(game: Game, text: str, placed: dict[str, str] | None = None, depleted: tuple[str, ...] = (),
                  scenario: str | None = None, optional: tuple[str, ...] = ()
                  ) -> tuple[list[tuple[str, str]], OmahaState]:
    """Replay `text` after an Omaha header, from the set-up of `scenario` (default: the first) with
    `placed` on the map and the `optional` rules in force: (rule, entry text without its comment) of
    every error, and the final state."""
    base = FM.initial_state(game, [Header(key="Scenario", value=scenario)] if scenario else [])
    state = replace(base, location={**base.location, **(placed or {})}, depleted=frozenset(depleted),
                    optional=base.optional | frozenset(optional))
    return replay_from(state, text)


def replay_from(state: OmahaState, text: str) -> tuple[list[tuple[str, str]], OmahaState]:
    """Replay `text` after an Omaha header from `state`: (rule, entry text without its comment) of
    every error, and the final state."""
    played = play(FM, state, f'[Game "omaha"]\n{text}', finish=False)
    return played.errors(), played.state


OPEN = {"914/352": "2117", "16/1": "2217", "18/1": "2216"}
"""test_fm_results.py's position: 914/352 at 2117, the Allied 16/1 at 2217 and 18/1 at 2216 beside it."""
COMBAT = "Turn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n"
END = "Phase mobile_movement\n"


def run_open(game: Game, text: str, placed: dict[str, str] | None = None, depleted: tuple[str, ...] = (),
             finish: bool = True) -> Played[OmahaState]:
    """`text` replayed from the set-up with `placed` on the map (OPEN by default) and `depleted` reduced."""
    base = FM.initial_state(game, [])
    state = replace(base, location={**base.location, **(placed or OPEN)}, depleted=frozenset(depleted))
    return play(FM, state, f'[Game "omaha"]\n{text}', finish=finish)


def seen(played: Played[OmahaState]) -> list[tuple[str, str, str]]:
    """(severity, rule, entry) of the errors and notes."""
    return played.shown(("error", "note"))


def attack_on_2117(result: str, *units: str) -> str:
    """An Allied attack on 2117 claiming `result` (no die)."""
    return f"Allied: attack 2117 with {' '.join(units or ('16/1', '18/1'))} result {result}\n"



EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "omaha"
LEGAL = sorted(EXAMPLES.glob("legal-*.log"))
"""Omaha's legal examples, edited line by line by the tests of one slip, one error."""


def log_findings(tmp_path: Path, lines: list[str]) -> list[Finding]:
    """Every finding of a log given as its lines, checked as `adjudicate check` does."""
    path = tmp_path / "game.log"
    path.write_text("".join(lines), encoding="utf-8")
    result, _ = adjudicate_file(path, None)
    assert result.stopped is None, result.stopped
    return result.findings


def lines_of(path: Path) -> list[str]:
    """A log's lines, with their ends."""
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def written_twice(path: Path, at: int) -> tuple[list[str], int]:
    """A log's lines with its `at`th (0-based) written twice, and the copy's line number."""
    lines = lines_of(path)
    return lines[:at + 1] + [lines[at]] + lines[at + 1:], at + 2


def shifted(found: list[Finding], after: int) -> list[tuple[str, str, int, str]]:
    """(severity, rule, line, message) of findings, the lines after `after` (a line put in) moved back by one."""
    return [(f.severity, f.rule, f.line - (f.line > after), f.message) for f in found]


def one_slip(tmp_path: Path, lines: list[str], line: int) -> list[Finding]:
    """The findings on `line`, a line put in a log, asserting every other finding is the log's own without it."""
    found = log_findings(tmp_path, lines)
    alone = log_findings(tmp_path, lines[:line - 1] + lines[line:])
    assert shifted([f for f in found if f.line != line], line) == shifted(alone, line)
    return [f for f in found if f.line == line]
