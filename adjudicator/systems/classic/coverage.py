"""What a classic game's referee checks, section by section, read from its registry and its data: each section
of rules.toml with the handlers judging it, the data it rests on, its breach logs and its tests
(`adjudicate rules GAME`; docs/rules-coverage.md's classic tables are this output)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from adjudicator.coverage import EXAMPLE_TEST, Row, breach_logs, where_of
from adjudicator.registry import Registry
from adjudicator.systems.classic.state import ClassicState
from adjudicator.systems.classic.tables import tables
from wargame.game import Game
from wargame.records import frozen


@frozen
class Clause:
    """A rule area of rules.toml judged under one section: what it checks, its handlers, its data."""

    status: str
    handlers: tuple[str, ...]
    extra: tuple[str, ...]
    rests_on: tuple[str, ...]
    tests: tuple[str, ...] = ()


ENGINE = ("adjudicator/engine.py::check", "adjudicator/engine.py::advance")
"""The engine judges the order of the phases and their entries, and moves the turn and phase at their markers."""
BOUNDARY = ("adjudicator/systems/classic/system.py::Classic._boundary",)
OWED = ("adjudicator/systems/classic/results.py::owed",)
ONE = "tests/test_classic_one_breach.py::"
"""The tests of session 20's one-breach fixes and audit."""
AUDIT = "tests/test_classic_audit.py::"
"""The tests of session 21's fixes and audit."""
RHINE = "tests/test_classic_generality_rhine.py::"
"""The tests on the Rhine test game (tests/data/rhine)."""
S22 = "tests/test_classic_session22.py::"
"""The tests of session 22's fixes and audit."""
S23 = "tests/test_classic_session23.py::"
"""The tests of session 23's fixes and audit."""
GENERALITY = "tests/test_classic_generality.py::"
"""The tests on the fictional second game (`steppe`)."""


