"""Models of a game's data: map, terrain, units, markers, set-up, schedules (its tables: wargame/tables.py).

Every model is a frozen dataclass that refuses unknown keys when pydantic validates a data file
(wargame/datafiles.py), so a misspelt key fails loudly (house style 8); a loaded game imports no
pydantic (issue 30). Every game value carries its source: a rule section such as "8.2",
or "reconstructed" (optionally "reconstructed:topic"), explained in PROVENANCE.md.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from wargame.constraints import Ge, Gt, Le, MinLen, Model, Pattern, RefusedAt
from wargame.errors import did_you_mean, listed
from wargame.faces import CounterFace
from wargame.grid import GridSpec
from wargame.menus import DeclareTable

SCHEMA_VERSION = 1

SOURCE_PATTERN = r"^(?:\d+(?:\.\d+)*|reconstructed(?::[a-z][a-z0-9-]*)?)$"
IDENT_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.+/-]*$"
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"
PATTERN_MEANINGS = {
    SOURCE_PATTERN: "a source: a rule section such as '8.2' or 'reconstructed'",
    IDENT_PATTERN: "an identifier (letters, digits and _ . + / -, no spaces)",
    COLOUR_PATTERN: "a colour written #rrggbb",
}
"""What each constrained string must look like, for error messages."""

Source = Annotated[str, Pattern(SOURCE_PATTERN)]
"""A rule section ("8.2", "11.1.4") or "reconstructed" / "reconstructed:<topic>"."""

Ident = Annotated[str, Pattern(IDENT_PATTERN, max_length=64)]
"""An identifier used in data files and logs: no spaces, no commas."""

Colour = Annotated[str, Pattern(COLOUR_PATTERN)]


def is_reconstructed(source: str) -> bool:
    """True for a value that the rulebook does not give."""
    return source.startswith("reconstructed")


# -- map ---------------------------------------------------------------------------------
class LayoutSpec(Model):
    """Pixel size of the printed map: hex circumradius and margin around the grid."""

    hex_size_px: Annotated[float, Gt(4), Le(400)]
    margin_px: Annotated[float, Ge(0), Le(2000)] = 0

    def __post_init__(self) -> None:
        # Less than half a hex lets VASSAL snap drops near edge corners off the board.
        if self.margin_px < self.hex_size_px / 2:
            raise RefusedAt(f"margin_px must be at least half of hex_size_px ({self.hex_size_px / 2:g})", "margin_px")


class MapManifest(Model):
    """`maps/<game>/map.toml`: the map's grid, pixel layout and default terrain."""

    schema_version: Literal[1]
    name: str
    grid: GridSpec
    layout: LayoutSpec
    default_terrain: Ident
    miles_per_hex: float | None = None
    """The scale the board prints (the rulebook's figure when it states one)."""
    scale_source: Source | None = None
    """Where the printed scale is stated (a rule section), when it is."""
    drawn_miles_per_hex: float | None = None
    """The scale the map is actually drawn to, when a reconstruction departs from the printed one."""
    north: Literal["up", "down", "left", "right"] = "up"
    source: Source
    note: str = ""


class TerrainType(Model):
    """One line of the terrain effects chart: a hex terrain or a hexside feature."""

    id: Ident
    name: str
    kind: Literal["hex", "hexside"]
    mp_cost: Annotated[float, Ge(0)] | None = None
    mp_add: Annotated[float, Ge(0)] | None = None
    prohibited: bool = False
    combat_die_modifier: int | None = None
    crt_line: Ident | None = None
    movement_effect: str = ""
    """A movement effect no cost expresses (6.5's crossing of a major waterway), as the chart prints it."""
    combat_effect: str = ""
    """A combat effect no die modifier or line expresses (7.5's fortifications), as the chart prints it."""
    blocks_zoc: bool = False
    cancels: tuple[Ident, ...] = ()
    """Hexside features whose `mp_add` and `prohibited` this one cancels where both are on one hexside (a bridge over
    a river: the step costs the hex entered); read by the classic series."""
    colour: Colour | None = None
    source: Source
    note: str = ""


class TerrainChart(Model):
    """`maps/<game>/terrain.toml`: every hex terrain and hexside feature with its effects."""

    schema_version: Literal[1]
    terrain: list[TerrainType]


class HexRecord(Model):
    """A row of `hexes.csv`: the terrain types in one hex."""

    hex: str
    terrain: Annotated[tuple[Ident, ...], MinLen(1)]
    source: Source
    note: str = ""


class HexsideRecord(Model):
    """A row of `hexsides.csv`: one feature on one hexside."""

    hexside: str
    feature: Ident
    source: Source
    note: str = ""


