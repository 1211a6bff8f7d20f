"""A Fire & Movement combat or bombardment computed for a dispute (`adjudicate combat`): the arithmetic
with the table's printed headings (8.2.2), every face of the die (8.2.4), the retreats a result opens
(8.3, 8.4) and the advance after combat (8.5). Functions given the system (its `account` asks them)."""

from __future__ import annotations

import re
from dataclasses import replace

from adjudicator.contract import CombatAccount
from adjudicator.notation.entries import Attack, Bombard
from adjudicator.systems.fire_and_movement.base import SeriesRules
from adjudicator.systems.fire_and_movement.combat import FmAudit
from adjudicator.systems.fire_and_movement.results import ATTACKER_RETREATS, DEFENDER_RETREATS
from adjudicator.systems.fire_and_movement.state import S
from wargame.game import Game


def printed_heading(game: Game, line_id: str, column: str) -> str:
    """A column as the table prints it: its heading over the die rolls, then the differentials its cell on the
    terrain line lists (`c10 (+6,+7)`), so the audit reads as the chart does."""
    assert game.crt is not None
    index = list(game.crt.columns).index(column)
    line = next((line for line in game.crt.line if line.id == line_id), None)
    cell = line.cells[index] if line is not None and index < len(line.cells) else ""
    return f"{column} ({cell})" if cell else column


def _computed(system: SeriesRules[S], state: S, entry: Attack | Bombard) -> tuple[FmAudit, str | None]:
    """The audit and what its result does (a bombardment's per 8.1.3)."""
    if isinstance(entry, Bombard):
        found = system.bombard_audit(state, entry)
        return found, system.bombard_effect(state, entry, found.result)
    found = system.combat_audit(state, entry)
    return found, found.result


def _retreats(system: SeriesRules[S], state: S, units: list[str], hexes: int, result: str) -> list[str]:
    """Where each unit a result makes retreat may go (8.3), or that it may stand and be reduced (8.4)."""
    out = []
    label = state.game.grid.label_of
    for unit in units:
        ends = sorted({label(path[-1]) for path in system.retreat_paths(state, unit, hexes) if path})
        where = ", ".join(ends) if ends else "nowhere in full (a shorter retreat, then reduced, 8.3)"
        out.append(f"8.3 {result}: {unit} retreats {hexes} hex{'es' if hexes > 1 else ''} to {where}; or stands in "
                   "stiff resistance and is reduced (8.4)")
    return out


def fm_account(system: SeriesRules[S], state: S, entry: Attack | Bombard) -> CombatAccount:
    """The account of an attack or a bombardment in the state before it."""
    game = state.game
    found, result = _computed(system, state, entry)
    heading = printed_heading(game, found.line, found.column)
    named = re.compile(rf"\bcolumn {re.escape(found.column)}\b")
    arithmetic = [named.sub(f"column {heading}", line) for line in found.lines]
    if result != found.result:
        arithmetic.append(f"8.1.3: in a bombardment {found.result} is "
                          + ("no effect" if result == "-" else f"{result}"))
    by_die = tuple((d, str(_computed(system, state, replace(entry, die=d))[1])) for d in range(1, 7))
    side = entry.side or (system._unit(state, entry.attackers[0]).side if isinstance(entry, Attack) else "")
    defenders = system.defending(state, system._defenders(state, entry, side))
    attackers = list(dict.fromkeys(entry.attackers)) if isinstance(entry, Attack) else []
    # With a die, the retreats of its result; without, of every result the die can give.
    results = [result] if result is not None else sorted({r for _, r in by_die})
    retreats: list[str] = []
    for outcome in results:
        if outcome in DEFENDER_RETREATS:
            retreats += _retreats(system, state, defenders, DEFENDER_RETREATS[outcome], outcome)
        elif outcome in ATTACKER_RETREATS:
            retreats += _retreats(system, state, attackers, ATTACKER_RETREATS[outcome], outcome)
    if not retreats:
        retreats.append("8.3: no result of this combat makes a unit retreat" if result is None
                        else f"8.3: no unit retreats after {result}")
    if isinstance(entry, Bombard):
        advances = ("8.5: no advance after a bombardment (8.1)",)
    elif any(r in DEFENDER_RETREATS or r == "De" for r in results):
        advances = (f"8.5: after D2, D3 or De, the attackers ({', '.join(attackers)}) may advance into {entry.hex} "
                    "and along the defender's path of retreat, one unit a hex",)
    else:
        advances = (f"8.5: no advance after {result}" if result is not None
                    else "8.5: an advance follows a D2, D3 or De only",)
    return CombatAccount("bombard" if isinstance(entry, Bombard) else "attack", entry.hex, tuple(attackers),
                         tuple(defenders), tuple(arithmetic), f"{found.differential:+d}", heading, entry.die,
                         found.result, by_die, tuple(retreats), advances,
                         effect=result if result != found.result else None)
