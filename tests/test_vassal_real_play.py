"""Logs played as players really play them (the s19 audit): counters dragged and flipped without typing what
they do, attacks and results clicked, dice from the 1d6 button, the turn tracker's button instead of typed
markers. Each case is one the reader translated otherwise than the text log it stands for."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from adjudicator.notation.entries import Advance, Comment, Entry, Header, Loss, Move, Retreat, RollOff
from adjudicator.notation.text import write_entry
from adjudicator.vassal import expected
from adjudicator.vassal.counters import REACH
from adjudicator.vassal.load import translate_file
from test_vassal_paths import OmahaSession, typed
from test_vassal_reader import Session, run
from wargame.vassal.encoding import decode, encode

ROOT = Path(__file__).resolve().parent.parent
OMAHA = ROOT / "examples" / "omaha" / "legal-sample-game.log"


def test_a_replacement_typed_turns_later_does_not_swallow_an_earlier_flip(tmp_path: Path) -> None:
    """A unit flipped in combat without a typed line, eliminated, and replaced reduced turns later with the
    replacement typed before its counter is put down and flipped: the old flip stays the unit's depletion and
    the new flip is the replacement's. The reader let the typed replacement stand for the first flip it found
    back in the log, so the combat loss vanished and the replacement's own flip read as a loss no combat calls
    for (Onslaught 7.2), with every odds after it computed against a full-strength unit."""
    s = Session()
    s.flip("de-inf-21", 2)                       # step 1: reduced by a combat result, nothing typed
    s.delete("de-inf-21")                        # step 2: eliminated
    s.tracker(1, 1)
    s.tracker(1, 2)                              # steps 3-4: the Reinforcement Step
    s.chat("b", "German: replace de-inf-21 reduced 2708 points 1")   # step 5
    s.add("de-inf-21", "2708", like="de-inf-20")                     # step 6: from the palette (new-1)
    props, rest = decode(s.type_text["de-inf-20"][1], "\t")
    s.type_text["de-inf-21"] = (s.type_text["de-inf-20"][0], encode([props.replace("de-inf-20", "de-inf-21"), rest],
                                                                      "\t"))
    s.pieces["de-inf-21"] = SimpleNamespace(piece_id="new-1")  # type: ignore[assignment]
    s.where["de-inf-21"] = ("Main Map", *s.pixel("2708"))
    s.flip("de-inf-21", 2)                       # step 7: the replacement's reduced side
    translation = translate_file(s.write(tmp_path / "replace.vlog"))
    losses = [(e.line, e.loss, e.unit) for e in translation.entries if isinstance(e, Loss)]
    assert losses == [(1, "deplete", "de-inf-21"), (2, "eliminate", "de-inf-21")], losses
    assert not any(isinstance(e, Comment) and "as declared in chat at step 5" in e.text for e in translation.entries)
    assert not any(n.message.startswith("declared") for n in translation.notes), translation.notes


def test_a_drag_after_the_turn_tracker_moved_on_is_no_advance(tmp_path: Path) -> None:
    """The turn tracker's button ends the combat being resolved, as a typed `Step` does: an attacker dragged
    in the next step is a move, not the attack's advance (the reader kept the attack open across tracker
    steps, so in Omaha the first move of GT 2 by a beach assault's attacker read as an advance, 8.5)."""
    s = Session()
    for text in ("Allied: action combat supply 1", "Allied: activate 0620 supply 1",
                 "Allied: attack 0621 with us-inf-01 us-inf-02"):
        s.chat("a", text)
    s.roll("a", 5)
    s.tracker(1, 1)
    s.drag("us-inf-01", "0520")
    translation = translate_file(s.write(tmp_path / "tracker.vlog"))
    dragged = [e for e in translation.entries if getattr(e, "unit", None) == "us-inf-01"]
    assert [type(e) for e in dragged] == [Move], [write_entry(e) for e in dragged]


def test_a_unit_dragged_after_a_bombardment_retreats(tmp_path: Path) -> None:
    """Fire & Movement 8.1: a bombardment's D2 makes the units of its hex retreat. A drag of 2Rgr out of the
    bombarded 2317 is its retreat (as the sample game types it, `Allied> retreat 2Rgr 2317-2316-2315`); the
    reader took only attacks as opening a combat, so it wrote a move in the Bombardment Phase (5.2) and the
    bombardment's result as never carried out (8.3)."""
    s = OmahaSession()
    typed(s, OMAHA, 78)                          # up to `German: bombard 2317 ... result D2 support de_sf_9`
    s.drag("2Rgr", "2317")                       # the counter where the typed log has it
    s.drag("2Rgr", "2315", "a")
    translation = translate_file(s.write(tmp_path / "bombard.vlog"))
    last = [e for e in translation.entries if getattr(e, "unit", None) == "2Rgr"][-1]
    assert isinstance(last, Retreat) and last.path == ["2317", "2316", "2315"], write_entry(last)


