"""Onslaught's rules as a plug-in of the replay engine: the rule areas, dispatched by entry class (rules.py's registry).

Every numbered section is checked, each in the module of its rule area: set-up (3.0, setup.py),
the turn sequence and the Action Step (4.0-5.1, sequence.py), activation (5.2-5.5, activation.py),
movement (6.1, 6.4, 6.5, movement.py), zones of control (6.2, zoc.py), stacking (6.3,
stacking.py), combat (7.0-7.2, combat.py and results.py), losses and standing fast (7.2, 7.5,
losses.py), retreats and advances (7.3, 7.4, retreats.py), supply (8.1-8.7, supply.py),
paratroops, reinforcements and replacements (9.0-11.4, arrivals.py), the Bulge (12.0, bulge.py),
victory (13.1-13.3, victory.py) and the optional rules when the log's headers put them in force
(14.1-14.4, optional.py). docs/rules-coverage.md maps each section to its function and tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from adjudicator.contract import (
    CombatAccount, EngineChecks, Outcome, Position, SequencePoint, StepNoun, TurnContext, TurnKeeper, kind_of,
    next_turn, played_scenario,
)
from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Bombard, Comment, Entry, Header, Income, TurnMarker
from adjudicator.systems.base import SystemBase
from adjudicator.systems.onslaught import (
    account, arrivals, combat, losses, sequence, supply,
)
from adjudicator.systems.onslaught.activation import leaves_combat_open
from adjudicator.systems.onslaught.arrivals import order_of, unplaced
from adjudicator.systems.onslaught.combat import CombatAudit, retreat_options_of
from adjudicator.systems.onslaught.losses import carries_out
from adjudicator.systems.onslaught.movement_model import MOVEMENT, OnslaughtMovement
from adjudicator.systems.onslaught.results import outstanding
from adjudicator.systems.onslaught.rules import REGISTRY, registry_of
from adjudicator.systems.onslaught.stacking import overstacks_when_the_log_ends
from adjudicator.systems.onslaught.sections import TABLE
from adjudicator.systems.onslaught.state import (
    ActionState, OnslaughtState, StepLog, combat_strength, keeper, on_map, replace,
)
from adjudicator.systems.onslaught.supply import allied_income, mark_control
from adjudicator.systems.onslaught.tables import MapTables, map_tables
from adjudicator.systems.onslaught.victory import after_the_end, automatic_victory, judged_claims, score
from adjudicator.systems.onslaught.zoc import near_enemy, within_two, zone_of_control
from wargame.errors import ReplayError, WargameError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex

__all__ = ["ONSLAUGHT", "REGISTRY", "ActionState", "Onslaught", "OnslaughtState"]

CLOSING = frozenset({"turn", "step", "rolloff", "action", "pass"})
"""Entries that end the action or step under way (5.2 claims, 6.3 stacking are due then)."""
PLACING = frozenset({"move", "retreat", "advance", "loss", "place"})
"""Entries after which stacking must be checked again (6.3)."""


def applies(entry: Entry) -> bool:
    """Whether a handler of the registry applies an entry's class."""
    return any(h.apply is not None for h in REGISTRY.for_entry(entry))


def other_branch(state: OnslaughtState) -> OnslaughtState:
    """The state as if the log had claimed the table's result of the combat under way."""
    assert state.alternative is not None
    combat, pending = state.alternative
    return replace(state, combat=combat, pending=pending, alternative=None)


def attacks_again(state: OnslaughtState, entry: Entry) -> bool:
    """Whether an entry repeats the attack under way (its hex and attackers), nothing of its result carried out yet:
    the line written twice, one error, which opens no second combat (7.0)."""
    attack, combat = entry.as_attack(), state.combat
    # Divisions refused for want of an activation (5.4) and activated since: the attack made again is the correction.
    corrected = state.action is not None and state.action_log.unactivated & state.action.activated
    # Divisions activated again (5.2's one error, which leaves the combat open): their attack again is that breach's.
    again = attack is not None and set(attack.attackers) <= state.action_log.reactivated
    return attack is not None and combat is not None and attack.hex == combat.hex and not corrected and not again and \
        set(attack.attackers) == set(combat.attackers) and not combat.advanced and \
        not any(e.lost or e.retreated or e.stood for e in state.pending)


def goes_on(state: OnslaughtState, entry: Entry) -> bool:
    """Whether a closing entry leaves the action under way going on: its declaration, written late or early (its one
    error), being completed by it (5.0)."""
    return sequence.declared_late(state, entry) or sequence.rolled_for(state, entry) or \
        sequence.declared_before_step(state, entry)


