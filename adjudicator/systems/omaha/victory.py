"""Victory (13.0): the German's automatic victory when no beach landing hex is left at the end of a
game turn, and the verdict at the end of the last one (Treviers, Isigny and Caumont captured and in
supply, and two Allied units next to St-Lô)."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.systems.omaha.base import OmahaRules
from adjudicator.systems.omaha.state import OmahaState


class Victory(OmahaRules):
    """13.0 (and what 14.2, 14.3 count with it: captured hexes)."""

    def verdict(self, state: OmahaState) -> tuple[str, str]:
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

    def captured(self, state: OmahaState, labels: Iterable[str]) -> list[str]:
        """The hexes among `labels` the Allies have captured: occupied or last occupied by them, and
        able to trace a line of supply (12.0) (13.0, 14.2, 14.3)."""
        grid = state.game.grid
        allied_at = {w for u, w in state.location.items() if self._unit(state, u).side == "Allied"}
        held = sorted(label for label in set(labels) if label in allied_at or state.controlled.get(label) == "Allied")
        supplied = self.supplied(state, frozenset(grid.hex_of(label) for label in held))
        return [label for label in held if grid.hex_of(label) in supplied]
