"""Onslaught's state after an entry, and the queries every rule area asks of it (units, places, strengths)."""

from __future__ import annotations

from dataclasses import field, replace as _replace_fields
from collections.abc import Callable, Mapping
from typing import TypeVar

from adjudicator.contract import Outcome, TurnContext, TurnKeeper
from adjudicator.notation.entries import Declare, TurnMarker
from adjudicator.systems.base import PerGame
from adjudicator.systems.onslaught.results import Combat, Effect
from adjudicator.systems.onslaught.tables import hex_by_label, zone_at
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Unit
from wargame.records import frozen


@frozen


class ActionState:
    """The action under way: who, which type, what it has cost, which units it activated."""

    side: str
    type: str
    claimed: int | None
    line: int
    column: int
    paid: int = 0
    activated: frozenset[str] = frozenset()
    latest: frozenset[str] = frozenset()
    unsupplied: frozenset[str] = frozenset()
    sequence: str | None = None
    """5.5: what the latest breakthrough stack does first ("move" or "attack"), declared or seen."""
    switched: bool = False
    """5.5: the latest breakthrough stack has gone on to the other half of its sequence."""
    group: frozenset[str] = frozenset()
    """5.4: divisions activated together since the action's latest attack."""
    targets: dict[str, str] = field(default_factory=dict)
    """5.4: the hex each division's activation group attacks, once the group has attacked."""
    stepless: bool = False
    """4.0, 5.0: declared before the turn's first step marker (that error): the Action Step's marker goes on with it."""
    unrolled: bool = False
    """5.0: declared before the players rolled for it (that error): the roll written next, won by its side, is its."""
    group_stacks: int = 0
    """5.4 / 7.0: how many stacks the group holds (one stack's divisions may attack different hexes)."""


UNDECLARED = "undeclared"
"""The type of an action whose declaration the log left out (5.0: its first activation is that one error, and what
follows is judged as within an action of either type)."""


@frozen
class StepLog:
    """What has happened in the step under way (house style 19: the engine starts a new one at each `Turn` and
    step marker; the step's own apply seeds it)."""

    entitled: str | None = None
    """5.0: the side taking the next action (the roll-off's winner; the first action's, 12.0)."""
    passes: tuple[str, ...] = ()
    """5.0: the side of the last pass (two in a row end the Action Step)."""
    step_over: bool = False
    """5.0: the Action Step has ended (a tie, two passes)."""
    undecided: bool = False
    """5.0: the last roll-off had no winner (a die missing or off the die): either player may act next."""
    played_on: bool = False
    """5.0: a roll-off, action or pass has come after the Action Step ended (reported once: the rest is part of it)."""
    begun: bool = False
    """5.0: the step has seen a roll-off, pass or action (12.0's declaration comes before)."""
    bulge_tie: str = ""
    """12.0: the counteroffensive turn's first tie ("open" while the German extra action is due, then "spent")."""
    reserve_stacks: tuple[frozenset[str], ...] = ()
    """5.0 / 5.3: the stacks activated in this German Reserve Step, in order; only the latest moves."""
    reserve_unsupplied: frozenset[str] = frozenset()
    """8.6: divisions of this German Reserve Step's stacks out of supply when activated (one hex each)."""
    replacement_points: dict[str, int] = field(default_factory=dict)
    """11.1: replacement points each side has left in this Reinforcement Step."""
    arrival_phase: int = 0
    """4.0: how far the Reinforcement Step has gone (an index of arrivals.ORDER)."""
    refused_delays: int = 0
    """10.3: delays in this step reported as needless (each one room left unused: one error a room)."""
    late_parts: frozenset[int] = frozenset()
    """4.0: parts of the step's order (indices of arrivals.ORDER) already reported as begun too late (one error)."""
    placed_now: frozenset[str] = frozenset()
    """14.2: divisions placed as reinforcements in this Reinforcement Step."""
    free_moves: frozenset[str] = frozenset()
    """10.2: German divisions placed in area A or B this step that have not moved yet."""
    claims: tuple[Declare, ...] = ()
    """13.2, 13.3: claims of victory made in this Reinforcement Step, judged as it ends (the turn's end decides)."""


