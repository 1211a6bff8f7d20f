"""The contract between the replay engine and a rule system: what a system is given and must give back.

A rule system is generic in its own state type; the engine, the CLI, the VASSAL export and the chain
of logs read a state only through what this module declares: a `Position` (where everything is,
when it is), an `Outcome` (a decided game), the side acting now, and an optional `CombatAudit`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Generic, Literal, Protocol, TypeVar

from adjudicator.findings import Finding, SectionTable, Severity
from adjudicator.notation.entries import Attack, Bombard, Entry, Header, StepMarker, TurnMarker
from wargame.errors import ReplayError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex
from wargame.records import frozen

__all__ = ["AdvanceOption", "MOVE_KINDS", "CombatAccount", "CombatAuditor", "EngineChecks", "Finding", "KeepsTurn",
           "LogT", "MarkerUse", "MoveRule", "MovementModel", "Outcome", "Position", "Reach", "RetreatOption",
           "RuleSystem", "SectionTable", "SequencePoint", "Severity", "StateT", "TurnContext", "TurnKeeper",
           "UnitPlace", "deciding_side", "how_of", "kind_of", "played_scenario"]

StateT = TypeVar("StateT")
"""A rule system's own state type (frozen; the engine never looks inside)."""
StateT_contra = TypeVar("StateT_contra", contravariant=True)
"""A rule system's state type where a protocol only reads states (the movement model)."""
StepNoun = Literal["step", "phase"]


def kind_of(entry: Entry) -> str:
    """The entry's kind as the notation writes it (`move`, `step`, ...)."""
    return str(getattr(entry, "kind", ""))


def played_scenario(game: Game, headers: Sequence[Header]) -> str:
    """The id of the scenario a log plays: its `[Scenario]` header's, else the game's first; ReplayError for one the
    game does not have. The engine orders the turn for it and the systems set it up from this one answer."""
    known = [s.id for s in game.manifest.scenario]
    scenario = next((h.value for h in headers if h.key == "Scenario"), known[0])
    if scenario not in known:
        raise ReplayError(f"unknown scenario {scenario!r}{did_you_mean(scenario, sorted(known))} "
                          f"(scenarios: {', '.join(sorted(known))})")
    return scenario


def next_turn(game: Game, scenario: str, turn: int) -> int:
    """The turn that follows `turn` (0: the set-up) in a scenario: its first turn after the set-up, which a
    scenario beginning later in the war gives (4.0 in every series: turns run in order from there)."""
    if turn:
        return turn + 1
    return next((s.first_turn or 1 for s in game.manifest.scenario if s.id == scenario), 1)


def how_of(entry: Entry) -> str | None:
    """How an entry places or marks its units (`reinforce`, `draw`, ...), None for a kind that does not say."""
    # Read from the entry's fields: `getattr` with a default costs an exception when the field is missing, and
    # the engine asks this of every entry.
    how = entry.__dict__.get("how")
    return None if how is None else str(how)


def deciding_side(game: Game, entry: Entry) -> str | None:
    """The side an entry is a decision of: the owner of the units it decides for, else its author (an attack without
    one: its first attacker's owner). One answer for the engine and the systems, so the short form of a move (no
    author written, its side its unit's) and the long form are judged alike."""
    units = game.units_by_id
    owned = [u for u in entry.decided_by_owner() if u in units]
    if owned:
        return units[owned[0]].side
    if entry.side:
        return entry.side
    attack = entry.as_attack()
    return units[attack.attackers[0]].side if attack is not None and attack.attackers[0] in units else None


@frozen
class Outcome:
    """A decided game: the winner, the section deciding it, the log line it happened at, and why."""

    winner: str
    section: str
    line: int
    reason: str

    def as_dict(self) -> dict[str, object]:
        """The JSON form (the `victory` of `state --json`)."""
        return {"winner": self.winner, "section": self.section, "line": self.line, "reason": self.reason}


@frozen
class TurnContext:
    """Where the game stands in its sequence of play: turn, step or phase id, and whose player turn it is (the
    phasing side; None for a step both players share). The engine keeps it (house style 19): for a system with
    a `TurnKeeper` it alone advances it, at each `Turn` and step or phase marker, from the game's sequence."""

    turn: int = 0
    step: str | None = None
    player_turn: str | None = None


SequencePoint = TurnContext
"""The name the engine's readers have used for a `TurnContext` (every system's is now the engine's)."""


LogT = TypeVar("LogT")
"""A system's record of what has happened in the step or phase under way (its `StepLog`)."""


