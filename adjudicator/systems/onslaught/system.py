"""Onslaught's rules as a plug-in of the replay engine: state, checks and effects.

Checked completely in this version: the turn sequence (4.0), the Action Step (5.0), action
types (5.1), activation (5.2), movement and breakthrough actions (5.3, 5.5), normal and
strategic movement (6.1, 6.4), zones of control (6.2) and stacking (6.3). Entries governed by
other sections are applied as the log says and get one note each that they are not checked
yet (docs/rules-coverage.md lists them).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Capture, Comment, Declare, Entry, Header, Income, Loss, Move, Pass, Place,
    Retreat, RollOff, StandFast, StepMarker, TurnMarker,
)
from adjudicator.systems.onslaught import supply
from adjudicator.systems.onslaught.combat import CombatAudit, audit
from adjudicator.systems.onslaught.sections import SECTIONS
from wargame.errors import ReplayError
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.models import Unit

ACTION_TYPES = ("movement", "combat", "breakthrough")
UNCHECKED_KINDS = {
    "attack": "7.2-7.5 effects", "retreat": "7.3", "advance": "7.4", "loss": "7.2", "stand": "7.5",
    "place": "9.2, 10.1-10.3, 11.1-11.4", "capture": "8.7", "declare": "12.0",
}


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
    noted: frozenset[str] = frozenset()
    _supplied: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)


class Onslaught:
    """The rule system object the engine calls."""

    name = "onslaught"
    table = SectionTable("onslaught", SECTIONS)

    # -- set-up -------------------------------------------------------------------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> OnslaughtState:
        """The scenario's set-up (3.0): units in their hexes and boxes, supply on the tracks."""
        scenario = next((h.value for h in headers if h.key == "Scenario"), game.manifest.scenario[0].id)
        known = {s.id for s in game.manifest.scenario}
        if scenario not in known:
            raise ReplayError(f"unknown scenario {scenario!r} (scenarios: {', '.join(sorted(known))})")
        location: dict[str, str] = {}
        supply = {side: 0 for side in game.manifest.sides}
        for _, placement in game.setup:
            if placement.scenario != scenario:
                continue
            if placement.piece in game.units_by_id:
                location[placement.piece] = placement.location
            marker = game.markers_by_id.get(placement.piece)
            if marker is not None and marker.kind == "supply" and marker.side and "@" in placement.location:
                supply[marker.side] = int(placement.location.partition("@")[2])
        return OnslaughtState(game, scenario, 0, None, location, frozenset(), supply)

    # -- helpers ---------------------------------------------------------------------------
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

    def zoc(self, state: OnslaughtState, side: str) -> set[Hex]:
        """Hexes in the zone of control of `side`'s divisions (6.2: not across sea hexsides)."""
        tables = _Tables.of(state.game)
        out: set[Hex] = set()
        for unit_id, where in state.location.items():
            if self._unit(state, unit_id).side != side or not state.game.grid.is_label(where):
                continue
            h = state.game.grid.hex_of(where)
            out.add(h)
            for n in h.neighbours():
                if n in state.game.grid and Hexside.between(h, n) not in tables.zoc_blocked:
                    out.add(n)
        return out

    def near_enemy(self, state: OnslaughtState, side: str) -> set[Hex]:
        """Hexes within two movement points of an enemy division, counted as 6.4 says: units,
        ZOC, waterways and terrain ignored, but not coastlines and sea or impassable hexsides."""
        tables = _Tables.of(state.game)
        enemy = self._enemy(state, side)
        frontier = deque((h, 0) for h in (self._on_map(state, u) for u in state.location
                                          if self._unit(state, u).side == enemy) if h is not None)
        seen = {h: 0 for h, _ in frontier}
        while frontier:
            h, d = frontier.popleft()
            if d == 2:
                continue
            for n in h.neighbours():
                if n in seen or n not in tables.passable or Hexside.between(h, n) in tables.impassable_sides:
                    continue
                seen[n] = d + 1
                frontier.append((n, d + 1))
        return set(seen)

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
        areas = state.game.areas_by_id
        members = areas["fortified_ports"].members if "fortified_ports" in areas else ()
        fortified = {label for member in members for label in areas[member].hexes}
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
        """End the action under way; stacking has been checked as of now (6.3)."""
        return replace(state, action=None, stopped=frozenset(), moved=frozenset(), stacks_checked=True,
                       attacked=frozenset(), retreated=frozenset())

    # -- check -------------------------------------------------------------------------------
    def check(self, state: OnslaughtState, entry: Entry) -> list[Finding]:
        """Every finding for an entry; the state is left untouched."""
        out: list[Finding] = []
        closes = isinstance(entry, (TurnMarker, StepMarker, RollOff, Action, Pass))
        if closes:
            out += self._closing(state, entry)
        if isinstance(entry, TurnMarker):
            out += self._check_turn(state, entry)
        elif isinstance(entry, StepMarker):
            out += self._check_step(state, entry)
        elif isinstance(entry, RollOff):
            out += self._check_roll(state, entry)
        elif isinstance(entry, (Action, Pass)):
            out += self._check_action(state, entry)
        elif isinstance(entry, Activate):
            out += self._check_activate(state, entry)
        elif isinstance(entry, Move):
            out += self._check_move(state, entry)
        elif isinstance(entry, Attack):
            out += self._check_attack(state, entry)
        elif isinstance(entry, Income):
            out += self._check_income(state, entry)
        elif isinstance(entry, (Header, Comment)):
            pass
        else:
            kind = entry.kind  # type: ignore[attr-defined]
            if kind not in state.noted:
                out.append(self._f("note", "log", entry, f"{kind} entries are applied as written but not checked "
                                                         f"yet (sections {UNCHECKED_KINDS[kind]})"))
        return out

    def _check_turn(self, state: OnslaughtState, entry: TurnMarker) -> list[Finding]:
        out = []
        if entry.turn != state.turn + 1:
            out.append(self._f("error", "4.0", entry, f"turn {entry.turn} follows turn {state.turn}; turns run in "
                                                      "order"))
        scenario = next(s for s in state.game.manifest.scenario if s.id == state.scenario)
        if entry.turn > scenario.last_turn:
            out.append(self._f("error", "4.0", entry, f"the game lasts {scenario.last_turn} turns"))
        if state.turn and state.step != "reinforcement":
            out.append(self._f("error", "4.0", entry, f"turn {state.turn} ends without its Reinforcement Step"))
        return out

    def _check_step(self, state: OnslaughtState, entry: StepMarker) -> list[Finding]:
        order = [s.id for s in state.game.manifest.sequence]
        if entry.step not in order:
            return [self._f("error", "4.0", entry, f"{entry.step!r} is not a step of the turn ({', '.join(order)})")]
        expected = order[0] if state.step is None else (
            order[order.index(state.step) + 1] if order.index(state.step) + 1 < len(order) else None)
        if state.turn == 0:
            return [self._f("error", "4.0", entry, "a step before the first 'Turn' marker")]
        if entry.step != expected:
            return [self._f("error", "4.0", entry, f"turn {state.turn}: step {entry.step!r} comes after "
                                                   f"{state.step or 'the turn marker'!r}; the next step is "
                                                   f"{expected!r}")]
        return []

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
        return out

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
        if state.step_over:
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
        cost = self._cost(state, action)
        if action.type == "breakthrough":
            for unit_id in named:
                if unit_id in present and self._unit(state, unit_id).type != "armor":
                    out.append(self._f("error", "5.5", entry, f"{unit_id} is not armor; only armor divisions take "
                                                              "part in a Breakthrough action"))
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
            if here is None or not here.is_adjacent(target) or Hexside.between(here, target) in tables.impassable_sides:
                out.append(self._f("error", "7.0", entry, f"{unit_id} at {state.location.get(unit_id)} is not adjacent "
                                                          f"to {entry.hex} (or only across the sea)"))
        if out:
            return out
        result = self.combat_audit(state, entry)
        if entry.odds is not None and entry.odds != result.column:
            out.append(self._f("error", "7.0", entry, f"the odds: {result.ratio_note}, not {entry.odds}"))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", "7.0", entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            if entry.result is not None:
                out.append(self._f("warning", "7.2", entry, f"result {entry.result} cannot be verified: no die roll "
                                                            "is recorded"))
        elif entry.result is not None and entry.result != result.result:
            out.append(self._f("error", "7.2", entry, f"column {result.column} with a modified roll of "
                                                      f"{result.modified_die} gives {result.result}, not {entry.result}"))
        elif entry.result is None:
            out.append(self._f("note", "7.2", entry, f"the result is {result.result} (column {result.column}, "
                                                     f"modified roll {result.modified_die})"))
        return out

    @staticmethod
    def _cost(state: OnslaughtState, action: ActionState) -> int:
        params = state.game.parameter
        return int(params["breakthrough_activation_cost"] if action.type == "breakthrough" else params["activation_cost"])

    def _check_move(self, state: OnslaughtState, entry: Move) -> list[Finding]:
        out: list[Finding] = []
        unit = self._unit(state, entry.unit)
        game = state.game
        tables = _Tables.of(game)
        where = state.location.get(entry.unit)
        if where is None or not game.grid.is_label(where):
            return [self._f("error", "6.1", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        reserve = state.step == "german_reserve" and unit.side == "German"
        action = state.action
        if not reserve:
            if action is None:
                return [self._f("error", "5.2", entry, f"{self._where(state)}: {entry.unit} moves without an action")]
            if entry.unit not in action.activated:
                out.append(self._f("error", "5.2", entry, f"{entry.unit} moves without being activated in this action"))
            elif action.type in ("movement", "breakthrough") and entry.unit not in action.latest:
                section = "5.3" if action.type == "movement" else "5.5"
                out.append(self._f("error", section, entry, f"{entry.unit} moves after another stack was activated; "
                                                            "only one stack is activated at a time"))
            if action.type == "combat":
                out.append(self._f("error", "5.1", entry, f"{entry.unit} moves during a Combat action; activated "
                                                          "divisions perform the action's type"))
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
            if Hexside.between(a, b) in tables.waterways and entry.unit not in state.noted:
                out.append(self._f("note", "log", entry, f"{entry.unit} crosses the major waterway {la}-{lb}; 6.5 is "
                                                         "not checked yet"))
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

    # -- apply -----------------------------------------------------------------------------
    def apply(self, state: OnslaughtState, entry: Entry) -> OnslaughtState:
        """The state after an entry, as the log says."""
        game = state.game
        if isinstance(entry, (TurnMarker, StepMarker, RollOff, Action, Pass)):
            state = self._close(state)
        elif isinstance(entry, (Move, Retreat, Advance, Loss, Place)):
            state = replace(state, stacks_checked=False)
        if isinstance(entry, TurnMarker):
            return replace(state, turn=entry.turn, step=None, entitled=None, passes=(), step_over=False)
        if isinstance(entry, StepMarker):
            first = "Allied" if entry.step == "action" else None
            return replace(state, step=entry.step, entitled=first, passes=(), step_over=False)
        if isinstance(entry, RollOff):
            values = sorted(entry.rolls.items(), key=lambda kv: -kv[1])
            tied = len(values) > 1 and values[0][1] == values[1][1]
            return replace(state, entitled=None if tied else values[0][0], step_over=tied, passes=())
        if isinstance(entry, Pass):
            passes = (*state.passes, entry.side or "")
            both = len(set(passes[-2:])) == 2 and len(passes) >= 2
            return replace(state, passes=passes, entitled=None, step_over=state.step_over or both)
        if isinstance(entry, Action):
            return replace(state, action=ActionState(entry.side or "", entry.action, entry.supply, entry.line,
                                                     entry.column), entitled=None, passes=())
        if isinstance(entry, Activate):
            side = entry.side or ""
            units = frozenset(entry.units or self._units_at(state, entry.hex, side))
            if state.action is None:
                # German Reserve Step: each stack moved costs a supply point (4.0, 5.2).
                cost = int(game.parameter["activation_cost"])
                return replace(state, supply={**state.supply, side: state.supply.get(side, 0) - cost})
            cost = self._cost(state, state.action)
            points = {**state.supply, side: state.supply.get(side, 0) - cost}
            # 8.6: a stack out of supply when activated stays so for the whole action.
            unsupplied = frozenset(u for u in units if u in state.location and not self.is_supplied(state, u))
            action = replace(state.action, paid=state.action.paid + cost, activated=state.action.activated | units,
                             latest=units, unsupplied=state.action.unsupplied | unsupplied)
            return replace(state, supply=points, action=action)
        if isinstance(entry, Move):
            enemy_zoc = self.zoc(state, self._enemy(state, self._unit(state, entry.unit).side))
            stopped = state.stopped | ({entry.unit} if game.grid.hex_of(entry.path[-1]) in enemy_zoc else set())
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           moved=state.moved | {entry.unit}, stopped=frozenset(stopped))
        noted = state.noted | ({entry.kind} if entry.kind in UNCHECKED_KINDS else set())  # type: ignore[attr-defined]
        state = replace(state, noted=noted)
        if isinstance(entry, Attack):
            return replace(state, attacked=state.attacked | set(entry.attackers))
        if isinstance(entry, Retreat):
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           retreated=state.retreated | {entry.unit})
        if isinstance(entry, Advance):
            state = self._entered(state, entry.unit, entry.path[1:])
            return replace(state, location={**state.location, entry.unit: entry.path[-1]})
        if isinstance(entry, Loss):
            side = self._unit(state, entry.unit).side
            if entry.loss == "deplete":
                return replace(state, depleted=state.depleted | {entry.unit})
            box = next((b.id for b in game.manifest.box if b.kind == "eliminated" and b.side == side), "eliminated")
            return replace(state, location={**state.location, entry.unit: box}, depleted=state.depleted - {entry.unit})
        if isinstance(entry, Place):
            if entry.hex is not None:
                state = self._entered(state, entry.unit, [entry.hex])
                depleted = state.depleted | {entry.unit} if entry.strength == "reduced" else state.depleted - {entry.unit}
                return replace(state, location={**state.location, entry.unit: entry.hex}, depleted=depleted)
            return state
        if isinstance(entry, Income) and entry.side:
            gained = entry.points if entry.points is not None else self.income(state, entry)
            total = supply.capped(state.supply.get(entry.side, 0) + gained, entry.side, game)
            return replace(state, supply={**state.supply, entry.side: total})
        if isinstance(entry, Capture) and entry.side and entry.points is not None:
            return replace(state, supply={**state.supply, entry.side: state.supply.get(entry.side, 0) + entry.points})
        if isinstance(entry, Declare) and entry.what == "bulge" and entry.side:
            bonus = int(game.parameter.get("bulge_supply", 10))
            return replace(state, supply={**state.supply, entry.side: state.supply.get(entry.side, 0) + bonus},
                           entitled="German")
        return state

    def finish(self, state: OnslaughtState) -> list[Finding]:
        """Nothing is due at the end of a log: an exchange may stop mid-action."""
        return []

    def describe(self, state: OnslaughtState) -> dict[str, Any]:
        """Positions, depleted units, supply and the sequence of play as JSON data."""
        by_place: dict[str, list[str]] = {}
        for unit_id, where in sorted(state.location.items()):
            by_place.setdefault(where, []).append(unit_id)
        return {
            "turn": state.turn, "step": state.step, "supply": dict(state.supply),
            "action": None if state.action is None else {"side": state.action.side, "type": state.action.type,
                                                         "paid": state.action.paid},
            "positions": by_place, "depleted": sorted(state.depleted),
        }


@dataclass(frozen=True)
class _Tables:
    """Map facts the checks ask thousands of times, computed once per game."""

    passable: frozenset[Hex]
    impassable_sides: frozenset[Hexside]
    zoc_blocked: frozenset[Hexside]
    waterways: frozenset[Hexside]

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
            cached = _Tables(passable, impassable, blocked, waterways)
            setattr(game, "_onslaught_tables", cached)
        return cached


ONSLAUGHT = Onslaught()
