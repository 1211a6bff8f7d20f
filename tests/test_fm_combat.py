"""Fire & Movement ground combat on the Omaha map (7.2, 8.0, 8.2-8.2.3): who attacks when, the
support markers, the differential, the terrain line and the result."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from adjudicator.engine import advance
from adjudicator.notation.entries import Attack
from adjudicator.notation.text import parse_text
from adjudicator.systems.omaha import OMAHA as FM
from adjudicator.systems.omaha import OmahaState
from adjudicator.systems.fire_and_movement.combat import Support, audit, column_on_line
from wargame.bundled import data_root
from wargame.game import Game, load_game
from play_support import play as replay
from play_support import position

COMBAT = "Phase movement\nPhase bombardment\nPhase combat\n"
MOBILE_COMBAT = COMBAT + "Phase mobile_movement\nPhase mobile_combat\n"
OPEN = {"914/352": "2117", "16/1": "2217", "18/1": "2216"}
"""914/352 on mixed ground at 2117 with two Allied regiments beside it."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Omaha data."""
    return load_game(data_root(), "omaha")


def play(game: Game, placed: dict[str, str], text: str) -> tuple[list[tuple[str, str, str]], OmahaState]:
    """Replay GT 1 from its first phase with `placed` on the map: (severity, rule, entry) of each
    error, warning and 8.2.1 d note."""
    played = replay(FM, position(FM, game, placed=placed), f'[Game "omaha"]\nTurn 1\nPhase support_fire_marker\n{text}',
                    finish=False)
    return [(f.severity, f.rule, played.text_of(f)) for f in played.findings
            if f.severity != "note" or f.rule == "8.2.1d"], played.state


def test_lines_and_columns(game: Game) -> None:
    """8.2.1 d: a differential falls in its line's column; below the lowest the first, above the last."""
    assert column_on_line(game, "clear", 0) == "c6" and column_on_line(game, "clear", 7) == "c10"
    assert column_on_line(game, "clear", -9) == "c1" and column_on_line(game, "clear", 15) == "c12"
    assert column_on_line(game, "city", 0) == "c3" and column_on_line(game, "city", 14) == "c9"


def test_claims_against_the_table(game: Game) -> None:
    """8.2.1: the differential with support fire, and the table's result for the die."""
    attack = "Allied: attack 2117 with 16/1 18/1 diff +6 die 3 result D2 support us_sf_6 de_sf_4\n"
    assert play(game, OPEN, COMBAT + attack)[0] == []
    assert play(game, OPEN, COMBAT + attack.replace("diff +6", "diff +5"))[0] == \
        [("error", "8.2.1d", attack.replace("diff +6", "diff +5").strip())]
    assert play(game, OPEN, COMBAT + attack.replace("result D2", "result D3"))[0] == \
        [("error", "8.2.1d", attack.replace("result D2", "result D3").strip())]
    no_die = "Allied: attack 2117 with 16/1 18/1 result D2\n"
    assert play(game, OPEN, COMBAT + no_die)[0] == [("warning", "8.2.1d", no_die.strip())]
    bare = "Allied: attack 2117 with 16/1 18/1 die 3\n"
    assert play(game, OPEN, COMBAT + bare)[0] == [("note", "8.2.1d", bare.strip())]


def test_terrain_line_best_for_the_defender(game: Game) -> None:
    """8.2.2: the defender's hex terrain; a river only when every attacker crosses one; a bridge
    crossing turns the river into the bridge line; the line most favourable to the defender."""
    german = {"914/352": "0225"}
    across = FM.combat_audit(state_with(game, {**german, "16/1": "0325"}), Attack(hex="0225", attackers=["16/1"]))
    assert across.line == "city"   # broken (marsh line) and river (city line): the river is better
    bridged = FM.combat_audit(state_with(game, {**german, "16/1": "0325", "18/1": "0224"}),
                              Attack(hex="0225", attackers=["16/1", "18/1"]))
    assert bridged.line == "marsh"  # one over the bridge: bridge (woods) line, worse than broken's marsh
    side = next(n for n in ("0125", "0126", "0124", "0226") if n in game.grid.labels)
    open_side = FM.combat_audit(state_with(game, {**german, "16/1": "0325", "18/1": side}),
                                Attack(hex="0225", attackers=["16/1", "18/1"]))
    assert open_side.line == "marsh"


def test_attackers_across_a_river_and_a_canal(game: Game) -> None:
    """8.2.2 (audit 18, B4): every attacker across a river-like hexside, one a river (city line), another a canal
    (woods line): each kind's line may apply and the defender gets the best, not the first kind's by name."""
    mixed = FM.combat_audit(state_with(game, {"914/352": "1606", "16/1": "1506", "18/1": "1607"}),
                            Attack(hex="1606", attackers=["16/1", "18/1"]))
    assert mixed.line == "city"


