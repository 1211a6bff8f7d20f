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
class Halving:
    """What an AH or HH does to the attacking stacks: the clause that says so (7.2; 14.1's double depletion), that
    clause in words, and each way of carrying it out (the stacks depleted together), the owner choosing one."""

    rule: str
    what: str
    ways: tuple[tuple[Stack, ...], ...]

    @property
    def stacks(self) -> tuple[Stack, ...]:
        """Every stack some way depletes, each hex once."""
        first: dict[str, Stack] = {}
        for way in self.ways:
            for stack in way:
                first.setdefault(stack.hex, stack)
        return tuple(first.values())


@frozen


class Combat:
    """An attack whose effects the following entries carry out (7.2)."""

    line: int
    column: int
    hex: str
    result: str | None
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    halving: Halving | None = None
    """7.2, 14.1: the attacking stacks an AH or HH depletes, None for another result."""
    advanced: frozenset[str] = frozenset()
    stacks: tuple[Stack, ...] = ()
    """Every attacking stack (ruling 7.2: the divisions of one hex that took part), by hex."""

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
               halving: Halving | None) -> tuple[Effect, ...]:
    """What a result asks of every attacker and defender, given their steps (2 full, 1 depleted): an attacker of a
    stack some way of carrying out the AH depletes loses a step until the owner's choice is known (`with_choice`)."""
    halved = {u for stack in (halving.stacks if halving is not None else ()) for u in stack.units}
    out = []
    for unit, steps in attackers:
        if result == "AE":
            loss = steps  # 7.2 AE: every division that attacked is eliminated
        elif result in ("AH", "HH") and unit in halved:
            loss = 1  # 7.2 AH: the strongest attacking stack is depleted (14.1: two stacks; owner's choice)
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


def retreat_fates(effects: Sequence[Effect], options: Options) -> str:
    """What becomes of each defender a result makes retreat when it cannot go two hexes: what `owed` asks of it (7.3),
    in words for the combat audit, so the audit says what the checker applies; empty when two hexes are open."""
    fates = []
    for e in effects:
        if not e.defends or not e.retreat or options[0]:
            continue
        due, retreat = owed(e, lambda: options)
        if retreat == "one":
            fates.append(f"{e.unit} retreats one hex and is {fate(e.steps, due)}")
        else:
            fates.append(f"{e.unit} is {fate(e.steps, due)}" + (" instead" if due > e.loss else ""))
    return "; ".join(fates)


def allowed(effect: Effect, options: Callable[[], Options]) -> int:
    """The most steps the log may take from a division: what is owed, or one more after a
    stray one-hex retreat (whose depletion the player may have taken believing it due)."""
    due, _ = owed(effect, options)
    return min(due + 1, effect.steps) if effect.stray else due


def halved_hexes(combat: Combat, effects: Sequence[Effect]) -> frozenset[str]:
    """The hexes of the attacking stacks the log has depleted so far for an AH (7.2, 14.1)."""
    if combat.halving is None:
        return frozenset()
    lost = {e.unit for e in effects if not e.defends and e.lost > 0}
    return frozenset(s.hex for s in combat.halving.stacks if lost & set(s.units))


def open_ways(halving: Halving, done: frozenset[str]) -> tuple[tuple[Stack, ...], ...]:
    """The ways of carrying out an AH that the stacks depleted so far (`done`, their hexes) are part of."""
    return tuple(way for way in halving.ways if done <= {s.hex for s in way})


def named(stacks: Sequence[Stack]) -> str:
    """Stacks for a message: their hexes and divisions."""
    return " and ".join(f"{s.hex} ({', '.join(s.units)})" for s in stacks)


def choices(ways: Sequence[Sequence[Stack]]) -> str:
    """Ways of carrying out an AH for a message, one or another."""
    return " or ".join(("both " if len(way) > 1 else "") + named(way) for way in ways)


