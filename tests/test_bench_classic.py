"""The classic series' synthetic-game generator (bench/synthetic_classic.py): Battle for Moscow played from its
data alone, reproducible, and clean (it fuzzes the classic rule system)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.notation.entries import (
    Advance, Attack, Declare, Header, Loss, Move, Place, Retreat, StepMarker, TurnMarker,
)
from adjudicator.notation.text import parse_text
from wargame.game import Game
from bench_support import bench_script

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "bench" / "synthetic_classic.py"
SEED = 1


generator = bench_script("synthetic_classic", "bench_synthetic_classic")


@pytest.fixture(scope="module")
def moscow() -> Game:
    """The bundled Battle for Moscow, loaded once for the module."""
    return generator.classic()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def whole_game(moscow: Game) -> str:
    """All seven turns, checked clean (no error, no warning) by the generator itself."""
    return generator.generate_classic(SEED, None, moscow)  # type: ignore[no-any-return]


def test_same_seed_same_text(moscow: Game, whole_game: str) -> None:
    """Generating again with the same seed gives the same log, character for character; the seed matters."""
    assert generator.generate_classic(SEED, None, moscow) == whole_game
    assert generator.generate_classic(SEED + 1, 2, moscow, check=False) != \
        generator.generate_classic(SEED, 2, moscow, check=False)


def test_same_text_in_another_process(moscow: Game) -> None:
    """No set or hash order leaks into the log."""
    code = (f"import importlib.util, sys; spec = importlib.util.spec_from_file_location('g', {str(GENERATOR)!r}); "
            f"m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            f"sys.stdout.write(m.generate_classic({SEED}, 3, check=False))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          encoding="utf-8", check=True)
    assert done.stdout == generator.generate_classic(SEED, 3, moscow, check=False)


def test_the_whole_game_has_every_kind_of_entry(moscow: Game, whole_game: str) -> None:
    """Seven turns of eight phases, moves (rail moves among them), attacks with their losses, retreats and
    advances, replacements rebuilt and restored, and the victory claim last."""
    entries = parse_text(whole_game)
    assert {(e.key, e.value) for e in entries if isinstance(e, Header)} == {("Game", "moscow"),
                                                                            ("Scenario", "campaign")}
    assert [e.turn for e in entries if isinstance(e, TurnMarker)] == list(range(1, 8))
    assert sum(isinstance(e, StepMarker) for e in entries) == 7 * 8
    kinds = {type(e) for e in entries}
    assert {Move, Attack, Loss, Retreat, Advance, Place} <= kinds
    assert {e.strength for e in entries if isinstance(e, Place)} == {"full", "reduced"}
    assert any(isinstance(e, Loss) and e.by_opponent for e in entries)
    rail = [i for i, e in enumerate(entries) if isinstance(e, StepMarker) and e.step == "rail_movement"]
    assert any(isinstance(entries[i + 1], Move) for i in rail)
    assert isinstance(entries[-1], Declare) and entries[-1].what == "victory"
    assert len(entries) >= 300


@pytest.mark.parametrize("seed", [2, 3])
def test_other_seeds_check_clean(moscow: Game, seed: int) -> None:
    """More whole games, no error and no warning (generate_classic raises otherwise), each decided."""
    text = generator.generate_classic(seed, None, moscow)
    result = generator.check_clean(text, moscow)
    assert result.final_state.outcome is not None
    assert not [f for f in result.findings if f.severity != "note"]


def test_the_self_check_catches_a_breach(moscow: Game, whole_game: str) -> None:
    """A move stretched past its allowance makes the self-check fail, naming the rule."""
    lines = whole_game.splitlines()
    start = lines.index("Step german_movement")
    index = next(i for i in range(start, len(lines)) if lines[i].startswith("ge-"))
    unit, path = lines[index].split()
    hexes = path.split("-")
    lines[index] = f"{unit} {'-'.join(hexes + [hexes[-2], hexes[-1]] * 4)}"
    with pytest.raises(AssertionError, match=r"error \[moscow \d+\.\d\]"):
        generator.check_clean("\n".join(lines) + "\n", moscow)


def test_turns_outside_the_scenario_are_refused(moscow: Game) -> None:
    """The campaign lasts seven turns."""
    with pytest.raises(ValueError, match="turns must be 1 to 7"):
        generator.generate_classic(SEED, 8, moscow)
