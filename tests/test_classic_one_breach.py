"""The classic series' leftovers of session 19, on Battle for Moscow and on the designer's game (tests/data/rhine):
one breach gives one error (a reinforcement placed early, an attack the rules refuse), the clause a finding rests on
(a unit with no allowance), a unit's last step lost, and what a log ending inside a combat still owes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from classic_support import line_of, run, upto, verdict
from data_edits import edit
from wargame.hexes import Hexside
from test_classic_generality_rhine import TURN_1

RHINE = Path(__file__).resolve().parent / "data" / "rhine"
HEAD = '[Game "rhine"]\n[Scenario "plunder"]\nTurn 1\n'
ALLIED = "Phase reinforcement\nPhase rail\nPhase movement\nPhase combat\n"
"""The Allied player turn of a Rhine turn, nothing done (its German one repeats the four phases)."""


@pytest.fixture
def rhine(tmp_path: Path) -> Path:
    """A copy of the designer's game to change."""
    shutil.copytree(RHINE, tmp_path / "data")
    return tmp_path / "data"


# -- a reinforcement placed early (rules.toml [reinforcements]) ------------------------------------------------------
@pytest.mark.parametrize("late", ["allowed", "prohibited"])
def test_a_reinforcement_placed_early_and_again_on_its_turn_is_one_error(rhine: Path, tmp_path: Path,
                                                                         late: str) -> None:
    """10.0: al-7ar (turn 2) placed on turn 1 is the error; placed again on turn 2 it is the lawful arrival, not
    "arrived already"; where late arrivals are refused, one placed early and never again is not also "not placed"."""
    edit(rhine / "counters" / "rhine" / "rules.toml", 'late = "allowed"', f'late = "{late}"')
    early = HEAD + "Phase reinforcement\nAllied: reinforce al-7ar 0610\n" + ALLIED[len("Phase reinforcement\n"):] \
        + ALLIED + "Turn 2\nPhase reinforcement\n"
    again = early + "Allied: reinforce al-7ar 0710\n"
    line = line_of(early, "al-7ar")
    assert verdict(tmp_path, again, rhine) == [(line, "error", "10.0")]
    assert verdict(tmp_path, early + ALLIED[len("Phase reinforcement\n"):] + ALLIED + "Turn 3\n", rhine) == \
        [(line, "error", "10.0")]


@pytest.mark.parametrize("placed", [True, False])
def test_a_late_reinforcement_is_one_error_as_its_turn_ends(rhine: Path, tmp_path: Path, placed: bool) -> None:
    """10.0 with `late = "prohibited"`: al-7ar (turn 2) not placed is the error as turn 2 ends; placed on turn 3 it
    is noted, not a second error for the same breach."""
    edit(rhine / "counters" / "rhine" / "rules.toml", 'late = "allowed"', 'late = "prohibited"')
    log = HEAD + ALLIED + ALLIED + "Turn 2\n" + ALLIED + ALLIED + "Turn 3\nPhase reinforcement\n"
    if placed:
        log += "Allied: reinforce al-7ar 0610\n"
    found = run(tmp_path, log, rhine).findings
    assert verdict(tmp_path, log, rhine) == [(line_of(log, "Turn 3"), "error", "10.0")]
    assert [(f.line, f.severity) for f in found if "al-7ar" in f.message and f.severity == "note"] == \
        ([(line_of(log, "al-7ar"), "note")] if placed else [])


# -- an attack the rules refuse (7.0) ----------------------------------------------------------------------------
REFUSED = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-xxvii odds 5:1 die 1 result DR\n"
"""ge-xxvii (0103) is not next to so-30 (0302): the attack is refused."""


def test_a_refused_attack_owes_nothing(tmp_path: Path) -> None:
    """7.0: an attack with an attacker not adjacent is one error; the log moving on without its retreat owes
    nothing (the players set the attack aside), and one carrying it out is judged no further."""
    line = line_of(REFUSED, "attack 0302")
    moved_on = REFUSED + "German: attack 0303 with ge-lvi ge-vi odds 3:1 die 1 result DR\n"
    assert verdict(tmp_path, moved_on, None) == [(line, "error", "7.0")]
    carried = REFUSED + "German: retreat so-30 0302-0402-0502\n"
    assert verdict(tmp_path, carried, None) == [(line, "error", "7.0")]
    assert verdict(tmp_path, REFUSED + "Phase german_movement\n", None) == [(line, "error", "7.0")]


