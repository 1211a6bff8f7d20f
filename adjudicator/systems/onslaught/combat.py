"""Onslaught combat arithmetic (7.0, 7.1, 7.5): odds, modifiers, the table's result.

Also the attack itself (5.1, 5.4, 7.0), the result it opens (7.2) and where a defender may retreat (7.3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations
import dataclasses
from dataclasses import field

from adjudicator.basis import Basis, crt_cell, hex_terrain, hexside_features, unit_strength
from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack
from adjudicator.systems.onslaught import results
from adjudicator.systems.onslaught.activation import record_sequence
from adjudicator.systems.onslaught.optional import in_force
from adjudicator.systems.onslaught.results import Combat, Effect, RESULTS, Stack
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    OnslaughtState, combat_strength, enemy_of, on_map, replace, steps_left, turn_and_step, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply import is_supplied
from adjudicator.systems.onslaught.tables import map_tables
from adjudicator.systems.onslaught.zoc import zone_of_control
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen

@frozen


class Modifier:
    """One die-roll modifier of 7.1 and why it applies."""

    value: int
    section: str
    why: str


@frozen


class CombatAudit:
    """The whole arithmetic of one attack."""

    attack: int
    defence: int
    doubled: bool
    column: str
    ratio_note: str
    modifiers: list[Modifier] = field(default_factory=list)
    die: int | None = None
    modified_die: int | None = None
    result: str | None = None
    lines: list[str] = field(default_factory=list)
    fortified_hex: bool = False
    unmet: list[Modifier] = field(default_factory=list)
    """7.1's modifiers whose condition part of the attack meets but the whole does not (a claim may
    have applied them)."""

    @property
    def total_modifier(self) -> int:
        """Sum of the modifiers (7.1: cumulative)."""
        return sum(m.value for m in self.modifiers)


def odds_column(game: Game, attack: int, defence: int) -> tuple[str, str]:
    """The table column of an attack (7.0: ratio rounded down to a listed column)."""
    assert game.crt is not None
    columns = list(game.crt.columns)
    if defence <= 0:
        return columns[-1], "a defence of zero attacks on the best column (ruling for 7.3)"
    # Both terms of every column are whole numbers above zero (crt.toml's model refuses any other odds column), so
    # a:d <= attack:defence is a * defence <= attack * d: whole numbers, not fractions, whose
    # import (decimal's with it) is about 1% of a check's instructions. The first highest column is kept, as max's.
    column: str | None = None
    best = (0, 1)
    for c, (a, d) in zip(columns, map(_terms, columns)):
        if a * defence <= attack * d and (column is None or a * best[1] > best[0] * d):
            column, best = c, (a, d)
    if column is None:
        return columns[0], f"{attack}:{defence} is below the lowest column, so {columns[0]} (table note)"
    exact = best[0] * defence == attack * best[1]
    return column, f"{attack}:{defence} {'is' if exact else 'rounds down to'} {column}"


def _terms(column: str) -> tuple[int, int]:
    """A column's attack and defence terms ("3:2" is 3 and 2)."""
    a, d = column.split(":")
    return int(a), int(d)


def result_of(game: Game, column: str, die: int) -> str:
    """The table's result for a column and a (modified, clamped) die roll."""
    assert game.crt is not None
    return game.crt.results[list(game.crt.die_rolls).index(die)][list(game.crt.columns).index(column)]


def _side_features(game: Game, a: Hex, b: Hex) -> frozenset[str]:
    if not a.is_adjacent(b):
        return frozenset()  # not adjacent: 7.0 reports it; the arithmetic still completes
    return game.hexside_features.get(Hexside.between(a, b), frozenset())


