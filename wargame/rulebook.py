"""A game's rules as data (`counters/GAME/rules.toml`): the vocabulary of the classic series.

Most hex-and-counter games share one family of mechanics: movement allowances spent on a terrain
effects chart, zones of control of a few kinds, a stacking limit, an odds or differential combat
results table whose result codes say who loses steps and who retreats, advances after combat,
replacements, reinforcements, lines of communication and victory by places held. A game on the
`classic` rule system states its numbers and choices here, each citing its own rulebook's section,
and the referee reads them; no code names the game (docs/designing-a-game.md documents every key).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Literal, Protocol

from wargame.constraints import Ge, Gt, MinLen, Model, RefusedAt
from wargame.errors import did_you_mean, listed
from wargame.models import Ident, Source

ZocKind = Literal["none", "stop", "lock", "no_zoc_to_zoc"]
"""`none`: no zones of control; `stop`: a unit entering an enemy zone ends its move there, and may leave one at
the start of a move; `lock`: as `stop`, and a unit in an enemy zone may not leave it by moving;
`no_zoc_to_zoc`: as `stop`, and a unit may not move straight from one enemy zone into another."""


if TYPE_CHECKING:  # for the type checker alone: a Protocol class costs a start-up to make
    class _Cited(Protocol):
        """A rule area that cites a section."""

        @property
        def source(self) -> str: ...


class Section(Model):
    """A section of the game's rulebook that the referee cites, with its title in our own words."""

    id: Source
    title: str


class Condition(Model):
    """A weather or ground condition in force on some turns (mud, snow), and what it changes."""

    id: Ident
    name: str
    turns: Annotated[tuple[int, ...], MinLen(1)]
    max_hexes: Annotated[int, Ge(0)] | None = None
    """The most hexes a unit may move in one movement phase (mud: one), whatever its allowance."""
    movement_factor: Annotated[float, Gt(0)] = 1.0
    """The allowance multiplied (halved: 0.5), fractions dropped."""
    attack_factor: Annotated[float, Gt(0)] = 1.0
    """Attackers' combat strengths multiplied (halved when attacking: 0.5); defenders are not."""
    defence_factor: Annotated[float, Gt(0)] = 1.0
    exempt_movement: tuple[Literal["rail", "strategic"], ...] = ()
    """The kinds of movement the condition leaves alone (rail movement in mud)."""
    allowance_by_type: dict[Ident, int] = field(default_factory=dict)
    """A unit type's allowance while the condition holds (e.g. armour 2 in snow), instead of its counter's."""
    source: Source
    note: str = ""


class TurnRecord(Model):
    """A game turn of the turn record whose movement allowances are not the counters' (a first turn's surprise, an
    exhausted army's last turns), for one side or both."""

    number: Annotated[int, Ge(1)]
    """The game turn."""
    sides: tuple[str, ...] = ()
    """The sides whose units it concerns (empty: both)."""
    allowance_factor: Annotated[float, Gt(0)] = 1.0
    """The allowance multiplied on this turn (halved: 0.5), fractions dropped."""
    allowance_by_type: dict[Ident, Annotated[int, Ge(0)]] = field(default_factory=dict)
    """A unit type's allowance on this turn, instead of its counter's (before `allowance_factor`)."""
    source: Source
    note: str = ""


class PhaseRule(Model):
    """What a movement phase of the sequence allows: normal movement or rail movement, and on which turns."""

    id: Ident
    """The step or phase id of `[[sequence]]` in game.toml."""
    movement: Literal["normal", "rail", "strategic"] = "normal"
    skipped_turns: tuple[int, ...] = ()
    """Turns on which nothing may be done in this phase (e.g. the first turn's)."""
    source: Source


