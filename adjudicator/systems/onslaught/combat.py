"""Onslaught combat arithmetic (7.0, 7.1, 7.5): odds, modifiers, the table's result.

Used by the replay to check an attack's claims, and by `adjudicate combat` to explain one
disputed combat step by step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from wargame.game import Game
from wargame.hexes import Hex, Hexside


@dataclass(frozen=True)
class Modifier:
    """One die-roll modifier of 7.1 and why it applies."""

    value: int
    section: str
    why: str


@dataclass(frozen=True)
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

    @property
    def total_modifier(self) -> int:
        """Sum of the modifiers (7.1: cumulative)."""
        return sum(m.value for m in self.modifiers)


def odds_column(game: Game, attack: int, defence: int) -> tuple[str, str]:
    """The table column of an attack (7.0: ratio rounded down to a listed column)."""
    assert game.crt is not None
    columns = list(game.crt.columns)

    def value(column: str) -> Fraction:
        a, d = column.split(":")
        return Fraction(int(a), int(d))

    if defence <= 0:
        return columns[-1], "a defence of zero attacks on the best column (ruling for 7.3)"
    ratio = Fraction(attack, defence)
    usable = [c for c in columns if value(c) <= ratio]
    if not usable:
        return columns[0], f"{attack}:{defence} is below the lowest column, so {columns[0]} (table note)"
    column = max(usable, key=value)
    exact = value(column) == ratio
    return column, f"{attack}:{defence} {'is' if exact else 'rounds down to'} {column}"


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
    return CombatAudit(attack, defence, doubled, column, ratio_note, modifiers, die, modified, result, lines)
