"""Onslaught's account of an attack for a dispute (7.0-7.4): the arithmetic, every face of the die, the columns
next to it, and the retreat and advance it opens."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from adjudicator.contract import CombatAccount
from adjudicator.notation.entries import Attack
from adjudicator.systems.onslaught.combat import CombatAudit, _terms, combat_audit, combat_report, result_of
from adjudicator.systems.onslaught.state import OnslaughtState, enemy_of, unit_of, units_at

if TYPE_CHECKING:
    from fractions import Fraction


def _ratio(column: str) -> Fraction:
    """A column's odds as a fraction (fractions imported here: a check of a log without a dispute needs none)."""
    from fractions import Fraction
    a, d = _terms(column)
    return Fraction(a, d)


def _shifts(state: OnslaughtState, attack: Attack, computed: CombatAudit) -> tuple[str, ...]:
    """The odds columns next to the computed one, and the faces whose result they would change (7.0, 7.2)."""
    game = state.game
    assert game.crt is not None
    columns = list(game.crt.columns)
    here = columns.index(computed.column)
    low, high = int(game.parameter.get("die_min", 0)), int(game.parameter.get("die_max", 6))
    faces = [(d, min(max(d + computed.total_modifier, low), high)) for d in range(1, 7)]
    out = []
    for step, where in ((1, "one column up"), (-1, "one column down")):
        if not 0 <= here + step < len(columns):
            out.append(f"{where}: none (the table's {'last' if step > 0 else 'first'} column is {computed.column})")
            continue
        other = columns[here + step]
        if step > 0:
            needed = -(-_ratio(other).numerator * computed.defence // _ratio(other).denominator)
            takes = f"an attack of {needed} against {computed.defence}"
        else:
            takes = f"an attack under {_ratio(computed.column) * computed.defence} against {computed.defence}"
        faces_changed = [f"die {d}: {result_of(game, other, m)} instead of {result_of(game, computed.column, m)}"
                         for d, m in faces if result_of(game, other, m) != result_of(game, computed.column, m)
                         and (computed.die is None or d == computed.die)]
        change = ", ".join(faces_changed) or "no result changes" + (f" for die {computed.die}" if computed.die else "")
        out.append(f"{where}, {other} ({takes}): {change}")
    return tuple(out)


def combat_account(state: OnslaughtState, attack: Attack) -> CombatAccount:
    """An attack computed for a dispute (7.0-7.4): the arithmetic, every face of the die, the columns next to
    it, and the retreat and advance it opens."""
    computed = combat_audit(state, attack)
    report = combat_report(state, attack)
    by_die = tuple((d, str(combat_audit(state, dataclasses.replace(attack, die=d)).result)) for d in range(1, 7))
    side = unit_of(state, attack.attackers[0]).side
    defenders = tuple(units_at(state, attack.hex, enemy_of(state, side)))
    return CombatAccount("attack", attack.hex, tuple(attack.attackers), defenders,
                         tuple(line.strip() for line in report[1:-2]), computed.column, computed.column,
                         computed.die, computed.result, by_die, (report[-2].strip(),), (report[-1].strip(),),
                         _shifts(state, attack, computed))
