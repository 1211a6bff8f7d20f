"""What Omaha's exclusive rules share: the scenario or the campaign game (14.0), the beach and its
landing hexes (11.2.1), the assault's holding boxes, the Rangers (11.2.3). Each rule area of the
folio is a component in its own module, given the system (`system.py`'s `Omaha`, on `OmahaRules`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from adjudicator.findings import Finding, Severity
from adjudicator.notation.entries import Attack, Entry, Loss, TurnMarker
from adjudicator.registry import Handler
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement.system import FireAndMovement
from adjudicator.systems.omaha.optional import OptionalHooks
from adjudicator.systems.omaha.state import OmahaState
from wargame.game import Game
from wargame.hexes import Hex
from wargame.models import Arrival



BEACH_STACK = 3
"""11.2.4: beach landing hexes take up to three units."""
POINTE_DU_HOC = "2417"
"""11.0, 11.2.3: no German set-up there; the Ranger battalion lands there."""
CAMPAIGN = "campaign"
"""14.0: the campaign game's scenario id in the game's data (`[Scenario "campaign"]`)."""


class Scenario:
    """What a scenario's data fixes for the whole game (derived once per game and scenario)."""

    def __init__(self, game: Game, scenario: str) -> None:
        if scenario == CAMPAIGN:
            # 14.0 b: every Allied beach area of the map (another folio's beach, when its data is added).
            self.beach = frozenset(label for area in game.areas.area if area.kind == "beach" and area.side == "Allied"
                                   for label in area.hexes)
        else:
            area = game.areas_by_id.get("omaha_beach")
            self.beach = frozenset(area.hexes) if area is not None else frozenset()
        self.assault_boxes = {b.id: frozenset(game.areas_by_id[b.area].hexes) if b.area in game.areas_by_id
                              else self.beach for b in game.manifest.box if b.side == "Allied" and b.kind == "holding"
                              and (b.area is not None or b.id == "allied_assault")}
        self.setup_box = {p.piece: p.location for _, p in reversed(game.setup) if p.scenario == scenario}
        units = game.units_by_id
        self.ranger = next((p.piece for _, p in game.setup if p.scenario == scenario
                            and p.location in self.assault_boxes and p.piece in units
                            and units[p.piece].type == "ranger"), None)
        self.assault_setup = tuple((p.piece, p.location) for _, p in game.setup if p.scenario == scenario
                                   and p.location in self.assault_boxes)
        """The set-up's rows in the assault's holding boxes, (unit, box) in the data's order (11.2.1)."""
        self.reinforcements = tuple(row for _, row in game.reinforcements if row.scenario == scenario)
        """The scenario's reinforcement schedule, in the data's order (11.1.2, 11.2.4)."""
        self.late_landings: dict[str, Arrival] = {}
        """11.2.1: the GT 2 arrival of each assault unit that could not land, made when first due."""


SCENARIOS: PerGame[dict[str, Scenario]] = PerGame(lambda game: {})
"""Each game's scenarios as far as the rules need them, built on first use."""


def scenario_of(state: OmahaState) -> Scenario:
    """The derived facts of a state's scenario."""
    known = SCENARIOS(state.game)
    found = known.get(state.scenario)
    if found is None:
        found = known[state.scenario] = Scenario(state.game, state.scenario)
    return found