def test_a_unit_displaced_by_a_retreat_retreats(tmp_path: Path) -> None:
    """Fire & Movement 8.3.1: a retreat ending on a friendly unit displaces it one hex as if retreating. After
    914/352's retreat into 916/352's hex 2018, the drag of 916/352 is its retreat (`German> retreat 916/352
    2018-1918` in the sample game), not a move in the Combat Phase; nor are the attackers' drags after it
    advances out of place (8.5)."""
    s = OmahaSession()
    typed(s, OMAHA, 73)                          # GT 1's German Movement Phase, 916/352 moved to 2018
    s.drag("916/352", "2018", "b")
    typed_from(s, OMAHA, 74, 111)                # to `German> retreat 914/352 2218-2118-2018`
    s.drag("916/352", "1918", "b")
    translation = translate_file(s.write(tmp_path / "displaced.vlog"))
    last = [e for e in translation.entries if getattr(e, "unit", None) == "916/352"][-1]
    assert isinstance(last, Retreat) and last.path == ["2018", "1918"], write_entry(last)


def test_an_overstacks_excess_taken_off_is_removed(tmp_path: Path) -> None:
    """examples/onslaught/legal-overstack-removed.log played for real: two units dragged into 0720 (one over the
    limit) and the excess's counter taken off with no combat being resolved. The reader wrote it eliminated, which
    no combat result calls for (a false 7.2 error on a legal game); removal is the reading the rules allow (6.3),
    elimination the one they refuse, so it is written removed."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    s = Session()
    s.chat("a", "Allied: action movement supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.drag("us-inf-01", "0720")
    s.drag("us-inf-02", "0720")
    s.delete("us-inf-02")
    s.roll("a", 4)
    s.roll("b", 2)
    translation = translate_file(s.write(tmp_path / "removed.vlog"))
    losses = [write_entry(e) for e in translation.entries if isinstance(e, Loss)]
    assert losses == ["Allied: remove us-inf-02"], [write_entry(e) for e in translation.entries]
    assert [f"{f.rule}: {f.message}" for f in replay(s.game, system_for(s.game), translation.entries).findings
            if f.severity == "error"] == []


def test_an_earlier_combats_advance_dragged_after_the_next_attack(tmp_path: Path) -> None:
    """examples/omaha/breach-combat-order.log played for real: the attack on 2021 is declared before the D2 on
    2117 is carried out (the one 8.0 error); then 914/352 retreats and 16/1 and 26/1, the attackers of 2117, are
    dragged in after it. The reader took their drags for moves (two false 5.2 errors: no move in a Combat Phase),
    as they are no attackers of the attack open; the rules take them as the late advances they are (8.0 notes)."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    log = ROOT / "examples" / "omaha" / "breach-combat-order.log"
    s = OmahaSession()
    typed(s, log, 55)                   # up to the attack on 2021
    s.drag("914/352", "2117", "b")      # the counters where the typed log has them
    s.drag("16/1", "2217")
    s.drag("26/1", "2216")
    s.drag("914/352", "1916", "b")
    s.drag("16/1", "2016")
    s.drag("26/1", "2117")
    translation = translate_file(s.write(tmp_path / "late.vlog"))
    moved = [e for e in translation.entries if isinstance(e, (Move, Retreat, Advance))][-3:]
    dragged = [write_entry(e) for e in moved]
    assert dragged == ["German> retreat 914/352 2117-2016-1916", "Allied: advance 16/1 2217-2117-2016",
                       "Allied: advance 26/1 2216-2117"], dragged
    late = {e.line for e in moved}
    findings = replay(s.game, system_for(s.game), translation.entries).findings
    assert [(f.severity, f.rule) for f in findings if f.line in late] == [("note", "8.0")] * 3, findings


