"""Support fire markers (7.1, 7.2, with 8.2.1 b's limits): each side's pool this game turn, the
markers drawn at random for a combat or a bombardment, and the values they add."""

from __future__ import annotations

from collections import Counter

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Bombard, Entry, SupportMarkers
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement.base import COMBAT_PHASES, SeriesArea
from adjudicator.systems.fire_and_movement.combat import Modifier, Support
from adjudicator.systems.fire_and_movement.state import S, evolve
from wargame.errors import did_you_mean
from wargame.hexes import Hex


class SupportFire(SeriesArea[S]):
    """7.1, 7.2: support fire markers drawn from the pools and placed on combats."""

    @staticmethod
    def _not_a_marker(state: S, marker_id: str, known: list[str]) -> str:
        """The message for a word where a support fire marker belongs that names none: a unit's id said to be one
        (a unit adds its strength by attacking or defending, never as support, 7.2), else the closest markers."""
        if marker_id in state.game.units_by_id:
            return f"{marker_id!r} is a unit, not a support fire marker; name a marker by its id here (7.2)"
        return f"{marker_id!r} is not a support fire marker{did_you_mean(marker_id, known)}"

    def _supports(self, state: S, entry: Attack | Bombard, target: Hex,
                  left_out: Modifier | None = None) -> list[Support]:
        """The markers an attack names, with the values they count for (7.2, 8.2.3, a folio's rules);
        `left_out`: without the fortification's halving or the folio's change to marker values, or with that
        change made whatever its condition ("marker change")."""
        game = state.game
        markers = game.markers_by_id
        fortified = "fortification" in game.hex_terrain.get(target, ()) and left_out != "fortification"
        attacker = entry.side or (self.rules._unit(state, entry.attackers[0]).side if isinstance(entry, Attack) else "")
        out = []
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in self.rules.support_kinds or marker.value is None:
                continue
            side = marker.side or attacker
            # 8.2.3: an attacker's marker on a fortification counts half, rounded down.
            applied = marker.value // 2 if fortified and side == attacker else marker.value
            value = applied if left_out == "marker values" else self.rules.support_value_unmet(state, marker, applied) \
                if left_out == "marker change" else self.rules.support_value(state, marker, applied, target)
            out.append(Support(marker_id, side, marker.value, value))
        return out

    def _check_support(self, state: S, entry: Attack | Bombard, side: str) -> list[Finding]:
        """7.1, 7.2, 8.2.1 b: known markers still in their side's pool (or drawn for this combat), at
        most two a side, placed attacker first and alternately."""
        markers = state.game.markers_by_id
        out = []
        per_side: Counter[str] = Counter()
        pending = Counter(state.log.drawn)
        taken: Counter[str] = Counter()
        kept: Counter[str] = Counter()
        known_sides: list[str] = []
        mismatched: set[str] = set()
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in self.rules.support_kinds:
                known = sorted(m.id for m in markers.values() if m.kind in self.rules.support_kinds)
                out.append(self._f("error", "7.2", entry, self._not_a_marker(state, marker_id, known)))
                continue
            owner = marker.side or side
            known_sides.append(owner)
            out += self.rules.marker_use(state, entry, marker)
            per_side[owner] += 1
            if pending[(owner, marker_id)] > 0:
                pending[(owner, marker_id)] -= 1  # drawn for this combat (7.2)
                continue
            apart = self.rules.marker_apart(state, entry, marker, owner, kept, taken)
            if apart is not None:
                out += apart
                continue
            if any(who == owner for who, _ in state.log.drawn):
                mismatched.add(owner)
                out.append(self._f("error", "7.2", entry, f"{owner} drew {self._drawn_text(state, owner)} for this "
                                                          f"combat, not {marker_id}: markers are drawn at random and "
                                                          "placed as drawn"))
                continue
            taken[marker_id] += 1
            out += self._in_pool(state, entry, owner, marker_id, taken[marker_id])
        unplaced = [m for (who, m), n in pending.items() for _ in range(n) if not self.rules.may_keep(markers[m])
                    and who not in mismatched]
        if unplaced:
            out.append(self._f("error", "7.2", entry, f"{', '.join(sorted(unplaced))} drawn for this combat and not "
                                                      f"placed on it; a drawn marker is placed as drawn{self.rules.keep_note}"))
        for who, n in sorted(per_side.items()):
            # A bombardment's markers are 8.1's count of the hex's (bombardment.py), never 8.2.1 b's of a combat.
            if n > 2 and isinstance(entry, Attack):
                drawn = self.overdrawn(state, who)
                out.append(self._f("note" if drawn else "error", "8.2.1b", entry,
                                   f"{who} places {n} support markers on one combat; at most two (8.2.1 b)"
                                   + (" (placed as drawn: one error, on the draw)" if drawn else "")))
        # Three markers of a side cannot be placed in turn either: that one breach is the count's error.
        if isinstance(entry, Attack) and self.rules.is_special_attack(state, entry) is None and \
                all(n <= 2 for n in per_side.values()) and not pools.placement_order_ok(known_sides, side):
            out.append(self._f("error", "8.2.1b", entry, "support markers are placed attacker first, then defender, "
                                                      "attacker, defender, one at a time (8.2.1 b); the list "
                                                      f"{' '.join(entry.support)} cannot be placed in that order"))
        return out

    def overdrawn(self, state: S, side: str) -> bool:
        """Whether a side has drawn more than two markers for the next combat or bombardment (the draw's one error,
        8.1 or 8.2.1 b): placing them as drawn is that breach, not another."""
        markers = state.game.markers_by_id
        return sum(1 for who, m in state.log.drawn if who == side and not self.rules.may_keep(markers[m])) > 2

    def _in_pool(self, state: S, entry: Entry, side: str, marker_id: str, nth: int) -> list[Finding]:
        """Whether the nth copy of a marker named in an entry is still in its side's pool (7.1, 7.2)."""
        marker = state.game.markers_by_id[marker_id]
        out = self.rules.pool_check(state, entry, marker)
        if out:
            return out
        left = self.rules.pool(state, side)[marker_id]
        if nth <= left:
            return []
        gone = self.rules.pool_gone(state, marker_id)
        return [self._f("error", "7.2", entry, f"no {marker_id} is left in the {side} cup this game turn (the game "
                                                f"has {marker.count}; {', '.join(gone) or 'none allotted'}); a "
                                                "marker serves once a game turn (7.1, 7.2)")]

    @staticmethod
    def _drawn_text(state: S, side: str) -> str:
        return " ".join(m for who, m in state.log.drawn if who == side) or "nothing"

    def may_draw_now(self, state: S) -> bool:
        """Whether a folio lets markers be drawn outside the Bombardment and Combat Phases."""
        return False

    def not_drawable(self, state: S, entry: SupportMarkers, marker_id: str) -> list[Finding]:
        """A folio's markers that are never drawn (none in the series)."""
        return []

    def _named_markers(self, state: S, entry: SupportMarkers) -> tuple[list[Finding], list[str]]:
        """The errors in a markers entry's list, and the markers of the side's own pool it names (7.2)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        out: list[Finding] = []
        named = []
        for marker_id in entry.markers:
            marker = markers.get(marker_id)
            if marker is None or marker.kind not in self.rules.support_kinds:
                known = sorted(m.id for m in markers.values() if m.kind in self.rules.support_kinds and m.side == side)
                out.append(self._f("error", "7.2", entry, self._not_a_marker(state, marker_id, known)))
            elif marker.side != side:
                out.append(self._f("error", "7.1", entry, f"{marker_id} is a {marker.side} marker; each side has its "
                                                          "own pool"))
            elif (never := self.rules.not_drawable(state, entry, marker_id)):
                out += never
            else:
                named.append(marker_id)
        return out, named

    def _check_markers(self, state: S, entry: SupportMarkers) -> list[Finding]:
        """`draw`: markers drawn from a side's own pool while any are left (7.2); the series puts none
        aside and eliminates none (7.2: combat does not change the allotment)."""
        out, named = self._named_markers(state, entry)
        if entry.how != "draw":
            return out + [self._f("error", "7.2", entry, f"nothing in the series puts a marker aside or eliminates "
                                                         f"one ('{entry.how}')")]
        return out + self._check_draw(state, entry, entry.side or "", named)

    def _check_draw(self, state: S, entry: SupportMarkers, side: str, named: list[str]) -> list[Finding]:
        """7.2, 8.2.1 b: drawn for a bombardment or a combat, at most two a side a combat, each still in
        the pool."""
        markers = state.game.markers_by_id
        phase = self.rules.phase_id(state)
        if not self.rules.may_draw_now(state) and phase not in ("bombardment", *COMBAT_PHASES):
            return [self._f("error", "7.2", entry, f"{self.rules._where(state)}: markers are drawn for a bombardment or a "
                                                   "combat, in the Bombardment and Combat Phases")]
        out: list[Finding] = []
        seen: Counter[str] = Counter()
        for marker_id in named:
            seen[marker_id] += 1
            out += self._in_pool(state, entry, side, marker_id, seen[marker_id])
        drawn = [m for who, m in state.log.drawn if who == side] + named
        if sum(1 for m in drawn if not self.rules.may_keep(markers[m])) > 2:
            # In the Bombardment Phase the markers are a bombardment's: 8.1 (8.1.2's step 2) allows two, not 8.2.1 b.
            out.append(self._f("error", "8.1", entry, f"{side} has drawn {' '.join(drawn)} for one bombardment; at "
                                                      "most two markers (8.1)") if phase == "bombardment" else
                       self._f("error", "8.2.1b", entry, f"{side} has drawn {' '.join(drawn)} for one combat; at most "
                                                         "two markers a side (8.2.1 b)"))
        return out

    def _placement(self, state: S, entry: Attack | Bombard,
                   kept: pools.Tally) -> tuple[list[tuple[str, str]], pools.Tally, pools.Tally]:
        """Markers placed on a combat (7.2): those drawn for it leave the drawn list, those set aside earlier
        (`kept`, a folio's) leave that list, the others are taken from the pool now. The drawn ones not
        placed, the kept ones left, and the markers used."""
        markers = state.game.markers_by_id
        pending = list(state.log.drawn)
        taken = []
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None:
                continue
            owner = marker.side or entry.side or ""
            if (owner, marker_id) in pending:
                pending.remove((owner, marker_id))
            elif kept.count(marker_id):
                kept = kept.less(marker_id)
            else:
                taken.append(marker_id)
        return pending, kept, state.markers_used.plus(taken)

    def _placed(self, state: S, entry: Attack | Bombard) -> S:
        """The pools after markers are placed on a combat (7.2)."""
        _, _, used = self._placement(state, entry, pools.NONE)
        return evolve(state, log=evolve(state.log, drawn=()), markers_used=used)

    def _marked(self, state: S, entry: SupportMarkers) -> S:
        """The pools after a `draw` (7.2)."""
        markers = state.game.markers_by_id
        side = entry.side or ""
        named = [m for m in entry.markers if m in markers and markers[m].side == side
                 and markers[m].kind in pools.CUP_KINDS]
        if entry.how == "draw":
            return evolve(state, log=evolve(state.log, drawn=(*state.log.drawn, *((side, m) for m in named))),
                          markers_used=state.markers_used.plus(named))
        return state
