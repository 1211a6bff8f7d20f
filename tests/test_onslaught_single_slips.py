"""One slip in a legal Onslaught log (a line left out, written twice, or swapped with the next) is one error: what
follows from it is a note or nothing (house style 16). Found by deleting, duplicating and swapping every line of the
bundled legal examples (session 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.findings import Finding
from edit_support import EXAMPLES, edited, errors

ONSLAUGHT = EXAMPLES / "onslaught"


def the_error(tmp_path: Path, log: str, op: str, line: str) -> Finding:
    """The one error of a bundled legal Onslaught log with one line edited (`edit_support.edited`)."""
    found = errors(tmp_path, edited(ONSLAUGHT / log, op, line)[0])
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(("log", "op", "line"), [
    ("legal-combat.log", "delete", "Allied: activate 0620 supply 1"),
    ("legal-attacker-halved.log", "delete", "Allied: activate 0921 supply 1"),
    ("legal-combat.log", "duplicate", "Allied: activate 0620 supply 1"),
    ("legal-attacker-halved.log", "duplicate", "Allied: activate 0820 supply 1"),
])
def test_an_activation_left_out_or_written_twice_is_one_error(tmp_path: Path, log: str, op: str, line: str) -> None:
    """An activation left out is the attack's one error (5.4: its divisions were not activated), the action's claim
    of supply points counting it a note; one written twice is 5.2's one error, and activates nothing, so costs
    nothing. Both were also a 5.2 error of the action's claim (claims 2, costs 1 or 3)."""
    error = the_error(tmp_path, log, op, line)
    assert "claims" not in error.message, error


def test_a_reinforcement_left_unplaced_is_one_error_not_also_a_needless_delay(tmp_path: Path) -> None:
    """An Allied reinforcement's placement left out leaves room that a later delay of this turn would not need (10.3):
    the one error is the reinforcement left off as the step ends; the room was that reinforcement's (ruling 10.3)."""
    error = the_error(tmp_path, "legal-reduced-collection.log", "delete", "Allied: reinforce us-arm-01 0620")
    assert error.rule == "10.3" and "was not placed or delayed" in error.message, error


def test_a_needless_delay_with_nothing_left_to_place_is_still_one_error(tmp_path: Path) -> None:
    """The room counted for a reinforcement still due is only for one: with none left off, a delay into room left
    open is 10.3's error, as before."""
    text, at = edited(ONSLAUGHT / "legal-reduced-collection.log", "delete", "Allied: reinforce us-arm-01 0620")
    lines = text.splitlines(keepends=True)
    text = "".join(lines[:at - 1] + ["Allied: delay us-arm-01\n"] + lines[at - 1:])
    found = errors(tmp_path, text)
    assert [f.rule for f in found] == ["10.3"] and "only reinforcements that stacking" in found[0].message, found


@pytest.mark.parametrize("marker", ["Turn 1", "Turn 2", "Turn 4"])
def test_a_turn_marker_written_twice_is_one_error(tmp_path: Path, marker: str) -> None:
    """A `Turn` marker written twice is 4.0's one error (turns run in order); the turn it begins again has not
    passed any step, so it does not also end without its Reinforcement Step (it was a second 4.0 error)."""
    error = the_error(tmp_path, "legal-sample-game.log", "duplicate", marker)
    assert "turns run in order" in error.message, error


@pytest.mark.parametrize(("log", "op", "line"), [
    ("legal-combat.log", "delete", "Allied: action combat supply 1"),
    ("legal-attacker-halved.log", "delete", "Allied: action combat supply 2"),
    ("legal-combat.log", "swap", "Allied: action combat supply 1"),
    ("legal-sample-game.log", "delete", "German: action combat supply 2"),
    ("legal-combat.log", "duplicate", "Allied: action combat supply 1"),
    ("legal-attacker-halved.log", "duplicate", "Allied: action combat supply 2"),
])
def test_an_action_declaration_left_out_late_or_twice_is_one_error(tmp_path: Path, log: str, op: str,
                                                                    line: str) -> None:
    """5.0: an action's declaration left out is its first activation's one error (5.2), which opens the action for
    what follows; written after that activation it declares the action the activation opened; written twice, nothing
    activated between, it is one error (5.0). Each was 2 to 4 errors: every activation outside an action, the attack
    outside a Combat action (5.1), the next roll before the action, or the empty first action's claim."""
    the_error(tmp_path, log, op, line)


def test_a_stack_activated_twice_in_an_action_costs_nothing_more(tmp_path: Path) -> None:
    """5.2: a stack activated again in an action is that one error and activates nothing: its point is not spent, so
    the side is not short of points for a later lawful activation (it was: 'Allied has 0 supply point(s)')."""
    error = the_error(tmp_path, "legal-rule-4.1-turn1.log", "duplicate", "Allied: activate 0419 us-para-01 supply 1")
    assert "already activated" in error.message, error


