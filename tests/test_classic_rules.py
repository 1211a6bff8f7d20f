"""Battle for Moscow's rules as the classic series reads them from counters/moscow/rules.toml: each clause with
a log that breaks it (or keeps it) where a breach log alone would not show the arithmetic."""

from __future__ import annotations

from pathlib import Path

from classic_support import line_of, run, upto, verdict

from adjudicator.notation.entries import Attack
from adjudicator.systems import system_for
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "moscow"


def test_soviet_armies_start_reduced_and_germans_full(tmp_path: Path) -> None:
    """2.0 (rules.toml start_reduced): the Soviet armies on the map show their half-strength face."""
    state = run(tmp_path, upto(1, "german_replacement")).final_state
    assert "so-30" in state.reduced and "ge-xli" not in state.reduced
    assert "so-5" not in state.reduced  # in the eliminated box, not on the map


def test_mud_halves_attackers_keeping_fractions(tmp_path: Path) -> None:
    """10.0: on a mud turn attackers are halved and fractions kept: 12 + 9 = 21, halved 10 1/2 against 4 is 2:1. The
    5:1 of the unhalved 21 misreads the mud, so it cites 10.0 (as a move over mud's one hex does), not 7.0."""
    log = upto(3, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 4 result EX\n" \
        "Soviet> eliminate so-30\nGerman: deplete ge-lvi\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0302"), "error", "10.0")]
    assert "without the Mud" in next(f.message for f in run(tmp_path, log).findings if f.severity == "error")
    ok = upto(3, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 2:1 die 4 result EX\n" \
        "Soviet> eliminate so-30\nGerman: deplete ge-lvi\n"
    assert verdict(tmp_path, ok) == []


def test_mud_lets_a_unit_move_one_hex_even_into_forest(tmp_path: Path) -> None:
    """10.0 (our reading): the one hex of a mud phase replaces the allowance, so it may be a forest hex."""
    log = upto(3, "german_movement") + "ge-xlviii 0309-0308\n"
    assert verdict(tmp_path, log) == []


def test_shifts_count_from_odds_above_the_table(tmp_path: Path) -> None:
    """7.0 (our reading): three 12s against the 4 of so-29 in the forest are 9:1; one column left is 8:1, read on
    6:1 (a 1 there is DRL), not 6:1 shifted to 5:1 (a 1 there is DR)."""
    system = system_for(load_game(ROOT, "moscow"))
    state = run(tmp_path, upto(1, "german_combat")).final_state
    placed = {"ge-xli": "0201", "ge-lvii": "0302", "ge-xxiv": "0401", "so-29": "0301"}
    attack = Attack(hex="0301", attackers=["ge-xli", "ge-lvii", "ge-xxiv"], die=1, side="German")
    account = system.auditor.account(system.auditor.with_units(state, placed), attack)
    assert (account.column, account.result) == ("6:1", "DRL")


def test_a_fortification_shifts_only_for_a_soviet_defender(tmp_path: Path) -> None:
    """7.0: 8 against the 4 of so-33 in the Vyazma line is 2:1, shifted to 1:1 (a 1 there is DR, a 2 EX)."""
    log = upto(1, "german_combat") + "German: attack 0507 with ge-xlvi odds 1:1 die 2 result EX\n" \
        "Soviet> eliminate so-33\nGerman: deplete ge-xlvi\n"
    assert verdict(tmp_path, log) == []
    wrong = upto(1, "german_combat") + "German: attack 0507 with ge-xlvi odds 2:1 die 2 result EX\n" \
        "Soviet> eliminate so-33\nGerman: deplete ge-xlvi\n"
    assert verdict(tmp_path, wrong) == [(line_of(wrong, "attack 0507"), "error", "7.0")]


def test_an_exchange_costs_the_attacker_the_printed_strength_lost(tmp_path: Path) -> None:
    """8.0: the defender's step is worth 4; ge-liii's (6 to 3) is worth 3, so a second step must go too."""
    attack = upto(1, "german_combat") + "German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n" \
        "Soviet> eliminate so-13\n"
    short = attack + "German: deplete ge-liii\nPhase german_movement\n"
    assert verdict(tmp_path, short) == [(line_of(short, "Phase german_movement"), "error", "8.0")]
    assert "lost 3 printed strength of the 4" in next(f.message for f in run(tmp_path, short).findings
                                                      if f.severity == "error")
    enough = attack + "German: deplete ge-xxiv\nPhase german_movement\n"
    assert verdict(tmp_path, enough) == []


def test_a_retreat_goes_on_past_friendly_units_to_an_empty_hex(tmp_path: Path) -> None:
    """8.1: a retreat whose second hex holds a friendly army goes on to the first empty hex, and only then."""
    base = upto(1, "german_combat") + "German: attack 0506 with ge-xlvi odds 1:1 die 1 result DR\n"
    # so-43 at 0505 and so-24 at 0504 are passed through; 0603 is empty.
    assert verdict(tmp_path, base + "German: retreat so-32 0506-0505-0504-0603\n") == []
    stopped = base + "German: retreat so-32 0506-0505-0504\n"
    assert verdict(tmp_path, stopped) == [(line_of(stopped, "retreat so-32"), "error", "8.1")]
    longer = base + "German: retreat so-32 0506-0606-0707-0808\n"
    assert verdict(tmp_path, longer) == [(line_of(longer, "retreat so-32"), "error", "8.1")]


def test_the_attacker_writes_the_defenders_retreat(tmp_path: Path) -> None:
    """8.1: the attacking player chooses the retreat; the defender's own `Soviet:` retreat is refused."""
    log = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "Soviet: retreat so-30 0302-0402-0502\n"
    assert verdict(tmp_path, log) == [(line_of(log, "Soviet: retreat"), "error", "8.1")]


def test_a_soviet_rebuilt_in_moscow_needs_no_communication(tmp_path: Path) -> None:
    """11.0: Moscow takes a rebuilt army whatever the line; 11.1 another city must trace one."""
    log = upto(1, "soviet_replacement") + "Soviet: replace so-5 reduced 1103\n"
    assert verdict(tmp_path, log) == []


def test_a_unit_takes_one_point_a_phase(tmp_path: Path) -> None:
    """11.0: a rebuilt army is not flipped to full strength in the same phase."""
    log = upto(1, "soviet_replacement") + "Soviet: replace so-5 reduced 1405\nSoviet: replace so-5 full 1405\n"
    assert verdict(tmp_path, log) == [(line_of(log, "so-5 full"), "error", "11.0")]


def test_a_rail_move_is_capped_by_the_allowance(tmp_path: Path) -> None:
    """9.0: along the rail, four hexes at most (forest counts one)."""
    ok = upto(1, "rail_movement") + "so-49 0803-0903-1003-1103-1104\n"
    assert verdict(tmp_path, ok) == []
    far = upto(1, "rail_movement") + "so-49 0803-0903-1003-1103-1104-1105\n"
    assert verdict(tmp_path, far) == [(line_of(far, "so-49"), "error", "9.0")]


def test_an_overstack_is_reported_once(tmp_path: Path) -> None:
    """6.0: a stack left over the limit is one breach, not one at every later phase's end."""
    log = upto(1, "german_movement") + "ge-xxvii 0103-0104\n" + "".join(
        f"Phase {p}\n" for p in ("soviet_replacement", "rail_movement", "soviet_combat", "soviet_movement"))
    assert [r for _, _, r in verdict(tmp_path, log)] == ["6.0"]


def test_stacking_of_a_log_ending_inside_a_phase(tmp_path: Path) -> None:
    """6.0 (ruling; rules.toml's stacking checked at the end of each phase): a log that ends inside the phase never
    reaches its end, so each overstack is a note on the line of the last entry that made it, never an error."""
    log = upto(1, "german_movement") + "ge-xxvii 0103-0104\nge-xli 0201-0202\n"
    assert verdict(tmp_path, log) == []
    notes = [f for f in run(tmp_path, log).findings if f.rule == "6.0"]
    assert [(f.severity, f.line) for f in notes] == [("note", line_of(log, "ge-xxvii")), ("note", line_of(log, "ge-xli"))]
    assert "the log ends inside the german_movement phase" in notes[0].message and "0104 holds" in notes[0].message
    ended = log + "Phase soviet_replacement\n"
    assert verdict(tmp_path, ended) == [(line_of(ended, "Phase soviet"), "error", "6.0")] * 2


def test_victory_is_read_at_the_end_and_a_claim_checked(tmp_path: Path) -> None:
    """12.0: at the end of turn 7 the Soviet holds Moscow and wins; a German claim is refused."""
    end = upto(7, "soviet_movement")
    result = run(tmp_path, end + "Soviet: declare victory\n")
    assert [f.rule for f in result.findings if f.severity == "error"] == []
    assert result.final_state.outcome is not None and result.final_state.outcome.winner == "Soviet"
    wrong = end + "German: declare victory\n"
    assert verdict(tmp_path, wrong) == [(line_of(wrong, "German: declare"), "error", "12.0")]
    notes = [f.message for f in run(tmp_path, end).findings if f.severity == "note"]
    assert any("Soviet victory" in n for n in notes)


def test_an_attack_below_one_to_one_has_no_effect(tmp_path: Path) -> None:
    """7.0: below 1:1 after terrain the attack is allowed and its result is NE; another claim is wrong."""
    # ge-xl (8) and ge-ix (7) at 0306 and 0305 are next to so-20 (4) in the forest at 0405: 15:4 is 3:1, but
    # ge-vi (5) at 0203 against so-29... is not adjacent; so-30 (4) at 0302 against ge-vi? Use the forest so-29
    # at 0301 and ge-xli (12) at 0201: 3:1 shifted to 2:1. Below the table: the half-strength defender alone
    # against a 4 in the forest needs a 4-strength attacker, which no German next to a forest army has; a
    # what-if shows it instead.
    system = system_for(load_game(ROOT, "moscow"))
    state = run(tmp_path, upto(1, "german_combat")).final_state
    placed = {"ge-xlii": "0201", "so-29": "0301"}
    attack = Attack(hex="0301", attackers=["ge-xlii"], die=1, side="German")
    account = system.auditor.account(system.auditor.with_units(state, placed), attack)
    assert account.result == "NE" and {r for _, r in account.by_die} == {"NE"}


def test_after_a_wrong_result_the_tables_may_be_carried_out(tmp_path: Path) -> None:
    """7.0, one breach one error: a DE claimed where the table gives DR is one error; the DR's retreat carried out
    after it is judged by the table's result (and an illegal one is reported as such)."""
    base = upto(1, "german_combat") + "German: attack 0405 with ge-xl ge-xlvi odds 3:1 die 1 result DE\n"
    legal = base + "German: retreat so-20 0405-0505-0605\nPhase german_movement\n"
    assert verdict(tmp_path, legal) == [(line_of(legal, "attack 0405"), "error", "7.0")]
    into_zoc = base + "German: retreat so-20 0405-0404-0403\n"
    found = run(tmp_path, into_zoc).findings
    assert [(f.rule, "zone" in f.message) for f in found if f.severity == "error"] == [("7.0", False), ("8.1", True)]


def test_the_odds_claimed_are_the_column_read(tmp_path: Path) -> None:
    """7.0: 18 against 4 in the forest is read on 3:1; a claim of the unshifted 4:1 is an error."""
    log = upto(1, "german_combat") + "German: attack 0405 with ge-xl ge-xlvi odds 4:1 die 1 result DR\n" \
        "German: retreat so-20 0405-0505-0605\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0405"), "error", "7.0")]