def audit(game: Game, defender_hex: Hex, defenders: list[tuple[str, int]], attackers: list[tuple[str, Hex, int]],
          die: int | None, attacker_unsupplied: bool = False, defender_unsupplied: bool = False,
          defender_in_fortification: bool = False) -> CombatAudit:
    """The arithmetic of an attack: strengths, fortification doubling, odds, modifiers, result."""
    terrain = game.terrain
    lines: list[str] = []
    attack = sum(s for _, _, s in attackers)
    defence = sum(s for _, s in defenders)
    lines.append(f"attack {' + '.join(str(s) for _, _, s in attackers)} = {attack} "
                 f"({', '.join(u for u, _, _ in attackers)})")
    lines.append(f"defence {' + '.join(str(s) for _, s in defenders) or '0'} = {defence} "
                 f"({', '.join(u for u, _ in defenders) or 'no division counted'})")
    # 7.5: doubled only if every attacker attacks across a fortified hexside.
    fortified = [("fortified" in _side_features(game, h, defender_hex)) for _, h, _ in attackers]
    doubled = defender_in_fortification and bool(fortified) and all(fortified)
    if defender_in_fortification:
        if doubled:
            defence *= 2
            lines.append(f"7.5: every attacker is across a fortified hexside: defence doubled to {defence}")
        else:
            lines.append("7.5: not every attacker is across a fortified hexside: no doubling")
    column, ratio_note = odds_column(game, attack, defence)
    lines.append(f"7.0: {ratio_note}")
    modifiers: list[Modifier] = []
    hex_mods = [m for t in game.hex_terrain[defender_hex] if (m := terrain[t].combat_die_modifier)]
    if hex_mods:
        value = min(hex_mods)
        names = ", ".join(terrain[t].name for t in game.hex_terrain[defender_hex] if terrain[t].combat_die_modifier)
        modifiers.append(Modifier(value, "7.1", f"defending stack in {names}"))
    if attacker_unsupplied:
        modifiers.append(Modifier(-1, "7.1", "an attacking division cannot trace a supply line"))
    if defender_unsupplied:
        modifiers.append(Modifier(+1, "7.1", "the defending stack cannot trace a supply line"))
    crossings = [_side_features(game, h, defender_hex) for _, h, _ in attackers]
    water: list[dict[str, int]] = [{f: m for f in fs if (m := terrain[f].combat_die_modifier)} for fs in crossings]
    if water and all(water):
        # 7.1: all across water; the major waterway's -2 only when every attacker crosses one,
        # the river's -1 when some cross a river and the rest a major waterway.
        worst_each = [min(w.values()) for w in water]
        value = max(worst_each)
        kinds = sorted({terrain[f].name for fs in crossings for f in fs if terrain[f].combat_die_modifier})
        modifiers.append(Modifier(value, "7.1", f"every attacker attacks across {' or '.join(kinds).lower()}"))
    unmet: list[Modifier] = []
    if any(water) and not all(water):
        # 7.1: "all attacking divisions" across; with one attacker not across the water gives nothing.
        value = max(min(w.values()) for w in water if w)
        unmet.append(Modifier(value, "7.1", "not every attacker attacks across water, so no river or major "
                                            "waterway modifier applies"))
    elif water and all(water) and min(min(w.values()) for w in water) < modifiers[-1].value:
        # 7.1: the major waterway's -2 only when every attacker crosses one.
        # Held as the change from the river's modifier to the major waterway's.
        unmet.append(Modifier(min(min(w.values()) for w in water) - value, "7.1",
                              "the major waterway's in place of the river's, but some attackers cross a river, "
                              "so only the river modifier applies"))
    modified = None
    result = None
    if die is not None:
        low = int(game.parameter.get("die_min", 0))
        high = int(game.parameter.get("die_max", 6))
        raw = die + sum(m.value for m in modifiers)
        modified = min(max(raw, low), high)
        clamp = f" (clamped from {raw})" if raw != modified else ""
        lines.append(f"7.1: die {die} {'+' if sum(m.value for m in modifiers) >= 0 else '-'} "
                     f"{abs(sum(m.value for m in modifiers))} = {modified}{clamp}")
        result = result_of(game, column, modified)
        lines.append(f"7.2: column {column}, row {modified}: {result}")
    return CombatAudit(attack, defence, doubled, column, ratio_note, modifiers, die, modified, result, lines,
                       defender_in_fortification, unmet)


def other_doubling_column(game: Game, audit: CombatAudit) -> str | None:
    """The column a defence in a fortification hex gives with 7.5's doubling the other way round
    (claimed across a mix of hexsides, or left out when every attacker crossed a fortified one)."""
    if not audit.fortified_hex or audit.defence <= 0:
        return None
    defence = audit.defence // 2 if audit.doubled else audit.defence * 2
    column, _ = odds_column(game, audit.attack, defence)
    return column if column != audit.column else None


