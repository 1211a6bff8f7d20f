"""A path for a move VASSAL recorded only by its end points, chosen by the rule system's own movement model.

VASSAL logs a drag as where the counter was picked up and where it was dropped. The reader hands the rule
system a whole path so the move can be checked at all. It follows the game as it translates (every entry
written so far applied by the rule system, as the engine's replay applies it) and asks the system's
movement model, in the position reached, for the unit's move rule (what a step costs, where it must stop)
or its retreats: the very model the checker then judges the path by (house style 13), never a copy of it.
The translated log says how each path was chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, Literal

from adjudicator.contract import MoveRule, RuleSystem, StateT
from adjudicator.engine import Resolver, follow
from adjudicator.notation.entries import Entry, Header
from adjudicator.vassal.written import Written
from wargame.errors import WargameError
from wargame.game import Game
from wargame.hexes import Hex
from wargame.paths import cheapest_path
from wargame.records import frozen

Motion = Literal["move", "retreat", "advance"]
"""What a drag is: a move (its unit stops where the rules stop it), a retreat after combat (one of the
retreats the result owes), an advance after combat (one of the advances the result allows)."""


@frozen
class Lost:
    """Where the reader lost the game: the line (VASSAL step) of the entry the rule system could not apply, and why."""

    line: int
    reason: str


@frozen
class Followed(Generic[StateT]):
    """The rule system's state after the entries translated so far; with `lost`, the state before the first
    entry it could not apply (the last the reader could follow)."""

    state: StateT
    lost: Lost | None = None


class Follower(Generic[StateT]):
    """The game followed through the rule system as the translation goes: a state after every entry written,
    so that an entry rewritten afterwards (a die filled in, a drag replaced by a typed move, the first turn's
    markers put before it) is applied again from there, and only from there."""

    def __init__(self, game: Game, system: RuleSystem[StateT], file: str,
                 start: Followed[StateT] | Lost | None = None) -> None:
        """`start`: where a chain's log before this one ended (None: the set-up the headers name)."""
        self.game, self.system, self.start = game, system, start
        self.resolver = Resolver(game, file)
        self.headers: tuple[Header, ...] | None = None
        self.applied: list[Entry] = []
        self.states: list[StateT] = []
        """The state before the first entry, then after each entry applied."""
        self.failed: Entry | None = None
        self.lost: Lost | None = None
        self.seen: Written | None = None
        """The entries last read, when they keep count of their unchanged beginning (the translation's own)."""
        self.scanned = 0
        """How many of the entries last read were searched for headers ..."""
        self.found: list[tuple[int, Header]] = []
        """... and the headers found among them, by index."""

    def _unchanged(self, entries: Sequence[Entry]) -> tuple[int, int]:
        """How many entries of `applied`, and of those searched for headers, `entries` still begins with."""
        if isinstance(entries, Written) and entries is self.seen:
            return min(len(self.applied), entries.unchanged), min(self.scanned, entries.unchanged)
        same = 0
        for old, new in zip(self.applied, entries):
            if old is not new:
                break
            same += 1
        return same, 0

    def _headers(self, entries: Sequence[Entry], scanned: int) -> tuple[Header, ...]:
        """The headers among `entries`, of which the first `scanned` were searched already."""
        if scanned < self.scanned:
            self.found = [(i, h) for i, h in self.found if i < scanned]
        self.found += [(i, h) for i in range(scanned, len(entries)) if (h := entries[i].as_header()) is not None]
        self.scanned = len(entries)
        return tuple(h for _, h in self.found)

    def _restart(self, headers: tuple[Header, ...]) -> bool:
        """Begin again from the start when it changes (the headers decide the set-up); False (and `lost`) if
        it cannot be had."""
        if isinstance(self.start, Lost):
            self.lost = self.start
            return False
        if self.start is not None:
            if not self.states:
                self.states, self.lost = [self.start.state], self.start.lost
            return True
        if headers == self.headers and (self.states or self.lost is not None):
            return bool(self.states)  # the same set-up, had already or known not to be had
        self.headers, self.applied, self.failed, self.lost = headers, [], None, None
        try:
            self.states = [self.system.initial_state(self.game, list(headers))]
        except WargameError as e:
            self.states, self.lost = [], Lost(0, e.message)
            return False
        return True

    def _lost_before(self) -> Lost | None:
        """Where the log before this one was lost, if it was (the position carried over is the last it followed)."""
        return self.start.lost if isinstance(self.start, Followed) else None

    def follow(self, entries: Sequence[Entry], upto: int | None = None) -> Followed[StateT] | Lost:
        """The state after `entries` (the translation so far), or after its first `upto` entries only (the position
        before entry `upto`, the states after it kept when unchanged: never a copy of the prefix); Lost when not even
        the set-up can be had. The set-up is always the one the headers of all of `entries` name."""
        same, scanned = self._unchanged(entries)
        if isinstance(entries, Written):
            self.seen, entries.unchanged = entries, len(entries)
        if not self._restart(self._headers(entries, scanned)):
            assert self.lost is not None
            return self.lost
        same = min(same, len(self.applied))
        if same < len(self.applied):
            del self.applied[same:]
            del self.states[same + 1:]
            self.failed = None
            self.lost = self._lost_before()
        end = len(entries) if upto is None else min(upto, len(entries))
        if end < len(self.applied):
            return Followed(self.states[end], self._lost_before())  # followed already, and unchanged
        if self.failed is not None:
            if end > len(self.applied) and entries[len(self.applied)] is self.failed:
                return Followed(self.states[-1], self.lost)
            if end == len(self.applied):
                return Followed(self.states[-1], self._lost_before())  # the entry that failed comes after
            self.failed, self.lost = None, self._lost_before()
        if self.lost is not None:
            return Followed(self.states[-1], self.lost)
        state = self.states[-1]
        for index in range(len(self.applied), end):
            entry = entries[index]
            try:
                state = follow(self.system, state, entry, self.resolver)
            except WargameError as e:
                self.failed, self.lost = entry, Lost(entry.line, e.message)
                break
            self.applied.append(entry)
            self.states.append(state)
        return Followed(state, self.lost)

    def settle(self, entries: Sequence[Entry]) -> Followed[StateT] | Lost:
        """The state after the whole translation, every other state let go (what a chain's next log needs)."""
        done = self.follow(entries)
        self.applied, self.states, self.failed, self.headers = [], [], None, None
        self.seen, self.scanned, self.found = None, 0, []
        return done