def test_phases_in_order_and_their_entries(tmp_path: Path) -> None:
    """3.0: phases come in game.toml's order, and each allows only its entries (a move in a combat phase)."""
    # A marker may pass phases in which nothing is done, never go back; turns come one after the other.
    skipped = '[Game "moscow"]\nTurn 1\nPhase german_combat\nPhase german_movement\nTurn 2\nPhase rail_movement\n'
    assert verdict(tmp_path, skipped) == []
    back = '[Game "moscow"]\nTurn 1\nPhase german_combat\nPhase panzer_movement\n'
    assert verdict(tmp_path, back) == [(4, "error", "3.0")]
    assert verdict(tmp_path, '[Game "moscow"]\nTurn 2\n') == [(2, "error", "3.0")]
    assert verdict(tmp_path, upto(7, "soviet_movement") + "Turn 8\n")[-1][2] == "3.0"
    moved = upto(1, "german_combat") + "ge-xlviii 0309-0308\n"
    assert [r for _, _, r in verdict(tmp_path, moved)] == ["4.0"]


def test_units_move_one_at_a_time(tmp_path: Path) -> None:
    """4.0: a unit may go on moving in a second entry, but not once another unit has moved after it."""
    ok = upto(1, "german_movement") + "ge-xxvii 0103-0102\nge-xxvii 0102-0101\n"
    assert verdict(tmp_path, ok) == []
    late = upto(1, "german_movement") + "ge-xxvii 0103-0102\nge-v 0104-0105\nge-xxvii 0102-0101\n"
    assert verdict(tmp_path, late) == [(line_of(late, "ge-xxvii 0102-0101"), "error", "4.0")]