def left_off_noted(state: OnslaughtState, entry: Entry, found: list[Finding]) -> list[Finding]:
    """The errors an entry owes only to a reinforcement left off the map (reported as its turn ended, 10.2, 10.3),
    made notes: the players went on as if it had been placed (one breach, one error)."""
    off = sorted(u for kind, u in entry.named_ids()
                 if kind == "unit" and u in state.left_off and on_map(state, u) is None)
    if not off:
        return found
    return [dataclasses.replace(f, severity="note", message=f"{f.message} ({unit} was left off the map as the turn "
                                                            f"ended, line {state.left_off[unit]}: that error)")
            if f.severity == "error" and (unit := next((u for u in off if u in f.message), None)) else f
            for f in found]


def errors_of(state: OnslaughtState, entry: Entry) -> bool:
    """Whether an entry breaks a rule in a state (its kind's own checks)."""
    return any(f.severity == "error" for f in registry_of(state).check(state, entry))


def follow_branch(state: OnslaughtState, entry: Entry) -> OnslaughtState:
    """The branch an entry carrying out a combat follows: the claim's (the state itself) unless the
    entry breaks it and carries out the table's result instead (then that branch, from now on)."""
    if state.alternative is None or not errors_of(state, entry):
        return state
    other = other_branch(state)
    return state if errors_of(other, entry) else other


