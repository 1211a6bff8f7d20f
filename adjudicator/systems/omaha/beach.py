"""The beach (11.2.1, 11.2.3, 11.2.4): beach assaults before GT 1 (every unit on the hex, against a
defence of zero), stacks of three on a beach landing hex that defend and attack with one unit, the
landed units' GT 1, and units that have left a beach landing hex never stacking again.

Rulings: docs/rules-coverage.md's register, rows Omaha 11.2.1, 11.2.3, 11.2.4.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from adjudicator.findings import Finding
from adjudicator.notation.entries import Attack, Comment, Entry, Loss, Move, Retreat, StandFast
from adjudicator.systems.fire_and_movement.combat import FmAudit, audit, unit_values
from adjudicator.systems.fire_and_movement.ground_combat import result_codes
from adjudicator.systems.fire_and_movement.results import AttackFault, FmCombat, SpecialAttack
from adjudicator.systems.omaha.base import Area
from adjudicator.systems.omaha.state import OmahaState


BEACH_ASSAULT = SpecialAttack("beach assault", "11.2.3")
"""11.2.3: the units landed on a beach hex assault it against a defence of zero; no defender, no advance, and a
retreat result reduces every assaulting unit."""


class BeachAssaults(Area):
    """11.2.1, 11.2.3, 11.2.4."""

    def is_special_attack(self, state: OmahaState, entry: Attack) -> SpecialAttack | None:
        """11.2.3: a beach assault has no defender and no advance."""
        return BEACH_ASSAULT if self.rules._is_beach_assault(state, entry) else None

    def special_audit(self, state: OmahaState, entry: Attack) -> FmAudit | None:
        """11.2.3: a beach assault's arithmetic."""
        return self.beach_audit(state, entry) if self.rules._is_beach_assault(state, entry) else None

    def folio_attack(self, state: OmahaState, entry: Attack) -> list[Finding] | None:
        """11.2.3: a beach assault is checked by its own rules; before GT 1 it is the only attack."""
        if self.rules._is_beach_assault(state, entry):
            return self._check_beach_assault(state, entry)
        if state.at.turn == 0 and state.at.step is None:
            # The landing allows the Allied player's attacks (game.toml's `entries`) for the beach assaults
            # only; any other attack waits for a Combat Phase (8.2). A beach's assault naming only units that have not
            # landed is the players' follow-up of that one breach (11.0's error as GT 1 begins): a note.
            if state.set_up and entry.hex in self.rules._beach(state) and \
                    all(self.rules._on_map(state, u) is None and
                        self.rules._setup_box(state, u) in self.rules._assault_boxes(state) for u in entry.attackers):
                return [self._f("note", "11.2.3", entry, f"{', '.join(entry.attackers)} has not landed on "
                                                       f"{entry.hex}: one error as GT 1 begins (11.0)")]
            return [self._f("error", "8.2", entry, f"before GT 1 the only attacks are the beach assaults, each from "
                                                   f"a beach landing hex its units hold (11.2.3); {entry.hex} is not "
                                                   "one: attacks wait for a Combat Phase (8.2)")]
        return None

    def attacker_checks(self, state: OmahaState, entry: Attack, unit_id: str) -> list[AttackFault]:
        """11.2.1: the landed units' beach assault was their only action of GT 1."""
        if self._landed_on_gt1(state, unit_id):
            return [AttackFault("11.2.1", "landed on the beach; its beach assault was its only action of GT 1 (11.2.1)",
                                "landed on the beach; their beach assault was their only action of GT 1 (11.2.1)")]
        return []

    def attack_checks(self, state: OmahaState, entry: Attack) -> list[Finding]:
        """11.2.4: one unit of a beach landing stack attacks a given hex."""
        out = []
        stacked = Counter(state.location[u] for u in dict.fromkeys(entry.attackers)
                          if state.location.get(u) in self.rules.landing_hexes(state))
        for where, n in sorted(stacked.items()):
            if n > 1:
                out.append(self._f("error", "11.2.4", entry, f"{n} units of the stack in {where} attack {entry.hex}; "
                                                           "outside a beach assault one unit of a beach landing stack "
                                                           "attacks a given hex (11.2.4)"))
        return out

    def _restacks(self, state: OmahaState) -> list[tuple[str, frozenset[str]]]:
        """11.2.1: the hexes where a unit that has left a beach landing hex stands with another, with their units
        (within the hex's stacking limit: beyond it the overstack is 5.3's)."""
        if not state.left_beach:
            return []
        return [(where, here) for where, here in self.rules._crowded(state)
                if not here.isdisjoint(state.left_beach) and len(here) <= self.rules.stack_limit(state, where)]

    def _stacked_again(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """11.2.1: as a phase ends, a unit that has left a beach landing hex stacks with no other (reported once
        while it lasts, house style 16; a unit joining the stack is a new breach)."""
        known = dict(state.restacked)
        out = []
        for where, here in self._restacks(state):
            if here <= known.get(where, frozenset()):
                continue
            again = sorted(u for u in here if u in state.left_beach)
            others = sorted(here - set(again))
            company = f" with {', '.join(others)}" if others else ""
            out.append(self._f("error", "11.2.1", entry, f"{self.rules._where(state)} ends with {', '.join(again)} "
                                                       f"stacked in {where}{company}; a unit that has left a beach "
                                                       "landing hex never stacks again (11.2.1)"))
        return out

    def _restacks_when_the_log_ends(self, state: OmahaState) -> list[Finding]:
        """11.2.1: a log ending inside a phase never reaches its end, where a unit that has left a beach landing hex
        and stands with another is judged: each such stack not yet reported is a note on the line of the last entry
        that made it (a later entry of the phase could undo it), as 5.3's overstacks are."""
        if state.at.step is None:
            return []
        known = dict(state.restacked)
        noted = self.rules.stacks_noted_at_the_end(state)  # 11.2.4's landings judge their hexes' stacks
        lines = state.log.arrived
        out = []
        for where, here in self._restacks(state):
            arrived = [lines[u] for u in here if u in lines]
            if here <= known.get(where, frozenset()) or where in noted or not arrived:
                continue  # reported as a phase ended, or standing as this one began (judged then)
            again = sorted(u for u in here if u in state.left_beach)
            others = sorted(here - set(again))
            company = f" with {', '.join(others)}" if others else ""
            out.append(self._f("note", "11.2.1", Comment(line=max(arrived), text=""),
                               f"the log ends inside {self.rules._where(state)}, whose end judges stacking: "
                               f"{', '.join(again)} stacked in {where}{company}, and a unit that has left a beach "
                               "landing hex never stacks again (11.2.1), an error if the phase ended now"))
        return out

    def still_restacked(self, state: OmahaState) -> tuple[tuple[str, frozenset[str]], ...]:
        """The stacks of 11.2.1 reported as this phase ends, each kept until it is resolved."""
        if state.at.step is None:
            return state.restacked
        known = dict(state.restacked)
        return tuple((where, here | known.get(where, frozenset())) for where, here in self._restacks(state))

    def untouched(self, state: OmahaState, combat: FmCombat, entry: Loss | Retreat | StandFast,
                  unit_id: str) -> Finding | None:
        """11.2.3, 11.2.4: a unit of a beach landing stack that did not defend it takes none of the result: its
        loss, retreat or stiff resistance breaks the stack rule (11.2.3 for a bombardment, 11.2.4 for an attack),
        not 8.1.3, 8.2.4 or 8.4."""
        if state.location.get(unit_id) != combat.hex or combat.hex not in self.rules.landing_hexes(state):
            return None
        section = "11.2.3" if combat.bombardment else "11.2.4"
        what = "loses a step" if isinstance(entry, Loss) else "retreats" if isinstance(entry, Retreat) else \
            "declares stiff resistance"
        return self._f("error", section, entry, f"{unit_id} {what}, but the stack in {combat.hex} defended "
                                                f"{combat.name} with {', '.join(combat.defenders)} alone, the only "
                                                f"unit its result touches ({section})")

    def defending(self, state: OmahaState, defenders: list[str], chosen: str | None = None) -> list[str]:
        return self._stack_defender(state, defenders, chosen)

    @staticmethod
    def _stack_defender(state: OmahaState, defenders: list[str], chosen: str | None = None) -> list[str]:
        """11.2.3, 11.2.4: a stack on a beach landing hex defends with one unit, the only one the result
        touches: the one its owner selects (the bombarding player for a bombardment), written
        `defender UNIT`; without it, the strongest (the first by id among equals)."""
        if len(defenders) <= 1:
            return defenders
        if chosen in defenders:
            return [chosen]
        game = state.game
        return [max(defenders, key=lambda u: unit_values(game, u, u in state.depleted)[1])]

    def beach_audit(self, state: OmahaState, entry: Attack) -> FmAudit:
        """11.2.3: the assaulting units' strengths and both sides' markers against a defence of zero,
        on the beach assault line within or not within a German ZOC."""
        game = state.game
        target = game.grid.hex_of(entry.hex)
        attackers = [(u, target, unit_values(game, u, u in state.depleted)[0]) for u in entry.attackers]
        line = "beach_ezoc" if target in self.rules.ezoc(state, "Allied") else "beach_no_ezoc"
        result = audit(game, target, attackers, [], self.rules._supports(state, entry, target), False, entry.die, "Allied",
                       lines=[line], lines_why="a beach assault against a defence of zero (11.2.3)")
        return result

    def _check_beach_assault(self, state: OmahaState, entry: Attack) -> list[Finding]:
        """11.2.3: every unit on the beach hex assaults; naval gunfire only on GT 1 (11.2.7)."""
        here = sorted(u for u, w in state.location.items() if w == entry.hex and self.rules._unit(state, u).side == "Allied")
        assaulted = [u for u in entry.attackers if u in state.log.attacked]
        if assaulted:
            # 11.2.3 gives each beach landing hex one beach assault, by every unit on it (ruling 11.2.3): a unit's
            # second is that clause's one error, whatever else it gets wrong, and is refused (nothing of it is owed).
            return [self._f("error", "11.2.3", entry, f"{', '.join(assaulted)} {'has' if len(assaulted) == 1 else 'have'}"
                                                    " made a beach assault already; each beach landing hex makes one, "
                                                    "with every unit on it (11.2.3)")]
        out = []
        missing = [u for u in here if u not in entry.attackers]
        if missing:
            out.append(self._f("error", "11.2.3", entry, f"every unit on {entry.hex} takes part in its beach assault: "
                                                       f"{', '.join(missing)} is missing (11.2.3)"))
        strangers = [u for u in entry.attackers if u not in here]
        # An assault unit not landed at all is 11.0's error as GT 1 begins; named in its beach's assault, it is the
        # players' consistent follow-up of that one breach (a note).
        unlanded = [u for u in strangers if self.rules._on_map(state, u) is None and state.set_up
                    and self.rules._setup_box(state, u) in self.rules._assault_boxes(state)]
        landed_elsewhere = [u for u in strangers if u not in unlanded]
        if landed_elsewhere:
            out.append(self._f("error", "11.2.3", entry, f"{', '.join(landed_elsewhere)} is not on {entry.hex} "
                                                       "(11.2.3)"))
        if unlanded:
            out.append(self._f("note", "11.2.3", entry, f"{', '.join(unlanded)} is not on {entry.hex} (11.2.3): it has "
                                                      "not landed, one error as GT 1 begins (11.0)"))
        out += self.rules._check_support(state, entry, "Allied")
        if any(f.severity == "error" for f in out):
            return out
        result = self.beach_audit(state, entry)
        return out + self.rules.with_basis(state, entry, result, self.rules._claims(entry, result, "11.2.3",
                                                                                 codes=result_codes(state.game)))

    def _landed_on_gt1(self, state: OmahaState, unit_id: str) -> bool:
        """11.2.1: during GT 1, an assault unit that landed on a beach hex (not the Rangers, whom
        11.2.3 governs): its movement ended and its beach assault was its only action."""
        return state.at.turn == 1 and state.set_up and self.rules._setup_box(state, unit_id) in self.rules._assault_boxes(state) \
            and unit_id != self.rules._ranger(state)

    def _leaving(self, state: OmahaState, unit_id: str, path: Sequence[str]) -> frozenset[str]:
        """11.2.1: the units that have left a beach landing hex, with this one if its path does."""
        if len(path) > 1 and path[0] in self.rules.landing_hexes(state) and path[-1] != path[0]:
            return state.left_beach | {unit_id}
        return state.left_beach
