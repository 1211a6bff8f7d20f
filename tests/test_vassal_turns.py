"""The turn tracker between `adjudicate export` and the reader: a turn begun before its first step's line, empty
turns, a tracker jumping over whole turns, a step typed after the tracker was moved to it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.contract import TurnContext
from adjudicator.engine import replay
from adjudicator.notation.entries import Comment, StepMarker, TurnMarker
from adjudicator.notation.text import write_entry
from adjudicator.systems import system_for
from adjudicator.vassal.joins import phase_index, vassal_position
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.translate import module_phases
from test_vassal_export import ROOT, boards, export, replayed
from test_vassal_reader import Session
from wargame.vassal.buildfile import read_module
from wargame.vassal.places import Places
from wargame.vassal.reader import read_recording
from wargame.sequence import turn_sequence
from wargame.vassal.tracking import track


def _read_back(log: Path, module: Path, out: Path) -> tuple[list[tuple[str, str, str, int]],
                                                              list[tuple[str, str, str, int]], list[str]]:
    """The text log's findings and the exported log's read back (each at its entry's step), and the reader's
    notes."""
    assert export(log, module, out).exit_code == 0
    text = replayed(log)
    translation = translate_file(out, module_path=module)
    again = replay(text.game, system_for(text.game), translation.entries)
    step_of = {e.line: k for k, e in enumerate(text.entries, 1)}
    theirs = sorted((f.severity, f.rule, f.message, step_of.get(f.line, 0)) for f in text.findings)
    ours = sorted((f.severity, f.rule, f.message, f.line) for f in again.findings)
    return theirs, ours, [n.message for n in translation.notes if "deck" not in n.message]


def test_a_turn_begun_before_its_first_phase_line_moves_the_tracker(tmp_path: Path,
                                                                    built_module: Callable[[str], Path]) -> None:
    """Omaha 14.1: `Turn 2`, the weather dice, then `Phase support_fire_marker`: the exported tracker shows GT 2's
    Support Fire Marker Phase from the `Turn 2` step (not GT 1's end phase while GT 2's weather is rolled), and the
    phase line typed after it is the phase's one marker (no 4.1 on read-back)."""
    module = built_module("omaha")
    log = ROOT / "examples/omaha/breach-weather-allowance.log"
    out = tmp_path / "weather.vlog"
    theirs, ours, notes = _read_back(log, module, out)
    assert ours == theirs and notes == []
    text = replayed(log)
    game = text.game
    info = read_module(module)
    phase_list = module_phases(game, info)[0]
    states = boards(track(read_recording(out)))
    places = Places(game, info)
    lines = log.read_text(encoding="utf-8").splitlines()
    for k, entry in enumerate(text.entries, 1):
        if lines[entry.line - 1].startswith(("Turn 2", "Roll German 6", "German: aside")):
            pieces, turns = states[k]
            assert vassal_position(game, places, phase_list, pieces, turns).turn == (
                2, phase_list[0].name), lines[entry.line - 1]


def test_empty_turns_export_and_read_back_to_the_texts_verdict(tmp_path: Path,
                                                               built_module: Callable[[str], Path]) -> None:
    """Consecutive `Turn` lines (Moscow turns 3-7 passed empty) read back to the text log's findings, with no note
    and no sequence breach."""
    theirs, ours, notes = _read_back(ROOT / "examples/moscow/breach-victory-claim-then-lost.log",
                                     built_module("moscow"), tmp_path / "empty.vlog")
    assert ours == theirs and notes == []


def test_a_tracker_jump_over_whole_turns_writes_each_turn_passed(tmp_path: Path) -> None:
    """VASSAL's tracker set from turn 1 to turn 4 (no turn lines typed): turns 2 and 3 are written as passed, with
    a note saying the reader assumed them, and the jump is no sequence breach (a turn that does not follow)."""
    s = Session()
    s.tracker(1, 1)
    s.tracker(4, 0)
    translation = translate_file(s.write(tmp_path / "jump.vlog"))
    turns = [e.turn for e in translation.entries if isinstance(e, TurnMarker)]
    assert turns[-3:] == [2, 3, 4]
    assert any("turn(s) 2, 3 as passed" in n.message for n in translation.notes)
    game = s.game
    found = replay(game, system_for(game), translation.entries).findings
    # Each empty turn is judged as a text log's `Turn` lines are (an Onslaught turn owes its steps, 4.0); none
    # is read as a turn out of order.
    assert [f.message for f in found if "follows turn" in f.message] == []
    assert sorted(f.message for f in found if f.rule == "4.0") == [
        f"turn {n} ends without its Reinforcement Step" for n in (1, 2, 3)]


def test_a_step_typed_after_the_tracker_moved_there_is_one_step(tmp_path: Path) -> None:
    """The player presses the tracker's button and then types the step it shows: one step marker, not two (a
    repeated step breaches the sequence, 4.0); typed again, it is a second one."""
    s = Session()
    s.tracker(1, 1)
    s.chat("a", "Step german_reserve")
    translation = translate_file(s.write(tmp_path / "typed.vlog"))
    assert [e.step for e in translation.entries if isinstance(e, StepMarker)] == ["action", "german_reserve"]
    assert any("is where the turn tracker moved at step 1" in e.text for e in translation.entries
               if isinstance(e, Comment))
    s.chat("a", "Step german_reserve")
    again = translate_file(s.write(tmp_path / "twice.vlog"))
    assert [e.step for e in again.entries if isinstance(e, StepMarker)] == ["action", "german_reserve",
                                                                            "german_reserve"]


def test_a_tracker_moved_on_behind_the_typed_steps_catches_up_not_back(tmp_path: Path) -> None:
    """Steps typed ahead of the tracker, then its button pressed once: it moved on, still behind the typed steps;
    the note says so (it said the tracker went back), the typed markers stand. Pressed back, it went back."""
    s = Session()
    s.chat("a", "Step german_reserve")
    s.chat("a", "Step reinforcement")
    s.tracker(1, 1)
    translation = translate_file(s.write(tmp_path / "behind.vlog"))
    assert [e.step for e in translation.entries if isinstance(e, StepMarker)] == ["action", "german_reserve",
                                                                                 "reinforcement"]
    notes = [n.message for n in translation.notes]
    assert notes == ["the turn tracker moved on to turn 1, German Reserve Step, still behind the steps typed "
                     "(turn 1, Reinforcement Step); the log goes on from the typed ones"]
    s.tracker(1, 0)
    back = [n.message for n in translate_file(s.write(tmp_path / "back.vlog")).notes]
    assert back[1:] == ["the turn tracker went back to turn 1, Action Step; the log goes on from where it was"]


# A turn whose first step or phase line is missing: the first line of each is left out of an example.
SKIPPED_FIRST = [
    # Omaha: GT 2's weather dice, then straight to the Allied Movement Phase (4.1).
    ("omaha", "examples/omaha/breach-weather-allowance.log", "Phase support_fire_marker", 2),
    # Onslaught: no Action Step line in either turn; the actions before the first step (5.0).
    ("onslaught", "examples/onslaught/legal-turn1.log", "Step action", 1),
    # Moscow: turn 4 begins with a replacement before any phase line (11.0).
    ("moscow", "examples/moscow/legal-sample-game.log", "Phase german_replacement", 4),
]


@pytest.mark.parametrize(("game_id", "log", "left_out", "from_turn"), SKIPPED_FIRST,
                         ids=[g for g, *_ in SKIPPED_FIRST])
def test_a_turn_without_its_first_phase_line_shows_the_turn(game_id: str, log: str, left_out: str, from_turn: int,
                                                           tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """With no line for a turn's first step or phase, the exported tracker shows the turn from its `Turn` line (at
    its first step: VASSAL's tracker has no turn without one), not the turn before until the next step line; the
    read-back is the text log's verdict still: the entries before the step line judged before it, a later step
    skipped to a sequence breach (Omaha 4.1, Onslaught 5.0, Moscow 11.0)."""
    module = built_module(game_id)
    text_log = tmp_path / f"{game_id}.log"
    lines, turn = [], 0
    for line in (ROOT / log).read_text(encoding="utf-8").splitlines():
        if line.startswith("Turn "):
            turn = int(line.split()[1])
        if not (turn >= from_turn and line.startswith(left_out)):
            lines.append(line)
    text_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    theirs, ours, notes = _read_back(text_log, module, tmp_path / "skipped.vlog")
    assert ours == theirs and notes == []
    assert theirs, "the example no longer breaks the sequence of play without its line"
    text = replayed(text_log)
    info = read_module(module)
    phase_list = module_phases(text.game, info)[0]
    first = phase_list[phase_index(TurnContext(1, turn_sequence(text.game.manifest, text.final_state.scenario)[0].id),
                                   phase_list) or 0].name
    states = boards(track(read_recording(tmp_path / "skipped.vlog")))
    places = Places(text.game, info)
    for k, entry in enumerate(text.entries, 1):
        at = text.system.position(text.states[k]).at
        if at.turn == 0:
            continue
        index = phase_index(at, phase_list)
        shown = vassal_position(text.game, places, phase_list, *states[k]).turn
        assert shown == (at.turn, first if index is None else phase_list[index].name), write_entry(entry)
