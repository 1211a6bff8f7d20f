"""The optional rules (14.1-14.4) as layers over the base rules, switched on by the log's `[Optional ...]` headers
(house style 12, 18): each layer replaces named hooks of the base rules here and named handlers of the registry
(rules.py's `LAYERS`); the base rules call the hooks in force (`in_force`) and never ask whether an option is on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cache

from adjudicator.findings import Finding
from adjudicator.notation.entries import Activate, Attack
from adjudicator.systems.onslaught import results
from adjudicator.systems.onslaught.results import Halving, Stack
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import ActionState, OnslaughtState, combat_strength, unit_of
from wargame.records import frozen


AMERICAN_FRENCH = frozenset({"us", "french"})
COMMONWEALTH = frozenset({"british", "canadian"})
"""14.1: the two groups of Allied nations that do not cooperate (the Polish division goes with either)."""
INFANTRY_TYPES = frozenset({"infantry", "paratroop", "volksgrenadier"})
"""14.3: the divisions that count as infantry (paratroops fight as infantry on the map, 9.0)."""


def emergency_turn(state: OnslaughtState) -> bool:
    """14.4 (its layer's hook): this is the turn of emergency supplies (20)."""
    return state.at.turn == int(state.game.parameter["emergency_supply_turn"])


STRONGEST = "it depletes the strongest attacking stack"
"""7.2 AH, in words (among equally strong stacks the owner picks one)."""
DOUBLE = ("it depletes the attacking stack with the most American and French strength, then a different one with "
          "the most Commonwealth strength")
"""14.1's double depletion, in words."""


def double_depletion(state: OnslaughtState, by_hex: dict[str, list[str]]) -> tuple[tuple[Stack, ...], ...]:
    """14.1: an AH or HH on American or French with Commonwealth attackers depletes the stack with the most American
    and French strength, then a different one with the most Commonwealth strength: each way of doing so.

    Ruling: when several stacks tie for the first depletion, the owner picks one of them, and the second falls on
    the stack with the most Commonwealth strength among all the others (the tied stacks not picked included); the
    log's depletions are matched against every such pair, so the choice is read from them in any order. With no
    other stack holding Commonwealth strength, the first depletion is the only one."""
    def group_stacks(nations: frozenset[str], hexes: Iterable[str]) -> list[Stack]:
        out = []
        for h in sorted(hexes):
            strength = sum(combat_strength(state, u) for u in by_hex[h] if unit_of(state, u).nationality in nations)
            if strength > 0:
                out.append(Stack(h, tuple(by_hex[h]), strength))
        return out
    ways: dict[frozenset[str], tuple[Stack, ...]] = {}
    for first in results.strongest_stacks(group_stacks(AMERICAN_FRENCH, by_hex)):
        seconds = results.strongest_stacks(group_stacks(COMMONWEALTH, (h for h in by_hex if h != first.hex)))
        pairs: list[tuple[Stack, ...]] = [(first, second) for second in seconds]
        for way in pairs or [(first,)]:
            # Two stacks tied for the first depletion may each be the other's second: one way, not two.
            ways.setdefault(frozenset(s.hex for s in way), way)
    return tuple(ways.values())


def mixes_nations(state: OnslaughtState, units: Iterable[str], armor_only: bool = False) -> bool:
    """14.1: whether divisions include both American or French and Commonwealth ones."""
    nations = {unit_of(state, u).nationality for u in units
               if not armor_only or unit_of(state, u).type == "armor"}
    return bool(nations & AMERICAN_FRENCH) and bool(nations & COMMONWEALTH)


def mixed_stack_cost(state: OnslaughtState, cost: int, units: Iterable[str]) -> int:
    """14.1: a stack mixing American or French divisions with Commonwealth ones costs two activations."""
    return 2 * cost if mixes_nations(state, units) else cost


def check_mixed_armor(state: OnslaughtState, entry: Activate, armor: list[str]) -> list[Finding]:
    """14.1: Commonwealth and American or French armor are not activated together in a Breakthrough action."""
    if not mixes_nations(state, armor, armor_only=True):
        return []
    return [finding("error", "14.1", entry, "Commonwealth and American or French armor do not cooperate "
                                            "in a Breakthrough action: activate them one after the other")]


def mixed_depletion(state: OnslaughtState, attackers: list[str], by_hex: dict[str, list[str]],
                    strongest: tuple[Stack, ...]) -> Halving:
    """14.1: an AH or HH on mixed attackers depletes two stacks (`double_depletion`), else the strongest (7.2)."""
    if mixes_nations(state, attackers):
        return Halving("14.1", DOUBLE, double_depletion(state, by_hex))
    return _one_depletion(state, attackers, by_hex, strongest)


def joins_breakthrough(state: OnslaughtState, unit_type: str) -> bool:
    """14.3: infantry joins a Breakthrough action with the armor of its stack."""
    return unit_type in INFANTRY_TYPES


def check_infantry_breakthrough(state: OnslaughtState, entry: Attack,
                                 action: ActionState) -> list[Finding]:
    """14.3: infantry attacks in a Breakthrough action beside its stack's armor, only when the
    armor attacks before moving."""
    infantry = [u for u in entry.attackers if unit_of(state, u).type != "armor" and u in action.activated]
    if not infantry:
        return []
    out = []
    if action.sequence == "move":
        out.append(finding("error", "14.3", entry, f"{', '.join(infantry)} join(s) the attack only when the "
                                                   "armor attacks before moving; this stack moves first"))
    if not any(unit_of(state, u).type == "armor" and u in action.latest for u in entry.attackers):
        out.append(finding("error", "14.3", entry, f"{', '.join(infantry)} attack(s) only together with the "
                                                   "armor of its stack"))
    return out


# -- the base rules' hooks, and the layers that replace them -------------------------------------------------------
def _same_cost(state: OnslaughtState, cost: int, units: Iterable[str]) -> int:
    return cost


def _no_findings(state: OnslaughtState, entry: Activate, armor: list[str]) -> list[Finding]:
    return []


def _one_depletion(state: OnslaughtState, attackers: list[str], by_hex: dict[str, list[str]],
                   strongest: tuple[Stack, ...]) -> Halving:
    return Halving("7.2", STRONGEST, tuple((stack,) for stack in strongest))


def _armor_only(state: OnslaughtState, unit_type: str) -> bool:
    return False


def _no_attack_findings(state: OnslaughtState, entry: Attack, action: ActionState) -> list[Finding]:
    return []


def _no_emergency(state: OnslaughtState) -> bool:
    return False


@frozen
class Hooks:
    """What the optional rules change inside the base rules, by name: the base rules' own without a layer."""

    stack_cost: Callable[[OnslaughtState, int, Iterable[str]], int] = _same_cost
    """5.2: a stack's activation cost (14.1 doubles a mixed stack's)."""
    breakthrough_armor: Callable[[OnslaughtState, Activate, list[str]], list[Finding]] = _no_findings
    """5.5: errors for the armor activated in a Breakthrough action (14.1: mixed nations)."""
    depletion: Callable[[OnslaughtState, list[str], dict[str, list[str]], tuple[Stack, ...]],
                        Halving] = _one_depletion
    """7.2: the stacks an AH or HH depletes, given the strongest (14.1: two on mixed attackers)."""
    joins_breakthrough: Callable[[OnslaughtState, str], bool] = _armor_only
    """5.5: whether a division of this type other than armor joins a Breakthrough action (14.3: infantry)."""
    breakthrough_attack: Callable[[OnslaughtState, Attack, ActionState], list[Finding]] = _no_attack_findings
    """5.5: errors for an attack in a Breakthrough action (14.3: infantry attacks beside its armor)."""
    emergency_turn: Callable[[OnslaughtState], bool] = _no_emergency
    """5.0: whether this turn's winner of a roll acts on emergency points (14.4: turn 20)."""


BASE = Hooks()
"""The base rules' hooks (no optional rule in force)."""

def _cooperation(hooks: Hooks) -> Hooks:
    """14.1's layer."""
    return replace(hooks, stack_cost=mixed_stack_cost, breakthrough_armor=check_mixed_armor, depletion=mixed_depletion)


def _infantry(hooks: Hooks) -> Hooks:
    """14.3's layer."""
    return replace(hooks, joins_breakthrough=joins_breakthrough, breakthrough_attack=check_infantry_breakthrough)


def _emergency(hooks: Hooks) -> Hooks:
    """14.4's layer."""
    return replace(hooks, emergency_turn=emergency_turn)


HOOKS: Mapping[str, Callable[[Hooks], Hooks]] = {
    "allied_cooperation": _cooperation,
    "infantry_breakthrough": _infantry,
    "emergency_supplies": _emergency,
}
"""Each optional rule's layer of hooks, by its id in game.toml, in the order they are put on (14.2 changes no hook:
its layer is the registry's alone, rules.py)."""


@cache
def hooks_for(optional: frozenset[str]) -> Hooks:
    """The hooks with the layers of these optional rules put on the base's (once per set of headers)."""
    hooks = BASE
    for rule, layer in HOOKS.items():
        if rule in optional:
            hooks = layer(hooks)
    return hooks


def in_force(state: OnslaughtState) -> Hooks:
    """The hooks of the optional rules the log's headers put in force."""
    return hooks_for(state.optional)