def test_a_counter_dragged_in_legs_is_one_move(tmp_path: Path) -> None:
    """A counter dragged on again with nothing between is the one move, in legs (players drag hex by hex): the
    reader wrote a move for each leg, and Onslaught 6.1 (a division's move of an action is one path) found the
    legal move us-inf-01 0620-0720-0820 a second move. The real-play `breach-move-wrong-hex` (a move typed from the
    wrong hex, exported as a drag from the right one into prohibited 0719, then the correction) got its one 6.1
    twice so."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    found = []
    for legs in (["0720", "0820"], ["0719", "0720"]):
        s = Session()
        s.chat("a", "Allied: action movement supply 1")
        s.chat("a", "Allied: activate 0620 supply 1")
        for label in legs:
            s.drag("us-inf-01", label)
        s.roll("a", 4)
        s.roll("b", 2)
        translation = translate_file(s.write(tmp_path / f"legs-{legs[0]}.vlog"))
        moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
        errors = [f.rule for f in replay(s.game, system_for(s.game), translation.entries).findings
                  if f.severity == "error"]
        found.append((moves, errors))
    assert found == [(["us-inf-01 0620-0720-0820"], []), (["us-inf-01 0620-0720-0719-0720"], ["6.1"])], found


def test_a_drag_no_path_allows_takes_the_path_breaking_fewest_rules(tmp_path: Path) -> None:
    """examples/omaha/breach-enter-enemy.log played for real (its GT 2 Movement Phase, 115/29 for the reinforcement
    CCA/2, which the recorded position has no counter of): a unit dragged from 2219 onto 914/352 in 2117. No path
    the rules allow ends in an enemy hex, and the reader wrote 2219-2117, which the rules call a skip (5.1), not
    the breach of the path a player takes. The path breaking the fewest rules is written instead, the text log's
    2219-2218-2118-2117, and its breach is the one the rules find first on it (for a leg unit in the Movement
    Phase, 6.1's stop in 2118's zone of control; the text log's mobile CCA/2 breaks 5.2d first)."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    log = ROOT / "examples" / "omaha" / "breach-enter-enemy.log"
    s = OmahaSession()
    typed(s, log, 39)                   # up to GT 2's Movement Phase
    s.drag("914/352", "2117", "b")      # the counters where the typed log has them
    s.drag("115/29", "2219")
    s.drag("115/29", "2117")
    translation = translate_file(s.write(tmp_path / "enemy.vlog"))
    moved = [e for e in translation.entries if isinstance(e, Move) and e.unit == "115/29"][-1]
    assert moved.path == ["2219", "2218", "2118", "2117"], write_entry(moved)
    findings = replay(s.game, system_for(s.game), translation.entries).findings
    assert [f.rule for f in findings if f.line == moved.line and f.severity == "error"] == ["6.1"], findings


def test_a_non_attacker_dragged_into_the_hex_attacked_advances(tmp_path: Path) -> None:
    """examples/onslaught/breach-advance-non-attacker.log played for real: after the retreat from 0621, us-inf-02,
    no attacker, is dragged in. The reader wrote a move, a breach of 5.4 (no move in a combat action); the drag is
    the advance after combat that the text log writes, and its breach 7.4's (only attackers advance)."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    s = Session()
    s.chat("a", "Allied: action combat supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.chat("a", "Allied: attack 0621 with us-inf-01 odds 1:1 die 6 result DR")
    s.drag("de-inf-04", "0623", "b")
    s.drag("us-inf-02", "0621")
    s.roll("a", 2)
    s.roll("b", 5)
    translation = translate_file(s.write(tmp_path / "advance.vlog"))
    moved = [e for e in translation.entries if isinstance(e, (Move, Advance)) and e.unit == "us-inf-02"]
    assert [write_entry(e) for e in moved] == ["Allied: advance us-inf-02 0620-0621"], translation.entries
    errors = [f.rule for f in replay(s.game, system_for(s.game), translation.entries).findings if f.severity == "error"]
    assert errors == ["7.4"], errors


def test_an_attacker_dragged_in_after_the_roll_off_advances_late(tmp_path: Path) -> None:
    """examples/onslaught/breach-advance-late.log played for real: after the retreat from 0621 the next action is
    rolled for, then us-inf-01 is dragged into 0621. The reader wrote a move of the next action (5.2, not
    activated); it is the advance the text log writes after the roll-off, and its breach 7.4's (an advance comes
    right after its combat). Once the next action is declared, such a drag is a move again."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    def played(*after_roll: str) -> tuple[list[str], list[str]]:
        s = Session()
        s.chat("a", "Allied: action combat supply 1")
        s.chat("a", "Allied: activate 0620 supply 1")
        s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DR")
        s.drag("de-inf-04", "0623", "b")
        s.roll("a", 5)
        s.roll("b", 2)
        for line in after_roll:
            s.chat("a", line)
        s.drag("us-inf-01", "0621")
        translation = translate_file(s.write(tmp_path / "late.vlog"))
        moved = [write_entry(e) for e in translation.entries
                 if isinstance(e, (Move, Advance)) and e.unit == "us-inf-01"]
        found = replay(s.game, system_for(s.game), translation.entries).findings
        return moved, [f.rule for f in found if f.severity == "error"]

    assert played() == (["Allied: advance us-inf-01 0620-0621"], ["7.4"])
    moved, _ = played("Allied: action movement supply 1")
    assert moved == ["us-inf-01 0620-0621"]


def typed_from(session: Session, log: Path, first: int, last: int) -> None:
    """The log's lines `first` to `last` (1-based) typed in chat, one a step."""
    for line in log.read_text(encoding="utf-8").splitlines()[first - 1:last]:
        words = line.split("#", 1)[0].strip()
        if words and not words.startswith("["):
            session.chat("a", words)


def test_the_opening_die_without_the_turn_trackers_state(tmp_path: Path) -> None:
    """A saved position without the turn tracker's state (what `adjudicate export` writes for a scenario's
    set-up): before any turn marker the die the Allied player rolls after landing the Rangers is the Pointe du
    Hoc roll (11.2.3), `Roll Allied 4`, as with the tracker at GT 1's first phase. The reader read it as a
    die of nothing, and GT 1 then began with the Rangers' roll missing."""
    s = OmahaSession()
    s.restore = [p for p in s.restore if not p.startswith("TURN")]
    s.chat("a", "Allied: setup 2Rgr 2417")
    s.roll("a", 4)
    translation = translate_file(s.write(tmp_path / "no-tracker.vlog"))
    rolls = [e for e in translation.entries if isinstance(e, RollOff)]
    assert [r.rolls for r in rolls] == [{"Allied": 4}], [write_entry(e) for e in translation.entries]
    assert not any(isinstance(e, Advance) for e in translation.entries)


