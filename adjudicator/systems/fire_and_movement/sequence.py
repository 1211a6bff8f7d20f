"""The sequence of play (4.1): game turns in order, the phases of each (the game's `[[sequence]]`,
whose order and the entries each phase allows the engine checks, wargame/sequence.py), two player
turns of five phases. Stacking (5.3) is judged as each phase ends (as a note when the log ends inside one).

Ruling: docs/rules-coverage.md's register, row F&M 4.1.
"""

from __future__ import annotations

from adjudicator.contract import next_turn
from adjudicator.findings import Finding
from adjudicator.notation.entries import Comment, Entry, StepMarker, TurnMarker
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.state import S, evolve


class SequenceOfPlay(SeriesArea[S]):
    """4.1 and 5.3's end-of-phase check."""

    def turn_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        """A folio's errors as a game turn begins (its set-up, its length)."""
        return []

    def _check_turn(self, state: S, entry: TurnMarker) -> list[Finding]:
        out = self.rules.turn_checks(state, entry)
        expected = next_turn(state.game, state.scenario, state.at.turn)
        beyond = self.rules._length_checks(state, entry)
        if entry.turn != expected and not beyond:
            # A turn past the game's end is that one breach (the folio's length), not a second one of order.
            before = f"GT {state.at.turn}" if state.at.turn else "the set-up"
            out.append(self._f("error", "4.1", entry, f"GT {entry.turn} follows {before}; game turns run in order (GT "
                                                      f"{expected} comes next)"))
        out += beyond
        if state.at.turn and self.rules.phase_id(state) != "game_turn_end":
            out.append(self._f("error", "4.1", entry, f"GT {state.at.turn} ends before its Game Turn End Phase "
                                                      f"({self.rules._where(state)})"))
        return out

    def _length_checks(self, state: S, entry: TurnMarker) -> list[Finding]:
        """A folio's errors for a game turn past its game's length."""
        return []

    def _closing(self, state: S, entry: Entry) -> list[Finding]:
        """5.3: at the end of every phase, no more units in a hex than it takes; then a folio's own
        end-of-phase errors."""
        if state.at.step is None:
            return []
        known = dict(state.overstacked)
        out = [self._f("error", "5.3", entry, f"{self.rules._where(state)} ends with {len(units)} units in hex {where}; "
                                              f"{self.rules.stack_limit(state, where)} may stay there")
               for where, units in self._overstacks(state) if not units <= known.get(where, frozenset())]
        return out + self.rules.closing(state, entry)

    def _overstacks_when_the_log_ends(self, state: S) -> list[Finding]:
        """5.3: a log ending inside a phase never reaches its end, where stacking is judged: each overstack not yet
        reported is a note on the line of the last entry that made it (a later entry of the phase could undo it)."""
        if state.at.step is None:
            return []
        known = dict(state.overstacked)
        noted = self.rules.stacks_noted_at_the_end(state)
        lines = state.log.arrived
        out = []
        for where, units in self._overstacks(state):
            arrived = [lines[u] for u in units if u in lines]
            if units <= known.get(where, frozenset()) or where in noted or not arrived:
                # A stack no unit entered this phase stood as it began: judged at that boundary already (the last
                # phase's end, or the set-up's own check, e.g. Omaha 11.2.1's three a landing hex), not again.
                continue
            at = Comment(line=max(arrived), text="")
            out.append(self._f("note", "5.3", at, f"the log ends inside {self.rules._where(state)}, whose end judges "
                                                  f"stacking (5.3): hex {where} holds {len(units)} units "
                                                  f"({', '.join(sorted(units))}) and "
                                                  f"{self.rules.stack_limit(state, where)} may stay there, an error "
                                                  "if the phase ended now"))
        return out

    def _overstacks(self, state: S) -> list[tuple[str, frozenset[str]]]:
        """5.3: the hexes holding more units than they take, with those units."""
        # A side's own units stack; an enemy unit in the hex got there by entering an enemy-held hex
        # (5.2 d) or retreating into one (8.3), one breach reported on its own entry, not again here.
        units_by_id = state.game.units_by_id
        out: list[tuple[str, frozenset[str]]] = []
        for where, units in self.rules._crowded(state):
            limit = self.rules.stack_limit(state, where)
            sides: dict[str, set[str]] = {}
            for unit in units:
                sides.setdefault(units_by_id[unit].side, set()).add(unit)
            over = {u for side_units in sides.values() if len(side_units) > 1 and len(side_units) > limit
                    for u in side_units}
            if over:
                out.append((where, frozenset(over)))
        return out

    def _still_over(self, state: S) -> tuple[tuple[str, frozenset[str]], ...]:
        """The overstacks reported as this phase ends (each reported once until resolved, 5.3)."""
        if state.at.step is None:
            return state.overstacked
        known = dict(state.overstacked)
        return tuple((where, units | known.get(where, frozenset())) for where, units in self._overstacks(state))

    def _turn_ended(self, state: S, entry: TurnMarker) -> S:
        """As a game turn ends: the overstacks still reported (5.3); 7.2: every marker back in its pool."""
        return evolve(state, overstacked=self._still_over(state), markers_used=pools.NONE)

    def _phase_ended(self, state: S, entry: StepMarker) -> S:
        """As a phase ends: the overstacks still reported (5.3)."""
        return evolve(state, overstacked=self._still_over(state))
