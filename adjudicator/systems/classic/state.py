"""The classic series' state: game facts (where units are, their faces, who controls each place), with the
engine's turn context and the record of the phase under way, which the engine replaces at each boundary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from fractions import Fraction
from typing import TypeVar

from adjudicator.contract import Outcome, TurnContext, TurnKeeper
from adjudicator.notation.entries import Declare
from wargame.game import Game
from wargame.hexes import Hex
from wargame.records import frozen


T = TypeVar("T")


def evolve(value: T, **changes: object) -> T:
    """A copy of a frozen dataclass value with some fields changed, without running its `__init__` again (a
    replay makes several a entry; `dataclasses.replace` costs several times as much)."""
    assert changes.keys() <= value.__dict__.keys(), f"no field {sorted(changes.keys() - value.__dict__.keys())}"
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__)
    new.__dict__.update(changes)
    return new


@frozen
class PhaseLog:
    """What has happened in the phase under way (house style 19: the engine starts a new one at each boundary)."""

    spent: Mapping[str, float] = field(default_factory=dict)
    """Movement points each unit has spent this phase."""
    hexes_moved: Mapping[str, int] = field(default_factory=dict)
    """Hexes each unit has moved this phase (a condition may cap them)."""
    began: Mapping[str, str] = field(default_factory=dict)
    """The hex each unit that moved began the phase's movement in."""
    strategic: frozenset[str] = frozenset()
    """Units that have moved strategically this phase (a unit's movement in a phase is strategic or not, all of
    it)."""
    stopped: frozenset[str] = frozenset()
    """Units whose movement has ended this phase (they entered an enemy zone of control)."""
    last_mover: str | None = None
    """The unit that moved last this phase (units move one at a time)."""
    attacked: frozenset[str] = frozenset()
    """Units that have attacked this phase."""
    defended: Mapping[str, str] = field(default_factory=dict)
    """Units attacked this phase, each with the hex it was attacked in (a unit is attacked once a combat phase,
    wherever a retreat takes it; a hex is judged by the units in it)."""
    stood: Mapping[str, str] = field(default_factory=dict)
    """Where each unit of an attack this phase stood when it was first in one (the position the phase began with:
    only the units of an attack move in a combat phase)."""
    faces: Mapping[str, tuple[bool, int]] = field(default_factory=dict)
    """The face each unit of an attack this phase was on when first in one (reduced, steps lost past the reduced
    face): with `stood`, the position the phase began with (only the units of an attack lose steps in it)."""
    refused: frozenset[str] = frozenset()
    """Attackers and defending units of attacks the rules refused this phase (neither attacked nor defended: a
    lawful attack may follow; a compulsory attack counts them as tried)."""
    points: Mapping[str, int] = field(default_factory=dict)
    """Replacement points each side has spent this phase."""
    replaced: frozenset[str] = frozenset()
    """Units that have taken a replacement point this phase."""
    orphaned: int = 0
    """The line of the first entry since the phase's last attack that carried out a result with no combat to carry
    out (its one error given: an attack left out or written after its results); the others after it are notes (0:
    none)."""
    early: Mapping[str, tuple[str, bool, int]] = field(default_factory=dict)
    """Units that results with no combat to carry out touched since the phase's last attack, each as it stood before
    the first (hex, reduced, steps past the reduced face): an attack written after its results is judged so."""
    arrived: Mapping[str, int] = field(default_factory=dict)
    """The line of the last entry that put each unit in its hex this phase (a log ending inside the phase has an
    overstack noted on the entry that made it)."""


