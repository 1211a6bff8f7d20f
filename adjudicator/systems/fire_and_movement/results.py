"""Fire & Movement combat results carried out (8.2.4, 8.3-8.5): what a result asks of each unit,
and what is still owed when the combat's entries end.

An attack whose result is known opens a combat; the entries right after it (losses, retreats,
stiff resistance, advances) carry it out. Rulings (docs/rules-coverage.md keeps the register):

- 8.2.4, Ex and (A): the attacker picks the one attacking unit that is reduced; the log shows the
  choice by the loss it writes, and a second attacker's loss is not due.
- 8.3, a retreat's length: it ends exactly the result's number of hexes from the combat hex
  (8.3's "the number of hexes away required"), entering one hex per hex of distance; a shorter
  retreat is legal only when no full one is open that ends in a hex no other friendly unit holds,
  and then the unit is also reduced (8.3), in the last hex it can legally reach: it goes as far as
  it can without displacing anybody (`Retreats.retreat_reach`), or ends on a friend to displace it.
- 8.3, vacant hexes: a path through a friendly unit's hex is legal only when no path of vacant
  hexes is open; ending on a friendly unit is displacement (8.3.1), written as that unit's own
  one-hex `retreat` right after, and only when no retreat ending in a hex without one is open.
- 8.3.1, a chain: a displaced unit with no vacant hex open to it may be displaced onto a lone
  friendly unit, which is then displaced in turn, and so on until no hex holds two.
- 8.3.1, declining: displacement is voluntary; a unit that could retreat further only by displacing
  a friendly unit may instead be reduced, where it stands or in the last hex it reaches without
  displacing (`RetreatRoom` "displacing").
- 8.4, stiff resistance: written `stand`; it implies the reduction (a reduced or one-step unit is
  eliminated), as Onslaught's `stand` does.
- 8.5, the path of retreat: the combat hex and the hexes a defender retreated through, in order;
  an advance follows it from the start and ends anywhere on it, one unit a hex.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from wargame.records import frozen

DEFENDER_RETREATS = {"D2": 2, "D3": 3}
ATTACKER_RETREATS = {"A1": 1, "A2": 2, "A3": 3}
ONE_ATTACKER_REDUCED = ("Ex", "(A)")

Part = Literal["loss", "retreat"]
"""What a part of a result asks of a unit: a step lost, or a retreat (stiff resistance answering it instead)."""

RetreatRoom = Literal["full", "displacing", "short", "none"]
"""How far a unit owing a retreat can go (8.3, 8.3.1): "full", a full retreat ending in a hex no other friendly
unit holds is open; "displacing", it could go farther only by ending on a friendly unit, so it may displace that
unit or decline and be reduced instead; "short", only a shorter retreat is open (then reduced); "none", no
retreat of even one hex (eliminated)."""


@frozen
class SpecialAttack:
    """A folio's own kind of attack, resolved on the series' table with consequences of its own: no defender and no
    advance, no retreats, and a retreat result reducing every attacking unit instead (a folio names it, e.g. Omaha's
    beach assault, 11.2.3): the series knows no folio's rules, only this shape."""

    name: str
    """How messages name it ("beach assault")."""
    section: str
    """The folio's section that makes it."""


@frozen
class AttackFault:
    """Why the rules refuse an attacking unit (8.2, 4.1, 8.3.1, 8.5, a folio's clause), said of one unit or of several
    with the same fault (one finding naming them all)."""

    section: str
    one: str
    """Said of one unit ("is not adjacent to 2117")."""
    many: str
    """Said of several ("are not adjacent to 2117")."""


@frozen
class Owed:
    """A part of a known result the log has not carried out (8.2.4-8.4)."""

    section: str
    message: str
    part: Part


