"""Onslaught's movement model (`adjudicator.contract.MovementModel`): where a division may still move
(6.1-6.5, 8.6), the zones of control (6.2), the retreats a pending result owes (7.3, 7.5) and a supply line
(8.3-8.5, 7.5), each asked of the rule areas that the checker asks too, so the pictures, the VASSAL reader and
the generators cannot drift from the verdicts."""

from __future__ import annotations

from collections import deque

from adjudicator.contract import MOVE_KINDS, AdvanceOption, Reach, RetreatOption
from adjudicator.notation.entries import Advance
from adjudicator.systems.onslaught.combat import after_losses, attacker_hexes, retreat_options_of, retreat_paths
from adjudicator.systems.onslaught.movement import MoveRule, move_bars, move_rule
from adjudicator.systems.onslaught.results import owed
from adjudicator.systems.onslaught.retreats import check_advance, stops_in_fortification
from adjudicator.systems.onslaught.state import OnslaughtState, enemy_of, occupants, on_map, unit_of
from adjudicator.systems.onslaught.supply import FORTIFICATION, allied_sources, german_sources
from adjudicator.systems.onslaught.supply_map import ALLIED, GERMAN, SupplyMap
from adjudicator.systems.onslaught.zoc import zone_of_control
from wargame.errors import WargameError, did_you_mean
from wargame.hexes import Hex
from wargame.paths import reachable


def _strategic(kind: str) -> bool:
    """Whether a kind of movement is 6.4's strategic movement; WargameError for a kind no system has."""
    if kind not in MOVE_KINDS:
        raise WargameError(f"unknown kind of movement {kind!r}{did_you_mean(kind, MOVE_KINDS)} (kinds: "
                           f"{', '.join(MOVE_KINDS)})")
    return kind == "strategic"


def _known(state: OnslaughtState, unit_id: str) -> None:
    """WargameError, with the closest ids, for a unit the game does not have."""
    units = state.game.units_by_id
    if unit_id not in units:
        raise WargameError(state.game.unknown_unit(unit_id))