@frozen
class TurnKeeper(Generic[StateT, LogT]):
    """How the engine keeps a system's turn: where a state holds the engine's context and the step's record, and
    what the system judges as a turn ends. At a `Turn` marker the engine lets the system judge the turn over
    (`end_turn`, the old context still in force); at it and at a step or phase marker it puts the next context
    in the state with a fresh record (`step_log()`), and only then hands the marker to the system's `apply`,
    which deals with the game facts it brings."""

    read: Callable[[StateT], TurnContext]
    """The context a state holds."""
    install: Callable[[StateT, TurnContext, LogT], StateT]
    """The state with a new context and record (nothing else changed)."""
    step_log: Callable[[], LogT]
    """A new, empty record of a step or phase."""
    read_scenario: Callable[[StateT], str]
    """The scenario a state plays (whose first and second players the phases given to one are)."""
    turn_ends: Callable[[StateT, TurnMarker], StateT] | None = None
    """What the system judges as a turn ends, in the turn ending (e.g. a victory at a turn's end)."""
    step_ends: Callable[[StateT, StepMarker], StateT] | None = None
    """What the system judges as a step or phase ends, in the step ending (e.g. markers drawn and not placed)."""
    carry: Callable[[StateT, LogT], LogT] | None = None
    """What a step's fresh record keeps of the record of the step it follows in the same player turn (what happened
    in a player turn, 4.1's Fire & Movement); None: nothing."""
    turn_carry: Callable[[StateT, LogT], LogT] | None = None
    """What a step's fresh record keeps of the record of the step it follows in the same game turn (what happened in
    the game turn: Omaha's replacement points used, 11.2.5, and dice rolled for the markers put aside, 14.1); None:
    nothing. A `Turn` marker starts the record afresh."""
    later_only: bool = False
    """A marker opens the next step or phase of its id after the one under way (a player turn's phase repeated
    is the next player's); with none left in the turn it opens nothing and the context stays."""

    def context(self, state: StateT) -> TurnContext:
        """The context a state holds."""
        return self.read(state)

    def scenario(self, state: StateT) -> str:
        """The scenario a state plays."""
        return self.read_scenario(state)

    def begin(self, state: StateT, at: TurnContext, same_player_turn: bool = False, same_turn: bool = False) -> StateT:
        """The state as the step or phase `at` begins: its context, and a fresh record of it (keeping what the
        game turn and the player turn under way carry, when they go on)."""
        log = self.step_log()
        if same_turn and self.turn_carry is not None:
            log = self.turn_carry(state, log)
        if same_player_turn and self.carry is not None:
            log = self.carry(state, log)
        return self.install(state, at, log)

    def end_turn(self, state: StateT, entry: TurnMarker) -> StateT:
        """The state once the turn a `Turn` marker ends has been judged over."""
        return state if self.turn_ends is None else self.turn_ends(state, entry)

    def end_step(self, state: StateT, entry: StepMarker) -> StateT:
        """The state once the step or phase a step marker ends has been judged over."""
        return state if self.step_ends is None else self.step_ends(state, entry)


class KeepsTurn(Protocol[StateT]):
    """What the engine asks of a `TurnKeeper` (whatever the system's record type)."""

    def context(self, state: StateT) -> TurnContext:
        """The context a state holds."""
        ...

    def scenario(self, state: StateT) -> str:
        """The scenario a state plays."""
        ...

    def begin(self, state: StateT, at: TurnContext, same_player_turn: bool = False, same_turn: bool = False) -> StateT:
        """The state as the step or phase `at` begins."""
        ...

    def end_turn(self, state: StateT, entry: TurnMarker) -> StateT:
        """The state once the turn a `Turn` marker ends has been judged over."""
        ...

    def end_step(self, state: StateT, entry: StepMarker) -> StateT:
        """The state once the step or phase a step marker ends has been judged over."""
        ...

    @property
    def later_only(self) -> bool:
        """Whether a marker opens only a step or phase after the one under way."""
        ...

    @property
    def carry(self) -> object:
        """What a step's fresh record keeps of the one before in the same player turn (None: nothing)."""
        ...


OUT_OF_PLAY = "out_of_play"
"""The place of a unit removed from play for good: no counter on the board, and no box."""


@frozen
class UnitPlace:
    """Where a unit is (a hex label, a box or a track space) and whether it shows its reduced face."""

    place: str
    reduced: bool = False
    further: int = 0
    """Faces a reduced unit of three or four steps shows below its reduced one (steps lost past it)."""

    @property
    def face(self) -> int:
        """Steps its face shows lost: 0 full, 1 reduced, 2 or 3 a further reduced face."""
        return self.further + 1 if self.reduced else 0


