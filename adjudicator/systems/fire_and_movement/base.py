"""What every rule area of the Fire & Movement series asks of the others: unit look-up, the phase
under way, findings, and the hooks a folio's exclusive rules override (the python-chess variant
model: a folio is the series plus the hooks its exclusive rules change, see `omaha/`).

Each rule area is a mixin of `SeriesRules` in its own module; `system.py` puts them together.
The defaults here are the series' own rules.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Collection
from typing import Generic

from adjudicator.findings import Finding, SectionTable, Severity
from adjudicator.systems.base import PerGame, SystemBase
from adjudicator.notation.entries import (
    Attack, Bombard, Entry, Loss, Move, Retreat, StandFast, SupportMarkers, TurnMarker,
)
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement.combat import FmAudit, Modifier, Support
from adjudicator.systems.fire_and_movement.results import AttackFault, FmCombat, Owed, RetreatRoom, SpecialAttack
from adjudicator.systems.fire_and_movement.sections import RESTS_ON, SECTIONS
from adjudicator.systems.fire_and_movement.state import SEQUENCE as SEQUENCE  # 4.1's, kept where it was asked for
from adjudicator.systems.fire_and_movement.state import FireAndMovementState, S
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Marker, Unit
from wargame.sequence import Slot, opening_slot, slot_at, turn_sequence


COMBAT_PHASES = ("combat", "mobile_combat")
SERIES_TABLE = SectionTable("fire-and-movement", SECTIONS, rests_on=RESTS_ON)
OPENING: PerGame[Slot | None] = PerGame(lambda game: opening_slot(game.manifest))
"""What comes once before the first game turn (a folio's set-up and landing, `before_first_turn`)."""


def _position(state: FireAndMovementState) -> dict[str, object]:
    """A state's fields but its game and its combat under way (what a combat's arithmetic may read)."""
    fields = dict(state.__dict__)
    del fields["game"], fields["combat"]
    return fields


class EnemyTables:
    """What a side's enemies' places fix (6.0's zones, the hexes they hold), for the location mapping and
    the game they were worked out for; kept while only the side's own units move (zoc.py)."""

    __slots__ = ("location", "game", "zone", "held")

    def __init__(self, location: dict[str, str], game: weakref.ref[Game]) -> None:
        self.location = location
        self.game = game
        self.zone: frozenset[Hex] | None = None
        self.held: frozenset[Hex] | None = None


class SeriesRules(SystemBase[S]):
    """The helpers every rule area shares, and the hooks (series defaults) a folio overrides."""

    name = "fire-and-movement"
    table = SERIES_TABLE
    support_kinds: tuple[str, ...] = ("support_fire",)
    """Marker kinds a player places on a combat (7.2); a folio adds its own."""
    retreat_ignores_ezoc: frozenset[str] = frozenset()
    """Unit types a folio lets retreat through enemy zones of control (6.2: none in the series)."""
    keep_note = ""
    """What a drawn marker not placed may be instead (a folio's exception to 7.2)."""


    _audit_memo: tuple[weakref.ref[Game], dict[str, object], Entry, Modifier | None, FmAudit] | None = None
    """The last combat audit: the game, the state's fields but its combat, the entry, the modifier left out, and
    the arithmetic."""

    _crowded_memo: tuple[dict[str, str], list[tuple[str, frozenset[str]]]] | None = None
    """The map hexes holding more than one unit, with the location mapping they were found in."""

    # -- helpers ---------------------------------------------------------------------------------
    def _crowded(self, state: S) -> list[tuple[str, frozenset[str]]]:
        """The map hexes holding more than one unit, sorted (once per location mapping: a phase's end is
        checked, then applied, on the same position)."""
        memo = self._crowded_memo
        if memo is not None and memo[0] is state.location:
            return memo[1]
        labels = state.tables.labels
        here: dict[str, set[str]] = {}
        for unit, where in state.location.items():
            if where in labels:
                here.setdefault(where, set()).add(unit)
        crowded = [(where, frozenset(units)) for where, units in sorted(here.items()) if len(units) > 1]
        self._crowded_memo = (state.location, crowded)
        return crowded

    def _audited(self, state: S, entry: Attack | Bombard, left_out: Modifier | None,
                 work: Callable[[], FmAudit]) -> FmAudit:
        """A combat's arithmetic, worked out once for an entry in a position: an attack's or a bombardment's
        check asks for it again, and its application once more (on the same state, or one whose finished
        combat alone was closed, which the arithmetic does not read)."""
        memo = self._audit_memo
        fields = None
        if memo is not None and memo[2] is entry and memo[3] == left_out and memo[0]() is state.game:
            fields = _position(state)
            if fields == memo[1]:
                return memo[4]
        result = work()
        self._audit_memo = (weakref.ref(state.game), fields or _position(state), entry, left_out, result)
        return result

    @staticmethod
    def _unit(state: S, unit_id: str) -> Unit:
        return state.game.units_by_id[unit_id]

    def _f(self, severity: Severity, section: str, entry: Entry, message: str) -> Finding:
        return self.table.finding(severity, section, entry.line, entry.column, message)

    def no_combat(self, state: S, entry: Entry, section: str, message: str) -> Finding:
        """An entry carrying out a result with no combat open: the error, or a note after another such entry right
        before it (the same combat missing, or its attack refused: one breach, one error)."""
        earlier = state.log.orphaned
        if earlier is None:
            return self._f("error", section, entry, message)
        return self._f("note", section, entry, f"{message} (as the entry on line {earlier}: one error there)")

    def last_step_note(self, entry: Loss, section: str) -> Finding:
        """A `deplete` of a unit on its last step read as its elimination: a note (8.3; the rulings register)."""
        return self._f("note", section, entry, f"{entry.unit} has one step left (reduced, or a one-step unit), so "
                                               f"'deplete' is read as its elimination, the loss {section} calls for "
                                               "(8.3: such a unit told to deplete is eliminated); 'eliminate' says "
                                               "so outright")

    @staticmethod
    def phases(game: Game) -> tuple[str, ...]:
        """4.1: the ids of a game turn's phases in order (the game's `[[sequence]]`)."""
        return tuple(slot.id for slot in SEQUENCE(game))

    @staticmethod
    def phase_id(state: S) -> str | None:
        """The id of the phase under way."""
        return state.at.step

    def active(self, state: S) -> str | None:
        """The player whose turn it is (4.1), or None outside the player turns: the engine's context, from the
        game's sequence (the first player's turn first, 10.2)."""
        return state.at.player_turn

    def slot(self, state: S) -> Slot | None:
        """The phase under way as the game's sequence of play gives it (the opening before GT 1), with the
        entries it allows: the engine's check and the generators ask the same data (wargame/sequence.py)."""
        at = state.at
        return slot_at(SEQUENCE(state.game), OPENING(state.game), at.turn, at.step, at.player_turn)

    def _where(self, state: S) -> str:
        phase = self.phase_id(state)
        if phase is None:
            return f"GT {state.at.turn}, before the first phase"
        who = self.active(state)
        return f"GT {state.at.turn}, {phase.replace('_', ' ')} phase" + (f" ({who} player turn)" if who else "")

    @staticmethod
    def _on_map(state: S, unit_id: str) -> Hex | None:
        where = state.location.get(unit_id)
        return state.game.grid.hex_of(where) if where in state.tables.labels else None

    def _steps(self, state: S, unit_id: str) -> int:
        """Steps a unit has left: two at full strength, one reduced or one-step (8.2.4)."""
        unit = self._unit(state, unit_id)
        return 1 if unit_id in state.depleted or unit.steps < 2 or not unit.reduced else 2

    def _defenders(self, state: S, entry: Attack | Bombard, side: str) -> list[str]:
        units, target = state.game.units_by_id, entry.hex
        return sorted([u for u, w in state.location.items() if w == target and units[u].side != side])

    # -- hooks: the series' rules, which a folio's exclusive rules change ---------------------------
    def stack_limit(self, state: S, label: str) -> int:
        """5.3: one unit a hex."""
        return 1

    def allowance(self, state: S, unit_id: str, weather: bool = True) -> int:
        """The unit's movement allowance (reduced side when reduced); `weather` is for folios whose
        weather changes it (False: the MA before the weather halves it, which a misread halving is judged by)."""
        unit = self._unit(state, unit_id)
        values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
        index = state.tables.movement_index
        if index is None:
            raise ValueError(f"{state.game.id}'s units have no 'movement' value (value_names)")
        return values[index]

    def first_hex_cost(self, state: S, unit_id: str) -> float:
        """MP a unit has spent before its move's first step (a folio's arrivals)."""
        return 0.0

    def folio_may_move(self, state: S, unit_id: str) -> bool:
        """Whether a folio's own rules let a unit move now at all (the series has none of its own)."""
        return True

    def folio_bars(self, state: S, unit_id: str) -> list[tuple[str, str]]:
        """What a folio's own rules say bars a unit from moving now, (section, message) each (the series has
        none); `folio_may_move` is true when this is empty."""
        return []

    def folio_move(self, state: S, entry: Move) -> list[Finding] | None:
        """A folio's own verdict on a move before the series' (None: the series' rules decide)."""
        return None

    def folio_path(self, state: S, entry: Move) -> list[Finding]:
        """A folio's errors on a move's path before its steps are walked (the series has none)."""
        return []

    def off_limits(self, state: S) -> frozenset[Hex]:
        """Hexes of the map a folio's scenario puts out of play (none in the series)."""
        return frozenset()

    def out_of_supply(self, state: S) -> list[str]:
        """9.0: no supply rules in the series; every unit is always in supply."""
        return []

    def supply_line(self, state: S, unit_id: str) -> list[str] | None:
        """9.0: no supply rules in the series, so every unit on the map is in supply where it stands (a line of
        its own hex); None off the map."""
        where = self._on_map(state, unit_id)
        return None if where is None else [state.game.grid.label_of(where)]

    def is_out_of_supply(self, state: S, unit_id: str) -> bool:
        """Whether one unit is among `out_of_supply`'s (a folio may trace to it alone)."""
        return unit_id in self.out_of_supply(state)

    def supply_loss(self, state: S, unit_id: str) -> bool:
        """Whether a loss is a folio's supply loss rather than a combat's (9.0: none in the series)."""
        return False

    def defending(self, state: S, defenders: list[str], chosen: str | None = None) -> list[str]:
        """The units a combat's result touches (5.3: one unit a hex, so every one); `chosen` is the
        entry's `defender`, for a folio's stacks."""
        return defenders

    def untouched(self, state: S, combat: FmCombat, entry: Loss | Retreat | StandFast, unit_id: str) -> Finding | None:
        """Why a unit of the combat's own hex that its result does not touch breaks a folio's clause by losing a
        step, retreating or declaring stiff resistance (a stack defending with one unit), or None (the series
        stacks one unit a hex)."""
        return None

    def range_rule(self, marker: Marker) -> str:
        """The clause that gives a marker its bombardment range (8.1.1: the exclusive rules assign them)."""
        return "8.1.1"

    def support_value(self, state: S, marker: Marker, applied: int, target: Hex) -> int:
        """A marker's value once the folio's rules have changed it (none in the series)."""
        return applied

    def allowance_rule(self, state: S, unit_id: str) -> str | None:
        """The clause that cuts the unit's movement allowance now (None: it has its printed one)."""
        return None

    def support_value_rule(self) -> str | None:
        """The clause by which a folio changes marker values (None: the series changes none)."""
        return None

    def support_value_unmet(self, state: S, marker: Marker, applied: int) -> int:
        """A marker's value with the folio's change made whatever its condition (what misapplying it gives)."""
        return applied

    def folio_attack(self, state: S, entry: Attack) -> list[Finding] | None:
        """A folio's own attack (Omaha's beach assaults), checked instead of 8.2 (None: none)."""
        return None

    def is_special_attack(self, state: S, entry: Attack) -> SpecialAttack | None:
        """The folio's own kind of attack an attack is (no defender, no advance), None for the series' own."""
        return None

    def special_audit(self, state: S, entry: Attack) -> FmAudit | None:
        """The arithmetic of a folio's own attack, None for a series attack."""
        return None

    def attacker_checks(self, state: S, entry: Attack, unit_id: str) -> list[AttackFault]:
        """Why a folio's rules refuse one attacking unit (none in the series)."""
        return []

    def attack_checks(self, state: S, entry: Attack) -> list[Finding]:
        """A folio's errors for an attack as a whole (none in the series)."""
        return []

    def pool(self, state: S, side: str) -> Counter[str]:
        """The markers still in a side's pool this game turn (7.1, 7.2)."""
        return pools.in_cups(state.game, side, (), (), state.markers_used, False, scenario=state.scenario)

    def pool_gone(self, state: S, marker_id: str) -> list[str]:
        """Why copies of a marker are out of the pool, for the message."""
        n = state.markers_used.count(marker_id)
        return [f"{n} drawn or placed"] if n else []

    def marker_use(self, state: S, entry: Attack | Bombard, marker: Marker) -> list[Finding]:
        """A folio's errors for a marker placed on a combat (none in the series)."""
        return []

    def marker_apart(self, state: S, entry: Attack | Bombard, marker: Marker, owner: str,
                     kept: Counter[str], taken: Counter[str]) -> list[Finding] | None:
        """A folio's marker that does not come from the pool now (None: it does)."""
        return None

    def may_keep(self, marker: Marker) -> bool:
        """Whether a drawn marker may be kept rather than placed (7.2: none)."""
        return False

    def pool_check(self, state: S, entry: Entry, marker: Marker) -> list[Finding]:
        """A folio's errors for a marker taken from its pool (none in the series)."""
        return []

    def closing(self, state: S, entry: Entry) -> list[Finding]:
        """A folio's errors due as a phase ends (none in the series beyond 5.3)."""
        return []

    def stacks_noted_at_the_end(self, state: S) -> frozenset[str]:
        """The hexes whose stacks a folio's own notes judge as the log ends (none in the series)."""
        return frozenset()

    # -- areas that other areas ask (defined in their own modules) -------------------------------
    def may_draw_now(self, state: S) -> bool:
        raise NotImplementedError  # support.py

    def not_drawable(self, state: S, entry: SupportMarkers, marker_id: str) -> list[Finding]:
        raise NotImplementedError  # support.py

    def _named_markers(self, state: S, entry: SupportMarkers) -> tuple[list[Finding], list[str]]:
        raise NotImplementedError  # support.py

    def _check_draw(self, state: S, entry: SupportMarkers, side: str, named: list[str]) -> list[Finding]:
        raise NotImplementedError  # support.py

    def _placement(self, state: S, entry: Attack | Bombard,
                   kept: pools.Tally) -> tuple[list[tuple[str, str]], pools.Tally, pools.Tally]:
        raise NotImplementedError  # support.py

    def bombard_marker(self, state: S, entry: Bombard, marker: Marker) -> list[Finding] | None:
        raise NotImplementedError  # bombardment.py

    def enemy_hexes(self, state: S, side: str) -> frozenset[Hex]:
        raise NotImplementedError  # zoc.py

    def _fortified_ezoc(self, state: S, entry: Move, a: Hex, b: Hex) -> list[Finding]:
        raise NotImplementedError  # zoc.py

    def turn_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        raise NotImplementedError  # sequence.py

    def _length_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        raise NotImplementedError  # sequence.py

    def folio_loss(self, state: S, entry: Loss) -> list[Finding] | None:
        raise NotImplementedError  # combat_results.py

    def _outstanding(self, state: S, combat: FmCombat) -> list[Owed]:
        raise NotImplementedError  # combat_results.py

    def bombard_effect(self, state: S, entry: Bombard, result: str | None) -> str | None:
        raise NotImplementedError  # bombardment.py

    def ezoc(self, state: S, side: str) -> frozenset[Hex]:
        raise NotImplementedError  # zoc.py

    def step_cost(self, game: Game, a: Hex, b: Hex) -> float | None:
        raise NotImplementedError  # movement.py

    def retreat_paths(self, state: S, unit_id: str, hexes: int, ezoc_counts: bool = True) -> list[tuple[Hex, ...]]:
        raise NotImplementedError  # retreat.py

    def retreat_room(self, state: S, unit_id: str, due: int) -> RetreatRoom:
        raise NotImplementedError  # retreat.py

    def combat_audit(self, state: S, entry: Attack, left_out: Modifier | None = None) -> FmAudit:
        raise NotImplementedError  # ground_combat.py

    def bombard_audit(self, state: S, entry: Bombard, left_out: Modifier | None = None) -> FmAudit:
        raise NotImplementedError  # bombardment.py

    def _check_support(self, state: S, entry: Attack | Bombard, side: str) -> list[Finding]:
        raise NotImplementedError  # support.py

    def overdrawn(self, state: S, side: str) -> bool:
        raise NotImplementedError  # support.py

    def _supports(self, state: S, entry: Attack | Bombard, target: Hex,
                  left_out: Modifier | None = None) -> list[Support]:
        raise NotImplementedError  # support.py

    def with_basis(self, state: S, entry: Attack | Bombard, result: FmAudit, findings: list[Finding]) -> list[Finding]:
        raise NotImplementedError  # ground_combat.py

    def _claims(self, entry: Attack, result: FmAudit, section: str, why: str = "",
                codes: Collection[str] = ()) -> list[Finding]:
        raise NotImplementedError  # ground_combat.py

    def left_out_rule(self, state: S, entry: Attack | Bombard, truth: FmAudit, terrain_rule: str,
                      effect: Callable[[str | None], str | None] = lambda result: result) -> tuple[str, str] | None:
        raise NotImplementedError  # ground_combat.py

    def _in_pool(self, state: S, entry: Entry, side: str, marker_id: str, nth: int) -> list[Finding]:
        raise NotImplementedError  # support.py

    def _placed(self, state: S, entry: Attack | Bombard) -> S:
        raise NotImplementedError  # support.py


class SeriesArea(Generic[S]):
    """One rule area of the series, composed into the system (house style 18): it asks the system for the shared
    helpers, the hooks a folio answers, and the other areas (`rules.zoc`, ...)."""

    def __init__(self, rules: SeriesRules[S]) -> None:
        self.rules = rules
        """The system this area belongs to (a folio's, whose hooks answer for it)."""

    def _f(self, severity: Severity, section: str, entry: Entry, message: str) -> Finding:
        """A finding of the system's section table."""
        return self.rules._f(severity, section, entry, message)
