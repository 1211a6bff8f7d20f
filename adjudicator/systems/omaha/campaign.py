"""The campaign game (14.0, 14.2, 14.3) with this folio's forces: its length, fixed as GT 17 ends
(GT 17 plus the cities not captured, never beyond GT 25), and its victory (seven city hexes).

Rulings: docs/rules-coverage.md's register, rows Omaha 14.0-14.3.
"""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import TurnMarker
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState


class Campaign(Area):
    """14.0, 14.2, 14.3."""

    @staticmethod
    def cities(state: OmahaState) -> dict[str, tuple[str, ...]]:
        """14.2, 14.3: the map's cities (its places of kind `city`, not towns), each with its hexes."""
        out: dict[str, set[str]] = {}
        for _, place in state.game.places:
            if place.kind == "city":
                out.setdefault(place.name, set()).add(place.hex)
        return {name: tuple(sorted(hexes)) for name, hexes in sorted(out.items())}

    def campaign_verdict(self, state: OmahaState) -> tuple[str, str]:
        """14.3: the Allies win a one-map campaign with any seven city hexes captured, each hex counted;
        otherwise the German player wins an operational victory."""
        hexes = self.rules.captured(state, [label for labels in self.cities(state).values() for label in labels])
        wanted = self.rules._campaign_number(state, "campaign_one_map_city_hexes_to_win", 7)
        listed = ", ".join(hexes) or "none"
        if len(hexes) >= wanted:
            return "Allied", f"{len(hexes)} city hexes captured and in supply ({listed}); {wanted} win"
        return "German", (f"operational victory: {len(hexes)} city hex(es) captured and in supply ({listed}), "
                          f"not {wanted}")

    def campaign_last_turn(self, state: OmahaState) -> tuple[int, str]:
        """14.2 as GT 17 ends: the campaign's last GT and why. GT 17 itself when the Allies have met
        14.3; else GT 17 plus the cities on the map less those captured (a city counts once, and only
        with all its hexes captured), never beyond GT 25."""
        base = self.rules._campaign_number(state, "campaign_base_last_turn", 17)
        most = self.rules._campaign_number(state, "campaign_max_last_turn", 25)
        winner, reason = self.campaign_verdict(state)
        if winner == "Allied":
            return base, f"the Allies met their victory conditions as GT {base} ended: {reason}"
        cities = self.cities(state)
        taken = [name for name, hexes in cities.items() if len(self.rules.captured(state, hexes)) == len(hexes)]
        on_map = self.rules._campaign_number(state, "campaign_cities_us", len(cities))
        extension = max(on_map - len(taken), 0)
        last = min(base + extension, most)
        return last, (f"{on_map} cities on the map less {len(taken)} captured ({', '.join(taken) or 'none'}) extend "
                      f"it by {extension} GT(s) to GT {last}" + (f", never beyond GT {most}" if base + extension > most
                                                                 else ""))

    def _check_campaign_turn(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """14.2: the campaign game runs past GT 17 only as far as its extension, fixed as GT 17 ends."""
        base = self.rules._campaign_number(state, "campaign_base_last_turn", 17)
        if not self.rules._campaign(state) or entry.turn <= base:
            return []
        if state.last_turn is not None:
            last, why = state.last_turn, f"as fixed at the end of GT {base}"
        elif state.at.turn == base:
            last, why = self.campaign_last_turn(state)
        else:
            return []  # a log begun after GT 17 without its end: the extension is not known
        if entry.turn <= last:
            return []
        return [self._f("error", "14.2", entry, f"the campaign game ends with GT {last} ({why})")]

    def _campaign_finish(self, state: OmahaState) -> list[Finding]:
        """Notes when a campaign log ends after a Game Turn End Phase: no beach landing hex left (the
        German's strategic victory, 14.3); as GT 17 ends, the Allied victory or the extension (14.2);
        as the last GT ends, the verdict (14.3)."""
        if not self.rules._campaign(state) or self.rules.phase_id(state) != "game_turn_end":
            return []
        if not self.rules.landing_hexes(state):
            return [self.rules.table.finding("note", "14.3", 0, 1, f"at the end of GT {state.at.turn} no beach landing hex is "
                                                            "left to the Allies: the German player wins a strategic "
                                                            "victory")]
        base = self.rules._campaign_number(state, "campaign_base_last_turn", 17)
        if state.at.turn == base and state.last_turn is None:
            last, why = self.campaign_last_turn(state)
        elif state.at.turn == state.last_turn:
            last, why = state.at.turn, ""
        else:
            return []
        if last > state.at.turn:
            return [self.rules.table.finding("note", "14.2", 0, 1, f"at the end of GT {base} the campaign game goes on: "
                                                            f"{why}")]
        winner, reason = self.campaign_verdict(state)
        return [self.rules.table.finding("note", "14.3", 0, 1, f"at the end of GT {state.at.turn} the {winner} player wins the "
                                                        f"campaign game: {reason}")]

    def final_verdict(self, state: OmahaState) -> tuple[str, str] | None:
        """The winner and why at the end of the last game turn (13.0; the campaign's, 14.2 and 14.3), None before."""
        if not self.rules._campaign(state):
            scenario = next(sc for sc in state.game.manifest.scenario if sc.id == state.scenario)
            return self.rules.verdict(state) if state.at.turn == scenario.last_turn else None
        base = self.rules._campaign_number(state, "campaign_base_last_turn", 17)
        last: int | None = state.last_turn if state.last_turn is not None else \
            self.campaign_last_turn(state)[0] if state.at.turn == base else None
        return self.campaign_verdict(state) if last == state.at.turn else None