@frozen
class ActionLog:
    """What has happened in the action under way (5.0-5.5), or in the German Reserve Step outside one: an action is
    Onslaught's own part of a step, so the system starts a new record as one ends (`sequence.close_action`)."""

    moved: frozenset[str] = frozenset()
    """6.1: divisions that have moved (each moves once an action)."""
    stopped: frozenset[str] = frozenset()
    """6.2: divisions that entered an enemy zone of control and move no further."""
    attacked: frozenset[str] = frozenset()
    """7.0: divisions that have attacked."""
    retreated: frozenset[str] = frozenset()
    """7.3: divisions that have retreated (no defence strength against a later attack)."""
    dropped: frozenset[str] = frozenset()
    """9.2: paratroop divisions dropped, which move no further."""
    reactivated: frozenset[str] = frozenset()
    """5.2: divisions activated a second time (one error, on the activation): their next move is part of it."""
    uncalled: int | None = None
    """7.2: the line of the first loss, retreat, stand or advance written since the last attack with no combat to carry
    out (its one error: most likely the attack left out); the others after it are notes."""
    unactivated_from: frozenset[str] = frozenset()
    """5.2, 6.1: the hexes whose divisions moved or attacked without being activated (the stack's one error: its
    activation left out, or written after)."""
    unactivated: frozenset[str] = frozenset()
    """5.4, 5.2: divisions that attacked without being activated in the action (that error, most likely an activation
    left out, which the action's claim of supply points counted)."""
    rewritten: dict[str, str] = field(default_factory=dict)
    """Units moved by a move written from the wrong hex, and the hex they were in: a move from that hex next is the
    players' correction, judged as the unit's move (one error)."""
    stacks_checked: bool = True
    """6.3: no division has been placed since stacking was last checked."""
    arrived: Mapping[str, int] = field(default_factory=dict)
    """The line of the last entry that put each division in its hex in this action (6.3: a log ending before the
    action or step does has an overstack noted on the entry that made it)."""


NO_ACTS = ActionLog()
"""The record of an action before anything has happened in it (one value: a record is never changed in place)."""


@frozen
class OnslaughtState:
    """The position after an entry: game facts, the engine's turn context (`at`) and the step's record (`log`)."""

    game: Game = field(repr=False, compare=False)
    scenario: str
    at: TurnContext
    """Turn and step (Onslaught has no player turns, 4.0): the engine's, set at each marker."""
    location: dict[str, str]
    depleted: frozenset[str]
    supply: dict[str, int]
    action: ActionState | None = None
    log: StepLog = StepLog()
    """What has happened in the step under way: the engine's, a new one at each marker."""
    action_log: ActionLog = NO_ACTS
    """What has happened in the action under way (the German Reserve Step's, outside one): a new one as it ends."""
    overstacks: frozenset[tuple[str, str]] = frozenset()
    """6.3: the (hex, side) overstacks already reported, so a lasting one is reported once, until resolved."""
    controlled: dict[str, str] = field(default_factory=dict)
    captured_ports: frozenset[str] = frozenset()
    combat: Combat | None = None
    pending: tuple[Effect, ...] = ()
    alternative: tuple[Combat, tuple[Effect, ...]] | None = None
    """The table's result of the combat under way when the log claimed another, and what the log
    has carried out of it: the players may follow either (one breach, one error)."""
    collected: dict[int, dict[str, int]] = field(default_factory=dict)
    seized: frozenset[tuple[int, str]] = frozenset()
    bulge_turn: int | None = None
    victory: Outcome | None = None
    optional: frozenset[str] = frozenset()
    """Optional rules in force (14.0), from the log's `Optional` headers."""
    left_off: dict[str, int] = field(default_factory=dict)
    """10.2, 10.3: reinforcements reported neither placed nor delayed as their turn ended (that error), by the line of
    the marker that ended it: an entry naming one still off the map is the players' follow-up, a note of it."""
    regrouped: bool = False
    """3.0: the log has regrouped the landing-hex divisions (`setup` entries)."""
    emergency: str | None = None
    """14.4: the side acting on emergency supply points, which it loses when the action ends."""
    capped_away: dict[str, int] = field(default_factory=dict)
    """8.2: the points each side's latest gain (income, capture, the Bulge) lost to the cap."""
    unpaid: dict[str, int] = field(default_factory=dict)
    """5.2: the points each side's activations and paradrops lacked since its latest gain (its track stays at 0), which
    the points the cap took explain until they are used up."""
    _supplied: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _zoc: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _near: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False, compare=False, repr=False)
    """The hexes within two movement points of a side's divisions (6.4), by that side, computed once per position."""
    _occupants: dict[Hex, str] = field(default_factory=dict, init=False, compare=False, repr=False)
    """The side holding each occupied map hex, computed once per state (supply.py asks often)."""
    _lines: dict[tuple[str, Hex], bool] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Whether a division of a side in a hex traces a supply line, searched from that hex (8.3)."""
    _sources: dict[str, tuple[dict[str, frozenset[Hex]], frozenset[Hex]]] = field(
        default_factory=dict, init=False, compare=False, repr=False)
    """A side's supply sources by name and their hexes (8.1, 8.4, 8.5), once per position (supply.py)."""
    _blocked: dict[str, tuple[frozenset[Hex], frozenset[Hex]]] = field(
        default_factory=dict, init=False, compare=False, repr=False)
    """The hexes blocking a side's supply lines: in enemy ZOC, not friendly-occupied (8.3), once per position."""
    _stacks: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)
    """The divisions in each place (hex label, box, track space), sorted, computed once per state and
    carried from move to move (`relocate`) instead of a scan of every division per question."""