class PlaceRecord(Model):
    """A row of `places.csv`: a named place in a hex."""

    name: str
    hex: str
    kind: Literal["city", "town", "village", "port", "landmark", "beach", "region"]
    source: Source
    note: str = ""


class Area(Model):
    """A named set of hexes: landing hexes, a port, a port area, a country, an entry area..."""

    id: Ident
    name: str
    kind: Literal[
        "landing", "beach", "port", "port_area", "country", "region", "entry", "edge",
        "setup", "victory", "city", "boundary",
    ]
    hexes: tuple[str, ...] = ()
    members: tuple[Ident, ...] = ()
    value: int | None = None
    side: str | None = None
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        if not self.hexes and not self.members:
            raise ValueError("an area needs hexes or members")


class Line(Model):
    """A named line on the map, given as contiguous hexes or as hexsides."""

    id: Ident
    name: str
    kind: Literal["victory", "boundary", "river", "front", "other"]
    hexes: tuple[str, ...] = ()
    hexsides: tuple[str, ...] = ()
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        if bool(self.hexes) == bool(self.hexsides):  # both: placed at the second, neither: at the line
            raise RefusedAt("a line is given either by hexes or by hexsides, not both or neither",
                            *(("hexsides",) if self.hexes else ()))


class AreasFile(Model):
    """`maps/<game>/areas.toml`: areas and lines."""

    schema_version: Literal[1]
    area: list[Area] = field(default_factory=list)
    line: list[Line] = field(default_factory=list)


# -- game manifest -----------------------------------------------------------------------
class Nationality(Model):
    """An army and its counter colours (e.g. Onslaught 2.3)."""

    id: Ident
    name: str
    side: str
    text_colour: Colour
    background_colour: Colour
    source: Source
    note: str = ""


class UnitType(Model):
    """A type of unit: its NATO symbol and whether it is leg or mobile by default."""

    id: Ident
    name: str
    symbol: Literal[
        "infantry", "armor", "paratroop", "volksgrenadier", "mechanized", "antitank",
        "antiaircraft", "ranger", "glider", "parachute_infantry",
    ]
    source: Source
    note: str = ""


class Box(Model):
    """An off-map holding box or draw cup (Eliminated Units, Paratroop box, draw cups...)."""

    id: Ident
    name: str
    kind: Literal["eliminated", "holding", "delayed", "draw_cup", "available"]
    side: str | None = None
    holds: Literal["units", "markers"] = "units"
    """Whether the box takes units or markers: a side may have an `eliminated` box of each (Omaha
    11.1.4's lost support fire markers beside the eliminated units), so a box is chosen by both."""
    area: Ident | None = None
    """The map area the pieces held here go to (Omaha 11.2.1, 14.0 b: the assault units' beach)."""
    source: Source
    note: str = ""


class Track(Model):
    """A numbered track printed on the map: turns, supply points."""

    id: Ident
    name: str
    kind: Literal["turn", "supply", "points", "other"]
    first: int
    last: int
    side: str | None = None
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        if self.first > self.last:
            raise RefusedAt(f"track runs from {self.first} to {self.last}: first must not exceed last", "first")


class EntryAllowance(Model):
    """A kind of log entry a step or phase allows, and which side may write it there.

    A kind that some step or phase names is allowed only in the steps and phases that name it."""

    kind: Ident
    side: str = "any"
    """`any`, `phasing` (the side whose player turn the phase is) or a side's name."""
    how: list[Ident] = field(default_factory=list)
    """The ways of the kind it is about (a `place` entry's `setup` or `reinforce`...; empty: every way); a
    way no step or phase names is not restricted by the sequence."""
    unit_types: list[Ident] = field(default_factory=list)
    """The unit types it allows the entry for, every unit the entry acts with being of one (empty: any unit);
    an exception for a few units (Omaha 11.2.3: the Rangers' move before GT 1)."""
    source: Source

    def covers(self, kind: str, how: str | None) -> bool:
        """Whether the allowance is about an entry of this kind, written this way."""
        return self.kind == kind and (not self.how or how in self.how)


class SequenceItem(Model):
    """A step or phase of the turn sequence; `player` says whose it is when not both's."""

    id: Ident
    name: str
    player: Literal["both", "first", "second", "each"] = "both"
    before_first_turn: bool = False
    """Played once, before the first turn (a game's set-up and opening moves, Omaha 11.0-11.2.3), not in
    every turn: a log writes it as its entries before the first `Turn` marker, with no step marker."""
    items: list[SequenceItem] = field(default_factory=list)
    entries: list[EntryAllowance] = field(default_factory=list)
    """The entry kinds this step or phase allows (see EntryAllowance)."""
    source: Source