def misread_clause(game: Game, audit: CombatAudit, odds: str | None, claimed: str | None) -> tuple[str, str] | None:
    """The clause a wrong claim of odds or result breaks, when the claim is what a misreading of a
    sub-clause gives: 7.5's doubling the wrong way round, or 7.1's modifiers left out; with why."""
    other = other_doubling_column(game, audit)
    way = ("not every attacker is across a fortified hexside, so the defence is not doubled" if not audit.doubled
           else "every attacker is across a fortified hexside, so the defence is doubled")
    if other is not None and odds is not None and odds == other:
        return "7.5", way
    if claimed is None or audit.die is None or audit.result is None:
        return None
    low, high = int(game.parameter.get("die_min", 0)), int(game.parameter.get("die_max", 6))
    if other is not None and audit.modified_die is not None and result_of(game, other, audit.modified_die) == claimed:
        return "7.5", way
    mods = audit.modifiers
    for size in range(1, len(mods) + 1):
        for left_out in combinations(mods, size):
            rest = sum(m.value for m in mods) - sum(m.value for m in left_out)
            if result_of(game, audit.column, min(max(audit.die + rest, low), high)) == claimed:
                named = "; ".join(f"{m.value:+d} because {m.why}" for m in left_out)
                return "7.1", f"the die roll modifier{'s' if size > 1 else ''} left out: {named}"
    for wrong in audit.unmet:
        # A modifier applied whose condition does not hold breaks 7.1 as surely as one left out.
        if result_of(game, audit.column, min(max(audit.die + audit.total_modifier + wrong.value, low), high)) == claimed:
            return "7.1", f"a die roll modifier applied where its condition does not hold ({wrong.value:+d}): {wrong.why}"
    return None


def rerolled_result(game: Game, audit: CombatAudit, reroll: int) -> str:
    """The result a die rolled again gives in the combat audited, its modifiers applied (7.1, 7.2)."""
    low, high = int(game.parameter.get("die_min", 0)), int(game.parameter.get("die_max", 6))
    return result_of(game, audit.column, min(max(reroll + audit.total_modifier, low), high))


def combat_audit(state: OnslaughtState, entry: Attack) -> CombatAudit:
    """The arithmetic of an attack in a state (7.0, 7.1, 7.5; supply per 8.6 when known)."""
    game = state.game
    target = game.grid.hex_of(entry.hex)
    side = unit_of(state, entry.attackers[0]).side
    enemy = enemy_of(state, side)
    breakthrough = state.action is not None and state.action.type == "breakthrough"
    # 7.3: a division that retreated into the hex earlier in this action adds no strength,
    # except against a Breakthrough action, where it always defends with its strength.
    defenders = [(u, combat_strength(state, u) if (breakthrough or u not in state.action_log.retreated) else 0)
                 for u in units_at(state, entry.hex, enemy)]
    attackers = [(u, game.grid.hex_of(state.location[u]), combat_strength(state, u)) for u in entry.attackers
                 if u in state.location and game.grid.is_label(state.location[u])]
    fortification = "fortification" in game.hex_terrain[target] and enemy == "German"
    # 8.6: attackers' supply was fixed when their stack was activated; the defender's is
    # traced the moment it is attacked.
    attacker_unsupplied = state.action is not None and any(u in state.action.unsupplied for u in entry.attackers)
    defending = units_at(state, entry.hex, enemy)
    defender_unsupplied = bool(defending) and not all(is_supplied(state, u) for u in defending)
    return audit(game, target, defenders, attackers, entry.die, attacker_unsupplied, defender_unsupplied,
                 fortification)


def retreat_options(state: OnslaughtState, defender_hex: Hex, side: str,
                    attackers: Iterable[Hex]) -> tuple[list[str], list[str]]:
    """Hexes a defender may retreat to (7.3): two hexes away, never into enemy ZOC unless a
    friendly division is there, not ending next to an attacker; and the one-hex retreats
    (which deplete) when two are impossible."""
    two, one = retreat_paths(state, defender_hex, side, attackers)
    label = state.game.grid.label_of
    return sorted({label(p[-1]) for p in two}), sorted({label(p[-1]) for p in one})


