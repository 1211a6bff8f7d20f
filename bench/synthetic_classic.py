"""The synthetic classic game of bench/adjudicate.py: random but legal games of any game on the classic rule
system (Battle for Moscow by default), generated from the game's data alone, to time the adjudicator and to fuzz it.

The generator reads the turn sequence, what each phase allows (game.toml's `[[sequence.entries]]`: who moves,
which unit types, rail phases, attacks, replacements, the victory claim) and the rules' numbers (rules.toml,
crt.toml, replacements.csv) and plays every turn of the scenario: in each movement phase the units allowed move
to hexes the rule system's movement model gives (`ClassicMovement.reach`, rail moves in a rail phase, the
condition's cap in mud), along the cheapest path of the same search; in each combat phase the phasing side
attacks enemy hexes next to its units, at odds the table has (the column worked out by the rule system's
`combat.work_out`), with a die from a seeded `random.Random` and the table's result; every result is carried
out (the owner's step losses, an exchange's printed strength, retreats chosen among `retreat_options` by the
player the rules let choose, a unit with none eliminated, an advance among `advance_options`); replacements
spend the turn's points (replacements.csv) on eliminated units rebuilt in the places the rules name (empty,
controlled, in communication) and on reduced units restored in communication; the last phase of the last
turn ends with the victory claim of the side the conditions give. Every generated log must replay with no
error and no warning: a finding is a bug in the generator or in the referee.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicator.notation.entries import (  # noqa: E402
    Advance, Attack, Declare, Entry, Loss, Move, Place, Retreat, StepMarker, TurnMarker,
)
from adjudicator.notation.text import write_text  # noqa: E402
from adjudicator.systems.classic import combat, victory  # noqa: E402
from adjudicator.systems.classic.base import in_communication, steps_left, zone_of  # noqa: E402
from adjudicator.systems.classic.movement import limits  # noqa: E402
from adjudicator.systems.classic.movement_model import ClassicMovement  # noqa: E402
from adjudicator.systems.classic.state import ClassicState  # noqa: E402
from adjudicator.systems.classic.tables import Tables, tables  # noqa: E402
from synthetic import SyntheticPlayer, check_clean  # noqa: E402
from wargame.bundled import data_root  # noqa: E402
from wargame.game import Game, load_game  # noqa: E402
from wargame.hexes import Hex  # noqa: E402
from wargame.paths import Reach, reachable  # noqa: E402
from wargame.sequence import Slot  # noqa: E402

DEFAULT_GAME = "moscow"
STAY_CHANCE = 0.2
"""Chance that a unit able to move does not."""
WANDER_CHANCE = 0.2
"""Chance that a moving unit goes to a hex picked at random among its legal ones, not toward its aim."""
ATTACK_CHANCE = (0.25, 0.6, 0.9)
"""Chance that a side attacks a hex at the table's lowest column, its second, and any higher one."""
ADVANCE_CHANCE = 0.7
"""Chance that an attacker advances into a hex its defenders left."""
REPLACE_CHANCE = 0.9
"""Chance that a side spends each replacement point it can spend."""
SUBSET_CHANCE = 0.3
"""Chance that an attack leaves out some of the units that could join it."""


