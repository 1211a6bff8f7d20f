"""D-Day: Omaha Beach (Decision Games) as a folio of the Fire & Movement series: the series' rule
system with the hooks its exclusive rules (10.0-15.0) change, cited as `omaha` (the series' own
rules stay `fire-and-movement`). Each rule area of the folio is a component in a module of this package
(an `Area` given the system); the registry is the series' with Omaha's handlers put in by name, and the
optional rules are layers the log's headers put on. Another folio is added the same way, on
`FireAndMovement`, with its own section table (docs/architecture.md, "Add a variant").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from adjudicator.contract import MarkerUse, Outcome, Position
from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import (
    Advance, Attack, Bombard, Declare, Entry, Header, Loss, Move, Place, Retreat, RollOff, StandFast, StepMarker,
    SupportMarkers, TurnMarker,
)
from adjudicator.registry import Handler, Registry
from adjudicator.systems.fire_and_movement.base import SERIES_TABLE
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement.combat import FmAudit
from adjudicator.systems.fire_and_movement.results import AttackFault, FmCombat, SpecialAttack
from adjudicator.systems.fire_and_movement.state import PhaseLog, evolve
from adjudicator.systems.fire_and_movement.system import Check, FireAndMovement
from adjudicator.systems.omaha import boundary
from adjudicator.systems.omaha import optional as optional_rules
from adjudicator.systems.omaha.arrivals import Arrivals
from adjudicator.systems.omaha.base import CAMPAIGN, OmahaRules
from adjudicator.systems.omaha.beach import BeachAssaults
from adjudicator.systems.omaha.boundary import ScenarioBoundary
from adjudicator.systems.omaha.campaign import Campaign
from adjudicator.systems.omaha.cups import Cups
from adjudicator.systems.omaha.optional import OptionalHooks
from adjudicator.systems.omaha.pointe_du_hoc import PointeDuHoc
from adjudicator.systems.omaha.sections import RESTS_ON, SECTIONS
from adjudicator.systems.omaha.setup import SetUp
from adjudicator.systems.omaha.state import OmahaPhaseLog, OmahaState
from adjudicator.systems.omaha.supply import Supply
from adjudicator.systems.omaha.victory import Victory
from adjudicator.systems.omaha.weather import Weather
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Marker

E = TypeVar("E", bound=Entry)
Layer = tuple[Registry[OmahaState], OptionalHooks]
"""Omaha's registry and optional hooks with some optional rules' layers on."""

UNCHECKED: dict[str, str] = {
    "place": "11.0-11.2: placements other than set-up, reinforcements and replacements",
    "capture": "not a Fire & Movement entry", "income": "11.2.5",
}
"""The sections governing entries this version applies without checking, by kind."""


class Omaha(OmahaRules):
    """The Fire & Movement series with Omaha Beach's exclusive rules."""

    name = "omaha"
    table = SectionTable("omaha", SECTIONS, series=SERIES_TABLE, rests_on=RESTS_ON)
    state_type = OmahaState
    phase_log = OmahaPhaseLog
    unchecked = UNCHECKED
    retreat_ignores_ezoc = frozenset({"ranger"})
    """11.2.3: rangers ignore EZOC for all purposes, retreats and displacements included (commandos
    only in movement, 6.1)."""
    entry_kinds = FireAndMovement.entry_kinds | {"declare"}
    foreign_kinds = {kind: why for kind, why in FireAndMovement.foreign_kinds.items() if kind != "declare"}
    """13.0, 14.3: a claim of victory is Omaha's (`declare victory`); the series' other foreign kinds stay."""

    support_kinds = ("support_fire", "naval_gunfire", "mines")
    """Marker kinds a player places on a combat (7.2, 11.1.4, 11.2.7)."""
    keep_note = " (only the Achtung Minen may be put aside, 11.1.4)"

    def __init__(self) -> None:
        super().__init__()
        self.cups = Cups(self)
        self.supply = Supply(self)
        self.assaults = BeachAssaults(self)
        self.arrivals = Arrivals(self)
        self.pdh = PointeDuHoc(self)
        self.setup = SetUp(self)
        self.campaign = Campaign(self)
        self.victory = Victory(self)
        self.weather = Weather(self)
        self.boundary = ScenarioBoundary(self)
        # The folio's registry is the series' with Omaha's handlers put in by name (house style 12, 18): each
        # replacing one keeps the series' check and calls the series' apply for what it extends (`series_apply`);
        # a claim of victory is added (it changes nothing: the verdict is the count's, so it has no apply).
        series = self.registry
        self.series = {h.name: h for h in series.handlers}

        def extending(name: str, apply: Callable[[OmahaState, E], OmahaState]) -> Handler[OmahaState, E]:
            handler = self.series[name]
            return Handler(name, handler.entry, handler.clause, handler.check, apply,  # type: ignore[arg-type]
                           handler.rests_on, handler.tests)

        self.registry = series.replacing("move", extending("move", self._moved)) \
            .replacing("attack", extending("attack", self._attacked)) \
            .replacing("place", extending("place", self._placed_unit)) \
            .replacing("loss", extending("loss", self._lost)) \
            .replacing("retreat", extending("retreat", self._retreated)) \
            .replacing("advance", extending("advance", self._advanced)) \
            .replacing("roll", Handler("roll", RollOff, "log", self._check_rolls, self._rolled)) \
            .replacing("markers", Handler("markers", SupportMarkers, "7.1", self.cups._check_cups,
                                          self.cups._cups_marked)) \
            .adding(Handler("victory-claim", Declare, "13.0", self.victory._check_claim))
        self.layers: dict[str, Callable[[Layer], Layer]] = {"weather": self._weather_layer, "flak": self._flak_layer}
        """Each optional rule's layer, by its id in game.toml, in the order they are put on."""
        self._layered: dict[frozenset[str], Layer] = {}

    def initial_state(self, game: Game, headers: Sequence[Header]) -> OmahaState:
        """The scenario's set-up (3.0, 11.0): the series' state, with the campaign's rules (14.0)."""
        state = super().initial_state(game, headers)
        # 14.0 a: no scenario boundary in the campaign game (10.1 is the scenario's); its weather (14.1)
        # is game.toml's in_force, put on by the series.
        if state.scenario != CAMPAIGN:
            return evolve(state, beyond=boundary.beyond(game))
        return state

    # -- the rule areas' answers to the series' hooks --------------------------------------------------------------
    def pool(self, state: OmahaState, side: str) -> Counter[str]:
        """Cups (cups.py): The markers still in a side's cups this game turn (7.1, 11.1.4, 11.2.6, 14.1)."""
        return self.cups.pool(state, side)

    def pool_gone(self, state: OmahaState, marker_id: str) -> list[str]:
        """Why copies of a marker are out of its cup, for the message (cups.py)."""
        return self.cups.pool_gone(state, marker_id)

    def pool_check(self, state: OmahaState, entry: Entry, marker: Marker) -> list[Finding]:
        """Cups (cups.py): 14.1: no aircraft in inclement weather."""
        return self.cups.pool_check(state, entry, marker)

    def marker_use(self, state: OmahaState, entry: Attack | Bombard, marker: Marker) -> list[Finding]:
        """Cups (cups.py): 11.2.7: naval gunfire supports only the beach assaults of GT 1."""
        return self.cups.marker_use(state, entry, marker)

    def marker_apart(self, state: OmahaState, entry: Attack | Bombard, marker: Marker, owner: str,
                     kept: Counter[str], taken: Counter[str]) -> list[Finding] | None:
        """7.2, 11.1.4: a kept Achtung Minen or a marker drawn for this combat, not from the cups now (cups.py)."""
        return self.cups.marker_apart(state, entry, marker, owner, kept, taken)

    def may_keep(self, marker: Marker) -> bool:
        """Cups (cups.py): 11.1.4: a drawn Achtung Minen may be kept for a later combat of the game turn."""
        return self.cups.may_keep(marker)

    def may_draw_now(self, state: OmahaState) -> bool:
        """Cups (cups.py): 11.2.3: markers are drawn for the beach assaults before GT 1."""
        return self.cups.may_draw_now(state)

    def not_drawable(self, state: OmahaState, entry: SupportMarkers, marker_id: str) -> list[Finding]:
        """Cups (cups.py): 11.2.7: naval gunfire is never in a cup."""
        return self.cups.not_drawable(state, entry, marker_id)

    def range_rule(self, marker: Marker) -> str:
        """11.2.6: the clause giving an Omaha marker its bombardment range (cups.py)."""
        return self.cups.range_rule(marker)

    def bombard_marker(self, state: OmahaState, entry: Bombard, marker: Marker) -> list[Finding] | None:
        """Cups (cups.py): 11.1.4: the Achtung Minen support ground combat only."""
        return self.cups.bombard_marker(state, entry, marker)

    def _placed(self, state: OmahaState, entry: Attack | Bombard) -> OmahaState:
        """7.2, 11.1.4: the cups after markers are placed on a combat (cups.py)."""
        return self.cups._placed(state, entry)

    def supply_loss(self, state: OmahaState, unit_id: str) -> bool:
        """Whether a loss is 12.0's supply loss rather than a combat's (supply.py)."""
        return self.supply.supply_loss(state, unit_id)

    def folio_loss(self, state: OmahaState, entry: Loss) -> list[Finding] | None:
        """Supply (supply.py): 12.0's loss outside a combat, and the Rangers' at Pointe du Hoc (11.2.3)."""
        return self.supply.folio_loss(state, entry)

    def supply_line(self, state: OmahaState, unit_id: str) -> list[str] | None:
        """12.0: the line an Allied unit traces toward the beach (supply.py)."""
        return self.supply.supply_line(state, unit_id)

    def out_of_supply(self, state: OmahaState) -> list[str]:
        """12.0: the Allied units that trace no line of supply now (supply.py)."""
        return self.supply.out_of_supply(state)

    def is_out_of_supply(self, state: OmahaState, unit_id: str) -> bool:
        """12.0: whether one unit traces no line of supply now (supply.py)."""
        return self.supply.is_out_of_supply(state, unit_id)

    def is_special_attack(self, state: OmahaState, entry: Attack) -> SpecialAttack | None:
        """BeachAssaults (beach.py): 11.2.3: a beach assault has no defender and no advance."""
        return self.assaults.is_special_attack(state, entry)

    def special_audit(self, state: OmahaState, entry: Attack) -> FmAudit | None:
        """BeachAssaults (beach.py): 11.2.3: a beach assault's arithmetic."""
        return self.assaults.special_audit(state, entry)

    def folio_attack(self, state: OmahaState, entry: Attack) -> list[Finding] | None:
        """11.2.1-11.2.3: a beach assault, checked instead of 8.2 (beach.py)."""
        return self.assaults.folio_attack(state, entry)

    def attacker_checks(self, state: OmahaState, entry: Attack, unit_id: str) -> list[AttackFault]:
        """BeachAssaults (beach.py): 11.2.1: the landed units' beach assault was their only action of GT 1."""
        return self.assaults.attacker_checks(state, entry, unit_id)

    def attack_checks(self, state: OmahaState, entry: Attack) -> list[Finding]:
        """BeachAssaults (beach.py): 11.2.4: one unit of a beach landing stack attacks a given hex."""
        return self.assaults.attack_checks(state, entry)

    def untouched(self, state: OmahaState, combat: FmCombat, entry: Loss | Retreat | StandFast,
                  unit_id: str) -> Finding | None:
        """11.2.3, 11.2.4: a unit of a stack the result does not touch losing a step, retreating or resisting
        (beach.py)."""
        return self.assaults.untouched(state, combat, entry, unit_id)

    def defending(self, state: OmahaState, defenders: list[str], chosen: str | None = None) -> list[str]:
        """The units of a stack a combat's result touches (11.2.4: the one the attacker names, beach.py)."""
        return self.assaults.defending(state, defenders, chosen)

    def first_hex_cost(self, state: OmahaState, unit_id: str) -> float:
        """Arrivals (arrivals.py): 11.1.2: a German reinforcement has paid its first hex's cost on entering."""
        return self.arrivals.first_hex_cost(state, unit_id)

    def allowance(self, state: OmahaState, unit_id: str, weather: bool = True) -> int:
        """The movement allowance, halved in inclement weather (14.1, weather.py)."""
        return self.weather.allowance(state, unit_id, weather)

    def support_value(self, state: OmahaState, marker: Marker, applied: int, target: Hex) -> int:
        """A marker's value with the optional rules in force (15.0, weather.py)."""
        return self.weather.support_value(state, marker, applied, target)

    def allowance_rule(self, state: OmahaState, unit_id: str) -> str | None:
        """Weather (weather.py): 14.1 while inclement weather halves the unit's allowance."""
        return self.weather.allowance_rule(state, unit_id)

    def support_value_unmet(self, state: OmahaState, marker: Marker, applied: int) -> int:
        """15.0's halving made with no German AA/Flak near, a misreading (weather.py)."""
        return self.weather.support_value_unmet(state, marker, applied)

    def support_value_rule(self) -> str | None:
        """Weather (weather.py): 15.0 is the clause that changes marker values (its flak halving)."""
        return self.weather.support_value_rule()

    def off_limits(self, state: OmahaState) -> frozenset[Hex]:
        """ScenarioBoundary (boundary.py): 10.1: retreats never count a hex beyond the boundary as open."""
        return self.boundary.off_limits(state)

    # -- what the areas ask of each other --------------------------------------------------------------------------
    def _full_on_arrival(self, state: OmahaState, unit_id: str) -> bool:
        """11.1.2: a German reinforcement moves its full MA on its GT of arrival (arrivals.py)."""
        return self.arrivals._full_on_arrival(state, unit_id)

    def supplied(self, state: OmahaState, targets: frozenset[Hex] | None = None) -> frozenset[Hex]:
        """Hexes from which an Allied unit traces supply (12.0, supply.py)."""
        return self.supply.supplied(state, targets)

    def captured(self, state: OmahaState, labels: Iterable[str]) -> list[str]:
        """The hexes among `labels` the Allies have captured and supply (13.0, victory.py)."""
        return self.victory.captured(state, labels)

    def verdict(self, state: OmahaState) -> tuple[str, str]:
        """13.0 at the end of the last game turn: the winner and why (victory.py)."""
        return self.victory.verdict(state)

    def final_verdict(self, state: OmahaState) -> tuple[str, str] | None:
        """The winner and why at the end of the last game turn, None before (13.0, 14.2, 14.3, campaign.py)."""
        return self.campaign.final_verdict(state)

    def _check_pdh_loss(self, state: OmahaState, entry: Loss) -> list[Finding]:
        """11.2.3: the Rangers' loss is the one the Pointe du Hoc die calls for (pointe_du_hoc.py)."""
        return self.pdh._check_pdh_loss(state, entry)

    def _check_pdh_done(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """11.2.3: as GT 1 begins the Pointe du Hoc assault is rolled and its loss written (pointe_du_hoc.py)."""
        return self.pdh._check_pdh_done(state, entry)

    # -- check -------------------------------------------------------------------------------------
    def closing(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """As a phase ends: 11.2.1's units that left the beach, 12.0's supply losses, 11.1.2 and
        11.2.4's reinforcements due, 11.2.4's landings judged where they stand as the Movement Phase ends; as the
        Support Fire Marker Phase ends, what the rules owe."""
        out = self.assaults._stacked_again(state, entry) + self.supply._supply_due(state, entry) + \
            self.arrivals._landed_unheld(state, entry) + self.arrivals._arrivals_due(state, entry)
        if self.phase_id(state) == "support_fire_marker":
            out += self.cups._owed(state, entry)
        return out

    def stacks_noted_at_the_end(self, state: OmahaState) -> frozenset[str]:
        """The beach landing hexes whose landings are noted as the log ends (11.2.4, 5.3's room among them)."""
        return frozenset(self.arrivals._landings_at_the_end(state))

    def turn_checks(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """11.0, 11.2.1, 11.2.3: the set-up and the landing complete as GT 1 begins."""
        return self.setup._check_start(state, entry) if state.at.turn == 0 and entry.turn == 1 and state.set_up else []

    def _length_checks(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """10.2: the scenario's length; 14.2: the campaign's."""
        scenario = next(s for s in state.game.manifest.scenario if s.id == state.scenario)
        out = []
        if entry.turn > scenario.last_turn and not self._campaign(state):
            out.append(self._f("error", "10.2", entry, f"the scenario ends with GT {scenario.last_turn}"))
        return out + self.campaign._check_campaign_turn(state, entry)

    def entry_checks(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """10.1 for every entry that puts a unit somewhere."""
        if isinstance(entry, (Move, Retreat, Advance, Place)):
            return self.boundary._check_boundary(state, entry)
        return []

    def follow_up(self, state: OmahaState, entry: Entry, found: list[Finding]) -> list[Finding]:
        """11.0 (house style 16): an error of an entry about a unit never set up or landed, still off the map, is a note:
        the players act as if it were where the missing line put it, and that line's absence is the one error; a
        reinforcement never placed likewise (arrivals.py)."""
        found = self.arrivals.follow_up(state, entry, found)
        missing = [u for u in entry.acting_units() if u in state.unlanded and self._on_map(state, u) is None] \
            if state.unlanded else []
        if not missing:
            return found
        return [replace(f, severity="note", message=f"{f.message} (not a breach of its own: "
                                                    f"{next(u for u in missing if u in f.message)} was never set up "
                                                    "or landed, one error as GT 1 began, 11.0)")
                if f.severity == "error" and any(u in f.message for u in missing) else f for f in found]

    def place_checks(self) -> dict[str, Check[OmahaState]]:
        """11.0, 11.2.1 set-up; 11.1.2, 11.2.4 reinforcements; 11.1.3, 11.2.5 replacements."""
        return {"setup": self.setup._check_setup, "reinforce": self.arrivals._check_reinforce,
                "replace": self.arrivals._check_replace}

    def stacked_by_arrival(self, state: OmahaState, entry: Place) -> frozenset[str]:
        """Arrivals (arrivals.py): 5.3: a reinforcement refused for arriving onto a friend, with the friend."""
        return self.arrivals.stacked_by_arrival(state, entry)

    def misplacement_reported(self, state: OmahaState, entry: Entry) -> str | None:
        """Arrivals (arrivals.py): 11.1.2, 11.2.4: a late reinforcement, reported as the Movement Phase ended."""
        return self.arrivals.misplacement_reported(state, entry)

    def folio_move(self, state: OmahaState, entry: Move) -> list[Finding] | None:
        """11.2.3: the Rangers' move after the Pointe du Hoc roll; 11.2.1: the landed units stay on GT 1."""
        pdh = self.pdh._pdh_move(state, entry)
        if pdh is not None:
            return pdh
        if self.assaults._landed_on_gt1(state, entry.unit):
            return [self._f("error", "11.2.1", entry, f"{entry.unit} landed on the beach and does not move during GT 1 "
                                                    "(11.2.1)")]
        return None

    def folio_bars(self, state: OmahaState, unit_id: str) -> list[tuple[str, str]]:
        """11.2.1: a unit landed on the beach during GT 1 stays; 11.2.4: one landed this Movement Phase too."""
        out = []
        if self.assaults._landed_on_gt1(state, unit_id):
            out.append(("11.2.1", f"{unit_id} landed on the beach and does not move during GT 1 (11.2.1)"))
        if self._landed_this_phase(state, unit_id):
            out.append(("11.2.4", f"{unit_id} landed this Movement Phase and moves no further in it (11.2.4)"))
        return out

    def folio_may_move(self, state: OmahaState, unit_id: str) -> bool:
        """11.2.1: not a unit landed on the beach during GT 1; 11.2.4: not one landed this Movement Phase."""
        return not self.assaults._landed_on_gt1(state, unit_id) and not self._landed_this_phase(state, unit_id)

    def _landed_this_phase(self, state: OmahaState, unit_id: str) -> bool:
        """11.2.4: a reinforcement landed this Movement Phase moves no further in it."""
        return unit_id in state.log.landed and self.phase_id(state) == "movement"

    def folio_path(self, state: OmahaState, entry: Move) -> list[Finding]:
        """11.2.4: a reinforcement landed this Movement Phase moves no further in it."""
        if self._landed_this_phase(state, entry.unit):
            return [self._f("error", "11.2.4", entry, f"{entry.unit} landed this Movement Phase and moves no further "
                                                    "in it (11.2.4)")]
        return []

    def _check_rolls(self, state: OmahaState, entry: RollOff) -> list[Finding]:
        """11.2.3: the Pointe du Hoc die before GT 1 (14.1's layer adds the weather dice). Combat dice are written
        with their combats."""
        bad = [f"{s} {d}" for s, d in entry.rolls.items() if not 1 <= d <= 6]
        if bad:
            return [self._f("error", "log", entry, f"a die roll is 1 to 6, not {', '.join(bad)}")]
        if state.at.turn == 0:
            return self.pdh._check_pdh_roll(state, entry)
        return [self._f("error", "log", entry, "no die roll is called for here: combat and bombardment dice are "
                                               "written with their entries ('die N'); 'Roll' records the Pointe du Hoc "
                                               "roll before GT 1 (11.2.3) and, with weather in force (the campaign game, "
                                               "[Optional \"weather\"]), the weather rolls as a game turn begins (14.1)")]

    # -- apply -------------------------------------------------------------------------------------
    def apply(self, state: OmahaState, entry: Entry) -> OmahaState:
        """The state after an entry, as the log writes it, with control, beachheads and the German
        sudden death victory kept up to date (11.2.1, 13.0)."""
        after = super().apply(state, entry)
        if after.location is not state.location:
            grid = state.game.grid
            units = state.game.units_by_id
            before = state.location
            if isinstance(entry, Move):
                # 5.1: a move carried out changes its own unit's place only.
                where = after.location[entry.unit]
                moved = {entry.unit: where} if where != before.get(entry.unit) and grid.is_label(where) else {}
            else:
                moved = {u: w for u, w in after.location.items() if w != before.get(u) and grid.is_label(w)}
            controlled = after.controlled
            beachheads = after.beachheads
            for unit_id, where in moved.items():
                side = units[unit_id].side
                if controlled.get(where) != side:
                    if controlled is after.controlled:
                        controlled = dict(controlled)  # copied once, and only when control changes hands
                    controlled[where] = side
                if side == "German" and beachheads is not None and where in beachheads:
                    beachheads = beachheads - {where}  # 11.2.1: a German unit in the hex removes the marker
            if controlled is not after.controlled or beachheads is not after.beachheads:
                after = evolve(after, controlled=controlled, beachheads=beachheads)
        return after

    def turn_over(self, state: OmahaState, entry: TurnMarker) -> OmahaState:
        """As a game turn ends, in its context: the beachheads the assault left (11.2.1, 11.2.3), the stacks 11.2.1
        reported, the German's sudden death (13.0), the campaign's length (14.2), the markers back in their cups (7.2,
        11.1.4) and the turn's weather gone (14.1)."""
        after = evolve(self.sequence._turn_ended(state, entry), restacked=self.assaults.still_restacked(state))
        if state.at.turn == 0 and state.set_up:
            # 11.2.1: markers stay only on the beach hexes the assault landed on; 11.2.3: those whose assault's
            # units were all eliminated are gone for good.
            landed = self._landed_hexes(state)
            after = evolve(after, beachheads=landed, wiped_out=frozenset(h for h, _ in state.landing or ()) - landed)
            if entry.turn == 1:
                # 11.0: a unit not landed as GT 1 begins is that error; its arrival as a reinforcement later is not
                # owed again as a second one (a lasting condition, reported once: `late`).
                unplaced = frozenset(self.setup.unplaced(state))
                after = evolve(after, late=after.late | unplaced, unlanded=unplaced)
        if state.at.turn and after.victory is None and not self.landing_hexes(state):
            # 13.0: no beach landing hex left at the end of a game turn: the German wins at once.
            section = "14.3" if self._campaign(state) else "13.0"
            after = evolve(after, victory=Outcome("German", section, entry.line, f"no beach landing hex is left to "
                                                                                f"the Allies at the end of GT {state.at.turn}"))
        if self._campaign(state) and state.last_turn is None and \
                state.at.turn == self._campaign_number(state, "campaign_base_last_turn", 17):
            after = evolve(after, last_turn=self.campaign.campaign_last_turn(state)[0])  # 14.2: fixed as GT 17 ends
        before_gt1 = state.at.turn == 0  # 11.2.3: the beach assaults before GT 1 use GT 1's markers.
        return evolve(after, markers_used=state.markers_used if before_gt1 else pools.NONE,
                      withheld=state.withheld if before_gt1 else pools.NONE, mines_aside=pools.NONE, weather=None,
                      owed=(*state.owed, *self.cups._capture_losses(state)),
                      captured=state.captured | {name for name, _ in self.cups._newly_captured(state)})

    def turn_goes_on(self, state: OmahaState, fresh: PhaseLog) -> PhaseLog:
        """A phase's fresh record with what happened in the game turn: the replacement points used (11.2.5) and the
        sides that rolled for the markers put aside (14.1)."""
        return evolve(fresh, replaced=state.log.replaced, weather_rolls=state.log.weather_rolls)

    def phase_over(self, state: OmahaState, entry: StepMarker) -> OmahaState:
        """As a phase ends, in its context: reinforcements reported late (11.1.2, 11.2.4), the stacks 11.2.1 reported,
        Achtung Minen drawn and kept (11.1.4), marker entries still owed dropped after the Support Fire Marker
        Phase."""
        after = self.sequence._phase_ended(state, entry)
        markers = state.game.markers_by_id
        return evolve(after, late=self.arrivals._reported_late(state), restacked=self.assaults.still_restacked(state),
                      mines_aside=state.mines_aside.plus(m for _, m in state.log.drawn if markers[m].kind == "mines"),
                      owed=() if self.phase_id(state) == "support_fire_marker" else state.owed)

    def _moved(self, state: OmahaState, entry: Move) -> OmahaState:
        after = self.series_apply("move", state, entry)
        if after is state:
            return state  # not carried out (written from the wrong hex)
        if state.at.turn <= 1 and state.pointe_du_hoc is not None and entry.unit == self._ranger(state):
            after = evolve(after, ranger_moved=state.ranger_moved + len(entry.path) - 1)  # 11.2.3
        return evolve(after, left_beach=self.assaults._leaving(state, entry.unit, entry.path))

    def _retreated(self, state: OmahaState, entry: Retreat) -> OmahaState:
        return evolve(self.series_apply("retreat", state, entry),
                      left_beach=self.assaults._leaving(state, entry.unit, entry.path))

    def _advanced(self, state: OmahaState, entry: Advance) -> OmahaState:
        return evolve(self.series_apply("advance", state, entry),
                      left_beach=self.assaults._leaving(state, entry.unit, entry.path))

    def _attacked(self, state: OmahaState, entry: Attack) -> OmahaState:
        after = self.series_apply("attack", state, entry)
        assaulted = state.assaulted | ({entry.hex} if state.at.turn == 0 else set())
        landing = state.landing
        if landing is None and self._is_beach_assault(state, entry):
            landing = tuple(sorted(self._landing_counts(state).items()))  # 11.2.1: the landing as it was
        return evolve(after, assaulted=assaulted, landing=landing)

    def _lost(self, state: OmahaState, entry: Loss) -> OmahaState:
        # 12.0: a loss as the Allied player turn ends that no combat claims is the supply loss.
        supply = self._allied_turn_ending(state) and \
            (state.combat is None or self.supply._supply_loss(state, entry.unit))
        if supply:
            state = evolve(state, log=evolve(state.log, supply_losses=state.log.supply_losses | {entry.unit}))
        if state.at.turn == 0 and state.pointe_du_hoc is not None and entry.unit == self._ranger(state):
            state = evolve(state, ranger_loss=True)  # 11.2.3: the loss written, right or wrong
        return self.series_apply("loss", state, entry)

    def _placed_unit(self, state: OmahaState, entry: Place) -> OmahaState:
        game = state.game
        if entry.how == "setup":
            state = evolve(state, set_up=True)
        if entry.how == "replace" and entry.unit in game.units_by_id:
            # 11.2.5: rebuilt to full strength where it stands.
            return evolve(state, depleted=state.depleted - {entry.unit},
                          log=evolve(state.log, replaced=(*state.log.replaced, self._unit(state, entry.unit).mobility)))
        if entry.how == "reinforce" and entry.hex is not None and game.grid.is_label(entry.hex) and \
                entry.unit in game.units_by_id:
            if self._unit(state, entry.unit).side == "German":
                cost = self.arrivals._entry_cost(state, entry.hex)
                state = evolve(state, log=evolve(state.log, entered=(*state.log.entered, (entry.unit, cost))))
            else:
                lines = (*state.log.landing_lines, (entry.unit, entry.line))
                state = evolve(state, log=evolve(state.log, landed=state.log.landed | {entry.unit}, landing_lines=lines))
        return self.series_apply("place", state, entry)

    def _rolled(self, state: OmahaState, entry: RollOff) -> OmahaState:
        """The Pointe du Hoc roll (11.2.3), with what it calls for (14.1's layer adds the weather rolls)."""
        return self.pdh._pdh_rolled(state, entry) if state.at.turn == 0 else state

    # -- the optional rules' layers (14.1, 15.0), put on by the log's headers ---------------------------------
    def _check_rolls_in_weather(self, state: OmahaState, entry: RollOff) -> list[Finding]:
        """14.1's `roll` check: the weather dice as a game turn begins, else `_check_rolls`."""
        if state.at.turn != 0 and all(1 <= d <= 6 for d in entry.rolls.values()):
            weather = self.weather._check_weather_roll(state, entry)
            if weather is not None:
                return weather
        return self._check_rolls(state, entry)

    def _rolled_in_weather(self, state: OmahaState, entry: RollOff) -> OmahaState:
        """14.1's `roll` application: the Pointe du Hoc roll (11.2.3) and the weather rolls."""
        return self.pdh._pdh_rolled(state, entry) if state.at.turn == 0 else self.weather._weather_rolled(state, entry)

    def _weather_layer(self, layer: Layer) -> Layer:
        """14.1: the weather dice checked and applied, and owed as the Support Fire Marker Phase ends."""
        registry, hooks = layer
        return (registry.replacing("roll", Handler("roll", RollOff, "log", self._check_rolls_in_weather,
                                                   self._rolled_in_weather)),
                replace(hooks, weather_owed=self.weather._weather_owed))

    def _flak_layer(self, layer: Layer) -> Layer:
        """15.0: aircraft markers near German AA/Flak count half."""
        registry, hooks = layer
        return registry, replace(hooks, support_value=self.weather._flak_value)

    def layered(self, optional: frozenset[str]) -> Layer:
        """The registry and hooks with the layers of these optional rules put on Omaha's own, in `LAYERS`' order
        (made once per set of headers)."""
        made = self._layered.get(optional)
        if made is None:
            made = (self.registry, optional_rules.BASE)
            for rule, put_on in self.layers.items():
                if rule in optional:
                    made = put_on(made)
            self._layered[optional] = made
        return made

    def registry_of(self, state: OmahaState) -> Registry[OmahaState]:
        """Omaha's registry with the layers of the optional rules in force."""
        return self.layered(state.optional)[0]

    def hooks_of(self, state: OmahaState) -> OptionalHooks:
        """Omaha's hooks with the layers of the optional rules in force."""
        return self.layered(state.optional)[1]

    # -- the end -----------------------------------------------------------------------------------
    def finish(self, state: OmahaState) -> list[Finding]:
        """Notes at the log's end: an automatic victory, the end-game verdict after the last game
        turn (13.0), the campaign's (14.2, 14.3), landings of a Movement Phase left open (11.2.4), stacks of a unit
        that left the beach in a phase left open (11.2.1), and effects of the last combat not yet logged."""
        out: list[Finding] = []
        won = state.victory
        if won is not None:
            out.append(self.table.finding("note", won.section, won.line, 1, f"the {won.winner} player wins a strategic "
                                                                          f"victory: {won.reason}"))
        else:
            last = next(sc.last_turn for sc in state.game.manifest.scenario if sc.id == state.scenario)
            if state.at.turn == last and self.phase_id(state) == "game_turn_end" and \
                    state.scenario == "beach_to_bocage":
                winner, reason = self.victory.verdict(state)
                out.append(self.table.finding("note", "13.0", 0, 1, f"at the end of GT {last} the {winner} player "
                                                                   f"wins: {reason}"))
            out += self.campaign._campaign_finish(state) + self.arrivals._landings_when_the_log_ends(state) + \
                self.assaults._restacks_when_the_log_ends(state)
        return out + super().finish(state)

    # -- the engine's contract ---------------------------------------------------------------------
    def outcome(self, state: OmahaState) -> Outcome | None:
        """The sudden death victory that ended the game, if one has (13.0, 14.3)."""
        return state.victory

    def marker_uses(self, state: OmahaState) -> dict[str, MarkerUse]:
        """Support fire markers out of their cups: used, put aside, lost for good (7.2, 11.1.4, 11.2.3, 14.1)."""
        used, aside, lost = state.markers_used, state.withheld, state.lost_markers
        return {m: MarkerUse(used.count(m), aside.count(m), lost.count(m)) for m in sorted(set(used) | set(aside) | set(lost))}

    def position(self, state: OmahaState) -> Position:
        """The series' position with the beachhead markers (11.2.1)."""
        marked = None if state.beachheads is None else {"beachhead": state.beachheads}
        return replace(super().position(state), marked_hexes=marked)

    def details(self, state: OmahaState) -> dict[str, object]:
        """The beach landing hexes left (11.2.4, 13.0) and the campaign's last GT once fixed (14.2)."""
        return {"beach_landing_hexes": sorted(self.landing_hexes(state)), "last_turn": state.last_turn}


OMAHA = Omaha()
