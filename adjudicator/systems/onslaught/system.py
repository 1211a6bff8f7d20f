"""Onslaught's rules as a plug-in of the replay engine: state, checks and effects.

Every numbered section is checked: set-up (3.0), the turn sequence (4.0), actions and activation
(5.0-5.5), movement, ZOC, stacking and waterways (6.1-6.5), combat and its effects (7.0-7.5,
with results.py), supply (8.1-8.7, with supply.py), paratroops, reinforcements and
replacements (9.0-11.0, with arrivals.py), the Bulge (12.0), victory (13.1-13.3, with
victory.py) and the optional rules when the log's headers put them in force (14.1-14.4).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _replace_fields
from functools import cached_property
from typing import Any, TypeVar
from collections.abc import Mapping

from adjudicator.contract import Outcome, Position, SequencePoint, StepNoun
from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Bombard, Capture, Comment, Declare, Entry, Header, Income, Loss, Move, Pass,
    Place, Retreat, RollOff, StandFast, StepMarker, SupportMarkers, TurnMarker,
)
from adjudicator.systems.base import SystemBase
from adjudicator.systems.onslaught import results, supply
from adjudicator.systems.onslaught.arrivals import (
    OUT_OF_PLAY, PARATROOP_BOX, TURN_TRACK, Arrivals, arrival, box_of, order_of, replacement_cost, replacement_points,
)
from adjudicator.systems.onslaught.combat import CombatAudit, audit
from adjudicator.systems.onslaught.results import RESULTS, Combat, Effect, Stack
from adjudicator.systems.onslaught.sections import SECTIONS
from adjudicator.systems.onslaught.victory import score
from wargame.errors import ReplayError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.models import Unit

ACTION_TYPES = ("movement", "combat", "breakthrough")
AMERICAN_FRENCH = frozenset({"us", "french"})
COMMONWEALTH = frozenset({"british", "canadian"})
"""14.1: the two groups of Allied nations that do not cooperate (the Polish division goes with either)."""
INFANTRY_TYPES = frozenset({"infantry", "paratroop", "volksgrenadier"})
"""14.3: the divisions that count as infantry (paratroops fight as infantry on the map, 9.0)."""


@dataclass(frozen=True)
class ActionState:
    """The action under way: who, which type, what it has cost, which units it activated."""

    side: str
    type: str
    claimed: int | None
    line: int
    column: int
    paid: int = 0
    activated: frozenset[str] = frozenset()
    latest: frozenset[str] = frozenset()
    unsupplied: frozenset[str] = frozenset()
    sequence: str | None = None
    """5.5: what the latest breakthrough stack does first ("move" or "attack"), declared or seen."""
    switched: bool = False
    """5.5: the latest breakthrough stack has gone on to the other half of its sequence."""
    group: frozenset[str] = frozenset()
    """5.4: divisions activated together since the action's latest attack."""
    targets: dict[str, str] = field(default_factory=dict)
    """5.4: the hex each division's activation group attacks, once the group has attacked."""


@dataclass(frozen=True)
class OnslaughtState:
    """The position and the sequence of play after an entry."""

    game: Game = field(repr=False, compare=False)
    scenario: str
    turn: int
    step: str | None
    location: dict[str, str]
    depleted: frozenset[str]
    supply: dict[str, int]
    action: ActionState | None = None
    entitled: str | None = None
    passes: tuple[str, ...] = ()
    step_over: bool = False
    stopped: frozenset[str] = frozenset()
    moved: frozenset[str] = frozenset()
    stacks_checked: bool = True
    controlled: dict[str, str] = field(default_factory=dict)
    captured_ports: frozenset[str] = frozenset()
    attacked: frozenset[str] = frozenset()
    retreated: frozenset[str] = frozenset()
    combat: Combat | None = None
    pending: tuple[Effect, ...] = ()
    collected: dict[int, dict[str, int]] = field(default_factory=dict)
    seized: frozenset[tuple[int, str]] = frozenset()
    begun: bool = False
    bulge_turn: int | None = None
    bulge_tie: str = ""
    victory: Outcome | None = None
    optional: frozenset[str] = frozenset()
    """Optional rules in force (14.0), from the log's `Optional` headers."""
    replacement_points: dict[str, int] = field(default_factory=dict)
    """11.1: replacement points each side has left in this Reinforcement Step."""
    arrival_phase: int = 0
    """4.0: how far the Reinforcement Step has gone (an index of arrivals.ORDER)."""
    free_moves: frozenset[str] = frozenset()
    """10.2: German divisions placed in area A or B this step that have not moved yet."""
    dropped: frozenset[str] = frozenset()
    """9.2: paratroop divisions dropped in this action, which move no further in it."""
    regrouped: bool = False
    """3.0: the log has regrouped the landing-hex divisions (`setup` entries)."""
    emergency: str | None = None
    """14.4: the side acting on emergency supply points, which it loses when the action ends."""
    placed_now: frozenset[str] = frozenset()
    """14.2: divisions placed as reinforcements in this Reinforcement Step."""
    _supplied: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _zoc: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _occupants: dict[Hex, str] = field(default_factory=dict, init=False, compare=False, repr=False)
    """The side holding each occupied map hex, computed once per state (supply.py asks often)."""


_Frozen = TypeVar("_Frozen")
_POSITION = frozenset({"location", "controlled", "captured_ports", "turn"})
"""The fields supply lines depend on (8.3-8.5: positions, control, captured ports, the turn for area B)."""


