"""The Fire & Movement system (with Omaha Beach's exclusive rules) as a plug-in of the replay engine.

Checked: the sequence of play (4.1), movement (5.1-5.5), stacking (5.3, with the beach landing
hexes, 11.2.1, 11.2.4), zones of control (6.0-6.2), support fire markers (7.1, 7.2, 11.1.4, 11.2.6,
11.2.7, with markers.py), bombardment and ground combat (8.0-8.2, with combat.py) and their results
(8.2.4-8.5, with results.py), the scenario boundary (10.1, with boundary.py), length (10.2), set-up
and landing (11.0, 11.2.1, 11.2.3), reinforcements and replacements (11.1.2, 11.1.3, 11.2.4,
11.2.5), supply (12.0), victory (13.0), weather (14.1), flak (15.0) and the US one-map campaign game
with this folio's forces (14.0, 14.2, 14.3, `[Scenario "campaign"]`); docs/rules-coverage.md lists
each clause.

Rulings (docs/rules-coverage.md keeps the register):

- 4.1, the two player turns: the log writes the phases of both player turns with the same ids;
  a `Phase movement` after the first player's Mobile Combat Phase begins the second player turn.
- 5.2, "a unit that has completed its movement": a unit moves once per player turn (a mobile
  unit in the Movement or the Mobile Movement Phase, 5.5), so a second `move` of it is an error.
- 5.4, costs: a road step (road hexside between two road hexes) costs 1/2, a trail step 1,
  whatever else is there; otherwise the costliest terrain of the hex entered, plus its "+" terrain,
  plus the hexside's added cost.
- 6.1, "by expending all its printed MA": a leg unit may step from an EZOC hex straight into
  another only as its whole move (one hex), and only if its allowance covers that hex's cost.
- 6.1, rangers and commandos: never pay the extra cost for EZOC and are never stopped by it
  (11.2.3 says rangers ignore EZOC for all purposes).
- 5.3 with 11.2.4: the Omaha Beach hexes take three Allied units (the beach landing hexes;
  which of them hold a beachhead marker is not tracked yet), every other hex one.
- 14.1 in the campaign: weather is optional only in a single scenario, so the campaign has it in
  force without a header; 11.1.2: German reinforcements keep their full MA on their GT of arrival
  except in the campaign game in inclement weather.
- 14.2: a city is captured when all its hexes are (as 11.1.4 says of Isigny), each city counting
  once; 14.3 counts hexes. The Allied victory is judged as GT 17 ends (the game stops there if it is
  met) and as the last GT ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Bombard, Comment, Declare, Entry, Header, Loss, Move, Pass, Place, Retreat, RollOff,
    StandFast, StepMarker, SupportMarkers, TurnMarker,
)
from adjudicator.systems.fire_and_movement import boundary
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement import results
from adjudicator.systems.fire_and_movement.combat import FmAudit, Support, audit, unit_values
from adjudicator.systems.fire_and_movement.results import DEFENDER_RETREATS, FmCombat
from adjudicator.systems.fire_and_movement.sections import SECTIONS
from wargame.errors import ReplayError, did_you_mean
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.models import Arrival, Unit

PLAYER_PHASES = ("movement", "bombardment", "combat", "mobile_movement", "mobile_combat")
PHASES = ("support_fire_marker", *PLAYER_PHASES, *PLAYER_PHASES, "game_turn_end")
"""4.1: a game turn's phases in order, the player turn's five twice (first, then second player)."""
MOVEMENT_PHASES = ("movement", "mobile_movement")
IGNORE_EZOC = frozenset({"ranger", "commando"})
"""6.1 exception and 11.2.3: unit types that pay nothing extra for EZOC and are never stopped by it."""
RETREAT_IGNORES_EZOC = frozenset({"ranger"})
"""11.2.3: rangers ignore EZOC for all purposes, retreats and displacements included (commandos only
in movement, 6.1)."""
BEACH_STACK = 3
"""11.2.4: beach landing hexes take up to three units."""
COMBAT_PHASES = ("combat", "mobile_combat")
SUPPORT_KINDS = ("support_fire", "naval_gunfire", "mines")
"""Marker kinds a player places on a combat (7.2, 11.1.4, 11.2.7)."""
POINTE_DU_HOC = "2417"
CAMPAIGN = "campaign"
"""14.0: the campaign game's scenario id in the game's data (`[Scenario "campaign"]`)."""
"""11.0, 11.2.3: no German set-up there; the Ranger battalion lands there."""
UNCHECKED: dict[str, str] = {
    "place": "11.0-11.2: placements other than set-up, reinforcements and replacements",
    "capture": "not a Fire & Movement entry", "income": "11.2.5",
}
"""The sections governing entries this version applies without checking, by kind."""


@dataclass(frozen=True)
class FireAndMovementState:
    """The position and the sequence of play after an entry."""

    game: Game = field(repr=False, compare=False)
    scenario: str
    first_player: str
    turn: int
    phase: int | None
    location: dict[str, str]
    depleted: frozenset[str] = frozenset()
    moved: frozenset[str] = frozenset()
    """Units that have moved in this player turn (5.2, 5.5)."""
    moved_in_movement: frozenset[str] = frozenset()
    """Mobile units that moved in this player turn's Movement Phase (4.1, 5.5)."""
    attacked: frozenset[str] = frozenset()
    """Units that have attacked in this phase (8.2: strengths are unitary)."""
    defended: frozenset[str] = frozenset()
    """Units that have been attacked in this phase (8.0: one attack per phase)."""
    attacked_in_combat: frozenset[str] = frozenset()
    """Mobile units that attacked in this player turn's Combat Phase (4.1, 8.2)."""
    advanced: frozenset[str] = frozenset()
    """Units that advanced after combat this player turn and do nothing more in it (8.5)."""
    displaced: frozenset[str] = frozenset()
    """Units displaced this player turn (8.3.1: an attacker's displaced unit attacks no more)."""
    markers_used: tuple[str, ...] = ()
    """Support markers placed on combats this game turn, one entry per use (7.2)."""
    combat: FmCombat | None = None
    """The combat whose results the entries after its attack carry out (8.2.4-8.5)."""
    bombarded: tuple[str, ...] = ()
    """The hex of every marker that has bombarded in this player turn (8.1: two a hex at most)."""
    noted: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()
    """Optional rules in force, from the log's `Optional` headers (14.1 weather, 15.0 flak)."""
    set_up: bool = False
    """The log writes the set-up (`setup` entries), so GT 1 checks it is complete (11.0, 11.2.1)."""
    entered: tuple[tuple[str, float], ...] = ()
    """German reinforcements that entered this phase and the MP their first hex cost (11.1.2)."""
    landed: frozenset[str] = frozenset()
    """Allied reinforcements landed this Movement Phase, which move no further in it (11.2.4)."""
    beachheads: frozenset[str] | None = None
    """Beach landing hexes with a beachhead marker (11.2.1): the beach hexes the assault landed on,
    less those a German unit has entered since; None until the set-up is known (all beach hexes)."""
    controlled: dict[str, str] = field(default_factory=dict)
    """The side that last entered each hex (13.0: captured locations)."""
    victory: tuple[str, str, int, str] | None = None
    """An automatic victory: winner, section, log line, reason (13.0 sudden death)."""
    supply_losses: frozenset[str] = frozenset()
    """Allied units that took 12.0's loss as this Allied player turn ended."""
    replaced: tuple[str, ...] = ()
    """The kinds (leg, mobile) of the replacement points used this game turn (11.2.5)."""
    lost_markers: tuple[str, ...] = ()
    """Support fire markers eliminated for good (11.1.4 captures, 11.2.3)."""
    withheld: tuple[str, ...] = ()
    """Markers put aside for this game turn (11.2.3 on a 4, 14.1 in inclement weather)."""
    drawn: tuple[tuple[str, str], ...] = ()
    """(side, marker) drawn from a cup for the next combat or bombardment and not yet placed (7.2)."""
    mines_aside: tuple[str, ...] = ()
    """Achtung Minen markers drawn and kept for a later combat this game turn (11.1.4)."""
    owed: tuple[tuple[str, str, str, str], ...] = ()
    """Marker entries the rules call for and the log has not written yet: (how, side, marker or ''
    for any, section), due by the end of the next Support Fire Marker Phase."""
    pointe_du_hoc: int | None = None
    """The die of the Pointe du Hoc assault (11.2.3)."""
    ranger_moved: int = 0
    """Hexes the Rangers have moved since the Pointe du Hoc roll, up to the end of GT 1 (11.2.3)."""
    weather: str | None = None
    """This game turn's weather once rolled, 'fair' or 'inclement' (14.1)."""
    weather_rolls: tuple[str, ...] = ()
    """Sides that have rolled for the markers put aside in inclement weather (14.1)."""
    captured: frozenset[str] = frozenset()
    """11.1.4's places whose capture has already cost the German a marker."""
    assaulted: frozenset[str] = frozenset()
    """Beach landing hexes whose beach assault has been resolved before GT 1 (11.2.3)."""
    landing: tuple[tuple[str, int], ...] | None = None
    """The beach hexes the landing put units on, with how many, as the first beach assault began
    (11.2.1: whether the hexes chosen were full is judged then, not after the assaults' losses)."""
    left_beach: frozenset[str] = frozenset()
    """Units that have left a beach landing hex and never stack again (11.2.1)."""
    last_turn: int | None = None
    """14.2: the campaign's last game turn, fixed as its GT 17 ends (None before, and in the scenario)."""
    out_of_play: frozenset[Hex] = field(default=frozenset(), repr=False, compare=False)
    """The land hexes beyond the scenario boundary, where no unit may be (10.1)."""
    supply_steps: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict, repr=False, compare=False)
    """A memo the states of one replay share: each hex's neighbours a supply path may step into (no
    prohibited terrain or hexside, 12.0), filled on the first supply trace (the map never changes)."""


