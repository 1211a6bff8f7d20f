"""Logs made the way players really make them (the s21 audit): headers typed in chat, several saves appended,
undo, dice rolled again, stacks dragged whole, counters deleted, chat that looks like notation, long logs. Each
case is one the reader translated otherwise than a tournament director reads the game."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from adjudicator.engine import replay
from adjudicator.notation.entries import Header, Loss, Move, Place, RollOff
from adjudicator.notation.text import write_entry
from adjudicator.systems import system_for
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.result import Translation
from test_vassal_paths import OmahaSession, typed
from test_vassal_reader import Session
from test_vassal_real_play import typed_from

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN = ROOT / "examples" / "omaha" / "breach-campaign-length.log"


def errors(session: Session, path: Path) -> tuple[Translation, list[str]]:
    """The translation of the session's log and the errors its replay finds."""
    translation = translate_file(session.write(path))
    findings = replay(session.game, system_for(session.game), translation.entries).findings
    return translation, [f"{f.line} {f.rule}: {f.message}" for f in findings if f.severity == "error"]


def test_a_scenario_typed_in_chat_is_the_games_scenario(tmp_path: Path) -> None:
    """Players tell the referee the scenario by typing its header, `[Scenario "campaign"]`, as a text log gives
    it. Omaha's campaign game and its first scenario have the same set-up, so the saved position cannot tell them
    apart; the reader took the first listed (beach_to_bocage) before reading the chat, so the typed header came
    too late for the dice (the campaign's weather die read as a die of nothing, 14.1 being in force there only)
    and contradicted the header it had written (a false `log` error), and the game was judged as the wrong
    scenario."""
    s = OmahaSession()
    s.chat("a", '[Scenario "campaign"]')
    typed(s, CAMPAIGN, 38)          # the set-up and GT 1, up to GT 2's `Phase support_fire_marker`
    s.roll("b", 3)                  # the German weather die, from the button
    typed_from(s, CAMPAIGN, 40, 57)
    translation, found = errors(s, tmp_path / "campaign.vlog")
    assert translation.scenario == "campaign"   
    headers = [e.value for e in translation.entries if isinstance(e, Header) and e.key == "Scenario"]
    assert headers == ["campaign"], headers
    assert [e.rolls for e in translation.entries if isinstance(e, RollOff)][-1] == {"German": 3}
    assert found == [], found


def test_a_scenario_typed_after_play_began_names_it_too(tmp_path: Path) -> None:
    """The header typed late (after the set-up, as players remember it) still names the game's scenario: the
    rules read every header from the start, as in a text log."""
    s = OmahaSession()
    typed(s, CAMPAIGN, 38)
    s.chat("b", '[Scenario "campaign"]')
    s.roll("b", 3)
    typed_from(s, CAMPAIGN, 40, 57)
    translation, found = errors(s, tmp_path / "late.vlog")
    assert translation.scenario == "campaign"   
    assert [e.rolls for e in translation.entries if isinstance(e, RollOff)][-1] == {"German": 3}
    assert found == [], found


def test_an_unknown_scenario_typed_is_a_note(tmp_path: Path) -> None:
    """A misspelt scenario is a note with a "did you mean", not a header the adjudication stops on."""
    s = OmahaSession()
    s.chat("a", '[Scenario "campain"]')
    translation, found = errors(s, tmp_path / "misspelt.vlog")
    notes = [n.message for n in translation.notes if "campain" in n.message] 
    assert notes and "did you mean 'campaign'" in notes[0], notes
    assert found == [], found


def test_a_scenario_typed_in_a_later_log_of_a_chain(tmp_path: Path) -> None:
    """A game in two logs, the scenario typed in the second (the player remembered it late): it is the game's
    header, as a later exchange's would be, so the first log's dice are read for it and no `log` error says the
    typed header contradicts the one the reader had guessed from the board."""
    from test_vassal_chain import cut, verdict

    s = OmahaSession()
    typed(s, CAMPAIGN, 38)
    steps = len(s.steps)
    s.chat("b", '[Scenario "campaign"]')
    s.roll("b", 3)
    typed_from(s, CAMPAIGN, 40, 57)
    _, parts = cut(s, [steps], tmp_path)
    code, doc = verdict(*parts)
    found = [f"{f['file']} {f['line']} {f['rule']}: {f['message']}"
             for f in cast(list[dict[str, object]], doc["findings"]) if f["severity"] == "error"]
    assert found == [] and code == 0, found
    assert [f["scenario"] for f in cast(list[dict[str, object]], doc["files"])] == ["campaign", "campaign"]