class OptionalRule(Model):
    """An optional rule a log header may enable."""

    id: Ident
    name: str
    section: Source


class RollKind(Model):
    """A kind of die roll of the game: the log entry that records it and the dice it rolls (a ledger
    receipt for it must be of these dice: 2d3 is no d6)."""

    id: Ident
    entry: Literal["attack", "bombard", "roll"]
    dice: Annotated[str, Pattern(r"^[1-9][0-9]?d[1-9][0-9]{0,2}$")]
    by: Literal["one", "each"] = "one"
    """A `roll` entry's dice: one side's, or one die each side in turn (a roll-off)."""
    opening: bool = False
    """Rolled by one side before the first turn (the game's opening)."""
    optional: Ident | None = None
    """The optional rule that brings the roll into play (none: always)."""
    roller: str | None = None
    """The side that rolls it first (none: either)."""
    source: Source


class Scenario(Model):
    """A scenario: its turns, first player and the optional rules it allows."""

    id: Ident
    name: str
    first_turn: Annotated[int, Ge(0)]
    last_turn: Annotated[int, Ge(0)]
    first_player: str
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        if self.first_turn > self.last_turn:
            raise RefusedAt("first_turn must not exceed last_turn", "first_turn")


class GameManifest(Model):
    """`counters/<game>/game.toml`: what the game is and the vocabulary of its data."""

    schema_version: Literal[1]
    id: Ident
    title: str
    rule_system: Ident
    series: Ident | None = None
    """The series whose rules the game's rule system is a folio of (Omaha: `fire-and-movement`)."""
    map: Ident
    sides: tuple[str, str]
    value_names: Annotated[tuple[Ident, ...], MinLen(1)]
    nationality: list[Nationality]
    unit_type: list[UnitType]
    box: list[Box] = field(default_factory=list)
    track: list[Track] = field(default_factory=list)
    sequence: list[SequenceItem] = field(default_factory=list)
    scenario: Annotated[list[Scenario], MinLen(1)]
    optional_rule: list[OptionalRule] = field(default_factory=list)
    roll: list[RollKind] = field(default_factory=list)
    declare: DeclareTable = DeclareTable()
    """What the players declare from the module (wargame/menus.py)."""
    counter: CounterFace = CounterFace()
    """What its unit counters print (wargame/faces.py)."""
    source: Source
    note: str = ""

    def dice_by_entry(self) -> dict[str, frozenset[str]]:
        """The dice each kind of log entry may roll (`attack`, `bombard`, `roll`), from the game's roll kinds."""
        found: dict[str, set[str]] = {}
        for kind in self.roll:
            found.setdefault(kind.entry, set()).add(kind.dice)
        return {entry: frozenset(dice) for entry, dice in sorted(found.items())}

    def __post_init__(self) -> None:
        # Each check names the key it refuses (RefusedAt): the loader places the error on that key's line.
        for key, side in self.declare.sides_named():
            if side not in self.sides:
                raise RefusedAt(f"declare.{'.'.join(key)}: {side!r} is not one of the sides "
                                f"({', '.join(self.sides)}){did_you_mean(side, list(self.sides))}", "declare", *key)
        items: list[tuple[tuple[str | int, ...], SequenceItem]] = [(("sequence", i), item)
                                                                   for i, item in enumerate(self.sequence)]
        items += [((*at, "items", j), sub) for at, item in items for j, sub in enumerate(item.items)]
        types = [t.id for t in self.unit_type]
        for at, item in items:
            for k, allowed in enumerate(item.entries):
                if allowed.side not in ("any", "phasing", *self.sides):
                    raise RefusedAt(f"sequence {item.id!r}: entries side {allowed.side!r} is not 'any', 'phasing' "
                                    f"or one of the sides ({', '.join(self.sides)})"
                                    f"{did_you_mean(allowed.side, ['any', 'phasing', *self.sides])}",
                                    *at, "entries", k, "side")
                for m, unit_type in enumerate(allowed.unit_types):
                    if unit_type not in types:
                        raise RefusedAt(f"sequence {item.id!r}: entries unit type {unit_type!r} is not one of the "
                                        f"game's unit types ({listed(types)}){did_you_mean(unit_type, types)}",
                                        *at, "entries", k, "unit_types", m)
            if len(at) > 2 and item.before_first_turn:
                raise RefusedAt(f"sequence {item.id!r}: before_first_turn belongs to a top-level [[sequence]] item",
                                *at, "before_first_turn")
        for k, kind in enumerate(self.roll):
            if kind.roller is not None and kind.roller not in self.sides:
                raise RefusedAt(f"roll {kind.id!r}: roller {kind.roller!r} is not one of the sides "
                                f"({', '.join(self.sides)}){did_you_mean(kind.roller, list(self.sides))}",
                                "roll", k, "roller")
            options = [o.id for o in self.optional_rule]
            if kind.optional is not None and kind.optional not in options:
                raise RefusedAt(f"roll {kind.id!r}: optional {kind.optional!r} is not one of the game's optional "
                                f"rules ({listed(options) or 'none'}){did_you_mean(kind.optional, options)}",
                                "roll", k, "optional")
        opening = [i for i, item in enumerate(self.sequence) if item.before_first_turn]
        if len(opening) > 1 or opening and opening[0] != 0:
            raise RefusedAt("sequence: one item at most is played before the first turn, and it comes first",
                            "sequence", opening[-1], "before_first_turn")
        for i, item in enumerate(self.sequence):
            if item.before_first_turn and item.player == "each":
                raise RefusedAt("sequence: the item played before the first turn is not each player's turn",
                                "sequence", i, "player")

    def box_of(self, kind: str, side: str | None, holds: str = "units") -> Box | None:
        """A side's box of a kind for units (or markers): the one a unit eliminated goes to, say."""
        return next((b for b in self.box if b.kind == kind and b.side == side and b.holds == holds), None)

    @property
    def series_id(self) -> str:
        """The series of the game's rules (its counters' style, its declarations), else its rule system."""
        return self.series or self.rule_system


