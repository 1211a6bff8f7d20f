"""The synthetic-game generators of bench/adjudicate.py (Onslaught, Omaha Beach): reproducible, long, and legal
(they fuzz the engine)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.contract import TurnContext
from adjudicator.notation.entries import (
    Action, Activate, Attack, Bombard, Header, Income, Loss, Move, Place, Retreat, RollOff, StepMarker, SupportMarkers,
    TurnMarker,
)
from adjudicator.notation.text import parse_text
from wargame.game import Game
from bench_support import bench_script

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "adjudicate.py"
SEED, TURNS = 5, 3
"""Seed 5: three Onslaught turns with every kind of entry, retreats included (since the 1944 coast of
issue 19, seed 1's three turns have one attack and no retreat)."""
OMAHA_SEED = 1


bench = bench_script("adjudicate", "bench_adjudicate")


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught game, loaded once for the module."""
    return bench.onslaught()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def short_log(game: Game) -> str:
    """A three-turn game (checked clean by the generator itself)."""
    return bench.generate(SEED, TURNS, game)  # type: ignore[no-any-return]


def test_same_seed_same_text(game: Game, short_log: str) -> None:
    """Generating again with the same seed gives the same log, character for character."""
    assert bench.generate(SEED, TURNS, game) == short_log


def test_same_text_in_another_process(short_log: str) -> None:
    """The log does not depend on the process (no set or hash order leaks into it)."""
    code = (f"import importlib.util, sys; spec = importlib.util.spec_from_file_location('b', {str(BENCH)!r}); "
            f"m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            f"sys.stdout.write(m.generate({SEED}, {TURNS}))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          encoding="utf-8", check=True)
    assert done.stdout == short_log


def test_another_seed_another_game(game: Game, short_log: str) -> None:
    """The seed matters."""
    assert bench.generate(SEED + 1, TURNS, game) != short_log


def test_short_game_has_hundreds_of_entries(short_log: str) -> None:
    """Three full turns make a hundred and more entries of every kind the generator writes, combat included."""
    entries = parse_text(short_log)
    assert len(entries) >= 150
    assert [e.turn for e in entries if isinstance(e, TurnMarker)] == list(range(1, TURNS + 1))
    assert {(e.key, e.value) for e in entries if isinstance(e, Header)} == {("Game", "onslaught"),
                                                                            ("Scenario", "campaign")}
    kinds = {type(e) for e in entries}
    assert {Action, Activate, Move, RollOff, Income, Place, Attack, Loss, Retreat} <= kinds
    assert any(isinstance(e, Move) and e.strategic for e in entries)
    assert sum(isinstance(e, Move) for e in entries) > sum(isinstance(e, Activate) for e in entries)


def test_short_game_replays_without_error(game: Game, short_log: str) -> None:
    """The engine replays the whole log and finds no breach."""
    result = bench.check_clean(short_log, game)
    assert result.stopped is None
    assert [f for f in result.findings if f.severity == "error"] == []
    assert len(result.states) == len(result.entries) + 1
    assert (result.final_state.at.turn, result.final_state.at.step) == (TURNS, "reinforcement")


def test_the_self_check_catches_a_breach(game: Game, short_log: str) -> None:
    """A move stretched one hex past its allowance makes the self-check fail, naming the rule."""
    lines = short_log.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("us-") and " strategic " not in line)
    unit, path = lines[index].split()
    hexes = path.split("-")
    lines[index] = f"{unit} {'-'.join(hexes + [hexes[-2], hexes[-1]] * 4)}"
    with pytest.raises(AssertionError, match=r"error \[onslaught 6\.\d\]"):
        bench.check_clean("\n".join(lines) + "\n", game)


def test_turns_outside_the_campaign_are_refused(game: Game) -> None:
    """The campaign lasts 20 turns."""
    with pytest.raises(ValueError, match="turns must be 1 to 20"):
        bench.generate(SEED, 21, game)


@pytest.mark.slow
def test_full_campaign_replays_without_error(game: Game) -> None:
    """A 20-turn game: a couple of thousand entries, replayed clean (generate checks it)."""
    text = bench.generate(1, 20, game)
    entries = parse_text(text)
    assert len(entries) >= 1500
    assert max(e.turn for e in entries if isinstance(e, TurnMarker)) == 20


# -- the Omaha Beach generator (bench/synthetic_omaha.py) ------------------------------------------
OMAHA_TURNS = 4


@pytest.fixture(scope="module")
def omaha() -> Game:
    """The bundled Omaha Beach game, loaded once for the module."""
    return bench.omaha()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def omaha_log(omaha: Game) -> str:
    """A four-game-turn Beach to Bocage game (checked clean by the generator itself)."""
    return bench.generate_omaha(OMAHA_SEED, OMAHA_TURNS, omaha)  # type: ignore[no-any-return]


def test_omaha_same_seed_same_text(omaha: Game, omaha_log: str) -> None:
    """The Omaha game is reproducible too, and the seed matters."""
    assert bench.generate_omaha(OMAHA_SEED, OMAHA_TURNS, omaha) == omaha_log
    assert bench.generate_omaha(OMAHA_SEED + 1, 1, omaha) != bench.generate_omaha(OMAHA_SEED, 1, omaha)


def test_omaha_same_text_in_another_process(omaha: Game) -> None:
    """No set or hash order leaks into the Omaha game either."""
    code = (f"import importlib.util, sys; spec = importlib.util.spec_from_file_location('b', {str(BENCH)!r}); "
            f"m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
            f"sys.stdout.write(m.generate_omaha({OMAHA_SEED}, 2))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          encoding="utf-8", check=True)
    assert done.stdout == bench.generate_omaha(OMAHA_SEED, 2, omaha)


def test_omaha_game_has_every_kind_of_entry(omaha_log: str) -> None:
    """The set-up and landing, the Pointe du Hoc roll, beach assaults, moves, reinforcements,
    replacements, bombardments, attacks with drawn markers, losses and retreats, in order."""
    entries = parse_text(omaha_log)
    assert [e.turn for e in entries if isinstance(e, TurnMarker)] == list(range(1, OMAHA_TURNS + 1))
    assert {(e.key, e.value) for e in entries if isinstance(e, Header)} == {("Game", "omaha"),
                                                                            ("Scenario", "beach_to_bocage")}
    first = next(i for i, e in enumerate(entries) if isinstance(e, TurnMarker))
    before = entries[:first]
    assert sum(isinstance(e, Place) and e.how == "setup" for e in before) == 12
    assert sum(isinstance(e, RollOff) for e in before) == 1
    assert any(isinstance(e, Attack) for e in before)  # the beach assaults (11.2.3)
    kinds = {type(e) for e in entries}
    assert {Move, Attack, Bombard, Loss, Retreat, SupportMarkers, StepMarker} <= kinds
    assert {e.how for e in entries if isinstance(e, Place)} >= {"setup", "reinforce", "replace"}
    assert len(entries) >= 200


@pytest.mark.parametrize("seed", [2, 3])
def test_omaha_games_replay_without_error(omaha: Game, seed: int) -> None:
    """A few more seeds, replayed clean (generate_omaha checks it and raises otherwise)."""
    result = bench.check_clean(bench.generate_omaha(seed, OMAHA_TURNS, omaha), omaha)
    assert result.stopped is None and result.final_state.at == TurnContext(OMAHA_TURNS, "game_turn_end")


def test_the_omaha_self_check_catches_a_breach(omaha: Game, omaha_log: str) -> None:
    """A German setup moved onto a beach hex makes the self-check fail, naming the rule."""
    lines = omaha_log.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("German: setup "))
    unit = lines[index].split()[2]
    lines[index] = f"German: setup {unit} 2122"
    with pytest.raises(AssertionError, match=r"error \[omaha 11\.0\]"):
        bench.check_clean("\n".join(lines) + "\n", omaha)


def test_omaha_turns_outside_the_scenario_are_refused(omaha: Game) -> None:
    """Beach to Bocage lasts 17 game turns (10.2)."""
    with pytest.raises(ValueError, match="turns must be 1 to 17"):
        bench.generate_omaha(OMAHA_SEED, 18, omaha)


def test_the_benchmark_reports_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    """`python bench/adjudicate.py` measures every bundled game and sums them up (one turn each here)."""
    assert bench.main(["--runs", "1", "--turns", "1"]) == 0
    out = capsys.readouterr().out
    assert "synthetic Onslaught game" in out and "synthetic Omaha Beach game" in out
    assert "synthetic Battle for Moscow game" in out
    assert out.count("replay (parse + engine, as check)") == 3
    summary = out[out.index("summary"):].splitlines()
    assert [line.split()[0] for line in summary[1:]] == ["Onslaught", "Omaha", "Battle"]


@pytest.mark.slow
@pytest.mark.parametrize("seed, optional", [(seed, ()) for seed in range(1, 9)]
                         + [(seed, ("weather", "flak")) for seed in range(1, 5)])
def test_full_omaha_games_replay_without_error(omaha: Game, seed: int, optional: tuple[str, ...]) -> None:
    """Whole games of up to 17 game turns, optional rules in force or not, replayed clean (generate_omaha checks it);
    a game stops early only where the German wins at once (13.0: no beach landing hex left)."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    text = bench.generate_omaha(seed, 17, omaha, optional=optional)
    entries = parse_text(text)
    assert len(entries) >= 600
    last = max(e.turn for e in entries if isinstance(e, TurnMarker))
    if last < 17:
        outcome = system_for(omaha).outcome(replay(omaha, system_for(omaha), entries, False).final_state)
        assert outcome is not None and outcome.section == "13.0", (last, outcome)
