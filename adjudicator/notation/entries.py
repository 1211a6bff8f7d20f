"""The entries of a move log, shared by the text notation and its JSON twin.

Every claim (supply paid, odds, die roll, result) is optional: written, it is checked; left
out, it is computed and reported. `by_opponent` marks a decision the other player made during
the mover's turn (retreat paths, losses, standing fast), so one file per exchange is complete.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, StringConstraints, model_serializer

# A dice receipt of the ledger service in its one-line form (wargame/receipts.py, docs/ledger.md).
ReceiptToken = Annotated[str, StringConstraints(pattern=r"^umpire1\.[A-Za-z0-9_-]+$", max_length=4096)]


class Entry(BaseModel):
    """Base of every entry: where it stands in the log and who makes it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    line: int = Field(0, ge=0)
    column: int = Field(1, ge=1)
    side: str | None = None
    by_opponent: bool = False

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



class Header(Entry):
    """A `[Key "value"]` header line: Game, Scenario, Optional, a side's player, DiceSeed..."""

    kind: Literal["header"] = "header"
    key: str
    value: str

    def as_header(self) -> Header:
        return self


class TurnMarker(Entry):
    """`Turn N`: a new game turn begins."""

    kind: Literal["turn"] = "turn"
    turn: int = Field(ge=0)

    def as_turn_marker(self) -> TurnMarker:
        return self


class StepMarker(Entry):
    """`Step ID` or `Phase ID`: a step (Onslaught) or phase (Fire & Movement) begins."""

    kind: Literal["step"] = "step"
    step: str

    def as_step_marker(self) -> StepMarker:
        return self


class RollOff(Entry):
    """`Roll Allied 5 German 4`: the action-step die roll-off (Onslaught 5.0)."""

    kind: Literal["rolloff"] = "rolloff"
    rolls: dict[str, int] = Field(min_length=1)
    receipts: list[ReceiptToken] = []

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


class Action(Entry):
    """`Allied: action movement [supply N]`: an action of a type, optionally the supply it cost."""

    kind: Literal["action"] = "action"
    action: str
    supply: int | None = Field(None, ge=0)


class Pass(Entry):
    """`Allied: pass`."""

    kind: Literal["pass"] = "pass"


class Activate(Entry):
    """`Allied: activate HEX [units...] [supply N]`: a stack is activated."""

    kind: Literal["activate"] = "activate"
    hex: str
    units: list[str] = []
    supply: int | None = Field(None, ge=0)
    order: Literal["move-first", "attack-first"] | None = None

    def named_ids(self) -> list[tuple[str, str]]:
        """Its units, then its hex."""
        return [*(("unit", u) for u in self.units), ("hex", self.hex)]