@frozen
class FmCombat:
    """An attack whose effects the following entries carry out."""

    line: int
    column: int
    hex: str
    result: str | None
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    steps: tuple[tuple[str, int], ...]
    """Each participant's steps when the combat began: 2 full, 1 reduced or one-step."""
    lost: tuple[tuple[str, int], ...] = ()
    """Steps each participant has lost since."""
    retreated: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each participant's retreat path, in the order logged (8.5 follows the defenders')."""
    displaced: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each unit displaced by this combat's retreats and its one-hex path, in the order logged (8.3.1: a displaced
    unit may displace another in turn)."""
    stood: frozenset[str] = frozenset()
    """Units that declared stiff resistance (8.4)."""
    cut_short: frozenset[str] = frozenset()
    """Units that retreated fewer hexes than due when no full retreat was open: 8.3 reduces them in
    the last hex (a short retreat with a full one open is an error on its entry, and owes nothing more)."""
    advanced: tuple[tuple[str, str], ...] = ()
    """Advancing units and the hex each ended in (8.5: one unit a hex)."""
    bombardment: bool = False
    """A bombardment (8.1): no advance; its retreats go away from the closest enemy (8.1.5)."""
    special: SpecialAttack | None = None
    """A folio's own kind of attack (no defender; a retreat result reduces every attacking unit), None for 8.2's."""
    table: str | None = None
    """The table's result for the die when the log claimed another (one error on the attack): the
    entries after it may carry out either, and neither way is a second error (one breach, one error)."""
    table_attackers: tuple[str, ...] | None = None
    """The attackers of the table's result when the log named units not next to the hex (8.2's one error on the
    attack): they add nothing to it and take no part in it."""
    refused: bool = False
    """An attack the rules refuse outright (its one error is on the attack: out of its phase, on several hexes or an
    empty one, a defender attacked already, no attacking unit the rules let attack): nothing of its result is owed,
    though the log may carry it out (judged as any result)."""
    misdirected: tuple[tuple[Part, int], ...] = ()
    """The line of the first entry that carried out a part of the result (a loss; a retreat or stiff resistance)
    wrongly, by part: for a unit that owed no such part, or a retreat written from a hex the unit is not in. Its one
    error is there, and the same part still owed is a note (one decision, which unit carries the result out and
    how, went wrong)."""

    def as_table_says(self) -> FmCombat | None:
        """The combat with the table's result instead of the claimed one, when they differ (or its attackers do)."""
        if self.table is None:
            return None
        return replace(self, result=self.table, table=None, attackers=self.table_attackers or self.attackers,
                       table_attackers=None)

    @property
    def name(self) -> str:
        """How messages name the attack (or bombardment)."""
        what = ("bombardment of" if self.bombardment else f"{self.special.name} on" if self.special is not None
                else "attack on")
        return f"the {what} {self.hex} (line {self.line})"

    @property
    def verdict(self) -> str:
        """How messages name the attack with its result."""
        return f"the result {self.result} of {self.name}" if self.result is not None else \
            f"{self.name}, whose result is not recorded,"

    def steps_of(self, unit: str) -> int:
        """A participant's steps when the combat began."""
        return dict(self.steps).get(unit, 0)

    def lost_by(self, unit: str) -> int:
        """Steps a participant has lost in this combat."""
        return dict(self.lost).get(unit, 0)

    def retreat_of(self, unit: str) -> tuple[str, ...] | None:
        """The path a participant retreated along, if it did."""
        return dict(self.retreated).get(unit)

    def may_retreat_unknown(self, unit: str) -> bool:
        """Whether a participant may retreat after a combat whose result is not recorded (no die, no claim): a
        defender (D2, D3), or an attacker of a ground combat (A1-A3); never in a folio's own attack."""
        return self.result is None and self.special is None and \
            (unit in self.defenders or unit in self.attackers and not self.bombardment)

    def retreat_due(self, unit: str) -> int:
        """Hexes the result makes a participant retreat (0 for none)."""
        if self.special is not None:
            return 0  # a folio's own attack: its attacking units are reduced instead (Omaha 11.2.3)
        if self.result in DEFENDER_RETREATS and unit in self.defenders:
            return DEFENDER_RETREATS[self.result]
        if self.result in ATTACKER_RETREATS and unit in self.attackers:
            return ATTACKER_RETREATS[self.result]
        return 0

    def loss_due(self, unit: str) -> int:
        """Steps the result itself takes from a participant, before retreats (8.2.4)."""
        steps = self.steps_of(unit)
        if self.special is not None and unit in self.attackers and self.result in (*DEFENDER_RETREATS,
                                                                                     *ATTACKER_RETREATS):
            return 1  # a retreat result reduces every attacking unit (Omaha 11.2.3; 8.3: seaborne units reduce)
        if self.result == "De" and unit in self.defenders or self.result == "Ae" and unit in self.attackers:
            return steps
        if self.result == "Ex" and unit in self.defenders:
            return 1
        if self.result in ONE_ATTACKER_REDUCED and unit in self.attackers:
            chosen = self.chosen()
            return 1 if chosen is None or chosen == unit else 0
        return 0

    def chosen(self) -> str | None:
        """The attacking unit the attacker reduced for an Ex or (A), once the log shows it."""
        return next((u for u in self.attackers if self.lost_by(u) > 0), None)

    def owes(self, unit: str, part: Part) -> bool:
        """Whether the result may ask this part of a unit (a retreat of any participant when it is not recorded)."""
        if part == "retreat":
            return bool(self.retreat_due(unit)) or self.may_retreat_unknown(unit)
        if unit in self.attackers and self.result in ONE_ATTACKER_REDUCED:
            return True  # any of them, until the attacker has chosen (8.2.4); a second one's loss is an excess
        return self.result is None and unit in (*self.attackers, *self.defenders) or bool(self.loss_due(unit)) or \
            bool(self.retreat_due(unit))  # 8.3: a retreat cut short, or declined, costs a step

    def misdirect(self, unit: str, part: Part, line: int) -> FmCombat:
        """The combat after an entry on `line` carried out `part` of it for `unit`: remembered when the unit owes no
        such part, in the claimed result or the table's (the first such entry of each part)."""
        table = self.as_table_says()
        if self.owes(unit, part) or table is not None and table.owes(unit, part):
            return self
        return self.miscarried(part, line)

    def miscarried(self, part: Part, line: int) -> FmCombat:
        """The combat after an entry on `line` carried out `part` of it wrongly (its one error there): the first such
        entry of each part is remembered."""
        if any(p == part for p, _ in self.misdirected):
            return self
        return replace(self, misdirected=(*self.misdirected, (part, line)))

    def misdirected_at(self, part: Part) -> int | None:
        """The line of the first entry that carried out `part` for a unit owing none of it."""
        return next((line for p, line in self.misdirected if p == part), None)

    def with_loss(self, unit: str, steps: int) -> FmCombat:
        """The combat after a participant lost `steps` more."""
        lost = dict(self.lost)
        lost[unit] = lost.get(unit, 0) + steps
        return replace(self, lost=tuple(sorted(lost.items())))