class OnslaughtMovement:
    """Onslaught's answers to the movement model's questions."""

    @staticmethod
    def move_rule(state: OnslaughtState, unit_id: str, kind: str = "move") -> MoveRule:
        """How a division may move now (6.1, 6.2, 6.4, 6.5, 8.6)."""
        strategic = _strategic(kind)
        _known(state, unit_id)
        return move_rule(state, unit_id, strategic)

    @staticmethod
    def reach(state: OnslaughtState, unit_id: str, kind: str = "move") -> Reach:
        """Every hex the division may still move to now and the hexes it takes, or why it may not move."""
        strategic = _strategic(kind)
        _known(state, unit_id)
        found, final = move_bars(state, unit_id, strategic)
        bars = [f"{section}: {message}" for section, message in found]
        if not final:
            if unit_id in state.action_log.stopped:
                bars.append(f"6.2: {unit_id} entered an enemy zone of control earlier in this action and can move "
                            "no further")
            rule = move_rule(state, unit_id, strategic)
            if rule.too_near(rule.start):
                bars.append(f"6.4: {unit_id} is within two movement points of an enemy division and may not move "
                            "strategically")
        if bars:
            return Reach({}, tuple(bars))
        label = state.game.grid.label_of
        walked = reachable(rule.start, rule.cost, rule.budget, stops=rule.stops)
        return Reach({label(h): cost for h, cost in sorted(walked.cost.items()) if h != rule.start})

    @staticmethod
    def zones_of_control(state: OnslaughtState, side: str) -> frozenset[str]:
        """The hexes in the zone of control of `side`'s divisions (6.2)."""
        label = state.game.grid.label_of
        return frozenset(label(h) for h in zone_of_control(state, side))

    @staticmethod
    def retreat_options(state: OnslaughtState) -> list[RetreatOption]:
        """The retreats the pending result still owes (7.2, 7.3), with a German division's stop in a
        fortification (7.5) among the full ones."""
        combat = state.combat
        if combat is None or not combat.defenders:
            return []
        game = state.game
        label = game.grid.label_of
        side = unit_of(state, combat.defenders[0]).side
        start = game.grid.hex_of(combat.hex)
        # Ruling 7.2 / 7.3: the attackers the result eliminates bar no retreat, removed from the log yet or not.
        state = after_losses(state)
        two, one = retreat_paths(state, start, side, attacker_hexes(state, combat))
        out = []
        for effect in state.pending:
            if not effect.defends or not effect.retreat or effect.retreated or effect.stood or \
                    on_map(state, effect.unit) != start:
                continue
            _, owes = owed(effect, lambda: retreat_options_of(state, combat))
            if effect.loss >= effect.steps:
                continue  # eliminated by the result itself: nothing left to retreat
            forts = [p for p in one if stops_in_fortification(state, effect.unit, label(p[-1]))]
            full = [*two, *forts] if owes is not None else []
            shorter = [p for p in one if p not in forts] if owes == "one" else []
            out.append(RetreatOption(effect.unit, 2, tuple(tuple(label(h) for h in p) for p in full),
                                     tuple(tuple(label(h) for h in p) for p in shorter)))
        return out

    @staticmethod
    def advance_options(state: OnslaughtState) -> list[AdvanceOption]:
        """The advances after combat open now, by attacking division (7.4): into the vacated hex, armor one hex
        further, each path the checker accepts (empty when no combat is pending or its hex is not empty)."""
        combat = state.combat
        if combat is None:
            return []
        grid = state.game.grid
        further = [grid.label_of(n) for n in grid.neighbours_on_map(grid.hex_of(combat.hex))]
        out = []
        for unit_id in combat.attackers:
            start = state.location.get(unit_id)
            if start is None or not grid.is_label(start):
                continue
            candidates = [(start, combat.hex), *((start, combat.hex, label) for label in further if label != start)]
            paths = tuple(path for path in candidates
                          if not any(f.severity == "error"
                                     for f in check_advance(state, Advance(unit=unit_id, path=list(path)))))
            if paths:
                out.append(AdvanceOption(unit_id, paths))
        return out

    @staticmethod
    def supply_line(state: OnslaughtState, unit_id: str) -> list[str] | None:
        """A supply line the division traces now, from its hex to a source (8.3-8.5): the first found
        breadth first; its own hex alone for a German division in a fortification (7.5) or on a source."""
        _known(state, unit_id)
        start = on_map(state, unit_id)
        if start is None:
            return None
        path = _trace(state, unit_of(state, unit_id).side, start)
        label = state.game.grid.label_of
        return None if path is None else [label(h) for h in path]


def _trace(state: OnslaughtState, side: str, start: Hex) -> list[Hex] | None:
    """The hexes of a supply line of a division of `side` in `start`, searched as `supply.traces_to` searches
    (8.3: no hex in enemy ZOC unless a friendly division holds it; the division's own hex never blocks)."""
    game = state.game
    if side == GERMAN and FORTIFICATION in game.hex_terrain.get(start, ()):
        return [start]  # 7.5, 8.4: always in supply in a fortification
    if side == ALLIED:
        sources = frozenset(h for hexes in allied_sources(state, state.controlled).values() for h in hexes)
    else:
        sources = german_sources(state, state.controlled, state.captured_ports)
    links = SupplyMap.of(game).links
    held = occupants(state)
    if start not in links or held.get(start, side) != side:
        return None
    if start in sources:
        return [start]
    blocked = frozenset(h for h in zone_of_control(state, enemy_of(state, side)) if held.get(h) != side)
    came_from: dict[Hex, Hex] = {}
    queue: deque[Hex] = deque()
    seen = {start}
    if start not in blocked:
        queue.append(start)
    for n in links[start]:
        if n not in blocked and n not in seen:
            seen.add(n)
            came_from[n] = start
            queue.append(n)
    while queue:
        h = queue.popleft()
        if h in sources:
            path = [h]
            while path[-1] != start:
                path.append(came_from[path[-1]])
            return path[::-1]
        for n in links[h]:
            if n not in seen and n not in blocked:
                seen.add(n)
                came_from[n] = h
                queue.append(n)
    return None


MOVEMENT = OnslaughtMovement()
"""The one movement model of Onslaught (`Onslaught.movement`)."""