# -- units and markers -------------------------------------------------------------------
class Unit(Model):
    """A row of `units.csv`: one unit in play, with its values per step."""

    id: Ident
    name: str
    side: str
    nationality: Ident
    type: Ident
    mobility: Literal["leg", "mobile"]
    size: Literal["army", "corps", "division", "brigade", "regiment", "battalion", "combat_command", "group"]
    steps: Annotated[int, Ge(1), Le(4)]
    full: tuple[int, ...]
    reduced: tuple[int, ...] | None = None
    further_reduced: tuple[tuple[int, ...], ...] = ()
    """A three- or four-step unit's values below its reduced face, strongest first: `4-4;2-4` in units.csv."""
    zoc: bool = True
    source: Source
    reconstructed: tuple[str, ...] = ()
    note: str = ""
    designation: str = ""
    """What the counter prints as the unit's designation ("IX", "1S"), where that is not its id."""

    def __post_init__(self) -> None:
        if self.steps >= 2 and self.reduced is None:
            raise RefusedAt(f"a {self.steps}-step unit needs reduced values", "reduced")
        if self.steps == 1 and self.reduced is not None:
            raise RefusedAt("a one-step unit has no reduced values", "reduced")


class Marker(Model):
    """A kind of marker counter and how many of it the game has."""

    id: Ident
    name: str
    kind: Literal[
        "turn", "supply", "supply_income", "supply_bonus", "support_fire", "naval_gunfire",
        "mines", "beachhead", "control", "other",
    ]
    side: str | None = None
    count: Annotated[int, Ge(1)] = 1
    value: int | None = None
    text: str = ""
    icon: Literal["none", "aircraft", "turret", "mines", "ship"] = "none"
    range_hexes: Annotated[int, Ge(0)] | None = None
    source: Source
    icon_source: Source | None = None
    """Where the icon (and so the cup and range) comes from, when not from `source`."""
    note: str = ""


class MarkersFile(Model):
    """`counters/<game>/markers.toml`."""

    schema_version: Literal[1]
    marker: list[Marker] = field(default_factory=list)


class Placement(Model):
    """A row of `setup.csv`: a unit or marker at its starting location in a scenario."""

    scenario: Ident
    piece: Ident
    location: str
    count: Annotated[int, Ge(1)] = 1
    source: Source
    note: str = ""


class Arrival(Model):
    """A row of `reinforcements.csv`: a unit arriving on a turn, where it enters."""

    scenario: Ident
    turn: Annotated[int, Ge(0)]
    unit: Ident
    entry: str | None = None
    tags: tuple[Ident, ...] = ()
    source: Source
    note: str = ""


class ReplacementRecord(Model):
    """A row of `replacements.csv`: replacement points or units a side gets on a turn."""

    scenario: Ident
    turn: Annotated[int, Ge(0)]
    side: str
    kind: Ident
    amount: Annotated[int, Ge(0)]
    source: Source
    note: str = ""
