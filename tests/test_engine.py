"""The engine's own part of the contract: the generic checks in their order, the sequence of play from the
game's data, errors not disguised as faults of the log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import TypeAdapter

from adjudicator.cli import main
from adjudicator.contract import Outcome
from adjudicator.engine import check, replay
from adjudicator.notation.entries import (Action, Attack, Bombard, Capture, Entry, Income, Move, Pass, Place, RollOff,
                                          StepMarker)
from adjudicator.notation.text import parse_text
from adjudicator.systems import SYSTEMS, system_for
from adjudicator.systems.fire_and_movement.state import evolve
from adjudicator.systems.omaha import OMAHA
from adjudicator.systems.onslaught import ONSLAUGHT
from adjudicator.vassal.translate import phases
from builder.vassal.module import _turn_levels
from wargame.bundled import data_root
from wargame.constraints import record_data
from wargame.game import Game, load_game
from wargame.models import GameManifest
from wargame.sequence import TurnOrder, entry_places, next_slot, opening_slot, slot_at, step_ids, turn_sequence
from play_support import at_phase, when


@pytest.fixture(scope="module")
def onslaught() -> Game:
    return load_game(data_root(), "onslaught")


@pytest.fixture(scope="module")
def omaha() -> Game:
    return load_game(data_root(), "omaha")


def test_one_sequence_for_engine_builder_and_reader(onslaught: Game, omaha: Game) -> None:
    """The builder's turn tracker and the VASSAL reader list the steps the engine checks, from game.toml."""
    for game in (onslaught, omaha):
        sequence = turn_sequence(game.manifest)
        assert _turn_levels(game) == [slot.name for slot in sequence]
        assert [(p.step, p.name) for p in phases(game)] == [(slot.id, slot.name) for slot in sequence]
    assert step_ids(turn_sequence(onslaught.manifest)) == ["action", "german_reserve", "reinforcement"]
    omaha_sequence = turn_sequence(omaha.manifest)
    # 4.1: the player turn's five phases twice, the first player's (Allied) first.
    assert [(s.id, s.side) for s in omaha_sequence[1:3]] == [("movement", "Allied"), ("bombardment", "Allied")]
    after = next_slot(omaha_sequence, "mobile_combat", "Allied")
    assert after is not None and (after.id, after.side) == ("movement", "German")
    # The opening before GT 1 (11.2) is no step of the turn: not a tracker level, not a phase to write.
    opening = opening_slot(omaha.manifest)
    assert opening is not None and opening.opening and opening.id == "landing"
    assert "landing" not in step_ids(omaha_sequence) and opening.name not in _turn_levels(omaha)
    assert opening_slot(onslaught.manifest) is None


def test_turn_order_remembers_the_answers_the_sequence_gives(onslaught: Game, omaha: Game) -> None:
    """TurnOrder, which the engine asks about every entry, answers as the sequence's own functions do, asked
    once or twice (the second answer comes from what it remembered)."""
    for game in (onslaught, omaha):
        order = TurnOrder(game.manifest)
        sequence, opening = turn_sequence(game.manifest), opening_slot(game.manifest)
        places = entry_places(sequence)
        assert order.sequence == sequence and order.opening == opening and order.steps == step_ids(sequence)
        kinds = sorted({a.kind for s in (*sequence, *([opening] if opening else [])) for a in s.entries} | {"comment"})
        hows = [None, "reinforce", "setup", "draw", "replace"]
        types = sorted({u.type for u in game.units_by_id.values()})
        for turn in (0, 1):
            for step in [None, *step_ids(sequence), "no_such_step"]:
                for side in [None, *game.manifest.sides]:
                    for _ in range(2):
                        assert order.slot_at(turn, step, side) == slot_at(sequence, opening, turn, step, side)
        for kind in kinds:
            for how in hows:
                governed = any(a.covers(kind, how) for a in places.get(kind, ())) or (
                    opening is not None and opening.names(kind, how))
                assert order.governs(kind, how) is governed and order.governs(kind, how) is governed
                for slot in (*sequence, *([opening] if opening else [])):
                    for side in [None, *game.manifest.sides]:
                        for acting in [(), (types[0],), tuple(types[:2])]:
                            expected = slot.allows(kind, side, acting, how)
                            assert order.allows(slot, kind, side, acting, how) is expected
                            assert order.allows(slot, kind, side, acting, how) is expected


def test_an_unknown_step_is_a_log_error_with_a_suggestion(tmp_path: Path) -> None:
    """`Step reinforcment`: exit 2, the file, line and column, "did you mean", never a traceback."""
    log = tmp_path / "bogus.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep reinforcment\nStep action\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(log)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert f"{log}:3:6" in result.output and "did you mean 'reinforcement'" in result.output


