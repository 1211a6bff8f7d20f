"""A turn, step or phase marker left out is one error, where the markers written after it show it (the engine,
every system): the entries of the step passed over are judged in it, not each as an error in the one before."""

from __future__ import annotations

from pathlib import Path

import pytest

from edit_support import EXAMPLES, edited, errors
from wargame.sequence import TurnOrder

SAMPLES = {
    "moscow": EXAMPLES / "moscow" / "legal-sample-game.log",
    "omaha": EXAMPLES / "omaha" / "legal-combat.log",
    "onslaught": EXAMPLES / "onslaught" / "legal-sample-game.log",
}


def without(game: str, marker: str, nth: int = 1) -> tuple[str, int]:
    """A bundled legal log with its `nth` line equal to `marker` left out, and the line that marker stood on."""
    return edited(SAMPLES[game], "delete", marker, nth)


@pytest.mark.parametrize(("game", "marker", "nth"), [
    ("moscow", "Phase german_combat", 1), ("moscow", "Phase soviet_combat", 1), ("moscow", "Phase rail_movement", 1),
    ("moscow", "Phase german_movement", 1), ("moscow", "Turn 2", 1), ("moscow", "Turn 1", 1),
    ("omaha", "Turn 1", 1), ("omaha", "Phase movement", 2),
    ("onslaught", "Step action", 1), ("onslaught", "Turn 2", 1), ("onslaught", "Turn 1", 1),
    ("onslaught", "Step reinforcement", 1), ("onslaught", "Step reinforcement", 2),
])
def test_a_marker_left_out_is_one_error(tmp_path: Path, game: str, marker: str, nth: int) -> None:
    """A legal game with one marker left out gives one error, at the first entry after it, citing the sequence of
    play: before, the entries of the step passed over were each judged in the step before (Moscow's german_combat
    left out: 15 errors; Omaha's Turn 1: 14; Onslaught's Reinforcement Step, placed by its
    data since session 22: 12 and 25)."""
    text, line = without(game, marker, nth)
    found = errors(tmp_path, text)
    assert len(found) == 1, found
    assert found[0].severity == "error" and found[0].line >= line, found
    assert "missing" in found[0].message and marker.split()[-1] in found[0].message, found[0].message


def test_an_entry_written_out_of_its_phase_is_judged_as_written(tmp_path: Path) -> None:
    """An attack among the panzer moves, the panzer phase going on after it: not a combat phase left out (the
    entries after it belong to the phase under way), so the attack is the one error, as written."""
    text = ('[Game "moscow"]\nTurn 1\nPhase german_replacement\nPhase panzer_movement\n'
            "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n"
            "ge-xlviii 0309-0308\nPhase german_combat\n")
    found = errors(tmp_path, text)
    assert [(f.line, f.severity) for f in found] == [(5, "error")], found
    assert "missing" not in found[0].message


def test_a_log_that_ends_in_the_phase_shows_no_marker_left_out(tmp_path: Path) -> None:
    """With no marker written after it, an entry out of its phase is judged as written: the log may end early."""
    text = '[Game "moscow"]\nTurn 1\nPhase german_replacement\nPhase panzer_movement\nge-xxvii 0103-0102\n'
    found = errors(tmp_path, text)
    assert len(found) == 1 and "missing" not in found[0].message, found


def test_a_first_phase_written_again_is_judged_as_written(tmp_path: Path) -> None:
    """A turn's first phase written again with the next turn's marker still to come is not a turn left out."""
    text, _ = without("moscow", "Turn 2")
    lines = text.splitlines(keepends=True)
    # Turn 2's marker back in after its first phase: the phase written again, then the turn begins.
    at = next(i for i, line in enumerate(lines) if line.startswith("Phase german_replacement") and i > 20)
    text = "".join(lines[:at + 1] + ["Turn 2\n"] + lines[at:])
    found = errors(tmp_path, text)
    assert found and not any("marker is missing" in f.message for f in found), found


