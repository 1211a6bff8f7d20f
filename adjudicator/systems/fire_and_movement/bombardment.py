"""Bombardment (8.1): markers alone against the target's defence, in the bombarding side's own
Bombardment Phase, two markers a hex a player turn, within range (8.1.1); the attacker's results
are no effect, (A) only with a friendly unit next to the target (8.1.3)."""

from __future__ import annotations


from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Bombard
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.combat import FmAudit, Modifier, audit, unit_values
from adjudicator.systems.fire_and_movement.ground_combat import result_codes, unknown_result
from adjudicator.systems.fire_and_movement.results import FmCombat
from adjudicator.systems.fire_and_movement.state import S, evolve
from wargame.models import Marker


class Bombardment(SeriesArea[S]):
    """8.1."""

    def bombard_audit(self, state: S, entry: Bombard, left_out: Modifier | None = None) -> FmAudit:
        """The arithmetic of a bombardment (8.1.2): markers against the target's defence, the line of
        its hex terrain (not its hexsides, 8.1.4); `left_out`: as it comes out without that modifier."""
        return self.rules._audited(state, entry, left_out, lambda: self._bombard_audit(state, entry, left_out))

    def _bombard_audit(self, state: S, entry: Bombard, left_out: Modifier | None) -> FmAudit:
        """`bombard_audit`, worked out."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = entry.side or ""
        defenders = [(u, unit_values(game, u, u in state.depleted)[1])
                     for u in self.rules.defending(state, self.rules._defenders(state, entry, side), entry.defender)]
        fortified = "fortification" in game.hex_terrain.get(target, ()) and left_out != "fortification"
        return audit(game, target, [], defenders, self.rules._supports(state, entry, target, left_out), fortified, entry.die,
                     side, ["clear"] if left_out == "terrain" else None)

    def _adjacent_friends(self, state: S, entry: Bombard) -> list[str]:
        """The bombarding side's units next to the target (8.1.3: the (A) result's friendly fire)."""
        game = state.game
        grid, units = game.grid, game.units_by_id
        around = {grid.label_of(h) for h in grid.neighbour_map[grid.hex_of(entry.hex)]}
        return sorted([u for u, w in state.location.items() if w in around and units[u].side == entry.side])

    def bombard_effect(self, state: S, entry: Bombard, result: str | None) -> str | None:
        """What a table result does in a bombardment (8.1.3): the attacker's results are no effect,
        (A) only with a friendly unit next to the target."""
        if result in ("Ae", "A1", "A2", "A3", "Ex"):
            return "-"
        if result == "(A)" and not self._adjacent_friends(state, entry):
            return "-"
        return result

    def bombard_marker(self, state: S, entry: Bombard, marker: Marker) -> list[Finding] | None:
        """A folio's markers that never bombard (None: the series' range rule decides)."""
        return None

    def _check_bombard(self, state: S, entry: Bombard) -> list[Finding]:
        game = state.game
        # 8.1: that a side bombards in its own Bombardment Phase only is the engine's check (game.toml's
        # `[[sequence]]` entries).
        side = entry.side or ""
        if not self.rules._defenders(state, entry, side):
            return [self._f("error", "8.1.2", entry, f"hex {entry.hex} holds no enemy unit to bombard")]
        out = self.rules._check_support(state, entry, side)
        markers = game.markers_by_id
        target = game.grid.hex_of(entry.hex)
        grid, units = game.grid, game.units_by_id
        # 8.1.1: a marker reaches its range from the friendly-occupied hex nearest the target.
        nearest = min((grid.hex_of(w).distance(target) for u, w in state.location.items()
                       if units[u].side == side and grid.is_label(w)), default=None)
        far: list[Finding] = []
        for marker_id in entry.support:
            marker = markers.get(marker_id)
            if marker is None:
                continue
            if marker.side not in (None, side):
                # 8.1.2: the bombarding player selects the markers, and they stand against the defending unit's
                # strength alone (no defender's marker, unlike 7.2's combats): the bombardment's own procedure.
                out.append(self._f("error", "8.1.2", entry, f"{marker_id} is a {marker.side} marker; in a bombardment "
                                                            "the bombarding player selects his own markers and they "
                                                            "stand against the defending unit's strength alone (8.1.2)"))
            elif (folio := self.rules.bombard_marker(state, entry, marker)) is not None:
                out += folio
            elif marker.range_hexes is not None and (nearest is None or nearest > marker.range_hexes):
                far.append(self._f("error", self.rules.range_rule(marker), entry, f"{marker_id} reaches "
                                   f"{marker.range_hexes} hexes from a friendly-occupied hex and {entry.hex} is "
                                   f"{'farther' if nearest is None else f'{nearest} hexes from the nearest'}"))
        # 8.1.1: the hex's distance is one fact, however many of the bombardment's markers it puts out of range.
        out += one_error(far, "the same hex beyond range, {rule} above: one error")
        hit = [u for u in self.rules.defending(state, self.rules._defenders(state, entry, side), entry.defender) if u in state.log.defended]
        if hit:
            # 8.0: a unit suffers one attack a phase, bombardment included.
            out.append(self._f("error", "8.0", entry, f"{', '.join(hit)} has already been bombarded in this phase; a "
                                                      "unit suffers one attack a phase"))
        already = state.log.bombarded.count(entry.hex)
        if already + len(entry.support) > 2:
            # A second bombardment of a unit bombarded already (8.0's error) brings its markers with it: that they
            # make more than two on the hex is the same breach, a note; so are more than two placed as drawn (the
            # draw's error).
            drawn = self.rules.overdrawn(state, side)
            why = " (the same second bombardment: one error, above)" if hit else \
                " (placed as drawn: one error, on the draw)" if drawn else ""
            out.append(self._f("note" if why else "error", "8.1", entry,
                               f"{already + len(entry.support)} markers bombard {entry.hex} this player turn; at most "
                               "two" + why))
        if out:
            return out
        return self.rules.with_basis(state, entry, self.bombard_audit(state, entry), self._bombard_claims(state, entry))

    def _bombard_claims(self, state: S, entry: Bombard) -> list[Finding]:
        """The claimed differential and result against the table (8.1.2; 8.1.3's effect of the result claimed too; a
        warning without a die)."""
        out: list[Finding] = []
        result = self.bombard_audit(state, entry)
        # A claim that leaves out a modifier breaks the clause that sets it (8.1.4: the hex's terrain).
        misread = self.rules.left_out_rule(state, entry, result, "8.1.4", lambda r: self.bombard_effect(state, entry, r))
        left_out, why = misread or (None, "")
        if entry.odds is not None:
            claimed = entry.odds.lstrip("+")
            if not claimed.lstrip("-").isdigit() or int(claimed) != result.differential:
                out.append(self._f("error", left_out or "8.1.2", entry, f"the differential is {result.differential:+d} "
                                                          f"({result.attack} - {result.defence}), not {entry.odds}"
                                                          + why))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", "8.1.2", entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            what = f"result {entry.result}" if entry.result is not None else "the result"
            out.append(self._f("warning", "8.1.2", entry, f"{what} cannot be verified: no die roll is recorded"))
        else:
            effect = self.bombard_effect(state, entry, result.result)
            if entry.result is not None and entry.result not in (result.result, effect):
                # The table read wrong is 8.1.2's step (the die cross-referenced, as 8.2.1 d in ground combat); 8.1.3
                # says what the result read does, and a claim of either the table's result or its effect stands.
                out.append(self._f("error", left_out or "8.1.2", entry, f"differential {result.differential:+d} on the "
                                                          f"{result.line} line (column {result.column}) with a "
                                                          f"{entry.die} gives {result.result}"
                                                          + (", no effect in a bombardment" if effect != result.result
                                                             else "") + f", not {entry.result}"
                                                          + unknown_result(entry.result, result_codes(state.game))
                                                          + why))
            elif entry.result is None:
                out.append(self._f("note", "8.1.2", entry, f"the result is {result.result}"
                                                         + (" (no effect in a bombardment)" if effect == "-" and
                                                            result.result != "-" else "")))
        # A differential and a result both what one modifier left out gives are one breach: one error.
        return one_error(out, "the same modifier left out: one error") if left_out else out

    def _bombard_applied(self, state: S, entry: Bombard) -> S:
        """8.1: the bombardment opens a combat whose effect the next entries carry out."""
        result = entry.result
        if result is None and entry.die is not None and 1 <= entry.die <= 6:
            result = self.bombard_audit(state, entry).result
        effect = self.bombard_effect(state, entry, result)
        table = None
        if entry.result is not None and entry.die is not None and 1 <= entry.die <= 6:
            # After a wrongly claimed result (its one error is on the bombardment) the log may carry
            # out the claim or the table's: the combat keeps both (results.py, FmCombat.table).
            actual = self.bombard_effect(state, entry, self.bombard_audit(state, entry).result)
            table = actual if actual != effect else None
        friends = tuple(self._adjacent_friends(state, entry)) if "(A)" in (effect, table) else ()
        defenders = tuple(self.rules.defending(state, self.rules._defenders(state, entry, entry.side or ""), entry.defender))
        steps = tuple((u, self.rules._steps(state, u)) for u in (*friends, *defenders))
        opened = FmCombat(entry.line, entry.column, entry.hex, effect, friends, defenders, steps, bombardment=True,
                          table=table)
        placed = self.rules._placed(state, entry)
        bombarded = (*state.log.bombarded, *([entry.hex] * len(entry.support)))
        return evolve(placed, combat=opened, log=evolve(placed.log, defended=state.log.defended | set(defenders),
                                                        bombarded=bombarded))