def test_an_unknown_step_stops_a_replay_cleanly(onslaught: Game) -> None:
    """Replayed without the CLI's resolve, an unknown step stops the replay at its line (tier 2)."""
    result = replay(onslaught, ONSLAUGHT, parse_text('[Game "onslaught"]\nTurn 1\nStep bogus\nStep action\n'))
    assert result.stopped is not None and result.stopped_line == 3 and "'bogus'" in str(result.stopped)
    assert result.applied == 2


def test_steps_out_of_order_cite_the_sequence(onslaught: Game) -> None:
    """4.0 from the data: a step that is not the next one is an error citing the sequence's section."""
    result = replay(onslaught, ONSLAUGHT, parse_text('[Game "onslaught"]\nTurn 1\nStep german_reserve\n'))
    assert [(f.severity, f.rule, f.line) for f in result.findings] == [("error", "4.0", 3)]
    assert "the next step is 'action'" in result.findings[0].message


def test_an_internal_error_is_not_a_fault_of_the_log(onslaught: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyError raised inside apply (a bug) propagates; it is not turned into "the entry cannot be applied"."""
    def broken(self: Any, state: Any, entry: Entry) -> Any:
        raise KeyError("a bug")

    monkeypatch.setattr(type(ONSLAUGHT), "apply", broken)
    with pytest.raises(KeyError):
        replay(onslaught, ONSLAUGHT, parse_text('[Game "onslaught"]\nTurn 1\n'))


def test_generic_checks_come_first_in_order(onslaught: Game) -> None:
    """A decided game refuses everything first; then an entry of another system; then the author."""
    state = ONSLAUGHT.initial_state(onslaught, [])
    decided = when(state, turn=3, victory=Outcome("German", "13.1", 40, "the Allied player has no units"))
    found = check(ONSLAUGHT, decided, Bombard(hex="0620", support=["x"], line=41))
    assert [(f.rule, f.line) for f in found] == [("13.1", 41)] and "nothing follows it" in found[0].message
    foreign = check(ONSLAUGHT, state, Bombard(hex="0620", support=["x"], line=5))
    assert [f.rule for f in foreign] == ["log"] and "Onslaught has no bombardment" in foreign[0].message
    allied = next(u for u, where in state.location.items() if onslaught.units_by_id[u].side == "Allied"
                  and onslaught.grid.is_label(where))
    moved = check(ONSLAUGHT, state, Move(unit=allied, path=[state.location[allied]] * 2, side="German", line=6))
    assert any(f.rule == "log" and "its owner, not German" in f.message for f in moved)


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_every_system_declares_its_entry_kinds(name: str) -> None:
    """Each system names its entry kinds, and explains every other system's kinds it refuses."""
    system = SYSTEMS[name]
    others = set().union(*(s.entry_kinds for s in SYSTEMS.values())) - system.entry_kinds
    assert {"header", "comment", "turn", "step"} <= system.entry_kinds
    assert others <= set(system.foreign_kinds)


def test_a_step_marker_is_checked_by_the_engine_for_onslaught(onslaught: Game) -> None:
    """Onslaught has handed the step order to the engine: its own checks say nothing of a step marker."""
    state = ONSLAUGHT.initial_state(onslaught, [])
    assert ONSLAUGHT.check_rules(state, StepMarker(step="reinforcement", line=2)) == []
    assert [f.rule for f in check(ONSLAUGHT, state, StepMarker(step="reinforcement", line=2))] == ["4.0"]


def test_a_roll_off_outside_the_action_step_is_refused_by_the_engine(onslaught: Game) -> None:
    """5.0 from the data: roll-offs belong to the Action Step; the engine cites the data's section and the
    system judges only what the entry's arrival brings about."""
    state = when(ONSLAUGHT.initial_state(onslaught, []), turn=1, step="reinforcement")
    roll = RollOff(rolls={"Allied": 7, "German": 2}, line=9)
    assert [(f.rule, f.line) for f in check(ONSLAUGHT, state, roll)] == [("5.0", 9)]
    assert "belongs to the Action Step" in check(ONSLAUGHT, state, roll)[0].message
    # In the Action Step the engine lets it through and the system's own 5.0 (a die is 1 to 6) speaks.
    in_step = check(ONSLAUGHT, when(state, step="action"), roll)
    assert [f.rule for f in in_step] == ["5.0"] and "1 to 6" in in_step[0].message


def test_the_german_reserve_step_allows_german_actions_only(onslaught: Game) -> None:
    """5.0 from the data: the German Reserve Step allows a German action, not an Allied one, nor a pass."""
    state = when(ONSLAUGHT.initial_state(onslaught, []), turn=1, step="german_reserve")
    assert check(ONSLAUGHT, state, Action(action="movement", side="German", line=4)) == []
    allied = check(ONSLAUGHT, state, Action(action="movement", side="Allied", line=4))
    assert [f.rule for f in allied] == ["5.0"] and "Allied may not write an 'action' entry" in allied[0].message
    assert [f.rule for f in check(ONSLAUGHT, state, Pass(side="German", line=5))] == ["5.0"]
    # The action type stays the system's rule (only movement in the German Reserve Step).
    assert [f.rule for f in check(ONSLAUGHT, state, Action(action="combat", side="German", line=6))] == ["5.0"]


def test_a_bombardment_outside_its_sides_own_phase_cites_8_1(omaha: Game) -> None:
    """8.1 from the data: a side bombards in its own Bombardment Phase only (the phasing side)."""
    sequence = turn_sequence(omaha.manifest)
    german_bombardment = next(i for i, s in enumerate(sequence) if s.id == "bombardment" and s.side == "German")
    state = at_phase(OMAHA.initial_state(omaha, []), turn=2, phase=german_bombardment)
    allied = check(OMAHA, state, Bombard(hex="0620", support=["x"], side="Allied", line=7))
    assert [(f.rule, f.line) for f in allied] == [("8.1", 7)]
    german = check(OMAHA, state, Bombard(hex="0620", support=["x"], side="German", line=7))
    assert all(f.rule != "8.1" or "may not write" not in f.message for f in german)
    movement = at_phase(state, phase=german_bombardment - 1)
    assert [f.rule for f in check(OMAHA, movement, Bombard(hex="0620", support=["x"], side="German", line=8))] == ["8.1"]


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_every_kind_the_sequence_allows_is_an_entry_of_the_system(game_id: str) -> None:
    """A misspelt kind in `[[sequence]]` entries would refuse nothing: each must be one of the system's."""
    game = load_game(data_root(), game_id)
    places = entry_places(turn_sequence(game.manifest))
    assert places and set(places) <= system_for(game).entry_kinds


def test_an_unknown_side_in_the_sequence_entries_is_a_data_error() -> None:
    """`side` is `any`, `phasing` or a side of the game."""
    game = load_game(data_root(), "onslaught")
    doc = record_data(game.manifest)
    doc["sequence"][0]["entries"] = [{"kind": "rolloff", "side": "Alied", "source": "5.0"}]
    with pytest.raises(ValueError, match="'Alied' is not 'any', 'phasing' or one of the sides"):
        TypeAdapter(GameManifest).validate_python(doc)
def test_a_path_stepping_beyond_the_edge_leaves_the_map(omaha: Game) -> None:
    """A label of the map's format next to the edge hex before it is a unit leaving the map (a rule question
    for the system); a label far off the map is a typo (the replay stops there with a suggestion)."""
    from adjudicator.engine import Resolver
    from adjudicator.notation.entries import Retreat
    resolver = Resolver(omaha, "game.log")
    leaving = Retreat(line=3, unit="914/352", path=["0101", "0100"])
    assert resolver.leaves_map(leaving) and resolver.first_problem(leaving) is None
    typo = Retreat(line=3, unit="914/352", path=["0101", "0199"])
    problem = resolver.first_problem(typo)
    assert not resolver.leaves_map(typo) and problem is not None and "0199" in problem.message


def test_syntax_errors_stop_the_replay_at_the_first_bad_line(onslaught: Game) -> None:
    """Every entry before the first bad line is adjudicated; each syntax error is a finding of the notation."""
    from adjudicator.notation.text import parse_text_partly
    entries, errors = parse_text_partly('[Game "onslaught"]\nTurn 1\nStep german_reserve\nTurn x\nStep action\n'
                                        'Turn y\n', "g.log")
    result = replay(onslaught, ONSLAUGHT, entries, file="g.log", syntax=errors)
    assert [(f.system, f.rule, f.line) for f in result.findings] == [("onslaught", "4.0", 3), ("notation", "syntax", 4),
                                                                    ("notation", "syntax", 6)]
    assert result.stopped is not None and result.stopped_line == 4 and result.applied == 3


def test_a_phase_typo_is_a_log_error_not_a_breach(tmp_path: Path) -> None:
    """`Phase combt` in an Omaha log stops the replay (exit 2) with a suggestion; no rule finding is made."""
    log = tmp_path / "typo.log"
    log.write_text('[Game "omaha"]\nTurn 1\nPhase combt\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--format", "json", str(log)])
    import json
    doc = json.loads(result.stdout)
    assert result.exit_code == 2 and [(f["system"], f["rule"]) for f in doc["findings"]] == [("notation", "ids")]
    assert "did you mean 'combat'" in doc["findings"][0]["message"] and doc["summary"]["stopped_line"] == 3


def _omaha_at(omaha: Game, phase: str | None, side: str | None, turn: int = 2) -> Any:
    """Omaha's set-up at a phase of a side's player turn (None, None: between `Turn` and its first phase)."""
    sequence = turn_sequence(omaha.manifest)
    index = None if phase is None else next(i for i, s in enumerate(sequence) if s.id == phase and s.side == side)
    state = OMAHA.initial_state(omaha, [])
    return at_phase(state, turn=turn, phase=index, location={**state.location, "914/352": "2117", "16/1": "2217"})


def test_a_move_outside_its_sides_movement_phases_is_refused_by_the_engine_citing_5_2(omaha: Game) -> None:
    """5.2 from the data (each phase's `entries`): a player moves his own units in his own Movement and Mobile
    Movement Phases only. The series no longer judges it: its own checks say nothing of the phase."""
    move = Move(unit="914/352", path=["2117", "2016"], line=7)
    for phase, side in (("movement", "Allied"), ("bombardment", "German"), ("combat", "German"), (None, None)):
        state = _omaha_at(omaha, phase, side)
        found = check(OMAHA, state, move)
        assert [(f.rule, f.line) for f in found] == [("5.2", 7)], (phase, side, found)
        assert "914/352" in found[0].message
        assert not any(f.rule == "5.2" for f in OMAHA.check_rules(state, move))
    for phase in ("movement", "mobile_movement"):
        assert not any(f.rule == "5.2" and "belongs" in f.message
                       for f in check(OMAHA, _omaha_at(omaha, phase, "German"), move))
    # The generators ask the same data: no German unit may move in the Allied player turn.
    assert not OMAHA.may_move(_omaha_at(omaha, "movement", "Allied"), "914/352")


def test_an_attack_outside_its_sides_combat_phases_is_refused_by_the_engine_citing_8_2(omaha: Game) -> None:
    """8.2 from the data: the active player attacks in his own Combat and Mobile Combat Phases only."""
    attack = Attack(hex="2117", attackers=["16/1"], die=3, line=9)
    for phase, side in (("movement", "Allied"), ("combat", "German"), ("mobile_movement", "Allied")):
        state = _omaha_at(omaha, phase, side)
        assert [(f.rule, f.line) for f in check(OMAHA, state, attack)] == [("8.2", 9)], (phase, side)
        assert OMAHA.check_rules(state, attack, kind_rules=False) == []
    combat = _omaha_at(omaha, "combat", "Allied")
    assert not any(f.rule == "8.2" for f in check(OMAHA, combat, attack))


def test_the_landing_before_gt_1_allows_the_beach_assaults_and_the_rangers_move_only(omaha: Game) -> None:
    """11.2: before GT 1 the opening of the sequence is in force: it allows the Allied attacks (the beach
    assaults, 11.2.3) and the Rangers' move (11.2.3); any other move or attack breaks the turn's rule (5.2,
    8.2), which the engine cites rather than the landing's exception."""
    state = OMAHA.initial_state(omaha, [])
    opening = opening_slot(omaha.manifest)
    assert slot_at(turn_sequence(omaha.manifest), opening, 0, None, None) is opening
    german = check(OMAHA, evolve(state, location={**state.location, "914/352": "2117"}),
                   Move(unit="914/352", path=["2117", "2016"], line=3))
    assert [f.rule for f in german] == ["5.2"] and "before the first turn" in german[0].message
    landed = evolve(state, location={**state.location, "16/1": "2319"})
    assert [f.rule for f in check(OMAHA, landed, Move(unit="16/1", path=["2319", "2218"], line=4))] == ["5.2"]
    rangers = evolve(state, location={**state.location, "2Rgr": "2417"}, pointe_du_hoc=5)
    assert check(OMAHA, rangers, Move(unit="2Rgr", path=["2417", "2317"], line=5)) == []
    assert OMAHA.may_move(rangers, "2Rgr") and not OMAHA.may_move(landed, "16/1")
    beach = check(OMAHA, landed, Attack(hex="2319", attackers=["16/1"], line=6))
    assert not any(f.rule in ("8.2", "5.2") for f in beach)
    by_german = check(OMAHA, evolve(state, location={**state.location, "914/352": "2218", "16/1": "2319"}),
                      Attack(hex="2319", attackers=["914/352"], side="German", die=3, line=7))
    assert [f.rule for f in by_german] == ["8.2"]


def test_an_allowance_for_some_unit_types_only_and_the_opening_are_checked_data() -> None:
    """`unit_types` names unit types of the game; one item at most comes before the first turn, first, and
    not inside another."""
    game = load_game(data_root(), "omaha")
    doc = record_data(game.manifest)
    doc["sequence"][0]["entries"][1]["unit_types"] = ["rangers"]
    with pytest.raises(ValueError, match="unit type 'rangers' is not one of the game's unit types"):
        TypeAdapter(GameManifest).validate_python(doc)
    doc = record_data(game.manifest)
    doc["sequence"][1]["before_first_turn"] = True
    with pytest.raises(ValueError, match="one item at most is played before the first turn"):
        TypeAdapter(GameManifest).validate_python(doc)
    doc = record_data(game.manifest)
    doc["sequence"][1]["items"][0]["before_first_turn"] = True
    with pytest.raises(ValueError, match="belongs to a top-level"):
        TypeAdapter(GameManifest).validate_python(doc)


def test_a_placement_is_its_units_owners_to_write_the_engine_says(omaha: Game, onslaught: Game) -> None:
    """`German: setup 26/1`: the engine's author check, not the series' (one finding, `log`); Onslaught keeps
    its own sections for a division of the other side placed (EngineChecks.placements)."""
    state = OMAHA.initial_state(omaha, [])
    placed = Place(how="setup", unit="26/1", hex="2318", side="German", line=4)
    found = check(OMAHA, state, placed)
    assert [(f.rule, f.line) for f in found] == [("log", 4)] and "its owner, not German" in found[0].message
    assert not any(f.rule == "log" for f in OMAHA.check_rules(state, placed))
    assert OMAHA.engine_checks.placements and not ONSLAUGHT.engine_checks.placements
    reinforce = Place(how="reinforce", unit="ss-pz-05", hex="4510", side="Allied", line=5)
    assert not any(f.rule == "log" for f in check(ONSLAUGHT, ONSLAUGHT.initial_state(onslaught, []), reinforce))


def test_income_and_captures_belong_to_the_reinforcement_step(onslaught: Game) -> None:
    """8.1, 8.7 from the data: supply income in the Reinforcement Step (either side), captures there by the
    German player only; the engine refuses them elsewhere, and Onslaught's own checks say nothing of the step."""
    state = when(ONSLAUGHT.initial_state(onslaught, []), turn=2, step="action")
    income = Income(side="German", points=8, line=3)
    assert [(f.rule, f.line) for f in check(ONSLAUGHT, state, income)] == [("8.1", 3)]
    assert "Reinforcement Step" in check(ONSLAUGHT, state, income)[0].message
    assert not any(f.rule == "8.1" for f in ONSLAUGHT.check_rules(state, income))
    assert not any(f.rule == "8.1" for f in check(ONSLAUGHT, when(state, step="reinforcement"), income))
    capture = Capture(side="German", hex="0620", line=4)
    assert [f.rule for f in check(ONSLAUGHT, state, capture)] == ["8.7"]
    allied = check(ONSLAUGHT, when(state, step="reinforcement"), Capture(side="Allied", hex="0620", line=5))
    assert [f.rule for f in allied] == ["8.7"] and "Allied may not write a 'capture' entry" in allied[0].message


def test_set_up_and_reinforcements_belong_to_their_step(omaha: Game) -> None:
    """11.0 and 4.1 from the data (`how` of an allowance): set-up placements before GT 1 only, reinforcements
    in their side's Movement Phase; other placements (11.2.5's replacements) are not the sequence's."""
    setup = Place(how="setup", unit="914/352", hex="2016", side="German", line=3)
    late = _omaha_at(omaha, "movement", "German")
    assert [(f.rule, f.line) for f in check(OMAHA, late, setup)] == [("11.0", 3)]
    assert not any(f.rule == "11.0" for f in OMAHA.check_rules(late, setup))
    assert check(OMAHA, OMAHA.initial_state(omaha, []), setup) == []
    reinforce = Place(how="reinforce", unit="Sch/30", hex="1005", side="German", line=4)
    for phase, side in (("movement", "Allied"), ("bombardment", "German")):
        found = check(OMAHA, _omaha_at(omaha, phase, side, turn=1), reinforce)
        assert [f.rule for f in found] == ["4.1"] and "'place' entry ('reinforce')" in found[0].message
    assert check(OMAHA, _omaha_at(omaha, "movement", "German", turn=1), reinforce) == []
    assert [f.rule for f in check(OMAHA, OMAHA.initial_state(omaha, []), reinforce)] == ["4.1"]