class RailRules(Model):
    """Rail movement along rail lines (a hexside feature of hexsides.csv, or hexes of a terrain)."""

    feature: Ident = "rail"
    """The hexside feature joining two hexes of a rail line."""
    sides: tuple[str, ...] = ()
    """The sides that may move by rail (empty: both)."""
    start_on_rail: bool = True
    """A unit must begin its rail move in a hex of a rail line."""
    max_hexes: Annotated[int, Ge(1)] | None = None
    """The most hexes a rail move may run (None: any number, or the allowance)."""
    uses_allowance: bool = False
    """A rail move runs at most the unit's movement allowance in hexes (each rail hex counting one)."""
    enemy_zoc: Literal["prohibited", "stop", "ignored"] = "prohibited"
    """May a rail move enter (or leave) an enemy zone of control."""
    source: Source


class StrategicRules(Model):
    """Strategic movement: a multiplied allowance, kept away from the enemy (a move written `UNIT strategic
    PATH`, or every move of a phase whose `movement` is `strategic`)."""

    factor: Annotated[float, Gt(0)] = 2.0
    """The allowance multiplied."""
    keep_away: Annotated[int, Ge(0)] = 0
    """Every hex of the move, its start included, is more than this many hexes from every enemy unit."""
    source: Source


class MovementRules(Model):
    """Movement: the allowance, the terrain's costs (terrain.toml), enemy units, rail and the phases."""

    value: Ident = "movement"
    """The counter value (of game.toml's `value_names`) that is a unit's movement allowance."""
    one_at_a_time: bool = True
    """Units move one at a time: a unit's move is over once another unit has moved after it in the phase."""
    enemy_units: Literal["prohibited"] = "prohibited"
    leave_map: Literal["prohibited"] = "prohibited"
    phases: list[PhaseRule] = field(default_factory=list)
    rail: RailRules | None = None
    strategic: StrategicRules | None = None
    source: Source


class ZocRules(Model):
    """Zones of control: which kind, what entering or leaving costs, what blocks them."""

    kind: ZocKind = "stop"
    leave_cost: Annotated[int, Ge(0)] = 0
    """Movement points added for leaving an enemy zone."""
    into_hexside: tuple[Ident, ...] = ()
    """Hexside features a zone does not extend across (terrain.toml's `blocks_zoc` blocks hexes and hexsides)."""
    unless: tuple[Ident, ...] = ()
    """Hexside features that let a zone across a hexside `into_hexside` (or `blocks_zoc`) would block where they are
    on it too (a bridge over a river)."""
    source: Source


class StackingRules(Model):
    """How many units (or steps) of one side a hex may hold, and when that is checked."""

    limit: Annotated[int, Ge(1)]
    count: Literal["units", "steps"] = "units"
    checked: Literal["end_of_move", "end_of_phase"] = "end_of_move"
    """`end_of_move`: after every entry that puts a unit in a hex (a move may pass through a full hex);
    `end_of_phase`: at the end of each phase."""
    source: Source


class TerrainEffect(Model):
    """A terrain's effect on combat: a column shift on the table, or a strength multiplied."""

    terrain: Ident
    """A hex terrain (the defender's hex) or a hexside feature (between an attacker and the defender)."""
    shift: int = 0
    """Columns shifted (negative: in the defender's favour)."""
    die_modifier: int = 0
    """Added to the die roll (the modified roll read on the table, kept within its rows)."""
    defence_factor: Annotated[float, Gt(0)] = 1.0
    sides: tuple[str, ...] = ()
    """The defending sides it helps (empty: both), e.g. fortifications built by one side."""
    unless: tuple[Ident, ...] = ()
    """Terrain that cancels the effect where it is there too: a bridge on a river hexside, a road into a woods hex."""
    when: Literal["defender_in", "every_attacker_across", "any_attacker_across"] = "defender_in"
    """`defender_in`: the defender's hex has the terrain; the hexside kinds: every attacker (or at least one)
    attacks across such a hexside."""
    source: Source