def test_units_of_a_refused_attack_may_then_attack_lawfully(tmp_path: Path) -> None:
    """7.0 (each unit attacks once, each hex is attacked once): the refused attack did not happen, so ge-xli and
    ge-lvi attacking so-30 lawfully after it is no second error."""
    log = REFUSED + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "German: retreat so-30 0302-0402-0502\n"
    assert verdict(tmp_path, log, None) == [(line_of(log, "ge-xxvii odds"), "error", "7.0")]


def test_an_attack_outside_a_combat_phase_owes_nothing(tmp_path: Path) -> None:
    """3.0 / 7.0: an attack in the Panzer Movement Phase is the engine's one error; the log moving on without
    carrying it out owes no retreat."""
    log = upto(1, "panzer_movement") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "Phase german_combat\n"
    assert verdict(tmp_path, log, None) == [(line_of(log, "attack 0302"), "error", "7.0")]
    # By the side whose player turn it is not, right after a combat of that phase (its result still under way).
    soviet = upto(1, "soviet_combat") + "Soviet: attack 0202 with so-30 result NE\n" \
        "German: attack 0303 with ge-vi ge-lvi odds 3:1 die 1 result DR\nPhase soviet_movement\n"
    assert verdict(tmp_path, soviet, None) == [(line_of(soviet, "attack 0303"), "error", "7.0")]


# -- a unit with no allowance (4.0) ------------------------------------------------------------------------------
def test_a_unit_with_no_allowance_breaks_the_allowance_not_a_zone(tmp_path: Path) -> None:
    """4.0 (the turn record: airborne units have 0 on turn 1): al-6ab moving from ge-7fj's zone straight into
    another is refused for its allowance, the clause it rests on, not for 5.0's zones."""
    log = HEAD + "Phase reinforcement\nPhase rail\nPhase movement\nal-6ab 0419-0518\n"
    found = run(tmp_path, log, RHINE).findings
    assert [(f.line, f.severity, f.rule) for f in found if f.severity == "error"] == [(7, "error", "4.0")]
    assert "it had 0 of its allowance of 5 (turn 1: airborne 0)" in found[0].message
    fortress = HEAD + ALLIED + "Phase reinforcement\nPhase rail\nPhase movement\nge-wesel 0317-0318\n"
    found = run(tmp_path, fortress, RHINE).findings
    assert [(f.rule, f.message) for f in found if f.severity == "error"] == [
        ("4.0", "ge-wesel spent 0.5 MP on 0317-0318; it had 0 of its allowance of 0 left this phase")]


# -- a unit's last step (8.0) ------------------------------------------------------------------------------------
def test_the_loss_of_a_units_last_step_is_its_elimination(tmp_path: Path) -> None:
    """8.0: so-30 (reduced: its last step) written `deplete` after a DRL is eliminated, not refused; so is a one-step
    unit (Rhine's al-6ab) whose blocked retreat eliminates it. A note says how `deplete` was read (the rulings
    register: one reading for the classic series, F&M 8.3 and Onslaught 7.2)."""
    drl = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 2 result DRL\n"
    for loss in ("deplete", "eliminate"):
        log = drl + f"Soviet: {loss} so-30\nGerman: advance ge-xli 0201-0302\n"
        found = run(tmp_path, log, None)
        assert [(f.line, f.severity, f.rule) for f in found.findings] == (
            [(line_of(log, "Soviet: deplete"), "note", "8.0")] if loss == "deplete" else [])
        assert found.final_state.location["so-30"] == "soviet_eliminated"
    assert "read as its elimination" in run(tmp_path, drl + "Soviet: deplete so-30\n", None).findings[0].message
    assert "Allied> eliminate al-6ab\n" in TURN_1
    for loss in ("deplete", "eliminate"):
        log = TURN_1.replace("Allied> eliminate", f"Allied> {loss}")
        assert verdict(tmp_path, log, RHINE) == []
        notes = [f for f in run(tmp_path, log, RHINE).findings if "read as its elimination" in f.message]
        assert [f.line for f in notes] == ([line_of(log, "Allied> deplete al-6ab")] if loss == "deplete" else [])


