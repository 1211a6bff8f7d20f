"""Who writes a Fire & Movement entry: a unit's decisions are its owner's, and `Side>` marks the
decision of the player whose player turn it is not (the log's own structure, not a rule section)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fm_log import replay_errors
from wargame.bundled import data_root
from wargame.game import Game, load_game

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "omaha" / "legal-combat.log"


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def sample() -> str:
    """The legal Omaha combat example without its header lines."""
    return "".join(line + "\n" for line in SAMPLE.read_text(encoding="utf-8").splitlines()
                   if not line.startswith("[Game"))


def test_the_legal_example_is_clean(game: Game) -> None:
    """The owners write their units' decisions, the defender's retreat with `German>`."""
    assert replay_errors(game, sample())[0] == []


@pytest.mark.parametrize("original, changed", [
    ("German> retreat 914/352", "Allied: retreat 914/352"),      # a German unit's retreat written by the Allies
    ("Allied: advance 16/1", "German> advance 16/1"),            # an Allied unit's advance written by the German
    ("Allied: setup 26/1", "German: setup 26/1"),                # an Allied unit placed by the German
])
def test_a_units_decision_is_its_owners(game: Game, original: str, changed: str) -> None:
    """Moves, retreats, advances, losses, stands and placements name the unit's owner."""
    text = sample().replace(original, changed, 1)
    errors, _ = replay_errors(game, text)
    assert ("log", next(line.split("#")[0].strip() for line in text.splitlines() if line.startswith(changed))) in errors


def test_side_marker_of_the_active_player_is_an_error(game: Game) -> None:
    """`Allied>` in the Allied player turn: the acting player writes `Allied:`."""
    text = sample().replace("Allied: advance 16/1", "Allied> advance 16/1", 1)
    errors, _ = replay_errors(game, text)
    assert [rule for rule, line in errors if line.startswith("Allied> advance 16/1")] == ["log"]