def test_the_combat_audit_agrees_with_the_check_on_every_attack() -> None:
    """`adjudicate combat` on the sample game: every attack's claims hold (the odds claimed are the column read)."""
    from click.testing import CliRunner

    from adjudicator.cli import main

    result = CliRunner().invoke(main, ["combat", str(ROOT / "examples" / "moscow" / "legal-sample-game.log")])
    assert result.exit_code == 0, result.output
    assert "do not hold" not in result.output and "claims hold" in result.output


MOSCOW_TAKEN = (EXAMPLES / "breach-victory-claim-then-lost.log").read_text(encoding="utf-8").split(
    "Phase soviet_movement\n")[0] + "Phase soviet_movement\n"
"""A game in which ge-xli passes through Moscow on turn 2 (the city German) and nothing more happens up to the
last phase, the Soviet Movement Phase of turn 7."""
RETAKE = "so-49 0803-0903-1003-1103\n"
"""so-49 takes Moscow back in that last phase."""


def test_a_claim_in_the_last_phase_is_judged_at_the_games_end(tmp_path: Path) -> None:
    """12.0: Moscow counts at the end of the game. A claim made as the last phase opens ends no play: the moves
    after it are legal, and the claim stands or falls on the position the game ends in; the result as it stands
    is the state's outcome; only a condition holding at any time would decide the game before its end."""
    lost = MOSCOW_TAKEN + "German: declare victory\n" + RETAKE
    assert verdict(tmp_path, lost) == [(line_of(lost, "German: declare"), "error", "12.0")]
    result = run(tmp_path, lost)
    assert "at the game's end the result is Soviet victory" in next(f.message for f in result.findings
                                                                    if f.severity == "error")
    assert result.final_state.outcome is None
    won = MOSCOW_TAKEN + "Soviet: declare victory\n" + RETAKE
    assert verdict(tmp_path, won) == []
    outcome = run(tmp_path, won).final_state.outcome
    assert outcome is not None and (outcome.winner, outcome.line) == ("Soviet", line_of(won, "Soviet: declare"))
    kept = MOSCOW_TAKEN + "German: declare victory\nso-49 0803-0903-1003\n"
    assert verdict(tmp_path, kept) == []
    kept_result = run(tmp_path, kept)
    assert kept_result.final_state.outcome is not None and kept_result.final_state.outcome.winner == "German"
    system = system_for(load_game(ROOT, "moscow"))
    assert system.outcome(kept_result.final_state) is None  # the claim ended no play
    early = MOSCOW_TAKEN.replace("Phase soviet_movement\n", "Phase soviet_combat\n") + "German: declare victory\n"
    assert verdict(tmp_path, early) == [(line_of(early, "German: declare"), "error", "12.0")]


