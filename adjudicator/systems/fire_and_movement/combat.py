"""Fire & Movement ground combat arithmetic (8.2.1-8.2.3): totals, differential, terrain line, result.

Pure functions over the game's data; the rule system asks them for each attack and for
`adjudicate combat`. Rulings (docs/rules-coverage.md keeps the register):

- 8.2.2, the line "most beneficial to the defender": the line whose column for this differential
  is furthest left (the left columns are the attacker's worst), among the lines of the
  defender's hex terrain and, when every attacker crosses a river, ditch or canal hexside, that
  hexside's line; when every attacker crosses such a hexside and at least one of them crosses a
  bridge, the bridge's line replaces the river's.
- 8.2.3, fortifications: hexes with `fortification` terrain double the defender's printed
  defence and halve (rounding down) each attacking support marker; Omaha has none.
- The differential outside a line's cells: below its lowest, its first column; above its
  highest, its last filled column (the table's notes).
- A wrong claim that is what the arithmetic gives with one modifier left out (the fortification's
  doubling and halving, a folio's change to marker values, the defender's terrain) breaks the
  clause that sets that modifier (8.2.3, Omaha 15.0, 8.2.2 or 8.1.4), not the reading of the table;
  so does one that is what a modifier applied where its condition does not hold gives (a river's
  line with an attacker not across it, or across it over a bridge: 8.2.2; a folio's change to
  marker values where its condition fails: Omaha 15.0's halving with no AA/Flak unit near).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from adjudicator.systems.base import PerGame
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen

Modifier = Literal["fortification", "marker values", "terrain", "river line", "marker change"]
"""A modifier of the arithmetic a claim may have misread: left out (8.2.3's doubling and halving, a folio's
change to marker values (Omaha 15.0), the defender's terrain line (8.2.2, 8.1.4)) or applied where its
condition does not hold (a river-like hexside's line, 8.2.2; the folio's change to marker values)."""
MODIFIERS: tuple[Modifier, ...] = ("fortification", "marker values", "terrain", "river line", "marker change")

Clause = TypeVar("Clause")
"""How a caller names a modifier's clause (a section, or a section with the words that say it)."""

RIVER_LIKE = ("river", "ditch", "canal")
"""8.2.2: hexsides whose line counts only when every attacker crosses one."""


@frozen
class Support:
    """A support fire marker placed on a combat (7.2, 8.2.1 b)."""

    id: str
    side: str
    value: int
    applied: int
    """The value counted: halved, rounding down, for an attacker's marker on a fortification (8.2.3)."""


@dataclass
class FmAudit:
    """The whole arithmetic of one ground attack."""

    attack: int
    defence: int
    differential: int
    line: str
    column: str
    die: int | None = None
    result: str | None = None
    lines: list[str] = field(default_factory=list)


def _value_indexes(game: Game) -> tuple[int, int, int]:
    """Where attack, defence and movement stand in a unit's printed values."""
    names = list(game.manifest.value_names)
    return names.index("attack"), names.index("defence"), names.index("movement")


VALUE_INDEXES: PerGame[tuple[int, int, int]] = PerGame(_value_indexes)
"""Each game's `_value_indexes` (asked for every unit of every combat)."""


def unit_values(game: Game, unit_id: str, depleted: bool) -> tuple[int, int, int]:
    """A unit's attack, defence and movement, depleted or not."""
    unit = game.units_by_id[unit_id]
    values = unit.reduced if depleted and unit.reduced else unit.full
    attack, defence, movement = VALUE_INDEXES(game)
    return values[attack], values[defence], values[movement]


def _crt_lines(game: Game) -> dict[str, list[tuple[str, list[int]]]]:
    """Each terrain line of the combat table as its filled columns with the differentials they take."""
    assert game.crt is not None
    return {line.id: [(column, [int(v) for v in cell.split(",")]) for column, cell in zip(game.crt.columns, line.cells)
                      if cell] for line in reversed(game.crt.line)}  # reversed: a repeated id's first line wins


CRT_LINES: PerGame[dict[str, list[tuple[str, list[int]]]]] = PerGame(_crt_lines)
"""Each game's combat table lines, read once (every attack and bombardment asks of them)."""


def column_on_line(game: Game, line_id: str, differential: int) -> str:
    """The column a differential falls in on a terrain line (8.2.1 d, the table's notes)."""
    filled = CRT_LINES(game)[line_id]
    for column, values in filled:
        if differential in values:
            return column
    if differential < min(filled[0][1]):
        return filled[0][0]
    return filled[-1][0]


def defender_lines(game: Game, target: Hex, attacker_hexes: Sequence[Hex]) -> tuple[list[str], str]:
    """The terrain lines that may apply to a defender (8.2.2), and why."""
    terrain = game.terrain
    lines = [terrain[t].crt_line for t in game.hex_terrain.get(target, ()) if terrain[t].crt_line]
    why = f"hex terrain {', '.join(game.hex_terrain.get(target, ()))}"
    crossings = [game.hexside_features.get(Hexside.between(h, target), frozenset()) for h in attacker_hexes
                 if h.is_adjacent(target)]
    if crossings and all(any(f in features for f in RIVER_LIKE) for features in crossings):
        if any("bridge" in features for features in crossings):
            if "bridge" in terrain and terrain["bridge"].crt_line:
                lines.append(terrain["bridge"].crt_line)
            why += "; every attacker across a river, one over a bridge"
        else:
            kinds = sorted({f for features in crossings for f in features if f in RIVER_LIKE})
            # Attackers across different kinds (a river and a canal): each kind's line may apply, and 8.2.2's
            # "most beneficial to the defender" chooses among them with the hex's own.
            lines += [terrain[k].crt_line for k in kinds if k in terrain and terrain[k].crt_line]
            why += f"; every attacker across {' or '.join(kinds)}"
    return sorted(set(line for line in lines if line)), why


def unmet_river_lines(game: Game, target: Hex, attacker_hexes: Sequence[Hex]) -> tuple[list[str], str] | None:
    """The lines a defender would have with a river-like hexside's line counted where 8.2.2's condition does
    not hold (some attacker not across one, or the river's line in place of a bridge's), and why; None when
    no attacker crosses one or the condition holds."""
    terrain = game.terrain
    crossings = [game.hexside_features.get(Hexside.between(h, target), frozenset()) for h in attacker_hexes
                 if h.is_adjacent(target)]
    kinds = sorted({f for features in crossings for f in features if f in RIVER_LIKE})
    river_lines = {line for k in kinds if k in terrain and (line := terrain[k].crt_line)}
    if not river_lines:
        return None
    if not all(any(f in features for f in RIVER_LIKE) for features in crossings):
        why = f"the {' or '.join(kinds)}'s line counts only when every attacker crosses one"
    elif any("bridge" in features for features in crossings):
        why = f"with an attacker over a bridge the bridge's line replaces the {' or '.join(kinds)}'s"
    else:
        return None
    hex_lines = [terrain[t].crt_line for t in game.hex_terrain.get(target, ()) if terrain[t].crt_line]
    return sorted({*(line for line in hex_lines if line), *river_lines}), why


def audit(game: Game, target: Hex, attackers: Sequence[tuple[str, Hex, int]], defenders: Sequence[tuple[str, int]],
          supports: Sequence[Support], fortified: bool, die: int | None, attacker_side: str,
          lines: Sequence[str] | None = None, lines_why: str = "") -> FmAudit:
    """The arithmetic of a ground attack, or of a bombardment (no attacking units, 8.1.2): units and
    markers summed, the differential, the line best for the defender, the column and, with a die,
    the result (8.1.2, 8.2.1-8.2.3); `lines` and `lines_why`: a folio's own lines for its own attack."""
    assert game.crt is not None
    attack_units = sum(strength for _, _, strength in attackers)
    defence_units = sum(strength for _, strength in defenders) * (2 if fortified else 1)
    attack_support = sum(s.applied for s in supports if s.side == attacker_side)
    defence_support = sum(s.applied for s in supports if s.side != attacker_side)
    attack, defence = attack_units + attack_support, defence_units + defence_support
    differential = attack - defence
    if lines is None:
        found, why = defender_lines(game, target, [h for _, h, _ in attackers])
    else:
        found, why = list(lines), lines_why
    lines = found
    columns = list(game.crt.columns)
    by_line = {line: column_on_line(game, line, differential) for line in lines}
    best = min(lines, key=lambda line: (columns.index(by_line[line]), line)) if lines else "clear"
    column = by_line.get(best) or column_on_line(game, best, differential)
    out = FmAudit(attack, defence, differential, best, column, die)
    names = {line.id: line.name for line in game.crt.line}
    if attackers:
        out.lines.append(f"attack {attack_units} (" + " + ".join(f"{u} {s}" for u, _, s in attackers) + ")"
                         + (f" + support {attack_support}" if attack_support else "") + f" = {attack}")
    else:
        out.lines.append(f"bombardment: support {attack_support} (8.1.2: markers only)")
    out.lines.append(f"defence {defence_units} (" + " + ".join(f"{u} {s}" for u, s in defenders) + ")"
                     + (" doubled in a fortification (8.2.3)" if fortified else "")
                     + (f" + support {defence_support}" if defence_support else "") + f" = {defence}")
    if supports:
        out.lines.append("support markers: " + ", ".join(
            f"{s.id} ({s.side} +{s.value}" + (f", halved to +{s.applied}" if s.applied != s.value else "") + ")"
            for s in supports))
    out.lines.append(f"differential {differential:+d}; {why}: line {names.get(best, best)}, column {column} (8.2.2)")
    if die is not None and 1 <= die <= 6:
        out.result = game.crt.results[list(game.crt.die_rolls).index(die)][columns.index(column)]
        out.lines.append(f"die {die}: result {out.result}")
    return out


def modifier_left_out(claimed_differential: int | None, claimed_result: str | None, truth: FmAudit,
                      variants: Sequence[tuple[Clause, FmAudit]],
                      effect: Callable[[str | None], str | None] = lambda result: result) -> Clause | None:
    """The clause of the one modifier whose misreading (left out, or applied where its condition does not
    hold) gives a wrong claim (the differential or the result the arithmetic contradicts), or None:
    `variants` pairs each clause with the arithmetic so misread; `effect` is what a table result does (a
    bombardment's no effects, 8.1.3)."""
    def readings(audit: FmAudit) -> set[str | None]:
        return {audit.result, effect(audit.result)}
    wrong = (claimed_differential is not None and claimed_differential != truth.differential) or \
        (claimed_result is not None and claimed_result not in readings(truth))
    if not wrong:
        return None
    for section, variant in variants:
        if claimed_differential is not None and claimed_differential != variant.differential:
            continue
        if claimed_result is not None and claimed_result not in readings(variant):
            continue
        return section
    return None


def claimed_differential(odds: str | None) -> int | None:
    """A claimed differential as a number (None when none is written or it does not read as one)."""
    if odds is None or not odds.lstrip("+").lstrip("-").isdigit() or ":" in odds:
        return None
    return int(odds.lstrip("+"))
