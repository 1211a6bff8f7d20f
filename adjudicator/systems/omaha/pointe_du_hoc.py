"""Pointe du Hoc (11.2.3): the Rangers land at 2417, the Allied die is rolled once before GT 1, and
the chart (counters/omaha/charts.toml) says the Rangers' loss, how far they move up to the end of
GT 1, and what becomes of a German +6 marker.

Rulings: docs/rules-coverage.md's register, rows Omaha 11.2.3.
"""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import Loss, Move, RollOff, TurnMarker
from adjudicator.systems.fire_and_movement.state import evolve
from adjudicator.systems.omaha import charts
from adjudicator.systems.omaha.base import Area, OmahaRules, POINTE_DU_HOC
from adjudicator.systems.omaha.state import OmahaState


class PointeDuHoc(Area):
    """11.2.3's Pointe du Hoc assault."""

    def _check_pdh_roll(self, state: OmahaState, entry: RollOff) -> list[Finding]:
        """11.2.3: the Allied die at Pointe du Hoc, once, after the Rangers land."""
        ranger = self.rules._ranger(state)
        if set(entry.rolls) != {"Allied"}:
            return [self._f("error", "11.2.3", entry, "before GT 1 the only roll is the Allied player's one die for "
                                                    "Pointe du Hoc (11.2.3)")]
        if state.pointe_du_hoc is not None:
            return [self._f("error", "11.2.3", entry, f"the Pointe du Hoc assault was already rolled "
                                                    f"({state.pointe_du_hoc}); it is rolled once (11.2.3)")]
        if ranger is None or state.location.get(ranger) != POINTE_DU_HOC:
            return [self._f("error", "11.2.3", entry, f"the Pointe du Hoc assault is rolled once the Rangers have "
                                                    f"landed at {POINTE_DU_HOC} (11.2.3)")]
        return []

    def _pdh_rolled(self, state: OmahaState, entry: RollOff) -> OmahaState:
        """11.2.3: the roll, and the German +6 marker it puts aside or eliminates."""
        game = state.game
        die = entry.rolls.get("Allied")
        row = charts.pointe_du_hoc(game, die) if die is not None and state.pointe_du_hoc is None else None
        if row is None:
            return state
        six = charts.plus_six(game)
        owed = state.owed
        if six is not None and row.german_plus6 in ("eliminate", "eliminate_permanently"):
            how = "aside" if row.german_plus6 == "eliminate" else "lose"
            owed = (*owed, (how, "German", six, "11.2.3"))
        return evolve(state, pointe_du_hoc=die, owed=owed)

    def _pdh_move(self, state: OmahaState, entry: Move) -> list[Finding] | None:
        """11.2.3: after the Pointe du Hoc roll the Rangers move no more hexes up to the end of GT 1
        than its result allows (at once, or in GT 1's Movement Phase); None when that is not in
        question or the move is within it."""
        if state.at.turn > 1 or entry.unit != self.rules._ranger(state):
            return None
        if state.pointe_du_hoc is None:
            return [self._f("error", "11.2.3", entry, f"{entry.unit} moves before the Pointe du Hoc assault is rolled "
                                                    "(11.2.3)")] if state.at.turn == 0 else None
        row = charts.pointe_du_hoc(state.game, state.pointe_du_hoc)
        limit = (row.move_hexes or 0) if row is not None else 0
        if state.ranger_moved + len(entry.path) - 1 > limit:
            return [self._f("error", "11.2.3", entry, f"a {state.pointe_du_hoc} at Pointe du Hoc lets {entry.unit} move "
                                                    f"{limit} hex(es) up to the end of GT 1; it has moved "
                                                    f"{state.ranger_moved} and this move enters {len(entry.path) - 1} "
                                                    "(11.2.3)")]
        return None

    def _check_pdh_done(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """11.2.3: as GT 1 begins the Pointe du Hoc assault is rolled and the Rangers' loss written."""
        ranger = self.rules._ranger(state)
        if ranger is None:
            return []
        if state.pointe_du_hoc is None:
            if state.location.get(ranger) != POINTE_DU_HOC:
                return []  # the Rangers did not land there: the set-up's own error says so
            return [self._f("error", "11.2.3", entry, "GT 1 begins before the Pointe du Hoc assault is rolled "
                                                    "(written 'Roll Allied N' after the landing, 11.2.3)")]
        row = charts.pointe_du_hoc(state.game, state.pointe_du_hoc)
        if row is None or state.ranger_loss:
            return []  # a loss written: a wrong one was its own line's error (one breach, one error)
        on_map = self.rules._on_map(state, ranger) is not None
        reduced = ranger in state.depleted
        if row.ranger == "eliminated" and on_map or row.ranger == "reduced" and not reduced:
            fate = "eliminated" if row.ranger == "eliminated" else "reduced"
            return [self._f("error", "11.2.3", entry, f"a {row.die} at Pointe du Hoc leaves {ranger} {fate}; write "
                                                    f"'Allied: {'eliminate' if fate == 'eliminated' else 'deplete'} "
                                                    f"{ranger}' before GT 1 (11.2.3)")]
        return []

    def _check_pdh_loss(self, state: OmahaState, entry: Loss) -> list[Finding]:
        """11.2.3: the Rangers' loss is the one the Pointe du Hoc die calls for."""
        row = charts.pointe_du_hoc(state.game, state.pointe_du_hoc) if state.pointe_du_hoc is not None else None
        if row is None:
            return [self._f("error", "11.2.3", entry, f"no Pointe du Hoc roll calls for {entry.unit} to lose a step "
                                                    "(11.2.3)")]
        wanted = {"eliminated": "eliminate", "reduced": "deplete"}.get(row.ranger)
        # The ruling on a unit's last step: its `deplete` is its elimination (a note).
        last = entry.loss == "deplete" and self.rules._steps(state, entry.unit) <= 1
        if ("eliminate" if last else entry.loss) != wanted:
            fate = {"eliminated": "eliminated", "reduced": "reduced once"}.get(row.ranger, "unharmed")
            return [self._f("error", "11.2.3", entry, f"a {row.die} at Pointe du Hoc leaves {entry.unit} {fate} "
                                                    "(11.2.3)")]
        return [self.rules.last_step_note(entry, "11.2.3")] if last else []
