"""Onslaught's account of an attack for a dispute (7.0-7.4): the arithmetic, every face of the die, the columns
next to it, and the retreat and advance it opens."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from adjudicator.contract import CombatAccount
from adjudicator.notation.entries import Attack
from adjudicator.systems.onslaught import results
from adjudicator.systems.onslaught.combat import (
    CombatAudit, _terms, after_losses, attack_without_refused, combat_audit, open_combat, refusal, result_of,
    retreat_options,
)
from adjudicator.systems.onslaught.state import OnslaughtState, enemy_of, on_map, replace, unit_of, units_at

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


def without_refused_lines(state: OnslaughtState, attack: Attack) -> list[str]:
    """The odds and result of an attack with and without the divisions named that the rules refuse (not next to the
    hex, not activated...): the verdicts rest on the second (ruling 7.0: such a division adds no strength; the others'
    result is what is owed)."""
    could = attack_without_refused(state, attack)
    if could is None:
        return []
    why = refusal(state, attack)[1]
    refused = [u for u in dict.fromkeys(attack.attackers) if u not in could.attackers]
    full, others = combat_audit(state, attack), combat_audit(state, could)

    def told(audit: CombatAudit) -> str:
        """The strengths, odds, modifiers and result of one reading of the attack, on one line."""
        parts = [line for line in audit.lines if not line.startswith("defence")]
        die = next((k for k, line in enumerate(parts) if line.startswith("7.1: die")), len(parts))
        parts[die:die] = [f"{m.section}: {m.value:+d} because {m.why}" for m in audit.modifiers]
        return "; ".join(parts) + ("" if audit.die is not None else f"; no die roll given: column {audit.column}")

    named = ", ".join(refused)
    verb = "it adds no strength and takes" if len(refused) == 1 else "they add no strength and take"
    return [f"  7.0: {'; '.join(f'{u} {why[u]}' for u in refused)}: {verb} no loss (ruling 7.0)",
            f"  with {named} (as written): {told(full)}",
            f"  without {named} (the result owed; the verdicts rest on it, the players may carry out either): "
            f"{told(others)}"]


def combat_report(state: OnslaughtState, attack: Attack) -> list[str]:
    """The audit of one attack, in lines for a person (7.0-7.4)."""
    game = state.game
    result = combat_audit(state, attack)
    lines = [f"Attack on {attack.hex} by {', '.join(attack.attackers)}"]
    lines += [f"  {line}" for line in result.lines[:-2 if result.die is not None else None]]
    if result.modifiers:
        for m in result.modifiers:
            lines.append(f"  {m.section}: {m.value:+d} because {m.why}")
    else:
        lines.append("  7.1: no modifier applies")
    crt = game.crt
    if result.die is not None:
        lines += [f"  {line}" for line in result.lines[-2:]]
    elif crt is not None:
        column = list(crt.columns).index(result.column)
        lines.append("  no die roll given; the column reads " + ", ".join(
            f"{d}: {row[column]}" for d, row in zip(crt.die_rolls, crt.results)))
    lines += without_refused_lines(state, attack)
    side = game.units_by_id[attack.attackers[0]].side
    enemy = next(s for s in game.manifest.sides if s != side)
    attackers = [game.grid.hex_of(state.location[u]) for u in attack.attackers]
    # With a die the result is known: the retreat and advance are that result's (a --die what-if's too, not
    # the result the log claims); without one, what any result calling for them would open.
    computed = str(result.result) if result.die is not None and result.result is not None else None
    opened = open_combat(state, attack, computed) if computed is not None else None
    effects = opened[1] if opened is not None else ()
    retreating = computed is None or any(e.defends and e.retreat for e in effects)
    emptied = computed is None or (computed != "AE" and all(e.retreat or e.loss >= e.steps
                                                            for e in effects if e.defends))
    if retreating:
        # Ruling 7.2 / 7.3: judged without the attackers the known result eliminates, as the checker judges it.
        after = state if opened is None else after_losses(replace(state, combat=opened[0], pending=opened[1]))
        attackers = [h for h in (on_map(after, u) for u in attack.attackers) if h is not None]
        two, one = options = retreat_options(after, game.grid.hex_of(attack.hex), enemy, attackers)
        # What the checker asks of each defender that cannot retreat two hexes (results.owed), for the result known,
        # else for each result that makes the defenders retreat.
        fates = {r: results.retreat_fates(open_combat(state, attack, r)[1], options)
                 for r in ((computed,) if computed is not None else ("DR", "DH"))}
        told = next(iter(fates.values())) if len(set(fates.values())) == 1 else \
            "; ".join(f"after {r}, {said}" for r, said in fates.items())
        lines.append(f"  7.3 retreat: two hexes to {', '.join(two) or 'nowhere'}"
                     + ("" if two else f"; one hex to {', '.join(one) or 'nowhere'}") + (f": {told}" if told else ""))
    else:
        lines.append(f"  7.3 retreat: none (result {computed}: no defender retreats)")
    if emptied:
        armor = [u for u in attack.attackers if game.units_by_id[u].type == "armor"]
        lines.append(f"  7.4 advance: if {attack.hex} is left empty, the attackers may enter it"
                     + (f"; armor ({', '.join(armor)}) one hex further" if armor else "; infantry no further"))
    else:
        lines.append(f"  7.4 advance: none (result {computed}: "
                     + ("no attacker is left" if computed == "AE" else f"{attack.hex} stays held") + ")")
    return lines