def _clauses(game: Game) -> dict[str, list[Clause]]:
    """Each cited section's clauses, from the rules' own citations."""
    rules = tables(game).rules
    out: dict[str, list[Clause]] = {}

    def add(section: str, clause: Clause) -> None:
        out.setdefault(section, []).append(clause)

    add(rules.source, Clause("the data themselves (map, counters, terrain effects, combat results table, rules.toml): "
                             "every name cross-checked by `vmodbuild validate`", (),
                             ("wargame/rules_consistency.py::check_rules",), ("rules.toml",),
                             ("tests/test_classic_generality.py::test_the_other_game_validates_and_builds",
                              "tests/test_classic_data.py::test_a_designers_slip_is_a_validate_error")))
    for scenario in game.manifest.scenario:
        # The set-up's section: the one its rows cite most (a reconstructed row cites none), else the scenario's.
        cited = Counter(str(p.source) for _, p in game.setup if p.scenario == scenario.id
                        and not str(p.source).startswith("reconstructed"))
        add(cited.most_common(1)[0][0] if cited else str(scenario.source), Clause(f"applied: scenario {scenario.id}'s set-up is the data (setup.csv, the faces "
                                         "rules.toml's start_reduced gives), the initial state", (),
                                         ("adjudicator/systems/classic/system.py::Classic.initial_state",),
                                         ("setup.csv",),
                                         ("tests/test_classic_rules.py::test_soviet_armies_start_reduced_and_germans_"
                                          "full",)))
    sequence = next((i.source for i in game.manifest.sequence), None)
    if sequence is not None:
        add(str(sequence), Clause("phases in order (the engine, from game.toml's [[sequence]], and the phasing side "
                                  "from it); each phase allows only its entries, by its side, for its unit types; "
                                  "nothing done in a phase skipped on a turn", ("turn", "phase"), ENGINE,
                                  ("game.toml [[sequence]]",)))
    add(rules.movement.source, Clause("from the unit's hex, hex by hex, on the map (a path stepping off its edge is a "
                                      "finding, the replay going on), no prohibited terrain or hexside, no enemy unit, "
                                      "the allowance (a condition's cap or factor; a unit with none left moves "
                                      "not at all, whatever zones its path crosses), each phase anew",
                                      ("move",), (), ("rules.toml [movement]", "terrain.toml mp_cost"),
                                      (f"{ONE}test_a_unit_with_no_allowance_breaks_the_allowance_not_a_zone",)))
    add(rules.zoc.source, Clause(f"zones of control of kind '{rules.zoc.kind}': entering one ends a unit's move for "
                                 "the phase" + (", leaving one by moving is barred" if rules.zoc.kind == "lock" else
                                                ", not from one straight into another" if rules.zoc.kind ==
                                                "no_zoc_to_zoc" else ""), ("move",), (), ("rules.toml [zoc]",)))
    add(rules.stacking.source, Clause(f"at most {rules.stacking.limit} {rules.stacking.count} a hex, checked "
                                      f"{rules.stacking.checked.replace('_', ' ')}; an overstack reported once"
                                      + ("; a log ending inside a phase has each overstack not yet reported noted on "
                                         "the line of the entry that made it" if rules.stacking.checked ==
                                         "end_of_phase" else ""),
                                      ("move", "retreat", "place"),
                                      (*BOUNDARY, "adjudicator/systems/classic/system.py::"
                                       "Classic._overstacks_when_the_log_ends"), ("rules.toml [stacking]",),
                                      ("tests/test_classic_rules.py::test_stacking_of_a_log_ending_inside_a_phase",)))
    if rules.movement.rail is not None:
        add(rules.movement.rail.source, Clause("rail moves along rail hexsides only, from a rail hex, by the sides "
                                               "allowed, within their limit, enemy zones as the data say",
                                               ("move",), (), ("rules.toml [movement.rail]", "hexsides.csv rail")))
    strategic = rules.movement.strategic
    if strategic is not None:
        add(strategic.source, Clause(f"strategic moves (`UNIT strategic PATH`, or every move of a strategic phase): "
                                     f"the allowance x{strategic.factor:g} (a move over it cites this section), every "
                                     f"hex, the start included, more than {strategic.keep_away} hex(es) from the enemy; "
                                     "a unit's movement in a phase strategic or not, all of it", ("move",),
                                     ("adjudicator/systems/classic/movement.py::_over_allowance",),
                                     ("rules.toml [movement.strategic]",),
                                     ("tests/test_classic_generality.py::test_strategic_movement",
                                      f"{AUDIT}test_a_strategic_move_keeps_away_and_has_twice_the_allowance",
                                      f"{AUDIT}test_a_units_movement_in_a_phase_is_strategic_or_not")))
    for condition in rules.condition:
        add(condition.source, Clause(f"{condition.name} on turns {', '.join(map(str, condition.turns))}: movement "
                                     "capped or multiplied, attack and defence strengths multiplied",
                                     ("move", "attack"), (), (f"rules.toml [[condition]] {condition.id}",)))
    for record in rules.turn:
        add(record.source, Clause(f"turn {record.number}'s movement allowances (the turn record) for "
                                  f"{', '.join(record.sides) or 'both sides'}", ("move",), (),
                                  (f"rules.toml [[turn]] {record.number}",)))
    several = ("an attack on several hexes at once: strengths summed, the terrain most favourable to the defender, "
               "the result in every hex" if rules.combat.multi_hex else "an attack on several hexes at once refused")
    compulsory = ("; with `must_attack`, as the combat phase ends (or a marker passes it over unwritten) every "
                  "phasing unit that stood next to an enemy as the phase began has attacked and every enemy unit that "
                  "stood next to one has been attacked, one error a phase, judged as one arrangement (each unit "
                  "attacking once, each hex attacked once, at odds the rules allow): owed is what an arrangement could "
                  "meet besides all the players met (an attack the rules refuse owed by nobody)"
                  if rules.combat.must_attack else "")
    add(rules.combat.source, Clause("attackers of the phasing side next to an enemy hex, each named once, each unit "
                                    "attacking and attacked once a phase (an attacked unit wherever it retreats), "
                                    "strengths (conditions, terrain multipliers) to an odds or differential "
                                    "column, terrain shifts, the claimed odds, die and result against the table (a "
                                    "claim that is what the attack gives without the condition in force cites the "
                                    "condition's section; a result the table gives on the odds claimed is one error "
                                    "with them); an attack refused (one error, each reason once naming the units "
                                    "it concerns) owes nothing of its result, and its units and "
                                    "hex may attack and be attacked lawfully after it; " + several + compulsory + "; unfinished: whether every battle is announced before "
                                    "the first is resolved (an attack entry announces and resolves its battle at once)",
                                    ("attack",),
                                    ("adjudicator/systems/classic/compulsory.py::judge",) if rules.combat.must_attack
                                    else (), ("crt.toml", "rules.toml [[combat.terrain]]",
                                                      "units.csv values"),
                                    ("tests/test_attack_slips.py::test_an_attacker_named_twice_is_one_error",
                                     f"{ONE}test_a_refused_attack_owes_nothing",
                                     f"{ONE}test_units_of_a_refused_attack_may_then_attack_lawfully",
                                     f"{ONE}test_an_attack_outside_a_combat_phase_owes_nothing",
                                     f"{AUDIT}test_a_unit_retreated_into_a_hex_not_attacked_is_not_attacked_again",
                                     f"{AUDIT}test_an_attack_refused_for_several_reasons_is_one_error",
                                     f"{S22}test_one_fault_of_several_attackers_is_said_once_"
                                     "naming_them",
                                     f"{AUDIT}test_a_compulsory_attack_counts_the_units_attacked",
                                     f"{AUDIT}test_a_compulsory_attack_is_owed_by_the_units_next_to_each_other_as_the_"
                                     "phase_began",
                                     "tests/test_classic_generality.py::test_compulsory_attacks_in_a_combat_phase_left_"
                                     "unwritten", f"{RHINE}test_an_attack_below_the_table_is_not_compulsory",
                                     f"{GENERALITY}test_compulsory_attacks_are_judged_as_one_arrangement",
                                     f"{GENERALITY}test_a_compulsory_attack_one_unit_could_make_is_owed",
                                     f"{GENERALITY}test_compulsory_attacks_past_the_search_budget_are_judged_hex_by_"
                                     "hex")))
    for source in sorted({r.source for r in rules.combat.results}):
        codes = ", ".join(r.code for r in rules.combat.results if r.source == source)
        add(source, Clause(f"results {codes} carried out: steps lost by the units that owe them, an exchange's "
                           "printed strength (a step at a time while it is short, none past the one that matches "
                           "it), a unit's last step lost (`deplete` or `eliminate`) its elimination, what is "
                           "still owed when the log moves on (one error a result, each other unit's part a note; noted "
                           "when the log ends; noted too when a loss went to a unit that owed none, that loss's error "
                           "being the one)", ("loss",), OWED,
                           ("rules.toml [[combat.results]]",),
                           (f"{AUDIT}test_a_loss_written_for_the_wrong_unit_is_one_error",
                            f"{AUDIT}test_a_loss_no_result_owes_cites_the_results_section",
                            f"{ONE}test_the_loss_of_a_units_last_step_is_its_elimination",
                            f"{ONE}test_a_retreat_written_before_the_loss_does_not_carry_the_loss_out",
                            f"{ONE}test_a_result_still_owed_when_the_log_ends_is_a_note")))
    add(rules.combat.retreat.source, Clause("retreats the result owes: their length, on the map, away from the "
                                            "combat, no enemy unit or zone as the data say, who decides them (the "
                                            "side `Side:` or `Side>` names, against the data's chooser), blocked "
                                            "retreats; a retreat written for a unit that owes none, or an advance "
                                            "into the hex its defenders still hold, is one error, the retreat then "
                                            "left owed a note; a unit eliminated against the result and then "
                                            "retreated (or advanced) as the result wanted is one error, at the loss, "
                                            "the retreat read from where the result found it; a unit whose retreat "
                                            "was never written judged as astray (what it alone makes a breach a note) "
                                            "until it moves",
                                            ("retreat", "loss"), OWED, ("rules.toml [combat.retreat]",),
                                            (f"{ONE}test_an_attacker_with_no_retreat_is_eliminated",
                                             f"{S22}test_a_retreat_written_for_a_unit_that_owed_none_is_one_error",
                                             f"{S22}test_an_advance_before_the_defenders_retreat_is_one_error",
                                             f"{S22}test_a_unit_that_never_made_its_retreat_is_judged_as_astray",
                                             f"{RHINE}test_a_result_left_undone_by_a_stack_is_one_error",
                                             f"{S23}test_a_defender_eliminated_against_a_retreat_and_retreated_is_one_"
                                             "error",
                                             f"{S23}test_an_attacker_eliminated_past_an_exchange_and_advanced_is_one_"
                                             "error",
                                             f"{S23}test_an_attack_written_twice_is_one_error",
                                             f"{S23}test_a_loss_left_out_before_the_advance_is_one_error",
                                             f"{S23}test_an_elimination_left_out_is_one_error",
                                             f"{S23}test_results_of_an_attack_left_out_are_one_error",
                                             f"{S23}test_an_attack_written_after_its_results_is_one_error",
                                             f"{S23}test_a_step_loss_left_out_is_one_error",
                                             f"{S23}test_an_advance_written_after_the_next_attack_is_one_error",
                                             f"{S23}test_a_retreat_written_after_the_next_attack_is_one_error",
                                             f"{S23}test_a_unit_found_where_its_unwritten_retreat_could_end_is_read_"
                                             "as_retreated")))
    add(rules.combat.advance.source, Clause("advances right after the combat, by its attackers, into the emptied hex, "
                                            "no farther than the data allow", ("advance",), (),
                                            ("rules.toml [combat.advance]",)))
    if rules.replacements is not None:
        add(rules.replacements.source, Clause("points a turn (replacements.csv), what a point buys, where a rebuilt "
                                              "unit appears" + (" (an empty hex: this section's breach, not "
                                                                "stacking's)" if rules.replacements.empty_hex else "")
                                              + ", once a unit a phase, units available from a turn; a "
                                              "refused replacement spends no point",
                                              ("place",), (), ("rules.toml [replacements]", "replacements.csv"),
                                              (f"{S22}test_a_rebuilt_unit_in_an_occupied_"
                                               "city_breaks_the_replacements_empty_hex",
                                               f"{S22}test_a_unit_placed_where_the_rules_refuse_is_judged_as_astray")))
    if rules.reinforcements is not None:
        add(rules.reinforcements.source, Clause("reinforcements on their turn at their entry; one refused (placed "
                                                "early) is placed again lawfully, and not reported as not placed"
                                                + ("; those not placed on their turn are one error as the turn ends (the "
                                                   "last turn's as the game ends: the log's end in its last phase; "
                                                   "none for a turn the log has not finished), its late placement a "
                                                   "note" if rules.reinforcements.late == "prohibited"
                                                   else "; late ones allowed"),
                                                ("place",), (*BOUNDARY, "adjudicator/systems/classic/system.py::"
                                                             "Classic.finish"),
                                                ("rules.toml [reinforcements]", "reinforcements.csv"),
                                                (f"{ONE}test_a_reinforcement_placed_early_and_again_on_its_"
                                                 "turn_is_one_error",
                                                 f"{ONE}test_a_late_reinforcement_is_one_error_as_its_turn_ends",
                                                 f"{RHINE}test_a_reinforcement_due_on_the_last_turn_is_owed_at_the_"
                                                 "games_end",
                                                 f"{RHINE}test_reinforcements_left_off_as_a_turn_ends_are_one_error")))
    if rules.supply is not None:
        add(rules.supply.source, Clause("a line to the side's sources through no enemy unit or zone as the data "
                                        "say, the hex it is traced from excepted (asked by replacements, cut-off "
                                        "units and the movement model's supply line)", ("place",),
                                        ("adjudicator/systems/classic/base.py::communication_line",),
                                        ("rules.toml [supply]", "areas.toml"),
                                        ("tests/test_classic_generality.py::test_the_supply_line_drawn_is_the_line_"
                                         "judged",)))
    if rules.victory is not None:
        add(rules.victory.source, Clause("control of places by the last side to enter; the conditions in order at "
                                         "the end (or at any time, ending the game); a claim of victory checked: one "
                                         "of a condition holding at any time when made, one of a condition counted at "
                                         "the end refused before the last phase and, made in it, judged on the "
                                         "position the game ends in (it ends no play); the result noted when the last "
                                         "turn's last phase is reached; a claim of a draw (`declare draw`) judged as "
                                         "one of victory where a condition (or `otherwise`) gives a draw, and "
                                         "refused where none does", ("declare",),
                                         ("adjudicator/systems/classic/victory.py::judge_claims",
                                          "adjudicator/systems/classic/system.py::Classic.finish"),
                                         ("rules.toml [victory]", "places.csv"),
                                         (f"{ONE}test_a_draw_claimed_in_a_game_with_none_misreads_its_victory_"
                                          "rules",)))
    # A rule area citing a section of its own (a terrain's combat effect, a victory condition, a rail phase) is
    # judged with its area's entries: the section is checked, not data only.
    for where, source, key in rules.citations():
        if source not in out:
            kinds = _CITED_BY.get(str(key[0]), ())
            add(source, Clause(f"{where} as rules.toml gives it", kinds, (),
                               (f"rules.toml [{'.'.join(str(k) for k in key[:-1] if not isinstance(k, int))}]",)))
    return out


