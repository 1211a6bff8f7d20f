"""Compulsory attacks (rules.toml's `[combat] must_attack`): as a combat phase ends, every phasing unit that stood
next to an enemy when the phase began has attacked, and every enemy unit that stood next to one has been attacked,
as far as one arrangement of the phase's attacks could meet them all (judged as one assignment, not hex by hex: a
unit attacks once); a combat phase a marker passes over unwritten (nothing done in it) is judged as it stood."""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import StepMarker, TurnMarker
from adjudicator.systems.classic.base import finding, rules_of
from adjudicator.systems.classic.combat import below_the_table
from adjudicator.systems.classic.state import ClassicState, PhaseLog, evolve, reindexed
from wargame.sequence import Slot, phasing_side, slot_index, turn_sequence


def _ending(state: ClassicState, entry: StepMarker | TurnMarker) -> list[tuple[Slot, bool]]:
    """The phases a marker ends: the one under way (True) and those it passes over unwritten (False), in order."""
    sequence = turn_sequence(state.game.manifest, state.scenario)
    if state.at.turn == 0:
        return []
    current = slot_index(sequence, state.at.step, state.at.player_turn) if state.at.step is not None else None
    start = 0 if current is None else current + 1
    if isinstance(entry, TurnMarker):
        end = len(sequence)
    else:
        # A marker naming no later phase of the turn passes none over (its order is the engine's error).
        end = next((i for i in range(start, len(sequence)) if sequence[i].id == entry.step), start)
    return ([(sequence[current], True)] if current is not None else []) + [(s, False) for s in sequence[start:end]]


def judge(state: ClassicState, entry: StepMarker | TurnMarker) -> list[Finding]:
    """One error for each combat phase a marker ends (written or passed over) whose compulsory attacks were not
    all made."""
    t = rules_of(state)
    if not t.rules.combat.must_attack:
        return []
    out: list[Finding] = []
    for slot, written in _ending(state, entry):
        phase = t.phases.get(slot.id)
        side = phasing_side(state.game.manifest, slot, state.scenario)
        if side is None or not slot.names("attack") or (phase is not None and state.at.turn in phase.skipped_turns):
            continue
        idle, unattacked = _unmade(state, side, state.log if written else PhaseLog())
        if not idle and not unattacked:
            continue
        said = [f"{', '.join(idle)} did not attack" if idle else "",
                f"the enemy units in {', '.join(unattacked)} were not attacked" if unattacked else ""]
        which = f"the {slot.id} phase ends" if written else f"the {slot.id} phase passes unwritten (nothing done)"
        out.append(finding(state, "error", t.rules.combat.source, entry, f"{which}, but every {side} unit next "
                           "to an enemy as the phase began must attack and every enemy unit next to one be attacked: "
                           + "; ".join(s for s in said if s)))
    return out


def _as_began(state: ClassicState, log: PhaseLog) -> ClassicState:
    """The position the combat phase began with: only the units of an attack move or lose steps in it, and each was
    recorded where it stood and on its face when first in one."""
    if not log.stood:
        return state
    reduced = {u for u in state.reduced if u not in log.faces} | {u for u, (r, _) in log.faces.items() if r}
    further = {**{u: n for u, n in state.further.items() if u not in log.faces},
               **{u: n for u, (_, n) in log.faces.items() if n}}
    return evolve(reindexed(state, {**state.location, **log.stood}), reduced=frozenset(reduced), further=further,
                  pending=None)


SEARCH_BUDGET = 20_000
"""Arrangements of attacks a combat phase's judgement may try where the odds forbid some (`below = "prohibited"`):
past it, an element is judged hex by hex, as the bound on a hostile log's cost."""


LARGEST_ELEMENT = 200
"""Units in one element (units and enemy hexes linked by being next to each other) that the arrangements are worked
out for: past it, hex by hex. The matching and the search recurse a level a unit, and are asked once a duty owed, so
a hostile set-up of thousands of units side by side would reach Python's recursion limit or a quadratic cost."""