def replace(obj: _Frozen, **changes: Any) -> _Frozen:
    """`dataclasses.replace`, fast for OnslaughtState: a replay makes thousands of states, most
    changing a field or two, and the caches of ZOC, occupied hexes and supply carry over while the
    position they were computed from has not changed."""
    if not isinstance(obj, OnslaughtState):
        return _replace_fields(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(type(obj))
    fields = dict(obj.__dict__)
    fields.update(changes)
    moved = "location" in changes
    fields["_zoc"] = {} if moved else obj._zoc
    fields["_occupants"] = {} if moved else obj._occupants
    fields["_supplied"] = {} if _POSITION & changes.keys() else obj._supplied
    new.__dict__.update(fields)
    return new


class Onslaught(SystemBase[OnslaughtState]):
    """The rule system object the engine calls."""

    name = "onslaught"
    table = SectionTable("onslaught", SECTIONS)
    step_noun: StepNoun = "step"
    entry_kinds = frozenset({"header", "turn", "step", "rolloff", "action", "pass", "activate", "move", "attack",
                             "retreat", "advance", "loss", "stand", "place", "income", "capture", "declare",
                             "comment"})
    foreign_kinds = {"bombard": "is a Fire & Movement entry; Onslaught has no bombardment",
                     "markers": "is a Fire & Movement entry; Onslaught has no support fire markers"}

    @property
    def auditor(self) -> Onslaught:
        """Onslaught audits a disputed combat (7.0-7.4)."""
        return self

    # -- set-up -------------------------------------------------------------------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> OnslaughtState:
        """The scenario's set-up (3.0): units in their hexes and boxes, supply on the tracks."""
        scenario = next((h.value for h in headers if h.key == "Scenario"), game.manifest.scenario[0].id)
        known = {s.id for s in game.manifest.scenario}
        if scenario not in known:
            raise ReplayError(f"unknown scenario {scenario!r} (scenarios: {', '.join(sorted(known))})")
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
        state = OnslaughtState(game, scenario, 0, None, location, frozenset(), points, optional=optional)
        # 8.7: on turn 1 the Allied sources count as having yielded all they could on a turn 0.
        return replace(state, collected={0: supply.allied_income(state, {}, ())})

    # -- helpers ---------------------------------------------------------------------------
    @cached_property
    def arrivals(self) -> Arrivals:
        """The checks of paratroops, reinforcements and replacements (9.0-11.0)."""
        return Arrivals(self)

    @staticmethod
    def tables(state: OnslaughtState) -> _Tables:
        """The map tables of the state's game."""
        return _Tables.of(state.game)

    @staticmethod
    def _unit(state: OnslaughtState, unit_id: str) -> Unit:
        return state.game.units_by_id[unit_id]

    @staticmethod
    def _on_map(state: OnslaughtState, unit_id: str) -> Hex | None:
        where = state.location.get(unit_id)
        return state.game.grid.hex_of(where) if where is not None and state.game.grid.is_label(where) else None

    def _units_at(self, state: OnslaughtState, label: str, side: str | None = None) -> list[str]:
        return sorted(u for u, where in state.location.items()
                      if where == label and (side is None or self._unit(state, u).side == side))

    def _movement(self, state: OnslaughtState, unit_id: str) -> int:
        unit = self._unit(state, unit_id)
        values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
        return values[list(state.game.manifest.value_names).index("movement")]

    def _enemy(self, state: OnslaughtState, side: str) -> str:
        return next(s for s in state.game.manifest.sides if s != side)

    def zoc(self, state: OnslaughtState, side: str) -> frozenset[Hex]:
        """Hexes in the zone of control of `side`'s divisions (6.2: not across sea hexsides),
        computed once per state and side from each hex's precomputed zone."""
        cached = state._zoc.get(side)
        if cached is None:
            tables = _Tables.of(state.game)
            units = state.game.units_by_id
            # Each hex's zone once, however many of the side's divisions stand in it.
            held = {where for unit_id, where in state.location.items() if units[unit_id].side == side}
            out: set[Hex] = set()
            for where in held:
                zone = tables.zone.get(where)
                if zone is not None:
                    out |= zone
            cached = state._zoc[side] = frozenset(out)
        return cached

    def near_enemy(self, state: OnslaughtState, side: str) -> set[Hex]:
        """Hexes within two movement points of an enemy division, counted as 6.4 says: units,
        ZOC, waterways and terrain ignored, but not coastlines and sea or impassable hexsides."""
        enemy = self._enemy(state, side)
        return self.within_two(state, (h for h, owner in supply.occupants(state).items() if owner == enemy))

    @staticmethod
    def within_two(state: OnslaughtState, starts: Iterable[Hex]) -> set[Hex]:
        """Hexes at most two movement points from any of `starts`, counted as 6.4 counts (11.4 too):
        the union of each start's own neighbourhood, which the tables keep once computed."""
        tables = _Tables.of(state.game)
        out: set[Hex] = set()
        for h in starts:
            out |= tables.within_two(h)
        return out

    def supplied(self, state: OnslaughtState, side: str) -> frozenset[Hex]:
        """Hexes from which `side` traces a supply line in this state (8.3-8.5), computed once."""
        if side not in state._supplied:
            state._supplied[side] = supply.supplied_hexes(state, side, state.controlled, state.captured_ports)
        return state._supplied[side]

    def is_supplied(self, state: OnslaughtState, unit_id: str) -> bool:
        """Whether a division traces a supply line now (8.3-8.6; fortifications 7.5)."""
        return supply.in_supply(state, unit_id, self.supplied(state, self._unit(state, unit_id).side))

    def _entered(self, state: OnslaughtState, unit_id: str, labels: Iterable[str]) -> OnslaughtState:
        """Record who last entered each hex of a path (8.1 control; 8.4 captured fortified ports)."""
        side = self._unit(state, unit_id).side
        controlled = dict(state.controlled)
        captured = set(state.captured_ports)
        fortified = {label for label, _ in supply.SupplyMap.of(state.game).fortified_ports}
        for label in labels:
            if state.game.grid.is_label(label):
                controlled[label] = side
                if side == "Allied" and label in fortified:
                    captured.add(label)
        return replace(state, controlled=controlled, captured_ports=frozenset(captured))

    def _f(self, severity: str, section: str, entry: Entry, message: str) -> Finding:
        return self.table.finding(severity, section, entry.line, entry.column, message)  # type: ignore[arg-type]

    def _where(self, state: OnslaughtState) -> str:
        step = {"action": "Action Step", "german_reserve": "German Reserve Step",
                "reinforcement": "Reinforcement Step"}.get(state.step or "", "before the first step")
        return f"turn {state.turn}, {step}"

    # -- closing actions and steps ----------------------------------------------------------
    def _overstacked(self, state: OnslaughtState) -> list[tuple[str, str, int]]:
        limit = int(state.game.parameter.get("stacking_limit", 3))
        count = Counter((where, self._unit(state, u).side) for u, where in state.location.items()
                        if state.game.grid.is_label(where))
        return sorted((where, side, n - limit) for (where, side), n in count.items() if n > limit)

    def _closing(self, state: OnslaughtState, entry: Entry) -> list[Finding]:
        """Findings due when an entry ends the action or step under way (5.2 supply claim, 6.3 stacking).

        Ruling (6.3): a player may end an action overstacked if he logs the removals before the
        next roll-off, action or step; a hex still over the limit then is a breach.
        """
        out: list[Finding] = []
        if not state.stacks_checked:
            limit = state.game.parameter.get("stacking_limit", 3)
            for where, side, excess in self._overstacked(state):
                out.append(self._f("error", "6.3", entry, f"{self._where(state)}: {side} ends the action or step with "
                                                           f"{excess} division(s) over the limit of {limit} in hex "
                                                           f"{where} and removed none"))
        action = state.action
        if action is not None and action.claimed is not None and action.claimed != action.paid:
            out.append(self.table.finding("error", "5.2", action.line, action.column,
                                          f"the {action.side} {action.type} action claims {action.claimed} supply "
                                          f"point(s) but its activations cost {action.paid}"))
        return out

    @staticmethod
    def _close(state: OnslaughtState) -> OnslaughtState:
        """End the action under way; stacking has been checked as of now (6.3); emergency supply
        points not spent are lost (14.4)."""
        if state.emergency is not None:
            state = replace(state, supply={**state.supply, state.emergency: 0}, emergency=None)
        return replace(state, action=None, stopped=frozenset(), moved=frozenset(), stacks_checked=True,
                       attacked=frozenset(), retreated=frozenset(), dropped=frozenset())

    # -- check -------------------------------------------------------------------------------
    def check_rules(self, state: OnslaughtState, entry: Entry) -> list[Finding]:
        """Onslaught's findings for an entry, after the engine's generic checks; the state is left untouched."""
        ended = self._after_the_end(state, entry)
        if ended is not None:
            return [ended]
        out: list[Finding] = []
        if state.combat is not None and not self._carries_out(entry):
            out += self._combat_over(state, entry)
        closes = isinstance(entry, (TurnMarker, StepMarker, RollOff, Action, Pass))
        if closes:
            out += self._closing(state, entry)
        out += self.arrivals.check_order(state, entry)
        if isinstance(entry, TurnMarker):
            out += self._check_turn(state, entry)
        elif isinstance(entry, Place):
            out += self._check_place(state, entry)
        elif isinstance(entry, RollOff):
            out += self._check_roll(state, entry)
        elif isinstance(entry, (Action, Pass)):
            out += self._check_action(state, entry)
        elif isinstance(entry, Activate):
            out += self._check_activate(state, entry)
        elif isinstance(entry, Move):
            out += self._check_move(state, entry) + self._check_sequence(state, entry, "move", [entry.unit])
        elif isinstance(entry, Attack):
            out += self._check_attack(state, entry) + self._check_sequence(state, entry, "attack", entry.attackers)
        elif isinstance(entry, Income):
            out += self._check_income(state, entry)
        elif isinstance(entry, Capture):
            out += self._check_capture(state, entry)
        elif isinstance(entry, Declare):
            out += self._check_declare(state, entry)
        elif isinstance(entry, Loss):
            out += self._check_loss(state, entry)
        elif isinstance(entry, Retreat):
            out += self._check_retreat(state, entry)
        elif isinstance(entry, Advance):
            out += self._check_advance(state, entry)
        elif isinstance(entry, StandFast):
            out += self._check_stand(state, entry)
        return out

    def _check_place(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """Placements: paratroops (9.1, 9.2), reinforcements (10.1-10.3), replacements (11.1-11.4)."""
        checks = {"reinforce": self.arrivals.check_reinforce, "delay": self.arrivals.check_delay,
                  "replace": self.arrivals.check_replace, "paradrop": self.arrivals.check_paradrop,
                  "pickup": self.arrivals.check_pickup, "setup": self._check_setup}
        check = checks.get(entry.how)
        return [] if check is None else check(state, entry)

    def _landing_setup(self, state: OnslaughtState) -> dict[str, str]:
        """The Allied divisions the scenario sets up on the landing hexes, and where (3.0)."""
        landing = set(state.game.areas_by_id["landing_hexes"].hexes)
        return {p.piece: p.location for _, p in state.game.setup
                if p.scenario == state.scenario and p.location in landing and p.piece in state.game.units_by_id}

    def _check_setup(self, state: OnslaughtState, entry: Place) -> list[Finding]:
        """3.0: before turn 1 the Allied player groups the landing-hex divisions as he likes."""
        out = []
        if state.turn != 0:
            out.append(self._f("error", "3.0", entry, "set-up placements come before the first 'Turn' marker"))
        grouped = self._landing_setup(state)
        if entry.unit not in grouped:
            out.append(self._f("error", "3.0", entry, f"{entry.unit} is not one of the Allied divisions on the landing "
                                                      f"hexes ({', '.join(sorted(grouped))}); the others set up where "
                                                      "the map shows"))
        landing = sorted(state.game.areas_by_id["landing_hexes"].hexes)
        if entry.hex not in landing:
            out.append(self._f("error", "3.0", entry, f"{entry.hex or 'no hex'} is not a landing hex "
                                                      f"({', '.join(landing)}){did_you_mean(entry.hex or '', landing)}"))
        return out

    def _check_grouping(self, state: OnslaughtState, entry: TurnMarker) -> list[Finding]:
        """3.0: two divisions on each landing hex as turn 1 begins."""
        counts = Counter(state.location.get(u) for u in self._landing_setup(state))
        return [self._f("error", "3.0", entry, f"landing hex {label} holds {counts.get(label, 0)} of the landing "
                                               "divisions; each holds two")
                for label in sorted(state.game.areas_by_id["landing_hexes"].hexes) if counts.get(label, 0) != 2]

    def _check_turn(self, state: OnslaughtState, entry: TurnMarker) -> list[Finding]:
        out = self._check_grouping(state, entry) if state.turn == 0 and state.regrouped else []
        if entry.turn != state.turn + 1:
            out.append(self._f("error", "4.0", entry, f"turn {entry.turn} follows turn {state.turn}; turns run in "
                                                      "order"))
        scenario = next(s for s in state.game.manifest.scenario if s.id == state.scenario)
        if entry.turn > scenario.last_turn:
            out.append(self._f("error", "4.0", entry, f"the game lasts {scenario.last_turn} turns"))
        if state.turn and state.step != "reinforcement":
            out.append(self._f("error", "4.0", entry, f"turn {state.turn} ends without its Reinforcement Step"))
        elif state.turn:
            out += [self._f("error", section, entry, message) for section, message in self.arrivals.unplaced(state)]
        return out

    def _check_roll(self, state: OnslaughtState, entry: RollOff) -> list[Finding]:
        out = []
        sides = set(state.game.manifest.sides)
        if state.step != "action":
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: die roll-offs belong to the Action Step"))
        if set(entry.rolls) != sides:
            out.append(self._f("error", "5.0", entry, f"both players roll one die: {', '.join(sorted(sides))}"))
        if any(not 1 <= r <= 6 for r in entry.rolls.values()):
            out.append(self._f("error", "5.0", entry, "a die roll is 1 to 6"))
        if state.step_over:
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: the Action Step has already ended"))
        elif self._both_out(state):
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: both players are out of supply points, "
                                                      "so the Action Step has ended"))
        return out

    @staticmethod
    def _both_out(state: OnslaughtState) -> bool:
        """5.0: the Action Step also ends when both players are out of supply points, except on the
        turn of 14.4's emergency supplies, when the winner of a roll gets points to act with."""
        if Onslaught._emergency_turn(state):
            return False
        return state.step == "action" and all(points <= 0 for points in state.supply.values())

    @staticmethod
    def _emergency_turn(state: OnslaughtState) -> bool:
        """14.4: the optional rule is in force and this is its turn (20)."""
        return "emergency_supplies" in state.optional and \
            state.turn == int(state.game.parameter["emergency_supply_turn"])

    def _check_action(self, state: OnslaughtState, entry: Action | Pass) -> list[Finding]:
        out = []
        side = entry.side or ""
        if state.step == "german_reserve":
            if side != "German" or isinstance(entry, Pass) or entry.action != "movement":
                out.append(self._f("error", "5.0", entry, f"{self._where(state)}: only German movement (strategic) "
                                                          "takes place in the German Reserve Step"))
            return out
        if state.step != "action":
            return [self._f("error", "5.0", entry, f"{self._where(state)}: actions are taken in the Action Step")]
        if state.step_over or (self._both_out(state) and state.action is not None):
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: the Action Step has ended (tied roll, "
                                                      "two passes, or both players out of supply)"))
        elif state.entitled is not None and side != state.entitled:
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: {state.entitled} takes this action, "
                                                      f"not {side}"))
        elif state.entitled is None and state.action is not None:
            out.append(self._f("error", "5.0", entry, f"{self._where(state)}: the players roll for the next action "
                                                      "before it is taken"))
        if isinstance(entry, Action) and entry.action not in ACTION_TYPES:
            out.append(self._f("error", "5.1", entry, f"{entry.action!r} is not an action (movement, combat or "
                                                      "breakthrough)"))
        return out

    def _check_activate(self, state: OnslaughtState, entry: Activate) -> list[Finding]:
        action = state.action
        side = entry.side or ""
        if action is None:
            if state.step == "german_reserve" and side == "German":
                cost = int(state.game.parameter["activation_cost"])
                if state.supply.get(side, 0) < cost:
                    return [self._f("error", "5.2", entry, f"German has {state.supply.get(side, 0)} supply point(s) and "
                                                           f"moving a stack costs {cost}")]
                return []
            return [self._f("error", "5.2", entry, f"{self._where(state)}: a stack is activated only within an action")]
        out = []
        if side != action.side:
            out.append(self._f("error", "5.2", entry, f"{side} activates a stack during a {action.side} action"))
        present = self._units_at(state, entry.hex, side)
        named = entry.units or present
        if not present:
            out.append(self._f("error", "5.2", entry, f"hex {entry.hex} holds no {side} division to activate"))
        for unit_id in named:
            if unit_id not in present:
                out.append(self._f("error", "5.2", entry, f"{unit_id} is not in hex {entry.hex}"))
            if unit_id in action.activated:
                out.append(self._f("error", "5.2", entry, f"{unit_id} was already activated in this action; a "
                                                          "division is activated once per action"))
        cost = self._cost(state, action, named)
        if action.type == "breakthrough":
            out += self._check_breakthrough_stack(state, entry, [u for u in named if u in present])
        if state.supply.get(side, 0) < cost:
            out.append(self._f("error", "5.2", entry, f"{side} has {state.supply.get(side, 0)} supply point(s) and "
                                                      f"the activation costs {cost}"))
        if entry.supply is not None and entry.supply != cost:
            out.append(self._f("error", "5.2", entry, f"activating a stack in a {action.type} action costs {cost} "
                                                      f"supply point(s), not {entry.supply}"))
        return out

    def strength(self, state: OnslaughtState, unit_id: str) -> int:
        """A division's combat strength, depleted or not."""
        unit = self._unit(state, unit_id)
        values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
        return values[list(state.game.manifest.value_names).index("combat")]

    def combat_audit(self, state: OnslaughtState, entry: Attack) -> CombatAudit:
        """The arithmetic of an attack in a state (7.0, 7.1, 7.5; supply per 8.6 when known)."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = self._unit(state, entry.attackers[0]).side
        enemy = self._enemy(state, side)
        breakthrough = state.action is not None and state.action.type == "breakthrough"
        # 7.3: a division that retreated into the hex earlier in this action adds no strength,
        # except against a Breakthrough action, where it always defends with its strength.
        defenders = [(u, self.strength(state, u) if (breakthrough or u not in state.retreated) else 0)
                     for u in self._units_at(state, entry.hex, enemy)]
        attackers = [(u, game.grid.hex_of(state.location[u]), self.strength(state, u)) for u in entry.attackers
                     if u in state.location and game.grid.is_label(state.location[u])]
        fortification = "fortification" in game.hex_terrain[target] and enemy == "German"
        # 8.6: attackers' supply was fixed when their stack was activated; the defender's is
        # traced the moment it is attacked.
        attacker_unsupplied = state.action is not None and any(u in state.action.unsupplied for u in entry.attackers)
        defending = self._units_at(state, entry.hex, enemy)
        defender_unsupplied = bool(defending) and not all(self.is_supplied(state, u) for u in defending)
        return audit(game, target, defenders, attackers, entry.die, attacker_unsupplied, defender_unsupplied,
                     fortification)

    def income(self, state: OnslaughtState, entry: Income) -> int:
        """The supply points a side collects in the Reinforcement Step (8.1)."""
        if entry.side == "German":
            return int(state.game.parameter["german_supply_income"])
        return sum(supply.allied_income(state, state.controlled, entry.declined).values())

    def _check_income(self, state: OnslaughtState, entry: Income) -> list[Finding]:
        out = []
        if state.step != "reinforcement":
            out.append(self._f("error", "8.1", entry, f"{self._where(state)}: supply income comes in the "
                                                      "Reinforcement Step"))
        due = self.income(state, entry)
        if entry.points is not None and entry.points != due:
            sources = supply.allied_income(state, state.controlled, entry.declined) if entry.side == "Allied" else {}
            detail = (" (" + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())) + ")") if sources else ""
            out.append(self._f("error", "8.1", entry, f"{entry.side} collects {due} supply point(s){detail}, not "
                                                      f"{entry.points}"))
        total = state.supply.get(entry.side or "", 0) + (entry.points if entry.points is not None else due)
        capped = supply.capped(total, entry.side or "", state.game)
        if capped < total:
            out.append(self._f("note", "8.2", entry, f"{entry.side} reaches {total} supply points; {total - capped} "
                                                     f"above the limit of {capped} are lost"))
        return out

    def _check_declare(self, state: OnslaughtState, entry: Declare) -> list[Finding]:
        if entry.what != "bulge":
            return [self._f("error", "log", entry, f"Onslaught knows one declaration, 'bulge', not {entry.what!r}"
                                                   f"{did_you_mean(entry.what, ['bulge'])}")]
        out = []
        first, last = int(state.game.parameter["bulge_first_turn"]), int(state.game.parameter["bulge_last_turn"])
        if entry.side != "German":
            out.append(self._f("error", "12.0", entry, "only the German player launches the counteroffensive"))
        if state.bulge_turn is not None:
            out.append(self._f("error", "12.0", entry, f"the counteroffensive was already launched on turn "
                                                       f"{state.bulge_turn}; there is only one"))
        if not first <= state.turn <= last:
            out.append(self._f("error", "12.0", entry, f"turn {state.turn}: the counteroffensive may be launched on "
                                                       f"turns {first}-{last} only"))
        # 12.0: announced before the Allied player's first action of the turn.
        if not (state.step is None or (state.step == "action" and not state.begun)):
            out.append(self._f("error", "12.0", entry, f"{self._where(state)}: the counteroffensive is announced "
                                                       "before the turn's first action"))
        return out

    def captured_points(self, state: OnslaughtState, label: str) -> int:
        """Supply points a German capture of an Allied source takes (8.7): half, rounded up, of
        what the Allies collected there on the previous turn."""
        return -(-state.collected.get(state.turn - 1, {}).get(label, 0) // 2)

    def _check_capture(self, state: OnslaughtState, entry: Capture) -> list[Finding]:
        out = []
        if entry.side != "German":
            return [self._f("error", "8.7", entry, "only the German player captures supply")]
        if state.step != "reinforcement":
            out.append(self._f("error", "8.7", entry, f"{self._where(state)}: supply is captured in the "
                                                      "Reinforcement Step"))
        supply_map = supply.SupplyMap.of(state.game)
        sources = {p.label for p in supply_map.ports} | {label for label, _ in supply_map.landing}
        if entry.hex not in sources:
            hint = did_you_mean(entry.hex, sorted(sources))
            return out + [self._f("error", "8.7", entry, f"{entry.hex} is not an Allied port or landing hex"
                                                         f"{hint}")]
        if not self._units_at(state, entry.hex, "German"):
            out.append(self._f("error", "8.7", entry, f"no German division occupies {entry.hex}"))
        if (state.turn, entry.hex) in state.seized:
            out.append(self._f("error", "8.7", entry, f"supply at {entry.hex} was already captured this turn"))
        before = state.collected.get(state.turn - 1, {}).get(entry.hex, 0)
        if before < 1:
            out.append(self._f("error", "8.7", entry, f"the Allies collected no supply at {entry.hex} on turn "
                                                      f"{state.turn - 1}, so there is none to capture"))
        elif entry.points is not None and entry.points != self.captured_points(state, entry.hex):
            out.append(self._f("error", "8.7", entry, f"capturing {entry.hex} yields "
                                                      f"{self.captured_points(state, entry.hex)} supply point(s) "
                                                      f"(half of the {before} the Allies collected there on turn "
                                                      f"{state.turn - 1}, rounded up), not {entry.points}"))
        return out

    def retreat_options(self, state: OnslaughtState, defender_hex: Hex, side: str,
                        attackers: Iterable[Hex]) -> tuple[list[str], list[str]]:
        """Hexes a defender may retreat to (7.3): two hexes away, never into enemy ZOC unless a
        friendly division is there, not ending next to an attacker; and the one-hex retreats
        (which deplete) when two are impossible."""
        game = state.game
        tables = _Tables.of(game)
        enemy_zoc = self.zoc(state, self._enemy(state, side))
        friendly = {self._on_map(state, u) for u in state.location if self._unit(state, u).side == side}
        attacker_hexes = set(attackers)

        def may_enter(a: Hex, b: Hex) -> bool:
            return (b in game.grid and b in tables.passable and Hexside.between(a, b) not in tables.impassable_sides
                    and (b not in enemy_zoc or b in friendly))

        two: set[Hex] = set()
        one: set[Hex] = set()
        for first in defender_hex.neighbours():
            if not may_enter(defender_hex, first):
                continue
            if not any(first.is_adjacent(h) for h in attacker_hexes):
                one.add(first)
            for second in first.neighbours():
                if second.distance(defender_hex) == 2 and may_enter(first, second) and \
                        not any(second.is_adjacent(h) for h in attacker_hexes):
                    two.add(second)
        label = game.grid.label_of
        return sorted(label(h) for h in two), sorted(label(h) for h in one)

    def _check_sequence(self, state: OnslaughtState, entry: Entry, kind: str, units: Sequence[str]) -> list[Finding]:
        """5.5: a breakthrough stack moves then attacks, or attacks then moves, never back again."""
        action = state.action
        if action is None or action.type != "breakthrough" or not set(units) & action.latest:
            return []
        if action.switched and kind == action.sequence:
            other = "attacking" if kind == "move" else "moving"
            verb = "moves" if kind == "move" else "attacks"
            return [self._f("error", "5.5", entry, f"the stack {verb} after {other}; this breakthrough stack "
                                                   f"{'moves then attacks' if kind == 'move' else 'attacks then moves'}"
                                                   ", in one sequence")]
        return []

    @staticmethod
    def _sequenced(state: OnslaughtState, kind: str, units: Sequence[str]) -> OnslaughtState:
        """Record a breakthrough stack's move or attack in its sequence (5.5)."""
        action = state.action
        if action is None or action.type != "breakthrough" or not set(units) & action.latest:
            return state
        if action.sequence is None:
            return replace(state, action=replace(action, sequence=kind))
        if kind != action.sequence and not action.switched:
            return replace(state, action=replace(action, switched=True))
        return state

    def _check_attack(self, state: OnslaughtState, entry: Attack) -> list[Finding]:
        out: list[Finding] = []
        action = state.action
        side = entry.side or (self._unit(state, entry.attackers[0]).side if entry.attackers else "")
        if action is None or action.type not in ("combat", "breakthrough"):
            out.append(self._f("error", "5.1", entry, f"{self._where(state)}: attacks belong to Combat and "
                                                      "Breakthrough actions"))
        target = state.game.grid.hex_of(entry.hex)
        enemy = self._enemy(state, side)
        if not self._units_at(state, entry.hex, enemy):
            out.append(self._f("error", "7.0", entry, f"hex {entry.hex} holds no {enemy} division to attack"))
        tables = _Tables.of(state.game)
        for unit_id in entry.attackers:
            unit = self._unit(state, unit_id)
            if unit.side != side:
                out.append(self._f("error", "7.0", entry, f"{unit_id} is not a {side} division"))
                continue
            here = self._on_map(state, unit_id)
            if action is not None and unit_id not in action.activated:
                out.append(self._f("error", "5.2", entry, f"{unit_id} attacks without being activated in this action"))
            if unit_id in state.attacked:
                out.append(self._f("error", "7.0", entry, f"{unit_id} has already attacked in this action"))
            elif action is not None and action.type == "combat" and action.targets.get(unit_id, entry.hex) != entry.hex:
                # 5.4: the stacks activated together all attack one enemy-held hex.
                out.append(self._f("error", "5.4", entry, f"{unit_id} was activated with the stacks that attacked "
                                                          f"{action.targets[unit_id]}; stacks activated together "
                                                          "attack the same hex"))
            if here is None or not here.is_adjacent(target) or Hexside.between(here, target) in tables.impassable_sides:
                out.append(self._f("error", "7.0", entry, f"{unit_id} at {state.location.get(unit_id)} is not adjacent "
                                                          f"to {entry.hex} (or only across the sea)"))
        if action is not None and action.type == "breakthrough":
            out += self._check_infantry_breakthrough(state, entry, action)
        if out:
            return out
        result = self.combat_audit(state, entry)
        if entry.odds is not None and entry.odds != result.column:
            out.append(self._f("error", "7.0", entry, f"the odds: {result.ratio_note}, not {entry.odds}"))
        if entry.result is not None and entry.result not in RESULTS:
            out.append(self._f("error", "7.2", entry, f"{entry.result} is not a result of the Combat Table "
                                                      f"({', '.join(RESULTS)})"))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", "7.0", entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            if entry.result is not None:
                out.append(self._f("warning", "7.2", entry, f"result {entry.result} cannot be verified: no die roll "
                                                            "is recorded"))
            else:
                out.append(self._f("warning", "7.2", entry, "neither a die roll nor a result is recorded: the result "
                                                            "and its effects cannot be verified"))
        elif entry.result is not None and entry.result in RESULTS and entry.result != result.result:
            out.append(self._f("error", "7.2", entry, f"column {result.column} with a modified roll of "
                                                      f"{result.modified_die} gives {result.result}, not {entry.result}"))
        elif entry.result is None:
            out.append(self._f("note", "7.2", entry, f"the result is {result.result} (column {result.column}, "
                                                     f"modified roll {result.modified_die})"))
        return out

    # -- combat effects (7.2-7.5; the accounting is in results.py) ----------------------------
    @staticmethod
    def _carries_out(entry: Entry) -> bool:
        """Whether an entry may carry out the combat before it (losses, retreats, standing fast,
        advances) or is a comment; any other entry ends that combat (ruling 7.2: effects come
        right after their attack)."""
        if isinstance(entry, Loss):
            return entry.loss != "remove"
        return isinstance(entry, (Retreat, Advance, StandFast, Comment, Header))

    def _known_result(self, state: OnslaughtState, entry: Attack) -> str | None:
        """The result whose effects the log must carry out: the one claimed (checked on its own,
        verify, don't correct), else the table's for the recorded die, else None."""
        if entry.result is not None:
            return entry.result if entry.result in RESULTS else None
        if entry.die is None or not 1 <= entry.die <= 6 or not self._units_at(state, entry.hex):
            return None
        return self.combat_audit(state, entry).result

    def _steps(self, state: OnslaughtState, unit_id: str) -> int:
        """Steps a division has left: two at full strength, one depleted (7.2)."""
        return 1 if unit_id in state.depleted or not self._unit(state, unit_id).reduced else 2

    def _open_combat(self, state: OnslaughtState, entry: Attack) -> tuple[Combat, tuple[Effect, ...]]:
        """The combat an attack opens, and what its result asks of each division (7.2)."""
        result = self._known_result(state, entry)
        side = self._unit(state, entry.attackers[0]).side
        attackers = [u for u in dict.fromkeys(entry.attackers)
                     if self._unit(state, u).side == side and self._on_map(state, u) is not None]
        defenders = self._units_at(state, entry.hex, self._enemy(state, side))
        # Ruling 7.2 AH: a stack is the divisions of one hex that took part in this attack.
        by_hex: dict[str, list[str]] = {}
        for unit_id in attackers:
            by_hex.setdefault(state.location[unit_id], []).append(unit_id)
        stacks = [Stack(h, tuple(us), sum(self.strength(state, u) for u in us)) for h, us in sorted(by_hex.items())]
        strongest = results.strongest_stacks(stacks) if result in ("AH", "HH") else ()
        second: tuple[Stack, ...] = ()
        if result in ("AH", "HH") and "allied_cooperation" in state.optional and self._mixed(state, attackers):
            strongest, second = self._double_depletion(state, by_hex)
        effects = results.effects_of(result, [(u, self._steps(state, u)) for u in attackers],
                                     [(u, self._steps(state, u)) for u in defenders], strongest, second)
        combat = Combat(entry.line, entry.column, entry.hex, result, tuple(attackers), tuple(defenders), strongest,
                        second=second)
        return combat, effects

    def _double_depletion(self, state: OnslaughtState,
                          by_hex: dict[str, list[str]]) -> tuple[tuple[Stack, ...], tuple[Stack, ...]]:
        """14.1: an AH or HH on American or French with Commonwealth attackers depletes the stack with
        the most American and French strength, then another with the most Commonwealth strength.

        Ruling: when several stacks tie for the first depletion, the second falls among the stacks
        that are none of them (the owner's first choice cannot be known before it is logged)."""
        def group_stacks(nations: frozenset[str], hexes: Iterable[str]) -> list[Stack]:
            out = []
            for h in sorted(hexes):
                strength = sum(self.strength(state, u) for u in by_hex[h] if self._unit(state, u).nationality in nations)
                if strength > 0:
                    out.append(Stack(h, tuple(by_hex[h]), strength))
            return out
        first = results.strongest_stacks(group_stacks(AMERICAN_FRENCH, by_hex))
        taken = {s.hex for s in first}
        second = results.strongest_stacks(group_stacks(COMMONWEALTH, (h for h in by_hex if h not in taken)))
        return first, second

    @staticmethod
    def _effect(state: OnslaughtState, unit_id: str) -> Effect | None:
        """What the combat under way asks of a division, if it took part."""
        return next((e for e in state.pending if e.unit == unit_id), None)

    @staticmethod
    def _track(state: OnslaughtState, unit_id: str, lost: int = 0, retreated: bool = False, short: bool = False,
               stray: bool = False, stood: bool = False) -> OnslaughtState:
        """Record what the log did to a division of the combat under way."""
        pending = tuple(replace(e, lost=e.lost + lost, retreated=e.retreated or retreated, short=e.short or short,
                                stray=e.stray or stray, stood=e.stood or stood) if e.unit == unit_id else e
                        for e in state.pending)
        return replace(state, pending=pending)

    def _retreat_kind(self, state: OnslaughtState, entry: Retreat) -> str:
        """"full"; "short": one hex because two are impossible, which depletes (7.3); or "stray":
        one hex though two are open. A German division stopping in a fortification is full (7.5)."""
        combat = state.combat
        if combat is None or len(entry.path) != 2 or self._stops_in_fortification(state, entry.unit, entry.path[-1]):
            return "full"
        two, _ = self._retreat_options_of(state, combat)
        return "stray" if two else "short"

    def _stops_in_fortification(self, state: OnslaughtState, unit_id: str, label: str) -> bool:
        """7.5: a German division can stop retreating as soon as it enters a fortification hex."""
        game = state.game
        return (self._unit(state, unit_id).side == "German" and game.grid.is_label(label)
                and "fortification" in game.hex_terrain.get(game.grid.hex_of(label), ()))

    def _attacker_hexes(self, state: OnslaughtState, combat: Combat) -> list[Hex]:
        """Where the divisions that attacked now stand (those still on the map)."""
        return [h for h in (self._on_map(state, u) for u in combat.attackers) if h is not None]

    def _retreat_options_of(self, state: OnslaughtState, combat: Combat) -> results.Options:
        """Where the defenders of a combat may retreat now (7.3)."""
        if not combat.defenders:
            return [], []
        side = self._unit(state, combat.defenders[0]).side
        return self.retreat_options(state, state.game.grid.hex_of(combat.hex), side,
                                    self._attacker_hexes(state, combat))

    def _combat_over(self, state: OnslaughtState, entry: Entry) -> list[Finding]:
        """What the combat under way still owed when another entry ends it (7.2-7.5)."""
        combat = state.combat
        if combat is None:
            return []
        found = results.outstanding(combat, state.pending, lambda: self._retreat_options_of(state, combat),
                                    lambda u: self._on_map(state, u) is not None)
        return [self._f("error", section, entry, message) for section, message in found]

    def _check_loss(self, state: OnslaughtState, entry: Loss) -> list[Finding]:
        if entry.loss == "remove":
            return self._check_remove(state, entry)
        verb = "depleted" if entry.loss == "deplete" else "eliminated"
        combat = state.combat
        arriving = self.arrivals.check_loss(state, entry) if combat is None else None
        if arriving is not None:
            return arriving
        if self._on_map(state, entry.unit) is None:
            return [self._f("error", "7.2", entry, f"{entry.unit} is not on the map "
                                                   f"({state.location.get(entry.unit) or 'not in play'})")]
        if combat is None:
            return [self._f("error", "7.2", entry, f"{self._where(state)}: no combat result calls for {entry.unit} "
                                                   f"to be {verb}")]
        effect = self._effect(state, entry.unit)
        if effect is None:
            return [self._f("error", "7.2", entry, f"{entry.unit} took no part in {combat.name}; no result calls "
                                                   f"for it to be {verb}")]
        # A deplete of a depleted division is a slip for eliminate, reported unless a worse one is.
        out = [self._f("error", "7.2", entry, f"{entry.unit} is already depleted; a further loss eliminates it")
               ] if entry.loss == "deplete" and entry.unit in state.depleted else []
        if combat.result is None:
            return out
        lost = effect.lost + 1 if entry.loss == "deplete" else max(effect.lost, effect.steps)
        for group in combat.halvings if not effect.defends and effect.loss else ():
            if len(group) < 2 or not any(entry.unit in s.units for s in group):
                continue
            chosen = results.chosen_stack(combat, state.pending, group)
            if chosen is not None and entry.unit not in chosen.units:
                section = "14.1" if group is combat.second else "7.2"
                return [self._f("error", section, entry, f"{combat.verdict} depletes one attacking stack and the "
                                                         f"owner chose {chosen.hex} ({', '.join(chosen.units)}); "
                                                         f"{entry.unit} at {state.location[entry.unit]} is not "
                                                         "depleted too")]
        allowed = results.allowed(effect, lambda: self._retreat_options_of(state, combat))
        if lost <= allowed:
            return out
        if effect.defends and effect.retreat and not (effect.retreated or effect.stood) and allowed == effect.loss:
            two, _ = self._retreat_options_of(state, combat)
            message = (f"{entry.unit} can retreat two hexes (to {', '.join(two)}), so {combat.verdict} does not "
                       f"leave it {results.fate(effect.steps, lost)}")
            return [self._f("error", "7.3", entry, message)]
        if not effect.defends and effect.loss == 0 and combat.strongest:
            message = (f"{combat.verdict} depletes the strongest attacking stack "
                       f"({'; '.join(str(s) for s in (*combat.strongest, *combat.second))}), not {entry.unit}")
        elif allowed == 0:
            message = f"{combat.verdict} takes no loss from {entry.unit}"
        else:
            message = (f"{combat.verdict} leaves {entry.unit} {results.fate(effect.steps, allowed)}, not "
                       f"{results.fate(effect.steps, lost)}")
        return [self._f("error", "7.5" if effect.stood else "7.2", entry, message)]

    def _check_remove(self, state: OnslaughtState, entry: Loss) -> list[Finding]:
        """6.3: divisions are removed only from a stack over the limit, by their owner."""
        where = state.location.get(entry.unit)
        if self._on_map(state, entry.unit) is None:
            return [self._f("error", "6.3", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        side = self._unit(state, entry.unit).side
        limit = int(state.game.parameter.get("stacking_limit", 3))
        if entry.side and entry.side != side:
            return [self._f("error", "6.3", entry, f"{entry.unit} is {side}; the owner chooses which divisions are "
                                                   "removed")]
        here = self._units_at(state, where or "", side)
        if len(here) <= limit:
            return [self._f("error", "6.3", entry, f"{where} holds {len(here)} {side} division(s), within the limit "
                                                   f"of {limit}; nothing is removed")]
        return []

    def _check_retreat(self, state: OnslaughtState, entry: Retreat) -> list[Finding]:
        game = state.game
        unit = self._unit(state, entry.unit)
        where = state.location.get(entry.unit)
        if self._on_map(state, entry.unit) is None:
            return [self._f("error", "7.3", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        if entry.path[0] != where:
            return [self._f("error", "7.3", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        combat = state.combat
        if combat is None:
            return [self._f("error", "7.2", entry, f"{self._where(state)}: no combat result calls for {entry.unit} to "
                                                   "retreat")]
        effect = self._effect(state, entry.unit)
        if effect is None or not effect.defends:
            return [self._f("error", "7.2", entry, f"{entry.unit} did not defend in {combat.name}; only the "
                                                   "defending divisions retreat")]
        if combat.result is not None and not effect.retreat:
            return [self._f("error", "7.2", entry, f"{combat.verdict} calls for no retreat of {entry.unit}")]
        if effect.retreated:
            return [self._f("error", "7.3", entry, f"{entry.unit} has already retreated from {combat.hex}")]
        if effect.stood:
            return [self._f("error", "7.5", entry, f"{entry.unit} stood its ground in {combat.hex}; it does not also "
                                                   "retreat")]
        off = [label for label in entry.path if not game.grid.is_label(label)]
        if off:
            return [self._f("error", "7.3", entry, f"{entry.unit} retreats to {off[0]}, which is not a hex of the map")]
        out: list[Finding] = []
        tables = _Tables.of(game)
        enemy = self._enemy(state, unit.side)
        enemy_zoc = self.zoc(state, enemy)
        friendly = {self._on_map(state, u) for u in state.location
                    if u != entry.unit and self._unit(state, u).side == unit.side}
        hexes = [game.grid.hex_of(label) for label in entry.path]
        for (la, a), (lb, b) in zip(zip(entry.path, hexes), zip(entry.path[1:], hexes[1:])):
            if not a.is_adjacent(b):
                return out + [self._f("error", "7.3", entry, f"{entry.unit} skips from {la} to {lb}; a retreat moves "
                                                             "from hex to adjacent hex")]
            if b not in tables.passable or Hexside.between(a, b) in tables.impassable_sides:
                out.append(self._f("error", "7.3", entry, f"{entry.unit} retreats from {la} into {lb}, which no "
                                                          "division may enter from there"))
            elif b in enemy_zoc and b not in friendly:
                # 7.3: never into enemy ZOC unless a friendly division already occupies the hex.
                out.append(self._f("error", "7.3", entry, f"{entry.unit} retreats into an enemy zone of control at "
                                                          f"{lb}, where no {unit.side} division stands"))
        entered = len(hexes) - 1
        start, end = hexes[0], hexes[-1]
        if entered == 0:
            out.append(self._f("error", "7.3", entry, f"{entry.unit} does not leave {entry.path[0]}; a retreat is two "
                                                      "hexes"))
        elif entered > 2:
            out.append(self._f("error", "7.3", entry, f"{entry.unit} retreats {entered} hexes; a retreat is two "
                                                      "hexes"))
        elif entered == 2 and end.distance(start) != 2:
            away = f"{end.distance(start)} hex{'es' if end.distance(start) != 1 else ''}"
            out.append(self._f("error", "7.3", entry, f"{entry.unit} ends its retreat {away} from {entry.path[0]}; a "
                                                      "division ends up two hexes away from the hex where it was "
                                                      "attacked"))
        elif entered == 1 and not self._stops_in_fortification(state, entry.unit, entry.path[-1]):
            two, _ = self._retreat_options_of(state, combat)
            if two:
                out.append(self._f("error", "7.3", entry, f"{entry.unit} retreats one hex though it can retreat two "
                                                          f"(to {', '.join(two)})"))
        # 7.3: a retreating division cannot end its retreat next to any enemy division that attacked it.
        beside = [u for u in combat.attackers if (h := self._on_map(state, u)) is not None and end.is_adjacent(h)]
        if entered and beside:
            out.append(self._f("error", "7.3", entry, f"{entry.unit} ends its retreat at {entry.path[-1]}, next to "
                                                      f"{beside[0]} at {state.location[beside[0]]}, which attacked it"))
        return out

    def _check_advance(self, state: OnslaughtState, entry: Advance) -> list[Finding]:
        game = state.game
        unit = self._unit(state, entry.unit)
        combat = state.combat
        if combat is None:
            return [self._f("error", "7.4", entry, f"{self._where(state)}: {entry.unit} advances, but no combat has "
                                                   "just been resolved; an advance comes right after its combat")]
        if entry.unit not in combat.attackers:
            return [self._f("error", "7.4", entry, f"{entry.unit} did not take part in {combat.name}; divisions "
                                                   "that did not participate in the attack cannot advance")]
        if entry.unit in combat.advanced:
            return [self._f("error", "7.4", entry, f"{entry.unit} has already advanced after {combat.name}")]
        where = state.location.get(entry.unit)
        if entry.path[0] != where:
            return [self._f("error", "7.4", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        left = self._units_at(state, combat.hex, self._enemy(state, unit.side))
        if left:
            return [self._f("error", "7.4", entry, f"{combat.hex} is not empty ({', '.join(left)}); attacking "
                                                   "divisions advance only when the defender's hex is left empty")]
        if len(entry.path) < 2 or entry.path[1] != combat.hex:
            return [self._f("error", "7.4", entry, f"{entry.unit} advances into {combat.hex}, the vacated hex, "
                                                   "first")]
        armor = unit.type == "armor"
        if not armor and len(entry.path) > 2:
            return [self._f("error", "7.4", entry, f"{entry.unit} is not armor: it advances into the vacated hex "
                                                   f"{combat.hex} and no further")]
        if len(entry.path) > 3:
            return [self._f("error", "7.4", entry, f"armor advances into the vacated hex and one hex further; "
                                                   f"{entry.unit} enters {len(entry.path) - 1}")]
        if len(entry.path) == 3:
            # 7.4: one additional hex in any direction; ZOC and major waterways have no effect.
            tables = _Tables.of(game)
            if not game.grid.is_label(entry.path[2]):
                return [self._f("error", "7.4", entry, f"{entry.path[2]} is not a hex of the map")]
            a, b = game.grid.hex_of(entry.path[1]), game.grid.hex_of(entry.path[2])
            if not a.is_adjacent(b):
                return [self._f("error", "7.4", entry, f"{entry.unit} skips from {entry.path[1]} to {entry.path[2]}")]
            if b not in tables.passable or Hexside.between(a, b) in tables.impassable_sides:
                return [self._f("error", "7.4", entry, f"{entry.unit} advances into {entry.path[2]}, which no division "
                                                       f"may enter from {entry.path[1]}")]
            if self._units_at(state, entry.path[2], self._enemy(state, unit.side)):
                return [self._f("error", "7.4", entry, f"{entry.unit} advances into {entry.path[2]}, which enemy "
                                                       "divisions hold")]
        return []

    def _check_stand(self, state: OnslaughtState, entry: StandFast) -> list[Finding]:
        combat = state.combat
        if combat is None:
            return [self._f("error", "7.5", entry, f"{self._where(state)}: no combat result to stand against")]
        out: list[Finding] = []
        game = state.game
        fortified = "fortification" in game.hex_terrain.get(game.grid.hex_of(combat.hex), ())
        if not fortified:
            out.append(self._f("error", "7.5", entry, f"{combat.hex} is not a fortification hex; only its defenders "
                                                      "may stand instead of retreating"))
        if combat.result is not None and combat.result != "DR":
            out.append(self._f("error", "7.5", entry, f"divisions in a fortification stand against a DR result, not "
                                                      f"{combat.result} ({combat.name})"))
        for unit_id in dict.fromkeys(entry.units):
            effect = self._effect(state, unit_id)
            if effect is None or not effect.defends:
                out.append(self._f("error", "7.5", entry, f"{unit_id} did not defend in {combat.name}"))
            elif self._unit(state, unit_id).side != "German":
                out.append(self._f("error", "7.5", entry, f"{unit_id} is not German; only German divisions stand in "
                                                          "fortifications"))
            elif effect.stood or effect.retreated or state.location.get(unit_id) != combat.hex:
                out.append(self._f("error", "7.5", entry, f"{unit_id} has already stood or left {combat.hex}"))
        if len(entry.units) != len(set(entry.units)):
            out.append(self._f("error", "7.5", entry, "a division is named twice"))
        return out

    def _cost(self, state: OnslaughtState, action: ActionState, units: Iterable[str] = ()) -> int:
        """Supply points to activate a stack (5.2, 5.5); with 14.1, two for a stack that mixes
        American or French divisions with Commonwealth ones."""
        params = state.game.parameter
        if action.type == "breakthrough":
            return int(params["breakthrough_activation_cost"])
        cost = int(params["activation_cost"])
        if "allied_cooperation" in state.optional and self._mixed(state, units):
            return 2 * cost
        return cost

    def _mixed(self, state: OnslaughtState, units: Iterable[str], armor_only: bool = False) -> bool:
        """14.1: whether divisions include both American or French and Commonwealth ones."""
        nations = {self._unit(state, u).nationality for u in units
                   if not armor_only or self._unit(state, u).type == "armor"}
        return bool(nations & AMERICAN_FRENCH) and bool(nations & COMMONWEALTH)

    def _check_infantry_breakthrough(self, state: OnslaughtState, entry: Attack,
                                     action: ActionState) -> list[Finding]:
        """14.3: infantry attacks in a Breakthrough action beside its stack's armor, only when the
        armor attacks before moving."""
        infantry = [u for u in entry.attackers if self._unit(state, u).type != "armor" and u in action.activated]
        if not infantry:
            return []
        out = []
        if action.sequence == "move":
            out.append(self._f("error", "14.3", entry, f"{', '.join(infantry)} join(s) the attack only when the "
                                                       "armor attacks before moving; this stack moves first"))
        if not any(self._unit(state, u).type == "armor" and u in action.latest for u in entry.attackers):
            out.append(self._f("error", "14.3", entry, f"{', '.join(infantry)} attack(s) only together with the "
                                                       "armor of its stack"))
        return out

    def _check_breakthrough_stack(self, state: OnslaughtState, entry: Activate, units: list[str]) -> list[Finding]:
        """5.5: armor only; 14.3: infantry with the armor it is stacked with; 14.1: Commonwealth and
        American or French armor activated separately."""
        out = []
        armor = [u for u in units if self._unit(state, u).type == "armor"]
        for unit_id in units:
            kind = self._unit(state, unit_id).type
            if kind == "armor":
                continue
            if "infantry_breakthrough" in state.optional and kind in INFANTRY_TYPES:
                if not armor:
                    out.append(self._f("error", "14.3", entry, f"{unit_id} joins a Breakthrough action only with "
                                                               "armor of its stack activated with it"))
                continue
            out.append(self._f("error", "5.5", entry, f"{unit_id} is not armor; only armor divisions take part in a "
                                                      "Breakthrough action"))
        if "allied_cooperation" in state.optional and self._mixed(state, armor, armor_only=True):
            out.append(self._f("error", "14.1", entry, "Commonwealth and American or French armor do not cooperate "
                                                       "in a Breakthrough action: activate them one after the other"))
        return out

    def _check_move(self, state: OnslaughtState, entry: Move) -> list[Finding]:
        out: list[Finding] = []
        unit = self._unit(state, entry.unit)
        game = state.game
        tables = _Tables.of(game)
        where = state.location.get(entry.unit)
        if where is None or not game.grid.is_label(where):
            return [self._f("error", "6.1", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        if entry.unit in state.dropped:
            return [self._f("error", "9.2", entry, f"{entry.unit} made a paradrop in this action and moves no "
                                                   "further in it")]
        reserve = state.step == "german_reserve" and unit.side == "German"
        action = state.action
        if state.step == "reinforcement" and action is None:
            if entry.unit not in state.free_moves:
                # 10.2: the one move of the Reinforcement Step, free, for German arrivals from A or B.
                return [self._f("error", "10.2", entry, f"{entry.unit} moves in the Reinforcement Step; only German "
                                                        "reinforcements placed in area A or B this step move then, "
                                                        "once")]
        elif not reserve:
            if action is None:
                return [self._f("error", "5.2", entry, f"{self._where(state)}: {entry.unit} moves without an action")]
            if entry.unit not in action.activated:
                out.append(self._f("error", "5.2", entry, f"{entry.unit} moves without being activated in this action"))
            elif action.type in ("movement", "breakthrough") and entry.unit not in action.latest:
                section = "5.3" if action.type == "movement" else "5.5"
                out.append(self._f("error", section, entry, f"{entry.unit} moves after another stack was activated; "
                                                            "only one stack is activated at a time"))
            if action.type == "breakthrough" and unit.type != "armor" and entry.unit in action.activated:
                out.append(self._f("error", "14.3", entry, f"{entry.unit} is not armor; infantry joins a breakthrough "
                                                           "attack but does not move"))
            if action.type == "combat":
                out.append(self._f("error", "5.4", entry, f"{entry.unit} moves during a Combat action, where divisions "
                                                          "move only to retreat or advance after combat"))
        elif not entry.strategic:
            out.append(self._f("error", "5.0", entry, "in the German Reserve Step divisions move strategically only"))
        if entry.unit in state.moved and not (action is not None and action.type == "breakthrough"):
            out.append(self._f("error", "6.1", entry, f"{entry.unit} has already moved in this action"))
        if entry.path[0] != where:
            out.append(self._f("error", "6.1", entry, f"{entry.unit} is in {where}, not {entry.path[0]}"))
            return out
        hexes = [game.grid.hex_of(label) for label in entry.path]
        for (la, a), (lb, b) in zip(zip(entry.path, hexes), zip(entry.path[1:], hexes[1:])):
            if not a.is_adjacent(b):
                out.append(self._f("error", "6.1", entry, f"{entry.unit} skips from {la} to {lb}; a division moves "
                                                          "from hex to adjacent hex"))
                return out
            if b not in tables.passable:
                out.append(self._f("error", "6.1", entry, f"{entry.unit} enters {lb}, which no division may enter"))
            if Hexside.between(a, b) in tables.impassable_sides:
                out.append(self._f("error", "6.1", entry, f"{entry.unit} crosses the impassable hexside {la}-{lb}"))
        out += self._check_waterways(state, entry, hexes)
        entered = len(hexes) - 1
        allowance = self._movement(state, entry.unit)
        if action is not None and entry.unit in action.unsupplied and entered > 1:
            out.append(self._f("error", "8.6", entry, f"{entry.unit}'s stack was out of supply when activated and "
                                                      f"may move one hex, not {entered}"))
        if entry.strategic:
            allowance *= int(game.parameter["strategic_movement_multiplier"])
            near = self.near_enemy(state, unit.side)
            for label, h in zip(entry.path, hexes):
                if h in near:
                    out.append(self._f("error", "6.4", entry, f"{entry.unit} moves strategically within "
                                                              f"{game.parameter['strategic_movement_min_distance_mp']} "
                                                              f"movement points of an enemy division at {label}"))
                    break
        if entered > allowance:
            section = "6.4" if entry.strategic else "6.1"
            out.append(self._f("error", section, entry, f"{entry.unit} enters {entered} hexes with a movement "
                                                        f"allowance of {allowance}"))
        if entry.unit in state.stopped:
            out.append(self._f("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control earlier in this "
                                                      "action and can move no further"))
        enemy_zoc = self.zoc(state, self._enemy(state, unit.side))
        for i in range(1, len(hexes)):
            previous, current = hexes[i - 1], hexes[i]
            if previous in enemy_zoc and current in enemy_zoc:
                if i == 1:
                    message = (f"{entry.unit} starts in an enemy zone of control at {entry.path[0]} and moves directly "
                               f"into another at {entry.path[1]}")
                else:
                    message = (f"{entry.unit} entered an enemy zone of control at {entry.path[i - 1]} and moved on to "
                               f"{entry.path[i]}")
                out.append(self._f("error", "6.2", entry, message))
                break
            if current in enemy_zoc and i < len(hexes) - 1:
                out.append(self._f("error", "6.2", entry, f"{entry.unit} entered an enemy zone of control at "
                                                          f"{entry.path[i]} and moved on to {entry.path[i + 1]}"))
                break
        return out

    def _check_waterways(self, state: OnslaughtState, entry: Move, hexes: Sequence[Hex]) -> list[Finding]:
        """6.5: crossing a major waterway takes the whole movement allowance (first hex entered,
        then stop), except German divisions across the Rhine and Allied ones into a hex another
        Allied division already holds (not one of the crossing division's own stack)."""
        tables = _Tables.of(state.game)
        unit = self._unit(state, entry.unit)
        action = state.action
        own_stack = action.latest if action is not None else frozenset()
        for i, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
            side = Hexside.between(a, b)
            if side not in tables.waterways:
                continue
            scheldt = side in tables.scheldt
            if not scheldt and unit.side == "German":
                continue
            if not scheldt and any(u != entry.unit and u not in own_stack
                                   for u in self._units_at(state, entry.path[i], unit.side)):
                continue
            name = "the Scheldt estuary" if scheldt else "the Rhine"
            if i != 1:
                return [self._f("error", "6.5", entry, f"{entry.unit} crosses {name} at {entry.path[i - 1]}-"
                                                       f"{entry.path[i]} after moving; crossing a major waterway takes "
                                                       "the whole movement allowance, so it is the first hex entered")]
            if len(hexes) > 2:
                return [self._f("error", "6.5", entry, f"{entry.unit} crosses {name} into {entry.path[1]} and moves on; "
                                                       "crossing a major waterway takes the whole movement allowance")]
        return []

    # -- apply -----------------------------------------------------------------------------
    def apply(self, state: OnslaughtState, entry: Entry) -> OnslaughtState:
        """The state after an entry, with any automatic victory it brings about (13.0-13.2)."""
        after = self._apply(state, entry)
        if after.victory is not None or after.turn == 0 or isinstance(entry, Comment):
            return after
        # 13.2 is judged as a turn ends, which the next turn marker shows.
        if isinstance(entry, TurnMarker) and state.turn:
            won = self.automatic_victory(state, turn_over=True)
            if won is not None:
                return replace(after, victory=Outcome(won[0], won[1], entry.line, won[2]))
        # 13.1 looks at positions, control and supply points. An entry that kept the very same position
        # mappings cannot bring it about unless it took the last Allied point (sources were there before).
        kept = after.location is state.location and after.controlled is state.controlled and state.turn == after.turn
        if kept and (after.supply is state.supply or state.supply.get("Allied", 0) <= 0):
            return after
        won = self.automatic_victory(after, turn_over=False)
        return after if won is None else replace(after, victory=Outcome(won[0], won[1], entry.line, won[2]))

    def _after_the_end(self, state: OnslaughtState, entry: Entry) -> Finding | None:
        """13.0, 13.2: the game ended with the turn this marker closes (the engine refuses any entry
        after a victory already recorded)."""
        if isinstance(entry, TurnMarker) and state.turn:
            won = self.automatic_victory(state, turn_over=True)
            if won is not None:
                return self._f("error", won[1], entry, f"the game ended with turn {state.turn}: the {won[0]} player "
                                                       f"won an automatic victory ({won[2]})")
        return None

    def automatic_victory(self, state: OnslaughtState, turn_over: bool) -> tuple[str, str, str] | None:
        """The winner, section and reason of an automatic victory in this position, if any (13.1, 13.2)."""
        game = state.game
        grid = game.grid
        # 13.1: at any time, no Allied units on the map, or no supply points and no sources.
        if not any(grid.is_label(where) and self._unit(state, u).side == "Allied" for u, where in state.location.items()):
            return "German", "13.1", "the Allied player has no units on the map"
        if state.supply.get("Allied", 0) <= 0 and not supply.allied_sources(state, state.controlled):
            return "German", "13.1", "the Allied player has no supply points and no supply sources"
        last = next(sc.last_turn for sc in game.manifest.scenario if sc.id == state.scenario)
        if not turn_over or state.turn >= last:
            return None
        # 13.2: at the end of a turn before the last, no German division in supply west of the Rhine
        # (fortified ports aside) and 15 Allied divisions in supply east of the Victory Line.
        areas = game.areas_by_id
        west, east = set(areas["west_of_rhine"].hexes), set(areas["east_of_victory_line"].hexes)
        fortified = {label for label, _ in supply.SupplyMap.of(game).fortified_ports}
        german_west = [u for u, where in state.location.items() if self._unit(state, u).side == "German"
                       and where in west and where not in fortified and self.is_supplied(state, u)]
        allied_east = [u for u, where in state.location.items() if self._unit(state, u).side == "Allied"
                       and where in east and self.is_supplied(state, u)]
        needed = int(game.parameter["allied_automatic_victory_divisions"])
        if not german_west and len(allied_east) >= needed:
            return "Allied", "13.2", (f"at the end of turn {state.turn} no German division west of the Rhine is "
                                      f"in supply and {len(allied_east)} Allied divisions east of the Victory "
                                      "Line are")
        return None

    def _apply(self, state: OnslaughtState, entry: Entry) -> OnslaughtState:
        """The state after an entry, as the log says."""
        game = state.game
        if state.combat is not None and not self._carries_out(entry):
            state = replace(state, combat=None, pending=())
        if isinstance(entry, (TurnMarker, StepMarker, RollOff, Action, Pass)):
            state = self._close(state)
        elif isinstance(entry, (Move, Retreat, Advance, Loss, Place)):
            state = replace(state, stacks_checked=False)
        if isinstance(entry, TurnMarker):
            # 9.1: paratroop divisions waiting on this turn's space go to the Paratroop box.
            waiting = f"{TURN_TRACK}@{entry.turn}"
            location = {u: PARATROOP_BOX if where == waiting else where for u, where in state.location.items()}
            return replace(state, turn=entry.turn, step=None, entitled=None, passes=(), step_over=False, begun=False,
                           bulge_tie="", free_moves=frozenset(), replacement_points={}, arrival_phase=0,
                           location=location if waiting in state.location.values() else state.location)
        if isinstance(entry, StepMarker):
            # 12.0: in the counteroffensive's turn the German player takes the first action.
            first = ("German" if state.bulge_turn == state.turn else "Allied") if entry.step == "action" else None
            state = replace(state, step=entry.step, entitled=first, passes=(), step_over=False, begun=False)
            if entry.step == "reinforcement":
                # 11.1: the points, and the extra ones for the Eliminated Units box, as the step begins.
                points = {side: replacement_points(state, side) for side in game.manifest.sides}
                state = replace(state, replacement_points=points, arrival_phase=0, placed_now=frozenset())
            return state
        if state.step == "reinforcement":
            index = order_of(entry, entry.side or "")
            if index is not None and index > state.arrival_phase:
                state = replace(state, arrival_phase=index)
        bulge = state.bulge_turn == state.turn and state.step == "action"
        if isinstance(entry, RollOff):
            values = sorted(entry.rolls.items(), key=lambda kv: -kv[1])
            tied = len(values) > 1 and values[0][1] == values[1][1]
            if tied and bulge and not state.bulge_tie:
                # 12.0: the first tie of that turn lets the German player act instead of ending it.
                return replace(state, entitled="German", passes=(), begun=True, bulge_tie="open")
            return replace(state, entitled=None if tied else values[0][0], step_over=tied, passes=(), begun=True)
        if isinstance(entry, Pass):
            passes = (*state.passes, entry.side or "")
            both = len(set(passes[-2:])) == 2 and len(passes) >= 2
            # 12.0: a German pass after the first tie declines the extra action, so the turn ends.
            declined = state.bulge_tie == "open"
            return replace(state, passes=passes, entitled=None, step_over=state.step_over or both or declined,
                           begun=True, bulge_tie="spent" if declined else state.bulge_tie)
        if isinstance(entry, Action):
            side = entry.side or ""
            if self._emergency_turn(state) and state.begun and state.step == "action" and \
                    state.supply.get(side, 0) <= 0:
                # 14.4: the winner of a roll on turn 20 with no points gets emergency points for this action.
                grant = int(game.parameter[f"emergency_supply_{side.lower()}"])
                state = replace(state, supply={**state.supply, side: grant}, emergency=side)
            return replace(state, action=ActionState(entry.side or "", entry.action, entry.supply, entry.line,
                                                     entry.column), entitled=None, passes=(), begun=True,
                           bulge_tie="spent" if state.bulge_tie == "open" else state.bulge_tie)
        if isinstance(entry, Activate):
            side = entry.side or ""
            units = frozenset(entry.units or self._units_at(state, entry.hex, side))
            if state.action is None:
                # German Reserve Step: each stack moved costs a supply point (4.0, 5.2).
                cost = int(game.parameter["activation_cost"])
                return replace(state, supply={**state.supply, side: state.supply.get(side, 0) - cost})
            cost = self._cost(state, state.action, units)
            points = {**state.supply, side: state.supply.get(side, 0) - cost}
            # 8.6: a stack out of supply when activated stays so for the whole action.
            unsupplied = frozenset(u for u in units if u in state.location and not self.is_supplied(state, u))
            declared = {"move-first": "move", "attack-first": "attack"}.get(entry.order or "")
            action = replace(state.action, paid=state.action.paid + cost, activated=state.action.activated | units,
                             latest=units, unsupplied=state.action.unsupplied | unsupplied, sequence=declared,
                             switched=False, group=state.action.group | units)
            return replace(state, supply=points, action=action)
        if isinstance(entry, (Move, Attack)):
            state = self._sequenced(state, "move" if isinstance(entry, Move) else "attack",
                                    [entry.unit] if isinstance(entry, Move) else entry.attackers)
        if isinstance(entry, Move):
            state = replace(state, free_moves=state.free_moves - {entry.unit})
            enemy_zoc = self.zoc(state, self._enemy(state, self._unit(state, entry.unit).side))
            stopped = state.stopped | ({entry.unit} if game.grid.hex_of(entry.path[-1]) in enemy_zoc else set())
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           moved=state.moved | {entry.unit}, stopped=frozenset(stopped))
        if isinstance(entry, Attack):
            if state.action is not None and state.action.type == "combat":
                # 5.4: the group activated since the last attack is committed to this hex.
                group = state.action.group | (set(entry.attackers) & state.action.activated)
                targets = {**{u: entry.hex for u in group}, **state.action.targets}
                state = replace(state, action=replace(state.action, group=frozenset(), targets=targets))
            combat, pending = self._open_combat(state, entry)
            return replace(state, attacked=state.attacked | set(entry.attackers), combat=combat, pending=pending)
        if isinstance(entry, Retreat):
            kind = self._retreat_kind(state, entry)
            state = self._track(state, entry.unit, retreated=True, short=kind == "short", stray=kind == "stray")
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           retreated=state.retreated | {entry.unit})
        if isinstance(entry, Advance):
            if state.combat is not None:
                state = replace(state, combat=replace(state.combat, advanced=state.combat.advanced | {entry.unit}))
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]})
        if isinstance(entry, StandFast):
            # 7.5: standing fast implies the depletion (an already depleted division is eliminated).
            for unit_id in dict.fromkeys(entry.units):
                state = self._track(state, unit_id, stood=True, lost=1)
                state = self._lose(state, unit_id, "eliminate" if unit_id in state.depleted else "deplete")
            return state
        if isinstance(entry, Loss):
            if entry.loss == "eliminate" and state.location.get(entry.unit) is None:
                # 10.2: a reinforcement no entry hex can supply leaves play for good.
                return replace(state, location={**state.location, entry.unit: OUT_OF_PLAY})
            if entry.loss != "remove":
                effect = self._effect(state, entry.unit)
                if effect is not None:
                    lost = effect.lost + 1 if entry.loss == "deplete" else max(effect.lost, effect.steps)
                    state = self._track(state, entry.unit, lost=lost - effect.lost)
            return self._lose(state, entry.unit, entry.loss)
        if isinstance(entry, Place):
            return self._place(state, entry)
        if isinstance(entry, Income) and entry.side == "Allied":
            # 8.7: what each source yielded this turn is what a capture next turn takes half of.
            state = replace(state, collected={**state.collected, state.turn: supply.allied_income(
                state, state.controlled, entry.declined)})
        if isinstance(entry, Income) and entry.side:
            gained = entry.points if entry.points is not None else self.income(state, entry)
            total = supply.capped(state.supply.get(entry.side, 0) + gained, entry.side, game)
            return replace(state, supply={**state.supply, entry.side: total})
        if isinstance(entry, Capture) and entry.side:
            gained = entry.points if entry.points is not None else self.captured_points(state, entry.hex)
            # 8.7 adds the points at once; 8.2's cap still holds.
            total = supply.capped(state.supply.get(entry.side, 0) + gained, entry.side, game)
            return replace(state, supply={**state.supply, entry.side: total},
                           seized=state.seized | {(state.turn, entry.hex)})
        if isinstance(entry, Declare) and entry.what == "bulge" and entry.side:
            bonus = int(game.parameter["bulge_supply"])
            # 12.0 adds the points at once (8.2's cap holds); in the Action Step the German acts first.
            total = supply.capped(state.supply.get(entry.side, 0) + bonus, entry.side, game)
            return replace(state, supply={**state.supply, entry.side: total}, bulge_turn=state.turn,
                           entitled="German" if state.step == "action" else state.entitled)
        return state

    def _lose(self, state: OnslaughtState, unit_id: str, loss: str) -> OnslaughtState:
        """A division depleted, or eliminated (or removed) to its side's Eliminated Units box;
        an eliminated paratroop division leaves play for good (9.3)."""
        if loss == "deplete":
            return replace(state, depleted=state.depleted | {unit_id})
        unit = self._unit(state, unit_id)
        box = OUT_OF_PLAY if unit.type == "paratroop" else box_of(state.game, "eliminated", unit.side)
        return replace(state, location={**state.location, unit_id: box}, depleted=state.depleted - {unit_id})

    def _place(self, state: OnslaughtState, entry: Place) -> OnslaughtState:
        """A placement as the log writes it (3.0, 9.1, 9.2, 10.1-10.3, 11.1-11.4)."""
        game = state.game
        unit = self._unit(state, entry.unit)
        if entry.how == "setup":
            state = replace(state, regrouped=True)
        if entry.how == "pickup":
            # 9.1: instead of moving, onto the turn track three turns ahead.
            return replace(state, location={**state.location, entry.unit: self.arrivals.pickup_place(state)},
                           moved=state.moved | {entry.unit})
        if entry.how == "paradrop":
            cost = entry.supply if entry.supply is not None else int(game.parameter["paradrop_cost"])
            action = state.action
            if action is not None:
                state = replace(state, action=replace(action, paid=action.paid + cost))
            state = replace(state, supply={**state.supply, "Allied": state.supply.get("Allied", 0) - cost},
                            dropped=state.dropped | {entry.unit}, moved=state.moved | {entry.unit})
        if entry.how == "replace":
            side = unit.side
            start = "eliminated" if self._on_map(state, entry.unit) is None else "depleted"
            label = entry.hex or state.location.get(entry.unit, "")
            in_germany = game.grid.is_label(label) and game.grid.hex_of(label) in game.area_hexes("germany")
            cost = entry.points if entry.points is not None else replacement_cost(
                game, unit.type, start, "depleted" if entry.strength == "reduced" else "full", in_germany) or 0
            state = replace(state, replacement_points={**state.replacement_points,
                                                       side: state.replacement_points.get(side, 0) - cost})
        if entry.how == "replace" and entry.hex is None and self._on_map(state, entry.unit) is not None:
            # 11.2: a depleted division on the map is rebuilt where it stands.
            return replace(state, depleted=state.depleted - {entry.unit})
        target = entry.hex
        if target is None:
            # Without a hex: delayed arrivals to the Delayed Reinforcements box (10.3), paratroops
            # to the Paratroop box (9.1).
            if entry.how == "delay":
                target = box_of(game, "delayed", unit.side)
            elif unit.type == "paratroop" and entry.how == "reinforce":
                target = PARATROOP_BOX
            else:
                return state
        if game.grid.is_label(target):
            state = self._entered(state, entry.unit, [target])
        row = arrival(state, entry.unit) if entry.how == "reinforce" else None
        free = state.free_moves | {entry.unit} if row is not None and unit.side == "German" and \
            row.entry in ("entry_a", "entry_b") else state.free_moves
        depleted = state.depleted | {entry.unit} if entry.strength == "reduced" else state.depleted - {entry.unit}
        placed = state.placed_now | {entry.unit} if entry.how == "reinforce" else state.placed_now
        return replace(state, location={**state.location, entry.unit: target}, depleted=depleted, free_moves=free,
                       placed_now=placed)



    def finish(self, state: OnslaughtState) -> list[Finding]:
        """Notes at the log's end: an automatic victory (13.0-13.2), and effects of the last combat not
        yet logged (an exchange may stop mid-action)."""
        out: list[Finding] = []
        if state.victory is not None:
            won_at = state.victory
            out.append(self.table.finding("note", won_at.section, won_at.line, 1, f"the {won_at.winner} player wins "
                                                                                 f"an automatic victory: "
                                                                                 f"{won_at.reason}"))
        if state.step == "reinforcement" and state.victory is None:
            out += [self.table.finding("note", section, 0, 1, f"when the log ends, {message}")
                    for section, message in self.arrivals.unplaced(state)]
        if state.victory is None and state.step == "reinforcement":
            won = self.automatic_victory(state, turn_over=True)
            if won is not None:
                out.append(self.table.finding("note", won[1], 0, 1, f"when turn {state.turn} is over, the {won[0]} "
                                                                    f"player wins an automatic victory: {won[2]}"))
            last = next(s.last_turn for s in state.game.manifest.scenario if s.id == state.scenario)
            if won is None and state.turn == last:
                # 13.3: no automatic victory by the end of the last turn: victory points decide.
                out += [self.table.finding("note", "13.3", 0, 1, line) for line in score(self, state).lines()]
        combat = state.combat
        if combat is None:
            return out
        found = results.outstanding(combat, state.pending, lambda: self._retreat_options_of(state, combat),
                                    lambda u: self._on_map(state, u) is not None)
        return out + [self.table.finding("note", section, combat.line, combat.column,
                                         f"when the log ends, {message}") for section, message in found]

    # -- the engine's contract ----------------------------------------------------------------
    @staticmethod
    def sequence_point(state: OnslaughtState) -> SequencePoint:
        """Turn and step (Onslaught has no player turns: 4.0)."""
        return SequencePoint(state.turn, state.step)

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
        return "German" if state.step == "german_reserve" else state.entitled if state.step == "action" else None

    def position(self, state: OnslaughtState) -> Position:
        """Units, depleted units, the supply tracks (8.2) and any automatic victory."""
        return Position(state.scenario, self.sequence_point(state), "step", self.unit_places(state, state.depleted),
                        tracks={"supply": dict(state.supply)}, outcome=state.victory)

    def details(self, state: OnslaughtState) -> dict[str, object]:
        """The action under way, replacement points left (11.1) and the victory points (13.3)."""
        return {"action": None if state.action is None else {"side": state.action.side, "type": state.action.type,
                                                              "paid": state.action.paid},
                "replacement_points": dict(state.replacement_points),
                "victory_points": score(self, state).describe()}

    def combat_report(self, state: OnslaughtState, attack: Attack) -> list[str]:
        """The audit of one attack, in lines for a person (7.0-7.4)."""
        game = state.game
        result = self.combat_audit(state, attack)
        lines = [f"Attack on {attack.hex} by {', '.join(attack.attackers)}"]
        lines += [f"  {line}" for line in result.lines[:-2 if result.die is not None else None]]
        if result.modifiers:
            for m in result.modifiers:
                lines.append(f"  {m.section}: {m.value:+d} because {m.why}")
        else:
            lines.append("  7.1: no modifier applies")
        crt = game.crt
        if result.die is not None:
            lines += [f"  {line}" for line in result.lines[-2:]]
        elif crt is not None:
            column = list(crt.columns).index(result.column)
            lines.append("  no die roll given; the column reads " + ", ".join(
                f"{d}: {row[column]}" for d, row in zip(crt.die_rolls, crt.results)))
        side = game.units_by_id[attack.attackers[0]].side
        enemy = next(s for s in game.manifest.sides if s != side)
        attackers = [game.grid.hex_of(state.location[u]) for u in attack.attackers]
        two, one = self.retreat_options(state, game.grid.hex_of(attack.hex), enemy, attackers)
        lines.append(f"  7.3 retreat: two hexes to {', '.join(two) or 'nowhere'}"
                     + ("" if two else f"; one hex (then depleted) to {', '.join(one) or 'nowhere: eliminated'}"))
        armor = [u for u in attack.attackers if game.units_by_id[u].type == "armor"]
        lines.append(f"  7.4 advance: if {attack.hex} is left empty, the attackers may enter it"
                     + (f"; armor ({', '.join(armor)}) one hex further" if armor else "; infantry no further"))
        return lines

    def with_units(self, state: OnslaughtState, placed: Mapping[str, str]) -> OnslaughtState:
        """The state with only these units, where given (an audit without a log)."""
        return replace(state, location=dict(placed))


@dataclass(frozen=True)
class _Tables:
    """Map facts the checks ask thousands of times, computed once per game."""

    passable: frozenset[Hex]
    impassable_sides: frozenset[Hexside]
    zoc_blocked: frozenset[Hexside]
    waterways: frozenset[Hexside]
    scheldt: frozenset[Hexside]
    """6.5: the major waterway hexsides of the Scheldt estuary, which German divisions cannot cross freely."""
    zone: dict[str, frozenset[Hex]]
    """Each map hex's zone of control by label: the hex and its neighbours not across the sea (6.2)."""
    near: dict[Hex, frozenset[Hex]] = field(default_factory=dict)
    """Hexes within two movement points of a hex (6.4), filled in as they are asked for."""

    def within_two(self, start: Hex) -> frozenset[Hex]:
        """The hexes one or two movement points from `start`, and `start` (6.4: over land, not across
        sea or impassable hexsides; units, ZOC, waterways and other terrain ignored)."""
        cached = self.near.get(start)
        if cached is None:
            frontier = deque([(start, 0)])
            seen = {start}
            while frontier:
                h, d = frontier.popleft()
                if d == 2:
                    continue
                for n in h.neighbours():
                    if n in seen or n not in self.passable or Hexside.between(h, n) in self.impassable_sides:
                        continue
                    seen.add(n)
                    frontier.append((n, d + 1))
            cached = self.near[start] = frozenset(seen)
        return cached

    @staticmethod
    def of(game: Game) -> _Tables:
        """The tables of a game (cached on the game object)."""
        cached = getattr(game, "_onslaught_tables", None)
        if cached is None:
            terrain = game.terrain
            passable = frozenset(h for h, ts in game.hex_terrain.items() if not any(terrain[t].prohibited for t in ts))
            sides = game.hexside_features
            impassable = frozenset(s for s, fs in sides.items() if any(terrain[f].prohibited for f in fs))
            blocked = frozenset(s for s, fs in sides.items() if any(terrain[f].blocks_zoc for f in fs))
            waterways = frozenset(s for s, fs in sides.items() if "major_waterway" in fs)
            estuary = game.lines_by_id.get("scheldt_estuary")
            scheldt = frozenset(game.grid.parse_hexside(label) for label in estuary.hexsides) if estuary else frozenset()
            zone = {game.grid.label_of(h): frozenset([h, *(n for n in game.grid.neighbours_on_map(h)
                                                           if Hexside.between(h, n) not in blocked)])
                    for h in game.grid.hexes}
            cached = _Tables(passable, impassable, blocked, waterways, scheldt, zone)
            setattr(game, "_onslaught_tables", cached)
        return cached


ONSLAUGHT = Onslaught()