def test_a_rebuilt_unit_may_appear_in_an_empty_city_in_an_enemy_zone(tmp_path: Path) -> None:
    """11.1 (rulings register): communication is traced from the city, so an empty Soviet city next to German
    units (Bryansk, 0509, after so-3 is eliminated there) takes a rebuilt army when the hexes its line enters are
    free; a city whose every way out is in a German zone does not."""
    log = (EXAMPLES / "legal-replace-empty-city-in-zoc.log").read_text(encoding="utf-8")
    assert verdict(tmp_path, log) == []
    state = run(tmp_path, log).final_state
    system = system_for(load_game(ROOT, "moscow"))
    line = system.movement.supply_line(state, "so-3")
    assert line is not None and line[0] == "0509" and line[-1][:2] == "14"
    cut = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "German: retreat so-30 0302-0402-0502\nGerman: advance ge-xli 0201-0302\nPhase german_movement\n" \
        "Phase soviet_replacement\nSoviet: replace so-29 full 0301\n"
    assert verdict(tmp_path, cut) == [(line_of(cut, "so-29 full"), "error", "11.1")]


def test_a_move_or_retreat_off_the_map_is_a_finding_and_the_replay_goes_on(tmp_path: Path) -> None:
    """4.0, 8.1, 9.0: a path stepping beyond the map's edge (or into a box) is a rule finding at its line, citing
    the movement under way; the unit stays on its last hex of the map and the entries after it are judged."""
    moved = upto(1, "german_movement") + "ge-xxxiv 0210-0211\nge-xxxv 0209-0208\n"
    assert verdict(tmp_path, moved) == [(line_of(moved, "ge-xxxiv"), "error", "4.0")]
    assert run(tmp_path, moved).final_state.location["ge-xxxiv"] == "0210"
    boxed = upto(1, "german_movement") + "ge-xxxiv 0210-german_eliminated\n"
    assert verdict(tmp_path, boxed) == [(line_of(boxed, "ge-xxxiv"), "error", "4.0")]
    # A rail move (the rail movement phase's section) written on past 1110 to 1111, beyond the south edge.
    railed = upto(1, "rail_movement") + "so-49 0803-0903-1003-1103-1104-1105-1106-1107-1108-1109-1110-1111\n"
    assert verdict(tmp_path, railed) == [(line_of(railed, "so-49"), "error", "9.0")]
    assert "so-49 moves off the map at 1111" in next(f.message for f in run(tmp_path, railed).findings)
    retreat = (EXAMPLES / "breach-retreat-off-map.log").read_text(encoding="utf-8")
    assert verdict(tmp_path, retreat) == [(line_of(retreat, "retreat so-13"), "error", "8.1")]
    # 12 against so-29's 4 in the forest on the north edge: 3:1 shifted to 2:1; a 1 is DR.
    north = upto(1, "german_combat") + "German: attack 0301 with ge-xli odds 2:1 die 1 result DR\n" \
        "German: retreat so-29 0301-0300-0399\n"
    found = run(tmp_path, north).findings
    assert [(f.rule, "retreats off the map at 0300" in f.message) for f in found if f.severity == "error"] == \
        [("8.1", True)]