@pytest.mark.parametrize(("log", "line"), [
    ("legal-combat.log", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DR"),
    ("legal-attacker-halved.log", "Allied: attack 0821 with br-inf-02 br-inf-03 br-para-01 odds 3:1 die 1 result AH"),
])
def test_the_results_of_an_attack_left_out_are_one_error(tmp_path: Path, log: str, line: str) -> None:
    """7.2: an attack left out leaves its losses, retreats and advances with no combat to carry out: the first is the
    error, the others notes of that one breach (each was an error: 'no combat result calls for ...')."""
    error = the_error(tmp_path, log, "delete", line)
    assert "no combat" in error.message, error


@pytest.mark.parametrize(("log", "line"), [
    ("legal-combat.log", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DR"),
    ("legal-attacker-halved.log", "Allied: attack 0821 with br-inf-02 br-inf-03 br-para-01 odds 3:1 die 1 result AH"),
    ("legal-sample-game.log", "German: attack 0722 with ss-pz-01 de-pz-04 odds 2:1 die 6 result HH"),
])
def test_an_attack_written_twice_is_one_error(tmp_path: Path, log: str, line: str) -> None:
    """7.0: an attack written again before its result is carried out is one error and opens no second combat; the
    result carried out after it is the first's (it was also 7.2's error: the first attack's result not carried out)."""
    error = the_error(tmp_path, log, "duplicate", line)
    assert error.rule == "7.0", error


@pytest.mark.parametrize(("log", "op", "line"), [
    ("legal-overstack-removed.log", "delete", "Allied: activate 0620 supply 1"),
    ("legal-rule-4.1-turn1.log", "delete", "Allied: activate 0720 supply 1"),
    ("legal-combat.log", "swap", "Allied: activate 0620 supply 1"),
    ("legal-rule-4.1-turn1.log", "swap", "German: activate 1121 supply 1"),
    ("legal-rule-4.1-turn1.log", "swap", "German: activate 2117 supply 1"),
])
def test_a_stack_acting_before_its_activation_is_one_error(tmp_path: Path, log: str, op: str, line: str) -> None:
    """5.2, 5.4, 6.1: a stack whose activation is left out is one error, at its first division to move or attack, the
    others of the stack notes; an activation written after the stack moved or attacked is no second error (the
    hex holds nothing to activate any more) and does not end the combat under way (its result was owed as well)."""
    error = the_error(tmp_path, log, op, line)
    assert "without being activated" in error.message, error


@pytest.mark.parametrize(("log", "line"), [
    ("legal-deplete-a-depleted-division.log", "Roll Allied 5 German 2"),
    ("legal-rule-4.1-turn1.log", "Roll Allied 1 German 3"),
])
def test_an_action_declared_before_its_roll_is_one_error(tmp_path: Path, log: str, line: str) -> None:
    """5.0: the roll-off and the action declared after it swapped: the declaration before the roll is the one error;
    the roll its side wins is that action's, which goes on (it ended empty: its claim an error, each activation
    another, 'only within an action')."""
    error = the_error(tmp_path, log, "swap", line)
    assert "the players roll for the next action" in error.message, error


@pytest.mark.parametrize(("log", "line"), [
    ("legal-rule-5.6-breakthrough.log", "Allied: reinforce us-arm-01 0620"),
    ("legal-rule-5.6-breakthrough.log", "Allied: reinforce us-inf-03 0620"),
    ("legal-sample-game.log", "Allied: reinforce us-inf-03 0720"),
    ("legal-sample-game.log", "German: reinforce ss-pz-05 4210"),
])
def test_a_reinforcement_left_off_the_map_is_one_error(tmp_path: Path, log: str, line: str) -> None:
    """10.2, 10.3: a reinforcement's placement left out is one error, as its turn ends; the players going on as if it
    were placed (its activation, move or attack, a later delay into the room it left) are notes of it (each was an
    error: 'not on the map', 'not in hex', 'not adjacent', a needless delay)."""
    error = the_error(tmp_path, log, "delete", line)
    assert "was not placed" in error.message, error


@pytest.mark.parametrize("log", ["legal-combat.log", "legal-attacker-halved.log"])
def test_an_action_declared_before_its_steps_marker_is_one_error(tmp_path: Path, log: str) -> None:
    """4.0, 5.0: the Action Step's marker and the action declared after it swapped: the action before the step is the
    one error; the marker goes on with it (it ended the action empty: its claim an error, each activation another)."""
    error = the_error(tmp_path, log, "swap", "Step action")
    assert "belongs to the Action Step" in error.message, error
