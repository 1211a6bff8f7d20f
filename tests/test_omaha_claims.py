"""Omaha 13.0 / 14.3: a claim of victory is judged where it is written, in the Game Turn End Phase. Unlike Onslaught's
Reinforcement Step (whose claims are judged as it ends, ruling 13.2 / 13.3), nothing the rules allow in that phase
moves or removes a unit, so the position a claim is judged on is the one the turn ends in: an entry after it that
would change it is its own error, and the claim is not judged again."""

from __future__ import annotations

from pathlib import Path

from adjudicator.systems.omaha import OMAHA
from play_support import play
from wargame.bundled import data_root
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent


def test_nothing_after_a_claim_in_the_game_turn_end_phase_changes_its_verdict() -> None:
    """The German's right claim of the strategic victory, then a loss and a move in the same phase: each of those is
    its own error (8.2.4, 5.2), the claim none."""
    game = load_game(data_root(), "omaha")
    text = (ROOT / "examples" / "omaha" / "breach-victory-claim.log").read_text(encoding="utf-8")
    claim = "German: declare victory strategic"
    text = text.replace("Allied: declare victory                 # expect: error 13.0", claim)
    text += "German: eliminate 914/352\nGerman: move 915/352 2021-2121\n"
    played = play(OMAHA, OMAHA.initial_state(game, []), text, finish=False)
    assert [rule for rule, _ in played.errors()] == ["8.2.4", "5.2"]
    assert not [f for f in played.findings if played.text_of(f) == claim]