# -- a log ending inside a combat (8.0) ----------------------------------------------------------------------------
def test_a_result_still_owed_when_the_log_ends_is_a_note(tmp_path: Path) -> None:
    """8.0 / 8.1 and the register (findings at a log ending inside a phase are notes): a DR claimed on the log's last
    line, its retreat not yet written, is noted at the attack; the same retreat left out before the next entry is
    an error."""
    dr = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n"
    found = run(tmp_path, dr, None).findings
    assert [(f.line, f.severity, f.rule) for f in found] == [(line_of(dr, "attack 0302"), "note", "8.1")]
    assert found[0].message.startswith("when the log ends, so-30 did not retreat 2 hex(es)")
    assert verdict(tmp_path, dr + "Phase german_movement\n", None) == [(line_of(dr, "attack") + 1, "error", "8.1")]


# -- the preview (vmodbuild preview) -----------------------------------------------------------------------------
def test_the_preview_draws_a_bridge_over_its_river() -> None:
    """`vmodbuild preview` of a map with a bridge on a river hexside (Duisburg's, 0716-0717) draws the bridge over
    the river, as the board does: the middle of that hexside is the bridge's colour, not the river's."""
    from builder.preview import SIDE_STYLE, render_preview
    from wargame.game import load_game
    game = load_game(RHINE, "rhine")
    image = render_preview(game).convert("RGB")
    side = Hexside.between(game.grid.hex_of("0716"), game.grid.hex_of("0717"))
    middle = game.layout.hexside_segment(side).interpolate(0.5, normalized=True)
    colour = "#%02x%02x%02x" % image.getpixel((round(middle.x), round(middle.y)))
    assert colour == SIDE_STYLE["bridge"][0], colour


# -- bridges (terrain.toml `cancels`, rules.toml `[zoc] unless`) ----------------------------------------------------
GERMAN_MOVES = HEAD + ALLIED + "Phase reinforcement\nPhase rail\nPhase movement\n"


def test_a_bridge_crossing_costs_the_hex_entered(rhine: Path, tmp_path: Path) -> None:
    """4.0 (terrain.toml: the bridge `cancels` the river): ge-8fj (allowance 4) crossing Düsseldorf's bridge into
    1016, made woods here, pays the woods' 2, not 2 + the river's 2 and not a fixed bridge cost; 2 + 1 + 1 is its
    4, one hex more is over it."""
    edit(rhine / "maps" / "rhine" / "hexes.csv", "1019,woods,1.0,\n", "1019,woods,1.0,\n1016,woods,1.0,\n")
    assert verdict(tmp_path, GERMAN_MOVES + "ge-8fj 1017-1016-1015-1014\n", rhine) == []
    found = run(tmp_path, GERMAN_MOVES + "ge-8fj 1017-1016-1015-1014-1013\n", rhine).findings
    assert [f.message for f in found if f.severity == "error"] == [
        "ge-8fj spent 5 MP on 1017-1016-1015-1014-1013; it had 4 of its allowance of 4 left this phase"]


def test_a_bridge_lets_a_zone_of_control_across_its_river(rhine: Path, tmp_path: Path) -> None:
    """5.0 with `[zoc] into_hexside = ["river"]`: ge-180's zone does not reach al-51 across the river, but with
    `unless = ["bridge"]` it does across Duisburg's bridge (0716-0717), as `unless` does for combat effects."""
    from adjudicator.systems.classic.base import zone_of
    rules = rhine / "counters" / "rhine" / "rules.toml"
    edit(rules, "leave_cost = 1\n", 'leave_cost = 1\ninto_hexside = ["river"]\n')
    state = run(tmp_path, HEAD, rhine).final_state
    grid = state.game.grid
    assert grid.hex_of("0716") not in zone_of(state, "German")
    edit(rules, 'into_hexside = ["river"]\n', 'into_hexside = ["river"]\nunless = ["bridge"]\n')
    state = run(tmp_path, HEAD, rhine).final_state
    zone = zone_of(state, "German")
    assert grid.hex_of("0716") in zone and grid.hex_of("0616") not in zone


