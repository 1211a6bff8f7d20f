"""Retreat (8.3, with 6.2 and 8.1.5) and displacement (8.3.1): the retreats open to a unit and the
checks of a `retreat` entry against them."""

from __future__ import annotations

from adjudicator.contract import RetreatOption
from adjudicator.findings import Finding
from adjudicator.notation.entries import Retreat
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.movement import OPEN_STEPS
from adjudicator.systems.fire_and_movement.results import (
    ATTACKER_RETREATS, DEFENDER_RETREATS, FmCombat, RetreatRoom, arrival_ends, to_displace,
)
from adjudicator.systems.fire_and_movement.state import S
from wargame.hexes import Hex


class Retreats(SeriesArea[S]):
    """8.3, 8.3.1, 8.1.5."""

    _retreats_memo: tuple[dict[str, str], dict[tuple[str, int, bool], list[tuple[Hex, ...]]]] | None = None
    """The retreats worked out for one location mapping, by unit, length and whether EZOC counts: a
    combat's entries ask of the same position again and again (8.2.4-8.4)."""

    def retreat_paths(self, state: S, unit_id: str, hexes: int, ezoc_counts: bool = True) -> list[tuple[Hex, ...]]:
        """Every retreat of exactly `hexes` hexes open to a unit now (8.3, 6.2): away from its hex one
        hex a step, never into or through an enemy unit, an EZOC (friendly units do not cancel it;
        `ezoc_counts` False: as if there were none), prohibited terrain or off the map."""
        memo = self._retreats_memo
        if memo is None or memo[0] is not state.location:
            memo = self._retreats_memo = (state.location, {})
        key = (unit_id, hexes, ezoc_counts)
        known = memo[1].get(key)
        if known is None:
            known = memo[1][key] = self._open_retreats(state, unit_id, hexes, ezoc_counts)
        return list(known)

    def _open_retreats(self, state: S, unit_id: str, hexes: int, ezoc_counts: bool) -> list[tuple[Hex, ...]]:
        """`retreat_paths`, worked out."""
        game = state.game
        start = self.rules._on_map(state, unit_id)
        if start is None:
            return []
        unit = self.rules._unit(state, unit_id)
        ezoc = frozenset() if unit.type in self.rules.retreat_ignores_ezoc or not ezoc_counts \
            else self.rules.ezoc(state, unit.side)
        enemy = self.rules.enemy_hexes(state, unit.side)
        beyond = self.rules.off_limits(state)
        steps = OPEN_STEPS(game)  # on the map, into no prohibited terrain or across such a hexside (5.2 e)
        q, r = start
        out: list[tuple[Hex, ...]] = []

        def extend(path: tuple[Hex, ...]) -> None:
            if len(path) - 1 == hexes:
                out.append(path)
                return
            away = len(path)  # 8.3: each hex one farther from the start than the last
            for n in steps[path[-1]]:
                dq, dr = n[0] - q, n[1] - r
                if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 != away or n in enemy or n in ezoc or n in beyond:
                    continue
                extend((*path, n))
        extend((start,))
        return out

    def retreat_room(self, state: S, unit_id: str, due: int) -> RetreatRoom:
        """How far a unit owing a retreat of `due` hexes can go (8.3, 8.3.1): a full retreat ending in a hex no
        other friendly unit holds ("full"); farther only by ending on a friendly unit, which it may displace or
        decline to ("displacing"); only a shorter retreat ("short"); none at all ("none")."""
        reach = self.retreat_reach(state, unit_id, due)
        if reach == due:
            return "full"
        longest = next((n for n in range(due, reach, -1) if self.retreat_paths(state, unit_id, n)), 0)
        return "displacing" if longest else "short" if reach else "none"

    def retreat_reach(self, state: S, unit_id: str, due: int) -> int:
        """The most hexes, up to `due`, a unit can retreat without displacing anybody: the longest open retreat
        ending in a hex no other friendly unit holds (0 for none). 8.3 reduces a unit that cannot retreat in
        full in the last hex it can legally reach, so it goes this far (ending on a friend is displacement,
        voluntary under 8.3.1)."""
        friends = self._friends(state, unit_id)
        return next((n for n in range(due, 0, -1)
                     if any(p[-1] not in friends for p in self.retreat_paths(state, unit_id, n))), 0)

    def _reach_ends(self, state: S, unit_id: str, reach: int) -> str:
        """Where the longest retreats without displacing end, for a message (at most three hexes)."""
        friends = self._friends(state, unit_id)
        ends = sorted({state.game.grid.label_of(p[-1]) for p in self.retreat_paths(state, unit_id, reach)
                       if p[-1] not in friends})
        return " or ".join(ends[:3])

    def legal_retreats(self, state: S, unit_id: str, hexes: int) -> list[tuple[Hex, ...]]:
        """The retreats of exactly `hexes` hexes `_check_retreat` finds nothing wrong with now: open ones
        (8.3, 6.2), farther from the closest enemy unit after a bombardment when some are (8.1.5), by vacant
        hexes when some are (8.3), else ending in a hex no friendly unit holds when some do (8.3.1)."""
        legal = self.retreat_paths(state, unit_id, hexes)
        if state.combat is not None and state.combat.bombardment:
            legal = self._farther(state, unit_id, legal) or legal
        friends = self._friends(state, unit_id)
        vacant = [p for p in legal if friends.isdisjoint(p[1:])]
        free_end = [p for p in legal if p[-1] not in friends]
        return vacant or free_end or legal

    def retreat_options(self, state: S) -> list[RetreatOption]:
        """The retreats the pending result still owes, by unit (8.2.4, 8.3): every legal full retreat, and when
        none is open without displacing a friendly unit (8.3.1) the shorter ones the unit may take instead (then
        reduced too); then each displacement owed, one hex, by a unit a retreat (or displacement) ended on (8.3.1)."""
        combat = state.combat
        if combat is None:
            return []
        label = state.game.grid.label_of
        out = []
        for unit_id in (*combat.attackers, *combat.defenders):
            due = combat.retreat_due(unit_id)
            if not due or unit_id in combat.stood or combat.retreat_of(unit_id) is not None or \
                    self.rules._on_map(state, unit_id) is None:
                continue
            full = self.legal_retreats(state, unit_id, due)
            out.append(RetreatOption(unit_id, due, tuple(tuple(label(h) for h in p) for p in full),
                                     tuple(tuple(label(h) for h in p) for p in self._shorter(state, unit_id, due))))
        listed = {option.unit for option in out}
        for unit_id in self._to_displace(state, combat):
            if unit_id not in listed:
                paths = self.legal_displacements(state, unit_id)
                out.append(RetreatOption(unit_id, 1, tuple(tuple(label(h) for h in p) for p in paths)))
        return out

    def _shorter(self, state: S, unit_id: str, due: int) -> list[tuple[Hex, ...]]:
        """The retreats shorter than `due` the checker accepts (8.3, 8.3.1): as far as the unit goes without
        displacing (then reduced there), and, when even that is short of the longest retreat open by displacing,
        that longest one ending on a friendly unit to displace; none while a full retreat ends in a vacant hex."""
        reach = self.retreat_reach(state, unit_id, due)
        if reach == due:
            return []
        longest = self._longest_displacing(state, unit_id, due, reach)
        lengths = sorted({reach, longest} - {0, due}, reverse=True)
        return [p for n in lengths for p in self.legal_retreats(state, unit_id, n)]

    def _longest_displacing(self, state: S, unit_id: str, due: int, shorter_than: int) -> int:
        """The longest retreat, up to `due` and longer than `shorter_than`, that ends on a friendly unit able to make
        way (a one-hex displacement open to it, 8.3.1); 0 for none."""
        # 8.1.5 needs no filter here: a length beyond the reach has every retreat end on a friend, and each such
        # friend can make way into the hex the retreat came through (out of every EZOC; vacant, or one lone friend
        # to displace in turn), so a retreat 8.1.5 prefers is open by displacing whenever any is. Only a folio's
        # bigger stack in that hex (Omaha's beach landing hexes) could close it; no such position has been found.
        friends = self._friends(state, unit_id)
        for n in range(due, shorter_than, -1):
            ends = {p[-1] for p in self.retreat_paths(state, unit_id, n) if p[-1] in friends}
            if any(self._makes_way(state, h, unit_id) for h in ends):
                return n
        return 0

    def _makes_way(self, state: S, where: Hex, retreating: str) -> bool:
        """Whether a friendly unit in `where` has a hex to be displaced to (8.3.1)."""
        label = state.game.grid.label_of(where)
        return any(self.legal_displacements(state, u) for u, w in state.location.items()
                   if w == label and u != retreating)

    @staticmethod
    def _to_displace(state: S, combat: FmCombat) -> list[str]:
        """The units still standing where a retreat or displacement of the combat ended, which 8.3.1 moves on."""
        return to_displace(state.location, combat)

    def legal_displacements(self, state: S, unit_id: str) -> list[tuple[Hex, ...]]:
        """The one-hex displacements `_check_displacement` finds nothing wrong with (8.3.1): into a vacant hex when
        one is open, else onto a lone friendly unit (which makes way in turn)."""
        one = self.retreat_paths(state, unit_id, 1)
        friends = self._friends(state, unit_id)
        vacant = [p for p in one if p[1] not in friends]
        if vacant:
            return vacant
        label = state.game.grid.label_of
        side = self.rules._unit(state, unit_id).side
        return [p for p in one if sum(1 for u, w in state.location.items() if w == label(p[1]) and
                                      self.rules._unit(state, u).side == side) == 1]

    def _friends(self, state: S, unit_id: str) -> frozenset[Hex]:
        """The map hexes other units of the unit's side stand in."""
        game = state.game
        grid = game.grid
        units = game.units_by_id
        side = units[unit_id].side
        return frozenset(grid.hex_of(w) for u, w in state.location.items()
                         if u != unit_id and units[u].side == side and grid.is_label(w))

    def _check_retreat(self, state: S, entry: Retreat) -> list[Finding]:
        game = state.game
        combat = state.combat
        where = state.location.get(entry.unit)
        if combat is None:
            return [self.rules.no_combat(state, entry, "8.3", f"{self.rules._where(state)}: no combat result calls for {entry.unit} "
                                                   "to retreat")]
        if entry.path[0] != where:
            return [self._f("error", "8.3", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        off = [label for label in entry.path if not game.grid.is_label(label)]
        if off:
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats off the map at {off[0]}")]
        hexes = tuple(game.grid.hex_of(label) for label in entry.path)
        if entry.unit not in (*combat.attackers, *combat.defenders):
            return self._check_displacement(state, entry, combat, hexes)
        due = combat.retreat_due(entry.unit)
        if combat.may_retreat_unknown(entry.unit):
            # No result recorded (the attack's warning says so): the retreat's length is what the log writes, one to
            # three hexes (D2, D3, A1-A3); where it goes is judged all the same (8.3).
            due = min(max(len(entry.path) - 1, 1), 3)
        if not due:
            # 8.1.3 says what a bombardment's results do (the attacker's retreats none), a folio's own attack what
            # its results do (Omaha 11.2.3: a retreat result reduces the assaulting units). A second retreat the result
            # does not call for repeats the misreading of the first (an Ae carried out as a retreat): one error.
            again = any(not combat.retreat_due(u) for u, _ in combat.retreated)
            return [self._f("note" if again else "error", self._results_rule(combat), entry,
                            f"{combat.verdict} calls for no retreat of {entry.unit}{self._instead(combat)}"
                            + (" (the same misreading as an earlier retreat of this combat: one error)" if again
                               else ""))]
        if entry.unit in combat.stood or combat.retreat_of(entry.unit) is not None:
            return [self._f("error", "8.3", entry, f"{entry.unit} has already retreated or stood in {combat.name}")]
        entered = len(hexes) - 1
        if entered == 0 or entered > due:
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats {entered} hexes; {combat.result} calls for "
                                                   f"{due}")]
        legal = self.retreat_paths(state, entry.unit, entered)
        if hexes not in legal and hexes in self.retreat_paths(state, entry.unit, entered, ezoc_counts=False):
            # 6.2 is the clause on retreats and enemy zones of control (8.3 repeats it).
            return [self._f("error", "6.2", entry, f"{entry.unit} retreats into an enemy zone of control at "
                                                   f"{self._first_ezoc(state, entry.unit, hexes)}")]
        if hexes not in legal:
            fault = self._path_fault(state, entry, hexes)
            return [] if fault is None else [self._f("error", "8.3", entry, f"{entry.unit} retreats {fault} (8.3)")]
        reach = self.retreat_reach(state, entry.unit, due)
        if entered < reach:
            # 8.3: a unit goes its full count, or as far as it legally can and is reduced there. A retreat that
            # would end on a friendly unit is not open unless the player displaces it, which is voluntary (8.3.1):
            # only one ending elsewhere makes a shorter retreat an error.
            if reach == due:
                return [self._f("error", "8.3", entry, f"{entry.unit} retreats {entered} of the {due} hexes though a "
                                                       "full retreat is open")]
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats {entered} of the {due} hexes though it can "
                                                   f"retreat {reach} (to {self._reach_ends(state, entry.unit, reach)}); "
                                                   "a unit that cannot retreat in full is reduced in the last hex it "
                                                   "can legally reach (8.3)")]
        if combat.bombardment:
            out = self._bombardment_direction(state, entry, hexes, legal)
            if out:
                return out
        full = legal
        if combat.bombardment:
            # 8.1.5 before 8.3: the vacant path is wanted among the retreats that go farther from the
            # closest enemy unit, when some do.
            full = self._farther(state, entry.unit, full) or full
        friends = self._friends(state, entry.unit)
        vacant = [p for p in full if friends.isdisjoint(p[1:])]
        if vacant and not friends.isdisjoint(hexes[1:]):
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats through or onto a friendly unit though a "
                                                   "path of vacant hexes is open")]
        free_end = [p for p in full if p[-1] not in friends]
        if hexes[-1] in friends and free_end:
            # 8.3.1: no displacement while a retreat of the same length ends in a hex no friendly unit holds.
            ends = sorted({state.game.grid.label_of(p[-1]) for p in free_end})
            return [self._f("error", "8.3.1", entry, f"{entry.unit} ends its retreat on a friendly unit in "
                                                     f"{entry.path[-1]} though it could end in {' or '.join(ends[:3])}; "
                                                     "a friendly unit is displaced only when no other hex is open "
                                                     "(8.3.1)")]
        if hexes[-1] in friends and entered < due:
            # 8.3.1 displaces a friend at a retreat's final hex so the unit completes the retreat; a unit that
            # declines is reduced in the last hex it reaches without displacing (8.3). Displacing a friend to stop
            # short of a longer retreat that displacing would open does neither.
            longer = self._longest_displacing(state, entry.unit, due, entered)
            if longer:
                return [self._f("error", "8.3.1", entry, f"{entry.unit} ends its retreat on a friendly unit in "
                                                         f"{entry.path[-1]} after {entered} of the {due} hexes, though "
                                                         f"a retreat of {longer} is open by displacing; a friendly "
                                                         "unit is displaced only at the end of the longest retreat "
                                                         "open, or the unit declines and is reduced in the last hex "
                                                         "it reaches without displacing (8.3, 8.3.1)")]
        return []

    @staticmethod
    def _results_rule(combat: FmCombat) -> str:
        """The clause that says what a combat's results do: a folio's own attack's, a bombardment's, or 8.2.4."""
        return combat.special.section if combat.special is not None else "8.1.3" if combat.bombardment else "8.2.4"

    @staticmethod
    def _instead(combat: FmCombat) -> str:
        """Words for what a folio's own attack does with a retreat result (none otherwise)."""
        if combat.special is None or combat.result not in (*DEFENDER_RETREATS, *ATTACKER_RETREATS):
            return ""
        return f": in a {combat.special.name} a retreat result reduces every attacking unit instead " \
               f"({combat.special.section})"

    def _path_fault(self, state: S, entry: Retreat, hexes: tuple[Hex, ...]) -> str | None:
        """What is wrong with the first step of a retreat that is not open (8.3), in words; None when it is a hex a
        folio's scenario puts out of play (the folio's own check cites its rule, Omaha 10.1)."""
        game = state.game
        label = game.grid.label_of
        enemy = self.rules.enemy_hexes(state, self.rules._unit(state, entry.unit).side)
        steps = OPEN_STEPS(game)
        start = hexes[0]
        for k, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
            if b.distance(start) != k:
                return f"to {label(b)}, which is not one hex farther from {label(start)} than {label(a)}: each hex " \
                       "of a retreat is one farther from the combat hex"
            if b in enemy:
                return f"into {label(b)}, which an enemy unit holds"
            if b in self.rules.off_limits(state):
                return None
            if b not in steps[a]:
                return f"into prohibited terrain at {label(b)} (or across a prohibited hexside {label(a)}-{label(b)})"
        return "where it may not"  # every step open: a path the search missed would be a bug, said plainly

    def _first_ezoc(self, state: S, unit_id: str, hexes: tuple[Hex, ...]) -> str:
        """The first hex of a retreat in an enemy zone of control."""
        ezoc = self.rules.ezoc(state, self.rules._unit(state, unit_id).side)
        return state.game.grid.label_of(next(h for h in hexes[1:] if h in ezoc))

    def _farther(self, state: S, unit_id: str, paths: list[tuple[Hex, ...]]) -> list[tuple[Hex, ...]]:
        """8.1.5: the retreats that end farther from the closest enemy unit than they start (none when
        no enemy unit is on the map)."""
        enemies = self.rules.enemy_hexes(state, self.rules._unit(state, unit_id).side)
        if not enemies:
            return []

        known: dict[Hex, int] = {}

        def nearest(h: Hex) -> int:
            # Every path starts in the unit's hex and many end in the same hexes: each counted once.
            if h not in known:
                known[h] = min(e.distance(h) for e in enemies)
            return known[h]
        return [p for p in paths if nearest(p[-1]) > nearest(p[0])]

    def _bombardment_direction(self, state: S, entry: Retreat, hexes: tuple[Hex, ...],
                               legal: list[tuple[Hex, ...]]) -> list[Finding]:
        """8.1.5: after a bombardment a unit retreats, if it can, farther from the closest enemy unit."""
        away = self._farther(state, entry.unit, legal)
        if away and hexes not in away:
            return [self._f("error", "8.1.5", entry, f"{entry.unit} retreats after a bombardment no farther from the "
                                                   "closest enemy unit, though it could (8.1.5)")]
        return []

    @staticmethod
    def _arrived(state: S, combat: FmCombat, unit_id: str) -> frozenset[str]:
        """The hexes a unit may be displaced from (8.3.1, results.py)."""
        return arrival_ends(state.location, combat, unit_id)

    def _check_displacement(self, state: S, entry: Retreat, combat: FmCombat, hexes: tuple[Hex, ...]) -> list[Finding]:
        """8.3.1: a friendly unit displaced one hex from where a retreating (or displaced) unit ends, onto
        another friendly unit only when no vacant hex is open to it and that unit is displaced in turn."""
        ends = self._arrived(state, combat, entry.unit)
        folio = self.rules.untouched(state, combat, entry, entry.unit) if entry.path[0] not in ends else None
        if folio is not None:
            return [folio]
        if entry.path[0] not in ends and combat.bombardment and not ends:
            # No retreat has ended anywhere yet: not a displacement, a unit the bombardment never touched.
            return [self._f("error", "8.1.3", entry, f"{entry.unit} took no part in {combat.name}; a bombardment's "
                                                   "results touch only the units bombarded (8.1.3)")]
        if entry.path[0] not in ends:
            owed = [u for u in self._to_displace(state, combat) if u != entry.unit]
            # The stack left where a retreat ended is this one breach (5.3 does not report it again as the phase ends).
            instead = f"; {', '.join(owed)} in {' and '.join(sorted({state.location[u] for u in owed}))}, where a " \
                      "retreat ended, is the unit to displace (the stack left there is this one error)" if owed else ""
            return [self._f("error", "8.3.1", entry, f"{entry.unit} took no part in {combat.name}; only a unit a "
                                                   f"retreating or displaced unit ends on is displaced (8.3.1){instead}")]
        if len(hexes) != 2:
            return [self._f("error", "8.3.1", entry, f"{entry.unit} is displaced {len(hexes) - 1} hexes; a displaced "
                                                   "unit moves one hex (8.3.1)")]
        one = self.retreat_paths(state, entry.unit, 1)
        if hexes not in one:
            if hexes in self.retreat_paths(state, entry.unit, 1, ezoc_counts=False):
                return [self._f("error", "8.3.1", entry, f"{entry.unit} is displaced into an enemy zone of control at "
                                                         f"{entry.path[-1]} (8.3.1)")]
            fault = self._path_fault(state, entry, hexes)
            return [] if fault is None else [self._f("error", "8.3.1", entry, f"{entry.unit} is displaced as if "
                                                                              f"retreating, and retreats {fault} (8.3.1)")]
        friends = self._friends(state, entry.unit)
        if hexes[1] not in friends:
            return []
        # 8.3.1: a displaced unit displaces another by the same procedure: only when no vacant hex is open
        # to it, and onto a lone unit, which then makes way in turn (the chain ends where no hex holds two).
        vacant = sorted(state.game.grid.label_of(p[1]) for p in one if p[1] not in friends)
        if vacant:
            return [self._f("error", "8.3.1", entry, f"{entry.unit} is displaced onto a friendly unit in "
                                                   f"{entry.path[-1]} though {' and '.join(vacant[:3])} "
                                                   f"{'is' if len(vacant) == 1 else 'are'} open to it; it displaces "
                                                   "another only when no vacant hex is (8.3.1)")]
        side = self.rules._unit(state, entry.unit).side
        there = sorted(u for u, w in state.location.items() if w == entry.path[-1] and
                       self.rules._unit(state, u).side == side)
        if len(there) > 1:
            return [self._f("error", "8.3.1", entry, f"{entry.unit} is displaced into {entry.path[-1]}, where "
                                                   f"{', '.join(there)} stand: displacing one would still leave it "
                                                   "stacked (8.3.1)")]
        return []
