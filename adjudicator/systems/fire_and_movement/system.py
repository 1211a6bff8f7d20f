"""The Fire & Movement series (rules 3.0-9.0) as a plug-in of the replay engine: its rule areas
(composed components such as `zoc`, and the areas still mixed in), with the registry that sends each
entry to its check and its application.

A folio (a game of the series with its exclusive rules) subclasses `FireAndMovement`, answers the
hooks of `base.py` its rules change, and builds its registry from the series' by name (see `omaha/`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from adjudicator.contract import (
    AdvanceOption, CombatAccount, EngineChecks, MarkerUse, Outcome, Position, Reach, RetreatOption, SequencePoint,
    StepNoun, TurnContext, TurnKeeper, kind_of, played_scenario,
)
from adjudicator.findings import Finding
from adjudicator.notation.entries import (
    Advance, Attack, Bombard, Comment, Entry, Header, Loss, Move, Place, Retreat, RollOff, StandFast, StepMarker,
    SupportMarkers, TurnMarker,
)
from adjudicator.registry import Handler, Registry
from adjudicator.systems.fire_and_movement.base import SeriesRules
from adjudicator.systems.fire_and_movement.bombardment import Bombardment
from adjudicator.systems.fire_and_movement.combat import FmAudit, Modifier, Support
from adjudicator.systems.fire_and_movement.combat_results import CombatResults
from adjudicator.systems.fire_and_movement.dispute import fm_account
from adjudicator.systems.fire_and_movement.ground_combat import GroundCombat
from adjudicator.systems.fire_and_movement.markers import Tally
from adjudicator.systems.fire_and_movement.movement import Movement, MoveRule
from adjudicator.systems.fire_and_movement.results import FmCombat, Owed, RetreatRoom
from adjudicator.systems.fire_and_movement.retreat import Retreats
from adjudicator.systems.fire_and_movement.sequence import SequenceOfPlay
from adjudicator.systems.fire_and_movement.state import (
    FireAndMovementState, PhaseLog, S, evolve, keeper, stack_reported,
)
from adjudicator.systems.fire_and_movement.support import SupportFire
from adjudicator.systems.fire_and_movement.zoc import ZonesOfControl
from wargame.errors import ReplayError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Marker

UNCHECKED: dict[str, str] = {
    "place": "3.0: placements are the folio's (its set-up, reinforcements and replacements)",
    "capture": "not a Fire & Movement entry", "income": "not a Fire & Movement entry",
}
"""The sections governing entries the series applies without checking, by kind."""
Check = Callable[[S, Place], list[Finding]]
"""A folio's check of one way of placing units (`place_checks`: set-up, reinforcements, replacements)."""


