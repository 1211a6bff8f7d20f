"""Supply (12.0): an Allied unit traces a path to a beach landing hex with a marker, never into a
German-held hex nor through a hex in a German ZOC; out of supply as the Allied player turn ends it
is reduced, or eliminated if reduced (rangers and units on a beach landing hex are exempt)."""

from __future__ import annotations

from collections import deque

from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, Loss
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement.movement import BARRED, OPEN_STEPS
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState
from wargame.game import Game
from wargame.hexes import Hex


class TowardBeach(Area):
    """Each hex's open steps (5.2 e) ordered farthest from the beach first (steps counted over the map),
    each hex's worked out when first asked: a search that takes the last first runs toward the beach,
    where 12.0's paths end."""

    def __init__(self, game: Game, beach: frozenset[str]) -> None:
        grid = game.grid
        around = game.grid.neighbour_map
        far = dict.fromkeys(around, len(around))  # a hex the beach does not reach at all: farther than any
        ring = [grid.hex_of(label) for label in beach]
        for h in ring:
            far[h] = 0
        while ring:
            after = []
            for h in ring:
                step = far[h] + 1
                for n in around[h]:
                    if far[n] > step:
                        far[n] = step
                        after.append(n)
            ring = after
        self._far = far
        self._steps = OPEN_STEPS(game)
        self.known: dict[Hex, tuple[Hex, ...]] = {}
        """The hexes ordered so far (a plain dict: the searches look here first)."""

    def of(self, h: Hex) -> tuple[Hex, ...]:
        """A hex's open steps, the one nearest the beach last."""
        steps = self._steps[h]
        ordered = self.known[h] = tuple(sorted(steps, key=self._far.__getitem__, reverse=True)) \
            if len(steps) > 1 else steps
        return ordered


TOWARD_BEACH: PerGame[dict[frozenset[str], TowardBeach]] = PerGame(lambda game: {})
"""Each game's `TowardBeach` by beach (the scenario's or the campaign's, 14.0 b), built on first use."""


def toward_beach(game: Game, beach: frozenset[str]) -> TowardBeach:
    """`TowardBeach` of a game's beach, made once per game."""
    known = TOWARD_BEACH(game)
    found = known.get(beach)
    if found is None:
        found = known[beach] = TowardBeach(game, beach)
    return found