def test_a_counter_dragged_back_where_it_began_did_not_move(tmp_path: Path) -> None:
    """A counter picked up and put back where its drag began (a player changing his mind without VASSAL's Undo):
    the counter did not move. The reader joined the two drags into one move out and back, so a German counter
    touched in the Allied player's action was a move without an action (a false Onslaught 5.2), and a division
    put back after another was moved was a second move in one action (a false 6.1)."""
    s = Session()
    s.drag("de-inf-21", "2708", "b")
    s.drag("de-inf-21", "2707", "b")             # back: nothing written between
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.drag("us-inf-01", "0520")
    s.drag("us-inf-02", "0520")
    s.drag("us-inf-01", "0620")                  # back, after another division's drag
    translation, found = errors(s, tmp_path / "back.vlog")
    moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
    assert moves == ["us-inf-02 0620-0520"], moves
    assert found == [], found


def test_a_drag_back_after_a_declaration_is_a_move(tmp_path: Path) -> None:
    """Only a drag with nothing but other drags since is taken back: a counter moved, then an attack declared,
    then the counter dragged back is two moves (the rules judge the second)."""
    s = Session()
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.drag("us-inf-01", "0520")
    s.chat("a", "Allied: action movement supply 1")
    s.drag("us-inf-01", "0620")
    translation, _ = errors(s, tmp_path / "twice.vlog")
    moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
    assert moves == ["us-inf-01 0620-0520", "us-inf-01 0520-0620"], moves


def _attack_rolled(*dice: tuple[str, int]) -> Session:
    """An Onslaught combat action whose attack takes the next Allied die, then the dice given."""
    s = Session()
    for text in ("Allied: action combat supply 1", "Allied: activate 0620 supply 1",
                 "Allied: attack 0621 with us-inf-01 us-inf-02"):
        s.chat("a", text)
    for player, value in dice:
        if player == "chat":
            s.chat("a", "reroll, misclick")
        else:
            s.roll(player, value)
    return s


def test_a_die_rolled_again_for_a_combat_is_noted(tmp_path: Path) -> None:
    """The attack's die rolled, then rolled again ("reroll, misclick") and the second result played: the first
    die is the attack's (dice are recorded outcomes), and the reroll is said at its step, where the referee looks
    for why the result carried out is not the die's. The reader wrote the second die as a comment, nothing more."""
    s = _attack_rolled(("a", 1), ("chat", 0), ("a", 5))
    translation, _ = errors(s, tmp_path / "reroll.vlog")
    assert [e.die for e in translation.entries if getattr(e, "kind", "") == "attack"] == [1]
    notes = [(n.step, n.message) for n in translation.notes if "rolls again" in n.message]
    assert len(notes) == 1 and notes[0][0] == 6 and "whose die was rolled at step 4 (1)" in notes[0][1], notes


def test_the_roll_off_after_a_combat_is_no_reroll(tmp_path: Path) -> None:
    """Onslaught 5.0: after an attack with no result to carry out, the next dice are the roll-off's, the
    attacker's first: no reroll."""
    s = _attack_rolled(("a", 4), ("a", 3), ("b", 5))
    translation, _ = errors(s, tmp_path / "rolloff.vlog")
    assert [e.rolls for e in translation.entries if isinstance(e, RollOff)] == [{"Allied": 3, "German": 5}]
    assert not [n for n in translation.notes if "rolls again" in n.message], translation.notes


def test_a_stack_dragged_whole_in_legs_moves_once(tmp_path: Path) -> None:
    """A stack dragged whole (one step, a drag of each counter) and dragged on the same way: each division's legs
    are its one move, as a counter dragged on alone. The reader joined legs only with nothing written between, so
    the second counter of the stack broke the first's chain: two false 6.1 errors ("already moved")."""
    s = Session()
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    for hex_label in ("0520", "0420"):
        x, y = s.pixel(hex_label)
        s.step(*(s.move_command(unit, ("Main Map", x, y)) for unit in ("us-inf-01", "us-inf-02")))
    translation, found = errors(s, tmp_path / "stack.vlog")
    moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
    assert moves == ["us-inf-01 0620-0520-0420", "us-inf-02 0620-0520-0420"], moves
    assert found == [], found


def test_a_division_moved_after_another_is_moved_again(tmp_path: Path) -> None:
    """Only the counters dragged together join their legs: a division dragged, another dragged, the first dragged
    on is two moves of the first (the rules judge the second, Onslaught 6.1)."""
    s = Session()
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.drag("us-inf-01", "0520")
    s.drag("us-inf-02", "0520")
    s.drag("us-inf-01", "0420")
    translation, found = errors(s, tmp_path / "apart.vlog")
    moves = [write_entry(e) for e in translation.entries if isinstance(e, Move)]
    assert moves == ["us-inf-01 0620-0520", "us-inf-02 0620-0520", "us-inf-01 0520-0420"], moves
    assert [f.split(":")[0] for f in found] == ["5 6.1"], found