def test_a_defending_unit_dragged_during_a_combat_is_a_retreat(tmp_path: Path) -> None:
    """While a combat is resolved the defending side's counters move only by retreat: 915/352 dragged after the
    bombardment of 2117, which it is not in, is a retreat the rule system judges (8.1.3, the one error the text
    log `examples/omaha/breach-bombard-bystander-retreat.log` gets), not a move out of phase (5.2) that closed
    the bombardment and made 914/352's own retreat two more errors (8.3)."""
    log = ROOT / "examples" / "omaha" / "breach-bombard-bystander-retreat.log"
    s = OmahaSession()
    typed(s, log, 48)                            # up to `Allied: bombard 2117 ... result D2`
    s.drag("915/352", "2021", "b")
    s.drag("914/352", "2117", "b")               # the counters where the typed log has them
    s.drag("915/352", "1821", "b")
    s.drag("914/352", "1917", "b")
    translation = translate_file(s.write(tmp_path / "bystander.vlog"))
    dragged = [e for e in translation.entries if isinstance(e, (Move, Retreat)) and e.line > 0][-2:]
    assert [(type(e), e.unit) for e in dragged] == [(Retreat, "915/352"), (Retreat, "914/352")], \
        [write_entry(e) for e in dragged]


def test_a_misspelt_declaration_in_chat_is_a_note(tmp_path: Path) -> None:
    """A chat line meant as notation but misspelt in its first word (a unit id before a path, a side, a marker
    word in lower case) is read as chat, so the reader says so with a "did you mean"; it used to become a comment
    with no note, the declared path or pass silently lost. Ordinary chat gets no note."""
    s = Session()
    for text in ("us-inf-2 0620-0520-0420", "Alied: pass", "turn 2", "Bob: nice move", "roll the dice",
                 "good game, see you at 0620-0520"):
        s.chat("a", text)
    translation = translate_file(s.write(tmp_path / "typos.vlog"))
    notes = {n.step: n.message for n in translation.notes if "reads as chat" in n.message}
    assert sorted(notes) == [1, 2, 3], translation.notes
    assert "did you mean 'us-inf-02'" in notes[1] and "did you mean 'Allied'" in notes[2] and "'Turn'" in notes[3]


def test_a_step_layer_past_the_last_face_is_one_loss_per_face(tmp_path: Path) -> None:
    """A counter whose Step layer is set past the unit's last face (a hand-made file: level 99 on a unit of two
    steps) is read as its last face with a note: one depletion, where the reader wrote a loss for every level
    and the check one error per level for a single flip."""
    s = Session()
    s.flip("de-inf-21", 99)
    translation = translate_file(s.write(tmp_path / "level-99.vlog"))
    losses = [write_entry(e) for e in translation.entries if isinstance(e, Loss)]
    assert losses == ["German: deplete de-inf-21"], losses
    assert any("at level 99 of its Step layer, but de-inf-21 has 2 steps" in n.message for n in translation.notes), translation.notes


def test_a_malformed_command_names_its_step(tmp_path: Path) -> None:
    """A command of a log step that does not read is placed by its step, as the docs promise (`step 1 (command
    N), part 1`; it said only `command N`), and a coordinate past a Java int says so instead of calling
    1099511627776 no whole number."""
    s = Session()
    s.step(s.move_command("de-inf-21", ("Main Map", 2**40, 10)))
    code, out, err = run("check", str(s.write(tmp_path / "huge.vlog")))
    assert code == 2 and "Traceback" not in out + err
    assert "[step 1 (command " in out + err and "), part 1]: x '1099511627776' is out of range" in out + err, out + err


def test_a_counter_taken_off_with_no_combat_says_what_was_assumed(tmp_path: Path) -> None:
    """A counter deleted or dropped in an Eliminated box while no combat is being resolved, from a hex not
    overstacked, is written as eliminated, why it left being what the reader cannot know: a note says what was
    written and how to type what it was. A loss in combat gets none."""
    s = Session()
    s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02")
    s.delete("de-inf-04")                        # step 2: the attack's result
    s.chat("a", "Allied: pass")
    s.delete("us-inf-02")                        # step 4: no combat
    translation = translate_file(s.write(tmp_path / "off.vlog"))
    noted = {n.step: n.message for n in translation.notes if "taken off the map" in n.message}
    assert list(noted) == [4] and "'Allied: remove us-inf-02'" in noted[4], translation.notes