@frozen
class MarkerUse:
    """How many counters of one marker are out of their draw cup: used this turn, put aside, lost for good."""

    used: int = 0
    aside: int = 0
    lost: int = 0


@frozen
class Position:
    """What the board shows after an entry, for every reader of a replay (CLI, export, chain)."""

    scenario: str
    at: SequencePoint
    step_noun: StepNoun
    """What the system calls the parts of its turn ("step" in Onslaught, "phase" in Fire & Movement)."""
    units: Mapping[str, UnitPlace]
    tracks: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Track values by track kind and side (e.g. `supply` -> `Allied` -> 12)."""
    markers: Mapping[str, MarkerUse] = field(default_factory=dict)
    """Draw-cup markers out of their cup, by marker id (a marker not listed is all in its cup)."""
    marked_hexes: Mapping[str, frozenset[str]] | None = None
    """Hexes holding a marker of a kind (e.g. `beachhead`), by marker kind; None for a kind not tracked."""
    outcome: Outcome | None = None

    @property
    def turn(self) -> int:
        """The game turn (0: before the first)."""
        return self.at.turn

    @property
    def step(self) -> str | None:
        """The id of the step or phase under way (None: before the first of the turn)."""
        return self.at.step

    def places(self) -> dict[str, list[str]]:
        """The units in each place, places and units sorted."""
        out: dict[str, list[str]] = {}
        for unit_id, where in sorted(self.units.items()):
            out.setdefault(where.place, []).append(unit_id)
        return out

    def reduced(self) -> list[str]:
        """The units showing their reduced (depleted) face, sorted."""
        return sorted(u for u, where in self.units.items() if where.reduced)

    def as_dict(self) -> dict[str, object]:
        """The JSON form every system shares (docs/log-format.md, `state --json`)."""
        doc: dict[str, object] = {"scenario": self.scenario, "turn": self.at.turn, self.step_noun: self.at.step,
                                  "positions": self.places(), "depleted": self.reduced(),
                                  "victory": None if self.outcome is None else self.outcome.as_dict()}
        if self.at.player_turn is not None or self.step_noun == "phase":
            doc["player_turn"] = self.at.player_turn
        for kind, values in sorted(self.tracks.items()):
            doc[kind] = dict(sorted(values.items()))
        return doc


@frozen
class EngineChecks:
    """Which of the engine's generic checks a system has handed over to it (the rest it still makes itself)."""

    decided: bool = True
    """No entry after the game is decided (the `Outcome`)."""
    kinds: bool = True
    """The entry kind is one of the system's (`entry_kinds`)."""
    sequence: bool = True
    """A step or phase marker names the next one of `[[sequence]]` in game.toml."""
    skip_phases: bool = False
    """With `sequence`: a marker may name a later step or phase of the turn, passing those between (in which
    nothing was done); never an earlier one."""
    entries: bool = True
    """The step or phase under way allows the entry's kind from its side (`entries` in `[[sequence]]`)."""
    author: bool = True
    """`Side:` owns the units it decides for, and `Side>` is not the acting side."""
    placements: bool = True
    """With `author`: a placement (set-up, arrival, replacement) is its unit's owner's to write too."""
    retreats: bool = True
    """With `author`: a retreat is its unit's owner's to write (False where the other player chooses it)."""
    results_with_combat: str | None = None
    """The section saying a combat's result is carried out with it: a result written right before its combat is then
    read as the two swapped, one error citing it (results_first.py); None: the system judges such a result itself."""

    def owner_writes(self, kind: str) -> bool:
        """With `author`: whether an entry of this kind is its units' owner's to write (`placements`, `retreats`)."""
        return (self.placements or kind != "place") and (self.retreats or kind != "retreat")