def test_the_turn_and_step_typed_where_the_log_begins(tmp_path: Path) -> None:
    """Players begin the log as a text log begins, typing `Turn 1` and `Step action` while the tracker already shows
    them in the saved position: those are its markers, not second ones. The reader wrote the tracker's markers and
    the typed ones too, two false 4.0 errors ("turn 1 follows turn 1", "turn 1 ends without its Reinforcement
    Step")."""
    s = Session()
    for text in ("Turn 1", "Step action", "Allied: action movement supply 2", "Allied: activate 0620 supply 1"):
        s.chat("a", text)
    s.drag("us-inf-01", "0520")
    translation, found = errors(s, tmp_path / "typed-turn.vlog")
    assert [write_entry(e) for e in translation.entries if e.as_turn_marker() or e.as_step_marker()] == \
        ["Turn 1", "Step action"]
    assert found == [], found


def test_the_step_typed_where_a_later_log_of_a_chain_begins(tmp_path: Path) -> None:
    """The same in the next log of a game: its player types the step the game is at, which the log before left
    the tracker at (the reader wrote a second `Step`, a false 4.0)."""
    from test_vassal_chain import cut, verdict

    s = Session()
    s.chat("a", "Allied: pass")
    s.chat("b", "German: pass")                       # two passes end the Action Step (5.0)
    s.tracker(1, 1)                                   # the German Reserve Step; the first log ends here
    s.chat("b", "Step german_reserve")
    s.tracker(1, 2)
    _, parts = cut(s, [3], tmp_path)
    code, doc = verdict(*parts)
    found = [f"{f['file']} {f['line']} {f['rule']}: {f['message']}"
             for f in cast(list[dict[str, object]], doc["findings"]) if f["severity"] == "error"]
    assert found == [] and code == 0, found


def test_an_unknown_optional_rule_typed_is_a_note(tmp_path: Path) -> None:
    """`[Optional "..."]` naming no optional rule of the game stopped the whole verdict (exit 2, nothing judged),
    where any other chat line that does not read is a note."""
    s = Session()
    s.chat("a", '[Optional "alied_cooperation"]')
    s.chat("a", "Allied: action movement supply 2")
    translation, found = errors(s, tmp_path / "optional.vlog")
    notes = [n.message for n in translation.notes if "alied_cooperation" in n.message]
    assert notes and "did you mean 'allied_cooperation'" in notes[0], notes
    assert found == [], found


def test_a_counter_taken_from_the_palette_by_mistake_and_deleted(tmp_path: Path) -> None:
    """A counter dragged from the palette onto the map by mistake and deleted at once: nothing happened. The reader
    wrote a reinforcement in the Action Step and an elimination no combat calls for: two false errors (Onslaught
    10.1, 7.2)."""
    s = Session()
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.add("us-inf-03", "0720")
    s.step("-/new-1")
    s.drag("us-inf-01", "0520")
    translation, found = errors(s, tmp_path / "palette.vlog")
    assert not [e for e in translation.entries if isinstance(e, (Loss, Place))], translation.entries
    assert found == [], found


def test_a_counter_deleted_by_mistake_and_put_back(tmp_path: Path) -> None:
    """A counter deleted by mistake (Ctrl+D) and put back on its hex from the palette at once is no elimination and
    no replacement, and no note on a loss stays behind."""
    s = Session()
    s.chat("a", "Allied: action movement supply 2")
    s.chat("a", "Allied: activate 0620 supply 1")
    s.delete("us-inf-02")
    s.add("us-inf-02", "0620")
    s.drag("us-inf-01", "0520")
    translation, found = errors(s, tmp_path / "deleted.vlog")
    assert not [e for e in translation.entries if isinstance(e, (Loss, Place))], translation.entries
    assert [write_entry(e) for e in translation.entries if isinstance(e, Move)] == ["us-inf-01 0620-0520"]
    assert not translation.notes, translation.notes
    assert found == [], found


def test_a_die_undone_and_rolled_again_is_noted(tmp_path: Path) -> None:
    """VASSAL's Undo takes a die back and the die rolled again is the attack's, as before; but the verdict said
    nothing of the roll taken back (a comment only), where a referee looks first."""
    s = _attack_rolled(("a", 1))
    s.undo("MutableProperty\t1d6_result\t1\t0\tModule")
    s.roll("a", 5)
    translation, _ = errors(s, tmp_path / "undone.vlog")
    assert [e.die for e in translation.entries if getattr(e, "kind", "") == "attack"] == [5]
    notes = [(n.step, n.message) for n in translation.notes if "after undoing" in n.message]
    assert len(notes) == 1 and notes[0][0] == 6 and "the roll of step 4 (1)" in notes[0][1], translation.notes


