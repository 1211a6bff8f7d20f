"""Combat (the game's combat section): who may attack whom, strengths with conditions and terrain, the odds or
differential column with terrain shifts, the die read on crt.toml, and the result's account for a dispute."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from adjudicator.contract import CombatAccount
from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack
from adjudicator.systems.classic.base import (
    condition_factor, enemy_of, finding, in_communication, rules_of, steps_left, strength, strength_lost, unit_of,
)
from adjudicator.systems.classic.state import ClassicState, Pending, evolve
from adjudicator.systems.classic.tables import factor
from wargame.errors import WargameError
from wargame.hexes import Hexside
from wargame.records import frozen


@frozen
class Odds:
    """One combat worked out: strengths, the column before and after shifts, and why."""

    attack: Fraction
    defence: Fraction
    base: int | None
    """The column index the strengths give (None: below the table's first column)."""
    column: int | None
    """The column index after terrain shifts (None: below the first)."""
    lines: tuple[str, ...]
    shift: int
    die_modifier: int = 0
    """Added to the die before it is read on the table."""


def _column_value(label: str) -> Fraction:
    """An odds column as a ratio (`3:1` -> 3, `1:2` -> 1/2) or a differential as a number (`+2`, `-1`)."""
    if ":" in label:
        a, b = label.split(":")
        return Fraction(int(a), int(b))
    return Fraction(int(label.replace("+", "").replace("−", "-")))


def _label(value: Fraction) -> str:
    return f"{float(value):g}"


@frozen
class _Terrain:
    """The terrain's effects on an attack on one hex: columns shifted, die modified, defence multiplied."""

    shift: int
    die_modifier: int
    multiplier: Fraction
    lines: tuple[str, ...]


def _terrain(state: ClassicState, label: str, attackers: list[str]) -> _Terrain:
    """The combat terrain effects (rules.toml's `[[combat.terrain]]`) that apply to an attack on one hex."""
    t = rules_of(state)
    game = state.game
    target = game.grid.hex_of(label)
    terrain = set(game.hex_terrain.get(target, ()))
    sides = {u: game.hexside_features.get(Hexside.between(h, target), frozenset())
             for u in attackers if (h := state.hex_of(u)) is not None and h.is_adjacent(target)}
    shift = 0
    modifier = 0
    multiplier = Fraction(1)
    lines: list[str] = []
    defending = state.side_in(label)
    for effect in t.rules.combat.terrain:
        if effect.sides and defending not in effect.sides:
            continue
        cancel = set(effect.unless)
        if effect.when == "defender_in":
            applies = effect.terrain in terrain and not cancel & terrain
        elif effect.when == "every_attacker_across":
            applies = bool(sides) and len(sides) == len(attackers) and all(
                effect.terrain in f and not cancel & f for f in sides.values())
        else:
            applies = any(effect.terrain in f and not cancel & f for f in sides.values())
        if not applies:
            continue
        shift += effect.shift
        modifier += effect.die_modifier
        multiplier *= factor(effect.defence_factor)
        what = [f"{effect.shift:+d} column(s)" if effect.shift else "",
                f"die {effect.die_modifier:+d}" if effect.die_modifier else "",
                f"defence x{effect.defence_factor:g}" if effect.defence_factor != 1 else ""]
        lines.append(f"{effect.terrain} ({effect.when.replace('_', ' ')}): {', '.join(w for w in what if w)} "
                     f"[{effect.source}]")
    return _Terrain(shift, modifier, multiplier, tuple(lines))


def _columns(state: ClassicState, attack: Fraction, defence: Fraction, shift: int
             ) -> tuple[Fraction, int | None, int | None, int | None]:
    """The odds ratio (or differential), the column the strengths give, where the shifts count from (past the
    last column when the rules shift before capping: an index beyond the table) and the column after them."""
    crt = state.game.crt
    assert crt is not None
    combat = rules_of(state).rules.combat
    values = [_column_value(c) for c in crt.columns]
    if crt.kind == "odds":
        ratio = attack / defence if defence else Fraction(10 ** 6)
        if combat.rounding == "nearest" and ratio >= 1:
            ratio = Fraction(math.floor(ratio + Fraction(1, 2)))
    else:
        ratio = attack - defence
        ratio = Fraction(math.floor(ratio))
    base = max((i for i, v in enumerate(values) if v <= ratio), default=None)
    if base is None and combat.below == "lowest":
        base = 0
    virtual = base
    if base is not None and base == len(values) - 1 and combat.shift_before_cap and len(values) > 1:
        # Odds past the last column count from where they are (8:1 shifted one is 7:1, read on 6:1).
        step = values[-1] - values[-2]
        if step > 0:
            virtual = base + math.floor((ratio - values[-1]) / step)
    column = None if virtual is None else min(virtual + shift, len(values) - 1)
    if column is not None and column < 0:
        column = 0 if combat.below == "lowest" else None
    return ratio, base, virtual, column


def _column_name(state: ClassicState, index: int) -> str:
    """A column's heading, or the heading a column past the table's last would have (`7:1` after `6:1`)."""
    crt = state.game.crt
    assert crt is not None
    last = len(crt.columns) - 1
    if index <= last:
        return crt.columns[index]
    values = [_column_value(c) for c in crt.columns]
    value = values[-1] + (index - last) * (values[-1] - values[-2])
    if crt.kind == "odds":
        return f"{_label(value)}:1"
    return f"{int(value):+d}"


def work_out(state: ClassicState, hex_label: str, attackers: list[str], more_hexes: Sequence[str] = ()) -> Odds:
    """The strengths and column of an attack on a hex (and the further hexes of an attack on several), with each
    factor and shift in a line for a person."""
    asked = rules_of(state).asked
    key = (id(state), hex_label, tuple(attackers), tuple(more_hexes))
    known = asked.get(key)
    if known is not None and known[0] is state and isinstance(known[1], Odds):
        return known[1]  # the same attack on the same position (its check, then its application)
    odds = _work_out(state, hex_label, attackers, more_hexes)
    asked.clear()
    asked[key] = (state, odds)
    return odds


def _work_out(state: ClassicState, hex_label: str, attackers: list[str], more_hexes: Sequence[str],
              conditions: bool = True) -> Odds:
    """`work_out` worked out (without the condition in force, to tell a claim that leaves it out)."""
    hexes = (hex_label, *more_hexes)
    t = rules_of(state)
    game = state.game
    crt = game.crt
    if crt is None:
        raise WargameError(f"{game.id} has no crt.toml: a classic game's combat reads its table")
    combat = t.rules.combat
    defenders = [u for label in hexes for u in state.units_in(label)]
    a_factor, d_factor = (condition_factor(state, True), condition_factor(state, False)) if conditions else \
        (Fraction(1), Fraction(1))
    lines: list[str] = []
    supply = t.rules.supply
    cut = {u for u in [*attackers, *defenders] if supply is not None and (
        (u in attackers and supply.cut_off_attack != 1) or (u not in attackers and supply.cut_off_defence != 1))
        and state.hex_of(u) is not None and not in_communication(state, state.location[u], unit_of(state, u).side)}

    def worth(u: str) -> Fraction:
        value = Fraction(strength(state, u, "attack" if u in attackers else "defence"))
        if u in cut and supply is not None:
            value *= factor(supply.cut_off_attack if u in attackers else supply.cut_off_defence)
        return value

    attack = sum((worth(u) for u in attackers), Fraction(0)) * a_factor
    condition = t.condition(state.at.turn)
    lines.append(f"attack {' + '.join(f'{u} {_label(worth(u))}' + (' (cut off)' if u in cut else '') for u in attackers)}"
                 + (f" x{_label(a_factor)} ({condition.name} [{condition.source}])" if a_factor != 1 and
                    condition is not None else "") + f" = {_label(attack)}")
    printed = sum((worth(u) for u in defenders), Fraction(0)) * d_factor
    if len(hexes) == 1:
        terrain = _terrain(state, hexes[0], attackers)
    else:
        # An attack on several hexes reads one hex's terrain: the one most favourable to the defender.
        grid = game.grid
        each = [_terrain(state, label, [u for u in attackers if (h := state.hex_of(u)) is not None
                                        and h.is_adjacent(grid.hex_of(label))]) for label in hexes]
        rank = [_columns(state, attack, printed * e.multiplier, e.shift)[3] for e in each]
        best = min(range(len(hexes)), key=lambda i: (-1 if rank[i] is None else rank[i], i))
        terrain = each[best]
        lines.append(f"terrain of {hexes[best]}, the most favourable to the defender of {', '.join(hexes)} "
                     f"[{combat.source}]")
    lines += terrain.lines
    defence = printed * terrain.multiplier
    lines.append(f"defence {' + '.join(f'{u} {_label(worth(u))}' + (' (cut off)' if u in cut else '') for u in defenders) or '0'}"
                 + (f" x{_label(d_factor * terrain.multiplier)}" if d_factor * terrain.multiplier != 1 else "")
                 + f" = {_label(defence)}")
    _, base, virtual, column = _columns(state, attack, defence, terrain.shift)
    shift = terrain.shift
    shown = (f"{_label(attack)}:{_label(defence)}" if crt.kind == "odds" else f"{_label(attack - defence):s}")
    # The arithmetic says what was computed: odds past the table count from where they are before any shift
    # (`shift_before_cap`), so 29:4 is 7:1, shifted one left to 6:1; a column still past the table is read on its
    # last.
    last = len(crt.columns) - 1
    said = f"{'odds' if crt.kind == 'odds' else 'differential'} {shown} -> "
    said += _column_name(state, virtual) if virtual is not None else f"below {crt.columns[0]}"
    if virtual is not None and base is not None and virtual > base:
        said += f" (past the table's last column, {crt.columns[last]})"
    after = None if virtual is None or column is None else virtual + shift
    if shift:
        to = "below the table" if column is None else crt.columns[column]
        said += f", shifted {shift:+d} -> {_column_name(state, after) if after is not None and after > last else to}"
    if column is not None and after is not None and after > last:
        said += f", read on {crt.columns[column]}"
    lines.append(f"{said} [{combat.source}]")
    return Odds(attack, defence, base, column, tuple(lines), shift, terrain.die_modifier)


def below_the_table(state: ClassicState, hex_label: str, attackers: list[str]) -> bool:
    """Whether an attack on a hex by these units is one the rules refuse for its odds (`below = "prohibited"`)."""
    if rules_of(state).rules.combat.below != "prohibited":
        return False
    return _work_out(state, hex_label, attackers, ()).column is None


def result_of(state: ClassicState, column: int, die: int, modifier: int = 0) -> str | None:
    """The table's result for a column and a die roll, the modifier added and the sum kept within the table's
    rows (None: a roll the table does not have)."""
    crt = state.game.crt
    assert crt is not None
    if die not in crt.die_rolls:
        return None
    modified = min(max(die + modifier, min(crt.die_rolls)), max(crt.die_rolls))
    if modified not in crt.die_rolls:
        return None
    return crt.results[crt.die_rolls.index(modified)][column]


def check_attack(state: ClassicState, entry: Attack) -> list[Finding]:
    """An attack: on a hex of enemy units (or several, where the rules allow), by the phasing side's units next
    to it, each unit and hex once a phase, at odds the table has; the claimed odds, die and result checked
    against the table."""
    return refusal(state, entry) or _check_claims(state, entry)


def refusal(state: ClassicState, entry: Attack) -> list[Finding]:
    """Why the rules refuse an attack outright (who attacks whom, each unit attacking and attacked once a phase, odds
    the table allows), or nothing: a refused attack's result is not owed, though the players may carry it out.
    Worked out once an attack: its check asks, and its application reads the answer (the same state and entry)."""
    memo = rules_of(state).refusals
    known = memo.get("last")
    if known is not None and known[0] is state and known[1] is entry:
        return list(known[2])
    out = _refusal(state, entry)
    if len(out) > 1:
        # One attack refused is one breach: one error at it, saying every reason (two attackers not adjacent).
        out = [replace(out[0], message="; ".join(f.message for f in out))]
    memo["last"] = (state, entry, tuple(out))
    return out


def _refusal(state: ClassicState, entry: Attack) -> list[Finding]:
    """`refusal` worked out."""
    t = rules_of(state)
    combat = t.rules.combat
    section = combat.source
    grid = state.game.grid
    hexes = entry.defending_hexes()
    attackers = list(dict.fromkeys(entry.attackers))
    # The attacking side is the entry's (`SIDE: attack ...`); an enemy unit named among the attackers is its own
    # error, not a reason to read the defenders as friends.
    side = entry.side or unit_of(state, attackers[0]).side
    if len(hexes) > 1 and not combat.multi_hex:
        return [finding(state, "error", section, entry, f"an attack is made on the units of one hex; this one names "
                        f"{', '.join(hexes)}: attack each on its own")]
    twice = sorted({h for h in hexes if hexes.count(h) > 1})
    if twice:
        return [finding(state, "error", section, entry, f"the attack names {twice[0]} twice")]
    out: list[Finding] = []
    repeated = entry.named_twice()
    if repeated:
        # A unit's strength is added once (the attackers are counted each once below): the slip is refused.
        out.append(finding(state, "error", section, entry, f"{', '.join(repeated)} "
                           f"{'is' if len(repeated) == 1 else 'are'} named twice among the attackers; a unit "
                           "attacks once"))
    for label in hexes:
        if not state.units_in(label) or state.side_in(label) == side:
            out.append(finding(state, "error", section, entry, f"no enemy unit in {label} to attack"))
    if out:
        return out
    targets = [grid.hex_of(label) for label in hexes]
    where = " or ".join(hexes)
    # One fault shared by several attackers is one reason naming them all (the rulings register, classic series 7.0).
    faults: dict[tuple[str, str], list[str]] = {}
    for u in attackers:
        h = state.hex_of(u)
        if unit_of(state, u).side != side:
            faults.setdefault((f"{unit_of(state, u).side} unit", f"cannot attack with the {side} units"), []).append(u)
        elif h is None:
            faults.setdefault(("", "not on the map; {they} cannot attack"), []).append(u)
        elif combat.adjacent and not any(h.is_adjacent(x) for x in targets):
            faults.setdefault(("", f"not adjacent to {where}; only adjacent units attack"), []).append(
                f"{u} in {state.location[u]}")
        elif combat.attack_once and u in state.log.attacked:
            faults.setdefault(("attacked", "a unit attacks once a combat phase"), []).append(u)
    for (what, said), units in faults.items():
        out.append(finding(state, "error", section, entry, _fault(units, what, said)))
    if len(hexes) > 1:
        # Each hex of an attack on several is next to one of its attackers at least.
        placed = [h for u in attackers if (h := state.hex_of(u)) is not None]
        for label, x in zip(hexes, targets):
            if not any(h.is_adjacent(x) for h in placed):
                out.append(finding(state, "error", section, entry, f"no attacker is adjacent to {label}; each hex "
                                   "of an attack on several is next to one of its attackers"))
    for label in hexes:
        # The rule protects the units (a hex is attacked through them): one that retreated here after an attack
        # this phase may not be attacked again, and a hex whose units are all fresh may be.
        again = [u for u in state.units_in(label) if u in state.log.defended] if combat.defend_once else []
        if again:
            were = "was" if len(again) == 1 else "were"
            first = state.log.defended[again[0]]
            out.append(finding(state, "error", section, entry, f"{', '.join(again)} in {label} {were} attacked "
                               f"already this phase{f' (in {first})' if first != label else ''}; a unit is "
                               "attacked once a combat phase"))
    if out or combat.below != "prohibited":
        return out
    odds = work_out(state, hexes[0], attackers, hexes[1:])
    crt = state.game.crt
    assert crt is not None
    if odds.column is None:
        return [finding(state, "error", section, entry, f"the attack on {'+'.join(hexes)} is below the table's "
                        f"lowest column ({crt.columns[0]}): {'; '.join(odds.lines[-1:])}")]
    return []


def _fault(units: list[str], what: str, said: str) -> str:
    """An attackers' fault said of one unit or of several (`what`: a kind of unit, `attacked`, or nothing)."""
    one = len(units) == 1
    named = ", ".join(units)
    if what == "attacked":
        return f"{named} {'has' if one else 'have'} already attacked this phase; {said}"
    if what:
        return f"{named} {'is a' if one else 'are'} {what}{'' if one else 's'}; {'it' if one else 'they'} {said}"
    return f"{named} {'is' if one else 'are'} {said.format(they='it' if one else 'they')}"


def _check_claims(state: ClassicState, entry: Attack) -> list[Finding]:
    """The claimed odds, die and result of an attack the rules allow, against the table."""
    t = rules_of(state)
    combat = t.rules.combat
    section = combat.source
    hexes = entry.defending_hexes()
    attackers = list(dict.fromkeys(entry.attackers))
    out: list[Finding] = []
    odds = work_out(state, hexes[0], attackers, hexes[1:])
    shown = "+".join(hexes)
    crt = state.game.crt
    assert crt is not None
    if odds.column is None and combat.below == "no_effect":
        if entry.result is not None and entry.result != combat.below_result:
            out.append(finding(state, "error", section, entry, f"the attack on {shown} is below the table "
                               f"({'; '.join(odds.lines[-1:])}): its result is {combat.below_result}, not "
                               f"{entry.result}"))
        elif entry.odds is not None and entry.odds in crt.columns:
            out.append(finding(state, "error", section, entry, f"odds claimed {entry.odds}, but the attack is below "
                               f"the table: {'; '.join(odds.lines)}"))
        return out
    if odds.column is None:
        return out  # refused (`refusal`)
    column = crt.columns[odds.column]
    # The odds claimed are the column the table is read on: after the terrain's shifts.
    misread = entry.odds is not None and entry.odds != column
    if misread:
        cited, why = _misread(state, entry, lambda o: o.column is not None and crt.columns[o.column] == entry.odds)
        # A result the table gives on the column claimed follows from the odds misread: one breach, one error.
        at_claim = entry.odds in crt.columns and entry.die is not None and entry.die in crt.die_rolls and \
            entry.result is not None and result_of(state, crt.columns.index(entry.odds), entry.die,
                                                   odds.die_modifier) == entry.result
        table = result_of(state, odds.column, entry.die, odds.die_modifier) if at_claim and entry.die else None
        gives = f" (die {entry.die}: {table}, not {entry.result})" if table is not None and table != entry.result \
            else ""
        out.append(finding(state, "error", cited, entry, f"odds claimed {entry.odds}{why}, but the attack is read "
                           f"on {column}{gives}: {'; '.join(odds.lines)}"))
        if at_claim:
            return out
    faces = combat.die_faces
    if entry.die is not None and entry.die not in crt.die_rolls:
        out.append(finding(state, "error", section, entry, f"die {entry.die} is not a roll of the table "
                           f"({crt.die_rolls[0]}-{crt.die_rolls[-1]} on a d{faces})"))
        return out
    if entry.result is not None and entry.result not in t.results:
        out.append(finding(state, "error", section, entry, f"result {entry.result!r} is not one of the table's "
                           f"({', '.join(t.results)})"))
        return out
    if entry.die is None:
        out.append(finding(state, "warning", section, entry, f"no die roll recorded for the attack on "
                           f"{shown} at {column}; the result cannot be verified"))
        return out
    die = entry.die
    table_result = result_of(state, odds.column, die, odds.die_modifier)
    if entry.result is None:
        out.append(finding(state, "note", section, entry, f"attack on {shown} at {column}, die {entry.die}: "
                           f"{table_result}"))
    elif entry.result != table_result:
        modified = f" ({odds.die_modifier:+d})" if odds.die_modifier else ""
        # A result the reroll gives was read off the table right, for the wrong die: no condition was misread.
        rerolled = entry.reroll is not None and entry.reroll in crt.die_rolls and \
            result_of(state, odds.column, entry.reroll, odds.die_modifier) == entry.result
        cited, why = (section, "") if misread or rerolled else _misread(
            state, entry, lambda o: o.column is not None and result_of(state, o.column, die, o.die_modifier) ==
            entry.result)
        out.append(finding(state, "error", cited, entry, f"result claimed {entry.result}{why}, but {column} with die "
                           f"{entry.die}{modified} gives {table_result}: {'; '.join(odds.lines)}"))
    return out


def _misread(state: ClassicState, entry: Attack, fits: Callable[[Odds], bool]) -> tuple[str, str]:
    """The section a wrong claim misread, and why: the condition in force's when the claim is what the attack gives
    without it (as a move over a condition's cap cites the condition), else the combat section's."""
    t = rules_of(state)
    condition = t.condition(state.at.turn)
    if condition is None or condition_factor(state, True) == condition_factor(state, False) == 1:
        return t.rules.combat.source, ""
    hexes = entry.defending_hexes()
    plain = _work_out(state, hexes[0], list(dict.fromkeys(entry.attackers)), hexes[1:], conditions=False)
    if not fits(plain):
        return t.rules.combat.source, ""
    return condition.source, f" (what the attack gives without the {condition.name})"


def result_applied(state: ClassicState, entry: Attack) -> str | None:
    """The result the players carry out: the one the log claims, else the table's for the die written."""
    t = rules_of(state)
    if entry.result is not None and entry.result in t.results:
        return entry.result
    hexes = entry.defending_hexes()
    if state.game.crt is None or not any(state.units_in(label) for label in hexes):
        return None
    odds = work_out(state, hexes[0], list(dict.fromkeys(entry.attackers)), hexes[1:])
    if odds.column is None:
        combat = t.rules.combat
        return combat.below_result if combat.below == "no_effect" and combat.below_result in t.results else None
    return None if entry.die is None else result_of(state, odds.column, entry.die, odds.die_modifier)


def pending_of(state: ClassicState, entry: Attack, code: str) -> Pending:
    """What a result owes: steps from each defender, steps or strength from the attackers, retreats, advances."""
    t = rules_of(state)
    result = t.results[code]
    hexes = entry.defending_hexes()
    defenders = tuple(u for label in hexes for u in state.units_in(label))
    attackers = tuple(dict.fromkeys(entry.attackers))
    steps = {u: steps_left(state, u) if result.defender_eliminated else min(result.defender_steps, steps_left(state, u))
             for u in defenders}
    lost = Fraction(0)
    if result.exchange:
        for u, n in steps.items():
            lost += strength_lost(state, u, max(n, 1), "defence")
    attacker_steps = sum(steps_left(state, u) for u in attackers) if result.attacker_eliminated \
        else result.attacker_steps
    retreats = {u: result.defender_retreat for u in defenders
                if result.defender_retreat and steps[u] < steps_left(state, u)}
    attacker_retreats = {u: result.attacker_retreat for u in attackers if result.attacker_retreat}
    advances = t.rules.combat.advance.units if result.advance is not False else 0
    # Where each attacker and defender stood when the combat was resolved (a retreat starts there).
    began = {u: state.location.get(u, "") for u in (*attackers, *defenders)}
    return Pending(entry.line, entry.hex, attackers, defenders, code, steps, attacker_steps, lost, retreats,
                   attacker_retreats, advances, defender_lost=lost, began=began, hexes=hexes)


def apply_attack(state: ClassicState, entry: Attack) -> ClassicState:
    """The attackers and the hex marked for the phase, and the result's obligations pending."""
    attacked = {u: label for label in entry.defending_hexes() for u in state.units_in(label)}
    stood = {u: where for u in (*entry.attackers, *attacked) if (where := state.location.get(u)) is not None}
    faces = {u: (u in state.reduced, state.further.get(u, 0)) for u in stood}
    log = evolve(state.log, attacked=state.log.attacked | set(entry.attackers),
                 defended={**attacked, **state.log.defended}, stood={**stood, **state.log.stood},
                 faces={**faces, **state.log.faces}, orphaned=0, early={})
    code = result_applied(state, entry)
    pending = pending_of(state, entry, code) if code is not None else None
    table = result_applied(state, replace(entry, result=None)) if entry.result is not None else None
    if pending is not None and table is not None and table != code:
        pending = evolve(pending, alternative=pending_of(state, entry, table))
    return evolve(state, log=log, pending=pending)


def set_aside(before: ClassicState, after: ClassicState, entry: Attack) -> ClassicState:
    """After an attack the rules refused (its one error given): its result may be carried out as the players did,
    but nothing of it is owed, and its units and hexes may still attack and be attacked lawfully this phase (one
    breach, one error); a compulsory attack counts them as tried."""
    tried = frozenset(entry.attackers) | frozenset(u for label in entry.defending_hexes()
                                                  for u in before.units_in(label))
    log = evolve(before.log, refused=before.log.refused | tried)
    p = after.pending
    if p is None:
        return evolve(after, log=log)
    # A unit not next to the hex adds nothing: carrying out the others' result is no second error either (ruling 7.0).
    could = attack_without_refused(before, entry)
    code = result_applied(before, could) if could is not None else None
    others = evolve(pending_of(before, could, code), refused=True) if could is not None and code is not None else None
    return evolve(after, log=log, pending=evolve(p, refused=True, alternative=others))


def attack_without_refused(state: ClassicState, entry: Attack) -> Attack | None:
    """The attack of the named units next to a hex it is made on, when others named are not and some are, with
    nothing claimed of it; else None."""
    if not rules_of(state).rules.combat.adjacent:
        return None
    grid = state.game.grid
    targets = [grid.hex_of(label) for label in entry.defending_hexes() if grid.is_label(label)]
    able = [u for u in entry.attackers
            if (h := state.hex_of(u)) is not None and any(h.is_adjacent(x) for x in targets)]
    if not able or len(able) == len(entry.attackers):
        return None
    return replace(entry, attackers=able, odds=None, result=None)


def account(state: ClassicState, entry: Attack) -> CombatAccount:
    """An attack as the rules compute it, every die face's result beside it, for `adjudicate combat`."""
    t = rules_of(state)
    crt = state.game.crt
    if crt is None:
        raise WargameError(f"{state.game.id} has no combat results table")
    hexes = entry.defending_hexes()
    where = "+".join(hexes)
    empty = [label for label in hexes if not state.units_in(label)]
    if empty:
        raise WargameError(f"no unit in {empty[0]} to attack")
    attackers = list(dict.fromkeys(entry.attackers))
    defenders = tuple(u for label in hexes for u in state.units_in(label))
    odds = work_out(state, hexes[0], attackers, hexes[1:])
    column = crt.columns[odds.column] if odds.column is not None else f"below {crt.columns[0]}"
    combat = t.rules.combat
    if odds.column is None and combat.below != "no_effect":
        raise WargameError(f"the attack on {where} is below the table's first column ({crt.columns[0]}), which "
                           f"the rules do not allow: {'; '.join(odds.lines)}")
    if odds.column is None:
        # Below the table every face gives the rules' result for such an attack.
        by_die = tuple((d, combat.below_result) for d in crt.die_rolls)
        result = combat.below_result if entry.die is not None else None
    else:
        by_die = tuple((d, result_of(state, odds.column, d, odds.die_modifier) or "?") for d in crt.die_rolls)
        result = result_of(state, odds.column, entry.die, odds.die_modifier) if entry.die is not None else None
    retreats: tuple[str, ...] = ()
    if result is not None and result in t.results and t.results[result].defender_retreat:
        # The retreats the result opens, as the checker would accept them (after its step losses).
        from adjudicator.systems.classic.results import retreat_options
        owed = retreat_options(evolve(state, pending=pending_of(state, entry, result)))
        by_unit = {o.unit: o for o in owed}
        for u in defenders:
            option = by_unit.get(u)
            if option is None:
                retreats += (f"{u}: no retreat owed (eliminated by the result's losses)",)
            elif not option.paths:
                retreats += (f"{u}: no legal retreat of {option.due} hex(es): eliminated [{combat.retreat.source}]",)
            else:
                paths = ", ".join("-".join(p) for p in option.paths[:6])
                more = f" and {len(option.paths) - 6} more" if len(option.paths) > 6 else ""
                retreats += (f"{u}: {option.due} hex(es), e.g. {paths}{more} [{combat.retreat.source}]",)
    advance = t.rules.combat.advance
    advances = (f"up to {advance.units} attacker(s) into {' or '.join(hexes)} when it is left empty [{advance.source}]",) \
        if advance.units else ()
    # The odds a log claims are the column the table is read on (after the terrain's shifts), so the audit's are.
    shown = column
    return CombatAccount("attack", where, tuple(attackers), defenders, odds.lines, shown,
                         column, entry.die, result, by_die, retreats, advances)


def defender_side(state: ClassicState, entry: Attack) -> str:
    """The side defending against an attack."""
    return enemy_of(state, unit_of(state, entry.attackers[0]).side)