def state_with(game: Game, placed: dict[str, str]) -> OmahaState:
    """The set-up with `placed` on the map."""
    base = FM.initial_state(game, [])
    return replace(base, location={**base.location, **placed})


def test_fortifications(game: Game) -> None:
    """8.2.3: defence doubled, the attacker's markers halved (rounding down), the defender's not."""
    supports = [Support("us_sf_7", "Allied", 7, 3), Support("de_sf_5", "German", 5, 5)]
    target = game.grid.hex_of("2117")
    result = audit(game, target, [("16/1", game.grid.hex_of("2217"), 4)], [("914/352", 4)], supports, True, 1,
                   "Allied")
    assert (result.attack, result.defence, result.differential) == (4 + 3, 8 + 5, -6)


def test_who_attacks_when(game: Game) -> None:
    """8.2: the active player's Combat Phases only, adjacent units, each once a phase; 8.0: a
    defender once a phase; 4.1: only mobile units, not those of the Combat Phase, in the Mobile
    Combat Phase; 8.5: not after advancing."""
    one = "Allied: attack 2117 with 16/1 die 3\n"
    assert play(game, OPEN, "Phase movement\n" + one)[0][0][1] == "8.2"
    assert ("error", "8.2", one.strip()) in play(game, OPEN, COMBAT + one + one)[0]
    assert ("error", "8.0", "Allied: attack 2117 with 18/1 die 3") in \
        play(game, OPEN, COMBAT + one + "Allied: attack 2117 with 18/1 die 3\n")[0]
    far = {**OPEN, "26/1": "2319"}
    assert ("error", "8.2", "Allied: attack 2117 with 26/1 die 3") in \
        play(game, far, COMBAT + "Allied: attack 2117 with 26/1 die 3\n")[0]
    assert ("error", "4.1", "Allied: attack 2117 with 16/1 die 3") in play(game, OPEN, MOBILE_COMBAT + one)[0]
    mobile = {"914/352": "2117", "CCA/2": "2217"}
    twice = COMBAT + "Allied: attack 2117 with CCA/2 die 6\nPhase mobile_movement\nPhase mobile_combat\n" \
        "Allied: attack 2117 with CCA/2 die 6\n"
    assert ("error", "8.2", "Allied: attack 2117 with CCA/2 die 6") in play(game, mobile, twice)[0]
    assert play(game, mobile, MOBILE_COMBAT + "Allied: attack 2117 with CCA/2 die 6 result (A)\n")[0] == []
    advanced = {**OPEN, "915/352": "2116"}
    after = COMBAT + "Allied: advance 16/1 2217-2117\nAllied: attack 2116 with 16/1 die 3\n"
    assert ("error", "8.5", "Allied: attack 2116 with 16/1 die 3") in play(game, advanced, after)[0]


def test_support_markers(game: Game) -> None:
    """7.2 and 8.2.1 b: known markers, two a side at most on a combat, each used once a game turn."""
    three = "Allied: attack 2117 with 16/1 die 3 support us_sf_2 us_sf_3 us_sf_5\n"
    assert ("error", "8.2.1b", three.strip()) in play(game, OPEN, COMBAT + three)[0]
    unknown = "Allied: attack 2117 with 16/1 die 3 support us_sf_66\n"
    assert ("error", "7.2", unknown.strip()) in play(game, OPEN, COMBAT + unknown)[0]
    # us_sf_5 is a single marker: it cannot serve twice in one game turn.
    again = COMBAT + "Allied: attack 2117 with 16/1 die 6 support us_sf_5\n" \
        "Allied: attack 2115 with 18/1 die 6 support us_sf_5\n"
    assert ("error", "7.2", "Allied: attack 2115 with 18/1 die 6 support us_sf_5") in \
        play(game, {**OPEN, "915/352": "2115"}, again)[0]


def test_optional_flak(game: Game) -> None:
    """15.0 (optional): an aircraft marker in or next to a German AA/Flak unit's hex counts half,
    rounded up; not without the rule, and never for a marker without the aircraft icon."""
    from adjudicator.notation.entries import Header

    placed = {**OPEN, "1Flak": "2116"}
    attack = Attack(side="Allied", hex="2117", attackers=["16/1"], support=["us_air_10", "us_sf_9"])
    with_rule = replace(FM.initial_state(game, [Header(key="Optional", value="flak")]),
                        location={**FM.initial_state(game, []).location, **placed})
    assert FM.combat_audit(with_rule, attack).attack == 4 + 5 + 9
    assert FM.combat_audit(state_with(game, placed), attack).attack == 4 + 10 + 9
    far = replace(with_rule, location={**with_rule.location, "1Flak": "1510"})
    assert FM.combat_audit(far, attack).attack == 4 + 10 + 9
    with pytest.raises(Exception, match="did you mean 'flak'"):
        FM.initial_state(game, [Header(key="Optional", value="flack")])