@frozen
class Pending:
    """A combat result being carried out: the steps, retreats and advances it still owes or allows."""

    line: int
    hex: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    code: str
    defender_steps: Mapping[str, int]
    """Steps each defending unit still has to lose."""
    attacker_steps: int
    """Steps the attackers still have to lose (their owner picks the units)."""
    attacker_strength: Fraction
    """Printed strength the attackers still have to lose (an exchange)."""
    retreats: Mapping[str, int]
    """Hexes each defending unit still has to retreat."""
    attacker_retreats: Mapping[str, int]
    advances_left: int
    """How many attackers may still advance."""
    advanced: frozenset[str] = frozenset()
    began: Mapping[str, str] = field(default_factory=dict)
    """Where each attacker and defender stood when the combat was resolved (a retreat starts there)."""
    defender_lost: Fraction = Fraction(0)
    """Printed strength the defender has lost (what an exchange costs the attacker)."""
    hexes: tuple[str, ...] = ()
    """Every hex the attack was made on (`hex` is the first; several where the rules allow it)."""
    alternative: Pending | None = None
    """The table's result when the log claimed another: the players may carry out either (the claim's error is
    reported once, at the attack), and follow the table's from the first entry that fits it alone."""
    refused: bool = False
    """The rules refused the attack (its one error given): the players may carry its result out, but nothing of it
    is owed."""
    misdirected: int = 0
    """The line of a loss written for a unit that owed none from this combat (its one error given there): the step
    losses the result still owes are that mistake, noted, not a second error (0: none)."""
    retreat_excuse: str = ""
    """Why a retreat the result still owes is no breach of its own (its one error given at an earlier entry: a retreat
    written for a unit that owed none, an advance into the hex before its defenders left it); empty: none."""
    loss_excuse: str = ""
    """Why a defender's step loss the result still owes is no breach of its own (its one error given at an earlier
    entry: an advance into the hex before its defenders' losses were written); empty: none."""
    eliminated_against: Mapping[str, tuple[int, bool, int]] = field(default_factory=dict)
    """Units of the combat eliminated against its result (its one error given at the loss), each with the loss's
    line and the face the result leaves it on (reduced, steps lost past the reduced face): a retreat or advance
    written for it after is the result's carried out, read from where the unit stood, not a second error."""


    def defended(self) -> tuple[str, ...]:
        """The hexes the attack was made on."""
        return self.hexes or (self.hex,)

    def named(self) -> str:
        """The hexes attacked as a log writes them (`0302`, `0302+0303`)."""
        return "+".join(self.defended())


@frozen
class ClassicState:
    """Where everything is and when: the position after an entry of a classic game's log."""

    game: Game
    scenario: str
    at: TurnContext
    """Turn, phase and the side whose player turn it is (None between turns): the engine's, set at each marker."""
    location: Mapping[str, str]
    """Each unit's place: a hex label, a box id (eliminated, not yet arrived)."""
    reduced: frozenset[str]
    control: Mapping[str, str]
    """Each victory place's hex label -> the side controlling it."""
    log: PhaseLog = PhaseLog()
    """What has happened in the phase under way: the engine's, a new one at each marker."""
    further: Mapping[str, int] = field(default_factory=dict)
    """Steps a reduced unit of three or four steps has lost beyond its reduced face (units.csv's further_reduced)."""
    pending: Pending | None = None
    arrived: frozenset[str] = frozenset()
    """Reinforcements placed so far."""
    overdue: frozenset[str] = frozenset()
    """Reinforcements reported not placed as their turn ended (the one error of a late one: its placement is noted)."""
    outcome: Outcome | None = None
    """The game's result: decided by a condition that holds at any time (nothing follows it but a claim of it), or
    the one a claim of a condition counted at the game's end gives on the position as it stands
    (`claim_standing`)."""
    claims: tuple[Declare, ...] = ()
    """Claims of a victory counted at the game's end, made in its last phase: judged on the position the game ends
    in, the play of that phase going on after them."""
    claim_standing: bool = False
    """The outcome is a claim's of a condition counted at the game's end: it ends no play, and is judged again after
    each entry until the last phase ends."""
    last_line: int = 0
    """The log line of the last entry applied (where the log's end is reported)."""
    astray: Mapping[str, str] = field(default_factory=dict)
    """Units standing where no rule put them, each with the breach that left it there (its one error given then): a
    retreat the log never wrote, a placement the rules refused. Kept until the unit next moves, is placed or loses a
    step (house style 16; the engine keeps the units an illegal move, retreat or advance put astray)."""
    retreat_ends: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """The hexes each unit astray for a retreat never written could lawfully have retreated to (an entry finding it in
    one reads the retreat as made there)."""
    overstacks: frozenset[tuple[str, tuple[str, ...]]] = frozenset()
    """Overstacked hexes already reported, with their units (a lasting breach is reported once)."""
    by_hex: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """The units in each map hex, sorted (kept with `location`)."""
    held: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False)
    """The map hexes each side's units with a zone of control stand in (kept with `location`)."""

    def units_in(self, label: str) -> tuple[str, ...]:
        """The units in a hex, sorted."""
        return self.by_hex.get(label, ())

    def side_in(self, label: str) -> str | None:
        """The side of the units in a hex (None: empty)."""
        units = self.by_hex.get(label)
        return self.game.units_by_id[units[0]].side if units else None

    def hex_of(self, unit_id: str) -> Hex | None:
        """The map hex a unit is in (None: off the map)."""
        where = self.location.get(unit_id)
        grid = self.game.grid
        return grid.hex_of(where) if where is not None and grid.is_label(where) else None


