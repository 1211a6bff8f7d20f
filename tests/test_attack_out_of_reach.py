"""An attack naming a unit that is not next to the defender, judged alike by every rule system: the attack's one error
(the system's adjacency clause), and the unit adds nothing to the result owed, so carrying out the result of the
others' odds is no second error (it had been counted, and the result it made judged the losses and retreats after)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.systems import system_for
from adjudicator.systems.omaha import OMAHA
from play_support import play, position
from wargame.bundled import data_root
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent


def test_a_classic_attacker_out_of_reach_adds_nothing_to_the_result_owed() -> None:
    """Moscow 7.0: ge-xxiv at 0510 joins ge-viii's attack on 0304 (7 against 4 is 1:1, die 6: AL): one error; ge-viii's
    loss, the AL the others' odds give, is no second (with ge-xxiv counted it read 3:1, a DRL)."""
    game = load_game(data_root(), "moscow")
    system = system_for(game)
    lines = (ROOT / "examples" / "moscow" / "legal-sample-game.log").read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[:45]) + ("\nGerman: attack 0304 with ge-viii ge-xxiv die 6\nGerman: deplete ge-viii\n"
                                    "German: attack 0303 with ge-vi odds 1:1 die 4 result NE\nPhase german_movement\n")
    played = play(system, system.initial_state(game, []), text, finish=False)
    assert played.errors() == [("7.0", "German: attack 0304 with ge-viii ge-xxiv die 6")]


def test_an_fm_attacker_out_of_reach_adds_nothing_to_the_result_owed() -> None:
    """F&M 8.2 (Omaha): 26/1 at 2212 joins the attack on 2117; with the two adjacent regiments a 6 is no effect, so
    nothing is owed as the phase ends (with 26/1 counted, an Ex was owed: a second error)."""
    game = load_game(data_root(), "omaha")
    placed = {"914/352": "2117", "16/1": "2217", "18/1": "2216", "26/1": "2212"}
    text = ('[Game "omaha"]\nTurn 1\nPhase support_fire_marker\nPhase movement\nPhase bombardment\nPhase combat\n'
            "Allied: attack 2117 with 16/1 18/1 26/1 die 6\nPhase mobile_movement\n")
    played = play(OMAHA, position(OMAHA, game, placed=placed), text, finish=False)
    assert played.errors() == [("8.2", "Allied: attack 2117 with 16/1 18/1 26/1 die 6")]
