"""The optional rules (14.1-14.4) in force when the log's headers name them."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack
from adjudicator.systems.onslaught import results
from adjudicator.systems.onslaught.results import Stack
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import ActionState, OnslaughtState, combat_strength, unit_of


AMERICAN_FRENCH = frozenset({"us", "french"})
COMMONWEALTH = frozenset({"british", "canadian"})
"""14.1: the two groups of Allied nations that do not cooperate (the Polish division goes with either)."""
INFANTRY_TYPES = frozenset({"infantry", "paratroop", "volksgrenadier"})
"""14.3: the divisions that count as infantry (paratroops fight as infantry on the map, 9.0)."""


def emergency_turn(state: OnslaughtState) -> bool:
    """14.4: the optional rule is in force and this is its turn (20)."""
    return "emergency_supplies" in state.optional and \
        state.at.turn == int(state.game.parameter["emergency_supply_turn"])


def double_depletion(state: OnslaughtState,
                      by_hex: dict[str, list[str]]) -> tuple[tuple[Stack, ...], tuple[Stack, ...]]:
    """14.1: an AH or HH on American or French with Commonwealth attackers depletes the stack with
    the most American and French strength, then another with the most Commonwealth strength.

    Ruling: when several stacks tie for the first depletion, the second falls among the stacks
    that are none of them (the owner's first choice cannot be known before it is logged)."""
    def group_stacks(nations: frozenset[str], hexes: Iterable[str]) -> list[Stack]:
        out = []
        for h in sorted(hexes):
            strength = sum(combat_strength(state, u) for u in by_hex[h] if unit_of(state, u).nationality in nations)
            if strength > 0:
                out.append(Stack(h, tuple(by_hex[h]), strength))
        return out
    first = results.strongest_stacks(group_stacks(AMERICAN_FRENCH, by_hex))
    taken = {s.hex for s in first}
    second = results.strongest_stacks(group_stacks(COMMONWEALTH, (h for h in by_hex if h not in taken)))
    return first, second


def mixes_nations(state: OnslaughtState, units: Iterable[str], armor_only: bool = False) -> bool:
    """14.1: whether divisions include both American or French and Commonwealth ones."""
    nations = {unit_of(state, u).nationality for u in units
               if not armor_only or unit_of(state, u).type == "armor"}
    return bool(nations & AMERICAN_FRENCH) and bool(nations & COMMONWEALTH)


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