class OmahaRules(FireAndMovement[OmahaState]):
    """The series with the helpers every Omaha rule area asks of the system (system.py's `Omaha` adds the rest)."""

    series: Mapping[str, Handler[OmahaState, Entry]] = {}
    """The series' handlers by name, which Omaha's registry replaces or extends (system.py)."""

    def series_apply(self, name: str, state: OmahaState, entry: Entry) -> OmahaState:
        """What the series' handler `name` does with an entry (the part of it an Omaha handler keeps)."""
        apply = self.series[name].apply
        assert apply is not None, name
        return apply(state, entry)

    def stack_limit(self, state: OmahaState, label: str) -> int:
        """5.3: one unit a hex; 11.2.4: three in an Omaha beach landing hex."""
        return BEACH_STACK if label in self.landing_hexes(state) else 1

    @staticmethod
    def _campaign(state: OmahaState) -> bool:
        """Whether the log plays the campaign game (14.0) rather than the scenario."""
        return state.scenario == CAMPAIGN

    @staticmethod
    def _campaign_number(state: OmahaState, parameter: str, default: int) -> int:
        """One of 14.2's and 14.3's numbers, from the game's parameters."""
        value = state.game.parameter.get(parameter, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def _beach(self, state: OmahaState) -> frozenset[str]:
        """The Omaha Beach hexes (11.0, 11.2.1); in the campaign game every Allied beach area of the
        map (14.0 b)."""
        return scenario_of(state).beach

    def _assault_boxes(self, state: OmahaState) -> dict[str, frozenset[str]]:
        """11.2.1, 14.0 b: the Allied holding boxes of the units that land before GT 1, each with the
        hexes of its designated beach (the box's `area`)."""
        return scenario_of(state).assault_boxes

    def _setup_box(self, state: OmahaState, unit_id: str) -> str | None:
        """Where the scenario's data starts a unit (11.0: `german_setup`, 11.2.1: `allied_assault`)."""
        return scenario_of(state).setup_box.get(unit_id)

    def _ranger(self, state: OmahaState) -> str | None:
        """The Ranger battalion that lands at Pointe du Hoc (11.2.3)."""
        return scenario_of(state).ranger

    def landing_hexes(self, state: OmahaState) -> frozenset[str]:
        """The beach landing hexes with a beachhead marker now (11.2.1, 11.2.4, 12.0, 13.0)."""
        return self._beach(state) if state.beachheads is None else state.beachheads

    def _landing_counts(self, state: OmahaState) -> dict[str, int]:
        """11.2.1: the beach hexes holding Allied units of the landing, with how many; the Rangers, who
        may step onto a beach hex after the Pointe du Hoc roll (11.2.3), are not of the landing."""
        ranger = self._ranger(state)
        return dict(Counter(w for u, w in state.location.items() if w in self._beach(state) and u != ranger
                            and self._unit(state, u).side == "Allied"))

    def _landed_hexes(self, state: OmahaState) -> frozenset[str]:
        """11.2.1: the beach hexes the landing put Allied units on (step 3 keeps their markers)."""
        return frozenset(self._landing_counts(state))

    def _out_of_play(self, state: OmahaState, label: str) -> bool:
        """10.1: a hex of the map west of the scenario boundary."""
        return label in state.beyond.labels

    def _allied_turn_ending(self, state: OmahaState) -> bool:
        """Whether the phase under way is the last of the Allied player turn (12.0)."""
        return state.at.step is not None and self.active(state) == "Allied" and self.phase_id(state) == "mobile_combat"

    def _is_beach_assault(self, state: OmahaState, entry: Attack) -> bool:
        """11.2.3: before GT 1, an Allied attack on a beach hex its landed units hold (the Rangers, who
        may step onto a beach hex after the Pointe du Hoc roll, are not of the landing)."""
        ranger = self._ranger(state)
        return state.at.turn == 0 and entry.hex in self._beach(state) and \
            any(state.location.get(u) == entry.hex and u != ranger for u in entry.attackers)

    # -- what the areas ask of each other (answered by system.py's `Omaha`, from the area named) -----------------
    def hooks_of(self, state: OmahaState) -> OptionalHooks:
        raise NotImplementedError  # the optional rules' layers in force

    def _full_on_arrival(self, state: OmahaState, unit_id: str) -> bool:
        raise NotImplementedError  # arrivals.py

    def supplied(self, state: OmahaState, targets: frozenset[Hex] | None = None) -> frozenset[Hex]:
        raise NotImplementedError  # supply.py

    def captured(self, state: OmahaState, labels: Iterable[str]) -> list[str]:
        raise NotImplementedError  # victory.py

    def verdict(self, state: OmahaState) -> tuple[str, str]:
        raise NotImplementedError  # victory.py

    def final_verdict(self, state: OmahaState) -> tuple[str, str] | None:
        raise NotImplementedError  # campaign.py

    def _check_pdh_loss(self, state: OmahaState, entry: Loss) -> list[Finding]:
        raise NotImplementedError  # pointe_du_hoc.py

    def _check_pdh_done(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        raise NotImplementedError  # pointe_du_hoc.py


class Area:
    """One rule area of the folio, composed into the system (house style 18): it asks the system for the series'
    helpers and hooks and for the other areas (`rules.supply`, `rules.pdh`, ...)."""

    def __init__(self, rules: OmahaRules) -> None:
        self.rules = rules
        """The system this area belongs to."""

    def _f(self, severity: Severity, section: str, entry: Entry, message: str) -> Finding:
        """A finding of this folio's table (or the series')."""
        return self.rules._f(severity, section, entry, message)