_Frozen = TypeVar("_Frozen")
_POSITION = frozenset({"location", "controlled", "captured_ports"})
"""The fields supply lines depend on (8.3-8.5: positions, control, captured ports), with the turn (area B)."""


def replace(obj: _Frozen, **changes: object) -> _Frozen:
    """`dataclasses.replace`, fast for OnslaughtState, ActionState and the records (plain frozen fields, no
    __post_init__): a replay makes thousands of states, most changing a field or two, and the caches of ZOC,
    occupied hexes and supply carry over while the position they were computed from has not changed (caches
    are memos, compare=False: never state). A field the value lacks is refused (TypeError), as there."""
    if not isinstance(obj, (OnslaughtState, ActionState, ActionLog, StepLog)):
        return _replace_fields(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    count = len(fields)
    fields.update(changes)
    if len(fields) != count:
        # A field left behind by a rename would be set beside the dataclass's own, and never read.
        raise TypeError(f"{type(obj).__name__} has no field {sorted(changes.keys() - obj.__dict__.keys())[0]!r}")
    if not isinstance(obj, OnslaughtState):
        return new  # an action's state (5.0-5.5) or a record: plain fields, no memos
    if "location" in changes:
        fields["_zoc"], fields["_near"], fields["_occupants"], fields["_stacks"] = {}, {}, {}, {}
        fields["_blocked"] = {}
    if not _POSITION.isdisjoint(changes) or ("at" in changes and fields["at"].turn != obj.at.turn):
        fields["_supplied"], fields["_lines"], fields["_sources"] = {}, {}, {}
    return new


def unit_of(state: OnslaughtState, unit_id: str) -> Unit:
    return state.game.units_by_id[unit_id]


def on_map(state: OnslaughtState, unit_id: str) -> Hex | None:
    where = state.location.get(unit_id)
    return state.game.grid.hex_of(where) if where is not None and state.game.grid.is_label(where) else None


def units_at(state: OnslaughtState, label: str, side: str | None = None) -> list[str]:
    """The divisions in a place (of one side, if given), sorted."""
    here = stacks(state).get(label, ())
    if side is None:
        return list(here)
    units = state.game.units_by_id
    return [u for u in here if units[u].side == side]


def stacks(state: OnslaughtState) -> dict[str, tuple[str, ...]]:
    """The divisions in each place, sorted (computed once per state, carried over by `relocate`)."""
    if not state._stacks:
        found: dict[str, list[str]] = {}
        for unit_id, where in state.location.items():
            found.setdefault(where, []).append(unit_id)
        # Filled in place, as the state's other caches are (an empty map is merely recomputed).
        state._stacks.update((where, tuple(sorted(here))) for where, here in found.items())
    return state._stacks


def movement_allowance(state: OnslaughtState, unit_id: str) -> int:
    unit = unit_of(state, unit_id)
    values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
    return values[_value_index(state.game)["movement"]]


def enemy_of(state: OnslaughtState, side: str) -> str:
    enemy = _enemies(state.game).get(side)
    return enemy if enemy is not None else next(s for s in state.game.manifest.sides if s != side)


def _value_indexes(game: Game) -> dict[str, int]:
    """Where each printed value (combat, movement) stands in a unit's values."""
    return {name: index for index, name in reversed(list(enumerate(game.manifest.value_names)))}


def _enemies_of(game: Game) -> dict[str, str]:
    """Each side's enemy (the first other side, as `enemy_of` names it)."""
    sides = game.manifest.sides
    return {side: next(s for s in sides if s != side) for side in sides if any(s != side for s in sides)}


_value_index = PerGame(_value_indexes)
_enemies = PerGame(_enemies_of)


def turn_and_step(state: OnslaughtState) -> str:
    step = {"action": "Action Step", "german_reserve": "German Reserve Step",
            "reinforcement": "Reinforcement Step"}.get(state.at.step or "", "before the first step")
    return f"turn {state.at.turn}, {step}"


def _context(state: OnslaughtState) -> TurnContext:
    return state.at


def _scenario(state: OnslaughtState) -> str:
    return state.scenario


def _install(state: OnslaughtState, at: TurnContext, log: StepLog) -> OnslaughtState:
    """The state with the engine's new context and step record."""
    return replace(state, at=at, log=log)


def keeper(turn_ends: Callable[[OnslaughtState, TurnMarker], OnslaughtState]) -> TurnKeeper[OnslaughtState, StepLog]:
    """Where the engine keeps Onslaught's turn (`at`, `log`), and what is judged as a turn ends."""
    return TurnKeeper(_context, _install, StepLog, _scenario, turn_ends)


def combat_strength(state: OnslaughtState, unit_id: str) -> int:
    """A division's combat strength, depleted or not."""
    unit = unit_of(state, unit_id)
    values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
    return values[_value_index(state.game)["combat"]]


def steps_left(state: OnslaughtState, unit_id: str) -> int:
    """Steps a division has left: two at full strength, one depleted (7.2)."""
    return 1 if unit_id in state.depleted or not unit_of(state, unit_id).reduced else 2


def occupants(state: OnslaughtState) -> dict[Hex, str]:
    """The side of the divisions in each occupied map hex (computed once per state)."""
    if not state._occupants:
        hexes = hex_by_label(state.game)
        units = state.game.units_by_id
        # Filled in place, as the state's other caches are (an empty map is merely recomputed).
        state._occupants.update((hexes[where], units[unit_id].side) for unit_id, where in state.location.items()
                                if where in hexes)
    return state._occupants


def relocate(state: OnslaughtState, unit_id: str, label: str, **changes: object) -> OnslaughtState:
    """The state with a division moved to `label` (and any other changes); the divisions by place carry
    over with the one change, and so do the other side's zone of control and 6.4 distances (memos): a
    division's move changes its own side's only (6.2, 6.4)."""
    before = stacks(state)
    after = replace(state, location={**state.location, unit_id: label}, **changes)
    # The new state's memos are set whole, once, before anyone asks it anything (each a fresh dict).
    memo = vars(after)
    old = state.location.get(unit_id)
    held = dict(before)
    if old != label:
        if old is not None:
            left = tuple(u for u in held.get(old, ()) if u != unit_id)
            if left:
                held[old] = left
            else:
                held.pop(old, None)
        held[label] = tuple(sorted((*held.get(label, ()), unit_id)))
    memo["_stacks"] = held
    side = unit_of(state, unit_id).side
    zoc = {other: zone for other, zone in state._zoc.items() if other != side}
    own = state._zoc.get(side)
    units = state.game.units_by_id
    if own is not None and (old == label or any(units[u].side == side for u in held.get(old or "", ()))):
        # 6.2: the hex left still holds the side's divisions, so its zone stays: the side's zone of
        # control gains the hex entered's alone.
        entered = zone_at(state.game, label)
        zoc[side] = own if entered is None or entered <= own else own | entered
    memo["_zoc"] = zoc
    # 6.4's distances are counted from the occupied hexes: they carry over only with them.
    occupied = _carry_occupants(state, held, old, label, side) if state._occupants else None
    if occupied is not None:
        memo["_occupants"] = occupied
        memo["_near"] = {other: near for other, near in state._near.items() if other != side}
    return after


def _carry_occupants(state: OnslaughtState, held: dict[str, tuple[str, ...]], old: str | None, label: str,
                     side: str) -> dict[Hex, str] | None:
    """The occupied hexes after one division's move from `old` to `label` (`held`: the divisions by place
    after it), from those before it, instead of a scan of every division; None, to be recomputed, when a
    hex would hold both sides (a breach the log may show) or was held by both (the other side's then change)."""
    hexes = hex_by_label(state.game)
    occupied = dict(state._occupants)
    if old is not None and old in hexes and old != label:
        # The sides of the divisions left in the hex moved out of.
        units = state.game.units_by_id
        left = {units[u].side for u in held.get(old, ())}
        if not left:
            del occupied[hexes[old]]
        elif left != {side}:
            return None
    if label in hexes:
        if occupied.get(hexes[label], side) != side:
            return None
        occupied[hexes[label]] = side
    return occupied
