"""Omaha's support fire cups (11.1.4, 11.2.6, 11.2.7 with 7.1, 7.2): the German cup with its Achtung
Minen, the US cups, naval gunfire placed without drawing on GT 1's beach assaults, markers put aside
for a game turn or eliminated for good when the rules call for it (11.1.4 captures, 11.2.3, 14.1),
and no aircraft in inclement weather (14.1)."""

from __future__ import annotations

import weakref
from collections import Counter

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Bombard, Entry, SupportMarkers
from adjudicator.systems.base import PerGame
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement.state import evolve
from adjudicator.systems.omaha import charts
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState
from wargame.game import Game
from wargame.models import Marker


ALLOTMENTS: PerGame[dict[tuple[str, pools.Tally, str], list[Marker]]] = PerGame(lambda game: {})
"""Each side's allotment (7.1) by the markers lost for good so far and the scenario, per game."""


class Cups(Area):
    """11.1.4, 11.2.6, 11.2.7, and 14.1's effect on the cups."""


    _pool_memo: tuple[weakref.ref[Game], tuple[object, ...], Counter[str]] | None = None
    """The last pool worked out: its game, what it was worked out from, and the markers (a combat or a draw
    asks once for each marker it names)."""

    def pool(self, state: OmahaState, side: str) -> Counter[str]:
        """The markers still in a side's cups this game turn (7.1, 11.1.4, 11.2.6, 14.1)."""
        memo = self._pool_memo
        key = (side, state.scenario, state.lost_markers, state.withheld, state.markers_used, state.weather)
        if memo is not None and memo[0]() is state.game and len(memo[1]) == len(key) and \
                all(a is b or a == b for a, b in zip(memo[1], key)):
            return memo[2]
        left = self._pool(state, side)
        self._pool_memo = (weakref.ref(state.game), key, left)
        return left

    def _pool(self, state: OmahaState, side: str) -> Counter[str]:
        """`pool`, worked out."""
        capped = not self.rules._campaign(state)
        allotments = ALLOTMENTS(state.game)
        key = (side, state.lost_markers, state.scenario)
        allotted = allotments.get(key)
        if allotted is None:
            if len(allotments) >= 64:
                allotments.clear()  # bounded: the allotment changes only when a marker is lost for good
            allotted = allotments[key] = pools.allotment(state.game, side, state.lost_markers, state.scenario, capped)
        return pools.in_cups(state.game, side, state.lost_markers, state.withheld, state.markers_used,
                             state.weather == "inclement", scenario=state.scenario, capped=capped, allotted=allotted)

    def pool_gone(self, state: OmahaState, marker_id: str) -> list[str]:
        return [f"{n} {what}" for what, n in (("eliminated", state.lost_markers.count(marker_id)),
                                             ("put aside", state.withheld.count(marker_id)),
                                             ("drawn or placed", state.markers_used.count(marker_id))) if n]

    def pool_check(self, state: OmahaState, entry: Entry, marker: Marker) -> list[Finding]:
        """14.1: no aircraft in inclement weather."""
        if state.weather == "inclement" and marker.icon == "aircraft":
            return [self._f("error", "14.1", entry, f"{marker.id} is an aircraft marker; in inclement weather the "
                                                    "Allies use no aircraft this game turn")]
        return []

    def marker_use(self, state: OmahaState, entry: Attack | Bombard, marker: Marker) -> list[Finding]:
        """11.2.7: naval gunfire supports only the beach assaults of GT 1."""
        if marker.kind == "naval_gunfire" and not (isinstance(entry, Attack) and self.rules._is_beach_assault(state, entry)):
            return [self._f("error", "11.2.7", entry, f"{marker.id} supports only the beach assaults of GT 1 "
                                                    "(11.2.7)")]
        return []

    def marker_apart(self, state: OmahaState, entry: Attack | Bombard, marker: Marker, owner: str,
                     kept: Counter[str], taken: Counter[str]) -> list[Finding] | None:
        """11.1.4: Achtung Minen drawn earlier this game turn and kept; 11.2.7: naval gunfire, never in
        a cup, placed whatever the side drew."""
        marker_id = marker.id
        if marker.kind == "mines" and kept[marker_id] < state.mines_aside.count(marker_id):
            kept[marker_id] += 1
            return []
        if marker.kind == "naval_gunfire":
            taken[marker_id] += 1
            if state.markers_used.count(marker_id) + taken[marker_id] > marker.count:
                return [self._f("error", "7.2", entry, f"{marker_id} has been used "
                                                       f"{state.markers_used.count(marker_id)} time(s) this game "
                                                       f"turn and there are {marker.count}; a marker serves once "
                                                       "a game turn")]
            return []
        return None

    def may_keep(self, marker: Marker) -> bool:
        """11.1.4: a drawn Achtung Minen may be kept for a later combat of the game turn."""
        return marker.kind == "mines"

    def may_draw_now(self, state: OmahaState) -> bool:
        """11.2.3: markers are drawn for the beach assaults before GT 1."""
        return state.at.turn == 0

    def not_drawable(self, state: OmahaState, entry: SupportMarkers, marker_id: str) -> list[Finding]:
        """11.2.7: naval gunfire is never in a cup."""
        if state.game.markers_by_id[marker_id].kind == "naval_gunfire":
            return [self._f("error", "11.2.7", entry, f"{marker_id} is a naval gunfire marker: never in a cup, "
                                                    "placed without drawing and removed after GT 1 (11.2.7)")]
        return []

    def range_rule(self, marker: Marker) -> str:
        """Omaha's own ranges: the German markers' two hexes (11.1.4), the Allied non-aircraft markers' two (11.2.6)."""
        return "11.1.4" if marker.side == "German" else "11.2.6"

    def bombard_marker(self, state: OmahaState, entry: Bombard, marker: Marker) -> list[Finding] | None:
        """11.1.4: the Achtung Minen support ground combat only."""
        if marker.kind == "mines":
            return [self._f("error", "11.1.4", entry, f"{marker.id} supports ground combat only, never a "
                                                    "bombardment (11.1.4)")]
        return None

    def _check_cups(self, state: OmahaState, entry: SupportMarkers) -> list[Finding]:
        """`draw`, `aside`, `lose`: markers drawn from a side's own cups while any are left (7.2,
        11.1.4, 11.2.6), put aside or eliminated only when the rules call for it (11.1.4, 11.2.3, 14.1)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        out, named = self.rules._named_markers(state, entry)
        if entry.how == "draw":
            return out + self.rules._check_draw(state, entry, side, named)
        owed = [o for o in state.owed if o[0] == entry.how and o[1] == side]
        mines = Counter(m for who, m in state.log.drawn if who == side and markers[m].kind == "mines")
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
                section = "11.1.4" if entry.how == "lose" else ("14.1" if state.weather == "inclement" else "11.2.3")
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
                    out += self.rules._in_pool(state, entry, side, marker_id, seen[marker_id])
        return out

    def _owed(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """As the Support Fire Marker Phase ends: the weather rolled (14.1) and every marker the rules
        removed written (11.1.4, 11.2.3, 14.1)."""
        out = self.rules.hooks_of(state).weather_owed(state, entry)
        owing = Counter((how, side, marker, section) for how, side, marker, section in state.owed)
        for (how, side, marker, section), n in sorted(owing.items()):
            what = marker or "marker(s) picked at random"
            verb = "put aside for this game turn" if how == "aside" else "eliminated"
            out.append(self._f("error", section, entry, f"{side} owes {n} {what} {verb} (write '{side}: {how} "
                                                        "MARKER'), due by the end of the Support Fire Marker Phase"))
        return out

    def _newly_captured(self, state: OmahaState) -> list[tuple[str, frozenset[str]]]:
        """11.1.4's places the Allies hold (occupy, or last occupied) as a game turn ends, not yet paid for."""
        if state.at.turn < 1:
            return []
        return [(name, hexes) for name, hexes in charts.capture_locations(state.game)
                if name not in state.captured and all(state.controlled.get(h) == "Allied" for h in hexes)]

    def _capture_losses(self, state: OmahaState) -> list[tuple[str, str, str, str]]:
        """11.1.4: one German marker, picked at random, eliminated the game turn after each capture."""
        per = state.game.parameter.get("german_markers_lost_per_capture", 1)
        n = per if isinstance(per, int) else 1
        return [("lose", "German", "", "11.1.4")] * (n * len(self._newly_captured(state)))

    def _placed(self, state: OmahaState, entry: Attack | Bombard) -> OmahaState:
        """The pools after markers are placed on a combat: those drawn for it leave the drawn list,
        kept Achtung Minen leave the kept list, the others are taken from the cups now (7.2, 11.1.4);
        drawn Achtung Minen not placed are kept for later combats."""
        markers = state.game.markers_by_id
        # Only Achtung Minen are ever set aside (11.1.4), so the kept list is theirs.
        pending, kept, used = self.rules._placement(state, entry, state.mines_aside)
        kept = kept.plus(m for _, m in pending if markers[m].kind == "mines")
        return evolve(state, log=evolve(state.log, drawn=()), mines_aside=kept, markers_used=used)

    def _cups_marked(self, state: OmahaState, entry: SupportMarkers) -> OmahaState:
        """The pools after `draw`, `aside` or `lose` (11.1.4, 11.2.3, 14.1; a draw as 7.2)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        named = [m for m in entry.markers if m in markers and markers[m].side == side
                 and markers[m].kind in pools.CUP_KINDS]
        if entry.how == "draw":
            return self.rules.series_apply("markers", state, entry)
        owed = list(state.owed)
        drawn = list(state.log.drawn)
        kept, withheld, lost = state.mines_aside, state.withheld, state.lost_markers
        for marker_id in named:
            if entry.how == "aside" and (side, marker_id) in drawn and markers[marker_id].kind == "mines":
                drawn.remove((side, marker_id))
                kept = kept.plus((marker_id,))
                continue
            match = next((o for o in owed if o[0] == entry.how and o[1] == side and o[2] in ("", marker_id)), None)
            if match is None:
                # Another marker than the one owed is its own line's error (11.2.3): the players meant this entry
                # for the marker owed, which is then not owed again (one breach, one error).
                match = next((o for o in owed if o[0] == entry.how and o[1] == side), None)
            if match is not None:
                owed.remove(match)
            if entry.how == "aside":
                withheld = withheld.plus((marker_id,))
            else:
                lost = lost.plus((marker_id,))
        return evolve(state, owed=tuple(owed), log=evolve(state.log, drawn=tuple(drawn)), mines_aside=kept,
                      withheld=withheld, lost_markers=lost)