@frozen
class CombatAccount:
    """One combat or bombardment as the rules compute it, for a dispute (`adjudicate combat`)."""

    kind: Literal["attack", "bombard"]
    hex: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    arithmetic: tuple[str, ...]
    """Strengths, modifiers, column and result, in lines for a person, each citing its section."""
    odds: str
    """The odds column (`3:1`) or differential (`+8`), as a log claims it."""
    column: str
    """The table's column as printed on it (Fire & Movement: its heading and the differentials of the line used,
    `c10 (+6,+7)`)."""
    die: int | None
    result: str | None
    by_die: tuple[tuple[int, str], ...]
    """Every face of the die and the result it gives in this combat."""
    retreats: tuple[str, ...] = ()
    """Where the losing side may retreat, for the results that make it retreat."""
    advances: tuple[str, ...] = ()
    """Who may advance after combat, and how far."""
    shifts: tuple[str, ...] = ()
    """The neighbouring odds columns that would give another result (Onslaught), and what it takes."""
    effect: str | None = None
    """What the result does when that is not the table's result (a bombardment's, Fire & Movement 8.1.3);
    `by_die` then gives the effects."""

    def probabilities(self) -> dict[str, float]:
        """Each result's chance over the die's faces, in the table's order of first appearance."""
        out: dict[str, float] = {}
        for _, result in self.by_die:
            out[result] = out.get(result, 0.0) + 1 / len(self.by_die)
        return {result: round(p, 4) for result, p in out.items()}


class CombatAuditor(Protocol[StateT]):
    """The account of one disputed combat (`adjudicate combat`), for the systems that give it."""

    def account(self, state: StateT, entry: Attack | Bombard) -> CombatAccount:
        """The combat or bombardment an entry declares, computed in the state before it (its die, when given,
        read on the table; WargameError for a kind of combat the system does not have)."""
        ...

    def with_units(self, state: StateT, placed: Mapping[str, str]) -> StateT:
        """The state with only these units, where given (an audit without a log)."""
        ...


MOVE_KINDS = ("move", "strategic")
"""The kinds of movement a `MovementModel` is asked about: normal movement (every system) and strategic
movement (Onslaught 6.4; a system without it bars it in `Reach.bars`)."""


class MoveRule(Protocol):
    """One unit's move in a state, for `wargame.paths.reachable(start, rule.cost, rule.budget, stops=rule.stops)`."""

    @property
    def budget(self) -> float:
        """The movement points (Onslaught: hexes) the unit may still spend."""
        ...

    def cost(self, a: Hex, b: Hex) -> float | None:
        """What stepping from `a` into the adjacent `b` costs, None when the unit may not."""
        ...

    def stops(self, h: Hex) -> bool:
        """Whether a unit entering `h` must end its move there (e.g. an enemy zone of control)."""
        ...


@frozen
class Reach:
    """Where a unit may still move now: every hex label it may end its move in, with what reaching it costs
    (its own hex not included), and why it may not move at all (empty `hexes` then)."""

    hexes: Mapping[str, float]
    bars: tuple[str, ...] = ()
    """Each reason the unit may not move now, citing its section (`6.1: ...`)."""

    def as_dict(self) -> dict[str, object]:
        """The JSON form (`adjudicate reach --format json`), hexes sorted by cost then label."""
        ordered = sorted(self.hexes.items(), key=lambda item: (item[1], item[0]))
        return {"hexes": [{"hex": label, "cost": cost} for label, cost in ordered], "bars": list(self.bars)}


@frozen
class RetreatOption:
    """One unit's retreat owed by the combat result pending now, and every legal path of it (hex labels,
    each starting at the unit's hex)."""

    unit: str
    due: int
    """The hexes the result makes it retreat."""
    paths: tuple[tuple[str, ...], ...]
    """Every legal retreat of the full length (or ending where the rules let it stop early)."""
    shorter: tuple[tuple[str, ...], ...] = ()
    """The shorter retreats the rules allow only because no full one is open (in Fire & Movement, none that ends in a
    hex no other friendly unit holds: displacing that unit is voluntary, 8.3.1); empty when one is."""

    def as_dict(self) -> dict[str, object]:
        """The JSON form (`adjudicate retreats --format json`)."""
        return {"unit": self.unit, "due": self.due, "paths": [list(p) for p in self.paths],
                "shorter": [list(p) for p in self.shorter]}


@frozen
class AdvanceOption:
    """One attacking unit's advance after the combat just resolved, and every legal path of it (hex labels,
    each starting at the unit's hex)."""

    unit: str
    paths: tuple[tuple[str, ...], ...]

    def as_dict(self) -> dict[str, object]:
        """The JSON form."""
        return {"unit": self.unit, "paths": [list(p) for p in self.paths]}