_CITED_BY: dict[str, tuple[str, ...]] = {
    "movement": ("move",), "condition": ("move", "attack"), "turn": ("move",), "zoc": ("move",),
    "stacking": ("move", "retreat", "place"), "combat": ("attack",), "replacements": ("place",),
    "reinforcements": ("place",), "supply": ("place",), "victory": ("declare",),
}
"""The entries judging each rule area of rules.toml (its first key)."""


def _where(registry: Registry[ClassicState], names: tuple[str, ...]) -> list[str]:
    """`path::function` of the named handlers' checks (their applies when they have no check)."""
    by_name = {h.name: h for h in registry.handlers}
    return [where_of(by_name[n].check or by_name[n].apply) for n in names
            if n in by_name and (by_name[n].check or by_name[n].apply) is not None]


def coverage(game: Game, registry: Registry[ClassicState], examples: Path | None,
             tests: dict[str, tuple[str, ...]] | None = None) -> list[Row]:
    """Every section of the game's rules.toml: checked (with its handlers, data, logs, tests) or data only."""
    rules = tables(game).rules
    clauses = _clauses(game)
    logs = breach_logs(examples)
    rows: list[Row] = []
    for section in rules.section:
        found = clauses.get(section.id, [])
        if not found:
            rows.append(Row(section.id, section.title, "data: read from the game's files, no entry of a log to "
                            "check", (), (), (), ()))
            continue
        where: list[str] = []
        rests: list[str] = []
        declared: list[str] = []
        by_name = {h.name: h for h in registry.handlers}
        for clause in found:
            where += [*_where(registry, clause.handlers), *clause.extra]
            rests += clause.rests_on
            declared += [*clause.tests, *(t for name in clause.handlers if name in by_name for t in by_name[name].tests)]
        named = [f"{EXAMPLE_TEST}[{log}]" for log in logs.get(section.id, [])]
        status = "; ".join(c.status for c in found)
        rows.append(Row(section.id, section.title, status if status.startswith(("applied", "the data")) else
                        "checked: " + status, tuple(dict.fromkeys(where)), tuple(dict.fromkeys(rests)),
                        tuple(logs.get(section.id, [])),
                        tuple(dict.fromkeys([*named, *declared, *(tests or {}).get(section.id, ())]))))
    return rows


def rows_for(game: Game, examples: Path | None) -> list[Row]:
    """Every section of a classic game's rules.toml, with the series' registry."""
    from adjudicator.systems.classic.system import REGISTRY
    return coverage(game, REGISTRY, examples)