class Onslaught(SystemBase[OnslaughtState]):
    """The rule system object the engine calls."""

    name = "onslaught"
    table = TABLE
    step_noun: StepNoun = "step"
    entry_kinds = frozenset({"header", "comment", *(str(getattr(h.entry, "kind"))
                                                    for h in REGISTRY.handlers)})
    foreign_kinds = {"bombard": "is a Fire & Movement entry; Onslaught has no bombardment",
                     "markers": "is a Fire & Movement entry; Onslaught has no support fire markers"}
    # A division of the other side placed is an error of the schedule's own section (3.0, 10.2, 10.3, 11.2).
    engine_checks = EngineChecks(placements=False, results_with_combat="7.2")

    @property
    def auditor(self) -> Onslaught:
        """Onslaught audits a disputed combat (7.0-7.4)."""
        return self

    @property
    def movement(self) -> OnslaughtMovement:
        """Where divisions may move, zones of control, retreats and supply lines (6.0-6.5, 7.3, 8.3-8.6)."""
        return MOVEMENT

    # -- set-up -------------------------------------------------------------------------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> OnslaughtState:
        """The scenario's set-up (3.0): units in their hexes and boxes, supply on the tracks."""
        scenario = played_scenario(game, headers)
        location: dict[str, str] = {}
        points = {side: 0 for side in game.manifest.sides}
        for _, placement in game.setup:
            if placement.scenario != scenario:
                continue
            if placement.piece in game.units_by_id:
                location[placement.piece] = placement.location
            marker = game.markers_by_id.get(placement.piece)
            if marker is not None and marker.kind == "supply" and marker.side and "@" in placement.location:
                points[marker.side] = int(placement.location.partition("@")[2])
        rules = {r.id for r in game.manifest.optional_rule}
        optional = frozenset(h.value for h in headers if h.key == "Optional")
        for rule in sorted(optional - rules):
            raise ReplayError(f"unknown optional rule {rule!r}{did_you_mean(rule, sorted(rules))} (optional rules: "
                              f"{', '.join(sorted(rules))})")
        state = OnslaughtState(game, scenario, TurnContext(), location, frozenset(), points, optional=optional)
        # Ruling (8.1, 8.4, 14.2): a division set up in a hex has occupied it, so control and
        # "last occupied" start from the set-up (a custom scenario may put divisions anywhere).
        for unit_id in sorted(location):
            state = mark_control(state, unit_id, [location[unit_id]])
        # 8.7: on turn 1 the Allied sources count as having yielded all they could on a turn 0; a scenario beginning
        # later in the war has the turn before its first (4.0).
        return replace(state, collected={next_turn(game, scenario, 0) - 1: allied_income(state, {}, ())})

    # -- check -------------------------------------------------------------------------------
    def check_rules(self, state: OnslaughtState, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        """Onslaught's findings for an entry, after the engine's generic checks; the state is left untouched."""
        found = self._check_rules(state, entry, kind_rules)
        return left_off_noted(state, entry, found) if state.left_off and found else found

    def _check_rules(self, state: OnslaughtState, entry: Entry, kind_rules: bool) -> list[Finding]:
        """`check_rules` but for the errors a reinforcement left off the map brings about."""
        # Ruling 13.2 / 13.3: the Reinforcement Step's claims of victory are judged as the turn ends.
        claims = judged_claims(state) if isinstance(entry, TurnMarker) else []
        ended = after_the_end(state, entry)
        if ended is not None:
            return [*claims, ended]
        kind = kind_of(entry)
        out: list[Finding] = claims
        if state.combat is not None and attacks_again(state, entry):
            return [TABLE.finding("error", "7.0", entry.line, entry.column,
                                  f"{state.combat.name} is written again before its result is carried out; each "
                                  "division attacks once in an action (its result is owed once)")]
        if state.combat is not None and not carries_out(entry) and not leaves_combat_open(state, entry):
            owed = losses.combat_over(state, entry)
            if owed and state.alternative is not None:
                # After a wrong result claim (its one error is on the attack) what is owed is the table's
                # (nothing when the players carried it out instead of their claim), never the claim's.
                owed = losses.combat_over(other_branch(state), entry)
            out += owed
        elif state.combat is not None and state.alternative is not None and registry_of(state).for_entry(entry):
            branch = follow_branch(state, entry)
            if branch is state and errors_of(state, entry):
                branch = other_branch(state)  # fits neither: judged by the table's result, never the claim's
            if branch is not state:
                return registry_of(branch).check(branch, entry)
        if kind in CLOSING and not goes_on(state, entry):
            out += sequence.closing_findings(state, entry)
        out += arrivals.check_order(state, entry)
        if kind_rules:
            out += registry_of(state).check(state, entry)
        return out

    def step_of(self, state: OnslaughtState, entry: Entry) -> str | None:
        """The German Reserve Step for its activations written after the Action Step's end (5.0, `sequence.step_of`)."""
        return sequence.step_of(state, entry)

    # -- apply -------------------------------------------------------------------------------
    def apply(self, state: OnslaughtState, entry: Entry) -> OnslaughtState:
        """The state after an entry, with any automatic victory it brings about (13.0-13.1; 13.2 is judged as the
        turn ends, `turn_over`)."""
        after = self._arrived(state, entry, self._apply(state, entry))
        if after.victory is not None or after.at.turn == 0 or isinstance(entry, Comment):
            return after
        # 13.1 looks at positions, control and supply points. An entry that kept the very same position
        # mappings cannot bring it about unless it took the last Allied point (sources were there before);
        # a new turn can (the sources in force change with it, 8.4).
        kept = after.location is state.location and after.controlled is state.controlled and \
            not isinstance(entry, TurnMarker)
        if kept and (after.supply is state.supply or state.supply.get("Allied", 0) <= 0):
            return after
        won = automatic_victory(after, turn_over=False)
        return after if won is None else replace(after, victory=Outcome(won[0], won[1], entry.line, won[2]))

    @staticmethod
    def _arrived(state: OnslaughtState, entry: Entry, after: OnslaughtState) -> OnslaughtState:
        """The state with the line each division that changed hex arrived on, for the action's record (6.3)."""
        if after.location is state.location:
            return after
        before = state.location
        arrived = {u: entry.line for u, w in after.location.items() if w != before.get(u)}
        if not arrived:
            return after
        return replace(after, action_log=replace(after.action_log, arrived={**after.action_log.arrived, **arrived}))

    def _apply(self, state: OnslaughtState, entry: Entry) -> OnslaughtState:
        """The state after an entry, as the log says: what every entry does, then its kind's own effect."""
        kind = kind_of(entry)
        if attacks_again(state, entry):
            return state
        if state.combat is not None and not carries_out(entry) and not leaves_combat_open(state, entry):
            state = replace(state, combat=None, pending=(), alternative=None)
        elif state.combat is not None and state.alternative is not None and applies(entry):
            branch = follow_branch(state, entry)
            if branch is not state:
                return registry_of(branch).apply(branch, entry)
            # An entry the table's result does not allow follows the claim: the table's branch is kept as it
            # is, for what is owed if the claim is left half done (never the claim's to carry out).
            if not errors_of(other_branch(state), entry):
                # Both results allow the entry: it is carried out in both.
                other = registry_of(state).apply(other_branch(state), entry)
                state = replace(state, alternative=(other.combat, other.pending) if other.combat else None)
        if state.combat is None and carries_out(entry) and not entry.is_comment and entry.as_header() is None \
                and state.action_log.uncalled is None and state.at.step == "action":
            # 7.2: a result with no combat to carry out; the ones after it, till the next attack, are that breach.
            state = replace(state, action_log=replace(state.action_log, uncalled=entry.line))
        elif kind == "attack" and state.action_log.uncalled is not None:
            state = replace(state, action_log=replace(state.action_log, uncalled=None))
        if kind in CLOSING and not goes_on(state, entry):
            state = sequence.close_action(state)
        elif kind in PLACING and state.action_log.stacks_checked:
            state = replace(state, action_log=replace(state.action_log, stacks_checked=False))
        if state.at.step == "reinforcement" and kind not in ("turn", "step"):
            index = order_of(state, entry)
            if index is not None and index > state.log.arrival_phase:
                state = replace(state, log=replace(state.log, arrival_phase=index))
            elif index is not None and index < state.log.arrival_phase:
                # 4.0: one part played late is one breach; its later entries are not reported again.
                state = replace(state, log=replace(state.log, late_parts=state.log.late_parts | {index}))
        return registry_of(state).apply(state, entry)

    def finish(self, state: OnslaughtState) -> list[Finding]:
        """Notes at the log's end: an automatic victory (13.0-13.2), overstacks of the action or step under way
        (6.3), and effects of the last combat not yet logged (an exchange may stop mid-action)."""
        out: list[Finding] = []
        if state.victory is not None:
            won_at = state.victory
            out.append(TABLE.finding("note", won_at.section, won_at.line, 1, f"the {won_at.winner} player wins "
                                                                                 f"an automatic victory: "
                                                                                 f"{won_at.reason}"))
        if state.victory is None:
            out += overstacks_when_the_log_ends(state)
        if state.at.step == "reinforcement" and state.victory is None:
            out += [TABLE.finding("note", section, 0, 1, f"when the log ends, {message}")
                    for _, section, message in unplaced(state)]
        if state.victory is None and state.at.step == "reinforcement":
            won = automatic_victory(state, turn_over=True)
            if won is not None:
                out.append(TABLE.finding("note", won[1], 0, 1, f"when turn {state.at.turn} is over, the {won[0]} "
                                                                    f"player wins an automatic victory: {won[2]}"))
            last = next(s.last_turn for s in state.game.manifest.scenario if s.id == state.scenario)
            if won is None and state.at.turn == last:
                # 13.3: no automatic victory by the end of the last turn: victory points decide.
                out += [TABLE.finding("note", "13.3", 0, 1, line) for line in score(state).lines()]
        # Ruling 13.2 / 13.3: the claims of the Reinforcement Step the log ends in, on the position it ends in.
        out += judged_claims(state)
        combat = state.combat
        if combat is None:
            return out
        found = outstanding(combat, state.pending, lambda: retreat_options_of(state, combat),
                                    lambda u: on_map(state, u) is not None)
        if found and state.alternative is not None:
            # After a wrong result claim the table's result is what must be carried out, never the claim's.
            table = other_branch(state)
            owed = table.combat
            assert owed is not None
            found = outstanding(owed, table.pending, lambda: retreat_options_of(table, owed),
                                lambda u: on_map(table, u) is not None)
        return out + [TABLE.finding("note", section, combat.line, combat.column,
                                         f"when the log ends, {message}") for section, message, _ in found]

    # -- the engine's contract ----------------------------------------------------------------
    @property
    def turn_keeper(self) -> TurnKeeper[OnslaughtState, StepLog]:
        """The engine keeps Onslaught's turn, step and step record; 13.2 is judged as a turn ends."""
        return KEEPER

    @staticmethod
    def sequence_point(state: OnslaughtState) -> SequencePoint:
        """Turn and step (the engine's; Onslaught has no player turns: 4.0)."""
        return state.at

    @staticmethod
    def outcome(state: OnslaughtState) -> Outcome | None:
        """The automatic victory that ended the game, if one has (13.0-13.2)."""
        return state.victory

    @staticmethod
    def acting_side(state: OnslaughtState) -> str | None:
        """The side taking the action under way, the German in the German Reserve Step, or the side
        entitled to the next action (5.0)."""
        if state.action is not None:
            return state.action.side
        step = state.at.step
        return "German" if step == "german_reserve" else state.log.entitled if step == "action" else None

    def position(self, state: OnslaughtState) -> Position:
        """Units, depleted units, the supply tracks (8.2) and any automatic victory."""
        return Position(state.scenario, self.sequence_point(state), "step", self.unit_places(state, state.depleted),
                        tracks={"supply": dict(state.supply)}, outcome=state.victory)

    def details(self, state: OnslaughtState) -> dict[str, object]:
        """The action under way, replacement points left (11.1) and the victory points (13.3)."""
        return {"action": None if state.action is None else {"side": state.action.side, "type": state.action.type,
                                                              "paid": state.action.paid},
                "replacement_points": dict(state.log.replacement_points),
                "victory_points": score(state).describe()}

    def account(self, state: OnslaughtState, entry: Attack | Bombard) -> CombatAccount:
        """An attack computed for a dispute (7.0-7.4); Onslaught has no bombardment."""
        if isinstance(entry, Bombard):
            raise WargameError("Onslaught has no bombardment: combat is an attack by adjacent divisions (7.0)")
        return account.combat_account(state, entry)

    def with_units(self, state: OnslaughtState, placed: Mapping[str, str]) -> OnslaughtState:
        """The state with only these units, where given (an audit without a log)."""
        return replace(state, location=dict(placed))

    # -- questions other readers ask (the bench's generator, tests) --------------------------------
    @staticmethod
    def tables(state: OnslaughtState) -> MapTables:
        """The map tables of the state's game."""
        return map_tables(state.game)

    @staticmethod
    def zoc(state: OnslaughtState, side: str) -> frozenset[Hex]:
        """Hexes in the zone of control of `side`'s divisions (6.2)."""
        return zone_of_control(state, side)

    @staticmethod
    def near_enemy(state: OnslaughtState, side: str) -> frozenset[Hex]:
        """Hexes within two movement points of an enemy division (6.4)."""
        return near_enemy(state, side)

    @staticmethod
    def within_two(state: OnslaughtState, starts: Iterable[Hex]) -> set[Hex]:
        """Hexes at most two movement points from any of `starts` (6.4, 11.4)."""
        return within_two(state, starts)

    @staticmethod
    def supplied(state: OnslaughtState, side: str) -> frozenset[Hex]:
        """Hexes from which `side` traces a supply line (8.3-8.5)."""
        return supply.traced_supply(state, side)

    @staticmethod
    def is_supplied(state: OnslaughtState, unit_id: str) -> bool:
        """Whether a division traces a supply line now (8.3-8.6; fortifications 7.5)."""
        return supply.is_supplied(state, unit_id)

    @staticmethod
    def strength(state: OnslaughtState, unit_id: str) -> int:
        """A division's combat strength, depleted or not."""
        return combat_strength(state, unit_id)

    @staticmethod
    def combat_audit(state: OnslaughtState, entry: Attack) -> CombatAudit:
        """The arithmetic of an attack in a state (7.0, 7.1, 7.5; supply per 8.6)."""
        return combat.combat_audit(state, entry)

    @staticmethod
    def retreat_options(state: OnslaughtState, defender_hex: Hex, side: str,
                        attackers: Iterable[Hex]) -> tuple[list[str], list[str]]:
        """Hexes a defender may retreat to (7.3), two-hex and one-hex."""
        return combat.retreat_options(state, defender_hex, side, attackers)

    @staticmethod
    def automatic_victory(state: OnslaughtState, turn_over: bool) -> tuple[str, str, str] | None:
        """The winner, section and reason of an automatic victory in this position, if any (13.1, 13.2)."""
        return automatic_victory(state, turn_over)

    @staticmethod
    def income(state: OnslaughtState, entry: Income) -> int:
        """The supply points a side collects in the Reinforcement Step (8.1)."""
        return supply.income_due(state, entry)

    @staticmethod
    def captured_points(state: OnslaughtState, label: str) -> int:
        """Supply points a German capture of an Allied source takes (8.7)."""
        return supply.captured_points(state, label)


def turn_over(state: OnslaughtState, entry: TurnMarker) -> OnslaughtState:
    """13.2, judged as a turn ends (the next turn marker shows it), in the turn ending; the reinforcements it leaves
    off the map (10.2, 10.3: that error) are kept, so what later names them is a note of it."""
    if state.at.turn and state.at.step == "reinforcement" and (missing := unplaced(state)):
        state = replace(state, left_off={**state.left_off, **{unit: entry.line for unit, _, _ in missing}})
    if not entry.turn or not state.at.turn or state.victory is not None:
        return state
    won = automatic_victory(state, turn_over=True)
    return state if won is None else replace(state, victory=Outcome(won[0], won[1], entry.line, won[2]))


KEEPER = keeper(turn_over)
"""Where the engine keeps Onslaught's turn, and what it judges as a turn ends."""

ONSLAUGHT = Onslaught()