class MovementModel(Protocol[StateT_contra]):
    """A rule system's movement, zones of control, retreat and supply lines, written once and asked for by
    the checker, the VASSAL reader, the pictures and the benchmark generators alike."""

    def move_rule(self, state: StateT_contra, unit_id: str, kind: str = "move") -> MoveRule:
        """How a unit may move now (its costs, stops and budget), whatever bars it from moving at all (ask
        `reach` for that); WargameError for a unit not on the map or a kind the system does not have."""
        ...

    def reach(self, state: StateT_contra, unit_id: str, kind: str = "move") -> Reach:
        """Every hex the unit may still reach now with the movement it has left, respecting every movement
        rule the checker applies; WargameError for a unit the game does not have."""
        ...

    def zones_of_control(self, state: StateT_contra, side: str) -> frozenset[str]:
        """The hex labels in the zones of control `side`'s units exert now."""
        ...

    def retreat_options(self, state: StateT_contra) -> Sequence[RetreatOption]:
        """The retreats the combat result pending now still owes, by unit, a unit a retreat displaces included (empty
        when none is pending)."""
        ...

    def advance_options(self, state: StateT_contra) -> Sequence[AdvanceOption]:
        """The advances after combat open now, by attacking unit: every path the checker accepts (empty when no
        combat result allows one)."""
        ...

    def supply_line(self, state: StateT_contra, unit_id: str) -> Sequence[str] | None:
        """The hexes of a supply line the rules trace for the unit now, from its hex to a source (None: it
        traces none, or is not on the map)."""
        ...


class RuleSystem(Protocol[StateT]):
    """What a rule system plugs into the engine with (one object per system)."""

    @property
    def name(self) -> str:
        """The system's id (`rule_system` in game.toml)."""
        ...

    @property
    def table(self) -> SectionTable:
        """The sections the system cites."""
        ...

    @property
    def step_noun(self) -> StepNoun:
        """What the system calls the parts of its turn."""
        ...

    @property
    def entry_kinds(self) -> frozenset[str]:
        """The entry kinds the system knows; the engine refuses any other before the system sees it."""
        ...

    @property
    def foreign_kinds(self) -> Mapping[str, str]:
        """Why a kind of the other systems is not this one's, by kind (the end of the engine's message)."""
        ...

    @property
    def engine_checks(self) -> EngineChecks:
        """The generic checks the engine makes for the system."""
        ...

    @property
    def auditor(self) -> CombatAuditor[StateT] | None:
        """The combat audit, or None for a system without one."""
        ...

    @property
    def movement(self) -> MovementModel[StateT] | None:
        """The movement model (reach, zones of control, retreats, supply lines), or None for a system without one."""
        ...

    @property
    def turn_keeper(self) -> KeepsTurn[StateT] | None:
        """How the engine keeps the system's turn context and step record, or None for a system that still keeps
        its own (its `apply` then advances the turn on a marker)."""
        ...

    def initial_state(self, game: Game, headers: Sequence[Header]) -> StateT:
        """The state before the first entry (the scenario's set-up)."""
        ...

    def check_rules(self, state: StateT, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        """The system's own findings for an entry, after the engine's generic checks; must not change the state.

        `kind_rules=False` when the engine has refused the entry in this step or phase: only what its
        arrival brings about (an action closed, a combat over) is judged, not its kind's own rules."""
        ...

    def misplacement_reported(self, state: StateT, entry: Entry) -> str | None:
        """Why an entry the step or phase does not allow breaks nothing new (its lateness already an error, so
        the late entry is the players setting it right), or None; the entry is then judged by its kind's rules."""
        ...

    def step_of(self, state: StateT, entry: Entry) -> str | None:
        """The step or phase an entry out of place in the one under way belongs to, where the sequence's data cannot
        tell (its kind allowed here too in other circumstances, or placed by no step); None: the data decides (cheap:
        the engine asks it of every entry when it looks for a marker left out)."""
        ...

    def apply(self, state: StateT, entry: Entry) -> StateT:
        """The state after the entry, as the log says; never checks; ReplayError if impossible."""
        ...

    def finish(self, state: StateT) -> list[Finding]:
        """Findings due at the end of the log (e.g. a step left overstacked)."""
        ...

    def game_of(self, state: StateT) -> Game:
        """The game a state belongs to."""
        ...

    def sequence_point(self, state: StateT) -> SequencePoint:
        """Turn, step or phase, and player turn (cheap: the engine asks for every entry)."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """The decided game, if it is (cheap: the engine asks for every entry)."""
        ...

    def acting_side(self, state: StateT) -> str | None:
        """The side taking the action or player turn now (`Side>` marks the other side's decisions)."""
        ...

    def position(self, state: StateT) -> Position:
        """What the board shows."""
        ...

    def details(self, state: StateT) -> dict[str, object]:
        """The system's own JSON beside the position (e.g. the victory points), for `state --json` only."""
        ...

    def describe(self, state: StateT) -> dict[str, object]:
        """The position and the details as JSON data."""
        ...