def retreat_paths(state: OnslaughtState, defender_hex: Hex, side: str,
                  attackers: Iterable[Hex]) -> tuple[list[tuple[Hex, ...]], list[tuple[Hex, ...]]]:
    """Every retreat path of a defender (7.3), hex by hex from its hex: the two-hex ones (ending two
    hexes away, never into enemy ZOC unless a friendly division is there, not ending next to an
    attacker), and the one-hex ones (which deplete when no two-hex one is open), each in hex order."""
    game = state.game
    tables = map_tables(game)
    enemy_zoc = zone_of_control(state, enemy_of(state, side))
    friendly = {on_map(state, u) for u in state.location if unit_of(state, u).side == side}
    attacker_hexes = set(attackers)
    # Ruling (7.3 with 6.3): a hex already holding the stacking limit of the side's divisions (those
    # retreated there earlier in the same result included) is no place to end a retreat: the
    # division would only be removed at the action's end.
    limit = int(game.parameter.get("stacking_limit", 3))
    count = Counter(h for u in state.location if unit_of(state, u).side == side
                    and (h := on_map(state, u)) is not None)
    full = {h for h, n in count.items() if n >= limit}

    def may_enter(a: Hex, b: Hex) -> bool:
        return (b in game.grid and b in tables.passable and Hexside.between(a, b) not in tables.impassable_sides
                and (b not in enemy_zoc or b in friendly))

    two: list[tuple[Hex, ...]] = []
    one: list[tuple[Hex, ...]] = []
    for first in sorted(defender_hex.neighbours()):
        if not may_enter(defender_hex, first):
            continue
        if not any(first.is_adjacent(h) for h in attacker_hexes) and first not in full:
            one.append((defender_hex, first))
        for second in sorted(first.neighbours()):
            if second.distance(defender_hex) == 2 and may_enter(first, second) and second not in full and \
                    not any(second.is_adjacent(h) for h in attacker_hexes):
                two.append((defender_hex, first, second))
    return two, one


def can_reach(state: OnslaughtState, here: Hex | None, target: Hex) -> bool:
    """Whether a division at `here` is next to `target` across a hexside an attack may cross (7.0)."""
    return here is not None and here.is_adjacent(target) and \
        Hexside.between(here, target) not in map_tables(state.game).impassable_sides


def attack_without_refused(state: OnslaughtState, entry: Attack) -> Attack | None:
    """The attack of the named divisions the rules do not refuse, when others named are refused (not next to the hex,
    not activated, attacking again...) and some are not, with nothing claimed of it; else None (ruling 7.0)."""
    _, refused, whole = refusal(state, entry)
    able = [u for u in dict.fromkeys(entry.attackers) if u not in refused]
    if whole or not able or not refused:
        return None
    return dataclasses.replace(entry, attackers=able, odds=None, result=None)


def attack_faults(state: OnslaughtState, entry: Attack) -> list[Finding]:
    """What makes the rules refuse an attack or some of its divisions (5.1-5.5, 7.0, 14.3): each fault once."""
    return refusal(state, entry)[0]