class ResultCode(Model):
    """What a result code of the combat results table does, as data."""

    code: str
    defender_steps: Annotated[int, Ge(0)] = 0
    """Steps each defending unit loses (before any retreat)."""
    attacker_steps: Annotated[int, Ge(0)] = 0
    """Steps the attacker loses in all (the attacker chooses the units)."""
    defender_eliminated: bool = False
    attacker_eliminated: bool = False
    defender_retreat: Annotated[int, Ge(0)] = 0
    """Hexes every surviving defender retreats."""
    attacker_retreat: Annotated[int, Ge(0)] = 0
    exchange: bool = False
    """The defender loses `defender_steps`; then the attacker loses at least as much printed strength."""
    advance: bool | None = None
    """Whether attackers may advance after it (None: when the defender's hex is left empty)."""
    source: Source


class RetreatRules(Model):
    """Retreats after combat: who chooses the path, what is prohibited, what a blocked retreat costs."""

    chooser: Literal["owner", "opponent"] = "owner"
    enemy_zoc: Literal["prohibited", "allowed"] = "prohibited"
    """Whether a retreat may enter an enemy zone of control (friendly units there do not negate it)."""
    through_friendly: bool = True
    """Whether a retreat may pass through (and end in) hexes of friendly units, stacking allowing."""
    extend_to_empty: bool = False
    """A retreat whose last hex holds friendly units goes on, hex by hex, to the first empty hex."""
    prohibited_terrain: tuple[Ident, ...] = ()
    blocked: Literal["eliminated"] = "eliminated"
    """A unit that cannot retreat its full length is eliminated."""
    away: bool = True
    """Each hex of a retreat is farther from the hex it retreated from than the one before."""
    source: Source


class AdvanceRules(Model):
    """Advance after combat into the hex the defender left."""

    units: Annotated[int, Ge(0)] = 1
    """How many attacking units may advance (0: none)."""
    hexes: Annotated[int, Ge(0)] = 1
    """How far: 1 is the vacated hex only."""
    source: Source


class CombatRules(Model):
    """Combat: odds or differential (crt.toml's `kind`), rounding, who may attack whom, results as data."""

    adjacent: bool = True
    attack_value: Ident | None = None
    """The counter value (of game.toml's `value_names`) that is a unit's attack strength (None: the first value that
    is not the movement allowance)."""
    defence_value: Ident | None = None
    """The counter value that is a unit's defence strength (None: the attack strength's value)."""
    multi_hex: bool = False
    """One attack may be made on the units of several hexes at once (`attack 0302+0303 with ...`): their
    strengths summed, one die, the result applied in every hex; false: each attack is on one hex."""
    multi_hex_terrain: Literal["best_for_defender"] = "best_for_defender"
    """Whose terrain an attack on several hexes reads: the one hex's whose effects put the attack on the lowest
    column (the first named of those that tie)."""
    attack_once: bool = True
    """Each unit attacks at most once a combat phase."""
    defend_once: bool = True
    """Each hex is attacked at most once a combat phase."""
    must_attack: bool = False
    """Every enemy unit next to a phasing unit must be attacked, and every such phasing unit attack, by the
    combat phase's end."""
    rounding: Literal["down", "nearest", "defender"] = "down"
    """Odds: the ratio rounded down to a column (in the defender's favour)."""
    below: Literal["prohibited", "lowest", "no_effect"] = "prohibited"
    """Odds worse than the table's first column (after shifts): not allowed, read on it, or `below_result`."""
    below_result: str = "NE"
    """The result of an attack below the table when `below = "no_effect"`."""
    shift_before_cap: bool = True
    """Terrain shifts count from the odds as computed, before odds above the table are read on its last column."""
    above: Literal["highest"] = "highest"
    terrain: list[TerrainEffect] = field(default_factory=list)
    results: Annotated[list[ResultCode], MinLen(1)]
    retreat: RetreatRules
    advance: AdvanceRules
    die_faces: Annotated[int, Ge(2)] = 6
    source: Source

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for k, result in enumerate(self.results):
            if result.code in seen:
                raise RefusedAt(f"results: code {result.code!r} is listed twice", "results", k, "code")
            seen.add(result.code)


