"""The classic series' movement model, asked for by the checker's readers (reach, pictures, the VASSAL reader):
the same costs, zones and limits `movement.check_move` applies."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.contract import AdvanceOption, Reach, RetreatOption
from adjudicator.systems.classic import results
from adjudicator.systems.classic.base import communication_line, enemy_of, rules_of, unit_of, zone_of
from adjudicator.systems.classic.movement import limits, step_cost
from adjudicator.systems.classic.state import ClassicState
from wargame.errors import WargameError
from wargame.hexes import Hex
from wargame.paths import reachable
from wargame.records import frozen


@frozen
class ClassicMoveRule:
    """One unit's move now: its costs, where it must stop, its budget."""

    state: ClassicState
    unit_id: str
    rail: bool
    budget: float
    zoc: frozenset[Hex]
    enemy: str
    near: frozenset[Hex] = frozenset()
    """Hexes a strategic move may not enter (too near the enemy)."""

    def cost(self, a: Hex, b: Hex) -> float | None:
        """What stepping from `a` into `b` costs (None: it may not, or `b` is off the map)."""
        grid = self.state.game.grid
        if b not in grid:
            return None
        label = grid.label_of(b)
        if self.state.side_in(label) == self.enemy or b in self.near:
            return None
        if self.rail and (a in self.zoc or b in self.zoc):
            return None
        if not self.rail and a in self.zoc and a != self.state.hex_of(self.unit_id):
            return None
        if not self.rail and a in self.zoc:
            kind = rules_of(self.state).rules.zoc.kind
            if kind == "lock" or (kind == "no_zoc_to_zoc" and b in self.zoc) or \
                    self.unit_id in self.state.log.spent:
                return None
        return step_cost(self.state, a, b, self.rail)

    def stops(self, h: Hex) -> bool:
        """Entering an enemy zone ends a move."""
        return not self.rail and h in self.zoc


class ClassicMovement:
    """Movement, zones of control, retreats, advances and lines of communication of a classic game."""

    def move_rule(self, state: ClassicState, unit_id: str, kind: str = "move") -> ClassicMoveRule:
        """How a unit may move now."""
        if unit_id not in state.game.units_by_id:
            raise WargameError(state.game.unknown_unit(unit_id))
        strategic = rules_of(state).rules.movement.strategic
        if kind != "move" and (kind != "strategic" or strategic is None):
            raise WargameError(f"{state.game.id} has no {kind} movement (its rail movement is its own phase)")
        if state.hex_of(unit_id) is None:
            raise WargameError(f"{unit_id} is not on the map")
        lim = limits(state, unit_id, kind == "strategic")
        side = unit_of(state, unit_id).side
        enemy = enemy_of(state, side)
        budget = lim.budget if lim.hexes is None else float(lim.hexes)
        near: frozenset[Hex] = frozenset()
        if kind == "strategic" and strategic is not None and strategic.keep_away > 0:
            grid = state.game.grid
            foes = [grid.hex_of(label) for label in state.by_hex if state.side_in(label) == enemy]
            near = frozenset(h for h in grid.hexes if any(f.distance(h) <= strategic.keep_away for f in foes))
        return ClassicMoveRule(state, unit_id, lim.rail, budget, zone_of(state, enemy), enemy, near)

    def reach(self, state: ClassicState, unit_id: str, kind: str = "move") -> Reach:
        """Every hex the unit may still end a move in, with its cost."""
        rule = self.move_rule(state, unit_id, kind)
        if kind == "strategic" and rule.near and state.hex_of(unit_id) in rule.near:
            return Reach({}, (f"{rules_of(state).rules.movement.strategic.source}: {unit_id} is too near the enemy "  # type: ignore[union-attr]
                              "to move strategically",))
        fast = rules_of(state).rules.movement.strategic
        phase = rules_of(state).phases.get(state.at.step or "")
        strategic = kind == "strategic" or (phase is not None and phase.movement == "strategic")
        if fast is not None and unit_id in state.log.spent and strategic != (unit_id in state.log.strategic):
            # The checker's rule: a unit's movement in a phase is strategic or not, all of it.
            return Reach({}, (f"{fast.source}: {unit_id} moved {'normally' if strategic else 'strategically'} "
                              "earlier this phase",))
        if unit_id in state.log.stopped:
            return Reach({}, (f"{rules_of(state).rules.zoc.source}: {unit_id} entered an enemy zone of control this "
                              "phase",))
        start = state.hex_of(unit_id)
        assert start is not None
        lim = limits(state, unit_id, kind == "strategic")
        if lim.hexes is not None:
            found = reachable(start, lambda a, b: 1.0 if rule.cost(a, b) is not None else None, float(lim.hexes),
                              stops=rule.stops)
        else:
            found = reachable(start, rule.cost, None if rule.rail else rule.budget, stops=rule.stops)
        grid = state.game.grid
        side = unit_of(state, unit_id).side
        limit = rules_of(state).rules.stacking.limit
        hexes = {grid.label_of(h): c for h, c in found.cost.items() if h != start
                 and len([u for u in state.units_in(grid.label_of(h)) if unit_of(state, u).side == side]) < limit}
        return Reach(hexes)

    def zones_of_control(self, state: ClassicState, side: str) -> frozenset[str]:
        """The hexes in `side`'s zones of control."""
        grid = state.game.grid
        return frozenset(grid.label_of(h) for h in zone_of(state, side))

    def retreat_options(self, state: ClassicState) -> Sequence[RetreatOption]:
        """The retreats the pending result owes."""
        return results.retreat_options(state)

    def advance_options(self, state: ClassicState) -> Sequence[AdvanceOption]:
        """The advances open now."""
        return results.advance_options(state)

    def supply_line(self, state: ClassicState, unit_id: str) -> Sequence[str] | None:
        """A shortest line of communication from the unit's hex to a source (None: none, or off the map): the one
        line the rules trace (`base.communication_line`), so the pictures show what the checks judge."""
        start = state.hex_of(unit_id)
        if rules_of(state).rules.supply is None or start is None:
            return None
        return communication_line(state, state.game.grid.label_of(start), unit_of(state, unit_id).side)