def test_a_set_up_counter_adjusted_before_play_begins(tmp_path: Path) -> None:
    """Omaha 11.0: a German unit set up by dragging it from its box onto 2118, then dragged on to 2117 before play
    begins, is set up at 2117. The reader wrote the second drag as a move before the first turn: a false Fire &
    Movement 5.2 (only the Rangers move then)."""
    s = OmahaSession()
    s.drag("914/352", "2118", "b")
    s.drag("914/352", "2117", "b")
    s.drag("915/352", "2021", "b")
    translation, found = errors(s, tmp_path / "adjusted.vlog")
    placed = [write_entry(e) for e in translation.entries if isinstance(e, Place)]
    assert placed == ["German: setup 914/352 2117", "German: setup 915/352 2021"], placed
    assert not [f for f in found if " 5.2:" in f], found
    assert not [e for e in translation.entries if isinstance(e, Move)]


def test_a_retreat_dragged_hex_by_hex_is_one_retreat(tmp_path: Path) -> None:
    """A DR's defender dragged back one hex, then one more: one retreat of two hexes (Onslaught 7.3). Only moves'
    legs were joined, so the first leg was a one-hex retreat where two were open and the second a retreat again:
    two false 7.3 errors."""
    s = _attack_rolled(("a", 5))                 # DR at 2:1
    s.drag("de-inf-04", "0622", "b")
    s.drag("de-inf-04", "0623", "b")
    s.drag("us-inf-01", "0621")
    translation, found = errors(s, tmp_path / "legs.vlog")
    retreats = [write_entry(e) for e in translation.entries if getattr(e, "kind", "") == "retreat"]
    assert retreats == ["German> retreat de-inf-04 0621-0622-0623"], retreats
    assert found == [], found


def _weather_and_markers_in_gt2(s: OmahaSession, tmp_path: Path) -> list[Path]:
    """Omaha's weather example typed to GT 1's end, the tracker on GT 2 (where the first log ends), then the German
    6, the Allied 1 and the German 1: the two logs of the chain cut there."""
    from test_vassal_chain import cut

    typed(s, ROOT / "examples" / "omaha" / "breach-weather-allowance.log", 37)   # to GT 1's end
    s.tracker(2, 0)                                                              # GT 2; the first log ends here
    first = len(s.steps)
    s.roll("b", 6)
    s.roll("a", 1)
    s.roll("b", 1)
    _, parts = cut(s, [first], tmp_path)
    return parts


def test_an_optional_rule_typed_in_an_earlier_log_of_a_chain(tmp_path: Path) -> None:
    """`[Optional "weather"]` typed in the first log of a game is in force in the next: GT 2's German die there is
    the weather roll (Omaha 14.1), and after its 6 each side's die is its roll for the markers put aside. The
    reader read the typed option in its own log only, so the next log's dice were dice of nothing."""
    from adjudicator.vassal.chain import read_chain

    s = OmahaSession()
    s.chat("a", '[Optional "weather"]')
    parts = _weather_and_markers_in_gt2(s, tmp_path)
    chain = read_chain(parts, lambda p: None)
    rolls = [e.rolls for e in chain.parts[1].entries if isinstance(e, RollOff)]
    assert rolls == [{"German": 6}, {"Allied": 1}, {"German": 1}], rolls


def test_an_optional_rule_in_a_text_log_s_headers_carries_into_the_vassal_log_after_it(tmp_path: Path) -> None:
    """`[Optional "weather"]` as a header of the text log a VASSAL log continues is in force there, as one typed in
    an earlier VASSAL log's chat is: GT 2's German die is the weather roll (Omaha 14.1), then each side's die for
    the markers put aside. The reader carried only options typed in chat, so the dice read as a roll-off."""
    from test_vassal_chain import run

    s = OmahaSession()
    parts = _weather_and_markers_in_gt2(s, tmp_path)
    text = tmp_path / "01.log"
    assert run("convert", parts[0], "-o", text)[0] == 0
    lines = text.read_text(encoding="utf-8").splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("[Scenario")) + 1
    text.write_text("\n".join([*lines[:at], '[Optional "weather"]', *lines[at:]]) + "\n", encoding="utf-8")
    whole = tmp_path / "whole.log"
    assert run("convert", text, parts[1], "-o", whole)[0] == 0
    rolls = [line for line in whole.read_text(encoding="utf-8").splitlines() if line.startswith("Roll")]
    assert rolls[-3:] == ["Roll German 6", "Roll Allied 1", "Roll German 1"], rolls
