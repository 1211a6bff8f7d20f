"""Onslaught combat effects (7.2-7.5): what a result asks of each division, and what is still due.

Rulings: docs/rules-coverage.md, the rulings register (7.2-7.5)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from wargame.records import frozen


RESULTS = ("AE", "AH", "-", "DR", "HH", "DH", "DE")
"""The seven results of 7.2, as the Combat Table prints them."""

Options = tuple[Sequence[str], Sequence[str]]
"""Where a defender may retreat: two-hex destinations, and one-hex ones (7.3)."""


@frozen


class Stack:
    """One hex of attacking divisions, with the strength they attacked with (7.2 AH)."""

    hex: str
    units: tuple[str, ...]
    strength: int

    def __str__(self) -> str:
        return f"{', '.join(self.units)} at {self.hex}, strength {self.strength}"


@frozen


class Combat:
    """An attack whose effects the following entries carry out (7.2)."""

    line: int
    column: int
    hex: str
    result: str | None
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    strongest: tuple[Stack, ...] = ()
    advanced: frozenset[str] = frozenset()
    second: tuple[Stack, ...] = ()
    """14.1: the stacks a second AH depletion falls on (the most Commonwealth strength), if any."""

    @property
    def halvings(self) -> tuple[tuple[Stack, ...], ...]:
        """Each AH depletion as the equally strong stacks it may fall on (7.2; 14.1's second)."""
        return tuple(group for group in (self.strongest, self.second) if group)

    @property
    def name(self) -> str:
        """How messages name the attack."""
        return f"the attack on {self.hex} (line {self.line})"

    @property
    def verdict(self) -> str:
        """How messages name the attack with its result."""
        return f"the result {self.result} of {self.name}"


@frozen


class Effect:
    """What a result asks of one division, and what the log has done about it so far.

    `steps` it had (2 full, 1 depleted), `loss` the steps the result itself takes, `retreat`
    whether it must retreat; then the steps `lost` so far, whether it `retreated` (`short`: one
    hex because two were impossible, which depletes; `stray`: one hex though two were open, a
    breach already reported, after which a depletion is neither due nor refused) or `stood`.
    """

    unit: str
    defends: bool
    steps: int
    loss: int
    retreat: bool
    lost: int = 0
    retreated: bool = False
    short: bool = False
    stray: bool = False
    stood: bool = False


def fate(steps: int, lost: int) -> str:
    """What losing `lost` of `steps` steps makes of a division."""
    return "untouched" if lost <= 0 else "eliminated" if lost >= steps else "depleted"


def effects_of(result: str | None, attackers: Sequence[tuple[str, int]], defenders: Sequence[tuple[str, int]],
               strongest: Sequence[Stack], second: Sequence[Stack] = ()) -> tuple[Effect, ...]:
    """What a result asks of every attacker and defender, given their steps (2 full, 1 depleted);
    `second` holds the stacks of 14.1's second depletion."""
    halved = {u for stack in (*strongest, *second) for u in stack.units}
    out = []
    for unit, steps in attackers:
        if result == "AE":
            loss = steps  # 7.2 AE: every division that attacked is eliminated
        elif result in ("AH", "HH") and unit in halved:
            loss = 1  # 7.2 AH: the strongest attacking stack is depleted (one of equals, owner's choice)
        else:
            loss = 0
        out.append(Effect(unit, False, steps, loss, False))
    for unit, steps in defenders:
        if result == "DE":
            out.append(Effect(unit, True, steps, steps, False))  # 7.2 DE: eliminated
        elif result in ("DH", "HH"):
            out.append(Effect(unit, True, steps, 1, steps > 1))  # 7.2 DH: depleted, survivors retreat
        elif result == "DR":
            out.append(Effect(unit, True, steps, 0, True))  # 7.2 DR: retreat two hexes
        else:
            out.append(Effect(unit, True, steps, 0, False))
    return tuple(out)


def strongest_stacks(stacks: Sequence[Stack]) -> tuple[Stack, ...]:
    """The attacking stacks with the highest combat strength (7.2 AH: the owner picks among equals)."""
    if not stacks:
        return ()
    best = max(s.strength for s in stacks)
    return tuple(s for s in stacks if s.strength == best)


def owed(effect: Effect, options: Callable[[], Options]) -> tuple[int, str | None]:
    """Steps the result takes from a division, and the retreat it still owes ("two", "one" or
    None); `options` says where it could retreat now and is asked only when that matters."""
    e = effect
    if e.stood:
        return min(e.loss + 1, e.steps), None  # 7.5: stands and is depleted instead
    if not e.retreat or e.loss >= e.steps:
        return min(e.loss, e.steps), None
    if e.retreated:
        return min(e.loss + (1 if e.short else 0), e.steps), None  # 7.3: one hex only, and depleted
    two, one = options()
    if two:
        return e.loss, "two"
    if one:
        due = min(e.loss + 1, e.steps)  # 7.3: retreats one hex and is depleted
        return due, ("one" if due < e.steps else None)
    return min(e.loss + 1, e.steps), None  # 7.3: cannot retreat: depleted instead (or eliminated)


def allowed(effect: Effect, options: Callable[[], Options]) -> int:
    """The most steps the log may take from a division: what is owed, or one more after a
    stray one-hex retreat (whose depletion the player may have taken believing it due)."""
    due, _ = owed(effect, options)
    return min(due + 1, effect.steps) if effect.stray else due


def chosen_stack(combat: Combat, effects: Sequence[Effect], group: Sequence[Stack] | None = None) -> Stack | None:
    """The attacking stack the owner halved for an AH (the first of the strongest with a loss), or
    for one of the depletions in `group` (14.1)."""
    lost = {e.unit for e in effects if not e.defends and e.lost > 0}
    return next((s for s in (combat.strongest if group is None else group) if lost & set(s.units)), None)


def with_choice(combat: Combat, effects: Sequence[Effect]) -> tuple[Effect, ...]:
    """The effects once the owner's AH choice among equally strong stacks is known."""
    chosen = [chosen_stack(combat, effects, group) for group in combat.halvings]
    keep = {u for stack in chosen if stack is not None for u in stack.units}
    others = {u for group, pick in zip(combat.halvings, chosen) if len(group) > 1 and pick is not None
              for s in group if s != pick for u in s.units} - keep
    return tuple(replace(e, loss=0) if not e.defends and e.unit in others else e for e in effects)


def outstanding(combat: Combat, effects: Sequence[Effect], options: Callable[[], Options],
                on_map: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(section, message) for every part of a known result the log has not carried out."""
    out: list[tuple[str, str]] = []
    stood = [e.unit for e in effects if e.stood]
    if stood and len(stood) < len([e for e in effects if e.defends]):
        others = [e.unit for e in effects if e.defends and not e.stood]
        out.append(("7.5", f"in {combat.name} {', '.join(stood)} stood and {', '.join(others)} did not; every "
                           "division of the stack must suffer the same result"))
    if combat.result is None:
        return out
    ah = combat.result in ("AH", "HH") and combat.strongest
    unchosen: set[str] = set()
    for group in combat.halvings if ah else ():
        if chosen_stack(combat, effects, group) is not None:
            continue
        unchosen |= {u for s in group for u in s.units}
        section = "14.1" if group is combat.second else "7.2"
        if len(group) == 1:
            out.append((section, f"{combat.verdict} is not carried out: the strongest attacking stack "
                                 f"({group[0]}) is not depleted"))
        else:
            out.append((section, f"{combat.verdict} is not carried out: none of the equally strong attacking "
                                 f"stacks ({'; '.join(str(s) for s in group)}) is depleted; the owner "
                                 "depletes one of them"))
    known: list[Options] = []

    def remembered() -> Options:
        if not known:
            known.append(options())
        return known[0]

    for e in with_choice(combat, effects):
        if not e.defends and e.unit in unchosen:
            continue  # reported for the whole stack above
        due, retreat = owed(e, remembered)
        if retreat and e.lost < e.steps and on_map(e.unit):
            two, one = remembered()
            if retreat == "two":
                out.append(("7.2", f"{combat.verdict} is not carried out: {e.unit} must retreat two hexes "
                                   f"(it can reach {', '.join(two)})"
                                   + (f" and be {fate(e.steps, due)}" if e.lost < due else "")))
            else:
                out.append(("7.3", f"{combat.verdict} is not carried out: {e.unit} cannot retreat two hexes, "
                                   f"so it retreats one hex (to {', '.join(one)}) and is depleted"))
            continue
        if e.lost < due:
            section, why = "7.2", ""
            if e.stood:
                section = "7.5"
            elif e.retreat and e.retreated and e.short and due > e.loss:
                section, why = "7.3", ", as it retreated one hex only"
            elif e.retreat and not e.retreated and due > e.loss:
                section, why = "7.3", " instead, as it cannot retreat two hexes"
            out.append((section, f"{combat.verdict} is not carried out: {e.unit} must be "
                                 f"{fate(e.steps, due)}{why}"))
    return out