def test_fortification_then_flak_halving() -> None:
    """Ruling (8.2.3 with 15.0): an attacker's aircraft marker on a fortification hex next to a German
    AA/Flak unit is halved first by 8.2.3 (rounding down), then by 15.0 (rounding up): +10 counts 3
    (the other order would give 2), +8 counts 2, +6 counts 2 (the other order: 1)."""
    from adjudicator.notation.entries import Header

    # A copy of its own (load_game hands out one shared object per data): the map gets a fortification.
    fortified = copy.copy(load_game(data_root(), "omaha"))
    target = fortified.grid.hex_of("2117")
    base = FM.initial_state(fortified, [Header(key="Optional", value="flak")])
    state = replace(base, location={**base.location, **OPEN, "1Flak": "2116"})
    fortified.__dict__["hex_terrain"] = {**fortified.hex_terrain, target: (*fortified.hex_terrain[target],
                                                                           "fortification")}
    for marker, counted in (("us_air_10", 3), ("us_air_8", 2), ("us_air_6", 2)):
        attack = Attack(side="Allied", hex="2117", attackers=["16/1"], support=[marker])
        (support,) = FM._supports(state, attack, target)
        assert support.applied == counted, marker


def test_a_result_read_without_the_terrain_cites_8_2_2(game: Game) -> None:
    """8.2.2: a claimed result the clear line gives for the same differential and die, on a hex whose
    terrain puts it on another line, breaks 8.2.2 (the terrain was left out); another wrong result is
    a misreading of the table (8.2.1 d)."""
    placed = {"914/352": "0126", "9/2": "0226"}
    # 0126 is marsh: differential 0 is column c4 there (a 1 reads -), c6 on the clear line (a 1 reads Ex).
    attack = "Allied: attack 0126 with 9/2 die 1 result {}"
    assert play(game, placed, COMBAT + attack.format("-") + "\n")[0] == []
    assert play(game, placed, COMBAT + attack.format("Ex") + "\n")[0] == [("error", "8.2.2", attack.format("Ex"))]
    assert play(game, placed, COMBAT + attack.format("D3") + "\n")[0] == [("error", "8.2.1d", attack.format("D3"))]


def _fortified_2117() -> Game:
    """A copy of the Omaha data of its own (load_game hands out one shared object per data) whose 2117 is also a
    fortification."""
    fortified = copy.copy(load_game(data_root(), "omaha"))
    target = fortified.grid.hex_of("2117")
    fortified.__dict__["hex_terrain"] = {**fortified.hex_terrain, target: (*fortified.hex_terrain[target],
                                                                           "fortification")}
    fortified.__dict__["terrain"] = {**fortified.terrain, "fortification": replace(
        fortified.terrain["clear"], id="fortification", crt_line=None)}
    return fortified


def test_a_reroll_s_result_is_no_modifier_left_out() -> None:
    """8.2.3's fortification: +3, which +10 would be without it. With a 4, the D2 claimed is what +10 gives (8.2.3
    left out); with the die rolled again (a VASSAL log's reroll, `reroll 1`) and D2 what the 1 gives at +3, the table
    was read right for the wrong die: 8.2.1 d, the result the 4 owes. A reroll that does not give D2 leaves 8.2.3."""
    attack = "Allied: attack 2117 with 16/1 18/1 die 4 {}result D2 support us_sf_6"
    fortified = _fortified_2117()
    for reroll, cited in (("", "8.2.3"), ("reroll 1 ", "8.2.1d"), ("reroll 2 ", "8.2.3")):
        found = play(fortified, OPEN, COMBAT + attack.format(reroll) + "\n")[0]
        assert [f for f in found if f[0] == "error"] == [("error", cited, attack.format(reroll))], reroll


