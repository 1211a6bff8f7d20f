"""The synthetic Omaha Beach game of bench/adjudicate.py: random but legal games of the Beach to Bocage
scenario under the Omaha rule system (the Fire & Movement series with Omaha's exclusive rules), generated to time the adjudicator and to fuzz it.

The generator plays the whole scenario: the secret German set-up (11.0: five units off the beach,
two or more next to it, never at Pointe du Hoc), the landing (11.2.1: the six assault regiments on
beach hexes, three a hex at most, sometimes fewer hexes than they need, so that some come on GT 2),
the Pointe du Hoc roll and what it calls for (11.2.3), each beach hex's beach assault with naval
gunfire and both sides' markers (11.2.3, 11.2.7), then every game turn: the Support Fire Marker
Phase (the markers the rules take away, the Allied replacements, 11.1.4, 11.2.5, and with
`[Optional "weather"]` the weather rolls, 14.1), and for each player turn the Movement Phase (moves
chosen at random among the legal ones, reinforcements as the schedule brings them, 11.1.2,
11.2.4), the Bombardment Phase (8.1), the Combat Phase (8.2), the Mobile Movement and Mobile Combat
Phases (5.5), and after the Allied player turn the supply losses (12.0).

Legal moves come from the rule system's own move rule (`OMAHA.movement.move_rule`: costs, zones of control,
the boundary, the allowance) walked by `wargame.paths.reachable`, and arrivals from its
`entry_hexes`; combat arithmetic from
its audits (`combat_audit`, `bombard_audit`, `bombard_effect`: the CRT's data), retreats from its
movement model's `retreat_options` (and a displacement's from `retreat_paths`), supply from `out_of_supply`, the cups from `markers.in_cups`. Markers are drawn at
random from the cups, dice rolled with a seeded `random.Random`, and each result carried out:
losses, retreats (vacant paths first, through friends or with a displacement when none, short and
reduced when no full one is open), stiff resistance now and then, advances along the path of
retreat. Every generated log must replay with no error finding: an error is a bug in the generator
or in the adjudicator.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicator.notation.entries import (  # noqa: E402
    Advance, Attack, Bombard, Entry, Loss, Move, Place, Retreat, RollOff, StandFast, StepMarker, SupportMarkers,
    TurnMarker,
)
from adjudicator.notation.text import write_text  # noqa: E402
from adjudicator.systems.fire_and_movement import markers as pools  # noqa: E402
from adjudicator.systems.fire_and_movement.base import SEQUENCE  # noqa: E402
from adjudicator.systems.fire_and_movement.results import ATTACKER_RETREATS, DEFENDER_RETREATS  # noqa: E402
from adjudicator.systems.omaha import OMAHA, OmahaState, charts  # noqa: E402
from adjudicator.systems.omaha.base import BEACH_STACK, POINTE_DU_HOC  # noqa: E402
from synthetic import SyntheticPlayer, check_clean  # noqa: E402
from wargame.bundled import data_root  # noqa: E402
from wargame.game import Game, load_game  # noqa: E402
from wargame.hexes import Hex, Hexside  # noqa: E402
from wargame.paths import Reach, reachable  # noqa: E402

FM = OMAHA
SCENARIO = "beach_to_bocage"
STAY_CHANCE = 0.15
"""Chance that a unit able to move does not."""
WANDER_CHANCE = 0.15
"""Chance that a moving unit goes to a hex picked at random among its legal ones, not its aim."""
CROWDED_LANDING_CHANCE = 0.15
"""Chance that the Allies land on fewer beach hexes than the assault needs (the rest land on GT 2)."""
DRAW_WRITTEN_CHANCE = 0.7
"""Chance that a side writes its draws (`draw`) for a combat rather than naming the markers only."""
MARKER_CHANCE = 0.55
"""Chance that a player places a marker at each of the four steps of 8.2.1 b."""
STAND_CHANCE = 0.12
"""Chance that a unit told to retreat declares stiff resistance instead (8.4)."""
ADVANCE_CHANCE = 0.7
"""Chance that an attacker advances after a D2 or D3 (8.5)."""
BOMBARD_CHANCE = 0.25
"""Chance that a player bombards a given enemy hex in its Bombardment Phase."""
CLAIM_CHANCE = 0.85
"""Chance that an attack or bombardment writes its result (else the umpire computes it)."""
DIFF_CHANCE = 0.4
"""Chance that an attack or bombardment writes its differential."""
REPLACE_CHANCE = 0.85
"""Chance that the Allies use a replacement point they can use (11.2.5)."""


class OmahaPlayer(SyntheticPlayer):
    """Plays one synthetic Beach to Bocage game."""

    state: OmahaState

    def __init__(self, game: Game, seed: int, optional: Sequence[str] = ()) -> None:
        super().__init__(game, seed, [("Game", "omaha"), ("Scenario", SCENARIO),
                                      *(("Optional", rule) for rule in optional)])
        grid = self.grid
        terrain = game.terrain
        self.beach = sorted(game.areas_by_id["omaha_beach"].hexes)
        self.out_of_play = self.state.beyond.hexes
        # 5.2 e, 10.1: the land hexes in play, where units set up, move and end.
        self.land = frozenset(h for h in grid if h not in self.out_of_play
                              and not any(terrain[t].prohibited for t in game.hex_terrain.get(h, ())))
        self.impassable = frozenset(s for s, fs in game.hexside_features.items()
                                    if any(terrain[f].prohibited for f in fs))
        setup = [p for _, p in game.setup if p.scenario == SCENARIO]
        self.german_start = [p.piece for p in setup if p.location == "german_setup"]
        assault = [p.piece for p in setup if p.location == "allied_assault"]
        self.ranger = next(u for u in assault if game.units_by_id[u].type == "ranger")
        self.assault = [u for u in assault if u != self.ranger]
        self.schedule = [row for _, row in game.reinforcements if row.scenario == SCENARIO]
        # 13.0: what the Allies head for: Treviers, Isigny, Caumont, then the hexes next to St-Lô.
        self.objectives = sorted(game.area_hexes("german_marker_loss"))
        self.st_lo = [grid.hex_of(label) for label in game.areas_by_id["st_lo"].hexes]
        self.weather = "weather" in optional
        self.ranger_hexes = 0
        """The system's terrain cost of each step asked so far (the map never changes)."""

    # -- the position ---------------------------------------------------------------------
    def unit_at(self) -> dict[str, list[str]]:
        """Every unit on the map, by hex label."""
        out: dict[str, list[str]] = {}
        for unit_id, where in sorted(self.state.location.items()):
            if self.grid.is_label(where):
                out.setdefault(where, []).append(unit_id)
        return out

    def vacant(self, h: Hex) -> bool:
        """No unit of either side in a hex."""
        label = self.grid.label_of(h)
        return not any(w == label for w in self.state.location.values())

    def hex_of_unit(self, unit_id: str) -> Hex | None:
        """Where a unit stands on the map, if it does."""
        where = self.state.location.get(unit_id)
        return self.grid.hex_of(where) if where is not None and self.grid.is_label(where) else None

    def steps_left(self, unit_id: str) -> int:
        """Two steps at full strength, one reduced or for a one-step unit (8.2.4)."""
        unit = self.game.units_by_id[unit_id]
        return 1 if unit_id in self.state.depleted or unit.steps < 2 or not unit.reduced else 2

    def reduce(self, unit_id: str, by_opponent: bool) -> None:
        """A step lost: reduced, or eliminated when reduced or one-step (8.2.4, 8.3)."""
        loss = "deplete" if self.steps_left(unit_id) > 1 else "eliminate"
        self.emit(Loss(side=self.side_of(unit_id), by_opponent=by_opponent, loss=loss, unit=unit_id))

    # -- movement -------------------------------------------------------------------------
    def reach_of(self, unit_id: str) -> Reach:
        """Every hex a unit may end a move in now, and how: the rule system's own move rule (5.1-5.4,
        6.1, 10.1, 11.1.2, 14.1) walked by `wargame.paths.reachable`."""
        start = self.hex_of_unit(unit_id)
        assert start is not None
        rule = FM.movement.move_rule(self.state, unit_id, "move")
        return reachable(start, rule.cost, rule.budget, stops=rule.stops)

    def aim_of(self, side: str) -> Callable[[Hex], float]:
        """What a side's units head for: the Allies for the places 13.0 names not yet theirs, then St-Lô;
        the Germans for the hexes next to the Allies."""
        if side == "Allied":
            controlled = self.state.controlled
            goals = [h for h in self.objectives if controlled.get(self.grid.label_of(h)) != "Allied"]
            goals = goals or [n for h in self.st_lo for n in h.neighbours() if n in self.land]
            near_goal = self.distances(goals)
            near_enemy = self.distances(self.on_map("German"))

            def allied(h: Hex) -> float:
                return -near_goal.get(h, 60) - 0.5 * near_enemy.get(h, 60)
            return allied
        front = self.distances(self.on_map("Allied"))

        def german(h: Hex) -> float:
            return -abs(front.get(h, 60) - 1)
        return german

    def move_unit(self, unit_id: str, aim: Callable[[Hex], float], hexes: int | None = None) -> None:
        """Move a unit to a vacant hex it can reach (5.3: never ending stacked), at most `hexes` hexes
        away, or leave it."""
        if self.rng.random() < STAY_CHANCE:
            return
        reach = self.reach_of(unit_id)
        start = reach.start
        held = {self.grid.hex_of(label) for label in self.unit_at()}
        choices = [h for h in sorted(reach.cost) if h != start and h not in held
                   and (hexes is None or len(reach.path_to(h)) - 1 <= hexes)]
        if not choices:
            return
        if self.rng.random() < WANDER_CHANCE:
            goal = self.rng.choice(choices)
        else:
            goal = max(choices, key=lambda h: aim(h) + self.rng.random() * 2)
        path = [self.grid.label_of(h) for h in reach.path_to(goal)]
        side = self.side_of(unit_id) if self.rng.random() < 0.1 else None
        self.emit(Move(side=side, unit=unit_id, path=path))

    def movers(self, side: str, phase: str) -> list[str]:
        """The units of a side that may move in this phase: the rule system says which (`may_move`: 4.1,
        5.2, 5.5, 8.5, 11.2.1, 11.2.4)."""
        state = self.state
        out = []
        for unit_id in sorted(u for hs in self.on_map(side).values() for u in hs):
            if not FM.may_move(state, unit_id):
                continue
            if state.at.turn <= 1 and unit_id == self.ranger:
                continue  # the generator moves the Rangers (11.2.3) with the Pointe du Hoc roll only
            out.append(unit_id)
        return self.rng.sample(out, len(out))

    def movement_phase(self, side: str, phase: str) -> None:
        """Moves, then (Movement Phase) the reinforcements the schedule brings (11.1.2, 11.2.4)."""
        aim = self.aim_of(side)
        for unit_id in self.movers(side, phase):
            self.move_unit(unit_id, aim)
        if phase == "movement":
            self.reinforce(side, aim)

    # -- reinforcements --------------------------------------------------------------------
    def due(self, side: str) -> list[tuple[str, str]]:
        """(unit, entry) of a side's reinforcements due by now and not arrived (11.1.2, 11.2.1, 11.2.4)."""
        state = self.state
        rows = [(row.unit, row.entry or "") for row in self.schedule if row.turn <= state.at.turn
                and self.side_of(row.unit) == side and state.location.get(row.unit) is None]
        if side == "Allied" and state.at.turn >= 2:
            # 11.2.1: assault units that found no room on the beach hexes land on GT 2.
            rows += [(u, "omaha_beach") for u in self.assault if state.location.get(u) == "allied_assault"]
        return rows

    def reinforce(self, side: str, aim: Callable[[Hex], float]) -> None:
        """Every reinforcement due that can arrive does (11.1.2: if possible on its turn); German ones
        then move with what their first hex left them (11.1.2), Allied ones stay (11.2.4)."""
        placed = True
        while placed:
            placed = False
            for unit_id, entry in self.due(side):
                hexes = FM.arrivals.entry_hexes(self.state, unit_id, entry)  # 11.1.2, 11.2.4: the system's own rule
                if not hexes:
                    continue
                self.emit(Place(side=side, how="reinforce", unit=unit_id, hex=self.rng.choice(hexes)))
                placed = True
                if side == "German":
                    self.move_unit(unit_id, aim)  # 11.1.2: the system's move rule counts the first hex

    # -- support fire markers --------------------------------------------------------------
    def cups(self, side: str) -> dict[str, int]:
        """What is left in a side's cups this game turn (7.1, 7.2, 11.1.4, 11.2.6, 14.1)."""
        state = self.state
        return dict(pools.in_cups(self.game, side, state.lost_markers, state.withheld, state.markers_used,
                                  state.weather == "inclement"))

    def pick(self, pool: dict[str, int], keep: Callable[[str], bool] = lambda m: True) -> str | None:
        """A marker drawn at random from a pool (weighted by how many of each are in it)."""
        names = sorted(m for m, n in pool.items() if n > 0 and keep(m))
        if not names:
            return None
        marker = self.rng.choices(names, weights=[pool[m] for m in names])[0]
        pool[marker] -= 1
        return marker

    def draw(self, side: str, pool: dict[str, int], written: bool, by_opponent: bool, for_bombardment: bool,
             air_only: bool = False) -> str | None:
        """One marker drawn for a combat (7.2, 8.2.1 b): the Allies pick a cup, aircraft or not (11.2.6);
        a German Achtung Minen drawn for a bombardment, or now and then for a combat, is kept and
        another drawn (11.1.4)."""
        markers = self.game.markers_by_id
        while True:
            if side == "Allied":
                air = air_only or self.rng.random() < 0.3
                marker = self.pick(pool, lambda m: (markers[m].icon == "aircraft") == air)
                if marker is None and not air_only:
                    marker = self.pick(pool)
            else:
                marker = self.pick(pool)
            if marker is None:
                return None
            if markers[marker].kind == "mines" and (for_bombardment or self.rng.random() < 0.3):
                if written:
                    self.emit(SupportMarkers(side=side, by_opponent=by_opponent, how="draw", markers=[marker]))
                    if not for_bombardment:
                        self.emit(SupportMarkers(side=side, by_opponent=by_opponent, how="aside", markers=[marker]))
                continue
            if written:
                self.emit(SupportMarkers(side=side, by_opponent=by_opponent, how="draw", markers=[marker]))
            return marker

    def owed_markers(self) -> None:
        """The markers the rules take away, written as they call for them (11.1.4, 11.2.3, 14.1)."""
        for how, side, marker, _ in list(self.state.owed):
            if not marker:
                if how == "lose":
                    # 11.1.4: one of the German allotment (not the mines), picked at random.
                    pool = {m.id: m.count for m in pools.allotment(self.game, side, self.state.lost_markers)
                            if m.kind != "mines"}
                else:
                    pool = {m: n for m, n in self.cups(side).items() if self.game.markers_by_id[m].kind != "mines"}
                picked = self.pick(pool)
                if picked is None:
                    continue
                marker = picked
            self.emit(SupportMarkers(side=side, how=how, markers=[marker]))

    # -- combat ----------------------------------------------------------------------------
    def supports(self, attacker: str, written: dict[str, bool], bombardment: bool,
                 air_only: bool = False) -> list[str]:
        """The markers of a combat in the order placed (8.2.1 b: attacker, defender, attacker,
        defender, each step optional; a bombardment the attacker's only, 8.1.2)."""
        defender = self.enemy(attacker)
        cups = {side: self.cups(side) for side in self.sides}
        order = [attacker] if bombardment else [attacker, defender, attacker, defender]
        kept = self.state.mines_aside.elements()
        out = []
        for i, side in enumerate(order):
            if bombardment and i == 0:
                wanted = 1 + (self.rng.random() < 0.5)
            else:
                wanted = 1 if self.rng.random() < MARKER_CHANCE else 0
            for _ in range(wanted):
                if side == "German" and kept and not bombardment and self.rng.random() < 0.5:
                    out.append(kept.pop())  # 11.1.4: an Achtung Minen kept from an earlier draw this game turn
                    continue
                marker = self.draw(side, cups[side], written[side], side != attacker, bombardment, air_only)
                if marker is not None:
                    out.append(marker)
        return out

    def claim(self, die: int, result: str | None, differential: int) -> dict[str, object]:
        """The claims an attack or bombardment writes: the die always, the result and the differential mostly."""
        out: dict[str, object] = {"die": die}
        if self.rng.random() < CLAIM_CHANCE:
            out["result"] = result
        if self.rng.random() < DIFF_CHANCE:
            out["odds"] = f"{differential:+d}" if differential else "0"
        return out

    def bombardment_phase(self, side: str) -> None:
        """Bombardments (8.1): one or two markers on an enemy hex in their range (8.1.1: two from a
        friendly-occupied hex, aircraft anywhere), once a hex a phase."""
        for target in sorted(self.on_map(self.enemy(side))):
            if self.rng.random() >= BOMBARD_CHANCE:
                continue
            label = self.grid.label_of(target)
            if label not in self.unit_at():
                continue  # the units there were lost to an earlier bombardment's (A)
            friends = list(self.on_map(side))
            in_range = any(f.distance(target) <= 2 for f in friends)
            if not in_range and side == "German":
                continue  # 11.1.4: every German marker has a range of two
            if self.state.log.bombarded.count(label):
                continue
            written = {s: self.rng.random() < DRAW_WRITTEN_CHANCE for s in self.sides}
            support = self.supports(side, written, bombardment=True, air_only=not in_range)
            if not support:
                continue
            entry = Bombard(side=side, hex=label, die=self.rng.randint(1, 6), support=support)
            audit = FM.bombard_audit(self.state, entry)
            result = audit.result if self.rng.random() < 0.5 else FM.bombard_effect(self.state, entry, audit.result)
            self.emit(replace(entry, **self.claim(entry.die or 0, result, audit.differential)))
            self.carry_out(side)

    def attackers_of(self, side: str, phase: str) -> list[str]:
        """The units of the active side that may attack in this phase (4.1, 8.2, 8.3.1, 8.5, 11.2.1)."""
        state = self.state
        if state.at.turn == 1 and side == "Allied":
            return []  # 11.2.1: on GT 1 the landed units make their beach assaults and nothing more
        out = []
        for unit_id in sorted(u for hs in self.on_map(side).values() for u in hs):
            unit = self.game.units_by_id[unit_id]
            if unit_id in state.log.attacked or unit_id in state.log.displaced or unit_id in state.log.advanced:
                continue
            if phase == "mobile_combat" and (unit.mobility != "mobile" or unit_id in state.log.attacked_in_combat):
                continue
            out.append(unit_id)
        return out

    def combat_phase(self, side: str, phase: str) -> None:
        """Attacks (8.2): the eligible units next to an enemy hex, one unit of a beach landing stack a
        target (11.2.4), each enemy hex once, the support markers of 8.2.1 b, the result carried out."""
        done: set[Hex] = set()
        while True:
            ready = self.attackers_of(side, phase)
            landing = FM.landing_hexes(self.state)
            targets: dict[Hex, list[str]] = {}
            for target, defenders in sorted(self.on_map(self.enemy(side)).items()):
                if target in done or any(d in self.state.log.defended for d in defenders):
                    continue
                beside: list[str] = []
                stacks: set[str] = set()
                for unit_id in ready:
                    here = self.hex_of_unit(unit_id)
                    where = self.state.location[unit_id]
                    if here is None or not here.is_adjacent(target) or Hexside.between(here, target) in self.impassable:
                        continue
                    if where in landing:
                        if where in stacks:
                            continue
                        stacks.add(where)
                    beside.append(unit_id)
                if beside:
                    targets[target] = beside
            if not targets:
                return
            target = self.rng.choice(sorted(targets))
            done.add(target)
            attackers = targets[target]
            if len(attackers) > 1 and self.rng.random() < 0.25:
                attackers = sorted(self.rng.sample(attackers, self.rng.randint(1, len(attackers) - 1)))
            label = self.grid.label_of(target)
            bare = FM.combat_audit(self.state, Attack(side=side, hex=label, attackers=attackers))
            chance = 0.8 if bare.differential >= 0 else 0.45 if bare.differential >= -3 else 0.1
            if self.rng.random() >= chance:
                continue
            written = {s: self.rng.random() < DRAW_WRITTEN_CHANCE for s in self.sides}
            support = self.supports(side, written, bombardment=False)
            entry = Attack(side=side, hex=label, attackers=attackers, die=self.rng.randint(1, 6), support=support)
            audit = FM.combat_audit(self.state, entry)
            self.emit(replace(entry, **self.claim(entry.die or 0, audit.result, audit.differential)))
            self.carry_out(side)

    def carry_out(self, side: str) -> None:
        """The result of the combat just opened (8.1.3, 8.2.4, 8.3-8.5, 11.2.3), written by each unit's owner."""
        combat = self.state.combat
        if combat is None or combat.result is None:
            return
        result = combat.result
        attackers, defenders = list(combat.attackers), list(combat.defenders)
        if result == "Ae":
            for unit_id in attackers:
                self.emit(Loss(side=side, loss="eliminate", unit=unit_id))
        if result == "De":
            for unit_id in defenders:
                self.emit(Loss(side=self.enemy(side), by_opponent=True, loss="eliminate", unit=unit_id))
        if result == "Ex":
            for unit_id in defenders:
                self.reduce(unit_id, by_opponent=True)
        if result in ("Ex", "(A)") and attackers:
            self.reduce(self.rng.choice(attackers), by_opponent=False)  # 8.2.4: the attacker's choice
        if combat.special is not None and result in (*DEFENDER_RETREATS, *ATTACKER_RETREATS):
            for unit_id in attackers:
                self.reduce(unit_id, by_opponent=False)  # 11.2.3: retreat results reduce every assaulting unit
            return
        if result in ATTACKER_RETREATS:
            for unit_id in attackers:
                self.retreat(unit_id, ATTACKER_RETREATS[result], False, combat.bombardment)
        if result in DEFENDER_RETREATS:
            for unit_id in defenders:
                self.retreat(unit_id, DEFENDER_RETREATS[result], True, combat.bombardment)
            if not combat.bombardment:
                self.advance(attackers)

    def retreat(self, unit_id: str, hexes: int, by_opponent: bool, bombardment: bool) -> None:
        """A retreat result (8.3, 8.3.1, 8.4, 8.1.5): stiff resistance now and then; else a full retreat
        by vacant hexes, through friends if none, onto a friend it displaces if that is all; else the
        longest shorter retreat and a reduction; else elimination."""
        side = self.side_of(unit_id)
        if self.rng.random() < STAND_CHANCE:
            self.emit(StandFast(side=side, by_opponent=by_opponent, units=[unit_id]))
            return
        # The rule system's legal retreats (8.3, 8.1.5 farther from the enemy after a bombardment, 6.2):
        # the full ones, else the shorter ones, longest first.
        option = next((o for o in FM.retreat_options(self.state) if o.unit == unit_id), None)
        full = [] if option is None else [[self.grid.hex_of(x) for x in path] for path in option.paths]
        shorter = [] if option is None else [[self.grid.hex_of(x) for x in path] for path in option.shorter]
        for n in range(hexes, 0, -1):
            paths = full if n == hexes else [p for p in shorter if len(p) == n + 1]
            if not paths:
                continue
            vacant = [p for p in paths if all(self.vacant(h) for h in p[1:])]
            ends_free = [p for p in paths if self.vacant(p[-1])]
            labels: list[str] | None = None
            displaced: tuple[str, list[str]] | None = None
            if vacant:
                labels = [self.grid.label_of(h) for h in self.rng.choice(vacant)]
            elif ends_free:
                labels = [self.grid.label_of(h) for h in self.rng.choice(ends_free)]
            else:
                for path in paths:
                    displaced = self.displacement(unit_id, path[-1])
                    if displaced is not None:
                        labels = [self.grid.label_of(h) for h in path]
                        break
            if labels is None:
                # 8.3.1: a retreat that could only end on a friend that cannot be displaced: stiff
                # resistance (8.4); a shorter retreat is not open while a full one is.
                self.emit(StandFast(side=side, by_opponent=by_opponent, units=[unit_id]))
                return
            self.emit(Retreat(side=side, by_opponent=by_opponent, unit=unit_id, path=labels))
            if displaced is not None:
                friend, path_ = displaced
                self.emit(Retreat(side=side, by_opponent=by_opponent, unit=friend, path=path_))
            if n < hexes:
                self.reduce(unit_id, by_opponent)  # 8.3: reduced in the last hex it could reach
            return
        self.emit(Loss(side=side, by_opponent=by_opponent, loss="eliminate", unit=unit_id))  # 8.3: no retreat at all

    def displacement(self, unit_id: str, end: Hex) -> tuple[str, list[str]] | None:
        """8.3.1: the friend in a retreat's last hex, moved one hex to a vacant hex out of EZOC."""
        label = self.grid.label_of(end)
        friends = [u for u, w in sorted(self.state.location.items()) if w == label and u != unit_id]
        if len(friends) != 1:
            return None
        friend = friends[0]
        combat = self.state.combat
        if combat is not None and friend in (*combat.attackers, *combat.defenders):
            return None  # a unit of the combat carries out its own result, it is not displaced
        start = self.hex_of_unit(unit_id)
        for path in FM.retreat_paths(self.state, friend, 1):
            if self.vacant(path[1]) and path[1] != start:
                return friend, [self.grid.label_of(h) for h in path]
        return None

    def advance(self, attackers: list[str]) -> None:
        """8.5: attackers advance along the path of retreat, each ending on a vacant hex of it."""
        combat = self.state.combat
        if combat is None or not self.vacant(self.grid.hex_of(combat.hex)):
            return
        if any(u in combat.stood for u in combat.defenders):
            return  # 8.4: a defender's stiff resistance, even one that eliminated it, allows no advance
        trail = [combat.hex] + [label for unit, path in combat.retreated if unit in combat.defenders
                                for label in path[1:]]
        taken: set[str] = set()
        for unit_id in attackers:
            where = self.state.location.get(unit_id)
            if where is None or not self.grid.is_label(where) or self.rng.random() >= ADVANCE_CHANCE:
                continue
            open_ = []
            for i, label in enumerate(trail):
                if not self.vacant(self.grid.hex_of(label)):
                    break  # never into or past a hex a unit holds
                if label not in taken:
                    open_.append(i)
            if not open_:
                continue
            end = self.rng.choice(open_)
            taken.add(trail[end])
            self.emit(Advance(side=self.side_of(unit_id), unit=unit_id, path=[where, *trail[:end + 1]]))

    # -- the scenario ----------------------------------------------------------------------
    def set_up(self) -> None:
        """11.0 and 11.2.1: the German at-start units, two or more next to the beach; the landing."""
        grid = self.grid
        beach = [grid.hex_of(label) for label in self.beach]
        beside = sorted({n for b in beach for n in b.neighbours() if n in self.land} - set(beach)
                        - {grid.hex_of(POINTE_DU_HOC)})
        anywhere = sorted(self.land - set(beach) - {grid.hex_of(POINTE_DU_HOC)})
        taken: set[Hex] = set()
        near = self.rng.randint(2, len(self.german_start))
        for i, unit_id in enumerate(self.rng.sample(self.german_start, len(self.german_start))):
            # Most of the rest stand within a few hexes of the beach.
            pool = beside if i < near else [h for h in anywhere if min(h.distance(b) for b in beach) <= 6]
            h = self.rng.choice([h for h in pool if h not in taken])
            taken.add(h)
            self.emit(Place(side="German", how="setup", unit=unit_id, hex=grid.label_of(h)))
        hexes = self.rng.sample(self.beach, self.rng.randint(2, 4))
        if self.rng.random() < CROWDED_LANDING_CHANCE:
            hexes = hexes[:1]  # 11.2.1: the units that find no room come on GT 2
        room = {h: BEACH_STACK for h in hexes}
        for unit_id in self.rng.sample(self.assault, len(self.assault)):
            open_ = [label for label in hexes if room[label]]
            if not open_:
                break
            label = self.rng.choice(open_)
            room[label] -= 1
            self.emit(Place(side="Allied", how="setup", unit=unit_id, hex=label))
        self.emit(Place(side="Allied", how="setup", unit=self.ranger, hex=POINTE_DU_HOC))

    def pointe_du_hoc(self) -> None:
        """11.2.3: the roll, the Rangers' loss and the German +6 it calls for, the Rangers' hex."""
        die = self.rng.randint(1, 6)
        self.emit(RollOff(rolls={"Allied": die}))
        row = charts.pointe_du_hoc(self.game, die)
        assert row is not None
        if row.ranger == "eliminated":
            self.emit(Loss(side="Allied", loss="eliminate", unit=self.ranger))
        elif row.ranger == "reduced":
            self.emit(Loss(side="Allied", loss="deplete", unit=self.ranger))
        self.owed_markers()
        self.ranger_hexes = row.move_hexes or 0
        if self.ranger_hexes and self.rng.random() < 0.5:
            self.move_ranger()

    def move_ranger(self) -> None:
        """The Rangers' move after the Pointe du Hoc roll (11.2.3: as far as its result allows, by GT 1's end)."""
        if self.ranger_hexes and self.hex_of_unit(self.ranger) is not None:
            self.move_unit(self.ranger, self.aim_of("Allied"), hexes=self.ranger_hexes)
            self.ranger_hexes = 0

    def beach_assaults(self) -> None:
        """11.2.3: every beach hex with Allied units assaults, all of them together, with naval
        gunfire (11.2.7) and both sides' markers."""
        naval = [m.id for m in self.game.markers.marker if m.kind == "naval_gunfire" for _ in range(m.count)]
        for label, units in sorted(self.unit_at().items()):
            if label not in self.beach or units == [self.ranger]:
                continue  # 11.2.3: the Rangers' one hex onto the beach is no landing
            written = {s: self.rng.random() < DRAW_WRITTEN_CHANCE for s in self.sides}
            support: list[str] = []
            guns = min(len(naval), self.rng.randint(0, 2))
            support += [naval.pop() for _ in range(guns)]
            cups = {side: self.cups(side) for side in self.sides}
            for _ in range(2 - guns):
                if self.rng.random() < MARKER_CHANCE:
                    marker = self.draw("Allied", cups["Allied"], written["Allied"], False, False)
                    if marker is not None:
                        support.append(marker)
            for _ in range(self.rng.randint(0, 2)):
                marker = self.draw("German", cups["German"], written["German"], True, False)
                if marker is not None:
                    support.append(marker)
            entry = Attack(side="Allied", hex=label, attackers=units, die=self.rng.randint(1, 6), support=support)
            audit = FM.combat_audit(self.state, entry)
            self.emit(replace(entry, **self.claim(entry.die or 0, audit.result, audit.differential)))
            self.carry_out("Allied")

    def support_fire_marker_phase(self) -> None:
        """The weather (14.1, when in force), the markers owed (11.1.4, 14.1), the Allied replacements (11.2.5)."""
        state = self.state
        if self.weather and state.at.turn >= 2:
            self.emit(RollOff(rolls={"German": self.rng.randint(1, 6)}))
            if self.state.weather == "inclement":
                self.emit(RollOff(rolls={side: self.rng.randint(1, 6) for side in self.sides}))
        self.owed_markers()
        for kind in ("leg", "mobile"):
            points = sum(r.amount for _, r in self.game.replacements if r.scenario == SCENARIO
                         and r.turn == state.at.turn and r.side == "Allied" and r.kind == kind)
            for _ in range(points):
                unsupplied = set(FM.out_of_supply(self.state))
                reduced = sorted(u for u in self.state.depleted if self.hex_of_unit(u) is not None
                                 and self.side_of(u) == "Allied" and self.game.units_by_id[u].mobility == kind
                                 and u not in unsupplied)
                if reduced and self.rng.random() < REPLACE_CHANCE:
                    unit_id = self.rng.choice(reduced)
                    where = self.state.location[unit_id] if self.rng.random() < 0.3 else None
                    self.emit(Place(side="Allied", how="replace", unit=unit_id, hex=where,
                                    strength="full" if self.rng.random() < 0.5 else None))

    def supply(self) -> None:
        """12.0: as the Allied player turn ends, every Allied unit out of supply is reduced."""
        for unit_id in FM.out_of_supply(self.state):
            self.reduce(unit_id, by_opponent=False)

    def player_turn(self, side: str) -> None:
        """4.1: a player turn's five phases (the game's [[sequence]])."""
        for phase in dict.fromkeys(slot.id for slot in SEQUENCE(self.game) if slot.side is not None):
            self.emit(StepMarker(step=phase))
            if phase in ("movement", "mobile_movement"):
                if phase == "movement" and side == "Allied" and self.state.at.turn == 1:
                    self.move_ranger()
                self.movement_phase(side, phase)
            elif phase == "bombardment":
                self.bombardment_phase(side)
            else:
                self.combat_phase(side, phase)
        if side == "Allied":
            self.supply()

    def play(self, turns: int) -> list[Entry]:
        """Every entry of a game of `turns` game turns (it stops early on a German sudden death, 13.0)."""
        self.ranger_hexes = 0
        self.set_up()
        self.pointe_du_hoc()
        self.beach_assaults()
        first = next(s.first_player for s in self.game.manifest.scenario if s.id == self.state.scenario)
        for turn in range(1, turns + 1):
            self.emit(TurnMarker(turn=turn))
            if self.state.victory is not None:
                break  # 13.0: no beach landing hex left, the German wins at once
            self.emit(StepMarker(step="support_fire_marker"))
            self.support_fire_marker_phase()
            self.player_turn(first)
            self.player_turn(self.enemy(first))
            self.emit(StepMarker(step="game_turn_end"))
        return self.entries


def omaha() -> Game:
    """The bundled Omaha Beach game (loaded once per call)."""
    return load_game(data_root(), "omaha")


def generate_omaha(seed: int, turns: int = 17, game: Game | None = None, check: bool = True,
                   optional: Sequence[str] = ()) -> str:
    """The text log of a legal synthetic Beach to Bocage game of `turns` game turns (1-17), checked clean."""
    game = game or omaha()
    last = next(s.last_turn for s in game.manifest.scenario if s.id == SCENARIO)
    if not 1 <= turns <= last:
        raise ValueError(f"turns must be 1 to {last}, not {turns}")
    text = write_text(OmahaPlayer(game, seed, optional).play(turns))
    if check:
        check_clean(text, game)
    return text