class Move(Entry):
    """`UNIT [strategic] HEX-HEX-...`: a unit moves along a path (start hex first)."""

    kind: Literal["move"] = "move"
    unit: str
    path: list[str] = Field(min_length=1)
    strategic: bool = False

    def acting_units(self) -> list[str]:
        """The unit it acts with."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """Its unit: the owner alone moves, retreats, advances or places it."""
        return [self.unit]

    @property
    def may_leave_map(self) -> bool:
        """It may."""
        return True

    def path_hexes(self) -> tuple[str, ...]:
        """Its path."""
        return tuple(self.path)



class Attack(Entry):
    """`Allied: attack HEX[+HEX...] with UNITS [odds A:B|diff +N] [die N] [result R] [defender UNIT]`."""

    kind: Literal["attack"] = "attack"
    hex: str
    more_hexes: list[str] = []
    """The further hexes of one attack on several hexes (`attack 0302+0303 with ...`), where the rules allow it."""
    attackers: list[str] = Field(min_length=1)
    odds: str | None = None
    die: int | None = Field(None, ge=0)
    result: str | None = None
    defender: str | None = None
    """The one unit that defends a stack, chosen by its owner (Omaha 11.2.4's beach landing hexes)."""
    support: list[str] = []
    receipts: list[ReceiptToken] = []

    @model_serializer(mode="wrap")
    def _without_empty_hexes(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # An attack on one hex is written as before it could name several: its JSON form and seal are unchanged.
        data: dict[str, object] = handler(self)
        if not self.more_hexes:
            data.pop("more_hexes", None)
        return data

    def defending_hexes(self) -> tuple[str, ...]:
        """Every hex the attack is made on, the first written first."""
        return (self.hex, *self.more_hexes)

    def acting_units(self) -> list[str]:
        """The attackers, each once."""
        return list(dict.fromkeys(self.attackers))

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



class Bombard(Entry):
    """`Allied: bombard HEX [diff +N] [die N] [result R] [defender UNIT] support MARKER...` (Fire & Movement 8.1)."""

    kind: Literal["bombard"] = "bombard"
    hex: str
    odds: str | None = None
    die: int | None = Field(None, ge=0)
    result: str | None = None
    defender: str | None = None
    """The one unit of a stack a bombardment targets, chosen by the bombarding player (Omaha 11.2.3)."""
    support: list[str] = Field(min_length=1)
    receipts: list[ReceiptToken] = []

    def attacked_hexes(self) -> tuple[str, ...]:
        """The hex it bombards."""
        return (self.hex,)

    def as_combat(self) -> Bombard:
        return self

    def named_ids(self) -> list[tuple[str, str]]:
        """Its chosen target, then its hex."""
        return [*([("unit", self.defender)] if self.defender is not None else []), ("hex", self.hex)]


class Retreat(Entry):
    """`German> retreat UNIT HEX-HEX-...`: a retreat path, start hex first."""

    kind: Literal["retreat"] = "retreat"
    unit: str
    path: list[str] = Field(min_length=1)

    def acting_units(self) -> list[str]:
        """The unit it acts with."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """Its unit: the owner alone moves, retreats, advances or places it."""
        return [self.unit]

    @property
    def may_leave_map(self) -> bool:
        """It may."""
        return True

    def path_hexes(self) -> tuple[str, ...]:
        """Its path."""
        return tuple(self.path)



class Advance(Entry):
    """`Allied: advance UNIT HEX-HEX-...`: advance after combat."""

    kind: Literal["advance"] = "advance"
    unit: str
    path: list[str] = Field(min_length=1)

    def acting_units(self) -> list[str]:
        """The unit it acts with."""
        return [self.unit]

    def decided_by_owner(self) -> list[str]:
        """Its unit: the owner alone moves, retreats, advances or places it."""
        return [self.unit]

    def path_hexes(self) -> tuple[str, ...]:
        """Its path."""
        return tuple(self.path)



class Loss(Entry):
    """`German> deplete UNIT` / `eliminate UNIT` / `remove UNIT` (overstack, 6.3)."""

    kind: Literal["loss"] = "loss"
    loss: Literal["deplete", "eliminate", "remove"]
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



class StandFast(Entry):
    """`German> stand UNITS`: defenders in a fortification stand and deplete instead (7.5)."""

    kind: Literal["stand"] = "stand"
    units: list[str] = Field(min_length=1)

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



class Place(Entry):
    """`Allied: reinforce UNIT HEX` / `replace UNIT [full|reduced] HEX [points N]` / `paradrop UNIT HEX [supply N]`."""

    kind: Literal["place"] = "place"
    how: Literal["reinforce", "replace", "paradrop", "pickup", "setup", "delay"]
    unit: str
    hex: str | None = None
    strength: Literal["full", "reduced"] | None = None
    points: int | None = Field(None, ge=0)
    supply: int | None = Field(None, ge=0)

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



class SupportMarkers(Entry):
    """`German: draw MARKER...` / `aside MARKER...` / `lose MARKER...`: support fire markers drawn at
    random from the cup, put aside for the game turn, or eliminated for good (Fire & Movement 7.2,
    Omaha 11.1.4, 11.2.3, 14.1)."""

    kind: Literal["markers"] = "markers"
    how: Literal["draw", "aside", "lose"]
    markers: list[str] = Field(min_length=1)


class Income(Entry):
    """`Allied: income N [decline SOURCE...] [reduce SOURCE N...]`: supply collected in the Reinforcement Step."""

    kind: Literal["income"] = "income"
    points: int | None = Field(None, ge=0)
    declined: list[str] = []
    reduced: dict[str, Annotated[int, Field(ge=0)]] = {}
    """Sources from which a reduced number of points is collected (8.7's announcement), source -> points."""


class Capture(Entry):
    """`German: capture HEX [points N]`: supply captured at an Allied source (8.7)."""

    kind: Literal["capture"] = "capture"
    hex: str
    points: int | None = Field(None, ge=0)

    def named_ids(self) -> list[tuple[str, str]]:
        """Its hex."""
        return [("hex", self.hex)]


class Declare(Entry):
    """`German: declare bulge` and other one-word declarations a rule system knows; `Allied: declare victory
    [LEVEL] [points SIDE N SIDE N]`, a claim of victory, with the level and each side's victory points claimed."""

    kind: Literal["declare"] = "declare"
    what: str
    level: str | None = None
    points: dict[str, Annotated[int, Field(ge=0)]] = {}

    def claims_victory(self) -> bool:
        """Whether it declares victory."""
        return self.what == "victory"


class Comment(Entry):
    """`# text`: kept, never checked."""

    kind: Literal["comment"] = "comment"
    text: str

    @property
    def is_comment(self) -> bool:
        """It is."""
        return True


AnyEntry = Annotated[
    Header | TurnMarker | StepMarker | RollOff | Action | Pass | Activate | Move | Attack | Bombard | Retreat | Advance
    | Loss | StandFast | Place | SupportMarkers | Income | Capture | Declare | Comment,
    Field(discriminator="kind"),
]


class LogDocument(BaseModel):
    """A whole log in its JSON form: the entries in order."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    format: Literal["umpire-log"] = "umpire-log"
    version: Literal[1] = 1
    entries: list[AnyEntry]
