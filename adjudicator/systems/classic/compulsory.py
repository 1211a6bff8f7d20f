"""Compulsory attacks (rules.toml's `[combat] must_attack`): as a combat phase ends, every phasing unit that stood
next to an enemy when the phase began has attacked, and every enemy unit that stood next to one has been attacked;
a combat phase a marker passes over unwritten (nothing done in it) is judged as it stood."""

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


def _unmade(state: ClassicState, side: str, log: PhaseLog) -> tuple[list[str], list[str]]:
    """The phasing units that stood next to an enemy as the phase began and did not attack, and the hexes (as the
    phase began) of enemy units next to one that were not attacked. An attack the rules refused counts as tried
    (its one error given); a unit that retreated next to the other side, or was advanced to, is no new duty; and an
    attack the rules forbid is owed by nobody: an enemy hex that even every phasing unit next to it could attack only
    at odds below the table (`below = "prohibited"`) need not be attacked, and a unit next to no other enemy hex need
    not attack (the rulings register)."""
    grid = state.game.grid
    units = state.game.units_by_id
    began: dict[str, list[str]] = {}
    for u, where in state.location.items():
        # Only the units of an attack move in a combat phase: the others stand where the phase found them.
        at = log.stood.get(u, where)
        if grid.is_label(at):
            began.setdefault(at, []).append(u)
    around = {label: [grid.label_of(n) for n in grid.neighbours_on_map(grid.hex_of(label))] for label in began}
    position: list[ClassicState] = []
    forbidden: dict[str, bool] = {}

    def cannot_be_attacked(label: str) -> bool:
        """Whether every phasing unit next to an enemy hex as the phase began could attack it only at odds the rules
        refuse."""
        if label not in forbidden:
            if not position:
                position.append(_as_began(state, log))
            attackers = sorted(u for n in around[label] for u in began.get(n, ()) if units[u].side == side)
            forbidden[label] = below_the_table(position[0], label, attackers)
        return forbidden[label]

    idle: list[str] = []
    unattacked: list[str] = []
    for label, ids in sorted(began.items()):
        ours = units[ids[0]].side == side
        facing = [n for n in around[label] if any((units[u].side == side) != ours for u in began.get(n, ()))]
        if not facing:
            continue
        if ours:
            owing = sorted(u for u in ids if u not in log.attacked and u not in log.refused)
            if owing and not all(cannot_be_attacked(n) for n in facing):
                idle += owing
        elif any(u not in log.defended and u not in log.refused for u in ids) and not cannot_be_attacked(label):
            unattacked.append(label)
    return idle, unattacked
