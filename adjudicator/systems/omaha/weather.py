"""Weather (14.1) and the optional German AA/Flak (15.0): the German die as a game turn begins,
inclement weather halving movement allowances (rounded up) and putting markers aside, flak
halving aircraft markers near it.

Rulings: docs/rules-coverage.md's register, rows Omaha 14.1 and Omaha 11.1.2 / 14.1.
"""

from __future__ import annotations

from adjudicator.systems.fire_and_movement.base import SeriesRules
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, RollOff
from adjudicator.systems.fire_and_movement.state import evolve
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState
from wargame.hexes import Hex
from wargame.models import Marker


class Weather(Area):
    """14.1 and 15.0: the layers the log's headers put on Omaha's registry and hooks (system.py's `LAYERS`)."""

    def allowance(self, state: OmahaState, unit_id: str, weather: bool = True) -> int:
        """The unit's movement allowance, halved rounding up in inclement weather (14.1) unless
        `weather` is False (the MA unhalved) or it is a German reinforcement on its GT of
        arrival (11.1.2)."""
        allowance = SeriesRules.allowance(self.rules, state, unit_id)  # the series' own, which Omaha's hook wraps
        halved = weather and state.weather == "inclement" and not self.rules._full_on_arrival(state, unit_id)
        return -(-allowance // 2) if halved else allowance

    def _weather_due(self, state: OmahaState) -> bool:
        """14.1 (its layer's): weather is rolled from its first game turn on."""
        first = state.game.parameter.get("weather_first_turn", 2)
        return isinstance(first, int) and state.at.turn >= first

    def _weather_owed(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """14.1 (its layer's hook) as the Support Fire Marker Phase ends: the weather rolled, and in inclement
        weather each side's die for the markers put aside."""
        if not self._weather_due(state):
            return []
        if state.weather is None:
            return [self._f("error", "14.1", entry, f"GT {state.at.turn}'s weather is rolled (the German player's die) "
                                                    "as the game turn begins")]
        if state.weather == "inclement":
            missing = [s for s in state.game.manifest.sides if s not in state.log.weather_rolls]
            if missing:
                return [self._f("error", "14.1", entry, f"in inclement weather each side rolls a die for the "
                                                        f"markers put aside; {' and '.join(missing)} did not")]
        return []

    def _check_weather_roll(self, state: OmahaState, entry: RollOff) -> list[Finding] | None:
        """14.1: the German weather die as a game turn begins and, in inclement weather, one die each
        for the markers put aside (None: not a weather roll)."""
        if not self._weather_due(state) or self.rules.phase_id(state) not in (None, "support_fire_marker"):
            return None
        rolls = entry.rolls
        if state.weather is None:
            if set(rolls) != {"German"}:
                return [self._f("error", "14.1", entry, "the weather die is the German player's, rolled first "
                                                        "as the game turn begins")]
            return []
        if state.weather == "inclement":
            again = sorted(set(rolls) & set(state.log.weather_rolls))
            if again:
                return [self._f("error", "14.1", entry, f"{', '.join(again)} has already rolled for the markers "
                                                        "put aside this game turn")]
            return []
        return None

    def _weather_rolled(self, state: OmahaState, entry: RollOff) -> OmahaState:
        """14.1 (its layer's): the weather, then the markers each side puts aside in inclement weather."""
        if state.weather is None and "German" in entry.rolls:
            inclement = entry.rolls["German"] == state.game.parameter.get("weather_inclement_roll", 6)
            return evolve(state, weather="inclement" if inclement else "fair")
        if state.weather == "inclement":
            asides = list(state.owed)
            for side, die in sorted(entry.rolls.items()):
                if side in state.log.weather_rolls:
                    continue
                left = sum(self.rules.pool(state, side).values())
                asides += [("aside", side, "", "14.1")] * min(die, left)
            rolled = (*state.log.weather_rolls, *(s for s in entry.rolls if s not in state.log.weather_rolls))
            return evolve(state, owed=tuple(asides), log=evolve(state.log, weather_rolls=rolled))
        return state

    def support_value(self, state: OmahaState, marker: Marker, applied: int, target: Hex) -> int:
        """A marker's value with the optional rules in force (15.0's layer halves aircraft near flak)."""
        return self.rules.hooks_of(state).support_value(state, marker, applied, target)

    def _flak_value(self, state: OmahaState, marker: Marker, applied: int, target: Hex) -> int:
        """15.0 (its layer's hook): aircraft markers in or next to a German AA/Flak unit's hex count half, rounded
        up."""
        if marker.icon == "aircraft" and self._flak_near(state, target):
            return -(-applied // 2)
        return applied

    def allowance_rule(self, state: OmahaState, unit_id: str) -> str | None:
        """14.1 while inclement weather halves the unit's allowance."""
        return "14.1" if self.allowance(state, unit_id) < self.allowance(state, unit_id, weather=False) else None

    def support_value_unmet(self, state: OmahaState, marker: Marker, applied: int) -> int:
        """15.0's halving of an aircraft marker made with no German AA/Flak unit near (a misreading)."""
        return -(-applied // 2) if marker.icon == "aircraft" else applied

    def support_value_rule(self) -> str | None:
        """15.0 is the clause that changes marker values (its flak halving)."""
        return "15.0"

    def _flak_near(self, state: OmahaState, target: Hex) -> bool:
        """15.0: a German AA/Flak unit in or next to the combat's hex."""
        grid = state.game.grid
        return any(self.rules._unit(state, u).type == "antiaircraft" and self.rules._unit(state, u).side == "German"
                   and grid.is_label(w) and grid.hex_of(w).distance(target) <= 1 for u, w in state.location.items())
