"""The entries of a move log, shared by the text notation and its JSON twin.

Every claim (supply paid, odds, die roll, result) is optional: written, it is checked; left
out, it is computed and reported. `by_opponent` marks a decision the other player made during
the mover's turn (retreat paths, losses, standing fast), so one file per exchange is complete.
"""

from __future__ import annotations

from dataclasses import field, fields, replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from wargame.constraints import FORBID_EXTRA, Ge, MinLen, Pattern
from wargame.records import Frozen, record

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

MAX_RECEIPT_LENGTH = 4096
"""The longest dice receipt a log may hold (a real one is a few hundred characters)."""

# The closed choices of some entries, named so that the parser can say it read one of them.
ActivationOrder = Literal["move-first", "attack-first"]
LossHow = Literal["deplete", "eliminate", "remove"]
PlaceHow = Literal["reinforce", "replace", "paradrop", "pickup", "setup", "delay"]
Strength = Literal["full", "reduced"]
MarkersHow = Literal["draw", "aside", "lose"]

# A dice receipt of the ledger service in its one-line form (wargame/receipts.py, docs/ledger.md).
ReceiptToken = Annotated[str, Pattern(r"^umpire1\.[A-Za-z0-9_-]+$", max_length=MAX_RECEIPT_LENGTH)]


@record
class Entry(Frozen):
    """Base of every entry: where it stands in the log and who makes it."""

    __pydantic_config__ = FORBID_EXTRA

    line: Annotated[int, Ge(0)] = 0
    column: Annotated[int, Ge(1)] = 1
    side: str | None = None
    by_opponent: bool = False

    # Equality, hash and repr are the dataclass's own, written once here rather than generated for each of the
    # twenty kinds: generating them was a sixth of the cost of importing the entries (issue 30, start-up).
    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in field_names(type(self)))
        return f"{type(self).__qualname__}({shown})"

    def acting_units(self) -> list[str]:
        """The units the entry acts with (each must exist, and be its author's): none but for the kinds below."""
        return []

    def decided_by_owner(self) -> list[str]:
        """The units whose owner alone decides the entry: none but for the kinds below."""
        return []

    # What the engine asks of an entry instead of testing its class (issue 25): each kind answers for itself.
    @property
    def is_comment(self) -> bool:
        """Whether the entry is a comment: kept, never checked, no part of play."""
        return False

    @property
    def may_leave_map(self) -> bool:
        """Whether its path may step off the map's edge, a rule question rather than a typo (a move or retreat)."""
        return False

    def path_hexes(self) -> tuple[str, ...]:
        """The hex labels of its path, start hex first: none but for a move, retreat or advance."""
        return ()

    def relocated_unit(self) -> str | None:
        """The unit it puts in a hex of its owner's choosing along its path (a move, retreat or advance), else None."""
        return self.acting_units()[0] if self.path_hexes() else None

    def sides_named(self) -> list[str]:
        """Every side the entry names: its author, and the sides of a roll-off."""
        return [self.side] if self.side else []

    def named_ids(self) -> list[tuple[str, str]]:
        """('unit' | 'hex', value) of every id the entry names, in the order written (resolved against the game)."""
        unit = self.relocated_unit()
        return [("unit", unit), *(("hex", h) for h in self.path_hexes())] if unit is not None else []

    def attacked_hexes(self) -> tuple[str, ...]:
        """The hexes an attack or a bombardment is made on: none for another kind."""
        return ()

    def claims_victory(self) -> bool:
        """Whether it claims the victory that decided the game (`declare victory`)."""
        return False

    def as_header(self) -> Header | None:
        """The entry as a header, else None."""
        return None

    def as_turn_marker(self) -> TurnMarker | None:
        """The entry as a `Turn` marker, else None."""
        return None

    def as_step_marker(self) -> StepMarker | None:
        """The entry as a step or phase marker, else None."""
        return None

    def as_attack(self) -> Attack | None:
        """The entry as an attack, else None."""
        return None

    def as_roll_off(self) -> RollOff | None:
        """The entry as a roll-off, else None."""
        return None

    def as_combat(self) -> Attack | Bombard | None:
        """The entry as an attack or a bombardment (what a combat audit accounts for), else None."""
        return None

    def counter_effects(self) -> list[tuple[str, tuple[str, ...]]]:
        """(unit, effect) of what it does to its units' counters: ("at", place), ("deplete",), ("stand",)..."""
        unit = self.relocated_unit()
        return [(unit, ("at", self.path_hexes()[-1]))] if unit is not None else []

    def restored_in_place(self) -> tuple[str, str] | None:
        """(unit, hex) of a replacement restoring a unit to full strength in a hex, else None."""
        return None


@record
class Header(Entry):
    """A `[Key "value"]` header line: Game, Scenario, Optional, a side's player, DiceSeed..."""

    kind: Literal["header"] = "header"
    key: str
    value: str

    def as_header(self) -> Header:
        return self


