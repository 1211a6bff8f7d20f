"""The classic series as a plug-in of the replay engine: a typed registry of handlers whose every number and
choice comes from the game's data (rules.toml, terrain.toml, crt.toml, the schedules); no code names a game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.contract import (
    CombatAccount, EngineChecks, Outcome, Position, SequencePoint, StepNoun, TurnContext, TurnKeeper, UnitPlace,
    played_scenario,
)
from adjudicator.findings import Finding, SectionTable, one_error
from adjudicator.notation.entries import (
    Advance, Attack, Bombard, Comment, Declare, Entry, Header, Loss, Move, Place, Retreat, StepMarker, TurnMarker,
)
from adjudicator.notation.text import iter_units_and_hexes
from adjudicator.registry import Handler, Registry
from adjudicator.systems.base import PerGame, SystemBase
from adjudicator.systems.classic import arrivals, combat, compulsory, early_results, movement, results, victory
from adjudicator.systems.classic.base import finding, rules_of
from adjudicator.systems.classic.movement_model import ClassicMovement
from adjudicator.systems.classic.state import (
    KEEPER, ClassicState, PhaseLog, evolve, held_by_side, index_by_hex, reindexed, relocate,
)
from adjudicator.systems.classic.tables import tables
from wargame.errors import ReplayError, WargameError
from wargame.game import Game


def _check_place(state: ClassicState, entry: Place) -> list[Finding]:
    if entry.how == "reinforce":
        return arrivals.check_reinforce(state, entry)
    if entry.how == "replace":
        return arrivals.check_replace(state, entry)
    return [finding(state, "error", "log", entry, f"'{entry.how}' is not a placement of this game (reinforce, "
                    "replace)")]


def _check_turn(state: ClassicState, entry: TurnMarker) -> list[Finding]:
    """Turns come one after the other from the scenario's first, and none after its last."""
    t = rules_of(state)
    section = t.sequence[0].source if t.sequence else t.rules.movement.source
    scenario = next((s for s in state.game.manifest.scenario if s.id == state.scenario), None)
    if scenario is None:
        return []
    expected = scenario.first_turn if state.at.turn == 0 else state.at.turn + 1
    if entry.turn > scenario.last_turn:
        return [finding(state, "error", section, entry, f"turn {entry.turn}: the game ends with turn "
                        f"{scenario.last_turn}")]
    if entry.turn != expected:
        before = "the set-up" if state.at.turn == 0 else f"turn {state.at.turn}"
        return [finding(state, "error", section, entry, f"turn {entry.turn} comes after {before}; the next turn is "
                        f"{expected}")]
    return []


def _turn_ends(state: ClassicState, entry: TurnMarker) -> ClassicState:
    """The state once a turn is over: the reinforcements reported not placed on it (`_boundary`), so that their late
    placement is one breach, one error."""
    if state.at.turn == 0:
        return state
    return evolve(state, overdue=state.overdue | frozenset(u for u, _ in arrivals.overdue(state, state.at.turn)))


def _repeats(state: ClassicState, entry: Entry) -> bool:
    """Whether an entry is the combat whose result is being carried out written again, by the same units on the same
    hexes, which the rules refuse (a unit attacks once): the result before it is still owed, not left undone (one
    breach, one error)."""
    attack = entry.as_attack()
    p = state.pending
    return attack is not None and p is not None and not p.refused and \
        set(attack.attackers) == set(p.attackers) and attack.defending_hexes() == p.defended() and \
        bool(combat.refusal(state, attack))


def _unplaced(state: ClassicState, entry: TurnMarker | None, line: int = 0, ending: str = "") -> list[Finding]:
    """The reinforcements due by the turn now ending (at the next `Turn` marker, or at the game's end) and not placed:
    one breach a turn, its first unit the error and each other a note (the rulings register: one reading in every
    system)."""
    t = rules_of(state)
    section = t.rules.reinforcements.source if t.rules.reinforcements else t.rules.movement.source
    return one_error([finding(state, "error", section, entry, f"{unit_id} was due on turn {due} and was not placed"
                              f"{ending}", line=line) for unit_id, due in arrivals.overdue(state, state.at.turn)],
                     "more reinforcements left off as the same turn ended: one error")


