"""Victory (13.0): the German's automatic victory when no beach landing hex is left at the end of a
game turn, and the verdict at the end of the last one (Treviers, Isigny and Caumont captured and in
supply, and two Allied units next to St-Lô)."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.findings import Finding
from adjudicator.notation.entries import Declare
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState
from wargame.errors import did_you_mean

STRATEGIC, OPERATIONAL = "strategic", "operational"
"""The levels of victory the rules name: the German's at once when no beach landing hex is left (13.0, 14.3),
and the German's when the Allies fall short at the end (13.0, 14.3); the Allied victory has none."""


class Victory(Area):
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
                        and self.rules._unit(state, u).side == "Allied" and any(grid.hex_of(w).is_adjacent(h) for h in st_lo))
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
        allied_at = {w for u, w in state.location.items() if self.rules._unit(state, u).side == "Allied"}
        held = sorted(label for label in set(labels) if label in allied_at or state.controlled.get(label) == "Allied")
        supplied = self.rules.supplied(state, frozenset(grid.hex_of(label) for label in held))
        return [label for label in held if grid.hex_of(label) in supplied]

    def _check_claim(self, state: OmahaState, entry: Declare) -> list[Finding]:
        """`Side: declare victory [LEVEL]` against the referee's verdict: the German's strategic victory once no
        beach landing hex is left as a game turn ends (13.0, 14.3), else the verdict at the end of the last game
        turn (13.0, or the campaign's, 14.2 and 14.3), in its Game Turn End Phase or after it."""
        if entry.what != "victory":
            return [self._f("error", "log", entry, f"Omaha knows one declaration, 'victory', not {entry.what!r}"
                                                   f"{did_you_mean(entry.what, ['victory'])}")]
        if entry.points:
            return [self._f("error", "log", entry, "Omaha counts no victory points (13.0, 14.3): write 'declare "
                                                   "victory' with the level, if any")]
        section = "14.3" if self.rules._campaign(state) else "13.0"
        side = entry.side or "?"
        at_end = self.rules.phase_id(state) == "game_turn_end"
        final = self.rules.final_verdict(state) if at_end else None
        level: str | None
        if state.victory is not None:
            winner, section, level, why = state.victory.winner, state.victory.section, STRATEGIC, state.victory.reason
        elif at_end and state.at.turn and not self.rules.landing_hexes(state):
            winner, level, why = "German", STRATEGIC, f"no beach landing hex is left to the Allies at GT {state.at.turn}'s end"
        elif final is not None:
            winner, level, why = final[0], OPERATIONAL if final[0] == "German" else None, final[1]
        else:
            return [self._f("error", section, entry, f"{self.rules._where(state)}: {side} claims victory, but the game is not "
                                                     "over: a beach landing hex is left to the Allies, and this is not "
                                                     "the end of the last game turn")]
        wrong = [f"the {winner} player wins"] if winner != side else []
        if entry.level is not None and entry.level != level:
            wrong.append(f"the level is {level}, not {entry.level}" if level else
                         f"{section} names no level for the {winner} victory, not {entry.level}")
        if not wrong:
            return []
        return [self._f("error", section, entry, f"{side} claims victory, but {'; '.join(wrong)}: {why}")]
