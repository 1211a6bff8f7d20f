"""The path the VASSAL reader supplies for a drag recorded by its end points only is the one the rule
system's own movement model allows in the position reached (issue 14, house style 13): the reader and the
checker agree, where the reader's former copy of the movement rules (terrain chart, zones of control that
stop every unit) did not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.engine import replay
from adjudicator.notation.entries import Advance, Comment, Move
from adjudicator.notation.text import parse_text, write_entry
from adjudicator.systems.omaha import OMAHA
from adjudicator.systems.onslaught.system import ONSLAUGHT
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.movement import Followed, Follower, Lost
from test_vassal_reader import Session, game, run

ROOT = Path(__file__).resolve().parent.parent


class OmahaSession(Session):
    """A log on the recorded Omaha saved position (every unit in its box, GT 1's first phase)."""

    FILE = "omaha-session.vlog"
    GAME = "omaha"


def typed(session: Session, log: Path, last_line: int) -> None:
    """The log's lines up to `last_line` typed in chat, one a step (its headers and the first turn's
    markers aside: the recording has the game and the turn tracker gives them)."""
    skipped = {"Turn 1", "Phase support_fire_marker"}
    for line in log.read_text(encoding="utf-8").splitlines()[:last_line]:
        words = line.split("#", 1)[0].strip()
        if not words or words.startswith("["):
            continue
        if words in skipped:
            skipped.discard(words)
            continue
        session.chat("a", words)


def test_a_ranger_drag_through_enemy_zones_of_control(tmp_path: Path) -> None:
    """Omaha 11.2.3: rangers ignore enemy zones of control. On GT 2 of the sample game 2Rgr is dragged from
    Grandcamp (2315) to 2118; the only path within its allowance runs 2317-2217-2118 beside 914/352 (2218),
    in its zone. The reader follows the game typed in chat and asks Omaha's movement model, so the path is
    that one and the move adjudicates clean. The former reader knew only the counters (the German ones still
    in their box: the game was typed) and ran the ranger into 2218, which 914/352 holds (5.2d); with the
    counters on the board it stopped every unit in an enemy zone of control and found no path (5.1)."""
    log = ROOT / "examples" / "omaha" / "legal-sample-game.log"
    s = OmahaSession()
    typed(s, log, 94)  # up to GT 2's Allied Movement Phase
    s.drag("2Rgr", "2315")  # the counter to where the typed log has it (its retreat to Grandcamp)
    s.drag("2Rgr", "2118")
    vlog = s.write(tmp_path / "ranger.vlog")
    translation = translate_file(vlog)
    moves = [e for e in translation.entries if isinstance(e, Move) and e.unit == "2Rgr"]
    assert [m.path for m in moves][-1] == ["2315", "2316", "2317", "2217", "2118"]
    why = translation.endpoint_moves[translation.entries.index(moves[-1])]
    assert "path supplied by the reader: the cheapest by the omaha movement rules for 2Rgr in the position " \
           "reached" in why
    assert any(isinstance(e, Comment) and e.text.endswith(why) for e in translation.entries)
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_a_drag_kept_off_a_major_waterway_crossing(tmp_path: Path) -> None:
    """Onslaught 6.5: crossing the Scheldt estuary takes the whole movement allowance, so it is a move's first
    and only hex. de-inf-20 is dragged from 2608 to 2908 in a Movement action: the reader asks Onslaught's
    movement model, whose path 2708-2808-2908 stays on the near side, and the move adjudicates clean. The
    former reader counted every hex alike and crossed the estuary twice, 2708-2807-2908 (6.5)."""
    s = Session()
    s.chat("a", "Allied: pass")
    s.chat("a", "Roll Allied 2 German 5")  # 5.0: the players roll after a pass for the next action
    s.chat("b", "German: action movement supply 1")
    s.chat("b", "German: activate 2608 supply 1")
    s.drag("de-inf-20", "2908", "b")
    vlog = s.write(tmp_path / "estuary.vlog")
    translation = translate_file(vlog)
    moves = [e for e in translation.entries if isinstance(e, Move)]
    assert [(m.unit, m.path) for m in moves] == [("de-inf-20", ["2608", "2708", "2808", "2908"])]
    assert "by the onslaught movement rules for de-inf-20 in the position reached" in \
        translation.endpoint_moves[translation.entries.index(moves[0])]
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_the_follower_applies_again_from_an_entry_rewritten() -> None:
    """The reader's follower gives the replay's position after the entries so far; an entry replaced later (a
    die filled in, a typed path) is applied again from there; an entry the rule system cannot apply (an
    unknown unit) leaves the position before it, with the entry's line and why, until it is replaced."""
    onslaught = game("onslaught")
    entries = parse_text((ROOT / "examples" / "onslaught" / "legal-rule-4.1-turn1.log").read_text(encoding="utf-8"))
    follower = Follower(onslaught, ONSLAUGHT, "turn1.log")

    def places(followed: Followed[object] | Lost) -> dict[str, list[str]]:
        assert isinstance(followed, Followed) and followed.lost is None
        return ONSLAUGHT.position(followed.state).places()  # type: ignore[arg-type]

    half = len(entries) // 2
    assert places(follower.follow(entries[:half])) == ONSLAUGHT.position(
        replay(onslaught, ONSLAUGHT, entries[:half]).final_state).places()
    assert places(follower.follow(entries)) == ONSLAUGHT.position(replay(onslaught, ONSLAUGHT, entries).final_state).places()
    move = next(i for i, e in enumerate(entries) if isinstance(e, Move) and e.unit == "br-inf-02")
    rewritten = [*entries[:move], replace(entries[move], path=["0821", "0822"]), *entries[move + 1:]]
    assert "br-inf-02" in places(follower.follow(rewritten))["0822"]
    broken = [*entries[:move], replace(entries[move], unit="xx-inf-99"), *entries[move + 1:]]
    followed = follower.follow(broken)
    assert isinstance(followed, Followed) and followed.lost is not None
    assert followed.lost.line == entries[move].line and "unknown unit 'xx-inf-99'" in followed.lost.reason
    assert ONSLAUGHT.position(followed.state).places() == ONSLAUGHT.position(  # type: ignore[arg-type]
        replay(onslaught, ONSLAUGHT, entries[:move]).final_state).places()
    assert places(follower.follow(entries)) == ONSLAUGHT.position(replay(onslaught, ONSLAUGHT, entries).final_state).places()


def test_a_game_the_reader_cannot_set_up_gets_no_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the rule system cannot set up leaves the reader no set-up to follow (nor `check` any): a long drag is
    written by its end points, with a comment saying why. (An unknown optional rule typed in chat did this; it is a
    reader's note now, so the set-up is made to fail here.)"""
    from adjudicator.notation.entries import Header
    from adjudicator.systems.onslaught.system import Onslaught
    from wargame.errors import ReplayError
    from wargame.game import Game

    original = Onslaught.initial_state

    def refused(self: Onslaught, game: Game, headers: list[Header]) -> object:
        if any(h.key == "Game" for h in headers):   # the game's set-up, not the saved position's comparison
            raise ReplayError("the set-up refused")
        return original(self, game, headers)
    monkeypatch.setattr(Onslaught, "initial_state", refused)
    s = Session()
    s.drag("de-inf-20", "2908", "b")
    translation = translate_file(s.write(tmp_path / "nonsense.vlog"))
    moves = [e for e in translation.entries if isinstance(e, Move)]
    assert [(m.unit, m.path) for m in moves] == [("de-inf-20", ["2608", "2908"])]
    why = translation.endpoint_moves[translation.entries.index(moves[0])]
    assert "no path joins them by the onslaught rules (the reader could not set up the game: the set-up refused" in why


def test_an_attackers_drag_after_a_retreat_result_is_its_retreat(tmp_path: Path) -> None:
    """Fire & Movement 8.2.4: A2 makes the attackers retreat two hexes. The attacker's drag after the result is
    the retreat Omaha's rules owe it (the reader asks the model's retreat options), by one of the legal
    paths, and nothing is found wrong with it (the former reader wrote every attacker's drag as an advance,
    which 8.5 allows after D2 and D3 only)."""
    s = OmahaSession()
    for unit, label in (("914/352", "2218"), ("915/352", "2021"), ("916/352", "2022"), ("16/1", "2217")):
        s.drag(unit, label, "b" if unit.endswith("352") else "a")
    s.tracker(2, 3)  # GT 2's Allied Combat Phase
    s.chat("a", "Allied: attack 2218 with 16/1")
    s.roll("a", 4)  # A2 on this attack's line
    s.drag("16/1", "2215")
    vlog = s.write(tmp_path / "attacker-retreat.vlog")
    translation = translate_file(vlog)
    text = [write_entry(e) for e in translation.entries if not isinstance(e, Comment)]
    assert "Allied: attack 2218 with 16/1 die 4" in text
    assert text[-1] == "Allied: retreat 16/1 2217-2216-2215"
    why = translation.endpoint_moves[len(translation.entries) - 1]
    assert "a retreat allowed by the omaha retreat rules for 16/1 in the position reached" in why
    # The game is decided by then in `check` (no beach hex held on GT 1, 13.0): the retreat is judged by the
    # rule system's own checks in the position before it.
    before = Follower(translation.game, OMAHA, "attacker-retreat.vlog").follow(translation.entries[:-1])
    assert isinstance(before, Followed) and before.lost is None
    assert OMAHA.check_rules(before.state, translation.entries[-1]) == []


def test_an_advance_drag_follows_the_path_of_retreat(tmp_path: Path) -> None:
    """Fire & Movement 8.5: an attacker advances along the defender's path of retreat. In the Omaha sample game's
    GT 1 combat, 914/352 retreats 2218-2118-2018 and 26/1 is dragged from 2318 to 2118: the reader asks the model
    for the advances the result allows and gives 2318-2218-2118, the path the checker accepts."""
    log = ROOT / "examples" / "omaha" / "legal-sample-game.log"
    s = OmahaSession()
    typed(s, log, 114)  # up to the retreats after the attack on 2218
    s.drag("26/1", "2318")  # the counter to where the typed log has it
    s.drag("26/1", "2118")
    vlog = s.write(tmp_path / "advance.vlog")
    translation = translate_file(vlog)
    advances = [e for e in translation.entries if isinstance(e, Advance) and e.unit == "26/1"]
    assert [a.path for a in advances] == [["2318", "2218", "2118"]]
    why = translation.endpoint_moves[translation.entries.index(advances[0])]
    assert "an advance allowed" in why and "advance rules for 26/1" in why
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_advance_options_are_the_advances_the_checker_accepts() -> None:
    """Both systems' `advance_options` list exactly the advances their checkers accept: every listed path is
    clean, and each other path of the same length from the unit's hex, into the defender's hex first, is not."""
    from adjudicator.systems import SYSTEMS
    from wargame.bundled import data_root
    from wargame.game import load_game

    cases = [("omaha", ROOT / "examples" / "omaha" / "legal-sample-game.log", 114, "26/1",
              [("2318", "2218"), ("2318", "2218", "2118")]),
             ("onslaught", ROOT / "examples" / "onslaught" / "legal-combat.log", 8, "us-inf-01", [("0620", "0621")])]
    for game_id, path, last, unit, expected in cases:
        g = load_game(data_root(), game_id)
        system = SYSTEMS[game_id]
        lines = path.read_text(encoding="utf-8").splitlines()[:last]
        state = replay(g, system, parse_text("\n".join(lines))).final_state
        model = system.movement
        assert model is not None
        options = {o.unit: o.paths for o in model.advance_options(state)}
        assert options[unit] == tuple(expected), (game_id, options)
        grid = g.grid
        start, hex_ = expected[0][0], expected[0][1]
        tried = [(start, hex_)] + [(start, hex_, grid.label_of(n)) for n in grid.neighbours_on_map(grid.hex_of(hex_))]
        for candidate in tried:
            found = system.check_rules(state, Advance(unit=unit, path=list(candidate)))
            assert (not any(f.severity == "error" for f in found)) == (candidate in expected), (game_id, candidate)


def test_an_armor_advance_drag_enters_the_vacated_hex_first() -> None:
    """Onslaught 7.4: armor advances into the vacated hex, then may go one hex further. In the sample game br-arm-01
    at 0721 takes part in the attack on 0722 (DE); a drag of it to 0821, next to both 0721 and 0722, is the
    advance 0721-0722-0821 the model allows. The cheapest path by movement costs, which the reader used to take,
    is the direct step 0721-0821: an advance that skips the vacated hex (7.4)."""
    from adjudicator.systems import SYSTEMS
    from adjudicator.vassal.movement import choose_path
    from wargame.bundled import data_root
    from wargame.game import load_game
    from wargame.paths import cheapest_path

    g = load_game(data_root(), "onslaught")
    lines = (ROOT / "examples" / "onslaught" / "legal-sample-game.log").read_text(encoding="utf-8").splitlines()
    state = replay(g, ONSLAUGHT, parse_text("\n".join(lines[:197]))).final_state
    grid = g.grid
    start, end = grid.hex_of("0721"), grid.hex_of("0821")
    assert start.is_adjacent(end) and grid.hex_of("0722").is_adjacent(end)
    chosen = choose_path(SYSTEMS["onslaught"], Followed(state), "br-arm-01", start, end, "advance")
    assert chosen.path == ("0721", "0722", "0821") and chosen.pick == "an advance allowed"
    cheapest = cheapest_path(start, end, ONSLAUGHT.movement.move_rule(state, "br-arm-01", "move").cost)
    assert cheapest is not None and [grid.label_of(h) for h in cheapest[1]] == ["0721", "0821"]