def test_odds_past_the_table_show_the_column_they_count_from(tmp_path: Path) -> None:
    """7.0 (`shift_before_cap`): 29 against 4 in the forest is 7:1, past the table's 6:1, shifted one left to 6:1;
    the arithmetic shown says so, and in the clear 7:1 is read on 6:1."""
    system = system_for(load_game(ROOT, "moscow"))
    state = run(tmp_path, upto(1, "german_combat")).final_state
    forest = {"ge-ix": "0305", "ge-xlvi": "0306", "ge-lvii": "0304", "so-20": "0405"}
    account = system.auditor.account(system.auditor.with_units(state, forest),
                                     Attack(hex="0405", attackers=["ge-ix", "ge-xlvi", "ge-lvii"], die=3,
                                            side="German"))
    assert account.arithmetic[-1] == "odds 29:4 -> 7:1 (past the table's last column, 6:1), shifted -1 -> 6:1 [7.0]"
    clear = {"ge-ix": "0201", "ge-xlvi": "0203", "ge-lvii": "0303", "so-30": "0302"}
    account = system.auditor.account(system.auditor.with_units(state, clear),
                                     Attack(hex="0302", attackers=["ge-ix", "ge-xlvi", "ge-lvii"], die=3,
                                            side="German"))
    assert account.arithmetic[-1] == "odds 29:4 -> 7:1 (past the table's last column, 6:1), read on 6:1 [7.0]"


def test_a_refused_replacement_spends_no_point(tmp_path: Path) -> None:
    """11.0, one breach one error: the 1st Shock Army brought in on turn 1 is refused; the five points the Soviet
    has that turn then rebuild five other armies, none of them reported as a sixth point."""
    # Three armies rebuilt on the east edge, two restored where they stand: five points.
    lawful = ("so-5 reduced 1401", "so-10 reduced 1403", "so-40 reduced 1404", "so-49 full 0803", "so-50 full 0508")
    log = upto(1, "soviet_replacement") + "Soviet: replace so-1s reduced 1402\n" + "".join(
        f"Soviet: replace {words}\n" for words in lawful)
    assert [(n, r) for n, _, r in verdict(tmp_path, log)] == [(line_of(log, "so-1s"), "11.0")]
    over = log + "Soviet: replace so-43 full 0505\n"
    assert [(n, r) for n, _, r in verdict(tmp_path, over)] == [(line_of(over, "so-1s"), "11.0"),
                                                               (line_of(over, "so-43"), "11.0")]