@frozen
class Chosen:
    """The path the reader chose for a drag (hex labels; None when none joins its ends), which of the paths
    allowed it is (`pick`) and by what rules (`rule`), for the translated log's comment."""

    path: tuple[str, ...] | None
    pick: str
    rule: str


def choose_path(system: RuleSystem[StateT], followed: Followed[StateT] | Lost, unit: str, start: Hex, end: Hex,
                motion: Motion) -> Chosen:
    """The path of a drag from `start` to `end` as the rule system's movement model allows it in the position
    the translation has reached (without limit of movement points: the checker judges the allowance)."""
    model = system.movement
    name = system.name
    if model is None:
        return Chosen(None, "", f"the {name} rules (the rule system has no movement model to ask)")
    if isinstance(followed, Lost):
        return Chosen(None, "", f"the {name} rules (the reader could not set up the game: {followed.reason})")
    where = "in the position reached" if followed.lost is None else (
        f"in the position before step {followed.lost.line}, the last the reader could follow "
        f"({followed.lost.reason})")
    state = followed.state
    game = system.game_of(state)
    label_of = game.grid.label_of
    costs = f"the {name} movement costs for {unit} {where}"
    try:
        if motion == "retreat":
            first, last = label_of(start), label_of(end)
            for option in model.retreat_options(state):
                if option.unit != unit:
                    continue
                for path in (*option.paths, *option.shorter):
                    if path and path[0] == first and path[-1] == last:
                        return Chosen(tuple(path), "a retreat allowed", f"the {name} retreat rules for {unit} {where}")
            rule = model.move_rule(state, unit, "move")
            return _walked(label_of, cheapest_path(start, end, rule.cost) or fewest_breaches(game, rule, start, end),
                           "the cheapest (no retreat the rules allow ends there)", costs)
        if motion == "advance":
            first, last = label_of(start), label_of(end)
            for advance in model.advance_options(state):
                if advance.unit != unit:
                    continue
                for path in advance.paths:
                    if path[0] == first and path[-1] == last:
                        return Chosen(tuple(path), "an advance allowed", f"the {name} advance rules for {unit} {where}")
        rule = model.move_rule(state, unit, "move")
        if motion == "advance":
            return _walked(label_of, cheapest_path(start, end, rule.cost) or fewest_breaches(game, rule, start, end),
                           "the cheapest (no advance the rules allow ends there), zones of control not stopping "
                           "an advance", costs)
        found = cheapest_path(start, end, rule.cost, stops=rule.stops)
        if found is None:
            # The counter crossed the hexes between, whichever: the path that breaks the fewest movement rules
            # lets the rule system cite the breach (an enemy hex entered, a zone of control left), not a skip.
            return _walked(label_of, fewest_breaches(game, rule, start, end),
                           "none the rules allow, so the one breaking the fewest of them (each step they refuse and "
                           "each zone of control left counted), then the cheapest", f"the {name} movement rules for "
                           f"{unit} {where}")
        return _walked(label_of, found, "the cheapest", f"the {name} movement rules for {unit} {where}")
    except WargameError as e:
        return Chosen(None, "", f"the {name} movement rules for {unit} {where} ({e.message})")


BREACH_COST = 10_000.0
"""What a step the movement rules refuse weighs in `fewest_breaches`: more than any path's movement points."""


def fewest_breaches(game: Game, rule: MoveRule, start: Hex, end: Hex) -> tuple[float, list[Hex]] | None:
    """The path over the map from start to end that breaks the fewest of a move's rules (a step they refuse, a
    stop left), the cheapest of those; None only when the map does not join them."""
    grid = game.grid

    def cost(a: Hex, b: Hex) -> float | None:
        if b not in grid:
            return None
        mp_cost = rule.cost(a, b)
        left_stop = a != start and rule.stops(a)
        return (BREACH_COST if mp_cost is None else mp_cost) + (BREACH_COST if left_stop else 0.0)

    return cheapest_path(start, end, cost)


def _walked(label_of: Callable[[Hex], str], found: tuple[float, list[Hex]] | None, pick: str, rule: str) -> Chosen:
    """The labels of a path found (None when none), with which it is and by what rules."""
    return Chosen(None if found is None else tuple(label_of(h) for h in found[1]), pick, rule)