def arrival_ends(location: Mapping[str, str], combat: FmCombat, unit_id: str) -> frozenset[str]:
    """The hexes where another unit's retreat or displacement in this combat ended and that unit still stands:
    the hexes a unit may be displaced from (8.3.1, a chain included)."""
    return frozenset(path[-1] for u, path in (*combat.retreated, *combat.displaced)
                     if u != unit_id and location.get(u) == path[-1])


def to_displace(location: Mapping[str, str], combat: FmCombat) -> list[str]:
    """The units still standing where a retreat or displacement of the combat ended, which 8.3.1 moves on (no
    enemy unit stands there: a retreat never enters one's hex, 8.3)."""
    return [unit_id for unit_id, where in sorted(location.items()) if where in arrival_ends(location, combat, unit_id)]


def outstanding(combat: FmCombat, room: dict[str, RetreatRoom]) -> list[Owed]:
    """Every part of a known result the log has not carried out; how far each unit still owing a retreat can go
    decides what it owes."""
    out: list[Owed] = []
    if combat.result is None or combat.refused:
        return out
    # A retreat the result does not call for, made instead of its loss, is one error on that retreat: the players
    # carried on from it, so the loss it replaced is not owed again (as a loss taken instead of a retreat, 8.3).
    strayed = {u for u, _ in combat.retreated if not combat.retreat_due(u)}
    if combat.result in ONE_ATTACKER_REDUCED and combat.chosen() is None and combat.attackers and \
            strayed.isdisjoint(combat.attackers):
        if combat.bombardment:
            # 8.1.3: a bombardment's (A) falls on a unit of the bombarding side next to the hex bombarded.
            out.append(Owed("8.1.3", f"{combat.verdict} is not carried out: one unit of the bombarding side next to "
                                     f"{combat.hex}, of its owner's choice ({', '.join(combat.attackers)}), must be "
                                     "reduced", "loss"))
        else:
            out.append(Owed("8.2.4", f"{combat.verdict} is not carried out: one attacking unit, of the attacker's "
                                     f"choice ({', '.join(combat.attackers)}), must be reduced", "loss"))
    for unit in (*combat.attackers, *combat.defenders):
        steps, lost = combat.steps_of(unit), combat.lost_by(unit)
        if lost >= steps or unit in strayed:
            continue
        if combat.result in ONE_ATTACKER_REDUCED and unit in combat.attackers:
            continue
        due = combat.loss_due(unit)
        retreat = combat.retreat_due(unit)
        if retreat and unit not in combat.stood and combat.retreat_of(unit) is None:
            hexes = f"{retreat} hex{'es' if retreat > 1 else ''}"
            kind = room.get(unit, "none")
            if kind == "displacing" and lost >= min(due + 1, steps):
                continue  # 8.3.1: reduced where it stands instead of displacing a friendly unit
            if kind in ("full", "short") and lost > due:
                continue  # a step lost instead of the retreat it could make: one error, on that loss's entry
            if kind == "full":
                out.append(Owed("8.3", f"{combat.verdict} is not carried out: {unit} must retreat {hexes} or "
                                       "declare stiff resistance (8.4)", "retreat"))
            elif kind == "displacing":
                out.append(Owed("8.3", f"{combat.verdict} is not carried out: {unit} can retreat farther only by "
                                       "displacing a friendly unit; it displaces one (8.3.1), or declines and is "
                                       "reduced, where it stands or in the last hex it reaches without displacing "
                                       "(8.3), or declares stiff resistance (8.4)", "retreat"))
            elif kind == "short":
                out.append(Owed("8.3", f"{combat.verdict} is not carried out: {unit} cannot retreat {hexes}, so it "
                                       "retreats as far as it can and is reduced there (or declares stiff resistance)",
                                "retreat"))
            else:
                out.append(Owed("8.3", f"{combat.verdict} is not carried out: {unit} cannot retreat even one hex, so "
                                       "it is eliminated (or declares stiff resistance)", "retreat"))
            continue
        path = combat.retreat_of(unit)
        if unit in combat.cut_short and path is not None:
            # 8.3: a unit that could not retreat the full number of hexes is reduced in the last hex it
            # reached (eliminated if reduced or one-step); the retreat itself was judged on its entry.
            if lost < min(due + 1, steps):
                fate = "eliminated" if due + 1 >= steps else "reduced"
                out.append(Owed("8.3", f"{combat.verdict} is not carried out: {unit} retreated {len(path) - 1} of "
                                       f"the {retreat} hexes, so it must be {fate} in {path[-1]}", "loss"))
            continue
        if lost < due:
            fate = "eliminated" if due >= steps else "reduced"
            out.append(Owed("8.2.4", f"{combat.verdict} is not carried out: {unit} must be {fate}", "loss"))
    return out