def test_a_breach_in_the_hexes_between_is_not_in_a_drag(tmp_path: Path) -> None:
    """Why the real-play `breach-weather-allowance` (Omaha 14.1) has one finding fewer than its text log, by nature:
    the text log moves 16/1 2319-2218-2217, 4 MP through 2218's mixed terrain, over the 3 MP inclement weather
    leaves. Dragged, VASSAL records 2319 and 2217 only, and the reader's path is the cheapest, 2319-2318-2217 along
    the coast (3 MP): no breach a referee could see. Typed in chat, the path is the text log's, and so is the
    verdict."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    log = ROOT / "examples" / "omaha" / "breach-weather-allowance.log"
    found: list[tuple[list[str], list[str]]] = []
    for path_typed in (False, True):
        s = OmahaSession()
        s.chat("a", "[Optional \"weather\"]")   # the headers are the recording's, the option is typed
        typed(s, log, 44)                        # up to GT 2's `Phase movement`
        s.drag("16/1", "2319")                   # the counter where the typed log has it
        if path_typed:
            s.chat("a", "16/1 2319-2218-2217")
        s.drag("16/1", "2217")
        translation = translate_file(s.write(tmp_path / f"weather-{path_typed}.vlog"))
        moved = [e for e in translation.entries if isinstance(e, Move) and e.unit == "16/1"][-1]
        findings = replay(s.game, system_for(s.game), translation.entries).findings
        found.append((moved.path, [f.rule for f in findings if f.severity == "error"]))
    assert found == [(["2319", "2318", "2217"], []), (["2319", "2218", "2217"], ["14.1"])], found


def test_the_campaign_weather_die_needs_no_typed_optional(tmp_path: Path) -> None:
    """Omaha 14.1 is in force in the campaign game without a header (its scenario's `in_force` in game.toml).
    The reader took the German die from the 1d6 button in GT 2's first phase for a weather roll only after
    `[Optional "weather"]` was typed, so the real-play `breach-campaign-length` read it as a die of nothing and
    found GT 2 (and every later GT) missing its weather roll: 23 false 14.1 errors."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for

    log = ROOT / "examples" / "omaha" / "breach-campaign-length.log"
    s = OmahaSession()
    s.meta["savedata"] = s.meta["savedata"].replace(b"Umpire test session omaha",
                                                    b"Umpire test session omaha, scenario campaign")
    typed(s, log, 38)    # the set-up and GT 1, up to GT 2's `Phase support_fire_marker`; no header typed
    s.roll("b", 3)       # the German weather die, from the button
    typed_from(s, log, 40, 57)   # the rest of GT 2
    translation = translate_file(s.write(tmp_path / "campaign.vlog"))
    assert translation.scenario == "campaign"
    assert [e.rolls for e in translation.entries if isinstance(e, RollOff)][-1] == {"German": 3}
    findings = replay(s.game, system_for(s.game), translation.entries).findings
    assert [f"{f.rule}: {f.message}" for f in findings if f.severity == "error"] == []


def test_a_deplete_typed_for_the_next_attack_does_not_swallow_the_flip_of_the_one_before(tmp_path: Path) -> None:
    """de-inf-04 flipped by the first attack's result (nothing typed), then attacked again in the same step and its
    second loss typed, `German: deplete de-inf-04`, before its counter is taken off: two steps lost. The typed
    deplete stood for the flip of the attack before (a declaration typed after its counter move replaces it), so
    the first attack's loss vanished and the counter taken off carried out the typed deplete: one step lost."""
    s = Session()
    for text in ("Allied: action combat supply 1", "Allied: activate 0620 supply 1",
                 "Allied: attack 0621 with us-inf-01"):
        s.chat("a", text)
    s.roll("a", 6)
    s.flip("de-inf-04", 2)                       # step 5: the first attack's loss, nothing typed
    s.chat("a", "Allied: attack 0621 with us-inf-02")
    s.roll("a", 6)
    s.chat("b", "German: deplete de-inf-04")     # step 8: the second attack's loss, typed first
    s.delete("de-inf-04")                        # step 9: carried out
    translation = translate_file(s.write(tmp_path / "twice.vlog"))
    losses = [(e.line, e.loss, e.unit) for e in translation.entries if isinstance(e, Loss)]
    assert losses == [(5, "deplete", "de-inf-04"), (8, "deplete", "de-inf-04")], losses


def _attack_on_0621() -> Session:
    """A combat action whose attack on 0621 by us-inf-01 and us-inf-02 (2:1, -1 for bocage) is typed, no die yet."""
    s = Session()
    for text in ("Allied: action combat supply 1", "Allied: activate 0620 supply 1",
                 "Allied: attack 0621 with us-inf-01 us-inf-02"):
        s.chat("a", text)
    return s


def _rerolled(*between: str) -> Session:
    """A combat action whose attack on 0621 (2:1, -1 for bocage) gets a 5 (DR), then the attacker's 2 (AH) rolled
    again at once, the chat lines given typed between them, nothing carried out yet."""
    s = _rerolled_to(2)
    for text in between:
        s.chat("b", text)
    return s


def _rerolled_to(again: int) -> Session:
    """The attack on 0621 (2:1, -1 for bocage) given a 5 (DR), then the attacker's die rolled again at once."""
    s = _attack_on_0621()
    s.roll("a", 5)
    s.roll("a", again)                           # step 5: the reroll
    return s


def test_the_result_of_a_reroll_carried_out_is_one_breach_that_says_so(tmp_path: Path) -> None:
    """The first die stays the attack's (dice are recorded outcomes); the players carry out the reroll's AH (both
    attackers flipped). The referee judged the flips against the first die's DR: two 7.2 errors (no loss owed)
    and a third for the retreat never made, none saying a reroll was the cause. Now one error, at the attack:
    the result carried out is the reroll's, the first die's DR is owed. A reroll agreed in chat changes nothing
    (the register: the referee's to accept)."""
    for k, between in enumerate(((), ("ok, reroll that",))):
        s = _rerolled(*between)
        s.flip("us-inf-01", 2)
        s.flip("us-inf-02", 2)
        s.roll("a", 3)
        s.roll("b", 4)                           # the next action's roll-off
        vlog = s.write(tmp_path / f"reroll-{k}.vlog")
        code, out, _ = run("check", str(vlog))
        errors = [line for line in out.splitlines() if " error [" in line]
        assert code == 1 and errors == [f"{vlog}: step 3: error [onslaught 7.2]: column 2:1 with a modified roll of 4 "
                                        "gives DR, not AH"], out
        assert ("    (the result carried out, AH, is the reroll's: Alice (Allied) rolled 2 again at step 5; the "
                "attack's die is the first, 5 at step 4, and its result DR is the one owed)") in out.splitlines(), out
        attack = next(e for e in translate_file(vlog).entries if getattr(e, "kind", "") == "attack")
        assert write_entry(attack) == "Allied: attack 0621 with us-inf-01 us-inf-02 die 5 reroll 2 result AH"


def test_the_first_die_s_result_carried_out_after_a_reroll_is_clean(tmp_path: Path) -> None:
    """After a reroll the players carry out the first die's DR (the defender retreats): nothing is claimed for
    them, and the verdict is clean (the reroll stays a reader's note)."""
    s = _rerolled()
    s.drag("de-inf-04", "0623", "b")
    s.roll("a", 3)
    s.roll("b", 4)
    vlog = s.write(tmp_path / "first.vlog")
    code, out, _ = run("check", str(vlog))
    assert code == 0 and "a reroll" in out, out


def test_a_counter_flipped_by_mistake_and_flipped_back_at_once_loses_nothing(tmp_path: Path) -> None:
    """Ctrl+F pressed on us-inf-01 by mistake in a Movement action and pressed again at once to turn it back, then
    the counter dragged: no step lost. The reader wrote the first flip as a loss (a 7.2 error, no combat calls for
    it) and the flip back as a note, and the unit stayed reduced in the game for the rest of it (its halved
    strength and allowance judged every later move and attack)."""
    s = Session()
    s.chat("a", "Allied: action movement supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.flip("us-inf-01", 2)                       # step 3: by mistake
    s.flip("us-inf-01", 1)                       # step 4: turned back at once
    s.drag("us-inf-01", "0520")
    vlog = s.write(tmp_path / "flip-back.vlog")
    translation = translate_file(vlog)
    assert not [e for e in translation.entries if isinstance(e, Loss)], [write_entry(e) for e in translation.entries]
    assert not translation.notes, translation.notes
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_the_result_of_a_rerolled_bombardment_carried_out_is_one_breach(tmp_path: Path) -> None:
    """Fire & Movement 8.1.2, as Onslaught's attack above: the German bombardment of 2317 gets a 2 (D3), the German
    die again at once a 3 (D2), and the Rangers retreat two hexes, the reroll's D2. One error, at the bombardment,
    saying the result carried out is the reroll's and the first die's D3 is owed."""
    s = OmahaSession()
    typed(s, OMAHA, 77)                          # up to `German: draw de_sf_9`
    s.chat("b", "German: bombard 2317 support de_sf_9")
    s.roll("b", 2)
    s.roll("b", 3)                               # the reroll
    s.drag("2Rgr", "2317")                       # the counter where the typed log has it
    s.drag("2Rgr", "2315", "a")
    vlog = s.write(tmp_path / "bombard-reroll.vlog")
    code, out, _ = run("check", str(vlog))
    errors = [line for line in out.splitlines() if " error [" in line]
    assert code == 1 and len(errors) == 1 and errors[0].endswith("with a 2 gives D3, not D2"), out
    assert any(line.startswith("    (the result carried out, D2, is the reroll's") and "the bombardment's die is the "
               "first, 2" in line for line in out.splitlines()), out


def test_a_stack_flipped_by_mistake_and_flipped_back_at_once_loses_nothing(tmp_path: Path) -> None:
    """The two counters of 0620 selected and flipped together by mistake (one step), then flipped back together:
    each unit's flip is taken back, though the other's flip was written after it."""
    s = Session()
    s.chat("a", "Allied: action movement supply 1")
    s.chat("a", "Allied: activate 0620 supply 1")
    for level in (2, 1):
        commands: list[str] = []
        s.step = lambda *c: commands.extend(c)  # type: ignore[method-assign]
        s.flip("us-inf-01", level)
        s.flip("us-inf-02", level)
        del s.step
        s.step(*commands)                        # one step: both counters selected
    s.drag("us-inf-01", "0520")
    translation = translate_file(s.write(tmp_path / "stack-flip-back.vlog"))
    assert not [e for e in translation.entries if isinstance(e, Loss)], [write_entry(e) for e in translation.entries]
    assert not translation.notes, translation.notes


def test_a_reroll_s_retreat_dragged_hex_by_hex_is_judged_whole(tmp_path: Path) -> None:
    """The first die a 4 (no effect, `-`), the reroll a 5 (DR), and the defender's retreat dragged a hex at a time:
    the reader decided on the first leg alone, a one-hex retreat that neither result allows, so the reroll's DR was
    not seen carried out and the error said the result `-` calls for no retreat, with no word of the reroll. It now
    judges what was carried out once the combat is over (the legs joined): one error at the attack, saying so."""
    s = _attack_on_0621()
    s.roll("a", 4)
    s.roll("a", 5)                               # step 5: the reroll
    s.drag("de-inf-04", "0622", "b")
    s.drag("de-inf-04", "0623", "b")             # the retreat's second leg
    s.drag("us-inf-01", "0621")                  # the advance
    s.roll("a", 3)
    s.roll("b", 4)
    vlog = s.write(tmp_path / "legs.vlog")
    code, out, _ = run("check", str(vlog))
    errors = [line for line in out.splitlines() if " error [" in line]
    assert code == 1 and len(errors) == 1 and errors[0].startswith(f"{vlog}: step 3: "), out
    assert ("    (the result carried out, DR, is the reroll's: Alice (Allied) rolled 5 again at step 5; the attack's die "
            "is the first, 4 at step 4, and its result - is the one owed)") in out.splitlines(), out


def _many_rerolls(n: int) -> Session:
    """n combat actions, each attack on 0621 given a 5, rerolled at once (2), the defender's stand typed after it and
    the next action's roll-off rolled."""
    s = Session()
    for _ in range(n):
        for text in ("Allied: action combat supply 1", "Allied: activate 0620 supply 1",
                     "Allied: attack 0621 with us-inf-01 us-inf-02"):
            s.chat("a", text)
        s.roll("a", 5)
        s.roll("a", 2)                           # the reroll
        s.chat("b", "German: stand de-inf-04")   # what follows it, judged in the position before it
        s.roll("a", 3)
        s.roll("b", 4)
    return s


def test_the_reroll_reader_s_work_grows_linearly_with_the_rerolls(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each entry after a reroll is judged in the position before it: the reader followed the game to it with a copy
    of the entries before it, which the follower compared and searched for headers again, so 4n rerolls cost some
    fourteen times what n cost. The entries examined (asked whether they are a header) now grow as the log does."""
    examined = [0]
    plain = Entry.as_header

    def counted(self: Entry) -> Header | None:
        examined[0] += 1
        return plain(self)

    monkeypatch.setattr(Entry, "as_header", counted)
    work = []
    for n in (5, 20):
        examined[0] = 0
        translation = translate_file(_many_rerolls(n).write(tmp_path / f"rerolls-{n}.vlog"))
        assert sum("a reroll" in note.message for note in translation.notes) == n, translation.notes
        work.append(examined[0])
    assert work[1] <= 4.5 * work[0], work


def _flipped_around(activated: str, *between: tuple[str, str]) -> Session:
    """A Movement action activating `activated`, us-inf-01 (0620) flipped by mistake, a chat line, the drags given,
    then us-inf-01 flipped straight back."""
    s = Session()
    s.chat("a", "Allied: action movement supply 1")
    s.chat("a", f"Allied: activate {activated} supply 1")
    s.flip("us-inf-01", 2)                       # step 3: by mistake
    s.chat("a", "oops, wrong counter")
    for unit, label in between:
        s.drag(unit, label)
    s.flip("us-inf-01", 1)                       # turned back
    return s


def test_a_flip_taken_back_after_unrelated_play_loses_nothing(tmp_path: Path) -> None:
    """us-inf-01 flipped by mistake, then a chat line and a move of us-para-02 two hexes away (0420 to 0421), then
    flipped back: the reader took a flip back only with nothing written between, so the first flip was a loss no
    combat calls for (7.2) and the flip back a note. Nothing between reads us-inf-01's side (the register): taken
    back, and the log is clean."""
    vlog = _flipped_around("0420", ("us-para-02", "0421")).write(tmp_path / "flip-back-later.vlog")
    translation = translate_file(vlog)
    assert not [e for e in translation.entries if isinstance(e, Loss)], [write_entry(e) for e in translation.entries]
    assert [write_entry(e) for e in translation.entries if isinstance(e, Move)] == ["us-para-02 0420-0421"]
    assert not translation.notes, translation.notes
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_a_flip_is_not_taken_back_over_play_that_reads_its_side(tmp_path: Path) -> None:
    """Between the flip and the flip back, a move of br-inf-01 from 0720, next to us-inf-01's hex (its zone of control
    and its stack's strength are read there): the flip stands, a loss, and the flip back a note."""
    translation = translate_file(_flipped_around("0720", ("br-inf-01", "0721")).write(tmp_path / "flip-stands.vlog"))
    assert [write_entry(e) for e in translation.entries if isinstance(e, Loss)] == ["Allied: deplete us-inf-01"]
    assert [n.message.split(":")[0] for n in translation.notes] == ["us-inf-01 flipped back to full strength at 0620"]


def test_a_reroll_s_result_that_a_modifier_left_out_would_give_cites_the_table(tmp_path: Path) -> None:
    """The first die a 5 (-1 for the bocage: 4, DR), the reroll a 6 (5, HH), and HH carried out (both sides flipped,
    the defender retreating). HH is also what the first die gives with the bocage's -1 left out, so the verdict cited
    7.1 (a modifier left out), a misreading nobody made: the table was read right, for the reroll. The attack records
    the reroll (`die 5 reroll 6 result HH`), and the one error cites 7.2, the result the first die owes."""
    s = _rerolled_to(6)
    s.flip("us-inf-01", 2)
    s.flip("us-inf-02", 2)
    s.flip("de-inf-04", 2)
    s.drag("de-inf-04", "0623", "b")
    s.roll("a", 3)
    s.roll("b", 4)
    vlog = s.write(tmp_path / "reroll-unmodified.vlog")
    code, out, _ = run("check", str(vlog))
    errors = [line for line in out.splitlines() if " error [" in line]
    assert code == 1 and errors == [f"{vlog}: step 3: error [onslaught 7.2]: column 2:1 with a modified roll of 4 "
                                    "gives DR, not HH"], out
    attack = next(e for e in translate_file(vlog).entries if getattr(e, "kind", "") == "attack")
    assert write_entry(attack) == "Allied: attack 0621 with us-inf-01 us-inf-02 die 5 reroll 6 result HH"


def _comments_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting every time a comment is asked whether it is one (how many the reader looks at)."""
    looked = [0]

    def counted(self: Comment) -> bool:
        looked[0] += 1
        return True

    monkeypatch.setattr(Comment, "is_comment", property(counted))
    return looked


def test_chat_after_a_reroll_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the combat after a reroll is open, the reader looked through every entry written since the reroll again
    at each step, so a long run of chat before its result was carried out cost the square of its length (50 chat
    lines: 1,500 comments looked at, 500: 127,275). Each entry is now looked at once, unless written over since (69
    and 519)."""
    looked = _comments_counted(monkeypatch)
    work = []
    for n in (50, 500):
        looked[0] = 0
        s = _rerolled(*(f"thinking it over, {k}" for k in range(n)))
        s.flip("us-inf-01", 2)
        s.flip("us-inf-02", 2)
        s.roll("a", 3)
        s.roll("b", 4)
        translation = translate_file(s.write(tmp_path / f"reroll-chat-{n}.vlog"))
        assert sum("a reroll" in note.message for note in translation.notes) == 1, translation.notes
        work.append(looked[0])
    assert work[1] <= 12 * work[0], work


class _Looked(list[object]):
    """A unit's counter moves as the reader keeps them (`Expectations.physical`), counting the records read."""

    read = 0

    def __iter__(self) -> Iterator[object]:
        for record in list.__iter__(self):
            _Looked.read += 1
            yield record

    def __reversed__(self) -> Iterator[object]:
        for record in list.__reversed__(self):
            _Looked.read += 1
            yield record

    def __getitem__(self, at: Any) -> Any:
        got = list.__getitem__(self, at)
        _Looked.read += len(got) if isinstance(at, slice) else 1
        return got


def test_a_flip_back_does_not_read_the_unit_s_whole_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """us-inf-01 flipped, 0620 activated (its hex: the flip stands), flipped back (a note), n times: each flip back
    read every counter move written for the unit since the start (and each flip met on the way, the flipped
    counter's), so n flips cost the square of n (50: 1,275 records read; 500: 125,250). The unit's own flips are now
    found among its last records."""
    monkeypatch.setattr(expected, "defaultdict", lambda factory: defaultdict(_Looked))
    work = []
    for n in (50, 500):
        _Looked.read = 0
        s = Session()
        s.chat("a", "Allied: action movement supply 1")
        for _ in range(n):
            s.flip("us-inf-01", 2)
            s.chat("a", "Allied: activate 0620 supply 1")
            s.flip("us-inf-01", 1)
        translation = translate_file(s.write(tmp_path / f"flips-{n}.vlog"))
        assert len([e for e in translation.entries if isinstance(e, Loss)]) == len(translation.notes) == n
        work.append(_Looked.read)
    assert work[1] <= 12 * work[0], work


def test_a_flip_back_long_after_the_flip_does_not_take_it_back(tmp_path: Path) -> None:
    """What lies between a flip and its flip back is looked through only within REACH entries: a Ctrl+F by
    mistake is turned back soon after, and looking further at every flip back made n counters flipped and flipped
    back over a long log cost n times its length. Within reach the flip is taken back; past it, it stands (a loss,
    and the flip back a note)."""
    for chat, losses in ((REACH - 10, 0), (REACH, 1)):
        s = Session()
        s.chat("a", "Allied: action movement supply 1")
        s.flip("us-inf-01", 2)
        for k in range(chat):
            s.chat("b", f"hm, {k}")
        s.flip("us-inf-01", 1)
        translation = translate_file(s.write(tmp_path / f"late-{chat}.vlog"))
        assert len([e for e in translation.entries if isinstance(e, Loss)]) == len(translation.notes) == losses


def test_a_counter_dragged_on_after_a_long_chat_does_not_read_it_again(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """us-inf-01 dragged a hex, 3,000 chat lines, then dragged on hex by hex: each leg looked back through the whole
    chat for the drag it continues (ten legs looked at 30,120 comments more than one leg; now 103). The look back
    stops after REACH entries: the first leg is a move of its own, and the legs after it continue that move."""
    looked = _comments_counted(monkeypatch)
    work = []
    for legs in (1, 11):
        s = Session()
        s.chat("a", "Allied: action movement supply 1")
        s.chat("a", "Allied: activate 0620 supply 1")
        s.drag("us-inf-01", "0520")
        for k in range(3 * REACH):
            s.chat("b", f"hm, {k}")
        for leg in range(legs):
            s.drag("us-inf-01", f"05{19 - leg:02d}")
        path = s.write(tmp_path / f"legs-{legs}.vlog")
        looked[0] = 0
        translation = translate_file(path)
        work.append(looked[0])
    moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
    assert moves[0] == "us-inf-01 0620-0520" and len(moves) == 2, moves
    assert work[1] - work[0] < 2 * REACH, work