def halving_problem(combat: Combat, effects: Sequence[Effect], unit: str) -> str | None:
    """Why depleting `unit` for an AH is no way of carrying it out, given the stacks depleted before it, or None
    (7.2, 14.1). A stack is depleted as a whole, so its first division's entry is the one judged (one breach, one
    error), and after a choice that fits no way (reported then) the rest is not judged again."""
    halving = combat.halving
    mine = [s for s in halving.stacks if unit in s.units] if halving is not None else []
    if halving is None or not mine:
        return None  # in no way at all: what a result allows (`allowed`) reports it
    done = halved_hexes(combat, effects)
    ways = open_ways(halving, done)
    if mine[0].hex in done or not ways or open_ways(halving, done | {mine[0].hex}):
        return None
    depleted = named([s for s in halving.stacks if s.hex in done])
    left = [tuple(s for s in way if s.hex not in done) for way in ways]
    if not all(left):
        return f"{halving.what}; with {depleted} depleted it is carried out, so {unit} at {mine[0].hex} is not " \
               "depleted too"
    return f"{halving.what}; with {depleted} depleted, {choices(left)} is depleted next, not {unit} at {mine[0].hex}"


def stack_of(combat: Combat, unit: str) -> Stack | None:
    """The attacking stack a division attacked in (ruling 7.2), if it attacked."""
    return next((s for s in combat.stacks if unit in s.units), None)


def wrongly_halved(combat: Combat, effects: Sequence[Effect]) -> Stack | None:
    """The first attacking stack the log has depleted for an AH that no way of carrying it out depletes (7.2, 14.1):
    a wrong choice of stack, reported once, on the entry of its first division."""
    if combat.halving is None:
        return None
    lost = {e.unit for e in effects if not e.defends and e.lost > 0}
    chosen = {s.hex for s in combat.halving.stacks}
    return next((s for s in combat.stacks if s.hex not in chosen and lost & set(s.units)), None)


def with_choice(combat: Combat, effects: Sequence[Effect]) -> tuple[Effect, ...]:
    """The effects once the owner's AH choice is known as far as the log has gone: an attacker of a stack no way
    still open depletes (with those already depleted) takes no loss."""
    halving = combat.halving
    if halving is None:
        return tuple(effects)
    done = halved_hexes(combat, effects)
    keep = {u for s in halving.stacks if s.hex in done for u in s.units} | \
        {u for way in open_ways(halving, done) for s in way for u in s.units}
    return tuple(replace(e, loss=0) if not e.defends and e.loss and e.unit not in keep else e for e in effects)


def outstanding(combat: Combat, effects: Sequence[Effect], options: Callable[[], Options],
                on_map: Callable[[str], bool]) -> list[tuple[str, str, bool]]:
    """(section, message, follows) for every part of a known result the log has not carried out; `follows` when it is
    the other half of a breach already reported (an AH's stacks left alone after a wrong stack was depleted)."""
    out: list[tuple[str, str, bool]] = []
    stood = [e.unit for e in effects if e.stood]
    if stood and len(stood) < len([e for e in effects if e.defends]):
        others = [e.unit for e in effects if e.defends and not e.stood]
        out.append(("7.5", f"in {combat.name} {', '.join(stood)} stood and {', '.join(others)} did not; every "
                           "division of the stack must suffer the same result", False))
    if combat.result is None:
        return out
    unchosen: set[str] = set()
    halving = combat.halving
    done = halved_hexes(combat, effects)
    ways = open_ways(halving, done) if halving is not None else ()
    if halving is not None and ways and not any(done == {s.hex for s in way} for way in ways):
        # The AH as a whole (7.2; 14.1's two stacks): one finding, whichever stacks are still to be depleted.
        left = [tuple(s for s in way if s.hex not in done) for way in ways]
        unchosen = {u for way in left for s in way for u in s.units}
        if len(left) == 1:
            still = f"{named(left[0])} {'is' if len(left[0]) == 1 else 'are'} not depleted"
        else:
            still = f"the owner depletes {choices(left)}"
        wrong = wrongly_halved(combat, effects)
        # One breach, one error: the stack depleted in its place is the error (reported at its first division).
        instead = f" ({wrong.hex} was depleted in its place: one error)" if wrong is not None else ""
        out.append((halving.rule, f"{combat.verdict} is not carried out: {halving.what}, and {still}{instead}",
                    wrong is not None))
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
                                   + (f" and be {fate(e.steps, due)}" if e.lost < due else ""), False))
            else:
                out.append(("7.3", f"{combat.verdict} is not carried out: {e.unit} cannot retreat two hexes, "
                                   f"so it retreats one hex (to {', '.join(one)}) and is depleted", False))
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
                                 f"{fate(e.steps, due)}{why}", False))
    return out