@record
class TurnMarker(Entry):
    """`Turn N`: a new game turn begins."""

    kind: Literal["turn"] = "turn"
    turn: Annotated[int, Ge(0)]

    def as_turn_marker(self) -> TurnMarker:
        return self


@record
class StepMarker(Entry):
    """`Step ID` or `Phase ID`: a step (Onslaught) or phase (Fire & Movement) begins."""

    kind: Literal["step"] = "step"
    step: str

    def as_step_marker(self) -> StepMarker:
        return self


@record
class RollOff(Entry):
    """`Roll Allied 5 German 4`: the action-step die roll-off (Onslaught 5.0)."""

    kind: Literal["rolloff"] = "rolloff"
    rolls: Annotated[dict[str, int], MinLen(1)]
    receipts: list[ReceiptToken] = field(default_factory=list)

    def sides_named(self) -> list[str]:
        """Its author, then each side rolling."""
        return [*super().sides_named(), *self.rolls]

    def as_roll_off(self) -> RollOff:
        return self


def logged_dice(entry: Entry) -> list[int]:
    """The die rolls an entry records, in the order its receipts are written (none without one)."""
    roll, combat = entry.as_roll_off(), entry.as_combat()
    if roll is not None:
        return list(roll.rolls.values())
    return [combat.die] if combat is not None and combat.die is not None else []


@record
class Action(Entry):
    """`Allied: action movement [supply N]`: an action of a type, optionally the supply it cost."""

    kind: Literal["action"] = "action"
    action: str
    supply: Annotated[int, Ge(0)] | None = None


@record
class Pass(Entry):
    """`Allied: pass`."""

    kind: Literal["pass"] = "pass"


@record
class Activate(Entry):
    """`Allied: activate HEX [units...] [supply N]`: a stack is activated."""

    kind: Literal["activate"] = "activate"
    hex: str
    units: list[str] = field(default_factory=list)
    supply: Annotated[int, Ge(0)] | None = None
    order: ActivationOrder | None = None

    def named_ids(self) -> list[tuple[str, str]]:
        """Its units, then its hex."""
        return [*(("unit", u) for u in self.units), ("hex", self.hex)]


class _AlongPath(Entry):
    """What a move, retreat or advance answers alike: its one unit, moved along its path by its owner alone (no
    fields of its own, so each kind's fields and their order are its dataclass's)."""

    if TYPE_CHECKING:
        unit: str
        path: list[str]

    def acting_units(self) -> list[str]:
        """The unit it acts with."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """Its unit: the owner alone moves, retreats, advances or places it."""
        return [self.unit]

    def path_hexes(self) -> tuple[str, ...]:
        """Its path."""
        return tuple(self.path)


class _OffMapPath(_AlongPath):
    """A move or retreat, whose path may step off the map's edge (a rule question, not a typo)."""

    @property
    def may_leave_map(self) -> bool:
        """It may."""
        return True


@record
class Move(_OffMapPath):
    """`UNIT [strategic] HEX-HEX-...`: a unit moves along a path (start hex first)."""

    kind: Literal["move"] = "move"
    unit: str
    path: Annotated[list[str], MinLen(1)]
    strategic: bool = False


@record
class Attack(Entry):
    """`Allied: attack HEX[+HEX...] with UNITS [odds A:B|diff +N] [die N [reroll N]] [result R] [defender UNIT]`."""

    kind: Literal["attack"] = "attack"
    hex: str
    more_hexes: list[str] = field(default_factory=list)
    """The further hexes of one attack on several hexes (`attack 0302+0303 with ...`), where the rules allow it."""
    attackers: Annotated[list[str], MinLen(1)]
    odds: str | None = None
    die: Annotated[int, Ge(0)] | None = None
    reroll: Annotated[int, Ge(0)] | None = None
    """A die rolled again right after `die` whose result the players carried out (a VASSAL log's reroll): `die` stays
    the one judged, and a result claimed that the reroll gives is no misreading of the table."""
    result: str | None = None
    defender: str | None = None
    """The one unit that defends a stack, chosen by its owner (Omaha 11.2.4's beach landing hexes)."""
    support: list[str] = field(default_factory=list)
    receipts: list[ReceiptToken] = field(default_factory=list)

    def defending_hexes(self) -> tuple[str, ...]:
        """Every hex the attack is made on, the first written first."""
        return (self.hex, *self.more_hexes)

    def acting_units(self) -> list[str]:
        """The attackers, each once."""
        return list(dict.fromkeys(self.attackers))

    def named_twice(self) -> list[str]:
        """The attackers written more than once (a slip each rule system refuses: a unit's strength counts once)."""
        return sorted({u for u in self.attackers if self.attackers.count(u) > 1}) if \
            len(set(self.attackers)) != len(self.attackers) else []

    def as_attack(self) -> Attack:
        return self

    def as_combat(self) -> Attack:
        return self

    def attacked_hexes(self) -> tuple[str, ...]:
        """Every hex it is made on."""
        return self.defending_hexes()

    def named_ids(self) -> list[tuple[str, str]]:
        """Its chosen defender, its attackers, then its hexes."""
        return [*([("unit", self.defender)] if self.defender is not None else []),
                *(("unit", u) for u in self.attackers), *(("hex", h) for h in self.defending_hexes())]