_KEEPER: TurnKeeper[ClassicState, PhaseLog] = replace(KEEPER, turn_ends=_turn_ends)
"""The engine keeps a classic game's turn (state.KEEPER), and records what was reported due as a turn ended."""

_T = "tests/test_classic_rules.py::"
_G = "tests/test_classic_generality.py::"
_R = "tests/test_classic_rulings.py::"
REGISTRY: Registry[ClassicState] = Registry.of(
    # The engine advances the turn and phase at their markers (house style 19): these judge and apply nothing more.
    Handler("turn", TurnMarker, "sequence", _check_turn, tests=(f"{_T}test_phases_in_order_and_their_entries",)),
    Handler("phase", StepMarker, "sequence",
            tests=(f"{_T}test_phases_in_order_and_their_entries", f"{_T}test_an_overstack_is_reported_once")),
    Handler("move", Move, "movement", movement.check_move, movement.apply_move, ("movement", "zoc", "stacking"),
            (f"{_T}test_mud_lets_a_unit_move_one_hex_even_into_forest", f"{_T}test_a_rail_move_is_capped_by_the_allowance",
             f"{_T}test_a_move_or_retreat_off_the_map_is_a_finding_and_the_replay_goes_on",
             f"{_G}test_locking_zones_of_control", f"{_G}test_stacking_by_steps_at_the_end_of_each_move")),
    Handler("attack", Attack, "combat", combat.check_attack, combat.apply_attack, ("terrain",),
            (f"{_T}test_mud_halves_attackers_keeping_fractions", f"{_T}test_shifts_count_from_odds_above_the_table",
             f"{_T}test_a_fortification_shifts_only_for_a_soviet_defender", f"{_T}test_the_odds_claimed_are_the_column_read",
             f"{_T}test_an_attack_below_one_to_one_has_no_effect",
             f"{_R}test_a_result_read_without_the_mud_cites_the_mud",
             f"{_R}test_a_result_read_on_the_column_claimed_is_part_of_that_misreading",
             f"{_T}test_odds_past_the_table_show_the_column_they_count_from", f"{_G}test_a_differential_table",
             f"{_G}test_odds_below_the_table_are_refused")),
    Handler("loss", Loss, "results", results.check_loss, results.apply_loss,
            tests=(f"{_T}test_an_exchange_costs_the_attacker_the_printed_strength_lost",
                   f"{_T}test_after_a_wrong_result_the_tables_may_be_carried_out",
                   f"{_R}test_an_exchange_takes_no_step_past_the_one_that_matches_the_defenders_loss",
                   f"{_R}test_an_exchange_may_take_a_units_last_step_when_it_is_needed")),
    Handler("retreat", Retreat, "retreat", results.check_retreat, results.apply_retreat, ("movement", "zoc"),
            (f"{_T}test_a_retreat_goes_on_past_friendly_units_to_an_empty_hex",
             f"{_T}test_the_attacker_writes_the_defenders_retreat",
             f"{_R}test_a_retreat_the_defender_records_as_his_is_refused_either_way",
             f"{_T}test_a_move_or_retreat_off_the_map_is_a_finding_and_the_replay_goes_on",
             f"{_G}test_a_retreat_chosen_by_its_owner")),
    Handler("advance", Advance, "advance", results.check_advance, results.apply_advance,
            tests=(f"{_R}test_an_advance_after_the_next_battle_says_it_came_late",)),
    Handler("place", Place, "arrivals", _check_place, arrivals.apply_place, ("arrival", "supply"),
            (f"{_T}test_a_soviet_rebuilt_in_moscow_needs_no_communication", f"{_T}test_a_unit_takes_one_point_a_phase",
             f"{_T}test_a_rebuilt_unit_may_appear_in_an_empty_city_in_an_enemy_zone",
             f"{_T}test_a_refused_replacement_spends_no_point", f"{_R}test_a_replacement_is_judged_once")),
    Handler("declare", Declare, "victory", victory.check_declare, victory.apply_declare, ("victory",),
            (f"{_T}test_victory_is_read_at_the_end_and_a_claim_checked",
             f"{_T}test_a_claim_in_the_last_phase_is_judged_at_the_games_end",
             f"{_G}test_a_victory_at_any_time_ends_the_game")),
)
"""The classic series' handlers; a game on it changes their numbers through its data, a variant through
`Registry.adding/replacing/removing`."""