class _Arrangements:
    """The attacks a combat phase could have been fought with, from the position it began with: each phasing unit
    next to an enemy attacks once at most (`attack_once`), each enemy hex is attacked once (`defend_once`), one hex
    an attack (without `multi_hex`), at odds the rules allow."""

    def __init__(self, state: ClassicState, units: dict[str, list[str]], hexes: dict[str, list[str]]) -> None:
        self.state = state
        self.units = units
        """Each phasing unit of the pool with the enemy hexes next to it."""
        self.hexes = hexes
        """Each enemy hex with the pool's units next to it."""
        combat = rules_of(state).rules.combat
        self.odds_forbid = combat.below == "prohibited" and state.game.crt is not None
        self.shared = combat.multi_hex or not combat.attack_once
        self.lawful: dict[tuple[str, frozenset[str]], bool] = {}
        self.budget = SEARCH_BUDGET

    def component(self, start: str) -> tuple[set[str], set[str]]:
        """The units and hexes linked to a unit or hex by being next to each other (the others cannot help it)."""
        units: set[str] = set()
        hexes: set[str] = set()
        todo = [start]
        while todo:
            x = todo.pop()
            if x in self.units and x not in units:
                units.add(x)
                todo += self.units[x]
            elif x in self.hexes and x not in hexes:
                hexes.add(x)
                todo += self.hexes[x]
        return units, hexes

    def can_meet(self, hexes: list[str], units: list[str], pool: list[str]) -> bool | None:
        """Whether one arrangement of the pool's attacks attacks every hex and has every unit attack (None: past the
        search's budget, or an element too large to work out)."""
        if len(pool) > LARGEST_ELEMENT:
            return None
        if self.shared:
            # One attack may take several hexes, or a unit attack twice: with every attack lawful nothing asks for
            # distinct attackers; where the odds forbid some, this search (one hex an attack) is not the rules', and
            # the element is judged hex by hex.
            return None if self.odds_forbid else True
        if not self._matched(hexes):
            # Each hex needs an attacker of its own (a bipartite matching): the odds only take arrangements away.
            return False
        if not self.odds_forbid:
            # Every attack is lawful: a unit joins any attack next to it, so only the hexes asked for attackers.
            return True
        return self._search(hexes, units, pool)

    def _matched(self, hexes: list[str]) -> bool:
        """Whether each hex can have an attacker of its own (augmenting paths: polynomial in the pool's size)."""
        owner: dict[str, str] = {}

        def augment(label: str, seen: set[str]) -> bool:
            for u in self.hexes[label]:
                if u not in seen:
                    seen.add(u)
                    if u not in owner or augment(owner[u], seen):
                        owner[u] = label
                        return True
            return False
        return all(augment(label, set()) for label in sorted(hexes))

    def _is_lawful(self, label: str, group: frozenset[str]) -> bool:
        """Whether these units may attack a hex together (the odds the rules allow)."""
        key = (label, group)
        if key not in self.lawful:
            self.lawful[key] = not below_the_table(self.state, label, sorted(group))
        return self.lawful[key]

    def _search(self, hexes: list[str], units: list[str], pool: list[str]) -> bool | None:
        """`can_meet` where the odds forbid some attacks: every way the pool's units could attack, tried depth first
        within the budget, a hex's attack judged as soon as every unit next to it is placed."""
        needed = set(hexes)
        must = set(units)
        closing: dict[int, list[str]] = {}
        for label in sorted({h for u in pool for h in self.units[u]}):
            closing.setdefault(max(i for i, u in enumerate(pool) if label in self.units[u]), []).append(label)
        groups: dict[str, set[str]] = {}
        last = {label: i for i, labels in closing.items() for label in labels}
        # The units in the order of their hexes, so that a hex's attack is judged soon after its first unit is placed;
        # what is left to place depends only on the attacks still open, so a dead end is remembered by them.
        failed: set[tuple[int, tuple[tuple[str, frozenset[str]], ...]]] = set()

        def closed(i: int) -> bool:
            """Whether the hexes whose last unit is the i-th are as the arrangement needs (attacked where owed, at odds
            the rules allow)."""
            return all((label in groups and self._is_lawful(label, frozenset(groups[label]))) if label in needed
                       else (label not in groups or self._is_lawful(label, frozenset(groups[label])))
                       for label in closing.get(i, ()))

        def walk(i: int) -> bool | None:
            self.budget -= 1
            if self.budget < 0:
                return None
            if i == len(pool):
                return needed <= groups.keys()
            key = (i, tuple(sorted((h, frozenset(g)) for h, g in groups.items() if last[h] >= i)))
            if key in failed:
                return False
            u = pool[i]
            unknown = False
            for label in [*sorted(self.units[u]), *([] if u in must else [None])]:
                if label is not None:
                    groups.setdefault(label, set()).add(u)
                found = walk(i + 1) if closed(i) else False
                if label is not None:
                    groups[label].discard(u)
                    if not groups[label]:
                        del groups[label]
                if found:
                    return True
                unknown = unknown or found is None
            if not unknown:
                failed.add(key)
            return None if unknown else False
        return walk(0)