@record
class Bombard(Entry):
    """`Allied: bombard HEX [diff +N] [die N [reroll N]] [result R] [defender UNIT] support MARKER...` (F&M 8.1)."""

    kind: Literal["bombard"] = "bombard"
    hex: str
    odds: str | None = None
    die: Annotated[int, Ge(0)] | None = None
    reroll: Annotated[int, Ge(0)] | None = None
    """A die rolled again right after `die` whose result the players carried out (as an attack's)."""
    result: str | None = None
    defender: str | None = None
    """The one unit of a stack a bombardment targets, chosen by the bombarding player (Omaha 11.2.3)."""
    support: Annotated[list[str], MinLen(1)]
    receipts: list[ReceiptToken] = field(default_factory=list)

    def attacked_hexes(self) -> tuple[str, ...]:
        """The hex it bombards."""
        return (self.hex,)

    def as_combat(self) -> Bombard:
        return self

    def named_ids(self) -> list[tuple[str, str]]:
        """Its chosen target, then its hex."""
        return [*([("unit", self.defender)] if self.defender is not None else []), ("hex", self.hex)]


@record
class Retreat(_OffMapPath):
    """`German> retreat UNIT HEX-HEX-...`: a retreat path, start hex first."""

    kind: Literal["retreat"] = "retreat"
    unit: str
    path: Annotated[list[str], MinLen(1)]


@record
class Advance(_AlongPath):
    """`Allied: advance UNIT HEX-HEX-...`: advance after combat."""

    kind: Literal["advance"] = "advance"
    unit: str
    path: Annotated[list[str], MinLen(1)]


@record
class Loss(Entry):
    """`German> deplete UNIT` / `eliminate UNIT` / `remove UNIT` (overstack, 6.3)."""

    kind: Literal["loss"] = "loss"
    loss: LossHow
    unit: str

    def acting_units(self) -> list[str]:
        """The unit reduced."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """The unit reduced, but for a `remove`: a system with removals judges who writes them by its own rule."""
        return [self.unit] if self.loss != "remove" else []

    def named_ids(self) -> list[tuple[str, str]]:
        """Its unit."""
        return [("unit", self.unit)]

    def counter_effects(self) -> list[tuple[str, tuple[str, ...]]]:
        """Its unit depleted, or eliminated (removed too)."""
        return [(self.unit, ("deplete",) if self.loss == "deplete" else ("eliminate",))]


@record
class StandFast(Entry):
    """`German> stand UNITS`: defenders in a fortification stand and deplete instead (7.5)."""

    kind: Literal["stand"] = "stand"
    units: Annotated[list[str], MinLen(1)]

    def acting_units(self) -> list[str]:
        """The units standing fast, each once."""
        return list(dict.fromkeys(self.units))

    def decided_by_owner(self) -> list[str]:
        """The units standing fast: their owner alone decides it."""
        return list(dict.fromkeys(self.units))

    def named_ids(self) -> list[tuple[str, str]]:
        """Its units."""
        return [("unit", u) for u in self.units]

    def counter_effects(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each of its units stands (flipped, or eliminated)."""
        return [(u, ("stand",)) for u in self.units]