class Supply(Area):
    """12.0."""

    _traced: tuple[dict[str, str], frozenset[str], frozenset[Hex], frozenset[Hex] | None] | None = None
    """The last trace: the location mapping and landing hexes it was made for, the supplied hexes,
    and the targets it stopped at (None: the whole map)."""

    def _supply_due(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """12.0: as the Allied player turn ends, each unit out of supply takes its loss."""
        if not self.rules._allied_turn_ending(state):
            return []
        return [self._f("error", "12.0", entry, f"{unit_id} at {state.location[unit_id]} is out of supply as the "
                                                "Allied player turn ends and is reduced (or eliminated if already "
                                                "reduced)")
                for unit_id in self.out_of_supply(state) if unit_id not in state.log.supply_losses]

    def supply_loss(self, state: OmahaState, unit_id: str) -> bool:
        return self._supply_loss(state, unit_id)

    def folio_loss(self, state: OmahaState, entry: Loss) -> list[Finding] | None:
        """12.0's loss outside a combat, and the Rangers' at Pointe du Hoc (11.2.3)."""
        if state.combat is not None and not self._supply_loss(state, entry.unit):
            return None
        if state.at.turn == 0 and entry.unit == self.rules._ranger(state):
            return self.rules._check_pdh_loss(state, entry)
        if self.rules._allied_turn_ending(state) and self.is_out_of_supply(state, entry.unit) and \
                entry.unit not in state.log.supply_losses:
            # 12.0: out of supply as the Allied player turn ends: reduced, or eliminated if reduced.
            if entry.loss == "deplete" and self.rules._steps(state, entry.unit) <= 1:
                return [self.rules.last_step_note(entry, "12.0")]  # the ruling: its elimination, written short
            if entry.loss == "eliminate" and self.rules._steps(state, entry.unit) > 1:
                return [self._f("error", "12.0", entry, f"{entry.unit} is reduced, not eliminated, for want of "
                                                        "supply")]
            return []
        return None

    def supplied(self, state: OmahaState, targets: frozenset[Hex] | None = None) -> frozenset[Hex]:
        """Hexes from which an Allied unit traces supply (12.0): a path to a beach landing hex with a
        marker, never into a German-held hex, and through no hex in a German ZOC (such a hex may only
        begin or end the path). With `targets`, the hexes returned answer for the targets only."""
        game = state.game
        landing = self.rules.landing_hexes(state)
        memo = self._traced
        if memo is not None and memo[0] is state.location and memo[1] == landing and \
                (memo[3] is None or targets is not None and targets <= memo[3]):
            return memo[2]  # the same position as the last trace, which answered these targets
        grid = game.grid
        german = self.rules.enemy_hexes(state, "Allied")
        ezoc = self.rules.ezoc(state, "Allied")
        sources = [grid.hex_of(label) for label in sorted(landing)]
        steps = OPEN_STEPS(game)  # 12.0: a supply path steps into no prohibited terrain or across such a hexside
        barred = BARRED(game)
        if targets is not None and not any(h in barred for h in sources):
            toward = toward_beach(game, self.rules._beach(state))
            found = self._traced_back(targets, frozenset(sources), german, ezoc, toward, barred)
        else:
            found = self._traced_out(sources, german, ezoc, steps)
        self._traced = (state.location, landing, found, targets)
        return found

    @staticmethod
    def _traced_out(sources: list[Hex], german: frozenset[Hex], ezoc: frozenset[Hex],
                    steps: dict[Hex, tuple[Hex, ...]]) -> frozenset[Hex]:
        """12.0's supplied hexes of the whole map: a search out from the landing hexes."""
        frontier = [h for h in sources if h not in german]
        out = set(frontier)
        while frontier:
            h = frontier.pop()
            for n in steps[h]:
                if n in out or n in german:
                    continue
                out.add(n)  # a path may end (begin, from the unit's side) in an EZOC hex
                if n not in ezoc:
                    frontier.append(n)
        return frozenset(out)

    @staticmethod
    def _traced_back(targets: frozenset[Hex], sources: frozenset[Hex], german: frozenset[Hex], ezoc: frozenset[Hex],
                     toward: TowardBeach, barred: frozenset[Hex]) -> frozenset[Hex]:
        """The targets among 12.0's supplied hexes, each searched back from its own hex toward the landing
        hexes, the answers shared: the search out from the landing hexes reaches a hex exactly when this
        one finds a landing hex from it (every hex it passes is open, neither German-held nor in an EZOC,
        and between two open hexes a step is open both ways; no landing hex is prohibited terrain).
        `toward` gives each hex's open steps nearest the beach last, so the search runs toward it."""
        known = toward.known
        good: set[Hex] = set()  # open hexes with a path to a landing hex
        bad: set[Hex] = set()  # open hexes without one
        out = set()
        for start in sorted(targets):
            if start in german or start in barred:
                continue  # nothing steps into a German-held hex nor into prohibited terrain
            if start in sources or start in good:
                out.add(start)
                continue
            if start in bad:
                continue
            seen = {start}
            todo = [start]
            reached = False
            while todo and not reached:
                h = todo.pop()
                steps = known.get(h)
                for n in toward.of(h) if steps is None else steps:
                    if n in seen or n in german:
                        continue
                    if n in sources or n in good:
                        reached = True
                        break
                    seen.add(n)
                    if n not in ezoc and n not in bad:  # 12.0: a hex in a German ZOC only ends (or begins) the path
                        todo.append(n)
            # The open hexes searched share the start's answer (those in an EZOC were not searched on from);
            # a start in an EZOC joins them only on the unit's side, so a way found through it is its alone.
            searched = seen - ezoc
            if reached:
                out.add(start)
                if start not in ezoc:
                    good |= searched
            else:
                bad |= searched
        return frozenset(out)

    def supply_line(self, state: OmahaState, unit_id: str) -> list[str] | None:
        """The hexes of an Allied unit's supply path (12.0), from its hex to a beach landing hex with a marker,
        searched as `supplied` searches (the shortest); its own hex alone for a unit exempt from supply (a German
        unit, 9.0; a ranger or a unit on a beach landing hex, 12.0); None when it traces none."""
        start = self.rules._on_map(state, unit_id)
        if start is None:
            return None
        game = state.game
        label = game.grid.label_of
        landing = self.rules.landing_hexes(state)
        unit = self.rules._unit(state, unit_id)
        if unit.side != "Allied" or unit.type == "ranger" or label(start) in landing:
            return [label(start)]
        german = self.rules.enemy_hexes(state, "Allied")
        ezoc = self.rules.ezoc(state, "Allied")
        frontier = deque(h for h in (game.grid.hex_of(x) for x in sorted(landing)) if h not in german)
        came_from: dict[Hex, Hex | None] = {h: None for h in frontier}
        while frontier:
            h = frontier.popleft()
            if h == start:
                path = [h]
                while (back := came_from[path[-1]]) is not None:
                    path.append(back)
                return [label(x) for x in path]
            if h in ezoc and came_from[h] is not None:
                continue  # 12.0: a hex in a German ZOC only ends the path (or begins it, at the beach)
            for n in OPEN_STEPS(game)[h]:
                if n in came_from or n in german:
                    continue
                came_from[n] = h
                frontier.append(n)
        return None

    def out_of_supply(self, state: OmahaState) -> list[str]:
        """Allied units that cannot trace supply now (12.0; rangers and units on a beach landing hex
        are exempt)."""
        grid = state.game.grid
        landing = self.rules.landing_hexes(state)
        units = state.game.units_by_id
        tracing = {u: grid.hex_of(w) for u, w in state.location.items() if grid.is_label(w)
                   and units[u].side == "Allied" and units[u].type != "ranger" and w not in landing}
        if not tracing:
            return []
        supplied = self.supplied(state, frozenset(tracing.values()))
        return sorted(u for u, h in tracing.items() if h not in supplied)

    def is_out_of_supply(self, state: OmahaState, unit_id: str) -> bool:
        """Whether one unit is among `out_of_supply`'s (12.0), from a trace that stops once it reaches the unit."""
        grid = state.game.grid
        where = state.location.get(unit_id)
        unit = state.game.units_by_id.get(unit_id)
        if where is None or unit is None or not grid.is_label(where) or unit.side != "Allied" or unit.type == "ranger" or \
                where in self.rules.landing_hexes(state):
            return False
        h = grid.hex_of(where)
        return h not in self.supplied(state, frozenset({h}))

    def _supply_loss(self, state: OmahaState, unit_id: str) -> bool:
        """12.0: a loss, as the Allied player turn ends, of a unit out of supply that the combat just
        resolved does not claim (the unit took no part in it, or its result is carried out): the log
        writes the supply losses after the Mobile Combat Phase's last combat."""
        combat = state.combat
        if combat is None or not self.rules._allied_turn_ending(state) or unit_id in state.log.supply_losses:
            return False
        if unit_id in (*combat.attackers, *combat.defenders) and \
                (combat.result is None or self.rules._outstanding(state, combat)):
            return False
        return self.is_out_of_supply(state, unit_id)