def test_a_bridge_names_what_it_crosses(rhine: Path) -> None:
    """validate: terrain.toml's `cancels` and rules.toml's `[zoc] unless` name terrain of the game."""
    from click.testing import CliRunner
    from builder.cli import main as vmodbuild
    edit(rhine / "maps" / "rhine" / "terrain.toml", 'cancels = ["river"]', 'cancels = ["rivr"]')
    edit(rhine / "counters" / "rhine" / "rules.toml", "leave_cost = 1\n", 'leave_cost = 1\nunless = ["brige"]\n')
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(rhine)])
    assert out.exit_code == 1, out.output
    assert "unknown hexside feature 'rivr' (did you mean 'river'?)" in out.output, out.output
    assert "unknown terrain 'brige' (did you mean 'bridge'?)" in out.output, out.output


# -- a draw claimed (12.0) ---------------------------------------------------------------------------------------------
def test_a_draw_claimed_in_a_game_with_none_misreads_its_victory_rules(tmp_path: Path) -> None:
    """12.0: Battle for Moscow has no draw (the Soviet player wins when the German does not): `declare draw` in the
    last phase is one error citing the victory rules, not the log's (a draw is a claim where a game has one)."""
    log = upto(7, "soviet_movement") + "Soviet: declare draw\n"
    found = run(tmp_path, log, None).findings
    assert [(f.line, f.rule) for f in found if f.severity == "error"] == [(line_of(log, "declare draw"), "12.0")]
    assert "this game has no draw" in next(f.message for f in found if f.severity == "error")


# -- the audit of Battle for Moscow's rules (session 20) ---------------------------------------------------------
RESTORED = upto(1, "soviet_replacement") + "Soviet: replace so-30\nPhase rail_movement\nPhase soviet_combat\n" \
    "Phase soviet_movement\nTurn 2\nPhase german_replacement\nPhase panzer_movement\nPhase german_combat\n" \
    "German: attack 0302 with ge-xli ge-lvi odds 2:1 die 3 result EX\n"
"""so-30 restored to its full 8 on turn 1, then attacked at 21:8 (2:1): a 3 is EX (8.0: a step lost, then the
retreat; the attackers lose at least the 4 printed points so-30 lost)."""


def test_a_retreat_written_before_the_loss_does_not_carry_the_loss_out(tmp_path: Path) -> None:
    """8.0: so-30 retreated but never lost its step: the step is still owed when the log moves on (the loss was not
    asked once the unit had left its hex); written after the retreat, the loss is accepted."""
    retreat = RESTORED + "German: retreat so-30 0302-0402-0502\nGerman: deplete ge-lvi\n"
    assert verdict(tmp_path, retreat + "Phase german_movement\n", None) == [
        (len(retreat.splitlines()) + 1, "error", "8.0")]
    assert verdict(tmp_path, retreat + "Soviet: deplete so-30\nPhase german_movement\n", None) == []


def test_an_attacker_with_no_retreat_is_eliminated(rhine: Path, tmp_path: Path) -> None:
    """8.1 (AR, the attacker's retreat): with German units at 0320 and 0520 every hex al-6ab could retreat to is in
    an enemy zone, so it is eliminated; `eliminate` is right (it read as a loss the AR does not cost), and nothing
    written is the blocked retreat's error, saying so. With a retreat open, eliminating it instead is the error."""
    attack = HEAD + "Phase reinforcement\nPhase rail\nPhase movement\nPhase combat\n" \
        "Allied: attack 0418 with al-6ab odds 1:2 die 1 result AR\n"
    assert verdict(tmp_path, attack + "Allied: eliminate al-6ab\nPhase reinforcement\n", RHINE) == [
        (line_of(attack, "attack 0418") + 1, "error", "8.1")]
    setup = rhine / "counters" / "rhine" / "setup.csv"
    edit(setup, "plunder,ge-15pg,0322", "plunder,ge-15pg,0320")
    edit(setup, "plunder,ge-116,0622", "plunder,ge-116,0520")
    assert verdict(tmp_path, attack + "Allied: eliminate al-6ab\nPhase reinforcement\n", rhine) == []
    found = run(tmp_path, attack + "Phase reinforcement\n", rhine).findings
    assert [(f.rule, f.message) for f in found if f.severity == "error"] == [
        ("8.1", "attacker al-6ab has no legal retreat of 1 hex(es) after the AR on 0418 (line 8): it is eliminated "
                "(write 'eliminate al-6ab')")]
