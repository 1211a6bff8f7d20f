"""Results written before their combat (an attack and its results swapped): the results, with no combat to carry
out, are one error (the first since the phase's last attack); the attack written after them is judged on the
position they found, and what they carried out is no longer owed (one breach, one error)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from adjudicator.notation.entries import Attack, Entry
from adjudicator.systems.classic.base import steps_left, strength_lost
from adjudicator.systems.classic.results import has_no_combat
from adjudicator.systems.classic.state import ClassicState, evolve, relocate


def remembered(state: ClassicState, entry: Entry) -> Mapping[str, tuple[str, bool, int]]:
    """The phase's record of units that results with no combat touched, with the unit of this one (if it is such a
    result) as it stood before the first of them: its hex and face (reduced, steps past the reduced face)."""
    known = state.log.early
    unit = entry.acting_units()[0] if has_no_combat(state, entry) and entry.acting_units() else None
    if unit is None or unit in known or unit not in state.location:
        return known
    return {**known, unit: (state.location[unit], unit in state.reduced, state.further.get(unit, 0))}


def undone(state: ClassicState, attack: Attack) -> ClassicState | None:
    """The position an attack is judged on when results written before it (their one error given) touched its
    defenders or attackers: those units as they stood before them (None: none did)."""
    hexes = set(attack.defending_hexes())
    back = {u: was for u, was in state.log.early.items() if was[0] in hexes or u in attack.attackers}
    if not back:
        return None
    reduced = {u for u in state.reduced if u not in back} | {u for u, (_, r, _) in back.items() if r}
    further = {**{u: n for u, n in state.further.items() if u not in back},
               **{u: n for u, (_, _, n) in back.items() if n}}
    restored = relocate(state, {u: was[0] for u, was in back.items()}, frozenset(reduced), further=further)
    return evolve(restored, log=evolve(state.log, early={}))


def redone(judged: ClassicState, after: ClassicState, now: ClassicState) -> ClassicState:
    """After an attack applied on the position before the results written for it (`undone`, `judged`): its units
    where those results left them (`now`), and what those results carried out no longer owed."""
    p = after.pending
    moved = {u for u in now.log.early if u in judged.location}
    out = relocate(after, {u: now.location[u] for u in moved}, frozenset(
        {u for u in after.reduced if u not in moved} | {u for u in moved if u in now.reduced}),
        further={**{u: n for u, n in after.further.items() if u not in moved},
                 **{u: now.further[u] for u in moved if u in now.further}})
    out = evolve(out, log=evolve(out.log, early={}))
    if p is None:
        return out
    steps = dict(p.defender_steps)
    retreats = dict(p.retreats)
    attacker_steps = p.attacker_steps
    attacker_strength = p.attacker_strength
    for u in sorted(moved):
        lost = max(steps_left(judged, u) - steps_left(now, u), 0)
        if u in p.defenders:
            steps[u] = max(steps.get(u, 0) - lost, 0)
            if now.location[u] != judged.location[u]:
                retreats[u] = 0
        elif u in p.attackers and lost:
            attacker_steps = max(attacker_steps - lost, 0)
            attacker_strength = max(attacker_strength - strength_lost(judged, u, lost, "attack"), Fraction(0))
    return evolve(out, pending=evolve(p, defender_steps=steps, retreats=retreats, attacker_steps=attacker_steps,
                                      attacker_strength=attacker_strength))