def index_by_hex(game: Game, location: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The units in each map hex."""
    out: dict[str, list[str]] = {}
    is_label = game.grid.is_label
    for unit_id, where in sorted(location.items()):
        if is_label(where):
            out.setdefault(where, []).append(unit_id)
    return {label: tuple(units) for label, units in out.items()}


def moved_index(game: Game, by_hex: Mapping[str, tuple[str, ...]], location: Mapping[str, str],
                moves: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The units in each map hex after some units moved: only the hexes they left and entered are rebuilt."""
    is_label = game.grid.is_label
    out = dict(by_hex)
    for unit_id, where in moves.items():
        before = location.get(unit_id)
        if before is not None and before in out:
            left = tuple(u for u in out[before] if u != unit_id)
            if left:
                out[before] = left
            else:
                del out[before]
        if is_label(where):
            out[where] = tuple(sorted((*(u for u in out.get(where, ()) if u != unit_id), unit_id)))
    return out


def held_by_side(game: Game, by_hex: Mapping[str, tuple[str, ...]]) -> dict[str, frozenset[str]]:
    """The map hexes each side's units with a zone of control stand in."""
    units = game.units_by_id
    out: dict[str, set[str]] = {side: set() for side in game.manifest.sides}
    for label, ids in by_hex.items():
        for u in ids:
            if units[u].zoc:
                out.setdefault(units[u].side, set()).add(label)
    return {side: frozenset(labels) for side, labels in out.items()}


def _moved_held(game: Game, held: Mapping[str, frozenset[str]], by_hex: Mapping[str, tuple[str, ...]],
                before: Mapping[str, str], moves: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """`held` after some units moved (the index `by_hex` already moved): only the hexes they left and entered."""
    units = game.units_by_id
    out = dict(held)
    for unit_id, where in moves.items():
        unit = units[unit_id]
        side = unit.side
        labels = set(out.get(side, frozenset()))
        left = before.get(unit_id)
        if left in labels and not any(units[u].side == side and units[u].zoc for u in by_hex.get(left, ())):
            labels.discard(left)
        if unit.zoc and where in by_hex:
            labels.add(where)
        out[side] = frozenset(labels)
    return out


def reindexed(state: ClassicState, location: Mapping[str, str]) -> ClassicState:
    """The state with every unit's place given anew, its indexes rebuilt."""
    by_hex = index_by_hex(state.game, location)
    return evolve(state, location=location, by_hex=by_hex, held=held_by_side(state.game, by_hex))


def relocate(state: ClassicState, moves: Mapping[str, str], reduced: frozenset[str] | None = None,
             **changes: object) -> ClassicState:
    """The state with some units in new places (and new faces), the indexes kept with them."""
    location = {**state.location, **moves}
    by_hex = moved_index(state.game, state.by_hex, state.location, moves)
    held = _moved_held(state.game, state.held, by_hex, state.location, moves)
    return evolve(state, location=location, by_hex=by_hex, held=held,
                   reduced=state.reduced if reduced is None else reduced, **changes)


def _install(state: ClassicState, at: TurnContext, log: PhaseLog) -> ClassicState:
    """The state with the engine's new context and phase record."""
    return evolve(state, at=at, log=log)


def _context(state: ClassicState) -> TurnContext:
    return state.at


def _scenario(state: ClassicState) -> str:
    return state.scenario


KEEPER: TurnKeeper[ClassicState, PhaseLog] = TurnKeeper(_context, _install, PhaseLog, _scenario)
"""Where the engine keeps a classic game's turn: the state's `at` and `log`."""