class FireAndMovement:
    """The rule system object the engine calls."""

    name = "fire-and-movement"
    table = SectionTable("fire-and-movement", SECTIONS)

    # -- set-up -------------------------------------------------------------------------------
    def initial_state(self, game: Game, headers: Sequence[Header]) -> FireAndMovementState:
        """The scenario's set-up (3.0, 11.0): units where the data puts them, boxes included."""
        known = {s.id: s for s in game.manifest.scenario}
        scenario_id = next((h.value for h in headers if h.key == "Scenario"), game.manifest.scenario[0].id)
        if scenario_id not in known:
            raise ReplayError(f"unknown scenario {scenario_id!r}{did_you_mean(scenario_id, sorted(known))} "
                              f"(scenarios: {', '.join(sorted(known))})")
        location = {p.piece: p.location for _, p in game.setup
                    if p.scenario == scenario_id and p.piece in game.units_by_id}
        # 10.2: the scenario names its first player (the Allies in Omaha).
        first = known[scenario_id].first_player or game.manifest.sides[0]
        rules = {r.id for r in game.manifest.optional_rule}
        optional = frozenset(h.value for h in headers if h.key == "Optional")
        for rule in sorted(optional - rules):
            raise ReplayError(f"unknown optional rule {rule!r}{did_you_mean(rule, sorted(rules))} (optional rules: "
                              f"{', '.join(sorted(rules))})")
        campaign = scenario_id == CAMPAIGN
        if campaign:
            optional |= {"weather"}  # 14.1: optional in a single scenario only, part of the campaign's rules
        # 14.0 a: no scenario boundary in the campaign game (10.1 is the scenario's).
        return FireAndMovementState(game, scenario_id, first, 0, None, location, optional=optional,
                                    out_of_play=frozenset() if campaign else boundary.out_of_play(game))

    # -- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _unit(state: FireAndMovementState, unit_id: str) -> Unit:
        return state.game.units_by_id[unit_id]

    def _f(self, severity: str, section: str, entry: Entry, message: str) -> Finding:
        return self.table.finding(severity, section, entry.line, entry.column, message)  # type: ignore[arg-type]

    @staticmethod
    def phase_id(state: FireAndMovementState) -> str | None:
        """The id of the phase under way."""
        return None if state.phase is None else PHASES[state.phase]

    def active(self, state: FireAndMovementState) -> str | None:
        """The player whose turn it is (4.1), or None outside the player turns."""
        if state.phase is None or not 1 <= state.phase <= 2 * len(PLAYER_PHASES):
            return None
        second = next(s for s in state.game.manifest.sides if s != state.first_player)
        return state.first_player if state.phase <= len(PLAYER_PHASES) else second

    def _where(self, state: FireAndMovementState) -> str:
        phase = self.phase_id(state)
        if phase is None:
            return f"GT {state.turn}, before the first phase"
        who = self.active(state)
        return f"GT {state.turn}, {phase.replace('_', ' ')} phase" + (f" ({who} player turn)" if who else "")

    def _on_map(self, state: FireAndMovementState, unit_id: str) -> Hex | None:
        where = state.location.get(unit_id)
        grid = state.game.grid
        return grid.hex_of(where) if where is not None and grid.is_label(where) else None

    def _allowance(self, state: FireAndMovementState, unit_id: str, weather: bool = True) -> int:
        """The unit's movement allowance (reduced side when reduced), halved rounding up in inclement
        weather (14.1) unless `weather` is False (the printed MA of 6.1)."""
        unit = self._unit(state, unit_id)
        values = unit.reduced if unit_id in state.depleted and unit.reduced else unit.full
        allowance = values[list(state.game.manifest.value_names).index("movement")]
        halved = weather and state.weather == "inclement" and not self._full_on_arrival(state, unit_id)
        return -(-allowance // 2) if halved else allowance

    def _full_on_arrival(self, state: FireAndMovementState, unit_id: str) -> bool:
        """11.1.2: a German reinforcement moves its full MA on the GT it arrives, inclement weather
        or not, except in the campaign game (where 14.1 halves it like any other)."""
        return not self._campaign(state) and unit_id in dict(state.entered)

    def ezoc(self, state: FireAndMovementState, side: str) -> frozenset[Hex]:
        """Hexes in the zone of control of the enemies of `side` (6.0): the six hexes around each
        enemy unit that exerts one, across every terrain."""
        grid = state.game.grid
        out: set[Hex] = set()
        for unit_id, where in state.location.items():
            unit = self._unit(state, unit_id)
            if unit.side != side and unit.zoc and grid.is_label(where):
                out.update(grid.neighbours_on_map(grid.hex_of(where)))
        return frozenset(out)

    def step_cost(self, game: Game, a: Hex, b: Hex) -> float | None:
        """MP to move from `a` into the adjacent `b` (5.4, 5.4.1, 5.4.2), None when prohibited (5.2 e)."""
        terrain = game.terrain
        features = game.hexside_features.get(Hexside.between(a, b), frozenset())
        kinds = game.hex_terrain.get(b, ())
        if any(terrain[t].prohibited for t in kinds) or any(terrain[f].prohibited for f in features):
            return None
        # 5.4.1, 5.4.2: along a road (trail) hexside the road (trail) rate replaces every other cost.
        for route in ("road", "trail"):
            rate = terrain[route].mp_cost if route in features and route in terrain else None
            if rate is not None:
                return float(rate)
        base = max((float(c) for t in kinds if (c := terrain[t].mp_cost) is not None), default=1.0)
        added = sum(float(terrain[t].mp_add or 0) for t in kinds)
        added += sum(float(terrain[f].mp_add or 0) for f in features if f not in ("road", "trail"))
        return base + added

    def _stack_limit(self, state: FireAndMovementState, label: str) -> int:
        """5.3: one unit a hex; 11.2.4: three in an Omaha beach landing hex."""
        return BEACH_STACK if label in self.landing_hexes(state) else 1

    # -- check ---------------------------------------------------------------------------------
    def check(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """Every finding for an entry; the state is left untouched."""
        out: list[Finding] = []
        if state.victory is not None and not isinstance(entry, Comment):
            winner, section, line, reason = state.victory
            return [self._f("error", section, entry, f"the game ended at line {line} with the {winner} player's "
                                                     f"automatic victory ({reason}); nothing follows it")]
        if state.combat is not None and not self._carries_out(state, entry):
            out += self._combat_over(state, entry)
            state = replace(state, combat=None)  # the entry is checked as the combat ended
        if isinstance(entry, (TurnMarker, StepMarker)):
            out += self._closing(state, entry)
            if self.phase_id(state) == "support_fire_marker":
                out += self._owed(state, entry)
        if isinstance(entry, TurnMarker):
            out += self._check_turn(state, entry)
        elif isinstance(entry, StepMarker):
            out += self._check_phase(state, entry)
        elif isinstance(entry, Move):
            out += self._check_move(state, entry)
        elif isinstance(entry, Attack):
            out += self._check_attack(state, entry)
        elif isinstance(entry, Bombard):
            out += self._check_bombard(state, entry)
        elif isinstance(entry, Place) and entry.how == "setup":
            out += self._check_setup(state, entry)
        elif isinstance(entry, Place) and entry.how == "reinforce":
            out += self._check_reinforce(state, entry)
        elif isinstance(entry, Place) and entry.how == "replace":
            out += self._check_replace(state, entry)
        elif isinstance(entry, Loss):
            out += self._check_loss(state, entry)
        elif isinstance(entry, Retreat):
            out += self._check_retreat(state, entry)
        elif isinstance(entry, StandFast):
            out += self._check_stand(state, entry)
        elif isinstance(entry, Advance):
            out += self._check_advance(state, entry)
        elif isinstance(entry, RollOff):
            out += self._check_roll(state, entry)
        elif isinstance(entry, SupportMarkers):
            out += self._check_markers(state, entry)
        elif isinstance(entry, (Action, Activate, Pass, Declare)):
            out.append(self._f("error", "log", entry, f"'{entry.kind}' entries are Onslaught's; Fire & Movement "
                                                      "has phases, not actions (4.1)"))
        if isinstance(entry, (Move, Retreat, Advance, Place)):
            out += self._check_boundary(state, entry)
        out += self._check_author(state, entry)
        kind = entry.kind  # type: ignore[attr-defined]
        if isinstance(entry, Place) and entry.how in ("setup", "reinforce", "replace"):
            kind = ""  # checked (11.0, 11.1.2, 11.1.3, 11.2.1, 11.2.4, 11.2.5)
        if kind in UNCHECKED and kind not in state.noted:
            out.append(self._f("note", "log", entry, f"{kind} entries are applied as written but not checked yet "
                                                     f"(sections {UNCHECKED[kind]})"))
        return out

    def _check_author(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """Who wrote an entry: a unit's placements, moves, retreats, advances, losses and stands are its
        owner's decisions, and `Side>` marks a decision of the player whose player turn it is not."""
        if not entry.side:
            return []
        units = [entry.unit] if isinstance(entry, (Move, Retreat, Advance, Place)) else \
            [entry.unit] if isinstance(entry, Loss) and entry.loss != "remove" else \
            list(entry.units) if isinstance(entry, StandFast) else []
        out = [self._f("error", "log", entry, f"{u} is a {self._unit(state, u).side} unit; its owner, not "
                                              f"{entry.side}, decides this")
               for u in dict.fromkeys(units) if u in state.game.units_by_id and self._unit(state, u).side != entry.side]
        if entry.by_opponent and entry.side == self.active(state):
            out.append(self._f("error", "log", entry, f"'{entry.side}>' marks a decision of the player whose turn it "
                                                      f"is not, but this is {entry.side}'s player turn: write "
                                                      f"'{entry.side}:'"))
        return out

    def _out_of_play(self, state: FireAndMovementState, label: str) -> bool:
        """10.1: a hex of the map west of the scenario boundary."""
        grid = state.game.grid
        return grid.is_label(label) and grid.hex_of(label) in state.out_of_play

    def _check_boundary(self, state: FireAndMovementState, entry: Move | Retreat | Advance | Place) -> list[Finding]:
        """10.1: no unit sets up, arrives or moves (retreats and advances too) west of the Douve and
        Taute or of the boundary's line of hexes."""
        labels = list(entry.path) if isinstance(entry, (Move, Retreat, Advance)) else \
            [entry.hex] if entry.hex is not None else []
        west = [label for label in labels if self._out_of_play(state, label)]
        if not west:
            return []
        unit = getattr(entry, "unit", "")
        return [self._f("error", "10.1", entry, f"{unit} enters {west[0]}, west of the scenario boundary (the "
                                                "Douve and Taute from 2108 to 0805, and the hexes 0705 to 0104)")]

    def _closing(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """5.3: at the end of every phase, one unit a hex (three on a beach landing hex); 11.1.2 and
        11.2.4: at the end of a Movement Phase, the side's reinforcements due that could arrive."""
        if state.phase is None:
            return []
        count = Counter(where for where in state.location.values() if state.game.grid.is_label(where))
        out = [self._f("error", "5.3", entry, f"{self._where(state)} ends with {n} units in hex {where}; "
                                              f"{self._stack_limit(state, where)} may stay there")
               for where, n in sorted(count.items()) if n > self._stack_limit(state, where)]
        for where, n in sorted(count.items()):
            again = sorted(u for u, w in state.location.items() if w == where and u in state.left_beach)
            if n > 1 and again and n <= self._stack_limit(state, where):
                out.append(self._f("error", "11.2", entry, f"{self._where(state)} ends with {', '.join(again)} "
                                                           f"stacked in {where}; a unit that has left a beach landing "
                                                           "hex never stacks again (11.2.1)"))
        if self._allied_turn_ending(state) and isinstance(entry, (StepMarker, TurnMarker)):
            for unit_id in self.out_of_supply(state):
                if unit_id not in state.supply_losses:
                    out.append(self._f("error", "12.0", entry, f"{unit_id} at {state.location[unit_id]} is out of "
                                                               "supply as the Allied player turn ends and is reduced "
                                                               "(or eliminated if already reduced)"))
        if self.phase_id(state) == "movement" and state.set_up:
            side = self.active(state) or ""
            for row in self._due(state, side):
                if self._entry_hexes(state, row.unit, row.entry):
                    section = "11.1" if side == "German" else "11.2"
                    out.append(self._f("error", section, entry, f"{self._where(state)} ends without {row.unit}, due on "
                                                                f"GT {row.turn}, though it could arrive"))
        return out

    def _schedule(self, state: FireAndMovementState) -> list[Arrival]:
        """The scenario's reinforcements, with the assault units that could not land for stacking:
        they arrive on GT 2 on the beach landing hexes (11.2.1)."""
        rows = [row for _, row in state.game.reinforcements if row.scenario == state.scenario]
        if state.turn >= 1 and state.set_up:
            rows += [Arrival(scenario=state.scenario, turn=2, unit=p.piece, entry="omaha_beach", source="11.2.1")
                     for _, p in state.game.setup if p.scenario == state.scenario
                     and p.location in self._assault_boxes(state)
                     and state.location.get(p.piece) == p.location and p.piece != self._ranger(state)]
        return rows

    def _due(self, state: FireAndMovementState, side: str) -> list[Any]:
        """The side's reinforcements due by this turn and not yet arrived (11.1.2, 11.2.1, 11.2.4)."""
        return [row for row in self._schedule(state) if row.turn <= state.turn
                and self._unit(state, row.unit).side == side and self._on_map(state, row.unit) is None
                and (state.location.get(row.unit) is None
                     or state.location.get(row.unit) in self._assault_boxes(state))]

    def _entry_hexes(self, state: FireAndMovementState, unit_id: str, entry_area: str | None) -> list[str]:
        """Where a reinforcement may arrive now: its hex or area, not enemy-held, not in an EZOC
        (11.1.2); Allied beach landing hexes with room, in an EZOC only if Allied units hold them (11.2.4)."""
        game = state.game
        unit = self._unit(state, unit_id)
        if entry_area is None:
            return []
        labels = [entry_area] if game.grid.is_label(entry_area) else list(game.areas_by_id[entry_area].hexes) \
            if entry_area in game.areas_by_id else []
        if unit.side == "Allied" and self._campaign(state):
            labels = sorted(self.landing_hexes(state))  # 14.0 b: any beach landing hex with a marker
        ezoc = self.ezoc(state, unit.side)
        out = []
        for label in labels:
            h = game.grid.hex_of(label)
            if self._out_of_play(state, label):
                continue
            here = [u for u, w in state.location.items() if w == label]
            if any(self._unit(state, u).side != unit.side for u in here):
                continue
            if unit.side == "Allied":
                if label not in self.landing_hexes(state) or len(here) >= self._stack_limit(state, label) or \
                        (h in ezoc and not here):
                    continue
                if any(u in state.left_beach for u in here):
                    continue  # 11.2.1: a unit that has left a beach landing hex never stacks again
            elif h in ezoc or here:
                continue
            out.append(label)
        return out

    def _check_replace(self, state: FireAndMovementState, entry: Place) -> list[Finding]:
        """11.1.3, 11.2.5: the Allies rebuild one reduced unit on the map, in supply, per replacement
        point of its kind (leg, mobile) received this game turn; the Germans receive none."""
        game = state.game
        unit = self._unit(state, entry.unit)
        if unit.side != "Allied":
            return [self._f("error", "11.1", entry, "the German side receives no replacements (11.1.3)")]
        points = sum(r.amount for _, r in game.replacements if r.scenario == state.scenario
                     and r.turn == state.turn and r.side == "Allied" and r.kind == unit.mobility)
        used = state.replaced.count(unit.mobility)
        out = []
        if used >= points:
            # 14.0: the campaign's rates, with the scenario's own on top (14.0 g), all in the data.
            rates = "14.0 and 11.2.5" if self._campaign(state) else "11.2.5"
            out.append(self._f("error", "14.0" if self._campaign(state) else "11.2", entry,
                               f"the Allies have {points - used if points > used else 0} {unit.mobility} replacement "
                               f"point(s) left on GT {state.turn} ({points} received, {rates})"))
        where = state.location.get(entry.unit, "")
        if self._on_map(state, entry.unit) is None or entry.unit not in state.depleted:
            out.append(self._f("error", "11.2", entry, f"{entry.unit} is not a reduced unit on the map; only those "
                                                       "are rebuilt (11.2.5)"))
        elif entry.unit in self.out_of_supply(state):
            out.append(self._f("error", "11.2", entry, f"{entry.unit} at {where} is out of supply (12.0); only units "
                                                       "in supply are rebuilt (11.2.5)"))
        if entry.hex is not None and entry.hex != where:
            out.append(self._f("error", "11.2", entry, f"{entry.unit} is rebuilt where it stands, {where}"))
        return out

    def _check_reinforce(self, state: FireAndMovementState, entry: Place) -> list[Finding]:
        """11.1.2, 11.2.4: a scheduled reinforcement, in its side's Movement Phase, on its turn or
        later, where it may arrive."""
        game = state.game
        unit = self._unit(state, entry.unit)
        section = "11.1" if unit.side == "German" else "11.2"
        if self.phase_id(state) != "movement" or self.active(state) != unit.side:
            return [self._f("error", "4.1", entry, f"{self._where(state)}: reinforcements arrive in their side's "
                                                   "Movement Phase")]
        row = next((r for r in self._schedule(state) if r.unit == entry.unit), None)
        if row is None:
            return [self._f("error", section, entry, f"{entry.unit} is not a reinforcement of this scenario")]
        if row.turn > state.turn:
            return [self._f("error", section, entry, f"{entry.unit} arrives on GT {row.turn}, not {state.turn}")]
        if self._on_map(state, entry.unit) is not None:
            return [self._f("error", section, entry, f"{entry.unit} is already on the map")]
        if unit.side == "Allied" and state.turn == 1:
            return [self._f("error", "11.2", entry, "Allied reinforcements land after GT 1 (11.2.4)")]
        if entry.hex not in self._entry_hexes(state, entry.unit, row.entry):
            where = row.entry if row.entry and game.grid.is_label(row.entry) else \
                game.areas_by_id[row.entry].name if row.entry in game.areas_by_id else "its entry"
            if unit.side == "Allied" and self._campaign(state):
                where = "any beach landing hex with a beachhead marker (14.0 b)"
            return [self._f("error", section, entry, f"{entry.unit} arrives at {where}, on a hex no enemy unit holds "
                                                     f"and outside enemy zones of control "
                                                     f"{'(a beach landing hex with room) ' if unit.side == 'Allied' else ''}"
                                                     f"- not {entry.hex}")]
        return []



    def _setup_box(self, state: FireAndMovementState, unit_id: str) -> str | None:
        """Where the scenario's data starts a unit (11.0: `german_setup`, 11.2.1: `allied_assault`)."""
        return next((p.location for _, p in state.game.setup if p.scenario == state.scenario and p.piece == unit_id),
                    None)

    def supplied(self, state: FireAndMovementState) -> frozenset[Hex]:
        """Hexes from which an Allied unit traces supply (12.0): a path to a beach landing hex with a
        marker, never into a German-held hex, and through no hex in a German ZOC (such a hex may only
        begin or end the path)."""
        game = state.game
        german = {game.grid.hex_of(w) for u, w in state.location.items()
                  if game.grid.is_label(w) and self._unit(state, u).side == "German"}
        ezoc = self.ezoc(state, "Allied")
        sources = [game.grid.hex_of(label) for label in self.landing_hexes(state)]
        frontier = [h for h in sources if h not in german]
        out = set(frontier)
        steps = state.supply_steps
        if not steps:
            steps.update({h: tuple(n for n in game.grid.neighbours_on_map(h) if self.step_cost(game, h, n) is not None)
                          for h in game.grid})
        while frontier:
            h = frontier.pop()
            for n in steps.get(h, ()):
                if n in out or n in german:
                    continue
                out.add(n)  # a path may end (begin, from the unit's side) in an EZOC hex
                if n not in ezoc:
                    frontier.append(n)
        return frozenset(out)

    def out_of_supply(self, state: FireAndMovementState) -> list[str]:
        """Allied units that cannot trace supply now (12.0; rangers and units on a beach landing hex
        are exempt)."""
        grid = state.game.grid
        supplied = self.supplied(state)
        landing = self.landing_hexes(state)
        return sorted(u for u, w in state.location.items() if grid.is_label(w)
                      and self._unit(state, u).side == "Allied" and self._unit(state, u).type != "ranger"
                      and w not in landing and grid.hex_of(w) not in supplied)

    def _allied_turn_ending(self, state: FireAndMovementState) -> bool:
        """Whether the phase under way is the last of the Allied player turn (12.0)."""
        if state.phase is None or self.active(state) != "Allied":
            return False
        return PHASES[state.phase] == "mobile_combat"

    def landing_hexes(self, state: FireAndMovementState) -> frozenset[str]:
        """The beach landing hexes with a beachhead marker now (11.2.1, 11.2.4, 12.0, 13.0)."""
        return self._beach(state) if state.beachheads is None else state.beachheads

    def _landing_counts(self, state: FireAndMovementState) -> dict[str, int]:
        """11.2.1: the beach hexes holding Allied units of the landing, with how many; the Rangers, who
        may step onto a beach hex after the Pointe du Hoc roll (11.2.3), are not of the landing."""
        ranger = self._ranger(state)
        return dict(Counter(w for u, w in state.location.items() if w in self._beach(state) and u != ranger
                            and self._unit(state, u).side == "Allied"))

    def _landed_hexes(self, state: FireAndMovementState) -> frozenset[str]:
        """11.2.1: the beach hexes the landing put Allied units on (step 3 keeps their markers)."""
        return frozenset(self._landing_counts(state))

    def _beach(self, state: FireAndMovementState) -> frozenset[str]:
        """The Omaha Beach hexes (11.0, 11.2.1); in the campaign game every Allied beach area of the
        map (14.0 b: another folio's beach, when its data is added)."""
        if self._campaign(state):
            return frozenset(label for area in state.game.areas.area if area.kind == "beach" and area.side == "Allied"
                             for label in area.hexes)
        area = state.game.areas_by_id.get("omaha_beach")
        return frozenset(area.hexes) if area is not None else frozenset()

    def _assault_boxes(self, state: FireAndMovementState) -> dict[str, frozenset[str]]:
        """11.2.1, 14.0 b: the Allied holding boxes of the units that land before GT 1, each with the
        hexes of its designated beach (the box's `area`)."""
        game = state.game
        return {b.id: frozenset(game.areas_by_id[b.area].hexes) if b.area in game.areas_by_id else self._beach(state)
                for b in game.manifest.box if b.side == "Allied" and b.kind == "holding"
                and (b.area is not None or b.id == "allied_assault")}

    def _check_setup(self, state: FireAndMovementState, entry: Place) -> list[Finding]:
        """11.0, 11.2.1, 11.2.3: the German at-start units off the beach (and off Pointe du Hoc), the
        assault regiments on the beach landing hexes, three a hex, the Rangers at Pointe du Hoc."""
        if state.turn != 0:
            return [self._f("error", "11.0", entry, "set-up placements come before the first 'Turn' marker")]
        game = state.game
        box = self._setup_box(state, entry.unit)
        label = entry.hex or ""
        if not game.grid.is_label(label):
            return [self._f("error", "11.0", entry, f"{entry.unit} sets up on a hex of the map, not {label or 'nowhere'}")]
        beach = self._beach(state)
        if box == "german_setup":
            if label in beach or label == POINTE_DU_HOC:
                return [self._f("error", "11.0", entry, f"{entry.unit} sets up on {label}: German units set up off the "
                                                        "Omaha Beach hexes and never on Pointe du Hoc (2417)")]
            return []
        if box in self._assault_boxes(state):
            beach = self._assault_boxes(state)[box]
            if self._unit(state, entry.unit).type == "ranger":
                if label != POINTE_DU_HOC:
                    return [self._f("error", "11.2", entry, f"{entry.unit} lands at Pointe du Hoc ({POINTE_DU_HOC}), "
                                                            f"not {label} (11.2.3)")]
                return []
            if label not in beach:
                if self._campaign(state):  # 14.0 b: the assault units land on their own beach
                    return [self._f("error", "14.0", entry, f"{entry.unit} lands on its designated beach "
                                                            f"({', '.join(sorted(beach))}), not {label} (14.0 b)")]
                return [self._f("error", "11.2", entry, f"{entry.unit} lands on a beach landing hex "
                                                        f"({', '.join(sorted(beach))}), not {label} (11.2.1)")]
            here = sum(1 for u, w in state.location.items() if w == label and u != entry.unit)
            if here >= BEACH_STACK:
                return [self._f("error", "11.2", entry, f"{label} already holds {here} units; a beach landing hex "
                                                        "takes three (11.2.1)")]
            return []
        return [self._f("error", "11.0", entry, f"{entry.unit} is not set up by a player in this scenario "
                                                f"(it starts in {box or 'no set-up'})")]

    def _check_start(self, state: FireAndMovementState, entry: TurnMarker) -> list[Finding]:
        """11.0, 11.2.1: as GT 1 begins every German at-start unit is on the map, two or more next to
        an Omaha Beach hex, and every assault unit has landed."""
        game = state.game
        omaha = game.areas_by_id.get("omaha_beach")
        beach = [game.grid.hex_of(label) for label in (omaha.hexes if omaha is not None else ())]
        out = []
        german = [u for _, p in game.setup if p.scenario == state.scenario and p.location == "german_setup"
                  for u in [p.piece]]
        assault = [u for _, p in game.setup if p.scenario == state.scenario and p.location in self._assault_boxes(state)
                   for u in [p.piece]]
        eliminated = {b.id for b in game.manifest.box if b.kind == "eliminated"}
        unplaced = [u for u in (*german, *assault) if self._on_map(state, u) is None
                    and state.location.get(u) not in eliminated]
        # 11.2.1: assault units that find no room on the beach landing hexes chosen (on their own
        # beach, 14.0 b) arrive on GT 2.
        unplaced = [u for u in unplaced
                    if u not in assault or u == self._ranger(state) or not self._beach_full(state, u)]
        if unplaced:
            out.append(self._f("error", "11.0", entry, f"GT 1 begins with {', '.join(unplaced)} still to set up or "
                                                       "land (11.0, 11.2.1)"))
        out += self._check_pdh_done(state, entry)
        landed = sorted(self._landed_hexes(state) - state.assaulted)
        if landed:
            out.append(self._f("error", "11.2", entry, f"GT 1 begins before the beach assault of {', '.join(landed)}; "
                                                       "every beach landing hex with Allied units makes one (11.2.3)"))
        placed = [h for h in (self._on_map(state, u) for u in german) if h is not None]
        if placed and sum(1 for h in placed if any(h.is_adjacent(b) for b in beach)) < 2:
            out.append(self._f("error", "11.0", entry, "at least two German at-start units set up next to an Omaha "
                                                       "Beach hex"))
        return out

    def _beach_full(self, state: FireAndMovementState, unit_id: str) -> bool:
        """11.2.1: whether every beach landing hex the assault chose on the unit's beach holds three units."""
        beach = self._assault_boxes(state).get(self._setup_box(state, unit_id) or "", frozenset())
        # Judged on the landing as the first beach assault began, not after the assaults' losses.
        counts = dict(state.landing) if state.landing is not None else self._landing_counts(state)
        landing = {h: n for h, n in counts.items() if h in beach}
        return bool(landing) and all(n >= BEACH_STACK for n in landing.values())

    def _check_pdh_done(self, state: FireAndMovementState, entry: TurnMarker) -> list[Finding]:
        """11.2.3: as GT 1 begins the Pointe du Hoc assault is rolled and the Rangers' loss written."""
        ranger = self._ranger(state)
        if ranger is None:
            return []
        if state.pointe_du_hoc is None:
            if state.location.get(ranger) != POINTE_DU_HOC:
                return []  # the Rangers did not land there: the set-up's own error says so
            return [self._f("error", "11.2", entry, "GT 1 begins before the Pointe du Hoc assault is rolled "
                                                    "(written 'Roll Allied N' after the landing, 11.2.3)")]
        row = pools.pointe_du_hoc(state.game, state.pointe_du_hoc)
        if row is None:
            return []
        on_map = self._on_map(state, ranger) is not None
        reduced = ranger in state.depleted
        if row.ranger == "eliminated" and on_map or row.ranger == "reduced" and not reduced:
            fate = "eliminated" if row.ranger == "eliminated" else "reduced"
            return [self._f("error", "11.2", entry, f"a {row.die} at Pointe du Hoc leaves {ranger} {fate}; write "
                                                    f"'Allied: {'eliminate' if fate == 'eliminated' else 'deplete'} "
                                                    f"{ranger}' before GT 1 (11.2.3)")]
        return []

    def _check_turn(self, state: FireAndMovementState, entry: TurnMarker) -> list[Finding]:
        out = self._check_start(state, entry) if state.turn == 0 and entry.turn == 1 and state.set_up else []
        scenario = next(s for s in state.game.manifest.scenario if s.id == state.scenario)
        if entry.turn != state.turn + 1:
            out.append(self._f("error", "4.1", entry, f"GT {entry.turn} follows GT {state.turn}; game turns run in "
                                                      "order"))
        if entry.turn > scenario.last_turn and not self._campaign(state):
            out.append(self._f("error", "10.2", entry, f"the scenario ends with GT {scenario.last_turn}"))
        out += self._check_campaign_turn(state, entry)
        if state.turn and self.phase_id(state) != "game_turn_end":
            out.append(self._f("error", "4.1", entry, f"GT {state.turn} ends before its Game Turn End Phase "
                                                      f"({self._where(state)})"))
        return out

    def _next_phase(self, state: FireAndMovementState, phase: str) -> int | None:
        """The index the phase marker moves to: the next phase of that id after the current one."""
        start = 0 if state.phase is None else state.phase + 1
        return next((i for i in range(start, len(PHASES)) if PHASES[i] == phase), None)

    def _check_phase(self, state: FireAndMovementState, entry: StepMarker) -> list[Finding]:
        if entry.step not in PHASES:
            return [self._f("error", "4.1", entry, f"{entry.step!r} is not a phase{did_you_mean(entry.step, PHASES)} "
                                                   f"({', '.join(dict.fromkeys(PHASES))})")]
        if state.turn == 0:
            return [self._f("error", "4.1", entry, "a phase before the first 'Turn' marker")]
        expected = PHASES[0] if state.phase is None else (
            PHASES[state.phase + 1] if state.phase + 1 < len(PHASES) else None)
        if entry.step != expected:
            return [self._f("error", "4.1", entry, f"{self._where(state)}: the {entry.step.replace('_', ' ')} phase "
                                                   f"comes out of order; the next phase is "
                                                   f"{(expected or 'the next game turn').replace('_', ' ')}")]
        return []

    def _check_move(self, state: FireAndMovementState, entry: Move) -> list[Finding]:
        game = state.game
        unit = self._unit(state, entry.unit)
        where = state.location.get(entry.unit)
        phase = self.phase_id(state)
        active = self.active(state)
        out: list[Finding] = []
        pdh = self._pdh_move(state, entry)
        if pdh is not None:
            return pdh
        # 11.2.1: the assault units that landed do not move on GT 1.
        if self._landed_on_gt1(state, entry.unit):
            return [self._f("error", "11.2", entry, f"{entry.unit} landed on the beach and does not move during GT 1 "
                                                    "(11.2.1)")]
        # 5.2: a player moves his own units in his own Movement or Mobile Movement Phase only.
        if state.turn == 0 and unit.side == "Allied" and entry.unit == self._ranger(state) and \
                state.pointe_du_hoc is not None:
            pass  # 11.2.3: the Rangers' move after the Pointe du Hoc roll (limits in _pdh_move)
        elif phase not in MOVEMENT_PHASES or unit.side != active:
            return [self._f("error", "5.2", entry, f"{self._where(state)}: {entry.unit} ({unit.side}) moves only in "
                                                   f"its own side's Movement and Mobile Movement Phases")]
        if phase == "mobile_movement":
            if unit.mobility != "mobile":
                return [self._f("error", "5.5", entry, f"{entry.unit} is a leg unit; leg units never move in the "
                                                       "Mobile Movement Phase")]
            if entry.unit in state.moved_in_movement:
                return [self._f("error", "5.5", entry, f"{entry.unit} moved in this player turn's Movement Phase and "
                                                       "does not move again in the Mobile Movement Phase")]
        if entry.unit in state.moved:
            out.append(self._f("error", "5.2", entry, f"{entry.unit} has already moved in this player turn"))
        if entry.unit in state.advanced:
            out.append(self._f("error", "8.5", entry, f"{entry.unit} advanced after combat this player turn and "
                                                      "does nothing more in it"))
        if entry.strategic:
            out.append(self._f("error", "log", entry, "Fire & Movement has no strategic movement (an Onslaught "
                                                      "rule); write the move without 'strategic'"))
        if where is None or not game.grid.is_label(where):
            return out + [self._f("error", "5.2", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
        if entry.path[0] != where:
            return out + [self._f("error", "5.1", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        off = [label for label in entry.path if not game.grid.is_label(label)]
        if off:
            return out + [self._f("error", "5.2", entry, f"{entry.unit} leaves the map at {off[0]}")]
        hexes = [game.grid.hex_of(label) for label in entry.path]
        if entry.unit in state.landed and phase == "movement":
            return out + [self._f("error", "11.2", entry, f"{entry.unit} landed this Movement Phase and moves no further "
                                                          "in it (11.2.4)")]
        allowance = self._allowance(state, entry.unit)
        spent = dict(state.entered).get(entry.unit, 0.0)  # 11.1.2: the first hex's cost, paid on entering
        ezoc = frozenset() if unit.type in IGNORE_EZOC else self.ezoc(state, unit.side)
        enemy = {h for u, w in state.location.items() if self._unit(state, u).side != unit.side
                 and game.grid.is_label(w) for h in [game.grid.hex_of(w)]}
        for i, (a, b) in enumerate(zip(hexes, hexes[1:]), start=1):
            la, lb = entry.path[i - 1], entry.path[i]
            if not a.is_adjacent(b):
                return out + [self._f("error", "5.1", entry, f"{entry.unit} skips from {la} to {lb}; a unit moves "
                                                             "through contiguous hexes")]
            if b in enemy:
                return out + [self._f("error", "5.2", entry, f"{entry.unit} enters {lb}, which an enemy unit holds")]
            cost = self.step_cost(game, a, b)
            if cost is None:
                return out + [self._f("error", "5.2", entry, f"{entry.unit} enters prohibited terrain at {lb} (or "
                                                             f"crosses a prohibited hexside {la}-{lb})")]
            from_ezoc, into_ezoc = a in ezoc, b in ezoc
            if into_ezoc and unit.mobility != "mobile":
                if i > 1 and from_ezoc:
                    return out + [self._f("error", "6.1", entry, f"{entry.unit} entered an enemy zone of control at "
                                                                 f"{la} and moves on to {lb}")]
                if from_ezoc:
                    # 6.1: EZOC to EZOC takes the whole printed allowance, so it is the whole move.
                    if cost > allowance:
                        return out + [self._f("error", "6.1", entry, f"{entry.unit} cannot pay {cost:g} MP for {lb} "
                                                                     f"with an allowance of {allowance}")]
                    out += self._fortified_ezoc(state, entry, a, b)
                    if len(hexes) > 2:
                        return out + [self._f("error", "6.1", entry, f"{entry.unit} moves from one enemy zone of "
                                                                     f"control into another at {lb}, which takes its "
                                                                     "whole allowance; it moves no further")]
                    return out
                if i < len(hexes) - 1:
                    return out + [self._f("error", "6.1", entry, f"{entry.unit} entered an enemy zone of control at "
                                                                 f"{lb} and moves on; a leg unit stops there")]
            if into_ezoc and unit.mobility == "mobile":
                # 6.1: a mobile unit pays half its printed allowance, rounded down, to enter an EZOC.
                cost += self._allowance(state, entry.unit, weather=False) // 2
                if from_ezoc:
                    out += self._fortified_ezoc(state, entry, a, b)
            spent += cost
            if spent > allowance:
                return out + [self._f("error", "5.2", entry, f"{entry.unit} has spent {spent:g} MP by {lb}, more than "
                                                             f"its allowance of {allowance}")]
        return out

    def _landed_on_gt1(self, state: FireAndMovementState, unit_id: str) -> bool:
        """11.2.1: during GT 1, an assault unit that landed on a beach hex (not the Rangers, whom
        11.2.3 governs): its movement ended and its beach assault was its only action."""
        return state.turn == 1 and state.set_up and self._setup_box(state, unit_id) in self._assault_boxes(state) \
            and unit_id != self._ranger(state)

    def _pdh_move(self, state: FireAndMovementState, entry: Move) -> list[Finding] | None:
        """11.2.3: after the Pointe du Hoc roll the Rangers move no more hexes up to the end of GT 1
        than its result allows (at once, or in GT 1's Movement Phase); None when that is not in
        question or the move is within it."""
        if state.turn > 1 or entry.unit != self._ranger(state):
            return None
        if state.pointe_du_hoc is None:
            return [self._f("error", "11.2", entry, f"{entry.unit} moves before the Pointe du Hoc assault is rolled "
                                                    "(11.2.3)")] if state.turn == 0 else None
        row = pools.pointe_du_hoc(state.game, state.pointe_du_hoc)
        limit = (row.move_hexes or 0) if row is not None else 0
        if state.ranger_moved + len(entry.path) - 1 > limit:
            return [self._f("error", "11.2", entry, f"a {state.pointe_du_hoc} at Pointe du Hoc lets {entry.unit} move "
                                                    f"{limit} hex(es) up to the end of GT 1; it has moved "
                                                    f"{state.ranger_moved} and this move enters {len(entry.path) - 1} "
                                                    "(11.2.3)")]
        return None

    def _entry_cost(self, state: FireAndMovementState, label: str) -> float:
        """11.1.2: the MP a unit entering the map pays for its first hex (its terrain; the map edge has
        no hexside feature in our data, so nothing more)."""
        game = state.game
        h = game.grid.hex_of(label)
        terrain = game.terrain
        kinds = game.hex_terrain.get(h, ())
        base = max((float(c) for t in kinds if (c := terrain[t].mp_cost) is not None), default=1.0)
        return base + sum(float(terrain[t].mp_add or 0) for t in kinds)

    def _fortified_ezoc(self, state: FireAndMovementState, entry: Move, a: Hex, b: Hex) -> list[Finding]:
        """6.1 exception: never EZOC to EZOC across a minefield hexside or into a fortification."""
        game = state.game
        if "minefield" in game.hexside_features.get(Hexside.between(a, b), frozenset()) or \
                "fortification" in game.hex_terrain.get(b, ()):
            return [self._f("error", "6.1", entry, f"{entry.unit} moves from one enemy zone of control into another "
                                                   f"across a minefield or into a fortification at "
                                                   f"{game.grid.label_of(b)}")]
        return []

    # -- combat (8.0-8.2) ---------------------------------------------------------------------
    def _supports(self, state: FireAndMovementState, entry: Attack | Bombard, target: Hex) -> list[Support]:
        """The markers an attack names, with the values they count for (7.2, 8.2.3)."""
        game = state.game
        markers = game.markers_by_id
        fortified = "fortification" in game.hex_terrain.get(target, ())
        attacker = entry.side or (self._unit(state, entry.attackers[0]).side if isinstance(entry, Attack) else "")
        flak = "flak" in state.optional and self._flak_near(state, target)
        out = []
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in SUPPORT_KINDS or marker.value is None:
                continue
            side = marker.side or attacker
            # 8.2.3: an attacker's marker on a fortification counts half, rounded down.
            applied = marker.value // 2 if fortified and side == attacker else marker.value
            if flak and marker.icon == "aircraft":
                applied = -(-applied // 2)  # 15.0: aircraft near German flak count half, rounded up
            out.append(Support(marker_id, side, marker.value, applied))
        return out

    def _flak_near(self, state: FireAndMovementState, target: Hex) -> bool:
        """15.0: a German AA/Flak unit in or next to the combat's hex."""
        grid = state.game.grid
        return any(self._unit(state, u).type == "antiaircraft" and self._unit(state, u).side == "German"
                   and grid.is_label(w) and grid.hex_of(w).distance(target) <= 1 for u, w in state.location.items())

    def _defenders(self, state: FireAndMovementState, entry: Attack | Bombard, side: str) -> list[str]:
        return sorted(u for u, w in state.location.items() if w == entry.hex and self._unit(state, u).side != side)

    @staticmethod
    def _stack_defender(state: FireAndMovementState, defenders: list[str]) -> list[str]:
        """11.2.3, 11.2.4: a stack on a beach landing hex defends with one unit, the only one the result
        touches (its owner selects it, or the bombarding player); the log has no form for the choice
        yet, so it is the strongest (the first by id among equals)."""
        if len(defenders) <= 1:
            return defenders
        game = state.game
        return [max(defenders, key=lambda u: unit_values(game, u, u in state.depleted)[1])]

    def combat_audit(self, state: FireAndMovementState, entry: Attack) -> FmAudit:
        """The arithmetic of an attack in a state (8.2.1-8.2.3; a beach assault, 11.2.3)."""
        if self._is_beach_assault(state, entry):
            return self.beach_audit(state, entry)
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = self._unit(state, entry.attackers[0]).side
        attackers = [(u, game.grid.hex_of(state.location[u]), unit_values(game, u, u in state.depleted)[0])
                     for u in entry.attackers if self._on_map(state, u) is not None]
        defenders = [(u, unit_values(game, u, u in state.depleted)[1])
                     for u in self._stack_defender(state, self._defenders(state, entry, side))]
        fortified = "fortification" in game.hex_terrain.get(target, ())
        return audit(game, target, attackers, defenders, self._supports(state, entry, target), fortified, entry.die,
                     side)

    def combat_report(self, state: FireAndMovementState, entry: Attack) -> list[str]:
        """`adjudicate combat`'s lines for an attack: the arithmetic, the column and the result."""
        result = self.combat_audit(state, entry)
        lines = [f"Attack on {entry.hex} by {', '.join(entry.attackers)}"] + [f"  {line}" for line in result.lines]
        crt = state.game.crt
        if entry.die is None and crt is not None:
            column = list(crt.columns).index(result.column)
            lines.append("  no die roll given; the column reads " + ", ".join(
                f"{d}: {row[column]}" for d, row in zip(crt.die_rolls, crt.results)))
        return lines

    def _is_beach_assault(self, state: FireAndMovementState, entry: Attack) -> bool:
        """11.2.3: before GT 1, an Allied attack on a beach hex its landed units hold (the Rangers, who
        may step onto a beach hex after the Pointe du Hoc roll, are not of the landing)."""
        ranger = self._ranger(state)
        return state.turn == 0 and entry.hex in self._beach(state) and \
            any(state.location.get(u) == entry.hex and u != ranger for u in entry.attackers)

    def beach_audit(self, state: FireAndMovementState, entry: Attack) -> FmAudit:
        """11.2.3: the assaulting units' strengths and both sides' markers against a defence of zero,
        on the beach assault line within or not within a German ZOC."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        attackers = [(u, target, unit_values(game, u, u in state.depleted)[0]) for u in entry.attackers]
        line = "beach_ezoc" if target in self.ezoc(state, "Allied") else "beach_no_ezoc"
        result = audit(game, target, attackers, [], self._supports(state, entry, target), False, entry.die, "Allied",
                       lines=[line])
        return result

    def _check_beach_assault(self, state: FireAndMovementState, entry: Attack) -> list[Finding]:
        """11.2.3: every unit on the beach hex assaults; naval gunfire only on GT 1 (11.2.7)."""
        out = []
        here = sorted(u for u, w in state.location.items() if w == entry.hex and self._unit(state, u).side == "Allied")
        missing = [u for u in here if u not in entry.attackers]
        if missing:
            out.append(self._f("error", "11.2", entry, f"every unit on {entry.hex} takes part in its beach assault: "
                                                       f"{', '.join(missing)} is missing (11.2.3)"))
        strangers = [u for u in entry.attackers if u not in here]
        if strangers:
            out.append(self._f("error", "11.2", entry, f"{', '.join(strangers)} is not on {entry.hex} (11.2.3)"))
        out += self._check_support(state, entry, "Allied")
        if out:
            return out
        result = self.beach_audit(state, entry)
        return out + self._claims(entry, result, "11.2")

    def _claims(self, entry: Attack, result: FmAudit, section: str) -> list[Finding]:
        """The claimed differential and result against the table (a warning without a die)."""
        out = []
        if entry.odds is not None:
            claimed = entry.odds.lstrip("+")
            if ":" in claimed or not claimed.lstrip("-").isdigit() or int(claimed) != result.differential:
                out.append(self._f("error", section, entry, f"the differential is {result.differential:+d} "
                                                            f"({result.attack} - {result.defence}), not {entry.odds}"))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", section, entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            what = f"result {entry.result}" if entry.result is not None else "the result"
            out.append(self._f("warning", section, entry, f"{what} cannot be verified: no die roll is recorded"))
        elif entry.result is not None and entry.result != result.result:
            out.append(self._f("error", section, entry, f"differential {result.differential:+d} on the {result.line} "
                                                        f"line (column {result.column}) with a {entry.die} gives "
                                                        f"{result.result}, not {entry.result}"))
        elif entry.result is None:
            out.append(self._f("note", section, entry, f"the result is {result.result} (differential "
                                                       f"{result.differential:+d}, {result.line} line, column "
                                                       f"{result.column})"))
        return out

    def _check_attack(self, state: FireAndMovementState, entry: Attack) -> list[Finding]:
        game = state.game
        if self._is_beach_assault(state, entry):
            return self._check_beach_assault(state, entry)
        phase = self.phase_id(state)
        active = self.active(state)
        side = entry.side or self._unit(state, entry.attackers[0]).side
        out: list[Finding] = []
        if phase not in COMBAT_PHASES or side != active:
            return [self._f("error", "8.2", entry, f"{self._where(state)}: {side} attacks only in its own Combat and "
                                                   "Mobile Combat Phases")]
        target = game.grid.hex_of(entry.hex)
        defenders = self._defenders(state, entry, side)
        if not defenders:
            return [self._f("error", "8.2", entry, f"hex {entry.hex} holds no enemy unit to attack")]
        for unit_id in dict.fromkeys(entry.attackers):
            unit = self._unit(state, unit_id)
            here = self._on_map(state, unit_id)
            if unit.side != side:
                out.append(self._f("error", "8.2", entry, f"{unit_id} is not a {side} unit"))
                continue
            if here is None or not here.is_adjacent(target):
                out.append(self._f("error", "8.2", entry, f"{unit_id} at {state.location.get(unit_id)} is not adjacent "
                                                          f"to {entry.hex}"))
                continue
            side_features = game.hexside_features.get(Hexside.between(here, target), frozenset())
            if any(game.terrain[f].prohibited for f in side_features):
                out.append(self._f("error", "8.2", entry, f"{unit_id} cannot attack across the prohibited hexside "
                                                          f"{state.location[unit_id]}-{entry.hex}"))
            if phase == "mobile_combat" and unit.mobility != "mobile":
                out.append(self._f("error", "4.1", entry, f"{unit_id} is a leg unit; only mobile units attack in the "
                                                          "Mobile Combat Phase"))
            elif phase == "mobile_combat" and unit_id in state.attacked_in_combat:
                out.append(self._f("error", "8.2", entry, f"{unit_id} attacked in the Combat Phase and does not attack "
                                                          "again in the Mobile Combat Phase"))
            if unit_id in state.attacked:
                out.append(self._f("error", "8.2", entry, f"{unit_id} has already attacked in this phase; strengths "
                                                          "are unitary"))
            if unit_id in state.displaced:
                out.append(self._f("error", "8.3", entry, f"{unit_id} was displaced this player turn and attacks no "
                                                          "more in it (8.3.1)"))
            if unit_id in state.advanced:
                out.append(self._f("error", "8.5", entry, f"{unit_id} advanced after combat this player turn and "
                                                          "does nothing more in it"))
            if self._landed_on_gt1(state, unit_id):
                out.append(self._f("error", "11.2", entry, f"{unit_id} landed on the beach; its beach assault was its "
                                                          "only action of GT 1 (11.2.1)"))
        if len(entry.attackers) != len(set(entry.attackers)):
            out.append(self._f("error", "8.2", entry, "a unit is named twice"))
        attacked = [u for u in defenders if u in state.defended]
        if attacked:
            out.append(self._f("error", "8.0", entry, f"{', '.join(attacked)} has already been attacked in this phase; "
                                                      "a unit suffers one attack a phase"))
        stacked = Counter(state.location[u] for u in dict.fromkeys(entry.attackers)
                          if state.location.get(u) in self.landing_hexes(state))
        for where, n in sorted(stacked.items()):
            if n > 1:
                out.append(self._f("error", "11.2", entry, f"{n} units of the stack in {where} attack {entry.hex}; "
                                                           "outside a beach assault one unit of a beach landing stack "
                                                           "attacks a given hex (11.2.4)"))
        out += self._check_support(state, entry, side)
        if out:
            return out
        return out + self._claims(entry, self.combat_audit(state, entry), "8.2")

    def _check_support(self, state: FireAndMovementState, entry: Attack | Bombard, side: str) -> list[Finding]:
        """7.1, 7.2, 8.2.1 b, 11.1.4, 11.2.6, 14.1: known markers still in their side's cups (or drawn
        for this combat), at most two a side, placed attacker first and alternately."""
        markers = state.game.markers_by_id
        out = []
        per_side: Counter[str] = Counter()
        pending = Counter(state.drawn)
        taken: Counter[str] = Counter()
        kept: Counter[str] = Counter()
        known_sides: list[str] = []
        mismatched: set[str] = set()
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in SUPPORT_KINDS:
                known = sorted(m.id for m in markers.values() if m.kind in SUPPORT_KINDS)
                out.append(self._f("error", "7.2", entry, f"{marker_id!r} is not a support fire marker"
                                                          f"{did_you_mean(marker_id, known)}"))
                continue
            owner = marker.side or side
            known_sides.append(owner)
            if marker.kind == "naval_gunfire" and not (isinstance(entry, Attack) and self._is_beach_assault(state, entry)):
                out.append(self._f("error", "11.2", entry, f"{marker_id} supports only the beach assaults of GT 1 "
                                                          "(11.2.7)"))
            per_side[owner] += 1
            if pending[(owner, marker_id)] > 0:
                pending[(owner, marker_id)] -= 1  # drawn for this combat (7.2)
                continue
            if marker.kind == "mines" and kept[marker_id] < state.mines_aside.count(marker_id):
                kept[marker_id] += 1  # drawn earlier this game turn and kept (11.1.4), not from the cup now
                continue
            if marker.kind == "naval_gunfire":
                # 11.2.7: never in a cup, so never drawn: placed whatever the side drew from its cups.
                taken[marker_id] += 1
                if state.markers_used.count(marker_id) + taken[marker_id] > marker.count:
                    out.append(self._f("error", "7.2", entry, f"{marker_id} has been used "
                                                              f"{state.markers_used.count(marker_id)} time(s) this game "
                                                              f"turn and there are {marker.count}; a marker serves once "
                                                              "a game turn"))
                continue
            if any(who == owner for who, _ in state.drawn):
                mismatched.add(owner)
                out.append(self._f("error", "7.2", entry, f"{owner} drew {self._drawn_text(state, owner)} for this "
                                                          f"combat, not {marker_id}: markers are drawn at random and "
                                                          "placed as drawn"))
                continue
            taken[marker_id] += 1
            out += self._in_cup(state, entry, owner, marker_id, taken[marker_id])
        unplaced = [m for (who, m), n in pending.items() for _ in range(n) if markers[m].kind != "mines"
                    and who not in mismatched]
        if unplaced:
            out.append(self._f("error", "7.2", entry, f"{', '.join(sorted(unplaced))} drawn for this combat and not "
                                                      "placed on it; a drawn marker is placed as drawn (only the "
                                                      "Achtung Minen may be put aside, 11.1.4)"))
        for who, n in sorted(per_side.items()):
            if n > 2:
                out.append(self._f("error", "8.2", entry, f"{who} places {n} support markers on one combat; at most "
                                                          "two (8.2.1 b)"))
        if isinstance(entry, Attack) and not self._is_beach_assault(state, entry) and \
                not pools.placement_order_ok(known_sides, side):
            out.append(self._f("error", "8.2", entry, "support markers are placed attacker first, then defender, "
                                                      "attacker, defender, one at a time (8.2.1 b); the list "
                                                      f"{' '.join(entry.support)} cannot be placed in that order"))
        return out

    def _in_cup(self, state: FireAndMovementState, entry: Entry, side: str, marker_id: str, nth: int) -> list[Finding]:
        """Whether the nth copy of a marker named in an entry is still in its side's cups (7.1, 7.2,
        11.1.4, 14.1)."""
        marker = state.game.markers_by_id[marker_id]
        inclement = state.weather == "inclement"
        if inclement and marker.icon == "aircraft":
            return [self._f("error", "14.1", entry, f"{marker_id} is an aircraft marker; in inclement weather the "
                                                    "Allies use no aircraft this game turn")]
        left = self._cups(state, side)[marker_id]
        if nth <= left:
            return []
        gone = [f"{n} {what}" for what, n in (("eliminated", state.lost_markers.count(marker_id)),
                                             ("put aside", state.withheld.count(marker_id)),
                                             ("drawn or placed", state.markers_used.count(marker_id))) if n]
        return [self._f("error", "7.2", entry, f"no {marker_id} is left in the {side} cup this game turn (the game "
                                                f"has {marker.count}; {', '.join(gone) or 'none allotted'}); a "
                                                "marker serves once a game turn (7.1, 7.2)")]

    def _cups(self, state: FireAndMovementState, side: str) -> Counter[str]:
        """The markers still in a side's cups this game turn (7.1, 11.1.4, 11.2.6, 14.1)."""
        return pools.in_cups(state.game, side, state.lost_markers, state.withheld, state.markers_used,
                             state.weather == "inclement", scenario=state.scenario, capped=not self._campaign(state))

    @staticmethod
    def _drawn_text(state: FireAndMovementState, side: str) -> str:
        return " ".join(m for who, m in state.drawn if who == side) or "nothing"

    def _check_markers(self, state: FireAndMovementState, entry: SupportMarkers) -> list[Finding]:
        """`draw`, `aside`, `lose`: markers drawn from a side's own cups while any are left (7.2,
        11.1.4, 11.2.6), put aside or eliminated only when the rules call for it (11.1.4, 11.2.3, 14.1)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        out: list[Finding] = []
        known = sorted(m.id for m in markers.values() if m.kind in SUPPORT_KINDS and m.side == side)
        named = []
        for marker_id in entry.markers:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in SUPPORT_KINDS:
                out.append(self._f("error", "7.2", entry, f"{marker_id!r} is not a support fire marker"
                                                          f"{did_you_mean(marker_id, known)}"))
            elif marker.side != side:
                out.append(self._f("error", "7.2", entry, f"{marker_id} is a {marker.side} marker; each side has its "
                                                          "own pool"))
            elif marker.kind == "naval_gunfire":
                out.append(self._f("error", "11.2", entry, f"{marker_id} is a naval gunfire marker: never in a cup, "
                                                          "placed without drawing and removed after GT 1 (11.2.7)"))
            else:
                named.append(marker_id)
        if entry.how == "draw":
            return out + self._check_draw(state, entry, side, named)
        owed = [o for o in state.owed if o[0] == entry.how and o[1] == side]
        mines = Counter(m for who, m in state.drawn if who == side and markers[m].kind == "mines")
        seen: Counter[str] = Counter()
        for marker_id in named:
            marker = markers[marker_id]
            if entry.how == "aside" and mines[marker_id] > 0:
                mines[marker_id] -= 1  # 11.1.4: drawn Achtung Minen kept for a later combat
                continue
            match = next((o for o in owed if o[2] in ("", marker_id)), None)
            if match is None and owed:
                out.append(self._f("error", owed[0][3], entry, f"the marker {'put aside' if entry.how == 'aside' else 'lost'} "
                                                               f"is {owed[0][2]}, not {marker_id}"))
                continue
            if match is None:
                why = ("put aside: only a 4 at Pointe du Hoc (11.2.3) or inclement weather (14.1) does that"
                       if entry.how == "aside" else
                       "eliminated: only an Allied capture of Trévières, Isigny or Caumont (11.1.4) or a 5-6 at Pointe "
                       "du Hoc (11.2.3) does that")
                section = "11.1" if entry.how == "lose" else ("14.1" if state.weather == "inclement" else "11.2")
                out.append(self._f("error", section, entry, f"nothing calls for a {side} marker ({marker_id}) to be "
                                                            f"{why}"))
                continue
            owed.remove(match)
            section = match[3]
            if match[2] == "" and marker.kind == "mines" and entry.how == "lose":
                out.append(self._f("error", section, entry, f"{marker_id} is not part of the allotment; the marker "
                                                            "lost is one of the 15 in the cup (11.1.4)"))
            elif entry.how == "aside" and section == "14.1" and marker.icon == "aircraft":
                out.append(self._f("error", section, entry, f"{marker_id} is an aircraft marker, already out in "
                                                            "inclement weather; the markers put aside are picked from "
                                                            "the rest"))
            else:
                seen[marker_id] += 1
                if entry.how == "lose":
                    left = marker.count - state.lost_markers.count(marker_id)
                    if seen[marker_id] > left:
                        out.append(self._f("error", section, entry, f"every {marker_id} has already been eliminated"))
                else:
                    out += self._in_cup(state, entry, side, marker_id, seen[marker_id])
        return out

    def _check_draw(self, state: FireAndMovementState, entry: SupportMarkers, side: str,
                    named: list[str]) -> list[Finding]:
        """7.2, 8.2.1 b: drawn for a bombardment or a combat (the beach assaults before GT 1 too), at
        most two a side a combat, each still in the cups."""
        markers = state.game.markers_by_id
        phase = self.phase_id(state)
        if state.turn != 0 and phase not in ("bombardment", *COMBAT_PHASES):
            return [self._f("error", "7.2", entry, f"{self._where(state)}: markers are drawn for a bombardment or a "
                                                   "combat, in the Bombardment and Combat Phases")]
        out: list[Finding] = []
        seen: Counter[str] = Counter()
        for marker_id in named:
            seen[marker_id] += 1
            out += self._in_cup(state, entry, side, marker_id, seen[marker_id])
        drawn = [m for who, m in state.drawn if who == side] + named
        if sum(1 for m in drawn if markers[m].kind != "mines") > 2:
            out.append(self._f("error", "8.2", entry, f"{side} has drawn {' '.join(drawn)} for one combat; at most "
                                                      "two markers a side (8.2.1 b)"))
        return out

    def _owed(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """As the Support Fire Marker Phase ends: the weather rolled (14.1) and every marker the rules
        removed written (11.1.4, 11.2.3, 14.1)."""
        out = []
        game = state.game
        first = game.parameter.get("weather_first_turn", 2)
        if "weather" in state.optional and isinstance(first, int) and state.turn >= first:
            if state.weather is None:
                out.append(self._f("error", "14.1", entry, f"GT {state.turn}'s weather is rolled (the German "
                                                           "player's die) as the game turn begins"))
            elif state.weather == "inclement":
                missing = [s for s in game.manifest.sides if s not in state.weather_rolls]
                if missing:
                    out.append(self._f("error", "14.1", entry, f"in inclement weather each side rolls a die for the "
                                                               f"markers put aside; {' and '.join(missing)} did not"))
        owing = Counter((how, side, marker, section) for how, side, marker, section in state.owed)
        for (how, side, marker, section), n in sorted(owing.items()):
            what = marker or "marker(s) picked at random"
            verb = "put aside for this game turn" if how == "aside" else "eliminated"
            out.append(self._f("error", section, entry, f"{side} owes {n} {what} {verb} (write '{side}: {how} "
                                                        "MARKER'), due by the end of the Support Fire Marker Phase"))
        return out

    def _ranger(self, state: FireAndMovementState) -> str | None:
        """The Ranger battalion that lands at Pointe du Hoc (11.2.3)."""
        return next((p.piece for _, p in state.game.setup if p.scenario == state.scenario
                     and p.location in self._assault_boxes(state) and p.piece in state.game.units_by_id
                     and self._unit(state, p.piece).type == "ranger"), None)

    def _check_roll(self, state: FireAndMovementState, entry: RollOff) -> list[Finding]:
        """11.2.3: the Allied die at Pointe du Hoc, once, after the Rangers land; 14.1: the German
        weather die as a game turn begins and, in inclement weather, one die each for the markers put
        aside. Combat dice are written with their combats."""
        rolls = entry.rolls
        bad = [f"{s} {d}" for s, d in rolls.items() if not 1 <= d <= 6]
        if bad:
            return [self._f("error", "log", entry, f"a die roll is 1 to 6, not {', '.join(bad)}")]
        if state.turn == 0:
            ranger = self._ranger(state)
            if set(rolls) != {"Allied"}:
                return [self._f("error", "11.2", entry, "before GT 1 the only roll is the Allied player's one die for "
                                                        "Pointe du Hoc (11.2.3)")]
            if state.pointe_du_hoc is not None:
                return [self._f("error", "11.2", entry, f"the Pointe du Hoc assault was already rolled "
                                                        f"({state.pointe_du_hoc}); it is rolled once (11.2.3)")]
            if ranger is None or state.location.get(ranger) != POINTE_DU_HOC:
                return [self._f("error", "11.2", entry, f"the Pointe du Hoc assault is rolled once the Rangers have "
                                                        f"landed at {POINTE_DU_HOC} (11.2.3)")]
            return []
        first = state.game.parameter.get("weather_first_turn", 2)
        if "weather" in state.optional and isinstance(first, int) and state.turn >= first \
                and self.phase_id(state) in (None, "support_fire_marker"):
            if state.weather is None:
                if set(rolls) != {"German"}:
                    return [self._f("error", "14.1", entry, "the weather die is the German player's, rolled first "
                                                            "as the game turn begins")]
                return []
            if state.weather == "inclement":
                again = sorted(set(rolls) & set(state.weather_rolls))
                if again:
                    return [self._f("error", "14.1", entry, f"{', '.join(again)} has already rolled for the markers "
                                                            "put aside this game turn")]
                return []
        return [self._f("error", "log", entry, "no die roll is called for here: combat and bombardment dice are "
                                               "written with their entries ('die N'); 'Roll' records the Pointe du Hoc "
                                               "roll before GT 1 (11.2.3) and, with [Optional \"weather\"], the weather "
                                               "rolls as a game turn begins (14.1)")]

    # -- bombardment (8.1) ----------------------------------------------------------------------
    def bombard_audit(self, state: FireAndMovementState, entry: Bombard) -> FmAudit:
        """The arithmetic of a bombardment (8.1.2): markers against the target's defence, the line of
        its hex terrain (not its hexsides)."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = entry.side or ""
        defenders = [(u, unit_values(game, u, u in state.depleted)[1])
                     for u in self._stack_defender(state, self._defenders(state, entry, side))]
        fortified = "fortification" in game.hex_terrain.get(target, ())
        return audit(game, target, [], defenders, self._supports(state, entry, target), fortified, entry.die, side)

    def _adjacent_friends(self, state: FireAndMovementState, entry: Bombard) -> list[str]:
        """The bombarding side's units next to the target (8.1.3: the (A) result's friendly fire)."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        return sorted(u for u, w in state.location.items() if game.grid.is_label(w)
                      and self._unit(state, u).side == entry.side and game.grid.hex_of(w).is_adjacent(target))

    def bombard_effect(self, state: FireAndMovementState, entry: Bombard, result: str | None) -> str | None:
        """What a table result does in a bombardment (8.1.3): the attacker's results are no effect,
        (A) only with a friendly unit next to the target."""
        if result in ("Ae", "A1", "A2", "A3", "Ex"):
            return "-"
        if result == "(A)" and not self._adjacent_friends(state, entry):
            return "-"
        return result

    def _check_bombard(self, state: FireAndMovementState, entry: Bombard) -> list[Finding]:
        game = state.game
        side = entry.side or ""
        if self.phase_id(state) != "bombardment" or side != self.active(state):
            return [self._f("error", "8.1", entry, f"{self._where(state)}: {side or 'a side'} bombards only in its "
                                                   "own Bombardment Phase")]
        if not self._defenders(state, entry, side):
            return [self._f("error", "8.1", entry, f"hex {entry.hex} holds no enemy unit to bombard")]
        out = self._check_support(state, entry, side)
        markers = game.markers_by_id
        target = game.grid.hex_of(entry.hex)
        friends = [game.grid.hex_of(w) for u, w in state.location.items()
                   if game.grid.is_label(w) and self._unit(state, u).side == side]
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None:
                continue
            if marker.side not in (None, side):
                out.append(self._f("error", "8.1", entry, f"{marker_id} is a {marker.side} marker; a bombardment uses "
                                                          "the bombarding side's markers only"))
            elif marker.kind == "mines":
                out.append(self._f("error", "11.1", entry, f"{marker_id} supports ground combat only, never a "
                                                           "bombardment (11.1.4)"))
            elif marker.range_hexes is not None and not any(f.distance(target) <= marker.range_hexes for f in friends):
                out.append(self._f("error", "8.1", entry, f"{marker_id} reaches {marker.range_hexes} hexes from a "
                                                          f"friendly-occupied hex and {entry.hex} is farther "
                                                          "(8.1.1)"))
        hit = [u for u in self._stack_defender(state, self._defenders(state, entry, side)) if u in state.defended]
        if hit:
            # 8.0: a unit suffers one attack a phase, bombardment included.
            out.append(self._f("error", "8.0", entry, f"{', '.join(hit)} has already been bombarded in this phase; a "
                                                      "unit suffers one attack a phase"))
        already = state.bombarded.count(entry.hex)
        if already + len(entry.support) > 2:
            out.append(self._f("error", "8.1", entry, f"{already + len(entry.support)} markers bombard {entry.hex} "
                                                      "this player turn; at most two"))
        if out:
            return out
        result = self.bombard_audit(state, entry)
        if entry.odds is not None:
            claimed = entry.odds.lstrip("+")
            if not claimed.lstrip("-").isdigit() or int(claimed) != result.differential:
                out.append(self._f("error", "8.1", entry, f"the differential is {result.differential:+d} "
                                                          f"({result.attack} - {result.defence}), not {entry.odds}"))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", "8.1", entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            what = f"result {entry.result}" if entry.result is not None else "the result"
            out.append(self._f("warning", "8.1", entry, f"{what} cannot be verified: no die roll is recorded"))
        else:
            effect = self.bombard_effect(state, entry, result.result)
            if entry.result is not None and entry.result not in (result.result, effect):
                out.append(self._f("error", "8.1", entry, f"differential {result.differential:+d} on the "
                                                          f"{result.line} line (column {result.column}) with a "
                                                          f"{entry.die} gives {result.result}"
                                                          + (f", no effect in a bombardment" if effect != result.result
                                                             else "") + f", not {entry.result}"))
            elif entry.result is None:
                out.append(self._f("note", "8.1", entry, f"the result is {result.result}"
                                                         + (" (no effect in a bombardment)" if effect == "-" and
                                                            result.result != "-" else "")))
        return out

    # -- results (8.2.4-8.5) -------------------------------------------------------------------
    def _carries_out(self, state: FireAndMovementState, entry: Entry) -> bool:
        """Whether an entry may carry out the combat before it; any other ends that combat. 12.0's
        supply loss, as the Allied player turn ends, comes after every combat of the turn, so it ends
        the last one."""
        if isinstance(entry, Loss) and self._supply_loss(state, entry.unit):
            return False
        return isinstance(entry, (Loss, Retreat, Advance, StandFast, Comment, Header))

    def _steps(self, state: FireAndMovementState, unit_id: str) -> int:
        """Steps a unit has left: two at full strength, one reduced or one-step (8.2.4)."""
        unit = self._unit(state, unit_id)
        return 1 if unit_id in state.depleted or unit.steps < 2 or not unit.reduced else 2

    def retreat_paths(self, state: FireAndMovementState, unit_id: str, hexes: int) -> list[tuple[Hex, ...]]:
        """Every retreat of exactly `hexes` hexes open to a unit now (8.3, 6.2): away from its hex one
        hex a step, never into or through an enemy unit, an EZOC (friendly units do not cancel it;
        rangers ignore it, 11.2.3), prohibited terrain or off the map."""
        game = state.game
        start = self._on_map(state, unit_id)
        if start is None:
            return []
        unit = self._unit(state, unit_id)
        ezoc = frozenset() if unit.type in RETREAT_IGNORES_EZOC else self.ezoc(state, unit.side)
        enemy = {game.grid.hex_of(w) for u, w in state.location.items()
                 if game.grid.is_label(w) and self._unit(state, u).side != unit.side}
        out: list[tuple[Hex, ...]] = []

        def extend(path: tuple[Hex, ...]) -> None:
            if len(path) - 1 == hexes:
                out.append(path)
                return
            for n in game.grid.neighbours_on_map(path[-1]):
                if n.distance(start) != len(path) or n in enemy or n in ezoc or \
                        self.step_cost(game, path[-1], n) is None or \
                        n in state.out_of_play:
                    continue
                extend((*path, n))
        extend((start,))
        return out

    def _friendly_at(self, state: FireAndMovementState, unit_id: str, h: Hex) -> bool:
        """Whether another unit of the unit's side stands in a hex."""
        side = self._unit(state, unit_id).side
        label = state.game.grid.label_of(h)
        return any(w == label and u != unit_id and self._unit(state, u).side == side for u, w in state.location.items())

    def _open_combat(self, state: FireAndMovementState, entry: Attack) -> FmCombat:
        """The combat an attack opens: its known result (claimed, else the table's for the die)."""
        side = self._unit(state, entry.attackers[0]).side
        result = entry.result
        if result is None and entry.die is not None and 1 <= entry.die <= 6:
            result = self.combat_audit(state, entry).result
        attackers = tuple(u for u in dict.fromkeys(entry.attackers) if self._on_map(state, u) is not None)
        beach = self._is_beach_assault(state, entry)
        defenders = () if beach else tuple(self._stack_defender(state, self._defenders(state, entry, side)))
        steps = tuple((u, self._steps(state, u)) for u in (*attackers, *defenders))
        return FmCombat(entry.line, entry.column, entry.hex, result, attackers, defenders, steps, beach=beach)

    def _outstanding(self, state: FireAndMovementState, combat: FmCombat) -> list[tuple[str, str]]:
        """(section, message) for what a combat's result still asks of the log (8.2.4-8.4)."""
        open_ = {u: bool(self.retreat_paths(state, u, combat.retreat_due(u)))
                 for u in (*combat.attackers, *combat.defenders) if combat.retreat_due(u)}
        return results.outstanding(combat, open_)

    def _combat_over(self, state: FireAndMovementState, entry: Entry) -> list[Finding]:
        """What the combat under way still owed when another entry ends it."""
        combat = state.combat
        assert combat is not None
        return [self._f("error", section, entry, message) for section, message in self._outstanding(state, combat)]

    def _supply_loss(self, state: FireAndMovementState, unit_id: str) -> bool:
        """12.0: a loss, as the Allied player turn ends, of a unit out of supply that the combat just
        resolved does not claim (the unit took no part in it, or its result is carried out): the log
        writes the supply losses after the Mobile Combat Phase's last combat."""
        combat = state.combat
        if combat is None or not self._allied_turn_ending(state) or unit_id in state.supply_losses:
            return False
        if unit_id in (*combat.attackers, *combat.defenders) and \
                (combat.result is None or self._outstanding(state, combat)):
            return False
        return unit_id in self.out_of_supply(state)

    def _check_loss(self, state: FireAndMovementState, entry: Loss) -> list[Finding]:
        combat = state.combat
        if entry.loss == "remove":
            return [self._f("error", "log", entry, "'remove' is Onslaught's (6.3); Fire & Movement removes nothing "
                                                   "for stacking")]
        if combat is not None and self._supply_loss(state, entry.unit):
            combat = None  # 12.0's loss, after the last combat of the Allied player turn
        if combat is None and state.turn == 0 and entry.unit == self._ranger(state):
            return self._check_pdh_loss(state, entry)
        if combat is None:
            if self._allied_turn_ending(state) and entry.unit in self.out_of_supply(state) and \
                    entry.unit not in state.supply_losses:
                # 12.0: out of supply as the Allied player turn ends: reduced, or eliminated if reduced.
                if entry.loss == "deplete" and self._steps(state, entry.unit) <= 1:
                    return [self._f("error", "12.0", entry, f"{entry.unit} is reduced or a one-step unit: the supply "
                                                            "loss eliminates it")]
                if entry.loss == "eliminate" and self._steps(state, entry.unit) > 1:
                    return [self._f("error", "12.0", entry, f"{entry.unit} is reduced, not eliminated, for want of "
                                                            "supply")]
                return []
            return [self._f("error", "8.2", entry, f"{self._where(state)}: no combat result calls for {entry.unit} "
                                                   "to lose a step")]
        if entry.unit not in (*combat.attackers, *combat.defenders):
            return [self._f("error", "8.2", entry, f"{entry.unit} took no part in {combat.name}")]
        steps, lost = combat.steps_of(entry.unit), combat.lost_by(entry.unit)
        if entry.loss == "deplete" and steps - lost <= 1:
            return [self._f("error", "8.2", entry, f"{entry.unit} is reduced or a one-step unit: a loss eliminates "
                                                   "it (8.3)")]
        if combat.result is None:
            return []
        due = combat.loss_due(entry.unit)
        retreat = combat.retreat_due(entry.unit)
        path = combat.retreat_of(entry.unit)
        if retreat and entry.unit not in combat.stood:
            if path is not None and len(path) - 1 < retreat:
                due += 1  # 8.3: short of the full retreat, reduced in the last hex
            elif path is None:
                if self.retreat_paths(state, entry.unit, retreat) or self.retreat_paths(state, entry.unit, 1):
                    return [self._f("error", "8.3", entry, f"{combat.verdict}: {entry.unit} retreats (or declares "
                                                           "stiff resistance, written 'stand') rather than losing a "
                                                           "step")]
                due = steps  # 8.3: a unit that cannot retreat even one hex is eliminated
        after = lost + (1 if entry.loss == "deplete" else steps - lost)
        if after > min(due, steps):
            chosen = combat.chosen()
            if combat.result in results.ONE_ATTACKER_REDUCED and entry.unit in combat.attackers and chosen:
                return [self._f("error", "8.2", entry, f"{combat.verdict} reduces one attacking unit and the attacker "
                                                       f"chose {chosen}; {entry.unit} loses nothing")]
            fate = "nothing" if due == 0 else ("a step" if due == 1 else "every step")
            return [self._f("error", "8.2", entry, f"{combat.verdict} takes {fate} from {entry.unit}")]
        return []

    def _check_pdh_loss(self, state: FireAndMovementState, entry: Loss) -> list[Finding]:
        """11.2.3: the Rangers' loss is the one the Pointe du Hoc die calls for."""
        row = pools.pointe_du_hoc(state.game, state.pointe_du_hoc) if state.pointe_du_hoc is not None else None
        if row is None:
            return [self._f("error", "11.2", entry, f"no Pointe du Hoc roll calls for {entry.unit} to lose a step "
                                                    "(11.2.3)")]
        wanted = {"eliminated": "eliminate", "reduced": "deplete"}.get(row.ranger)
        if entry.loss != wanted or (wanted == "deplete" and entry.unit in state.depleted):
            fate = {"eliminated": "eliminated", "reduced": "reduced once"}.get(row.ranger, "unharmed")
            return [self._f("error", "11.2", entry, f"a {row.die} at Pointe du Hoc leaves {entry.unit} {fate} "
                                                    "(11.2.3)")]
        return []

    def _check_retreat(self, state: FireAndMovementState, entry: Retreat) -> list[Finding]:
        game = state.game
        combat = state.combat
        where = state.location.get(entry.unit)
        if combat is None:
            return [self._f("error", "8.3", entry, f"{self._where(state)}: no combat result calls for {entry.unit} "
                                                   "to retreat")]
        if entry.path[0] != where:
            return [self._f("error", "8.3", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
        off = [label for label in entry.path if not game.grid.is_label(label)]
        if off:
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats off the map at {off[0]}")]
        hexes = tuple(game.grid.hex_of(label) for label in entry.path)
        if entry.unit not in (*combat.attackers, *combat.defenders):
            return self._check_displacement(state, entry, combat, hexes)
        due = combat.retreat_due(entry.unit)
        if not due:
            return [self._f("error", "8.2", entry, f"{combat.verdict} calls for no retreat of {entry.unit}")]
        if entry.unit in combat.stood or combat.retreat_of(entry.unit) is not None:
            return [self._f("error", "8.3", entry, f"{entry.unit} has already retreated or stood in {combat.name}")]
        entered = len(hexes) - 1
        if entered == 0 or entered > due:
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats {entered} hexes; {combat.result} calls for "
                                                   f"{due}")]
        legal = self.retreat_paths(state, entry.unit, entered)
        if hexes not in legal:
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats where it may not: each hex one further from "
                                                   f"{entry.path[0]}, never into an enemy unit, an enemy zone of "
                                                   "control or prohibited terrain (6.2, 8.3)")]
        if entered < due and self.retreat_paths(state, entry.unit, due):
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats {entered} of the {due} hexes though a full "
                                                   "retreat is open")]
        if combat.bombardment:
            out = self._bombardment_direction(state, entry, hexes, legal)
            if out:
                return out
        full = self.retreat_paths(state, entry.unit, entered)
        if combat.bombardment:
            # 8.1.5 before 8.3: the vacant path is wanted among the retreats that go farther from the
            # closest enemy unit, when some do.
            full = self._farther(state, entry.unit, full) or full
        vacant = [p for p in full if not any(self._friendly_at(state, entry.unit, h) for h in p[1:])]
        if vacant and any(self._friendly_at(state, entry.unit, h) for h in hexes[1:]):
            return [self._f("error", "8.3", entry, f"{entry.unit} retreats through or onto a friendly unit though a "
                                                   "path of vacant hexes is open")]
        return []

    def _farther(self, state: FireAndMovementState, unit_id: str,
                 paths: list[tuple[Hex, ...]]) -> list[tuple[Hex, ...]]:
        """8.1.5: the retreats that end farther from the closest enemy unit than they start (none when
        no enemy unit is on the map)."""
        game = state.game
        side = self._unit(state, unit_id).side
        enemies = [game.grid.hex_of(w) for u, w in state.location.items()
                   if game.grid.is_label(w) and self._unit(state, u).side != side]
        if not enemies:
            return []

        def nearest(h: Hex) -> int:
            return min(e.distance(h) for e in enemies)
        return [p for p in paths if nearest(p[-1]) > nearest(p[0])]

    def _bombardment_direction(self, state: FireAndMovementState, entry: Retreat, hexes: tuple[Hex, ...],
                               legal: list[tuple[Hex, ...]]) -> list[Finding]:
        """8.1.5: after a bombardment a unit retreats, if it can, farther from the closest enemy unit."""
        away = self._farther(state, entry.unit, legal)
        if away and hexes not in away:
            return [self._f("error", "8.1", entry, f"{entry.unit} retreats after a bombardment no farther from the "
                                                   "closest enemy unit, though it could (8.1.5)")]
        return []

    def _check_displacement(self, state: FireAndMovementState, entry: Retreat, combat: FmCombat,
                            hexes: tuple[Hex, ...]) -> list[Finding]:
        """8.3.1: a friendly unit displaced one hex from where a retreating unit ends."""
        ends = {path[-1] for _, path in combat.retreated}
        if entry.path[0] not in ends:
            return [self._f("error", "8.3", entry, f"{entry.unit} took no part in {combat.name}; only a unit a "
                                                   "retreating unit ends on is displaced (8.3.1)")]
        if len(hexes) != 2 or hexes not in self.retreat_paths(state, entry.unit, 1) or \
                self._friendly_at(state, entry.unit, hexes[1]):
            return [self._f("error", "8.3", entry, f"{entry.unit} is displaced one hex, never into an enemy unit, an "
                                                   "enemy zone of control, prohibited terrain or a friendly unit "
                                                   "(8.3.1)")]
        return []

    def _check_stand(self, state: FireAndMovementState, entry: StandFast) -> list[Finding]:
        combat = state.combat
        if combat is None:
            return [self._f("error", "8.4", entry, f"{self._where(state)}: no retreat result to resist")]
        out = []
        for unit_id in dict.fromkeys(entry.units):
            if not combat.retreat_due(unit_id):
                out.append(self._f("error", "8.4", entry, f"{combat.verdict} calls for no retreat of {unit_id}; "
                                                          "stiff resistance answers a retreat"))
            elif unit_id in combat.stood or combat.retreat_of(unit_id) is not None:
                out.append(self._f("error", "8.4", entry, f"{unit_id} has already retreated or stood"))
        return out

    def _check_advance(self, state: FireAndMovementState, entry: Advance) -> list[Finding]:
        combat = state.combat
        if combat is None or combat.result not in DEFENDER_RETREATS:
            what = "no combat has just been resolved" if combat is None else f"{combat.verdict} is not D2 or D3"
            return [self._f("error", "8.5", entry, f"{entry.unit} advances, but {what}; advances follow a D2 or D3 "
                                                   "right after the retreat")]
        if combat.bombardment or combat.beach:
            what = "a bombardment" if combat.bombardment else "a beach assault"
            return [self._f("error", "8.5", entry, f"there is no advance after {what}")]
        if entry.unit not in combat.attackers:
            return [self._f("error", "8.5", entry, f"{entry.unit} did not take part in {combat.name}")]
        if any(u == entry.unit for u, _ in combat.advanced):
            return [self._f("error", "8.5", entry, f"{entry.unit} has already advanced")]
        if entry.path[0] != state.location.get(entry.unit):
            return [self._f("error", "8.5", entry, f"{entry.unit} is in {state.location.get(entry.unit)}, not "
                                                   f"{entry.path[0]}")]
        trail = [combat.hex] + [label for _, path in combat.retreated if _ in combat.defenders
                                for label in path[1:]]
        if any(u in combat.defenders and state.location.get(u) == combat.hex for u in combat.defenders):
            return [self._f("error", "8.5", entry, f"{combat.hex} is still held; there is no path of retreat")]
        if any(u in combat.stood for u in combat.defenders):
            return [self._f("error", "8.4", entry, f"the defender's stiff resistance in {combat.hex} eliminated it, "
                                                   "which prevents any advance into that hex")]
        if len(entry.path) < 2 or list(entry.path[1:]) != trail[:len(entry.path) - 1]:
            return [self._f("error", "8.5", entry, f"{entry.unit} strays from the path of retreat "
                                                   f"({'-'.join(trail)})")]
        if any(end == entry.path[-1] for _, end in combat.advanced):
            return [self._f("error", "8.5", entry, f"another unit already ended its advance in {entry.path[-1]}; one "
                                                   "unit a hex")]
        side = self._unit(state, entry.unit).side
        held = [label for label in entry.path[1:] if any(w == label and self._unit(state, u).side != side
                                                         for u, w in state.location.items())]
        if held:
            # 8.5: the path of retreat is the vacant hexes the defender left; a retreat through a
            # friend's hex (8.3) leaves that hex held.
            return [self._f("error", "8.5", entry, f"{entry.unit} advances into {held[0]}, which an enemy unit holds")]
        return []

    # -- apply ---------------------------------------------------------------------------------
    def apply(self, state: FireAndMovementState, entry: Entry) -> FireAndMovementState:
        """The state after an entry, as the log writes it, with control, beachheads and the German
        sudden death victory kept up to date (11.2.1, 13.0)."""
        after = self._apply(state, entry)
        grid = state.game.grid
        moved = {u: w for u, w in after.location.items() if w != state.location.get(u) and grid.is_label(w)}
        if moved:
            controlled = dict(after.controlled)
            beachheads = after.beachheads
            for unit_id, where in moved.items():
                side = self._unit(after, unit_id).side
                controlled[where] = side
                if side == "German" and beachheads is not None and where in beachheads:
                    beachheads = beachheads - {where}  # 11.2.1: a German unit in the hex removes the marker
            after = replace(after, controlled=controlled, beachheads=beachheads)
        if isinstance(entry, TurnMarker) and state.turn == 0 and state.set_up:
            # 11.2.1: markers stay only on the beach hexes the assault landed on.
            after = replace(after, beachheads=self._landed_hexes(state))
        if isinstance(entry, TurnMarker) and state.turn and after.victory is None and not self.landing_hexes(state):
            # 13.0: no beach landing hex left at the end of a game turn: the German wins at once.
            section = "14.3" if self._campaign(state) else "13.0"
            after = replace(after, victory=("German", section, entry.line, f"no beach landing hex is left to the "
                                                                         f"Allies at the end of GT {state.turn}"))
        if isinstance(entry, TurnMarker) and self._campaign(state) and state.last_turn is None and \
                state.turn == self._campaign_number(state, "campaign_base_last_turn", 17):
            after = replace(after, last_turn=self.campaign_last_turn(state)[0])  # 14.2: fixed as GT 17 ends
        return after

    def _apply(self, state: FireAndMovementState, entry: Entry) -> FireAndMovementState:
        """The state after an entry, as the log writes it."""
        kind = "" if isinstance(entry, Place) and entry.how in ("setup", "reinforce", "replace") \
            else getattr(entry, "kind", "")
        if kind in UNCHECKED:
            state = replace(state, noted=state.noted | {kind})
        if state.combat is not None and not self._carries_out(state, entry):
            state = replace(state, combat=None)
        if isinstance(entry, TurnMarker):
            return replace(state, turn=entry.turn, phase=None, moved=frozenset(), moved_in_movement=frozenset(),
                           attacked=frozenset(), defended=frozenset(), attacked_in_combat=frozenset(),
                           advanced=frozenset(), displaced=frozenset(),
                           # 11.2.3: the beach assaults before GT 1 use GT 1's markers.
                           markers_used=state.markers_used if state.turn == 0 else (), bombarded=(), replaced=(),
                           withheld=state.withheld if state.turn == 0 else (), drawn=(), mines_aside=(),
                           weather=None, weather_rolls=(), owed=(*state.owed, *self._capture_losses(state)),
                           captured=state.captured | {name for name, _ in self._newly_captured(state)})
        if isinstance(entry, StepMarker):
            index = self._next_phase(state, entry.step)
            if index is None:
                return state
            # 4.1: a new player turn (movement after the other player's phases) starts afresh.
            fresh = entry.step == "movement"
            state = replace(state, entered=(), landed=frozenset(), supply_losses=frozenset(), drawn=(),
                            mines_aside=(*state.mines_aside, *(m for _, m in state.drawn
                                                               if state.game.markers_by_id[m].kind == "mines")),
                            owed=() if self.phase_id(state) == "support_fire_marker" else state.owed)
            return replace(state, phase=index, moved=frozenset() if fresh else state.moved,
                           moved_in_movement=frozenset() if fresh else state.moved_in_movement,
                           attacked=frozenset(), defended=frozenset(),
                           attacked_in_combat=frozenset() if fresh else state.attacked_in_combat,
                           advanced=frozenset() if fresh else state.advanced,
                           displaced=frozenset() if fresh else state.displaced,
                           bombarded=() if fresh else state.bombarded)
        if isinstance(entry, Bombard):
            result = entry.result
            if result is None and entry.die is not None and 1 <= entry.die <= 6:
                result = self.bombard_audit(state, entry).result
            effect = self.bombard_effect(state, entry, result)
            friends = tuple(self._adjacent_friends(state, entry)) if effect == "(A)" else ()
            defenders = tuple(self._stack_defender(state, self._defenders(state, entry, entry.side or "")))
            steps = tuple((u, self._steps(state, u)) for u in (*friends, *defenders))
            opened = FmCombat(entry.line, entry.column, entry.hex, effect, friends, defenders, steps, bombardment=True)
            return replace(self._placed(state, entry), combat=opened, defended=state.defended | set(defenders),
                           bombarded=(*state.bombarded, *([entry.hex] * len(entry.support))))
        if isinstance(entry, Attack):
            side = self._unit(state, entry.attackers[0]).side
            in_combat = {u for u in entry.attackers if self.phase_id(state) == "combat"
                         and self._unit(state, u).mobility == "mobile"}
            assaulted = state.assaulted | ({entry.hex} if state.turn == 0 else set())
            landing = state.landing
            if landing is None and self._is_beach_assault(state, entry):
                landing = tuple(sorted(self._landing_counts(state).items()))  # 11.2.1: the landing as it was
            return replace(self._placed(state, entry), attacked=state.attacked | set(entry.attackers), assaulted=assaulted,
                           landing=landing,
                           defended=state.defended | set(self._defenders(state, entry, side)),
                           attacked_in_combat=state.attacked_in_combat | in_combat,
                           combat=self._open_combat(state, entry))
        if isinstance(entry, RollOff):
            return self._rolled(state, entry)
        if isinstance(entry, SupportMarkers):
            return self._marked(state, entry)
        if isinstance(entry, Move):
            if state.turn <= 1 and state.pointe_du_hoc is not None and entry.unit == self._ranger(state):
                state = replace(state, ranger_moved=state.ranger_moved + len(entry.path) - 1)
            in_movement = self.phase_id(state) == "movement" and self._unit(state, entry.unit).mobility == "mobile"
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           left_beach=self._leaving(state, entry.unit, entry.path),
                           moved=state.moved | {entry.unit},
                           moved_in_movement=state.moved_in_movement | ({entry.unit} if in_movement else set()))
        combat = state.combat
        if isinstance(entry, Retreat):
            displaced = state.displaced
            if combat is not None and entry.unit not in (*combat.attackers, *combat.defenders):
                displaced = displaced | {entry.unit}  # 8.3.1
            elif combat is not None:
                combat = replace(combat, retreated=(*combat.retreated, (entry.unit, tuple(entry.path))))
            return replace(state, location={**state.location, entry.unit: entry.path[-1]}, combat=combat,
                           displaced=displaced, left_beach=self._leaving(state, entry.unit, entry.path))
        if isinstance(entry, Advance):
            if combat is not None:
                combat = replace(combat, advanced=(*combat.advanced, (entry.unit, entry.path[-1])))
            return replace(state, location={**state.location, entry.unit: entry.path[-1]},
                           advanced=state.advanced | {entry.unit}, combat=combat,
                           left_beach=self._leaving(state, entry.unit, entry.path))
        if isinstance(entry, Loss):
            supply = self._allied_turn_ending(state) and combat is None or self._supply_loss(state, entry.unit)
            if supply:
                state = replace(state, supply_losses=state.supply_losses | {entry.unit})
            if combat is not None and not supply and entry.unit in (*combat.attackers, *combat.defenders):
                left = combat.steps_of(entry.unit) - combat.lost_by(entry.unit)
                state = replace(state, combat=combat.with_loss(entry.unit, 1 if entry.loss == "deplete" else left))
            if entry.loss == "deplete" and entry.unit not in state.depleted and self._unit(state, entry.unit).reduced:
                return replace(state, depleted=state.depleted | {entry.unit})
            side = self._unit(state, entry.unit).side
            box = next((b.id for b in state.game.manifest.box if b.kind == "eliminated" and b.side == side),
                       "eliminated")
            return replace(state, location={**state.location, entry.unit: box}, depleted=state.depleted - {entry.unit})
        if isinstance(entry, StandFast):
            # 8.4: stiff resistance reduces the unit (a reduced or one-step unit is eliminated).
            for unit_id in dict.fromkeys(entry.units):
                if combat is not None:
                    combat = replace(combat.with_loss(unit_id, 1), stood=combat.stood | {unit_id})
                    state = replace(state, combat=combat)
                if self._steps(state, unit_id) > 1:
                    state = replace(state, depleted=state.depleted | {unit_id})
                else:
                    side = self._unit(state, unit_id).side
                    box = next((b.id for b in state.game.manifest.box if b.kind == "eliminated" and b.side == side),
                               "eliminated")
                    state = replace(state, location={**state.location, unit_id: box},
                                    depleted=state.depleted - {unit_id})
            return state
        if isinstance(entry, Place) and entry.how == "setup":
            state = replace(state, set_up=True)
        if isinstance(entry, Place) and entry.how == "replace" and entry.unit in state.game.units_by_id:
            # 11.2.5: rebuilt to full strength where it stands.
            return replace(state, depleted=state.depleted - {entry.unit},
                           replaced=(*state.replaced, self._unit(state, entry.unit).mobility))
        if isinstance(entry, Place) and entry.how == "reinforce" and entry.hex is not None and \
                state.game.grid.is_label(entry.hex) and entry.unit in state.game.units_by_id:
            if self._unit(state, entry.unit).side == "German":
                cost = self._entry_cost(state, entry.hex)
                state = replace(state, entered=(*state.entered, (entry.unit, cost)))
            else:
                state = replace(state, landed=state.landed | {entry.unit})
        if isinstance(entry, Place) and entry.hex is not None and entry.unit in state.game.units_by_id:
            depleted = state.depleted | {entry.unit} if entry.strength == "reduced" else state.depleted
            return replace(state, location={**state.location, entry.unit: entry.hex}, depleted=depleted)
        return state

    def _placed(self, state: FireAndMovementState, entry: Attack | Bombard) -> FireAndMovementState:
        """The pools after markers are placed on a combat: those drawn for it leave the drawn list,
        kept Achtung Minen leave the kept list, the others are taken from the cups now (7.2, 11.1.4);
        drawn Achtung Minen not placed are kept for later combats."""
        markers = state.game.markers_by_id
        pending = list(state.drawn)
        kept = list(state.mines_aside)
        used = list(state.markers_used)
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None:
                continue
            owner = marker.side or entry.side or ""
            if (owner, marker_id) in pending:
                pending.remove((owner, marker_id))
            elif marker.kind == "mines" and marker_id in kept:
                kept.remove(marker_id)
            else:
                used.append(marker_id)
        kept += [m for _, m in pending if markers[m].kind == "mines"]
        return replace(state, drawn=(), mines_aside=tuple(kept), markers_used=tuple(used))

    def _marked(self, state: FireAndMovementState, entry: SupportMarkers) -> FireAndMovementState:
        """The pools after `draw`, `aside` or `lose` (7.2, 11.1.4, 11.2.3, 14.1)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        named = [m for m in entry.markers if m in markers and markers[m].side == side
                 and markers[m].kind in pools.CUP_KINDS]
        if entry.how == "draw":
            return replace(state, drawn=(*state.drawn, *((side, m) for m in named)),
                           markers_used=(*state.markers_used, *named))
        owed = list(state.owed)
        drawn = list(state.drawn)
        kept = list(state.mines_aside)
        withheld = list(state.withheld)
        lost = list(state.lost_markers)
        for marker_id in named:
            if entry.how == "aside" and (side, marker_id) in drawn and markers[marker_id].kind == "mines":
                drawn.remove((side, marker_id))
                kept.append(marker_id)
                continue
            match = next((o for o in owed if o[0] == entry.how and o[1] == side and o[2] in ("", marker_id)), None)
            if match is not None:
                owed.remove(match)
            (withheld if entry.how == "aside" else lost).append(marker_id)
        return replace(state, owed=tuple(owed), drawn=tuple(drawn), mines_aside=tuple(kept), withheld=tuple(withheld),
                       lost_markers=tuple(lost))

    def _rolled(self, state: FireAndMovementState, entry: RollOff) -> FireAndMovementState:
        """The Pointe du Hoc roll (11.2.3) and the weather rolls (14.1), with what they call for."""
        game = state.game
        if state.turn == 0:
            die = entry.rolls.get("Allied")
            row = pools.pointe_du_hoc(game, die) if die is not None and state.pointe_du_hoc is None else None
            if row is None:
                return state
            six = pools.plus_six(game)
            owed = state.owed
            if six is not None and row.german_plus6 in ("eliminate", "eliminate_permanently"):
                how = "aside" if row.german_plus6 == "eliminate" else "lose"
                owed = (*owed, (how, "German", six, "11.2"))
            return replace(state, pointe_du_hoc=die, owed=owed)
        if "weather" not in state.optional:
            return state
        if state.weather is None and "German" in entry.rolls:
            inclement = entry.rolls["German"] == game.parameter.get("weather_inclement_roll", 6)
            return replace(state, weather="inclement" if inclement else "fair")
        if state.weather == "inclement":
            asides = list(state.owed)
            for side, die in sorted(entry.rolls.items()):
                if side in state.weather_rolls:
                    continue
                left = sum(self._cups(state, side).values())
                asides += [("aside", side, "", "14.1")] * min(die, left)
            return replace(state, owed=tuple(asides),
                           weather_rolls=(*state.weather_rolls, *(s for s in entry.rolls if s not in state.weather_rolls)))
        return state

    def _leaving(self, state: FireAndMovementState, unit_id: str, path: Sequence[str]) -> frozenset[str]:
        """11.2.1: the units that have left a beach landing hex, with this one if its path does."""
        if len(path) > 1 and path[0] in self.landing_hexes(state) and path[-1] != path[0]:
            return state.left_beach | {unit_id}
        return state.left_beach

    def _newly_captured(self, state: FireAndMovementState) -> list[tuple[str, frozenset[str]]]:
        """11.1.4's places the Allies hold (occupy, or last occupied) as a game turn ends, not yet paid for."""
        if state.turn < 1:
            return []
        return [(name, hexes) for name, hexes in pools.capture_locations(state.game)
                if name not in state.captured and all(state.controlled.get(h) == "Allied" for h in hexes)]

    def _capture_losses(self, state: FireAndMovementState) -> list[tuple[str, str, str, str]]:
        """11.1.4: one German marker, picked at random, eliminated the game turn after each capture."""
        per = state.game.parameter.get("german_markers_lost_per_capture", 1)
        n = per if isinstance(per, int) else 1
        return [("lose", "German", "", "11.1")] * (n * len(self._newly_captured(state)))

    def verdict(self, state: FireAndMovementState) -> tuple[str, str]:
        """13.0 at the end of the last game turn: the winner and why."""
        game = state.game
        grid = game.grid
        # 13.0 names Treviers, Isigny (both hexes) and Caumont: the places of 11.1.4's area.
        objectives = sorted(grid.label_of(h) for h in game.area_hexes("german_marker_loss"))
        held = set(self.captured(state, objectives))
        missing = [label for label in objectives if label not in held]
        st_lo = [grid.hex_of(label) for label in game.areas_by_id["st_lo"].hexes]
        beside = sorted(u for u, w in state.location.items() if grid.is_label(w)
                        and self._unit(state, u).side == "Allied" and any(grid.hex_of(w).is_adjacent(h) for h in st_lo))
        if not missing and len(beside) >= 2:
            return "Allied", (f"Treviers, Isigny and Caumont captured and in supply, and {len(beside)} units next to "
                              f"St-Lô ({', '.join(beside)})")
        why = []
        if missing:
            why.append(f"not captured in supply: {', '.join(missing)}")
        if len(beside) < 2:
            why.append(f"{len(beside)} Allied unit(s) next to St-Lô, not two")
        return "German", "operational victory: " + "; ".join(why)

    # -- the campaign game (14.0-14.3) ------------------------------------------------------------
    @staticmethod
    def _campaign(state: FireAndMovementState) -> bool:
        """Whether the log plays the campaign game (14.0) rather than the scenario."""
        return state.scenario == CAMPAIGN

    @staticmethod
    def _campaign_number(state: FireAndMovementState, parameter: str, default: int) -> int:
        """One of 14.2's and 14.3's numbers, from the game's parameters."""
        value = state.game.parameter.get(parameter, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def captured(self, state: FireAndMovementState, labels: Iterable[str]) -> list[str]:
        """The hexes among `labels` the Allies have captured: occupied or last occupied by them, and
        able to trace a line of supply (12.0) (13.0, 14.2, 14.3)."""
        grid = state.game.grid
        supplied = self.supplied(state)
        allied_at = {w for u, w in state.location.items() if self._unit(state, u).side == "Allied"}
        return sorted(label for label in set(labels) if (label in allied_at or state.controlled.get(label) == "Allied")
                      and grid.hex_of(label) in supplied)

    @staticmethod
    def cities(state: FireAndMovementState) -> dict[str, tuple[str, ...]]:
        """14.2, 14.3: the map's cities (its places of kind `city`, not towns), each with its hexes."""
        out: dict[str, set[str]] = {}
        for _, place in state.game.places:
            if place.kind == "city":
                out.setdefault(place.name, set()).add(place.hex)
        return {name: tuple(sorted(hexes)) for name, hexes in sorted(out.items())}

    def campaign_verdict(self, state: FireAndMovementState) -> tuple[str, str]:
        """14.3: the Allies win a one-map campaign with any seven city hexes captured, each hex counted;
        otherwise the German player wins an operational victory."""
        hexes = self.captured(state, [label for labels in self.cities(state).values() for label in labels])
        wanted = self._campaign_number(state, "campaign_one_map_city_hexes_to_win", 7)
        listed = ", ".join(hexes) or "none"
        if len(hexes) >= wanted:
            return "Allied", f"{len(hexes)} city hexes captured and in supply ({listed}); {wanted} win"
        return "German", (f"operational victory: {len(hexes)} city hex(es) captured and in supply ({listed}), "
                          f"not {wanted}")

    def campaign_last_turn(self, state: FireAndMovementState) -> tuple[int, str]:
        """14.2 as GT 17 ends: the campaign's last GT and why. GT 17 itself when the Allies have met
        14.3; else GT 17 plus the cities on the map less those captured (a city counts once, and only
        with all its hexes captured), never beyond GT 25."""
        base = self._campaign_number(state, "campaign_base_last_turn", 17)
        most = self._campaign_number(state, "campaign_max_last_turn", 25)
        winner, reason = self.campaign_verdict(state)
        if winner == "Allied":
            return base, f"the Allies met their victory conditions as GT {base} ended: {reason}"
        cities = self.cities(state)
        taken = [name for name, hexes in cities.items() if len(self.captured(state, hexes)) == len(hexes)]
        on_map = self._campaign_number(state, "campaign_cities_us", len(cities))
        extension = max(on_map - len(taken), 0)
        last = min(base + extension, most)
        return last, (f"{on_map} cities on the map less {len(taken)} captured ({', '.join(taken) or 'none'}) extend "
                      f"it by {extension} GT(s) to GT {last}" + (f", never beyond GT {most}" if base + extension > most
                                                                 else ""))

    def _check_campaign_turn(self, state: FireAndMovementState, entry: TurnMarker) -> list[Finding]:
        """14.2: the campaign game runs past GT 17 only as far as its extension, fixed as GT 17 ends."""
        base = self._campaign_number(state, "campaign_base_last_turn", 17)
        if not self._campaign(state) or entry.turn <= base:
            return []
        if state.last_turn is not None:
            last, why = state.last_turn, f"as fixed at the end of GT {base}"
        elif state.turn == base:
            last, why = self.campaign_last_turn(state)
        else:
            return []  # a log begun after GT 17 without its end: the extension is not known
        if entry.turn <= last:
            return []
        return [self._f("error", "14.2", entry, f"the campaign game ends with GT {last} ({why})")]

    def _campaign_finish(self, state: FireAndMovementState) -> list[Finding]:
        """Notes when a campaign log ends after a Game Turn End Phase: no beach landing hex left (the
        German's strategic victory, 14.3); as GT 17 ends, the Allied victory or the extension (14.2);
        as the last GT ends, the verdict (14.3)."""
        if not self._campaign(state) or self.phase_id(state) != "game_turn_end":
            return []
        if not self.landing_hexes(state):
            return [self.table.finding("note", "14.3", 0, 1, f"at the end of GT {state.turn} no beach landing hex is "
                                                            "left to the Allies: the German player wins a strategic "
                                                            "victory")]
        base = self._campaign_number(state, "campaign_base_last_turn", 17)
        if state.turn == base and state.last_turn is None:
            last, why = self.campaign_last_turn(state)
        elif state.turn == state.last_turn:
            last, why = state.turn, ""
        else:
            return []
        if last > state.turn:
            return [self.table.finding("note", "14.2", 0, 1, f"at the end of GT {base} the campaign game goes on: "
                                                            f"{why}")]
        winner, reason = self.campaign_verdict(state)
        return [self.table.finding("note", "14.3", 0, 1, f"at the end of GT {state.turn} the {winner} player wins the "
                                                        f"campaign game: {reason}")]

    def finish(self, state: FireAndMovementState) -> list[Finding]:
        """Notes at the log's end: an automatic victory, the end-game verdict after the last game
        turn (13.0), and effects of the last combat not yet logged."""
        out: list[Finding] = []
        if state.victory is not None:
            winner, section, line, reason = state.victory
            out.append(self.table.finding("note", section, line, 1, f"the {winner} player wins a strategic victory: "
                                                                   f"{reason}"))
        else:
            last = next(sc.last_turn for sc in state.game.manifest.scenario if sc.id == state.scenario)
            if state.turn == last and self.phase_id(state) == "game_turn_end" and state.scenario == "beach_to_bocage":
                winner, reason = self.verdict(state)
                out.append(self.table.finding("note", "13.0", 0, 1, f"at the end of GT {last} the {winner} player "
                                                                   f"wins: {reason}"))
            out += self._campaign_finish(state)
        combat = state.combat
        if combat is None:
            return out
        return out + [self.table.finding("note", section, combat.line, combat.column, f"when the log ends, {message}")
                      for section, message in self._outstanding(state, combat)]

    def describe(self, state: FireAndMovementState) -> dict[str, Any]:
        """Positions, depleted units and the sequence of play as JSON data."""
        by_place: dict[str, list[str]] = {}
        for unit_id, where in sorted(state.location.items()):
            by_place.setdefault(where, []).append(unit_id)
        return {"turn": state.turn, "phase": self.phase_id(state), "player_turn": self.active(state),
                "positions": by_place, "depleted": sorted(state.depleted),
                "beach_landing_hexes": sorted(self.landing_hexes(state)),
                "last_turn": state.last_turn,  # 14.2: the campaign's last GT, once GT 17 has ended
                "victory": None if state.victory is None else {"winner": state.victory[0], "section": state.victory[1],
                                                               "line": state.victory[2], "reason": state.victory[3]}}


FIRE_AND_MOVEMENT = FireAndMovement()