def _unmade(state: ClassicState, side: str, log: PhaseLog) -> tuple[list[str], list[str]]:
    """The phasing units that stood next to an enemy as the phase began and did not attack, and the hexes (as the
    phase began) of enemy units next to one that were not attacked, where the rule was broken: one arrangement of the
    phase's attacks could have met every compulsory attack the players made and that one too (the rulings register).
    An attack the rules refused counts as tried (its one error given; its units and hexes are left out of the
    arrangements); a unit that retreated next to the other side, or was advanced to, is no new duty; an attack the
    rules forbid is owed by nobody, and one unit owes one attack, so a player who could meet either of two duties and
    not both broke no rule by meeting one."""
    grid = state.game.grid
    units = state.game.units_by_id
    began: dict[str, list[str]] = {}
    for u, where in state.location.items():
        # Only the units of an attack move in a combat phase: the others stand where the phase found them.
        at = log.stood.get(u, where)
        if grid.is_label(at):
            began.setdefault(at, []).append(u)
    around = {label: [grid.label_of(n) for n in grid.neighbours_on_map(grid.hex_of(label))] for label in began}
    ours: dict[str, list[str]] = {}
    theirs: dict[str, list[str]] = {}
    for label, ids in sorted(began.items()):
        phasing = units[ids[0]].side == side
        facing = [n for n in around[label] if any((units[u].side == side) != phasing for u in began.get(n, ()))]
        if facing:
            (ours if phasing else theirs)[label] = facing
    pool = {u: [n for n in ours[label] if not all(v in log.refused for v in began[n])]
            for label in ours for u in sorted(began[label]) if u not in log.refused}
    hexes = {label: sorted(u for n in theirs[label] for u in began[n] if u in pool)
             for label in theirs if not all(v in log.refused for v in began[label])}
    owing = [u for u in pool if u not in log.attacked]
    unattacked = [label for label in hexes if any(u not in log.defended and u not in log.refused for u in began[label])]
    met_units = [u for u in pool if u in log.attacked]
    met_hexes = [label for label in hexes if label not in unattacked]
    if not owing and not unattacked:
        return [], []
    arrangements = _Arrangements(_as_began(state, log) if log.stood else state, pool, hexes)
    forbidden: dict[str, bool] = {}

    def cannot_be_attacked(label: str) -> bool:
        """Past the budget, hex by hex: whether every phasing unit next to the hex could attack it only at odds the
        rules refuse."""
        if label not in forbidden:
            attackers = sorted(u for n in around[label] for u in began.get(n, ()) if units[u].side == side)
            forbidden[label] = below_the_table(arrangements.state, label, attackers)
        return forbidden[label]

    def owed(start: str, hexes_more: list[str], units_more: list[str]) -> bool | None:
        """Whether the compulsory attacks met, in the component of `start`, and one more could all have been met."""
        in_units, in_hexes = arrangements.component(start)
        return arrangements.can_meet(sorted({h for h in met_hexes if h in in_hexes and hexes[h]} | set(hexes_more)),
                                     sorted({u for u in met_units if u in in_units} | set(units_more)),
                                     [u for u in pool if u in in_units])

    idle: list[str] = []
    for u in owing:
        verdict = owed(u, [], [u])
        if verdict or (verdict is None and not all(cannot_be_attacked(n) for n in pool[u])):
            idle.append(u)
    left: list[str] = []
    for label in unattacked:
        verdict = owed(label, [label], [])
        if verdict or (verdict is None and not cannot_be_attacked(label)):
            left.append(label)
    return idle, left