class FireAndMovement(SeriesRules[S]):
    """The series' rule system on the engine's contract (adjudicator/contract.py): the engine makes
    the generic checks (a decided game, an entry of the other system, the phase order of the game's
    `[[sequence]]` and the entries each phase allows, 5.2, 8.1, 8.2; who writes an entry, placements
    included) and then calls `check_rules`."""

    state_type: type[FireAndMovementState] = FireAndMovementState
    phase_log: type[PhaseLog] = PhaseLog
    """The record of a phase the engine starts at each marker (a folio's adds what its rules note)."""
    unchecked = UNCHECKED
    step_noun: StepNoun = "phase"
    entry_kinds = frozenset({"header", "turn", "step", "rolloff", "move", "attack", "bombard", "retreat", "advance",
                             "loss", "stand", "place", "markers", "income", "capture", "comment"})
    foreign_kinds: Mapping[str, str] = {kind: "entries are Onslaught's; Fire & Movement has phases, not actions (4.1)"
                                        for kind in ("action", "activate", "pass", "declare")}
    engine_checks = EngineChecks(results_with_combat="8.2")

    def __init__(self) -> None:
        super().__init__()
        # The rule areas composed into the system (house style 18), each given it to ask for the shared helpers,
        # the hooks a folio answers and the other areas' answers (their methods on the system).
        self.zoc: ZonesOfControl[S] = ZonesOfControl(self)
        self.combat_results: CombatResults[S] = CombatResults(self)
        self.retreats: Retreats[S] = Retreats(self)
        self.sequence: SequenceOfPlay[S] = SequenceOfPlay(self)
        self.moves: Movement[S] = Movement(self)
        self.support: SupportFire[S] = SupportFire(self)
        self.ground: GroundCombat[S] = GroundCombat(self)
        self.bombardment: Bombardment[S] = Bombardment(self)
        # The series' registry (house style 12): each entry class's check and application, by the section they
        # judge. A folio's registry is this one with its own handlers put in by name (omaha/system.py).
        self.registry: Registry[S] = Registry.of(
            # 4.1: a marker's turn, phase and record are the engine's to put in (engine.advance); the series judges
            # the turn order, and what ends with a turn or a phase through its keeper (turn_over, phase_over).
            Handler("turn", TurnMarker, "4.1", self.sequence._check_turn),
            Handler("move", Move, "5.1", self.moves._check_move, self._move_applied),
            Handler("attack", Attack, "8.2", self.ground._check_attack, self.ground._attack_applied),
            Handler("bombard", Bombard, "8.1", self.bombardment._check_bombard, self.bombardment._bombard_applied),
            Handler("place", Place, "3.0", self._check_place, self._place_applied),
            Handler("loss", Loss, "8.2.4", self.combat_results._check_loss, self.combat_results._loss_applied),
            Handler("retreat", Retreat, "8.3", self.retreats._check_retreat, self.combat_results._retreat_applied),
            Handler("stand", StandFast, "8.4", self.combat_results._check_stand, self.combat_results._stand_applied),
            Handler("advance", Advance, "8.5", self.combat_results._check_advance,
                    self.combat_results._advance_applied),
            Handler("roll", RollOff, "log", self._check_roll, self._roll_applied),
            Handler("markers", SupportMarkers, "7.1", self.support._check_markers, self.support._marked),
        )
        self._keeper: TurnKeeper[S, PhaseLog] = keeper(self.turn_over, self.phase_over, self.phase_log,
                                                       self.turn_goes_on)

    # -- the rule areas composed into the system, asked through the hooks and the contract ---------------------------
    def ezoc(self, state: S, side: str) -> frozenset[Hex]:
        """Hexes in the zones of control of the enemies of `side` (6.0, zoc.py)."""
        return self.zoc.ezoc(state, side)

    def enemy_hexes(self, state: S, side: str) -> frozenset[Hex]:
        """The map hexes units of `side`'s enemies hold (zoc.py)."""
        return self.zoc.enemy_hexes(state, side)

    def _fortified_ezoc(self, state: S, entry: Move, a: Hex, b: Hex) -> list[Finding]:
        """6.1 exception: never EZOC to EZOC across a minefield hexside or into a fortification (zoc.py)."""
        return self.zoc._fortified_ezoc(state, entry, a, b)

    def _outstanding(self, state: S, combat: FmCombat) -> list[Owed]:
        """What a combat's result still owes (combat_results.py)."""
        return self.combat_results._outstanding(state, combat)

    def zones_of_control(self, state: S, side: str) -> frozenset[str]:
        """The hexes in the zones of control `side`'s units exert (6.0): the enemy zones of its enemies."""
        return self.zoc.zones_of_control(state, side)

    def turn_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        """A folio's errors as a game turn begins (its set-up, its length)."""
        return self.sequence.turn_checks(state, entry)

    def _length_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        """A folio's errors for a game turn past its game's length."""
        return self.sequence._length_checks(state, entry)

    def account(self, state: S, entry: Attack | Bombard) -> CombatAccount:
        """An attack or a bombardment computed for a dispute (8.1-8.5, dispute.py)."""
        return fm_account(self, state, entry)

    def retreat_paths(self, state: S, unit_id: str, hexes: int, ezoc_counts: bool = True) -> list[tuple[Hex, ...]]:
        """Every legal retreat of `hexes` hexes from the unit's hex (8.3, retreat.py)."""
        return self.retreats.retreat_paths(state, unit_id, hexes, ezoc_counts)

    def retreat_room(self, state: S, unit_id: str, due: int) -> RetreatRoom:
        """How far a unit owing a retreat of `due` hexes can go, friendly units in the way or not (8.3, 8.3.1,
        retreat.py)."""
        return self.retreats.retreat_room(state, unit_id, due)

    def retreat_options(self, state: S) -> list[RetreatOption]:
        """The retreats the pending combat result still owes, by unit (8.3, retreat.py)."""
        return self.retreats.retreat_options(state)

    def folio_loss(self, state: S, entry: Loss) -> list[Finding] | None:
        """A folio's own losses outside combat (None: the series' rules decide)."""
        return self.combat_results.folio_loss(state, entry)

    def advance_options(self, state: S) -> list[AdvanceOption]:
        """The advances after the combat just resolved, by attacking unit (8.5, combat_results.py)."""
        return self.combat_results.advance_options(state)

    def bombard_audit(self, state: S, entry: Bombard, left_out: Modifier | None = None) -> FmAudit:
        """A bombardment's arithmetic in the state before it (8.1, bombardment.py)."""
        return self.bombardment.bombard_audit(state, entry, left_out)

    def bombard_effect(self, state: S, entry: Bombard, result: str | None) -> str | None:
        """What a table result does in a bombardment (8.1.3, bombardment.py)."""
        return self.bombardment.bombard_effect(state, entry, result)

    def bombard_marker(self, state: S, entry: Bombard, marker: Marker) -> list[Finding] | None:
        """A folio's markers that never bombard (None: the series' range rule decides)."""
        return self.bombardment.bombard_marker(state, entry, marker)

    def combat_audit(self, state: S, entry: Attack, left_out: Modifier | None = None) -> FmAudit:
        """An attack's arithmetic in the state before it (8.2, ground_combat.py)."""
        return self.ground.combat_audit(state, entry, left_out)

    def left_out_rule(self, state: S, entry: Attack | Bombard, truth: FmAudit, terrain_rule: str,
                      effect: Callable[[str | None], str | None] = lambda result: result) -> tuple[str, str] | None:
        """The modifier a wrong claim left out, with its clause, if one explains it (ground_combat.py)."""
        return self.ground.left_out_rule(state, entry, truth, terrain_rule, effect)

    def _claims(self, entry: Attack, result: FmAudit, section: str, why: str = '',
                codes: Collection[str] = ()) -> list[Finding]:
        """Errors for an attack's written claims against its arithmetic (8.2, ground_combat.py)."""
        return self.ground._claims(entry, result, section, why, codes)

    def with_basis(self, state: S, entry: Attack | Bombard, result: FmAudit, findings: list[Finding]) -> list[Finding]:
        """Findings with the data their judgement rests on (ground_combat.py)."""
        return self.ground.with_basis(state, entry, result, findings)

    def _supports(self, state: S, entry: Attack | Bombard, target: Hex,
                  left_out: Modifier | None = None) -> list[Support]:
        """The support fire markers placed on a combat, with their values (7.0-7.2, support.py)."""
        return self.support._supports(state, entry, target, left_out)

    def _check_support(self, state: S, entry: Attack | Bombard, side: str) -> list[Finding]:
        """Errors for the markers placed on a combat (7.1, 7.2, support.py)."""
        return self.support._check_support(state, entry, side)

    def overdrawn(self, state: S, side: str) -> bool:
        """Whether a side drew more than two markers for the next combat (the draw's one error, support.py)."""
        return self.support.overdrawn(state, side)

    def _in_pool(self, state: S, entry: Entry, side: str, marker_id: str, nth: int) -> list[Finding]:
        """Whether the nth copy of a marker named in an entry is still in its side's pool (7.1, 7.2)."""
        return self.support._in_pool(state, entry, side, marker_id, nth)

    def may_draw_now(self, state: S) -> bool:
        """Whether a folio lets markers be drawn outside the Bombardment and Combat Phases."""
        return self.support.may_draw_now(state)

    def not_drawable(self, state: S, entry: SupportMarkers, marker_id: str) -> list[Finding]:
        """A folio's markers that are never drawn (none in the series)."""
        return self.support.not_drawable(state, entry, marker_id)

    def _named_markers(self, state: S, entry: SupportMarkers) -> tuple[list[Finding], list[str]]:
        """The errors in a markers entry's list, and the markers of the side's own pool it names (7.2)."""
        return self.support._named_markers(state, entry)

    def _check_draw(self, state: S, entry: SupportMarkers, side: str, named: list[str]) -> list[Finding]:
        """Errors for markers drawn from a side's pool (7.2, support.py)."""
        return self.support._check_draw(state, entry, side, named)

    def _placement(self, state: S, entry: Attack | Bombard,
                   kept: Tally) -> tuple[list[tuple[str, str]], Tally, Tally]:
        """The pools after a combat's markers are placed (7.2, support.py)."""
        return self.support._placement(state, entry, kept)

    def _placed(self, state: S, entry: Attack | Bombard) -> S:
        """The pools after markers are placed on a combat (7.2)."""
        return self.support._placed(state, entry)

    def step_cost(self, game: Game, a: Hex, b: Hex) -> float | None:
        """MP to move from `a` into the adjacent `b` (5.4, 5.4.1, 5.4.2), None when prohibited (5.2 e)."""
        return self.moves.step_cost(game, a, b)

    def move_rule(self, state: S, unit_id: str, kind: str = 'move') -> MoveRule:
        """How a unit may move now: its costs, stops and budget (5.0-6.2, movement.py)."""
        return self.moves.move_rule(state, unit_id, kind)

    def reach(self, state: S, unit_id: str, kind: str = 'move') -> Reach:
        """Every hex the unit may still reach now, with its cost (5.0-6.2, movement.py)."""
        return self.moves.reach(state, unit_id, kind)

    def may_move(self, state: S, unit_id: str) -> bool:
        """Whether a unit may move now at all (5.0-5.2, 6.1; movement.py)."""
        return self.moves.may_move(state, unit_id)

    # -- set-up ------------------------------------------------------------------------------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> S:
        """The scenario's set-up (3.0): units where the data puts them, boxes included."""
        scenario_id = played_scenario(game, headers)
        location = {p.piece: p.location for _, p in game.setup
                    if p.scenario == scenario_id and p.piece in game.units_by_id}
        rules = {r.id for r in game.manifest.optional_rule}
        optional = frozenset(h.value for h in headers if h.key == "Optional")
        for rule in sorted(optional - rules):
            raise ReplayError(f"unknown optional rule {rule!r}{did_you_mean(rule, sorted(rules))} (optional rules: "
                              f"{', '.join(sorted(rules))})")
        # A scenario's own rules may put an optional rule in force (game.toml's in_force, with its section).
        scenario = next((s for s in game.manifest.scenario if s.id == scenario_id), None)
        optional |= {forced.rule for forced in (scenario.in_force if scenario is not None else [])}
        state = self.state_type(game, scenario_id, TurnContext(), location, optional=optional)
        return state  # type: ignore[return-value]  # state_type is S's class

    # -- check -------------------------------------------------------------------------------------
    def check_rules(self, state: S, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        """The series' findings for an entry, after the engine's generic checks; the state is left untouched."""
        out: list[Finding] = []
        # The combat under way declared again goes on (the copy is not carried out): it is not over.
        again = self.combat_results.written_again(state, entry)
        if state.combat is not None and again is None and not self.combat_results._carries_out(state, entry):
            out += self.combat_results._combat_over(state, entry)
            state = evolve(state, combat=None)  # the entry is checked as the combat ended
        if isinstance(entry, (TurnMarker, StepMarker)):
            out += self.sequence._closing(state, entry)
        if kind_rules and self._checked(state, entry):
            found = self.registry_of(state).check(state, entry)
            table = state.combat.as_table_says() if state.combat is not None else None
            if table is not None and any(f.severity == "error" for f in found):
                # An entry that follows the table's result after a wrongly claimed one is not an error; one
                # that fits neither is judged by the table's result, never the claim's.
                found = self.registry_of(state).check(evolve(state, combat=table), entry)
            if state.log.undone is not None and self._carries_late(state, entry):
                late = state.log.undone
                found = [self._f("note", "8.0", entry, f"{kind_of(entry)} carries out the result of {late.name} late, "
                                                       "after the entry that ended it: the one error is there")]
            out += found
        out += self._check_defender(state, entry)
        out += self.entry_checks(state, entry)
        out = self.follow_up(state, entry, out)
        if again is not None:
            out = self.combat_results.said_again(entry, again, out)
        kind = self._unchecked_kind(entry)
        if kind in self.unchecked and kind not in state.noted:
            out.append(self._f("note", "log", entry, f"{kind} entries are applied as written but not checked yet "
                                                     f"(sections {self.unchecked[kind]})"))
        return out

    def _check_defender(self, state: S, entry: Entry) -> list[Finding]:
        """`defender UNIT` names an enemy unit in the attacked hex (8.2.1 a: the enemy unit that is the
        subject of the attack; 8.1.2: the enemy unit bombarded)."""
        if not isinstance(entry, (Attack, Bombard)) or entry.defender is None:
            return []
        side = entry.side or (self._unit(state, entry.attackers[0]).side if isinstance(entry, Attack) else "")
        if entry.defender in self._defenders(state, entry, side):
            return []
        section = "8.2.1a" if isinstance(entry, Attack) else "8.1.2"
        return [self._f("error", section, entry, f"{entry.defender} is not an enemy unit in {entry.hex}, so it "
                                                 "cannot be the one that defends there")]

    def entry_checks(self, state: S, entry: Entry) -> list[Finding]:
        """A folio's errors for any entry after its own check (none in the series)."""
        return []

    def follow_up(self, state: S, entry: Entry, found: list[Finding]) -> list[Finding]:
        """An entry's findings with those a folio's earlier error explains made notes (none in the series)."""
        return found

    def place_checks(self) -> dict[str, Check[S]]:
        """The checks of `place` entries, by how the unit is placed (the series has none: 3.0 leaves
        set-up and arrivals to the folio)."""
        return {}

    def _unchecked_kind(self, entry: Entry) -> str:
        if isinstance(entry, Place) and entry.how in self.place_checks():
            return ""
        return str(getattr(entry, "kind", ""))

    def _check_place(self, state: S, entry: Place) -> list[Finding]:
        checker = self.place_checks().get(entry.how)
        return [] if checker is None else checker(state, entry)

    def _check_roll(self, state: S, entry: RollOff) -> list[Finding]:
        """Combat dice are written with their combats; the series calls for no other roll."""
        bad = [f"{s} {d}" for s, d in entry.rolls.items() if not 1 <= d <= 6]
        if bad:
            return [self._f("error", "log", entry, f"a die roll is 1 to 6, not {', '.join(bad)}")]
        return [self._f("error", "log", entry, "no die roll is called for here: combat and bombardment dice are "
                                               "written with their entries ('die N')")]

    # -- apply -------------------------------------------------------------------------------------
    def apply(self, state: S, entry: Entry) -> S:
        """The state after an entry, as the log writes it, with the line each unit that changed hex arrived on."""
        after = self._applied(state, entry)
        if after.location is state.location:
            return after
        before, now = state.location, after.location
        # 5.1: a move changes its own unit's place only (the rest are compared only for other entries).
        moved = [entry.unit] if isinstance(entry, Move) else [u for u, w in now.items() if w != before.get(u)]
        arrived = {u: entry.line for u in moved if now.get(u) != before.get(u)}
        return evolve(after, log=evolve(after.log, arrived={**after.log.arrived, **arrived})) if arrived else after

    def _applied(self, state: S, entry: Entry) -> S:
        """The state after an entry, as the handlers apply it, with the phase's record of entries carrying out a result
        with no combat open (`orphaned`)."""
        after = self._applied_by_handlers(state, entry)
        if isinstance(entry, (Comment, Header)):
            return after
        orphan = state.combat is None and isinstance(entry, (Retreat, Advance, StandFast, Loss)) and \
            not (isinstance(entry, Loss) and self.folio_loss(state, entry) is not None)
        orphaned = (state.log.orphaned or entry.line) if orphan else None
        if after.log.orphaned == orphaned:
            return after
        return evolve(after, log=evolve(after.log, orphaned=orphaned))

    def _applied_by_handlers(self, state: S, entry: Entry) -> S:
        """The state after an entry, as the handlers apply it."""
        if self.combat_results.written_again(state, entry) is not None:
            return state  # the combat under way written again is not carried out (8.0, 8.2: its one error)
        kind = self._unchecked_kind(entry)
        if kind in self.unchecked and kind not in state.noted:
            state = evolve(state, noted=state.noted | {kind})
        # A combat left undone is the phase's record: the engine forgets it at the next marker (house style 19).
        if state.combat is not None and not self.combat_results._carries_out(state, entry):
            if self.combat_results._outstanding(state, state.combat):
                # 8.0: left undone as the next combat begins (or another entry, a draw, a phase marker, ends it; its
                # one error there); carried out late, or never
                state = evolve(state, log=evolve(state.log, undone=state.combat))
            state = evolve(state, combat=None)
        if state.log.undone is not None and self._carries_late(state, entry):
            after = self.registry_of(state).apply(evolve(state, combat=state.log.undone), entry)
            return evolve(after, combat=state.combat, log=evolve(after.log, undone=after.combat))
        return self.registry_of(state).apply(state, entry)

    def _carries_late(self, state: S, entry: Entry) -> bool:
        """Whether an entry carrying out a combat is wrong for the combat under way and right for the one left
        undone when it was declared (8.0; the phase's record's `undone`)."""
        undone = state.log.undone
        if undone is None or not isinstance(entry, (Loss, Retreat, Advance, StandFast)) or not self._checked(state, entry):
            return False
        registry = self.registry_of(state)
        return any(f.severity == "error" for f in registry.check(state, entry)) and \
            not any(f.severity == "error" for f in registry.check(evolve(state, combat=undone), entry))

    def _checked(self, state: S, entry: Entry) -> bool:
        """Whether a handler of the registry in force checks an entry's class."""
        return any(h.check is not None for h in self.registry_of(state).for_entry(entry))

    def registry_of(self, state: S) -> Registry[S]:
        """The registry in force in a game: the series' (a folio's optional rules put layers on its own)."""
        return self.registry

    def _move_applied(self, state: S, entry: Move) -> S:
        where = state.location.get(entry.unit)
        if where is None or not state.game.grid.is_label(where) or where != entry.path[0]:
            # A move written from a hex the unit is not in (one 5.1 or 5.2 error) is not carried out:
            # the unit stays where it is and may still make its move, so the corrected line is no error.
            return state
        in_movement = self.phase_id(state) == "movement" and self._unit(state, entry.unit).mobility == "mobile"
        stacked = self.moves.stacked_by_move(state, entry)
        if stacked:
            # 5.3: the move's own error; the phase's end does not report the same stack again.
            state = self._stack_reported(state, entry.path[-1], stacked)
        return evolve(state, location={**state.location, entry.unit: entry.path[-1]},
                      log=evolve(state.log, moved=state.log.moved | {entry.unit},
                                 moved_in_movement=state.log.moved_in_movement | ({entry.unit} if in_movement
                                                                                  else set())))

    def _stack_reported(self, state: S, label: str, units: frozenset[str]) -> S:
        """5.3: a stack an entry's own error reported, which the phase's end does not report again."""
        return stack_reported(state, label, units)

    def _place_applied(self, state: S, entry: Place) -> S:
        if entry.hex is not None and entry.unit in state.game.units_by_id:
            depleted = state.depleted | {entry.unit} if entry.strength == "reduced" else state.depleted
            stacked = self.stacked_by_arrival(state, entry)
            if stacked:
                # An arrival onto a friend is refused by the placement's own check (a folio's arrival rules): one
                # error, so the phase's end does not report the stack again (5.3).
                state = self._stack_reported(state, entry.hex, stacked)
            return evolve(state, location={**state.location, entry.unit: entry.hex}, depleted=depleted)
        return state

    def stacked_by_arrival(self, state: S, entry: Place) -> frozenset[str]:
        """The units of the arriving unit's side (it too) in the hex a reinforcement is placed on, when they are more
        than the hex takes and the placement's check refuses it; empty otherwise (the series has no arrivals, 3.0:
        a folio's)."""
        return frozenset()

    def _roll_applied(self, state: S, entry: RollOff) -> S:
        return state

    # -- the end -----------------------------------------------------------------------------------
    def finish(self, state: S) -> list[Finding]:
        """Notes at the log's end: overstacks of the phase under way (5.3), effects of the last combat not yet
        logged."""
        out = self.sequence._overstacks_when_the_log_ends(state) if self.outcome(state) is None else []
        combat = state.combat
        if combat is None:
            return out
        return out + [self.table.finding("note", owed.section, combat.line, combat.column,
                                         f"when the log ends, {owed.message}")
                      for owed in self.combat_results._outstanding(state, combat)]

    # -- the engine's contract ---------------------------------------------------------------------
    @property
    def movement(self) -> FireAndMovement[S]:
        """Where units may move, zones of control, retreats and supply lines (5.0-6.2, 8.3; a folio's supply)."""
        return self

    @property
    def auditor(self) -> FireAndMovement[S]:
        """The series audits a disputed combat (8.0-8.2)."""
        return self

    def sequence_point(self, state: S) -> SequencePoint:
        """Game turn, phase and player turn (4.1)."""
        return state.at

    @property
    def turn_keeper(self) -> TurnKeeper[S, PhaseLog]:
        """The engine keeps the game turn, the phase, whose player turn it is and the phase's record (4.1)."""
        return self._keeper

    def turn_over(self, state: S, entry: TurnMarker) -> S:
        """The state as a game turn ends, in its own context (a folio adds its own)."""
        return self.sequence._turn_ended(state, entry)

    def phase_over(self, state: S, entry: StepMarker) -> S:
        """The state as a phase ends, in its own context (a folio adds its own)."""
        return self.sequence._phase_ended(state, entry)

    def turn_goes_on(self, state: S, fresh: PhaseLog) -> PhaseLog:
        """A phase's fresh record with what happened in the game turn under way (the series notes nothing for a
        whole game turn; a folio may)."""
        return fresh

    def outcome(self, state: S) -> Outcome | None:
        """A game decided before its end (the series has no sudden death; a folio may)."""
        return None

    def acting_side(self, state: S) -> str | None:
        """The player whose player turn it is (4.1)."""
        return self.active(state)

    def marker_uses(self, state: S) -> dict[str, MarkerUse]:
        """Support fire markers out of their pools this game turn (7.2)."""
        return {m: MarkerUse(used=n) for m, n in sorted(state.markers_used.items())}

    def position(self, state: S) -> Position:
        """Units, reduced units and the markers out of their pools."""
        return Position(state.scenario, self.sequence_point(state), "phase", self.unit_places(state, state.depleted),
                        markers=self.marker_uses(state), outcome=self.outcome(state))

    def with_units(self, state: S, placed: Mapping[str, str]) -> S:
        """The state with only these units, where given (an audit without a log)."""
        return evolve(state, location=dict(placed))
