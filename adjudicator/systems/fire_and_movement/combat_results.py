"""Combat results carried out (8.2.4 losses, 8.3 retreats' bookkeeping, 8.4 stiff resistance,
8.5 advance after combat): the entries after an attack or a bombardment, judged against its result
(results.py says what a result asks of each unit)."""

from __future__ import annotations

from dataclasses import replace

from adjudicator.contract import AdvanceOption
from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Advance, Attack, Bombard, Comment, Entry, Header, Loss, Retreat, StandFast
from adjudicator.systems.fire_and_movement import results
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.results import DEFENDER_RETREATS, FmCombat, Owed, RetreatRoom
from adjudicator.systems.fire_and_movement.state import S, evolve, stack_reported


class CombatResults(SeriesArea[S]):
    """8.2.4, 8.3 (bookkeeping), 8.4, 8.5."""

    def _carries_out(self, state: S, entry: Entry) -> bool:
        """Whether an entry may carry out the combat before it; any other ends that combat (a folio's
        supply loss too: it comes after every combat)."""
        if isinstance(entry, Loss) and self.rules.supply_loss(state, entry.unit):
            return False
        return isinstance(entry, (Loss, Retreat, Advance, StandFast, Comment, Header))

    def written_again(self, state: S, entry: Entry) -> FmCombat | None:
        """The combat under way when an entry declares it again (an attack on its hex by the same units, a
        bombardment of its defenders): the copy is not carried out, and the entries after it carry that combat out."""
        combat = state.combat
        if combat is None or combat.refused or not isinstance(entry, (Attack, Bombard)) or entry.hex != combat.hex:
            return None
        if isinstance(entry, Bombard):
            # A beach stack's units are bombarded one by one (Omaha 11.2.1): the same hex is not the same target.
            target = self.rules.defending(state, self.rules._defenders(state, entry, entry.side or ""), entry.defender)
            return combat if combat.bombardment and tuple(target) == combat.defenders else None
        same = not combat.bombardment and frozenset(entry.attackers) == frozenset(combat.attackers)
        return combat if same else None

    def said_again(self, entry: Entry, combat: FmCombat, found: list[Finding]) -> list[Finding]:
        """The findings of the combat under way declared again: one error, of the clause it breaks (8.2 for an attack:
        its units attack once a phase, their strength unitary; 8.0 for a bombardment: its target suffers one attack a
        phase; a folio's own attack, its clause: Omaha's beach assault, one a beach landing hex, 11.2.3), saying it is
        not carried out; the rest (its markers used twice, ...) notes."""
        section = combat.special.section if combat.special is not None else "8.0" if combat.bombardment else "8.2"
        rest = f"written again: not carried out, the entries after it carry out {combat.name}"
        first = next((f for f in found if f.severity == "error" and f.rule == section), None)
        said = self._f("error", section, entry, f"{combat.name} is {rest}") if first is None else \
            replace(first, message=f"{first.message} ({combat.name} {rest})")
        why = f" (the same combat written again: one error, {section})"
        return [said, *(f if f.severity != "error" else replace(f, severity="note", message=f.message + why)
                         for f in found if f is not first)]

    def _outstanding(self, state: S, combat: FmCombat) -> list[Owed]:
        """What a combat's result still asks of the log (8.2.4-8.4)."""
        owed = results.outstanding(combat, self._retreat_rooms(state, combat))
        table = combat.as_table_says()
        if owed and table is not None:
            # After a wrongly claimed result (its one error is on the attack), the log may follow the
            # claim or the table: what either leaves unowed is not owed, and what is owed is the table's,
            # never the claim's.
            return results.outstanding(table, self._retreat_rooms(state, table))
        return owed

    def _retreat_rooms(self, state: S, combat: FmCombat) -> dict[str, RetreatRoom]:
        """How far each unit that still owes a combat's retreat (neither retreated nor stood) can go (8.3, 8.3.1):
        what `results.outstanding` asks; the units done with it are not searched."""
        return {u: self.rules.retreat_room(state, u, due) for u in (*combat.attackers, *combat.defenders)
                if (due := combat.retreat_due(u)) and u not in combat.stood and combat.retreat_of(u) is None}

    def _combat_over(self, state: S, entry: Entry) -> list[Finding]:
        """What the combat under way still owed when another entry ends it."""
        combat = state.combat
        assert combat is not None
        # One result left undone is one breach: its first part the error, the others notes.
        owed = self._outstanding(state, combat)
        # A part carried out for a unit that owed none of it (its error given there) is the same part left owed by
        # the unit it should have touched: one decision, which unit carries the result out, went wrong (a note).
        excused = [o for o in owed if combat.misdirected_at(o.part) is not None]
        owed = [o for o in owed if combat.misdirected_at(o.part) is None]
        if owed and isinstance(entry, (Attack, Bombard)):
            # 8.0: the next combat declared before this one is done breaks the order of combat, whether the log
            # then carries the result out late (the phase record's `undone`) or never: the clause misread is 8.0's.
            owed = [replace(o, section="8.0", message=f"{o.message}, before the next {entry.kind} is declared (8.0: "
                                                      "each combat is resolved before the next)") if k == 0 else o
                    for k, o in enumerate(owed)]
        found = [self._f("error", o.section, entry, o.message) for o in owed]
        found += [self._f("note", o.section, entry, f"{o.message} (not a breach of its own: the "
                                                     f"{'loss' if o.part == 'loss' else 'retreat or stiff resistance'}"
                                                     f" on line {combat.misdirected_at(o.part)} carried this part out "
                                                     "wrongly: one error there)") for o in excused]
        return one_error(found, "more of the same result left undone: one error")

    def folio_loss(self, state: S, entry: Loss) -> list[Finding] | None:
        """A folio's own losses outside combat (None: the series' rules decide)."""
        return None

    def _check_loss(self, state: S, entry: Loss) -> list[Finding]:
        if entry.loss == "remove":
            return [self._f("error", "log", entry, "'remove' is Onslaught's (6.3); Fire & Movement removes nothing "
                                                   "for stacking")]
        folio = self.rules.folio_loss(state, entry)
        if folio is not None:
            return folio
        combat = state.combat
        if combat is None:
            return [self.rules.no_combat(state, entry, "8.2.4", f"{self.rules._where(state)}: no combat result calls for {entry.unit} "
                                                   "to lose a step")]
        if entry.unit not in (*combat.attackers, *combat.defenders):
            untouched = self.rules.untouched(state, combat, entry, entry.unit)
            if untouched is not None:
                return [untouched]
            # 8.1.3 says who a bombardment's results touch (the defenders, and (A)'s adjacent friends).
            why = f"; (A) reduces a unit of the bombarding side next to {combat.hex} (8.1.3)" \
                if combat.bombardment and combat.result == "(A)" and combat.attackers else ""
            return [self._f("error", "8.1.3" if combat.bombardment else "8.2.4", entry,
                            f"{entry.unit} took no part in {combat.name}{why}")]
        steps, lost = combat.steps_of(entry.unit), combat.lost_by(entry.unit)
        if steps - lost <= 0:
            return [self._f("error", "8.2.4", entry, f"{entry.unit} has no step left to lose in {combat.name}: it is "
                                                     "already eliminated")]
        found = self._judge_loss(state, combat, entry, steps, lost)
        if entry.loss == "deplete" and steps - lost == 1 and not any(f.severity == "error" for f in found):
            found.append(self.rules.last_step_note(entry, "8.3"))
        return found

    def _judge_loss(self, state: S, combat: FmCombat, entry: Loss, steps: int, lost: int) -> list[Finding]:
        """A combat participant's loss against the result: `deplete` of its last step counts as `eliminate`."""
        if combat.result is None:
            return []
        due = combat.loss_due(entry.unit)
        retreat = combat.retreat_due(entry.unit)
        path = combat.retreat_of(entry.unit)
        if retreat and entry.unit not in combat.stood:
            if path is not None and len(path) - 1 < retreat:
                due += 1  # 8.3: short of the full retreat, reduced in the last hex
            elif path is None:
                room = self.rules.retreat_room(state, entry.unit, retreat)
                if room == "full":
                    return [self._f("error", "8.3", entry, f"{combat.verdict}: {entry.unit} retreats (or declares "
                                                           "stiff resistance, written 'stand') rather than losing a "
                                                           "step")]
                if room == "short":
                    return [self._f("error", "8.3", entry, f"{combat.verdict}: {entry.unit} can retreat part of the "
                                                           f"{retreat} hexes, so it retreats as far as it can and is "
                                                           "reduced in the last hex (or declares stiff resistance, "
                                                           "written 'stand') rather than losing a step where it "
                                                           "stands")]
                # 8.3.1: a unit that could go farther only by displacing a friendly unit may decline and be reduced
                # where it stands; 8.3: one that cannot retreat even one hex is eliminated.
                due = due + 1 if room == "displacing" else steps
        after = lost + (1 if entry.loss == "deplete" else steps - lost)  # on its last step the two are one loss
        if after > min(due, steps):
            chosen = combat.chosen()
            if combat.result in results.ONE_ATTACKER_REDUCED and entry.unit in combat.attackers and chosen:
                if combat.bombardment:  # 8.1.3: (A) reduces one unit of the bombarding side next to the hex
                    return [self._f("error", "8.1.3", entry, f"{combat.verdict} reduces one unit of the bombarding side "
                                                           f"next to {combat.hex} and {chosen} was chosen; {entry.unit} "
                                                           "loses nothing")]
                return [self._f("error", "8.2.4", entry, f"{combat.verdict} reduces one attacking unit and the attacker "
                                                       f"chose {chosen}; {entry.unit} loses nothing")]
            if entry.unit in combat.stood:
                return [self._f("error", "8.4", entry, f"{entry.unit} declared stiff resistance, which reduced it "
                                                       f"(8.4: 'stand' implies the loss); {combat.verdict} takes "
                                                       "nothing more from it")]
            fate = "nothing" if due == 0 else ("a step" if due == 1 else "every step")
            # 8.1.3 says what a bombardment's results do (the attacker's and Ex none): its clause is the one misread.
            return [self._f("error", "8.1.3" if combat.bombardment else "8.2.4", entry,
                            f"{combat.verdict} takes {fate} from {entry.unit}")]
        return []

    def _check_stand(self, state: S, entry: StandFast) -> list[Finding]:
        combat = state.combat
        if combat is None:
            return [self.rules.no_combat(state, entry, "8.4", f"{self.rules._where(state)}: no retreat result to resist")]
        out = []
        for unit_id in dict.fromkeys(entry.units):
            untouched = None if unit_id in (*combat.attackers, *combat.defenders) else \
                self.rules.untouched(state, combat, entry, unit_id)
            if untouched is not None:
                out.append(untouched)  # a folio's stack defending with one unit (Omaha 11.2.3, 11.2.4)
            elif combat.may_retreat_unknown(unit_id) and unit_id not in combat.stood and \
                    combat.retreat_of(unit_id) is None:
                continue  # no result recorded (the attack's warning): a retreat result may have been rolled
            elif not combat.retreat_due(unit_id) and combat.special is not None:
                # A folio's own attack says what its retreat results do (Omaha 11.2.3: every attacking unit reduced).
                out.append(self._f("error", combat.special.section, entry, f"{combat.verdict} calls for no retreat of "
                                   f"{unit_id}: in a {combat.special.name} a retreat result reduces every attacking "
                                   f"unit ({combat.special.section}), written as its loss, not as stiff resistance"))
            elif not combat.retreat_due(unit_id):
                out.append(self._f("error", "8.4", entry, f"{combat.verdict} calls for no retreat of {unit_id}; "
                                                          "stiff resistance answers a retreat"))
            elif unit_id in combat.stood or combat.retreat_of(unit_id) is not None:
                out.append(self._f("error", "8.4", entry, f"{unit_id} has already retreated or stood"))
        return out

    def _check_advance(self, state: S, entry: Advance) -> list[Finding]:
        combat = state.combat
        # No result recorded (the attack's warning): a defender's retreat shows the D2 or D3 the log followed.
        unknown = combat is not None and combat.result is None and any(combat.retreat_of(u) for u in combat.defenders)
        if combat is None:
            return [self.rules.no_combat(state, entry, "8.5", f"{entry.unit} advances, but no combat has just been "
                                                              "resolved; advances follow a D2 or D3 right after the "
                                                              "retreat")]
        if combat.result not in DEFENDER_RETREATS and not unknown:
            what = f"{combat.verdict} is not D2 or D3" if combat.result is not None else \
                f"no defender of {combat.name} retreated (its result is not recorded)"
            return [self._f("error", "8.5", entry, f"{entry.unit} advances, but {what}; advances follow a D2 or D3 "
                                                   "right after the retreat")]
        if combat.bombardment or combat.special is not None:
            what = "a bombardment" if combat.special is None else f"a {combat.special.name}"
            return [self._f("error", "8.5", entry, f"there is no advance after {what}")]
        if entry.unit not in combat.attackers:
            return [self._f("error", "8.5", entry, f"{entry.unit} did not take part in {combat.name}")]
        if any(u == entry.unit for u, _ in combat.advanced):
            return [self._f("error", "8.5", entry, f"{entry.unit} has already advanced")]
        if entry.path[0] != state.location.get(entry.unit):
            return [self._f("error", "8.5", entry, f"{entry.unit} is in {state.location.get(entry.unit)}, not "
                                                   f"{entry.path[0]}")]
        trail = self._path_of_retreat(combat)
        if any(u in combat.defenders and state.location.get(u) == combat.hex for u in combat.defenders):
            owing = [u for u in combat.defenders if combat.retreat_due(u) and u not in combat.stood
                     and combat.retreat_of(u) is None and state.location.get(u) == combat.hex]
            # A defender whose retreat is not written yet: the advance follows the retreat the players carried out
            # unwritten, whose omission is the one error (as the combat ends), not this advance (house style 16).
            return [self._f("note" if owing else "error", "8.5", entry,
                            f"{combat.hex} is still held; there is no path of retreat"
                            + (f" ({', '.join(owing)} owes its retreat, unwritten: one error, as the combat ends)"
                               if owing else ""))]
        if any(u in combat.stood for u in combat.defenders):
            return [self._f("error", "8.4", entry, f"the defender's stiff resistance in {combat.hex} eliminated it, "
                                                   "which prevents any advance into that hex")]
        if len(entry.path) < 2 or list(entry.path[1:]) != trail[:len(entry.path) - 1]:
            return [self._f("error", "8.5", entry, f"{entry.unit} strays from the path of retreat "
                                                   f"({'-'.join(trail)})")]
        if any(end == entry.path[-1] for _, end in combat.advanced):
            return [self._f("error", "8.5", entry, f"another unit already ended its advance in {entry.path[-1]}; one "
                                                   "unit a hex")]
        side = self.rules._unit(state, entry.unit).side
        held = [label for label in entry.path[1:] if any(w == label and self.rules._unit(state, u).side != side
                                                         for u, w in state.location.items())]
        if held:
            # 8.5: the path of retreat is the vacant hexes the defender left; a retreat through a
            # friend's hex (8.3) leaves that hex held.
            return [self._f("error", "8.5", entry, f"{entry.unit} advances into {held[0]}, which an enemy unit holds")]
        return []

    @staticmethod
    def _path_of_retreat(combat: FmCombat) -> list[str]:
        """8.5: the defender's hex, then the hexes its units retreated through, in order."""
        return [combat.hex] + [label for unit, path in combat.retreated if unit in combat.defenders
                               for label in path[1:]]

    def advance_options(self, state: S) -> list[AdvanceOption]:
        """The advances after combat open now, by attacking unit (8.5): each stretch of the path of retreat
        that the series' and the folio's checks accept (empty when the result allows none)."""
        combat = state.combat
        if combat is None:
            return []
        trail = self._path_of_retreat(combat)
        out = []
        for unit_id in combat.attackers:
            start = state.location.get(unit_id)
            if start is None or not state.game.grid.is_label(start):
                continue
            candidates = [(start, *trail[:k]) for k in range(1, len(trail) + 1)]
            paths = tuple(path for path in candidates
                          if not any(f.severity == "error"
                                     for f in self.rules.check_rules(state, Advance(unit=unit_id, path=list(path)))))
            if paths:
                out.append(AdvanceOption(unit_id, paths))
        return out

    # -- apply -----------------------------------------------------------------------------------
    def _eliminated_box(self, state: S, side: str) -> str:
        # 8.2.4: the side's box for eliminated units, not one for markers of the same kind (Omaha 11.1.4's).
        box = state.game.manifest.box_of("eliminated", side)
        return "eliminated" if box is None else box.id

    def _retreat_applied(self, state: S, entry: Retreat) -> S:
        combat = state.combat
        if combat is not None and entry.path[0] != state.location.get(entry.unit):
            # Written from a hex the unit is not in (one 8.3 error): not carried out, so the corrected line is judged
            # as the retreat; the part left owed is that error's, not a second one (one breach, one error).
            return evolve(state, combat=combat.miscarried("retreat", entry.line))
        displaced = state.log.displaced
        if combat is not None and entry.unit not in (*combat.attackers, *combat.defenders):
            displaced = displaced | {entry.unit}  # 8.3.1
            if entry.path[0] not in results.arrival_ends(state.location, combat, entry.unit):
                # A unit no retreat ended on, displaced (8.3.1's one error, on this entry) instead of the one a retreat
                # ended on: the stack left there is this breach, not one of 5.3's as the phase ends; and a retreat
                # still owed is the same decision gone wrong.
                combat = combat.misdirect(entry.unit, "retreat", entry.line)
                for unit_id in results.to_displace(state.location, combat):
                    state = stack_reported(state, state.location[unit_id],
                                           frozenset(u for u, w in state.location.items()
                                                     if w == state.location[unit_id] and u != entry.unit))
            combat = replace(combat, displaced=(*combat.displaced, (entry.unit, tuple(entry.path))))
        elif combat is not None:
            combat = combat.misdirect(entry.unit, "retreat", entry.line)
            due = combat.retreat_due(entry.unit)
            short = 0 < len(entry.path) - 1 < due and self.rules.retreat_room(state, entry.unit, due) != "full"
            combat = replace(combat, retreated=(*combat.retreated, (entry.unit, tuple(entry.path))),
                             cut_short=combat.cut_short | ({entry.unit} if short else set()))
        return evolve(state, location={**state.location, entry.unit: entry.path[-1]}, combat=combat,
                      log=evolve(state.log, displaced=displaced))

    def _advance_applied(self, state: S, entry: Advance) -> S:
        combat = state.combat
        if entry.path[0] != state.location.get(entry.unit):
            return state  # written from a hex the unit is not in (8.5's one error): not carried out, as a move
        if combat is not None:
            combat = replace(combat, advanced=(*combat.advanced, (entry.unit, entry.path[-1])))
        return evolve(state, location={**state.location, entry.unit: entry.path[-1]},
                      log=evolve(state.log, advanced=state.log.advanced | {entry.unit}), combat=combat)

    def _loss_applied(self, state: S, entry: Loss) -> S:
        combat = state.combat
        if combat is not None:
            combat = combat.misdirect(entry.unit, "loss", entry.line)
            state = evolve(state, combat=combat)
        if combat is not None and entry.unit in (*combat.attackers, *combat.defenders):
            left = combat.steps_of(entry.unit) - combat.lost_by(entry.unit)
            state = evolve(state, combat=combat.with_loss(entry.unit, 1 if entry.loss == "deplete" else left))
        if entry.loss == "deplete" and entry.unit not in state.depleted and self.rules._unit(state, entry.unit).reduced:
            return evolve(state, depleted=state.depleted | {entry.unit})
        box = self._eliminated_box(state, self.rules._unit(state, entry.unit).side)
        return evolve(state, location={**state.location, entry.unit: box}, depleted=state.depleted - {entry.unit})

    def _stand_applied(self, state: S, entry: StandFast) -> S:
        """8.4: stiff resistance reduces the unit (a reduced or one-step unit is eliminated)."""
        combat = state.combat
        for unit_id in dict.fromkeys(entry.units):
            if combat is not None:
                combat = combat.misdirect(unit_id, "retreat", entry.line)
                combat = replace(combat.with_loss(unit_id, 1), stood=combat.stood | {unit_id})
                state = evolve(state, combat=combat)
            if self.rules._steps(state, unit_id) > 1:
                state = evolve(state, depleted=state.depleted | {unit_id})
            else:
                box = self._eliminated_box(state, self.rules._unit(state, unit_id).side)
                state = evolve(state, location={**state.location, unit_id: box}, depleted=state.depleted - {unit_id})
        return state