def refusal(state: OnslaughtState, entry: Attack) -> tuple[list[Finding], dict[str, str], bool]:
    """An attack's faults, each once naming every division it concerns (one fault of a stack is one breach); the
    divisions the rules refuse, each with why; and whether the attack itself is refused (5.1-5.5, 7.0, 14.3)."""
    out: list[Finding] = []
    action = state.action
    side = entry.side or (unit_of(state, entry.attackers[0]).side if entry.attackers else "")
    if action is not None and action.type == "movement":
        # 5.3: "No enemy divisions can be attacked" in a Movement action.
        out.append(finding("error", "5.3", entry, f"{turn_and_step(state)}: no enemy division is attacked in a "
                                                  "Movement action"))
    elif action is None:  # an action of a type 5.1 does not have, or left undeclared, is its own one error
        out.append(finding("error", "5.1", entry, f"{turn_and_step(state)}: attacks belong to Combat and "
                                                  "Breakthrough actions"))
    target = state.game.grid.hex_of(entry.hex)
    enemy = enemy_of(state, side)
    if not units_at(state, entry.hex, enemy):
        out.append(finding("error", "7.0", entry, f"hex {entry.hex} holds no {enemy} division to attack"))
    whole = bool(out)
    twice = entry.named_twice()
    if twice:
        # 7.0: each attacking division's strength is added once; a division attacks once in an action.
        out.append(finding("error", "7.0", entry, f"{', '.join(twice)} {'is' if len(twice) == 1 else 'are'} named "
                                                  "twice among the attackers; a division attacks once"))
    faults: dict[tuple[str, str], list[str]] = {}
    refused: dict[str, str] = {}

    def fault(section: str, what: str, unit_id: str, why: str, named: str = "") -> None:
        """A fault of one division, kept with the same fault of the others."""
        faults.setdefault((section, what), []).append(named or unit_id)
        refused.setdefault(unit_id, why)

    for unit_id in dict.fromkeys(entry.attackers):
        if unit_of(state, unit_id).side != side:
            fault("7.0", f"not a {side} division", unit_id, f"is not a {side} division")
            continue
        if action is not None and unit_id not in action.activated:
            # 5.4: "All attacking divisions must be activated" (5.2 for a Breakthrough action).
            fault("5.4" if action.type == "combat" else "5.2", "attacks without being activated in this action",
                  unit_id, "was not activated in this action")
        elif action is not None and action.type == "breakthrough" and unit_id not in action.latest:
            # 5.5: one stack at a time; activating the next ends the earlier stack's combat and movement.
            fault("5.5", "attacks after another stack was activated; a breakthrough stack finishes its combat and "
                         "movement before the next is activated", unit_id, "attacks after another stack was activated")
        if unit_id in state.action_log.attacked and unit_id not in state.action_log.reactivated:
            # 7.0: once per action; a division activated again (5.2's error) that attacks again is that one breach.
            fault("7.0", "has already attacked in this action", unit_id, "has already attacked in this action")
        elif action is not None and action.type == "combat" and action.targets.get(unit_id, entry.hex) != entry.hex:
            # 5.4: the stacks activated together all attack one enemy-held hex.
            fault("5.4", f"was activated with the stacks that attacked {action.targets[unit_id]}; stacks activated "
                         "together attack the same hex", unit_id, f"was activated to attack {action.targets[unit_id]}")
        if not can_reach(state, on_map(state, unit_id), target):
            where = state.location.get(unit_id)
            fault("7.0", f"is not adjacent to {entry.hex} (or only across the sea)", unit_id,
                  f"at {where} cannot reach {entry.hex} (not adjacent, or only across the sea)", f"{unit_id} at {where}")
    for (section, what), units in faults.items():
        out.append(finding("error", section, entry, f"{', '.join(units)} {plural(what) if len(units) > 1 else what}"))
    if action is not None and action.type == "breakthrough":
        joined = in_force(state).breakthrough_attack(state, entry, action)
        out += joined
        # 14.3: infantry that may not join is refused, the armor's attack stands; any other fault refuses the attack.
        whole = whole or any(f.rule != "14.3" for f in joined)
        for unit_id in (u for u in entry.attackers if joined and unit_of(state, u).type != "armor"):
            refused.setdefault(unit_id, "is infantry, which 14.3 does not let join this attack")
    return out, refused, whole


def plural(fault: str) -> str:
    """A fault said of one division, said of several."""
    verb, _, rest = fault.partition(" ")
    return f"{ {'is': 'are', 'has': 'have', 'was': 'were', 'attacks': 'attack'}.get(verb, verb)} {rest}"


