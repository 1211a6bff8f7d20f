"""Reinforcements and replacements (11.1.2, 11.1.3, 11.2.1's late landings, 11.2.4, 11.2.5; the
campaign's, 14.0 b, g): who is due when, where each may arrive, and the replacement points.

Ruling (docs/rules-coverage.md's register, rows Omaha 11.2.4 and 11.2.1 / 11.2.3 / 11.2.4): an Allied landing is
written any time in the Movement Phase and placed as it ends, so its `reinforce` line is judged on what the phase
does not change (the turn, a beach landing hex with a beachhead marker, or which clause took the marker away), and
what hangs on where Allied units stand (room, units that left the beach, an enemy zone of control held) as the phase
ends.
"""

from __future__ import annotations

from dataclasses import replace

from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Comment, Entry, Place
from adjudicator.systems.omaha.base import Area, OmahaRules, scenario_of
from adjudicator.systems.omaha.state import OmahaState
from wargame.models import Arrival


class Arrivals(Area):
    """11.1.2, 11.1.3, 11.2.4, 11.2.5."""

    def first_hex_cost(self, state: OmahaState, unit_id: str) -> float:
        """11.1.2: a German reinforcement has paid its first hex's cost on entering."""
        return dict(state.log.entered).get(unit_id, 0.0)

    def _full_on_arrival(self, state: OmahaState, unit_id: str) -> bool:
        """11.1.2: a German reinforcement moves its full MA on the GT it arrives, inclement weather
        or not, except in the campaign game (where 14.1 halves it like any other)."""
        return not self.rules._campaign(state) and unit_id in dict(state.log.entered)

    def _arrivals_due(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """11.1.2, 11.2.4: at the end of a Movement Phase, the side's reinforcements due that could arrive: one
        error for the phase, each other unit a note; a unit reported is not reported again (a lasting condition)."""
        out = [self._f("error", section, entry, f"{self.rules._where(state)} ends without {row.unit}, due on GT {row.turn}, "
                                                "though it could arrive") for row, section in self._late_arrivals(state)]
        return one_error(out, "another reinforcement left off in the same phase: one error")

    def _late_arrivals(self, state: OmahaState) -> list[tuple[Arrival, str]]:
        """The reinforcements due that could arrive as this Movement Phase ends and were not reported late before,
        with the section they break (11.1.2 German, 11.2.4 Allied)."""
        if self.rules.phase_id(state) != "movement" or not state.set_up:
            return []
        side = self.rules.active(state) or ""
        section = "11.1.2" if side == "German" else "11.2.4"
        return [(row, section) for row in self._due(state, side)
                if row.unit not in state.late and self.entry_hexes(state, row.unit, row.entry)]

    def _reported_late(self, state: OmahaState) -> frozenset[str]:
        """The reinforcements reported late, with those this phase's end reports."""
        return state.late | {row.unit for row, _ in self._late_arrivals(state)}

    def misplacement_reported(self, state: OmahaState, entry: Entry) -> str | None:
        """11.1.2, 11.2.4: a reinforcement reported late as its side's Movement Phase ended, placed later in its side's
        player turn: the lateness was the one error, so the placement is judged where it is (a placement in the
        enemy's player turn is a breach of its own)."""
        if not isinstance(entry, Place) or entry.how != "reinforce" or entry.unit not in state.late:
            return None
        side = self.rules._unit(state, entry.unit).side
        if self.rules.active(state) != side:
            return None
        section = "11.1.2" if side == "German" else "11.2.4"
        return f"{entry.unit} was reported late ({section}) as a {side} Movement Phase ended without it: one error"

    def stacked_by_arrival(self, state: OmahaState, entry: Place) -> frozenset[str]:
        """5.3 with 11.1.2, 11.2.4: the reinforcement and its side's units on the hex it is placed on, when they are
        more than the hex takes and the placement is refused for it (off a beach landing hex; `_barred` for a German
        one, a hex not of its entry for an Allied one); a landing's room is judged as the Movement Phase ends."""
        game = state.game
        label = entry.hex or ""
        if entry.how != "reinforce" or not game.grid.is_label(label) or entry.unit not in game.units_by_id or \
                label in self.rules.landing_hexes(state):
            return frozenset()
        side = self.rules._unit(state, entry.unit).side
        there = [u for u, w in state.location.items() if w == label and u != entry.unit]
        if any(self.rules._unit(state, u).side != side for u in there):
            return frozenset()  # onto an enemy: its own error; the phase's end judges the own units there
        return frozenset(there) | {entry.unit} if len(there) + 1 > self.rules.stack_limit(state, label) \
            else frozenset()

    def _schedule(self, state: OmahaState) -> list[Arrival]:
        """The scenario's reinforcements, with the assault units that could not land for stacking:
        they arrive on GT 2 on the beach landing hexes (11.2.1)."""
        known = scenario_of(state)
        rows = list(known.reinforcements)
        if state.at.turn >= 1 and state.set_up:
            location, late = state.location, known.late_landings
            for unit, box in known.assault_setup:
                if location.get(unit) == box and unit != known.ranger:
                    if unit not in late:
                        late[unit] = Arrival(scenario=state.scenario, turn=2, unit=unit, entry="omaha_beach",
                                             source="11.2.1")
                    rows.append(late[unit])
        return rows

    def follow_up(self, state: OmahaState, entry: Entry, found: list[Finding]) -> list[Finding]:
        """11.1.2, 11.2.4 (house style 16): an error of an entry about a reinforcement due and never placed is a note:
        the players act as if the placement left out were there, and its absence is the one error, as its side's
        Movement Phase ends (or reported late already)."""
        if isinstance(entry, Place) or not any(f.severity == "error" for f in found):
            return found  # a placement is judged as one: the reinforcement arriving, late or not
        unplaced = [u for u in entry.acting_units() if u not in state.unlanded and self.left_off(state, u)]
        return [replace(f, severity="note", message=f"{f.message} (not a breach of its own: {unit}, a reinforcement "
                                                    "due, was never placed: one error, as its side's Movement Phase "
                                                    "ends, 11.1.2, 11.2.4)")
                if f.severity == "error" and (unit := next((u for u in unplaced if u in f.message), None)) else f
                for f in found]

    def left_off(self, state: OmahaState, unit_id: str) -> bool:
        """11.1.2, 11.2.4: whether a unit is a reinforcement due by this turn and never placed (its placement left out:
        one error as its side's Movement Phase ends, or reported late already)."""
        if unit_id not in state.game.units_by_id or self.rules._on_map(state, unit_id) is not None:
            return False
        return unit_id in state.late or any(row.unit == unit_id
                                            for row in self._due(state, self.rules._unit(state, unit_id).side))

    def _due(self, state: OmahaState, side: str) -> list[Arrival]:
        """The side's reinforcements due by this turn and not yet arrived (11.1.2, 11.2.1, 11.2.4)."""
        boxes = self.rules._assault_boxes(state)
        return [row for row in self._schedule(state) if row.turn <= state.at.turn
                and self.rules._unit(state, row.unit).side == side and self.rules._on_map(state, row.unit) is None
                and (state.location.get(row.unit) is None or state.location.get(row.unit) in boxes)]

    def _entry_labels(self, state: OmahaState, unit_id: str, entry_area: str | None) -> list[str]:
        """The hexes of a reinforcement's entry: its hex or its area's (11.1.2); an Allied one's beach (11.2.4), in
        the campaign game every Allied beach area's (14.0 b)."""
        game = state.game
        if entry_area is None:
            return []
        if self.rules._unit(state, unit_id).side == "Allied" and self.rules._campaign(state):
            return sorted(self.rules._beach(state))  # 14.0 b: any beach area
        return [entry_area] if game.grid.is_label(entry_area) else list(game.areas_by_id[entry_area].hexes) \
            if entry_area in game.areas_by_id else []

    def entry_hexes(self, state: OmahaState, unit_id: str, entry_area: str | None) -> list[str]:
        """Where a reinforcement may arrive now: its hex or area, not enemy-held, not in an EZOC, not onto another
        unit (11.1.2); Allied beach landing hexes with a beachhead marker and room, none holding a unit that has
        left a beach landing hex (11.2.1), in an EZOC only if Allied units hold them (11.2.4)."""
        return [label for label in self._entry_labels(state, unit_id, entry_area)
                if not self.rules._out_of_play(state, label) and self._barred(state, unit_id, label) is None
                and self._can_stay(state, unit_id, label)]

    def _barred(self, state: OmahaState, unit_id: str, label: str) -> tuple[str, str] | None:
        """(section, why) a reinforcement may not arrive on a hex of its entry whoever else moves in the phase: for an
        Allied one, a beach hex without a beachhead marker (11.2.1, 11.2.3) or enemy-held; for a German one (its
        entry is judged as it is written, 11.1.2) an enemy unit, an EZOC or another unit there; None if none."""
        unit = self.rules._unit(state, unit_id)
        here = [u for u, w in state.location.items() if w == label]
        enemies = [u for u in here if self.rules._unit(state, u).side != unit.side]
        if unit.side == "Allied":
            if label not in self.rules.landing_hexes(state):
                return self._no_marker(state, label)
            if enemies:
                return "11.2.4", f"{', '.join(sorted(enemies))} holds {label}"
            return None
        if enemies:
            return "11.1.2", f"{', '.join(sorted(enemies))} holds {label}"
        if state.game.grid.hex_of(label) in self.rules.ezoc(state, unit.side):
            return "11.1.2", f"{label} is in an enemy zone of control"
        if here:
            return "11.1.2", f"{', '.join(sorted(here))} already stands on {label}"
        return None

    def _no_marker(self, state: OmahaState, label: str) -> tuple[str, str]:
        """(section, why) a beach hex has no beachhead marker: its beach assault's units all eliminated (11.2.3), a
        German unit entered it, or none of the landing put there (11.2.1)."""
        if label in state.wiped_out:
            return "11.2.3", "its beachhead marker was removed for good when every unit of its beach assault was " \
                             "eliminated"
        if label in dict(state.landing or ()) or state.controlled.get(label) == "German":
            return "11.2.1", "a German unit entered it, which removed its beachhead marker"
        return "11.2.1", "no assault unit landed there before GT 1, so it kept no beachhead marker"

    def _can_stay(self, state: OmahaState, unit_id: str, label: str) -> bool:
        """Whether an Allied reinforcement landed on a beach landing hex now may stand there as the Movement Phase
        ends, where 11.2.4 places it: room (5.3's three), no unit there that has left a beach landing hex (11.2.1),
        and out of enemy zones of control unless an Allied unit that did not land this phase holds it (11.2.4). A
        German one's arrival is judged by `_barred`."""
        unit = self.rules._unit(state, unit_id)
        if unit.side != "Allied":
            return True
        here = [u for u, w in state.location.items() if w == label]
        if len(here) >= self.rules.stack_limit(state, label) or not state.left_beach.isdisjoint(here):
            return False
        return state.game.grid.hex_of(label) not in self.rules.ezoc(state, unit.side) or \
            self._is_held(state, label, unit.side)

    def _is_held(self, state: OmahaState, label: str, side: str) -> bool:
        """11.2.4: whether a unit of the side that did not land this Movement Phase stands on a beach landing hex
        (reinforcements are placed together as the phase ends: one of them holds no hex for the others)."""
        return any(w == label and u not in state.log.landed and self.rules._unit(state, u).side == side
                   for u, w in state.location.items())

    def _landed_unheld(self, state: OmahaState, entry: Entry) -> list[Finding]:
        """11.2.4: as the Allied Movement Phase ends, where its reinforcements are placed (written any time in the
        phase), none stands on a beach landing hex in an enemy zone of control that no other Allied unit holds."""
        if self.rules.phase_id(state) != "movement" or not state.log.landed:
            return []
        landed = self._landed_by_hex(state)
        ezoc = self.rules.ezoc(state, "Allied")
        return [self._f("error", "11.2.4", entry, f"{self.rules._where(state)} ends with {', '.join(units)} landed on "
                                                f"{where}, in an enemy zone of control with no other Allied unit "
                                                "there; reinforcements are placed as the phase ends, on such a hex "
                                                "only where Allied units stand (11.2.4)")
                for where, units in sorted(landed.items())
                if state.game.grid.hex_of(where) in ezoc and not self._is_held(state, where, "Allied")]

    def _landings_when_the_log_ends(self, state: OmahaState) -> list[Finding]:
        """11.2.4: a log ending inside the Allied Movement Phase never reaches its end, where the landings are
        placed: each is judged where it stands, as a note (the phase is still open: a later entry could set it
        right, and a landing that would break a rule there is not yet placed)."""
        by_hex = self._landings_at_the_end(state)
        if not by_hex:
            return []
        lines = dict(state.log.landing_lines)
        ezoc = self.rules.ezoc(state, "Allied")
        out = []
        for where, units in sorted(by_hex.items()):
            here = [u for u, w in state.location.items() if w == where]
            left = sorted(u for u in here if u in state.left_beach)
            limit = self.rules.stack_limit(state, where)
            if len(here) > limit:
                section, why = "5.3", f"{where} holds {len(here)} units and {limit} may stay there (5.3)"
            elif left:
                section, why = "11.2.1", f"{', '.join(left)} stands there, and a unit that has left a beach landing " \
                                         "hex never stacks again (11.2.1)"
            elif state.game.grid.hex_of(where) in ezoc and not self._is_held(state, where, "Allied"):
                section, why = "11.2.4", "it is in an enemy zone of control with no other Allied unit there (11.2.4)"
            else:
                continue
            at = Comment(line=max(lines.get(u, 0) for u in units), text="")  # the hex's last landing
            out.append(self._f("note", section, at, f"the log ends inside {self.rules._where(state)}, whose end "
                                                    f"places its landings (11.2.4): {', '.join(units)} landed on "
                                                    f"{where} could not stay there if the phase ended now: {why}"))
        return out

    def _landings_at_the_end(self, state: OmahaState) -> dict[str, list[str]]:
        """11.2.4: the beach landing hexes with the units landed on them, when the log ends inside the Allied Movement
        Phase (their stacks are judged by `_landings_when_the_log_ends`, 5.3's room among them)."""
        if self.rules.phase_id(state) != "movement" or not state.log.landed or state.victory is not None:
            return {}
        return self._landed_by_hex(state)

    def _landed_by_hex(self, state: OmahaState) -> dict[str, list[str]]:
        """11.2.4: the units landed this Movement Phase on each beach landing hex (elsewhere the landing's one error
        was on its entry)."""
        landing = self.rules.landing_hexes(state)
        by_hex: dict[str, list[str]] = {}
        for unit_id in sorted(state.log.landed):
            where = state.location.get(unit_id, "")
            if where in landing:
                by_hex.setdefault(where, []).append(unit_id)
        return by_hex

    def _check_replace(self, state: OmahaState, entry: Place) -> list[Finding]:
        """11.1.3, 11.2.5: the Allies rebuild one reduced unit on the map, in supply, per replacement
        point of its kind (leg, mobile) received this game turn; the Germans receive none."""
        game = state.game
        unit = self.rules._unit(state, entry.unit)
        if unit.side != "Allied":
            return [self._f("error", "11.1.3", entry, "the German side receives no replacements (11.1.3)")]
        points = sum(r.amount for _, r in game.replacements if r.scenario == state.scenario
                     and r.turn == state.at.turn and r.side == "Allied" and r.kind == unit.mobility)
        used = state.log.replaced.count(unit.mobility)
        out = []
        where = state.location.get(entry.unit, "")
        if self.rules._on_map(state, entry.unit) is None or entry.unit not in state.depleted:
            out.append(self._f("error", "11.2.5", entry, f"{entry.unit} is not a reduced unit on the map; only those "
                                                       "are rebuilt (11.2.5)"))
        elif self.rules.is_out_of_supply(state, entry.unit):
            out.append(self._f("error", "11.2.5", entry, f"{entry.unit} at {where} is out of supply (12.0); only units "
                                                       "in supply are rebuilt (11.2.5)"))
        if used >= points:
            # 14.0: the campaign's rates, with the scenario's own on top (14.0 g), all in the data.
            rates = "14.0 and 11.2.5" if self.rules._campaign(state) else "11.2.5"
            out.append(self._f("error", "14.0g" if self.rules._campaign(state) else "11.2.5", entry,
                               f"the Allies have {points - used if points > used else 0} {unit.mobility} replacement "
                               f"point(s) left on GT {state.at.turn} ({points} received, {rates})"))
        if entry.hex is not None and entry.hex != where:
            out.append(self._f("error", "11.2.5", entry, f"{entry.unit} is rebuilt where it stands, {where}"))
        # One replacement written is one decision: the first thing that bars it is the error, the rest notes.
        return one_error(out, "the same replacement breaks {rule} above: one error")

    def _check_reinforce(self, state: OmahaState, entry: Place) -> list[Finding]:
        """11.1.2, 11.2.4: a scheduled reinforcement, on its turn or later, where it may arrive (in its side's
        Movement Phase: the engine's check, 4.1)."""
        game = state.game
        unit = self.rules._unit(state, entry.unit)
        section = "11.1.2" if unit.side == "German" else "11.2.4"
        # 4.1: that reinforcements arrive in their side's Movement Phase is the phase's `entries` in game.toml
        # (the engine's check).
        row = next((r for r in self._schedule(state) if r.unit == entry.unit), None)
        if row is None:
            return [self._f("error", section, entry, f"{entry.unit} is not a reinforcement of this scenario")]
        if row.turn > state.at.turn:
            return [self._f("error", section, entry, f"{entry.unit} arrives on GT {row.turn}, not {state.at.turn}")]
        if self.rules._on_map(state, entry.unit) is not None:
            return [self._f("error", section, entry, f"{entry.unit} is already on the map")]
        if unit.side == "Allied" and state.at.turn == 1:
            return [self._f("error", "11.2.4", entry, "Allied reinforcements land after GT 1 (11.2.4)")]
        labels = self._entry_labels(state, entry.unit, row.entry)
        if entry.hex not in labels:
            if unit.side == "Allied":
                marked = ', '.join(sorted(self.rules.landing_hexes(state))[:6]) or "none is left"
                where = f"on any beach landing hex with a beachhead marker, of any beach area ({marked}; 14.0 b)" \
                    if self.rules._campaign(state) else f"on a beach landing hex with a beachhead marker ({marked})"
            else:
                where = f"at {row.entry}" if row.entry and game.grid.is_label(row.entry) else \
                    f"on {game.areas_by_id[row.entry].name}" if row.entry in game.areas_by_id else "at its entry"
            return [self._f("error", section, entry, f"{entry.unit} arrives {where}, not {entry.hex} ({section})")]
        if self.rules._out_of_play(state, entry.hex):
            return []  # 10.1's error, on the same entry (ScenarioBoundary)
        barred = self._barred(state, entry.unit, entry.hex)
        if barred is not None:
            clause, why = barred
            if unit.side == "Allied" and entry.hex not in self.rules.landing_hexes(state):
                left = ", ".join(sorted(self.rules.landing_hexes(state))[:6]) or "no hex"
                why += f"; beachhead markers remain on {left}"
            return [self._f("error", clause, entry, f"{entry.unit} cannot arrive on {entry.hex}: {why} ({clause})")]
        # 11.2.4: what hangs on where the Allied units stand (room, units that left the beach, an EZOC held) is
        # judged as the Movement Phase ends, where reinforcements are placed (5.3, `closing`).
        return []

    def _entry_cost(self, state: OmahaState, label: str) -> float:
        """11.1.2: the MP a unit entering the map pays for its first hex (its terrain; the map edge has
        no hexside feature in our data, so nothing more)."""
        game = state.game
        h = game.grid.hex_of(label)
        terrain = game.terrain
        kinds = game.hex_terrain.get(h, ())
        base = max((float(c) for t in kinds if (c := terrain[t].mp_cost) is not None), default=1.0)
        return base + sum(float(terrain[t].mp_add or 0) for t in kinds)