@record
class Place(Entry):
    """`Allied: reinforce UNIT HEX` / `replace UNIT [full|reduced] HEX [points N]` / `paradrop UNIT HEX [supply N]`."""

    kind: Literal["place"] = "place"
    how: PlaceHow
    unit: str
    hex: str | None = None
    strength: Strength | None = None
    points: Annotated[int, Ge(0)] | None = None
    supply: Annotated[int, Ge(0)] | None = None

    def acting_units(self) -> list[str]:
        """The unit it acts with."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """Its unit: the owner alone moves, retreats, advances or places it."""
        return [self.unit]

    def named_ids(self) -> list[tuple[str, str]]:
        """Its unit, then its hex (when it names one)."""
        return [("unit", self.unit), *([("hex", self.hex)] if self.hex is not None else [])]

    def counter_effects(self) -> list[tuple[str, tuple[str, ...]]]:
        """Its unit at its hex (reduced when placed so), else delayed, picked up or restored where it stands."""
        out: list[tuple[str, tuple[str, ...]]] = []
        if self.hex is not None:
            out.append((self.unit, ("at", self.hex)))
        elif self.how in ("delay", "pickup"):
            out.append((self.unit, (self.how,)))
        elif self.how == "replace" and self.strength != "reduced":
            out.append((self.unit, ("restore",)))
        if self.strength == "reduced" and self.hex is not None:
            out.append((self.unit, ("deplete",)))
        return out

    def restored_in_place(self) -> tuple[str, str] | None:
        """(unit, hex) of a replacement at full strength in a hex."""
        if self.how == "replace" and self.strength != "reduced" and self.hex is not None:
            return self.unit, self.hex
        return None


@record
class SupportMarkers(Entry):
    """`German: draw MARKER...` / `aside MARKER...` / `lose MARKER...`: support fire markers drawn at
    random from the cup, put aside for the game turn, or eliminated for good (Fire & Movement 7.2,
    Omaha 11.1.4, 11.2.3, 14.1)."""

    kind: Literal["markers"] = "markers"
    how: MarkersHow
    markers: Annotated[list[str], MinLen(1)]


@record
class Income(Entry):
    """`Allied: income N [decline SOURCE...] [reduce SOURCE N...]`: supply collected in the Reinforcement Step."""

    kind: Literal["income"] = "income"
    points: Annotated[int, Ge(0)] | None = None
    declined: list[str] = field(default_factory=list)
    reduced: dict[str, Annotated[int, Ge(0)]] = field(default_factory=dict)
    """Sources from which a reduced number of points is collected (8.7's announcement), source -> points."""


@record
class Capture(Entry):
    """`German: capture HEX [points N]`: supply captured at an Allied source (8.7)."""

    kind: Literal["capture"] = "capture"
    hex: str
    points: Annotated[int, Ge(0)] | None = None

    def named_ids(self) -> list[tuple[str, str]]:
        """Its hex."""
        return [("hex", self.hex)]


@record
class Declare(Entry):
    """`German: declare bulge` and other one-word declarations a rule system knows; `Allied: declare victory
    [LEVEL] [points SIDE N SIDE N]`, a claim of victory, with the level and each side's victory points claimed."""

    kind: Literal["declare"] = "declare"
    what: str
    level: str | None = None
    points: dict[str, Annotated[int, Ge(0)]] = field(default_factory=dict)

    def claims_victory(self) -> bool:
        """Whether it declares victory."""
        return self.what == "victory"


@record
class Comment(Entry):
    """`# text`: kept, never checked."""

    kind: Literal["comment"] = "comment"
    text: str

    @property
    def is_comment(self) -> bool:
        """It is."""
        return True


class _TellApartBy:
    """A union of entry classes told apart by one field, as pydantic's `Discriminator` (imported only when a
    validator is built): an unknown `kind` is named as such, and the errors are the kind's own."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get_pydantic_core_schema__(self, source: type, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The tagged union's schema."""
        from pydantic import Discriminator
        return Discriminator(self.name).__get_pydantic_core_schema__(source, handler)


AnyEntry = Annotated[
    Header | TurnMarker | StepMarker | RollOff | Action | Pass | Activate | Move | Attack | Bombard | Retreat | Advance
    | Loss | StandFast | Place | SupportMarkers | Income | Capture | Declare | Comment,
    _TellApartBy("kind"),
]


@record
class LogDocument(Frozen):
    """A whole log in its JSON form: the entries in order."""

    __pydantic_config__ = FORBID_EXTRA

    format: Literal["umpire-log"] = "umpire-log"
    version: Literal[1] = 1
    entries: list[AnyEntry]


_FIELD_NAMES: dict[type[Entry], tuple[str, ...]] = {}


def field_names(kind: type[Entry]) -> tuple[str, ...]:
    """The fields of an entry class, in the order its JSON form writes them."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


EntryT = TypeVar("EntryT", bound=Entry)


def amended(entry: EntryT, **changes: object) -> EntryT:
    """A copy of an entry of any kind with the fields given changed, those its kind lacks left out (a die given
    to the entry a die waits for, whatever its kind)."""
    known = field_names(type(entry))
    kept: dict[str, Any] = {name: value for name, value in changes.items() if name in known}  # each field's own type
    return replace(entry, **kept)


def entry_data(entry: Entry) -> dict[str, object]:
    """What an entry says as JSON values, its fields in order: the JSON form's entry and what a seal hashes."""
    data: dict[str, object] = {}
    for name in field_names(type(entry)):
        value = getattr(entry, name)
        data[name] = list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
    if isinstance(entry, Attack) and not entry.more_hexes:
        # An attack on one hex is written as before it could name several: its JSON form and seal are unchanged.
        del data["more_hexes"]
    if data.get("reroll", 0) is None and entry.as_combat() is not None:
        del data["reroll"]  # likewise a combat without a reroll, the all but every one
    return data