def test_the_look_ahead_stays_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many entries out of their phase, then one of the phase under way, before the next marker: each reads at
    most a bounded stretch ahead, so the work grows with the log, not with its square."""
    calls = 0
    allows = TurnOrder.allows

    def counted(self: TurnOrder, *args: object, **kwargs: object) -> bool:
        nonlocal calls
        calls += 1
        return allows(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(TurnOrder, "allows", counted)
    head = '[Game "moscow"]\nTurn 1\nPhase german_replacement\nPhase panzer_movement\n'
    work = []
    for n in (300, 1200):
        calls = 0
        # The combat phase is passed over, but every attack reads ahead to the panzer move, which belongs to the
        # phase under way, not to the combat phase: none is inferred.
        errors(tmp_path, head + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result NE\n" * n
               + "ge-xlviii 0309-0308\nPhase german_movement\n")
        work.append(calls)
    assert work[1] <= 5 * work[0], work


def _markers(game: str) -> list[tuple[str, int]]:
    """Every `Turn` and step or phase marker of a bundled legal log, with which of its kind it is."""
    seen: dict[str, int] = {}
    out = []
    for line in SAMPLES[game].read_text(encoding="utf-8").splitlines():
        marker = line.split("#")[0].strip()
        if marker.startswith(("Turn ", "Step ", "Phase ")):
            seen[marker] = seen.get(marker, 0) + 1
            out.append((marker, seen[marker]))
    return out


@pytest.mark.parametrize(("marker", "nth"), _markers("onslaught"))
def test_every_onslaught_marker_left_out_is_at_most_one_error(tmp_path: Path, marker: str, nth: int) -> None:
    """Each `Turn` and `Step` marker of Onslaught's sample game left out, one at a time, is at most one error (an
    empty step's marker left out is the next marker's one error). Before the system could name the step of an entry
    the data cannot place (`step_of`), a German Reserve Step marker left out gave 5, 5 and 3 errors on turns 1, 2
    and 4: its activations and strategic moves each judged in the Action Step, then the next marker's; the last
    turn's `Turn 4` and `Step reinforcement`, with no marker after them, gave 13 and 16."""
    text, line = without("onslaught", marker, nth)
    found = errors(tmp_path, text)
    assert len(found) <= 1, found
    assert all(f.line >= line for f in found), found


def test_a_reserve_step_marker_left_out_is_the_sequence_of_play_at_its_first_entry(tmp_path: Path) -> None:
    """The German Reserve Step's marker left out after the Action Step's tie: one error citing 4.0 at the first
    activation, whose activations are then judged in that step (5.0), not as activations outside an action."""
    text, line = without("onslaught", "Step german_reserve", 1)
    first = next(n for n, written in enumerate(text.splitlines(), 1) if n >= line and "activate" in written)
    found = errors(tmp_path, text)
    assert [(f.rule, f.line) for f in found] == [("4.0", first)], found
    assert "'german_reserve' step marker is missing" in found[0].message, found[0].message


def test_a_german_activation_in_an_action_step_not_ended_is_judged_as_written(tmp_path: Path) -> None:
    """An activation outside an action while the Action Step goes on is not the reserve step's (the step has not
    ended): judged as written, even with the Reinforcement Step's marker next."""
    lines = SAMPLES["onslaught"].read_text(encoding="utf-8").splitlines(keepends=True)
    tie = next(i for i, line in enumerate(lines) if line.startswith("Roll Allied 3 German 3"))
    reserve = next(i for i, line in enumerate(lines) if line.startswith("Step german_reserve"))
    text = "".join(lines[:tie] + lines[reserve + 1:])
    found = errors(tmp_path, text)
    assert found and not any("marker is missing" in f.message for f in found), found


@pytest.mark.parametrize(("game", "marker"), [("onslaught", "Turn 1")])
def test_a_first_step_written_before_its_turn_is_one_error(tmp_path: Path, game: str, marker: str) -> None:
    """A turn's first marker written before the `Turn` marker (the two swapped): the step before any turn is the one
    error; the step inferred after the turn's marker is a note of it (it was a second error, 'marker is missing')."""
    text, _ = edited(SAMPLES[game], "swap", marker)
    found = errors(tmp_path, text)
    assert len(found) == 1 and "missing" not in found[0].message, found