KINDS = frozenset({"header", "comment", "turn", "step", "move", "attack", "loss", "retreat", "advance", "place",
                   "declare"})


class Classic(SystemBase[ClassicState]):
    """The classic series for one game: its sections are the game's own (rules.toml's `[[section]]`)."""

    step_noun: StepNoun = "phase"
    entry_kinds = KINDS
    foreign_kinds = {"bombard": "is not an entry of this game: this game has no bombardment",
                     "markers": "is not an entry of this game: this game has no support fire markers",
                     "rolloff": "is not an entry of this game: this game has no action step",
                     "action": "is not an entry of this game: this game has no actions",
                     "activate": "is not an entry of this game: this game activates no stacks",
                     "income": "is not an entry of this game: this game has no supply points",
                     "capture": "is not an entry of this game: this game has no supply points",
                     "stand": "is not an entry of this game: this game has no standing fast",
                     "pass": "is not an entry of this game: a classic game's phases have no passes"}
    engine_checks = EngineChecks()

    def __init__(self, game: Game, registry: Registry[ClassicState] = REGISTRY) -> None:
        self.game = game
        self.registry = registry
        self.name = game.id
        self.table: SectionTable = tables(game).table
        # The engine leaves a retreat to the player the rules let choose it (the other one, in some games).
        # A phase in which nothing is done may go unwritten: the next marker names a later phase of the turn.
        self.engine_checks = EngineChecks(retreats=tables(game).rules.combat.retreat.chooser == "owner",
                                          skip_phases=True)
        self._movement = ClassicMovement()
        self._judged: tuple[ClassicState, Entry, ClassicState, list[Finding]] | None = None
        self._misplaced: tuple[ClassicState, Entry] | None = None
        self._retreated: tuple[ClassicState, Entry, tuple[ClassicState, Finding] | None] | None = None
        self._early: tuple[ClassicState, Entry, ClassicState | None] | None = None

    @property
    def auditor(self) -> Classic:
        """A classic game audits a disputed combat."""
        return self

    @property
    def movement(self) -> ClassicMovement:
        """Where units may move, zones of control, retreats, advances and lines of communication."""
        return self._movement

    @property
    def turn_keeper(self) -> TurnKeeper[ClassicState, PhaseLog]:
        """The engine keeps a classic game's turn, phase and phase record."""
        return _KEEPER

    def initial_state(self, game: Game, headers: Sequence[Header]) -> ClassicState:
        """The scenario's set-up: units in their hexes and boxes, control of the victory places."""
        scenario = played_scenario(game, headers)
        location = {p.piece: p.location for _, p in game.setup if p.scenario == scenario and p.piece in
                    game.units_by_id}
        # The rules may set up a side's units on their reduced face (rules.toml's start_reduced).
        reduced = frozenset(u for u, where in location.items() if game.grid.is_label(where)
                            and game.units_by_id[u].side in tables(game).rules.start_reduced)
        by_hex = index_by_hex(game, location)
        state = ClassicState(game, scenario, TurnContext(), location, reduced, {}, by_hex=by_hex,
                             held=held_by_side(game, by_hex))
        return evolve(state, control=victory.initial_control(state))

    def check_rules(self, state: ClassicState, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        """The game's findings for an entry, after the engine's generic checks."""
        if isinstance(entry, (Header, Comment)):
            return []
        retreated = self._as_retreated(state, entry)
        if retreated is not None:
            # Found where a retreat never written (its one error given) could lawfully have ended: read as made there
            # (the retreat written late: nothing more to judge).
            late = isinstance(entry, Retreat) and retreated[0].location.get(entry.unit) == entry.path[-1]
            return [retreated[1]] if late else [retreated[1], *self.check_rules(retreated[0], entry, kind_rules)]
        before = self._before_results(state, entry)
        if before is not None:
            # An attack written after its results (their one error given): judged on the position they found.
            return [finding(state, "note", rules_of(state).rules.combat.source, entry, "judged on the position before "
                            f"the results written for it from line {state.log.orphaned} (their one error there: an "
                            "attack follows its results)"), *self.check_rules(before, entry, kind_rules)]
        out: list[Finding] = []
        if state.pending is not None and not results.carries_out(entry) and not _repeats(state, entry):
            out += results.owed(state, entry)
        if isinstance(entry, (StepMarker, TurnMarker)):
            out += self._boundary(state, entry)
        phase = rules_of(state).phases.get(state.at.step or "")
        skipped = phase is not None and state.at.turn in phase.skipped_turns
        if isinstance(entry, Attack) and (skipped or not kind_rules):
            # An attack where the sequence of play allows none: refused, its result not owed (`apply`).
            self._misplaced = (state, entry)
        if phase is not None and skipped and not isinstance(entry, (StepMarker, TurnMarker)):
            return [*out, finding(state, "error", phase.source, entry, f"turn {state.at.turn}: nothing is done in the "
                                  f"{state.at.step} phase on this turn")]
        if kind_rules:
            found = self._judge(state, entry)[1]
            if state.log.orphaned and results.has_no_combat(state, entry):
                # Results with no combat to carry out after the first since the phase's last attack (its one error):
                # the same mistake (an attack left out, or written after its results), noted.
                found = [f if f.severity != "error" else replace(f, severity="note", message=f"{f.message} (not a "
                         f"breach of its own: the result carried out on line {state.log.orphaned} had no combat "
                         "either; an attack left out?)") for f in found]
            out += found
        return self._without_astray(state, entry, out, kind_rules)

    def _without_astray(self, state: ClassicState, entry: Entry, found: list[Finding], kind_rules: bool
                        ) -> list[Finding]:
        """The findings with the errors only a unit astray (`ClassicState.astray`: a retreat never written, a placement
        refused) brings about made notes (house style 16: that breach was the error; where the unit lawfully is the
        rules do not fix, so it is judged without it). An entry naming the unit, or attacking its hex, is judged as it
        stands."""
        stray = {u: why for u, why in state.astray.items() if state.hex_of(u) is not None}
        if not stray or not any(f.severity == "error" for f in found):
            return found
        named = {value for kind, value in iter_units_and_hexes(entry) if kind == "unit"}
        attacked = entry.attacked_hexes()
        if named & stray.keys() or any(state.location[u] in attacked for u in stray):
            return found
        lawful = evolve(self.with_units(state, {u: w for u, w in state.location.items() if u not in stray}),
                        astray={})
        # The memos of the entry's own check are kept: its application reads them on the state it was judged in.
        memos = self._judged, self._misplaced
        kept = {f.rule for f in self.check_rules(lawful, entry, kind_rules) if f.severity == "error"}
        self._judged, self._misplaced = memos
        if all(f.rule in kept for f in found if f.severity == "error"):
            return found
        cause = "; ".join(why for _, why in sorted(stray.items()))
        return [f if f.severity != "error" or f.rule in kept else
                replace(f, severity="note", message=f"{f.message} (not a breach of its own: {cause}; without it "
                                                    "there, this is no breach)") for f in found]

    def _judge(self, state: ClassicState, entry: Entry) -> tuple[ClassicState, list[Finding]]:
        """The state an entry is judged in and the handlers' findings there, kept for its application (which asks
        again of the same state and entry: the engine checks an entry, then applies it)."""
        known = self._judged
        if known is not None and known[0] is state and known[1] is entry:
            return known[2], known[3]
        judged, found = self._branch(state, entry)
        self._judged = (state, entry, judged, found)
        return judged, found

    def _branch(self, state: ClassicState, entry: Entry) -> tuple[ClassicState, list[Finding]]:
        """The state an entry carrying out a combat is judged in: the claimed result's, unless the entry breaks
        it and fits the table's result (then that one's, from now on); and the findings there."""
        found = self.registry.check(state, entry)
        p = state.pending
        if p is None or p.alternative is None or not results.carries_out(entry) or \
                not any(f.severity == "error" for f in found):
            return state, found
        # The claim was found wrong at the attack: what does not fit it is judged by the table's result.
        judged = evolve(state, pending=p.alternative)
        return judged, self.registry.check(judged, entry)

    def _refused(self, state: ClassicState, entry: Entry) -> bool:
        """Whether the engine's check of this entry in this state found it where the sequence of play allows none."""
        known = self._misplaced
        return known is not None and known[0] is state and known[1] is entry

    def _unpaid(self, state: ClassicState, entry: Entry, found: list[Finding], after: ClassicState) -> ClassicState:
        """After a placement the rules refuse (placed as written): a replacement's points and the units' one point a
        phase as they were, a reinforcement not yet arrived. One breach, one error: the later replacements are
        judged on what the lawful ones spent, and a reinforcement placed early is placed again lawfully on its
        turn (not "arrived already")."""
        if not isinstance(entry, Place) or not any(f.severity == "error" for f in found):
            return after
        if entry.how == "reinforce":
            return evolve(after, arrived=state.arrived)
        return evolve(after, log=evolve(after.log, points=state.log.points, replaced=state.log.replaced))

    def _boundary(self, state: ClassicState, entry: StepMarker | TurnMarker) -> list[Finding]:
        """What is due as a phase or turn ends: stacks within the limit, reinforcements placed on their turn."""
        t = rules_of(state)
        # Before the first phase the stacks are the set-up's: its data, which `vmodbuild validate` checks.
        out = [finding(state, "error", t.rules.stacking.source, entry, f"{label} is left overstacked "
                       f"({', '.join(state.units_in(label))}) at the end of the {state.at.step} phase")
               for label, _ in (movement.phase_stacking(state) if state.at.step is not None else [])
               if (label, state.units_in(label)) not in state.overstacks]
        out += compulsory.judge(state, entry)
        if isinstance(entry, TurnMarker) and state.at.turn > 0:
            out += _unplaced(state, entry)
        return out

    def _as_retreated(self, state: ClassicState, entry: Entry) -> tuple[ClassicState, Finding] | None:
        """An entry that finds a unit astray for a retreat never written in a hex one of the retreats it owed could
        have ended in (moving it from there, or restoring it there): the position with that retreat made, and a note
        saying so (None: not so). The players went on from a lawful retreat; its one error was that it went unwritten."""
        known = self._retreated
        if known is not None and known[0] is state and known[1] is entry:
            return known[2]
        place = entry if isinstance(entry, Place) else None
        unit = entry.relocated_unit() or (place.unit if place is not None else None)
        where = entry.path_hexes()[0] if entry.path_hexes() else (place.hex if place is not None else None)
        answer: tuple[ClassicState, Finding] | None = None
        ends = state.retreat_ends.get(unit, frozenset()) if unit is not None and unit in state.astray else frozenset()
        late = isinstance(entry, Retreat) and entry.path[0] == state.location.get(entry.unit) and entry.path[-1] in ends
        if late:
            # The retreat itself, written after the log moved on (its one error given then), along a lawful path.
            where = entry.path_hexes()[-1]
        if unit is not None and where is not None and where in ends and state.location.get(unit) != where:
            moved = evolve(relocate(state, {unit: where}), astray={u: w for u, w in state.astray.items() if u != unit},
                           retreat_ends={u: e for u, e in state.retreat_ends.items() if u != unit})
            said = "written late here, along a retreat it could lawfully have made" if late else \
                f"read as made to {where}, where this entry finds it"
            note = finding(state, "note", rules_of(state).rules.combat.retreat.source, entry,
                           f"{state.astray[unit]} (its one error): {said}")
            answer = (moved, note)
        self._retreated = (state, entry, answer)
        return answer

    def _before_results(self, state: ClassicState, entry: Entry) -> ClassicState | None:
        """An attack written after results with no combat that touched its units (their one error given): the
        position before them, which it is judged and applied on (None: not so)."""
        attack = entry.as_attack()
        if attack is None or not state.log.early:
            return None
        known = self._early
        if known is not None and known[0] is state and known[1] is entry:
            return known[2]
        before = early_results.undone(state, attack)
        self._early = (state, entry, before)
        return before

    def apply(self, state: ClassicState, entry: Entry) -> ClassicState:
        """The state after an entry, as the log says (a result no longer carried out forgotten)."""
        if isinstance(entry, (Header, Comment)):
            return state
        retreated = self._as_retreated(state, entry)
        if retreated is not None and isinstance(entry, Retreat) and \
                retreated[0].location.get(entry.unit) == entry.path[-1]:
            # The retreat written late along a lawful path: made by `_as_retreated`, control passing as it goes.
            moved = victory.entered(retreated[0], state.game.units_by_id[entry.unit].side, entry.path[1:])
            return victory.standing(victory.any_time(evolve(moved, last_line=entry.line), entry.line))
        if retreated is not None:
            return self.apply(retreated[0], entry)
        found_before = self._before_results(state, entry)
        if found_before is not None:
            return early_results.redone(found_before, self.apply(found_before, entry), state)
        # What the check found (judged once): the branch a combat's result is carried out in, a replacement refused.
        placing = isinstance(entry, Place)
        weighed = results.carries_out(entry) or placing
        judged, found = self._judge(state, entry) if weighed else (state, [])
        judged_in = state
        again = _repeats(state, entry)
        if state.pending is not None and not results.carries_out(entry) and not again:
            # A retreat still owed as the log moves on (its one error given): the unit stands where no rule put it; a
            # defender's loss still owed: the unit is as the table leaves it (the players go on from there).
            state = evolve(results.losses_as_owed(state), pending=None,
                           astray={**state.astray, **results.unretreated(state)},
                           retreat_ends={**state.retreat_ends, **results.retreat_ends(state)})
        if isinstance(entry, (StepMarker, TurnMarker)):
            # Reported once: a stack left over the limit is not a new breach at every later phase's end.
            state = evolve(state, overstacks=frozenset((label, state.units_in(label))
                                                        for label, _ in movement.phase_stacking(state)))
        if results.carries_out(entry):
            state = judged
        try:
            after = self._unpaid(state, entry, found, self.registry.apply(state, entry))
            # Refused where the sequence of play allows no attack, or by the combat rules: the check's answers,
            # read on the state the attack was judged in (worked out once).
            if isinstance(entry, Attack) and (self._refused(judged_in, entry) or combat.refusal(judged_in, entry)):
                after = combat.set_aside(state, after, entry)
            if again:
                # The combat being carried out written again (its one error given): its result is still the one owed.
                after = evolve(after, pending=state.pending)
        except (KeyError, ValueError) as e:
            raise ReplayError(f"line {entry.line}: the entry cannot be applied ({e})") from None
        if after.location is not state.location:
            before = state.location
            arrived = {u: entry.line for u, w in after.location.items() if w != before.get(u)}
            if arrived:
                after = evolve(after, log=evolve(after.log, arrived={**after.log.arrived, **arrived}))
        if after.astray and (after.location is not state.location or after.reduced is not state.reduced):
            # The players have gone on from there once the unit moves, is placed or loses a step.
            after = evolve(after, astray={u: why for u, why in after.astray.items()
                                          if after.location.get(u) == state.location.get(u)
                                          and (u in after.reduced) == (u in state.reduced)})
        if weighed and not placing and any(f.severity == "error" for f in found) and \
                results.has_no_combat(state, entry):
            # A result carried out with no combat to carry out: the first since the phase's last attack is the one
            # error; the units they touch are remembered as they stood (their attack may follow).
            after = evolve(after, log=evolve(after.log, orphaned=state.log.orphaned or entry.line,
                                             early=early_results.remembered(state, entry)))
        if isinstance(entry, Place) and any(f.severity == "error" for f in found) and \
                state.game.grid.is_label(after.location.get(entry.unit, "")):
            # A placement the rules refuse stands as written (its one error given): the unit is astray there.
            after = evolve(after, astray={**after.astray, entry.unit: f"line {entry.line} placed {entry.unit} in "
                                          f"{after.location[entry.unit]}, which no rule allowed"})
        # A claim of a victory counted at the game's end stands or falls with the position as the last phase goes on.
        return victory.standing(victory.any_time(evolve(after, last_line=entry.line), entry.line))

    def finish(self, state: ClassicState) -> list[Finding]:
        """What the log's end leaves owed, and the game's result when its last turn is under way."""
        # A log ending while a result is carried out may go on in the next message: what is still owed is noted at
        # the attack (the register: findings at a log ending inside a phase are notes), as in the other systems.
        out = [replace(f, severity="note", message=f"when the log ends, {f.message}")
               for f in results.owed(state, None, line=state.pending.line if state.pending else 0)]
        last = state.last_line
        t = rules_of(state)
        out += self._overstacks_when_the_log_ends(state)
        if victory.is_over(state) and (state.outcome is None or state.claim_standing):
            # The last turn's end is the game's end: a log ending in its last phase has played the game out (its
            # claims are judged on that position), so what was due on the last turn and never placed is owed; a log
            # stopping earlier may go on in the next message (the register: a turn not yet ended owes nothing).
            out += _unplaced(state, None, last, " by the game's end")
        out += victory.judge_claims(state)
        if t.rules.victory is not None and victory.is_over(state) and state.outcome is None:
            winner, condition = victory.decided(state, True)
            section = condition.source if condition is not None else t.rules.victory.source
            result = "a draw" if winner == "draw" else f"{winner} victory"
            out.append(finding(state, "note", section, None, f"the game ends in {result}: "
                               f"{victory.reason(state, condition)}", line=last))
        return out

    def _overstacks_when_the_log_ends(self, state: ClassicState) -> list[Finding]:
        """A log ending inside a phase whose end judges stacking (stacking's `checked`) never reaches it: each
        overstack not yet reported is a note on the line of the last entry that made it (a later entry of the phase
        could undo it)."""
        if state.at.step is None or self.outcome(state) is not None:
            return []
        stacking = rules_of(state).rules.stacking
        out = []
        for label, _ in movement.phase_stacking(state):
            units = state.units_in(label)
            arrived = [state.log.arrived[u] for u in units if u in state.log.arrived]
            if (label, units) in state.overstacks or not arrived:
                # Reported as an earlier phase ended, until resolved; or it stood as the phase began, judged then
                # (or, before the first phase, by the set-up's check of the data).
                continue
            line = max(arrived)
            out.append(finding(state, "note", stacking.source, None, f"the log ends inside the {state.at.step} phase, "
                               f"whose end judges stacking ({stacking.source}): {label} holds {', '.join(units)}, "
                               f"over the limit of {stacking.limit} {stacking.count}, an error if the phase ended "
                               "now", line=line))
        return out

    def sequence_point(self, state: ClassicState) -> SequencePoint:
        """Turn, phase and player turn (the engine's)."""
        return state.at

    def outcome(self, state: ClassicState) -> Outcome | None:
        """The game decided, if it is: a claim of a victory counted at the game's end ends no play (the last phase goes
        on to its end, and the claim is judged there)."""
        return None if state.claim_standing else state.outcome

    def acting_side(self, state: ClassicState) -> str | None:
        """The side whose player turn is under way."""
        return state.at.player_turn

    def position(self, state: ClassicState) -> Position:
        """What the board shows."""
        places = self.unit_places(state, state.reduced)
        for unit, lost in state.further.items():
            if unit in places and lost:
                places[unit] = UnitPlace(places[unit].place, places[unit].reduced, lost)
        return Position(state.scenario, self.sequence_point(state), self.step_noun, places, outcome=state.outcome)

    def details(self, state: ClassicState) -> dict[str, object]:
        """Control of the victory places, and the steps units of three or four steps have lost past their reduced
        face (which a reduced face alone does not show)."""
        further = {"further_reduced": dict(sorted(state.further.items()))} if state.further else {}
        return {"control": dict(sorted(state.control.items())), **further}

    # -- the combat audit --------------------------------------------------------------------------------------
    def account(self, state: ClassicState, entry: Attack | Bombard) -> CombatAccount:
        """An attack computed for a dispute."""
        if isinstance(entry, Bombard):
            raise WargameError(f"{self.name} has no bombardment")
        return combat.account(state, entry)

    def with_units(self, state: ClassicState, placed: Mapping[str, str]) -> ClassicState:
        """The state with only these units on the map."""
        location = {u: where for u, where in state.location.items() if not state.game.grid.is_label(where)}
        return relocate(reindexed(state, location), placed)


for_game = PerGame(Classic)
"""The classic system of a game, made once per game."""