def test_a_claim_without_a_modifier_cites_the_modifiers_clause() -> None:
    """8.2.3: a differential claimed without the fortification's doubling and halving breaks 8.2.3, not
    8.2.1 d (so does a bombardment's); 15.0: one claimed with an aircraft marker counted whole beside a
    flak unit breaks 15.0; a differential wrong another way is 8.2.1 d."""
    from adjudicator.notation.entries import Header

    fortified = _fortified_2117()
    # 4 + 4 and a +6 halved to 3, against 4 doubled: +3; leaving 8.2.3 out gives 8 + 6 - 4 = +10.
    attack = "Allied: attack 2117 with 16/1 18/1 diff {} support us_sf_6"
    assert play(fortified, OPEN, COMBAT + attack.format("+3") + "\n")[0] == [
        ("warning", "8.2.1d", attack.format("+3"))]
    assert [f for f in play(fortified, OPEN, COMBAT + attack.format("+10") + "\n")[0] if f[0] == "error"] == [
        ("error", "8.2.3", attack.format("+10"))]
    assert [f for f in play(fortified, OPEN, COMBAT + attack.format("+9") + "\n")[0] if f[0] == "error"] == [
        ("error", "8.2.1d", attack.format("+9"))]
    # The missing die stays the procedure's (8.2.1 d).
    assert ("warning", "8.2.1d", attack.format("+10")) in play(fortified, OPEN, COMBAT + attack.format("+10") + "\n")[0]
    # A bombardment: +8 and +10 halved to 4 and 5, against 4 doubled: +1; without 8.2.3, +14.
    bombard = "Allied: bombard 2117 diff +14 support us_air_8 us_air_10"
    assert [f for f in play(fortified, OPEN, "Phase movement\nPhase bombardment\n" + bombard + "\n")[0]
            if f[0] == "error"] == [("error", "8.2.3", bombard)]
    # 15.0: beside 1Flak a +10 aircraft marker counts 5: 4 + 5 - 4 = +5, not +10.
    base = FM.initial_state(game_of(), [Header(key="Optional", value="flak")])
    state = replace(base, location={**base.location, **OPEN, "1Flak": "2116"})
    whole = "Allied: attack 2117 with 16/1 diff +10 support us_air_10"
    entries = parse_text(f'[Game "omaha"]\nTurn 1\nPhase support_fire_marker\n{COMBAT}{whole}\n')
    for entry in entries[:-1]:
        state = advance(FM, state, entry)
    assert [f.rule for f in FM.check(state, entries[-1]) if f.severity == "error"] == ["15.0"]


def game_of() -> Game:
    """The bundled Omaha data (outside the fixture)."""
    return load_game(data_root(), "omaha")


def test_a_modifier_applied_without_its_condition_cites_its_clause(game: Game) -> None:
    """Ruling (issue 26): a claimed result that is what a river's line gives when 8.2.2's condition does not
    hold (an attacker not across it, or one across it over a bridge) breaks 8.2.2, not 8.2.1 d; a differential
    claimed with 15.0's aircraft halving where no AA/Flak unit is near breaks 15.0."""
    from adjudicator.notation.entries import Header

    # 0225 is broken (marsh line); the river's line is the city line. +4 on the marsh line, die 1: D2;
    # on the city line: Ex.
    attack = "Allied: attack 0225 with 16/1 18/1 diff +4 die 1 result {}"
    for other in ("0125", "0224"):  # 0125: not across the river; 0224: across it over the bridge
        placed = {"914/352": "0225", "16/1": "0325", "18/1": other}
        assert play(game, placed, COMBAT + attack.format("D2") + "\n")[0] == []
        found = play(game, placed, COMBAT + attack.format("Ex") + "\n")[0]
        assert found == [("error", "8.2.2", attack.format("Ex"))], other
        assert play(game, placed, COMBAT + attack.format("D3") + "\n")[0] == [("error", "8.2.1d", attack.format("D3"))]
    placed = {"914/352": "0225", "16/1": "0325", "18/1": "0125"}
    base = FM.initial_state(game, [])
    state = replace(base, location={**base.location, **placed})
    entries = parse_text(f'[Game "omaha"]\nTurn 1\nPhase support_fire_marker\n{COMBAT}{attack.format("Ex")}\n')
    for entry in entries[:-1]:
        state = advance(FM, state, entry)
    (error,) = [f for f in FM.check(state, entries[-1]) if f.severity == "error"]
    assert "counts only when every attacker crosses one" in error.message
    # 15.0: with 1Flak far from 2117 a +10 aircraft marker counts whole: 4 + 10 - 4 = +10; +5 halves it.
    far = replace(FM.initial_state(game, [Header(key="Optional", value="flak")]),
                  location={**base.location, **OPEN, "1Flak": "1510"})
    halved = "Allied: attack 2117 with 16/1 diff +5 support us_air_10"
    entries = parse_text(f'[Game "omaha"]\nTurn 1\nPhase support_fire_marker\n{COMBAT}{halved}\n')
    for entry in entries[:-1]:
        far = advance(FM, far, entry)
    (error,) = [f for f in FM.check(far, entries[-1]) if f.severity == "error"]
    assert error.rule == "15.0" and "where its condition does not hold" in error.message