def check_attack(state: OnslaughtState, entry: Attack) -> list[Finding]:
    if entry.more_hexes:
        # 7.0: the attacking divisions attack one target hex; Onslaught has no attack on several hexes at once.
        return [finding("error", "7.0", entry, f"an attack is made on one target hex; this one names "
                                               f"{', '.join(entry.defending_hexes())}: attack each on its own")]
    out = attack_faults(state, entry)
    if out:
        return out
    result = combat_audit(state, entry)
    strengths = combat_basis(state, entry)
    # A result the reroll gives was read off the table right, for the wrong die: no modifier was misread (7.2).
    claimed = None if entry.reroll is not None and entry.result == rerolled_result(state.game, result, entry.reroll) \
        else entry.result
    misread = misread_clause(state.game, result, entry.odds, claimed)
    odds_wrong = entry.odds is not None and entry.odds != result.column
    if entry.odds is not None and entry.odds != result.column:
        if misread is not None and misread[0] == "7.5":
            out.append(finding("error", "7.5", entry, f"the odds: {misread[1]}: {result.ratio_note}, not "
                                                      f"{entry.odds}").with_basis(*strengths))
        else:
            out.append(finding("error", "7.0", entry, f"the odds: {result.ratio_note}, not {entry.odds}")
                       .with_basis(*strengths))
    if entry.result is not None and entry.result not in RESULTS:
        out.append(finding("error", "7.2", entry, f"{entry.result} is not a result of the Combat Table "
                                                  f"({', '.join(RESULTS)})"))
    if entry.die is not None and not 1 <= entry.die <= 6:
        out.append(finding("error", "7.0", entry, f"a die roll is 1 to 6, not {entry.die}"))
    elif entry.die is None:
        if entry.result is not None:
            out.append(finding("warning", "7.2", entry, f"result {entry.result} cannot be verified: no die roll "
                                                        "is recorded"))
        else:
            out.append(finding("warning", "7.2", entry, "neither a die roll nor a result is recorded: the result "
                                                        "and its effects cannot be verified"))
    elif entry.result is not None and entry.result in RESULTS and entry.result != result.result:
        said = f"column {result.column} with a modified roll of {result.modified_die} gives {result.result}, " \
               f"not {entry.result}"
        game = state.game
        assert game.crt is not None
        basis = (*strengths, crt_cell(game, result.column, result.modified_die or 0))
        if odds_wrong and entry.odds in game.crt.columns and result.modified_die is not None and \
                result_of(game, entry.odds, result.modified_die) == entry.result:
            pass  # one breach, one error: the result follows from the odds already reported
        elif misread is not None and (entry.odds is None or entry.odds == result.column or misread[0] == "7.5"):
            # 7.1 and 7.5 are the clauses misread; 7.2's table only carried the misreading through.
            out.append(finding("error", misread[0], entry, f"{misread[1]}: {said}").with_basis(*basis))
        else:
            out.append(finding("error", "7.2", entry, said).with_basis(*basis))
    elif entry.result is None:
        out.append(finding("note", "7.2", entry, f"the result is {result.result} (column {result.column}, "
                                                 f"modified roll {result.modified_die})")
                   .with_basis(*strengths, crt_cell(state.game, result.column, result.modified_die or 0)))
    return out


def combat_basis(state: OnslaughtState, entry: Attack) -> tuple[Basis, ...]:
    """The data an attack's odds and modifiers rest on: each division's combat strength (its face now), the
    defending hex's terrain (7.1, 7.5) and the hexsides attacked across (7.1, 7.5)."""
    game = state.game
    enemy = enemy_of(state, unit_of(state, entry.attackers[0]).side)
    units = [*entry.attackers, *units_at(state, entry.hex, enemy)]
    target = game.grid.hex_of(entry.hex)
    sides = [Hexside.between(h, target) for u in entry.attackers if u in state.location
             and game.grid.is_label(state.location[u]) and (h := game.grid.hex_of(state.location[u])).distance(target) == 1]
    return (*(unit_strength(game, u, "reduced" if u in state.depleted else "full", "combat") for u in units
              if u in game.units_by_id), *hex_terrain(game, [target]), *hexside_features(game, sides))


def known_result(state: OnslaughtState, entry: Attack) -> str | None:
    """The result whose effects the log must carry out: the one claimed (checked on its own,
    verify, don't correct), else the table's for the recorded die, else None."""
    if entry.result is not None:
        return entry.result if entry.result in RESULTS else None
    if entry.die is None or not 1 <= entry.die <= 6 or not units_at(state, entry.hex):
        return None
    return combat_audit(state, entry).result


def table_result(state: OnslaughtState, entry: Attack) -> str | None:
    """The table's result for an attack whose claimed result differs from it, else None."""
    if entry.result is None or entry.result not in RESULTS or entry.die is None or not 1 <= entry.die <= 6 \
            or not units_at(state, entry.hex):
        return None
    computed = combat_audit(state, entry).result
    return computed if computed != entry.result else None


def open_combat(state: OnslaughtState, entry: Attack,
                result_override: str | None = None) -> tuple[Combat, tuple[Effect, ...]]:
    """The combat an attack opens, and what its result asks of each division (7.2)."""
    result = result_override or known_result(state, entry)
    side = unit_of(state, entry.attackers[0]).side
    attackers = [u for u in dict.fromkeys(entry.attackers)
                 if unit_of(state, u).side == side and on_map(state, u) is not None]
    defenders = units_at(state, entry.hex, enemy_of(state, side))
    # Ruling 7.2 AH: a stack is the divisions of one hex that took part in this attack.
    by_hex: dict[str, list[str]] = {}
    for unit_id in attackers:
        by_hex.setdefault(state.location[unit_id], []).append(unit_id)
    stacks = [Stack(h, tuple(us), sum(combat_strength(state, u) for u in us)) for h, us in sorted(by_hex.items())]
    halving = in_force(state).depletion(state, attackers, by_hex, results.strongest_stacks(stacks)) \
        if result in ("AH", "HH") else None
    effects = results.effects_of(result, [(u, steps_left(state, u)) for u in attackers],
                                 [(u, steps_left(state, u)) for u in defenders], halving)
    combat = Combat(entry.line, entry.column, entry.hex, result, tuple(attackers), tuple(defenders), halving,
                    stacks=tuple(stacks))
    return combat, effects