class ReplacementRules(Model):
    """Replacements: points a side gets each turn (replacements.csv), what a point buys and where it goes."""

    kind: Ident = "steps"
    """The `kind` of replacements.csv rows that are replacement points."""
    rebuild: Literal["reduced", "full"] = "reduced"
    """An eliminated unit comes back on this face for one point (`reduced`: with one step, a unit of three or four
    steps on its last face)."""
    restore: bool = True
    """A point restores one step of a reduced unit on the map (a two-step unit: to its full face)."""
    places: dict[str, tuple[Ident, ...]] = field(default_factory=dict)
    """Where each side places a rebuilt unit: area ids of areas.toml (empty: any hex it controls)."""
    in_communication: bool = True
    """A rebuilt unit's hex, and a restored unit, must be in communication (`[supply]`)."""
    communication_exempt: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Places (places.csv names) where a side's replacements need no communication."""
    places_controlled: bool = False
    """A place of `places` other than a source hex must be controlled by the side (`[victory]` control)."""
    from_turn: dict[str, int] = field(default_factory=dict)
    """Units that may be rebuilt only from a turn on (unit id -> turn)."""
    once_per_phase: bool = True
    """A unit takes at most one replacement point a phase (a rebuilt unit is not restored in the same phase)."""
    not_in_enemy_zoc: bool = True
    empty_hex: bool = False
    """A rebuilt unit appears only in a hex holding no unit (false: the stacking limit governs its hex)."""
    unit_types: dict[str, tuple[Ident, ...]] = field(default_factory=dict)
    """The unit types each side may rebuild or restore (empty: all)."""
    source: Source


class ReinforcementRules(Model):
    """Reinforcements (reinforcements.csv): placed on their turn, at their entry hex or area."""

    late: Literal["prohibited", "allowed"] = "prohibited"
    not_in_enemy_zoc: bool = True
    source: Source


class SupplyRules(Model):
    """Communication (or supply): a line of hexes from a unit to a source of its side."""

    sources: dict[str, tuple[Ident, ...]]
    """Each side's sources: area ids of areas.toml (a map edge is an area of its hexes)."""
    max_hexes: Annotated[int, Ge(0)] | None = None
    """The longest line (None: any length)."""
    enemy_units: Literal["blocked"] = "blocked"
    enemy_zoc: Literal["blocked", "blocked_unless_friendly", "allowed"] = "blocked_unless_friendly"
    prohibited_terrain: tuple[Ident, ...] = ()
    cut_off_movement: Annotated[float, Gt(0)] = 1.0
    """A unit that traces no line when it moves has its allowance multiplied by this (halved: 0.5)."""
    cut_off_attack: Annotated[float, Gt(0)] = 1.0
    """An attacking unit that traces no line has its strength multiplied by this."""
    cut_off_defence: Annotated[float, Gt(0)] = 1.0
    """A defending unit that traces no line has its strength multiplied by this."""
    source: Source


class VictoryCondition(Model):
    """One way a side wins: places it controls (and those it must not lose) at the end, or at any moment."""

    winner: str
    """The side that wins; `draw` for a drawn game."""
    side: str | None = None
    """The side whose places and points the condition counts (None: the winner's; a draw's names one)."""
    controls: tuple[str, ...] = ()
    """Place names of places.csv (or hex labels) the winner must control."""
    at_least: Annotated[int, Ge(0)] | None = None
    """Of `controls`, how many (None: all)."""
    also_controls: tuple[str, ...] = ()
    """Places it must control besides (all of them)."""
    points_at_least: Annotated[int, Ge(0)] | None = None
    """Victory points (`[victory] points` of the places it controls) it must have at least."""
    when: Literal["end", "any_time"] = "end"
    order: int = 0
    """Conditions are read in this order; the first that holds decides."""
    source: Source