class ClassicPlayer(SyntheticPlayer):
    """Plays one synthetic game of a classic game, from its data."""

    state: ClassicState

    def __init__(self, game: Game, seed: int, scenario: str | None = None) -> None:
        self.scenario = scenario or game.manifest.scenario[0].id
        super().__init__(game, seed, [("Game", game.id), ("Scenario", self.scenario)])
        self.tables: Tables = tables(game)
        self.model = ClassicMovement()
        rules = self.tables.rules
        # What each side heads for: the places a victory condition gives it; else the enemy's units.
        self.targets: dict[str, list[Hex]] = {side: [] for side in self.sides}
        if rules.victory is not None:
            for condition in rules.victory.conditions:
                if condition.winner in self.targets:
                    self.targets[condition.winner] += [self.grid.hex_of(self.tables.place_hex[n])
                                                       for n in (*condition.controls, *condition.also_controls)
                                                       if n in self.tables.place_hex]

    # -- helpers --------------------------------------------------------------------------
    def label(self, h: Hex) -> str:
        """A hex's label."""
        return self.grid.label_of(h)

    def owner(self, unit_id: str) -> tuple[str, bool]:
        """Who writes an entry for a unit's owner: the side, and whether it is the other player's turn (`Side>`)."""
        side = self.side_of(unit_id)
        return side, side != self.state.at.player_turn

    # -- movement -------------------------------------------------------------------------
    def search(self, unit_id: str) -> Reach:
        """The movement model's own search for a unit (the same costs, stops and budget as its `reach`), for paths."""
        state = self.state
        rule = self.model.move_rule(state, unit_id)
        start = state.hex_of(unit_id)
        assert start is not None
        lim = limits(state, unit_id)
        if lim.hexes is not None:
            return reachable(start, lambda a, b: 1.0 if rule.cost(a, b) is not None else None, float(lim.hexes),
                             stops=rule.stops)
        return reachable(start, rule.cost, None if rule.rail else rule.budget, stops=rule.stops)

    def move_units(self, side: str, unit_types: list[str]) -> None:
        """Every unit of `side` (of the types the phase allows) may move once, to a hex `reach` gives."""
        aims = self.targets[side] or list(self.on_map(self.enemy(side)))
        distance = self.distances(aims) if aims else {}
        units = [u for units in self.on_map(side).values() for u in units
                 if not unit_types or self.game.units_by_id[u].type in unit_types]
        for unit_id in self.rng.sample(units, len(units)):
            if self.rng.random() < STAY_CHANCE:
                continue
            reach = self.model.reach(self.state, unit_id)
            if not reach.hexes:
                continue
            choices = sorted(reach.hexes)
            if self.rng.random() < WANDER_CHANCE or not distance:
                goal = self.rng.choice(choices)
            else:
                goal = min(choices, key=lambda lab: distance.get(self.grid.hex_of(lab), 99) + self.rng.random() * 2)
            found = self.search(unit_id)
            path = [self.label(h) for h in found.path_to(self.grid.hex_of(goal))]
            self.emit(Move(unit=unit_id, path=path))

    # -- combat ---------------------------------------------------------------------------
    def attack(self, side: str) -> None:
        """The phasing side's attacks: each enemy hex next to its units, at odds the table has, carried out."""
        crt = self.game.crt
        assert crt is not None
        rules = self.tables.rules.combat
        enemy_hexes = sorted(self.on_map(self.enemy(side)))
        for target in self.rng.sample(enemy_hexes, len(enemy_hexes)):
            label = self.label(target)
            if not self.state.units_in(label) or self.state.side_in(label) == side:
                continue  # emptied by an earlier result this phase
            if rules.defend_once and any(u in self.state.log.defended for u in self.state.units_in(label)):
                continue
            friendly = self.on_map(side)
            ready = [u for n in self.neighbours(target) for u in friendly.get(n, ())
                     if not (rules.attack_once and u in self.state.log.attacked)]
            if not ready:
                continue
            if len(ready) > 1 and self.rng.random() < SUBSET_CHANCE:
                ready = self.rng.sample(ready, self.rng.randint(1, len(ready) - 1))
            odds = combat.work_out(self.state, label, ready)
            if odds.column is None:
                continue  # below the table: no attack worth making (and some games forbid it)
            chance = ATTACK_CHANCE[min(odds.column, len(ATTACK_CHANCE) - 1)]
            if self.rng.random() >= chance:
                continue
            die = self.rng.choice(crt.die_rolls)
            result = combat.result_of(self.state, odds.column, die)
            self.emit(Attack(side=side, hex=label, attackers=sorted(ready), odds=crt.columns[odds.column], die=die,
                             result=result))
            self.carry_out(side)

    def lose_step(self, unit_id: str) -> None:
        """A unit loses one step, written by its owner."""
        side, theirs = self.owner(unit_id)
        loss: Literal["deplete", "eliminate"] = "eliminate" if steps_left(self.state, unit_id) == 1 else "deplete"
        self.emit(Loss(side=side, by_opponent=theirs, loss=loss, unit=unit_id))

    def eliminate(self, unit_id: str) -> None:
        """A unit eliminated, written by its owner."""
        side, theirs = self.owner(unit_id)
        self.emit(Loss(side=side, by_opponent=theirs, loss="eliminate", unit=unit_id))

    def carry_out(self, side: str) -> None:
        """The pending result: defender losses, the attackers' steps or exchanged strength, retreats, an advance."""
        p = self.state.pending
        if p is None:
            return
        for unit_id, due in sorted(p.defender_steps.items()):
            if due <= 0:
                continue
            if due >= steps_left(self.state, unit_id):
                self.eliminate(unit_id)
            else:
                for _ in range(due):
                    self.lose_step(unit_id)
        # The attacker's steps (AL) or the printed strength an exchange costs, units picked at random.
        while (p := self.state.pending) is not None and (p.attacker_steps > 0 or p.attacker_strength > 0):
            alive = [u for u in p.attackers if self.state.hex_of(u) is not None]
            if not alive:
                break
            self.lose_step(self.rng.choice(sorted(alive)))
        chooser = self.tables.rules.combat.retreat.chooser
        for option in self.model.retreat_options(self.state):
            if not option.paths:
                self.eliminate(option.unit)  # no retreat open: the unit is eliminated instead (the rules' `blocked`)
                continue
            path = list(self.rng.choice(option.paths))
            writer, theirs = self.owner(option.unit) if chooser == "owner" else (side, False)
            self.emit(Retreat(side=writer, by_opponent=theirs, unit=option.unit, path=path))
        while (advances := self.model.advance_options(self.state)) and self.rng.random() < ADVANCE_CHANCE:
            advance = self.rng.choice(list(advances))
            self.emit(Advance(side=side, unit=advance.unit, path=list(self.rng.choice(advance.paths))))

    # -- replacements ---------------------------------------------------------------------
    def replace_units(self, side: str) -> None:
        """A side spends its replacement points: rebuilding eliminated units where the rules allow, restoring
        reduced ones in communication."""
        from adjudicator.systems.classic.arrivals import points_for, schedule  # the schedule reader
        t = self.tables
        rules = t.rules.replacements
        if rules is None:
            return
        state = self.state
        grid = self.grid
        points = points_for(state, side)
        exempt = {t.place_hex.get(n, n) for n in rules.communication_exempt.get(side, ())}
        sources = t.area_hexes(t.rules.supply.sources.get(side, ())) if t.rules.supply is not None else frozenset()
        places = sorted(t.area_hexes(rules.places.get(side, ())))
        units = sorted(u for u, unit in self.game.units_by_id.items() if unit.side == side
                       and (not rules.unit_types.get(side) or unit.type in rules.unit_types[side]))
        for _ in range(points):
            if self.rng.random() >= REPLACE_CHANCE:
                continue
            state = self.state
            choices: list[Place] = []
            for unit_id in units:
                if unit_id in state.log.replaced and rules.once_per_phase:
                    continue
                if rules.from_turn.get(unit_id, 0) > state.at.turn:
                    continue
                where = state.location.get(unit_id, "")
                if grid.is_label(where):
                    if rules.restore and unit_id in state.reduced and (
                            not rules.in_communication or where in exempt or in_communication(state, where, side)):
                        choices.append(Place(side=side, how="replace", unit=unit_id, strength="full", hex=where))
                    continue
                if schedule(state, unit_id) is not None and unit_id not in state.arrived:
                    continue
                if where != self.eliminated_box(side):
                    continue
                enemy_zone = zone_of(state, self.enemy(side)) if rules.not_in_enemy_zoc else frozenset()
                free = [lab for lab in places if not state.units_in(lab)
                        and (not rules.places_controlled or lab in sources or state.control.get(lab) == side)
                        and grid.hex_of(lab) not in enemy_zone
                        and (not rules.in_communication or lab in exempt or in_communication(state, lab, side))]
                if free:
                    choices.append(Place(side=side, how="replace", unit=unit_id, strength=rules.rebuild,
                                         hex=self.rng.choice(free)))
            if not choices:
                return
            self.emit(self.rng.choice(choices))

    def eliminated_box(self, side: str) -> str:
        """Where a side's eliminated units wait."""
        box = self.game.manifest.box_of("eliminated", side, "units")
        return box.id if box is not None else "eliminated"

    # -- the sequence ---------------------------------------------------------------------
    def phase(self, slot: Slot, last: bool) -> None:
        """One phase: what its allowances let the player do."""
        rule = self.tables.phases.get(slot.id)
        if rule is not None and self.state.at.turn in rule.skipped_turns:
            return
        player = self.state.at.player_turn
        for allowance in slot.entries:
            side = allowance.side if allowance.side in self.sides else player
            if side is None:
                continue
            if allowance.kind == "move":
                self.move_units(side, allowance.unit_types)
            elif allowance.kind == "attack":
                self.attack(side)
            elif allowance.kind == "place" and (not allowance.how or "replace" in allowance.how):
                self.replace_units(side)
            elif allowance.kind == "declare" and last and self.tables.rules.victory is not None:
                winner, _ = victory.decided(self.state, True)
                if winner in self.sides:
                    self.emit(Declare(side=winner, what="victory"))

    def play(self, turns: int) -> list[Entry]:
        """Every entry of a game of `turns` full turns (the claim when the last is the scenario's last)."""
        scenario = next(s for s in self.game.manifest.scenario if s.id == self.scenario)
        sequence = self.tables.sequence
        for turn in range(scenario.first_turn, scenario.first_turn + turns):
            self.emit(TurnMarker(turn=turn))
            for index, slot in enumerate(sequence):
                self.emit(StepMarker(step=slot.id))
                self.phase(slot, turn == scenario.last_turn and index == len(sequence) - 1)
        return self.entries


def classic(game_id: str = DEFAULT_GAME) -> Game:
    """A bundled classic game (loaded once per call)."""
    return load_game(data_root(), game_id)


def generate_classic(seed: int, turns: int | None = None, game: Game | None = None, check: bool = True) -> str:
    """The text log of a legal synthetic game of a classic game (every turn of its first scenario by default),
    checked clean: no error and no warning."""
    game = game or classic()
    scenario = game.manifest.scenario[0]
    last = scenario.last_turn - scenario.first_turn + 1
    turns = last if turns is None else turns
    if not 1 <= turns <= last:
        raise ValueError(f"turns must be 1 to {last}, not {turns}")
    text = write_text(ClassicPlayer(game, seed).play(turns))
    if check:
        result = check_clean(text, game)
        warnings = [f for f in result.findings if f.severity == "warning"]
        if warnings:
            lines = text.splitlines()
            raise AssertionError("the generated log has warnings:\n" + "\n".join(
                f"<generated>:{f.line}: warning [{f.system} {f.rule}]: {f.message}\n    {lines[f.line - 1]}"
                for f in warnings[:10]))
    return text