def attacker_hexes(state: OnslaughtState, combat: Combat) -> list[Hex]:
    """Where the divisions that attacked now stand (those still on the map)."""
    return [h for h in (on_map(state, u) for u in combat.attackers) if h is not None]


def after_losses(state: OnslaughtState) -> OnslaughtState:
    """The position a retreat is judged in (7.3, ruling 7.2 / 7.3): without the attacking divisions the combat's result
    eliminates for certain (an HH's strongest stack, already depleted), whether or not the log has removed them yet."""
    combat = state.combat
    if combat is None or combat.result not in ("AE", "AH", "HH"):
        return state
    ways = results.open_ways(combat.halving, results.halved_hexes(combat, state.pending)) \
        if combat.halving is not None else ()
    # Halved for certain: its stack is in every way of carrying out the AH still open (7.2; 14.1's two stacks).
    doomed = [e.unit for e in state.pending if not e.defends and e.steps <= e.loss and on_map(state, e.unit)
              and (combat.result == "AE" or (ways and all(any(e.unit in s.units for s in way) for way in ways)))]
    return replace(state, location={**state.location, **{u: "" for u in doomed}}) if doomed else state


def retreat_options_of(state: OnslaughtState, combat: Combat) -> results.Options:
    """Where the defenders of a combat may retreat now (7.3), the attackers its result eliminates gone."""
    if not combat.defenders:
        return [], []
    side = unit_of(state, combat.defenders[0]).side
    state = after_losses(state)
    return retreat_options(state, state.game.grid.hex_of(combat.hex), side,
                                attacker_hexes(state, combat))


def apply_attack(state: OnslaughtState, entry: Attack) -> OnslaughtState:
    """An attack opens its combat (7.0, 7.2); in a Combat action its group is committed to the hex (5.4)."""
    # What the rules refuse of the attack, judged as the check judged it (before the attack is recorded).
    could, (_, refused, whole) = attack_without_refused(state, entry), refusal(state, entry)
    state = record_sequence(state, "attack", entry.attackers)
    if state.action is not None and state.action.type == "combat":
        # 5.4: the stacks activated together since the last attack are committed to this hex;
        # ruling 7.0: a group of one stack is not, its divisions may attack different hexes.
        group = state.action.group | (set(entry.attackers) & state.action.activated)
        committed = group if state.action.group_stacks > 1 else frozenset()
        targets = {**{u: entry.hex for u in committed}, **state.action.targets}
        state = replace(state, action=replace(state.action, group=frozenset(), targets=targets, group_stacks=0))
    combat, pending = open_combat(state, entry)
    # One breach, one error: after a wrongly claimed result the players may carry out the claim
    # or the table's result; both are followed until an entry parts them.
    correct = table_result(state, entry)
    alternative = open_combat(state, entry, correct) if correct is not None else None
    owed = known_result(state, could) if could is not None else None
    if could is not None and owed is not None:
        # Ruling 7.0: a division that cannot reach the hex (7.0's one error) adds no strength and takes no loss:
        # the table's result for the others is what is owed; the claim (or the result as written) is followed too.
        without = open_combat(state, could, owed)
        alternative = without if without != (combat, pending) else None
    if could is None and (whole or refused):
        # Ruling 7.0: an attack the rules refuse (its one error) owes nothing; its result may still be carried out.
        alternative = open_combat(state, entry, "-")
    # Ruling 7.0: divisions the rules refused did not attack; they may attack lawfully later in the action.
    attacked = set() if whole else set(entry.attackers) - set(refused)
    lone = set(entry.attackers) - state.action.activated if state.action is not None else set()
    hexes = {where for u in lone if (where := state.location.get(u)) is not None}
    done = replace(state.action_log, attacked=state.action_log.attacked | attacked,
                   unactivated=state.action_log.unactivated | lone,
                   unactivated_from=state.action_log.unactivated_from | hexes)
    return replace(state, action_log=done, combat=combat, pending=pending, alternative=alternative)