class VictoryRules(Model):
    """Victory: who controls each place at the start, how control changes, the conditions, the default."""

    control: Literal["last_entered", "occupied"] = "last_entered"
    initial: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The places each side controls at the start (the rest: the side whose units stand there, else none)."""
    initial_others: str | None = None
    """The side controlling at the start every place of places.csv not in `initial`."""
    points: dict[str, int] = field(default_factory=dict)
    """Victory points of places (places.csv names or hex labels), counted for the side controlling each."""
    conditions: Annotated[list[VictoryCondition], MinLen(1)]
    otherwise: str = "draw"
    """The result when no condition holds: a side or `draw`."""
    source: Source

    def can_end_drawn(self) -> bool:
        """Whether these rules can end the game drawn (a condition's winner, or the result when none holds)."""
        return self.otherwise == "draw" or any(c.winner == "draw" for c in self.conditions)


class RulesFile(Model):
    """A classic game's rules: the sections it cites and every rule area's numbers and choices."""

    schema_version: Literal[1]
    section: Annotated[list[Section], MinLen(1)]
    start_reduced: tuple[str, ...] = ()
    """Sides whose units set up on the map start on their reduced face."""
    condition: list[Condition] = field(default_factory=list)
    turn: list[TurnRecord] = field(default_factory=list)
    """Turns whose movement allowances differ from the counters' (`[[turn]]`)."""
    movement: MovementRules
    zoc: ZocRules
    stacking: StackingRules
    combat: CombatRules
    replacements: ReplacementRules | None = None
    reinforcements: ReinforcementRules | None = None
    supply: SupplyRules | None = None
    victory: VictoryRules | None = None
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        ids = [s.id for s in self.section]
        seen: set[str] = set()
        for k, section in enumerate(ids):
            if section in seen:
                raise RefusedAt(f"section {section!r} is listed twice", "section", k, "id")
            seen.add(section)
        for where, source, key in self.citations():
            # Each rule area cites the game's own section (a reconstructed reading says so in its `note`).
            if source not in ids:
                raise RefusedAt(f"{where}: source {source!r} is not one of the [[section]] ids ({listed(ids)})"
                                f"{did_you_mean(source, ids)}", *key)

    def citations(self) -> list[tuple[str, str, tuple[str | int, ...]]]:
        """Every rule area's cited section, with where it is written in words and as the key of its `source`."""
        def areas(*named: tuple[str, _Cited | None]) -> list[tuple[str, str, tuple[str | int, ...]]]:
            """The areas given, each citing by its own `source`."""
            return [(name, area.source, (*name.split("."), "source")) for name, area in named if area is not None]

        out = areas(("movement", self.movement), ("zoc", self.zoc), ("stacking", self.stacking),
                    ("combat", self.combat), ("combat.retreat", self.combat.retreat),
                    ("combat.advance", self.combat.advance))
        out += [(f"movement.phases {p.id}", p.source, ("movement", "phases", k, "source"))
                for k, p in enumerate(self.movement.phases)]
        out += areas(("movement.rail", self.movement.rail), ("movement.strategic", self.movement.strategic))
        out += [(f"condition {c.id}", c.source, ("condition", k, "source")) for k, c in enumerate(self.condition)]
        out += [(f"turn {r.number}", r.source, ("turn", k, "source")) for k, r in enumerate(self.turn)]
        out += [(f"combat.terrain {t.terrain}", t.source, ("combat", "terrain", k, "source"))
                for k, t in enumerate(self.combat.terrain)]
        out += [(f"combat.results {r.code}", r.source, ("combat", "results", k, "source"))
                for k, r in enumerate(self.combat.results)]
        out += areas(("replacements", self.replacements), ("reinforcements", self.reinforcements),
                     ("supply", self.supply), ("victory", self.victory))
        if self.victory is not None:
            out += [(f"victory.conditions {c.winner}", c.source, ("victory", "conditions", k, "source"))
                    for k, c in enumerate(self.victory.conditions)]
        return out


__all__ = ["AdvanceRules", "CombatRules", "Condition", "MovementRules", "PhaseRule", "RailRules",
           "ReinforcementRules", "ReplacementRules", "ResultCode", "RetreatRules", "RulesFile", "Section",
           "StackingRules", "SupplyRules", "TerrainEffect", "TurnRecord", "VictoryCondition", "VictoryRules",
           "ZocKind", "ZocRules"]
