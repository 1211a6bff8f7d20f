"""Ground combat (8.0, 8.2): who may attack whom and when, the arithmetic (with combat.py) and the
claimed result against the table; an attack whose result is known opens a combat (results.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import replace

from adjudicator.basis import Basis, attack_records, crt_cell
from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Attack, Bombard
from adjudicator.systems.fire_and_movement.base import SeriesArea
from adjudicator.systems.fire_and_movement.combat import (
    MODIFIERS, FmAudit, Modifier, audit, claimed_differential, modifier_left_out, unit_values, unmet_river_lines)
from adjudicator.systems.fire_and_movement.results import AttackFault, FmCombat
from adjudicator.systems.fire_and_movement.state import S, evolve
from wargame.errors import did_you_mean
from wargame.game import Game
from wargame.hexes import Hexside


class GroundCombat(SeriesArea[S]):
    """8.0, 8.2."""

    def combat_audit(self, state: S, entry: Attack, left_out: Modifier | None = None) -> FmAudit:
        """The arithmetic of an attack in a state (8.2.1-8.2.3; a folio's own attacks by its rules);
        `left_out`: as it comes out without that modifier."""
        return self.rules._audited(state, entry, left_out, lambda: self._combat_audit(state, entry, left_out))

    def _combat_audit(self, state: S, entry: Attack, left_out: Modifier | None) -> FmAudit:
        """`combat_audit`, worked out."""
        special = self.rules.special_audit(state, entry)
        if special is not None:
            return special
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = self.rules._unit(state, entry.attackers[0]).side
        attackers = [(u, game.grid.hex_of(state.location[u]), unit_values(game, u, u in state.depleted)[0])
                     for u in entry.attackers if self.rules._on_map(state, u) is not None]
        defenders = [(u, unit_values(game, u, u in state.depleted)[1])
                     for u in self.rules.defending(state, self.rules._defenders(state, entry, side), entry.defender)]
        fortified = "fortification" in game.hex_terrain.get(target, ()) and left_out != "fortification"
        lines: list[str] | None = ["clear"] if left_out == "terrain" else None
        if left_out == "river line":
            unmet = unmet_river_lines(game, target, [h for _, h, _ in attackers])
            lines = unmet[0] if unmet is not None else None
        return audit(game, target, attackers, defenders, self.rules._supports(state, entry, target, left_out), fortified,
                     entry.die, side, lines)

    def left_out_rule(self, state: S, entry: Attack | Bombard, truth: FmAudit, terrain_rule: str,
                      effect: Callable[[str | None], str | None] = lambda result: result) -> tuple[str, str] | None:
        """The clause broken, and how a message says it, when a wrong claimed differential or result is what
        the arithmetic gives with one modifier left out (8.2.3 the fortification, the folio's marker rule
        (Omaha 15.0), `terrain_rule` the defender's terrain: 8.2.2, 8.1.4 for a bombardment) or applied where
        its condition does not hold (8.2.2 a river's line, the folio's marker rule); None otherwise."""
        game = state.game
        die_read = entry.die is not None and 1 <= entry.die <= 6
        differential, result = claimed_differential(entry.odds), entry.result if die_read else None
        if not (differential is not None and differential != truth.differential or
                result is not None and result not in (truth.result, effect(truth.result))):
            return None  # the claim holds (or says nothing checkable): no variant to work out
        if game.crt is None or (isinstance(entry, Attack) and self.rules.special_audit(state, entry) is not None):
            return None
        if result is not None and entry.reroll is not None:
            # A result the reroll gives was read off the table right, for the wrong die: no modifier was misread.
            again = replace(entry, die=entry.reroll)
            rerolled = (self.combat_audit(state, again) if isinstance(again, Attack)
                        else self.rules.bombard_audit(state, again)).result
            if result in (rerolled, effect(rerolled)):
                if differential is None or differential == truth.differential:
                    return None
                result = None
        target = game.grid.hex_of(entry.hex)
        marker_rule = self.rules.support_value_rule()
        unmet = unmet_river_lines(game, target, [h for u in entry.attackers if (h := self.rules._on_map(state, u))]) \
            if isinstance(entry, Attack) else None
        what = {"8.2.3": "the fortification's doubling and halving (8.2.3)", "8.2.2": "the defender's terrain (8.2.2)",
                "8.1.4": "the target hex's terrain (8.1.4)"}
        rules: dict[Modifier, tuple[str, str] | None] = {
            "fortification": ("8.2.3", f"; the claim leaves out {what['8.2.3']}")
            if "fortification" in game.hex_terrain.get(target, ()) else None,
            "marker values": (marker_rule, f"; the claim leaves out the change {marker_rule} makes to the markers' "
                                           "values") if marker_rule else None,
            "terrain": (terrain_rule, f"; the claim leaves out {what.get(terrain_rule, terrain_rule)}")
            if truth.line != "clear" and any(line.id == "clear" for line in game.crt.line) else None,
            # Applied where its condition does not hold: the clause misread is the modifier's, as for one left out.
            "river line": ("8.2.2", f"; the claim reads the table on that hexside's line, but {unmet[1]} (8.2.2)")
            if unmet is not None else None,
            "marker change": (marker_rule, f"; the claim makes the change {marker_rule} makes to the markers' "
                                           "values where its condition does not hold") if marker_rule else None}
        variants = [(rule, self.combat_audit(state, entry, modifier) if isinstance(entry, Attack)
                     else self.rules.bombard_audit(state, entry, modifier))
                    for modifier in MODIFIERS if (rule := rules[modifier]) is not None]
        return modifier_left_out(differential, result, truth,
                                 [(rule, variant) for rule, variant in variants
                                  if (variant.differential, variant.result, variant.line) !=
                                  (truth.differential, truth.result, truth.line)], effect)

    def _claims(self, entry: Attack, result: FmAudit, section: str, why: str = "",
                codes: Collection[str] = ()) -> list[Finding]:
        """The claimed differential and result against the table (a warning without a die); `why`: the words
        naming the modifier the claim misread, whose clause `section` then is."""
        # The die and the lack of one are the procedure's (8.2.1 d), whatever modifier was misread.
        procedure = "8.2.1d" if why else section
        out = []
        if entry.odds is not None:
            claimed = entry.odds.lstrip("+")
            if ":" in claimed or not claimed.lstrip("-").isdigit() or int(claimed) != result.differential:
                out.append(self._f("error", section, entry, f"the differential is {result.differential:+d} "
                                                            f"({result.attack} - {result.defence}), not {entry.odds}"
                                                            + why))
        if entry.die is not None and not 1 <= entry.die <= 6:
            out.append(self._f("error", procedure, entry, f"a die roll is 1 to 6, not {entry.die}"))
        elif entry.die is None:
            what = f"result {entry.result}" if entry.result is not None else "the result"
            out.append(self._f("warning", procedure, entry, f"{what} cannot be verified: no die roll is recorded"))
        elif entry.result is not None and entry.result != result.result:
            out.append(self._f("error", section, entry, f"differential {result.differential:+d} on the {result.line} "
                                                        f"line (column {result.column}) with a {entry.die} gives "
                                                        f"{result.result}, not {entry.result}"
                                                        + unknown_result(entry.result, codes) + why))
        elif entry.result is None:
            out.append(self._f("note", procedure, entry, f"the result is {result.result} (differential "
                                                       f"{result.differential:+d}, {result.line} line, column "
                                                       f"{result.column})"))
        # A differential and a result both what one modifier left out gives are one breach: one error.
        return one_error(out, "the same modifier left out: one error") if why else out

    def _check_attack(self, state: S, entry: Attack) -> list[Finding]:
        if entry.more_hexes:
            # 8.0: a single attack attacks one defending hex; the series has no attack on several.
            return [self._f("error", "8.0", entry, f"an attack is made on one hex; this one names "
                                                      f"{', '.join(entry.defending_hexes())}: attack each on its own")]
        repeated = entry.named_twice()
        if repeated:
            # 8.2: each attacking unit's strength is added once, whichever procedure (a folio's own too) follows.
            return [self._f("error", "8.2", entry, f"{', '.join(repeated)} {'is' if len(repeated) == 1 else 'are'} "
                                                   "named twice among the attackers; a unit attacks once")]
        folio = self.rules.folio_attack(state, entry)
        if folio is not None:
            return folio
        # 8.2: that the active player attacks in his own Combat and Mobile Combat Phases only is the
        # phases' `entries` in game.toml, which the engine checks first.
        phase = self.rules.phase_id(state)
        side = entry.side or self.rules._unit(state, entry.attackers[0]).side
        defenders = self.rules._defenders(state, entry, side)
        if not defenders:
            return [self._f("error", "8.2", entry, f"hex {entry.hex} holds no enemy unit to attack")]
        out = list(self._attacker_errors(state, entry, side, phase))
        attacked = [u for u in defenders if u in state.log.defended]
        if attacked:
            # A unit attacking again the unit it attacked in this phase is one breach (8.2's, on the attacker):
            # that the defender is attacked twice is the same attack, a note.
            again = any((a, d) in state.log.engaged for a in entry.attackers for d in attacked)
            out.append(self._f("note" if again else "error", "8.0", entry,
                               f"{', '.join(attacked)} has already been attacked in this phase; a unit suffers one "
                               "attack a phase" + (" (by the same unit again: one error, above)" if again else "")))
        out += self.rules.attack_checks(state, entry)
        out += self.rules._check_support(state, entry, side)
        if out:
            return out
        result = self.combat_audit(state, entry)
        return self.with_basis(state, entry, result, self._claims(
            entry, result, *(self.left_out_rule(state, entry, result, "8.2.2") or ("8.2.1d", "")),
            codes=result_codes(state.game)))

    def with_basis(self, state: S, entry: Attack | Bombard, result: FmAudit, findings: list[Finding]) -> list[Finding]:
        """The claims' findings with the data they rest on: the differential's (units' values, the hex's terrain,
        the hexsides attacked across, the markers), and the table's cell for a result ("differential ... gives",
        "the result is"); a warning (no die) or a die out of range rests on no data."""
        if not any(f.message.startswith(("the differential", "differential", "the result is")) for f in findings):
            return list(findings)  # nothing rests on the data: the records are not looked up
        game = state.game
        target = game.grid.hex_of(entry.hex)
        side = entry.side or (self.rules._unit(state, entry.attackers[0]).side if isinstance(entry, Attack) else "")
        attackers = list(entry.attackers) if isinstance(entry, Attack) else []
        defenders = self.rules.defending(state, self.rules._defenders(state, entry, side))
        # The hexsides attacked across (a folio's own attack from the hex itself, a beach assault: none).
        sides = [Hexside.between(h, target) for u in attackers if self.rules._on_map(state, u) is not None
                 and (h := game.grid.hex_of(state.location[u])).distance(target) == 1]
        records = attack_records(game, target, [(u, u in state.depleted) for u in attackers],
                                 [(u, u in state.depleted) for u in defenders], sides, entry.support,
                                 ("attack", "defence"))
        die = entry.die
        cell = (crt_cell(game, result.column, die, result.line),) \
            if game.crt is not None and die is not None and die in game.crt.die_rolls else ()
        out = []
        for f in findings:
            if f.message.startswith("the differential"):
                f = f.with_basis(*records)
            elif f.message.startswith(("differential", "the result is")):
                f = f.with_basis(*records, *cell)
            out.append(f)
        return out

    def _attacker_errors(self, state: S, entry: Attack, side: str, phase: str | None) -> Iterator[Finding]:
        """8.2, 8.3.1, 8.5, 4.1 and a folio's clauses: why the rules refuse attacking units, each fault once naming
        every unit it concerns (one fault of several units is one breach); a unit refused for several reasons is
        one error, its first (the others notes, house style 16)."""
        faults: dict[AttackFault, list[str]] = {}
        first: set[AttackFault] = set()
        for unit_id in dict.fromkeys(entry.attackers):
            found = list(self._unit_faults(state, entry, side, phase, unit_id))
            for name, fault in found:
                faults.setdefault(fault, []).append(name)
            if found:
                first.add(found[0][1])
        for fault, names in faults.items():
            said = f"{', '.join(names)} {fault.many if len(names) > 1 else fault.one}"
            if fault in first:
                yield self._f("error", fault.section, entry, said)
            else:
                # A unit that attacked and advanced (or was displaced) is refused for each reason: one unit's one
                # attack is one breach, given for its first reason.
                yield self._f("note", fault.section, entry, f"{said} (the same unit's attack is refused for another "
                                                            "reason above: one error)")

    def _unit_faults(self, state: S, entry: Attack, side: str, phase: str | None,
                     unit_id: str) -> Iterator[tuple[str, AttackFault]]:
        """Why the rules refuse one attacking unit, with how the unit is named, in the order they are judged."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        unit = self.rules._unit(state, unit_id)
        here = self.rules._on_map(state, unit_id)
        if unit.side != side:
            yield unit_id, AttackFault("8.2", f"is not a {side} unit", f"are not {side} units")
            return
        if here is None or not here.is_adjacent(target):
            yield f"{unit_id} at {state.location.get(unit_id)}", AttackFault(
                "8.2", f"is not adjacent to {entry.hex}", f"are not adjacent to {entry.hex}")
            return
        side_features = game.hexside_features.get(Hexside.between(here, target), frozenset())
        if any(game.terrain[f].prohibited for f in side_features):
            yield f"{unit_id} ({state.location[unit_id]}-{entry.hex})", AttackFault(
                "8.2", "cannot attack across a prohibited hexside", "cannot attack across prohibited hexsides")
        if phase == "mobile_combat" and unit.mobility != "mobile":
            yield unit_id, AttackFault("4.1", "is a leg unit; only mobile units attack in the Mobile Combat Phase",
                                       "are leg units; only mobile units attack in the Mobile Combat Phase")
        elif phase == "mobile_combat" and unit_id in state.log.attacked_in_combat:
            yield unit_id, AttackFault("8.2", "attacked in the Combat Phase and does not attack again in the Mobile "
                                              "Combat Phase", "attacked in the Combat Phase and do not attack again "
                                                              "in the Mobile Combat Phase")
        if unit_id in state.log.attacked:
            yield unit_id, AttackFault("8.2", "has already attacked in this phase; strengths are unitary",
                                       "have already attacked in this phase; strengths are unitary")
        if unit_id in state.log.displaced:
            yield unit_id, AttackFault("8.3.1", "was displaced this player turn and attacks no more in it (8.3.1)",
                                       "were displaced this player turn and attack no more in it (8.3.1)")
        if unit_id in state.log.advanced:
            yield unit_id, AttackFault("8.5", "advanced after combat this player turn and does nothing more in it",
                                       "advanced after combat this player turn and do nothing more in it")
        for fault in self.rules.attacker_checks(state, entry, unit_id):
            yield unit_id, fault

    def _refusal(self, state: S, entry: Attack, side: str) -> tuple[tuple[str, ...], bool]:
        """The attacking units the rules let attack (on the map, each without a fault of `_unit_faults`), and whether
        the rules refuse the attack outright: out of its side's combat phases, on several hexes or on a hex with no
        enemy unit, a defender attacked by another unit already this phase, or no attacking unit left (8.0, 8.2,
        8.2.1 a; the rulings register: such an attack owes nothing)."""
        phase = self.rules.phase_id(state)
        able = tuple(u for u in dict.fromkeys(entry.attackers) if self.rules._on_map(state, u) is not None
                     and not any(True for _ in self._unit_faults(state, entry, side, phase, u)))
        slot = self.rules.slot(state)
        types = [self.rules._unit(state, u).type for u in entry.attackers]
        defenders = self.rules._defenders(state, entry, side)
        again = [d for d in defenders if d in state.log.defended]
        whole = slot is None or not slot.allows("attack", side, types) or bool(entry.more_hexes) or not defenders \
            or bool(again) and not any((a, d) in state.log.engaged for a in entry.attackers for d in again)
        return able, whole or not able

    def _open_combat(self, state: S, entry: Attack) -> FmCombat:
        """The combat an attack opens: its known result (claimed, else the table's for the die)."""
        side = self.rules._unit(state, entry.attackers[0]).side
        result = entry.result
        if result is None and entry.die is not None and 1 <= entry.die <= 6:
            result = self.combat_audit(state, entry).result
        attackers = tuple(u for u in dict.fromkeys(entry.attackers) if self.rules._on_map(state, u) is not None)
        special = self.rules.is_special_attack(state, entry)
        defenders = () if special is not None else tuple(self.rules.defending(state, self.rules._defenders(state, entry, side), entry.defender))
        steps = tuple((u, self.rules._steps(state, u)) for u in (*attackers, *defenders))
        table = None
        if entry.result is not None and entry.die is not None and 1 <= entry.die <= 6 and attackers:
            actual = (self.rules.special_audit(state, entry) or self.combat_audit(state, entry)).result
            table = actual if actual != entry.result else None
        if special is not None:
            # A folio's own attack by a unit that has attacked in this phase is refused outright (its one error the
            # folio's: Omaha's one beach assault a hex, 11.2.3): nothing of its result is owed.
            again = any(u in state.log.attacked for u in attackers)
            return FmCombat(entry.line, entry.column, entry.hex, result, attackers, defenders, steps, special=special,
                            table=table, refused=again)
        able, refused = self._refusal(state, entry, side)
        if refused:
            return FmCombat(entry.line, entry.column, entry.hex, result, attackers, defenders, steps, refused=True)
        if entry.die is not None and 1 <= entry.die <= 6 and len(able) < len(attackers):
            # A unit the rules refuse (not next to the hex, attacking again...: 8.2's one error on the attack) adds
            # nothing and takes no part: the others' result is owed; the claim (or the result as written) is followed
            # too.
            table = self.combat_audit(state, replace(entry, attackers=list(able), odds=None, result=None)).result
            return FmCombat(entry.line, entry.column, entry.hex, result, attackers, defenders, steps, table=table,
                            table_attackers=able)
        return FmCombat(entry.line, entry.column, entry.hex, result, attackers, defenders, steps, table=table)

    def _attack_applied(self, state: S, entry: Attack) -> S:
        """8.2: the attackers have attacked, the defenders been attacked, and the combat is open. The units the rules
        refuse have not attacked, and an attack refused outright attacked nobody (the rulings register): they may
        attack, and be attacked, lawfully after it."""
        side = self.rules._unit(state, entry.attackers[0]).side
        combat = self._open_combat(state, entry)
        placed = self.rules._placed(state, entry)
        if combat.refused:
            return evolve(placed, combat=combat)
        attackers = list(entry.attackers) if combat.special is not None else \
            [u for u in entry.attackers if u in (combat.table_attackers or combat.attackers)]
        in_combat = {u for u in attackers if self.rules.phase_id(state) == "combat"
                     and self.rules._unit(state, u).mobility == "mobile"}
        defenders = self.rules._defenders(state, entry, side)
        return evolve(placed, log=evolve(placed.log, attacked=state.log.attacked | set(attackers),
                                         defended=state.log.defended | set(defenders),
                                         engaged=state.log.engaged | {(a, d) for a in attackers for d in defenders},
                                         attacked_in_combat=state.log.attacked_in_combat | in_combat),
                      combat=combat)


def result_codes(game: Game) -> Collection[str]:
    """The combat results table's result codes (none without a table)."""
    return game.crt.result_codes if game.crt is not None else ()


def unknown_result(claimed: str, codes: Collection[str]) -> str:
    """Words for a claimed result the table does not have (a typo more than a misreading), else nothing."""
    if not codes or claimed in codes:
        return ""
    return f"; {claimed} is no result of the table{did_you_mean(claimed, sorted(codes))}"

