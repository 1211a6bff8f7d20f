"""A classic game's rules and map read once into the tables the rules ask (costs, rail links, places, sections)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from fractions import Fraction

from adjudicator.findings import Finding, SectionTable
from adjudicator.systems.base import PerGame
from wargame.errors import WargameError
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen
from wargame.rulebook import Condition, PhaseRule, ResultCode, RulesFile, TurnRecord
from wargame.sequence import Slot, turn_sequence

LOG_SECTION = "log"
"""The engine's citation for the log's own structure (not a rule of the game)."""


@frozen
class Tables:
    """What a classic game's rules read about its map and data, built once per game."""

    game: Game
    rules: RulesFile
    table: SectionTable
    hex_cost: dict[Hex, float | None]
    """Movement points to enter each map hex (None: prohibited), from terrain.toml."""
    side_add: dict[Hexside, float | None]
    """Movement points added for crossing a hexside (None: it may not be crossed)."""
    side_cost: dict[Hexside, float]
    """What a step along a hexside feature with its own cost (a road) costs, whatever the hex entered."""
    rail: frozenset[Hexside]
    """Hexsides joining two hexes of a rail line."""
    rail_hexes: frozenset[Hex]
    zoc_blocked_hexes: frozenset[Hex]
    zoc_blocked_sides: frozenset[Hexside]
    place_hex: dict[str, str]
    """Each victory place (places.csv name, or a hex label itself) -> its hex label."""
    results: dict[str, ResultCode]
    phases: dict[str, PhaseRule]
    sequence: tuple[Slot, ...]
    value_index: int
    """The index of the movement allowance among a counter's values."""
    attack_index: int
    """The index of the attack strength among a counter's values (`[combat] attack_value`, else the first value
    that is not the allowance)."""
    defence_index: int
    """The index of the defence strength among a counter's values (`[combat] defence_value`, else the attack's)."""
    zoc_cells: dict[Hex, frozenset[Hex]] = field(default_factory=dict)
    """The zone a unit with a zone of control exerts from each map hex: the hex and the neighbours its zone
    reaches (not into blocked hexes, not across blocked hexsides)."""
    zones: dict[str, tuple[Mapping[str, tuple[str, ...]], frozenset[Hex]]] = field(default_factory=dict,
                                                                                    compare=False)
    """Each side's zones for the last position asked (its `by_hex`, held so that its identity stays its own):
    a replay asks a position's zones several times (the move's check, its application, its reach)."""
    zones_by_hexes: dict[tuple[str, frozenset[str]], frozenset[Hex]] = field(default_factory=dict, compare=False)
    """Each side's zones by the hexes its units hold (bounded)."""
    step_costs: dict[tuple[Hex, Hex, bool], float | None] = field(default_factory=dict, compare=False)
    """What stepping between two adjacent hexes costs, by rail or not, as first asked (the map never changes:
    at most six entries a hex and kind of movement)."""
    any_time_victory: bool = False
    """A victory condition holds at any moment (read after every entry), not only at the end."""
    supply_closed: frozenset[Hex] = frozenset()
    """Map hexes no line of communication enters whoever holds them: prohibited, or of a terrain `[supply]`
    prohibits."""
    supply_steps: dict[Hex, tuple[tuple[Hex, str], ...]] = field(default_factory=dict)
    """Each map hex's neighbours (and their labels) a line of communication may step to from it: not across a
    hexside that may not be crossed."""
    area_labels: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict, compare=False)
    """`area_hexes`' answers, as first asked (the areas never change)."""
    asked: dict[tuple[object, ...], tuple[object, object]] = field(default_factory=dict, compare=False)
    """The last combat worked out, by the identity of the state asked (held beside its answer, so that its
    identity stays its own) and the attack: an attack's check and its application ask the same position."""
    refusals: dict[str, tuple[object, object, tuple[Finding, ...]]] = field(default_factory=dict, compare=False)
    """The last attack's refusal (`combat.refusal`), by the identity of the state and entry asked (held beside it):
    the attack's check works it out, its application reads it."""

    def condition(self, turn: int) -> Condition | None:
        """The weather or ground condition in force on a turn, if any."""
        return next((c for c in self.rules.condition if turn in c.turns), None)

    def turn_record(self, turn: int, side: str) -> TurnRecord | None:
        """The turn record's allowances for a side's units on a turn, if it gives any."""
        return next((r for r in self.rules.turn if r.number == turn and (not r.sides or side in r.sides)), None)

    def area_hexes(self, area_ids: tuple[str, ...]) -> frozenset[str]:
        """The hex labels of some areas of areas.toml."""
        known = self.area_labels.get(area_ids)
        if known is None:
            grid = self.game.grid
            known = frozenset(grid.label_of(h) for a in area_ids for h in self.game.area_hexes(a))
            self.area_labels[area_ids] = known
        return known


def factor(value: float) -> Fraction:
    """A strength multiplier as an exact fraction (halving: 1/2), so odds are never rounded twice."""
    return Fraction(value).limit_denominator(100)


def _build(game: Game) -> Tables:
    rules = game.rules
    if rules is None:
        raise WargameError(f"{game.id} is on the classic rule system but has no counters/{game.id}/rules.toml "
                           "(docs/designing-a-game.md, 'The rules as data')")
    sections = {s.id: s.title for s in rules.section}
    sections[LOG_SECTION] = "Log structure (not a rule of the game)"
    table = SectionTable(game.id, sections, rests_on={
        rules.movement.source: ("movement",), rules.zoc.source: ("zoc",), rules.stacking.source: ("stacking",),
        **({rules.reinforcements.source: ("arrival",)} if rules.reinforcements else {}),
        **({rules.victory.source: ("victory",)} if rules.victory else {}),
    })
    grid = game.grid
    terrain = game.terrain
    hex_cost: dict[Hex, float | None] = {}
    for h, ids in game.hex_terrain.items():
        costs = [terrain[t] for t in ids if t in terrain]
        if any(t.prohibited for t in costs):
            hex_cost[h] = None
            continue
        base = max((t.mp_cost for t in costs if t.mp_cost is not None), default=1.0)
        hex_cost[h] = base + sum(t.mp_add or 0 for t in costs)
    rail_feature = rules.movement.rail.feature if rules.movement.rail else "rail"
    side_add: dict[Hexside, float | None] = {}
    side_cost: dict[Hexside, float] = {}
    rail: set[Hexside] = set()
    blocked_sides: set[Hexside] = set()
    for side, features in game.hexside_features.items():
        kinds = [terrain[f] for f in features if f in terrain]
        # terrain.toml's `cancels`: a bridge over a river lets a step across cost the hex entered, the river's cost
        # (or prohibition) not paid.
        cancelled = {c for t in kinds for c in t.cancels}
        crossed = [t for t in kinds if t.id not in cancelled]
        side_add[side] = None if any(t.prohibited for t in crossed) else sum(t.mp_add or 0 for t in crossed)
        along = [t.mp_cost for t in kinds if t.mp_cost is not None and t.id != rail_feature]
        if along:
            side_cost[side] = min(along)
        if rail_feature in features:
            rail.add(side)
        # `[zoc] unless`: a bridge on a river hexside lets the zone across it, as `unless` does for combat effects.
        if (any(t.blocks_zoc for t in kinds) or features & set(rules.zoc.into_hexside)) and \
                not features & set(rules.zoc.unless):
            blocked_sides.add(side)
    blocked_hexes = frozenset(h for h, ids in game.hex_terrain.items()
                              if any(t in terrain and terrain[t].blocks_zoc for t in ids))
    place_hex = {p.name: p.hex for _, p in game.places}
    place_hex.update({label: label for label in grid.labels if label not in place_hex})
    names = game.manifest.value_names
    value_index = names.index(rules.movement.value) if rules.movement.value in names else len(names) - 1
    combat = rules.combat
    attack_index = names.index(combat.attack_value) if combat.attack_value in names else \
        next((i for i in range(len(names)) if i != value_index), 0)
    defence_index = names.index(combat.defence_value) if combat.defence_value in names else attack_index
    neighbours = grid.neighbour_map
    zoc_cells = {h: frozenset([h, *(n for n in near if n not in blocked_hexes
                                    and Hexside.between(h, n) not in blocked_sides)])
                 for h, near in neighbours.items()}
    prohibited = set(rules.supply.prohibited_terrain) if rules.supply is not None else set()
    supply_closed = frozenset(h for h in neighbours if hex_cost.get(h, 1.0) is None or any(
        terrain[x].id in prohibited for x in game.hex_terrain.get(h, ()) if x in terrain))
    supply_steps = {h: tuple((n, grid.label_of(n)) for n in near if side_add.get(Hexside.between(h, n), 0) is not None)
                    for h, near in neighbours.items()}
    return Tables(game, rules, table, hex_cost, side_add, side_cost, frozenset(rail),
                  frozenset(h for s in rail for h in s.hexes()), blocked_hexes, frozenset(blocked_sides),
                  place_hex, {r.code: r for r in rules.combat.results}, {p.id: p for p in rules.movement.phases},
                  turn_sequence(game.manifest), value_index, attack_index, defence_index, zoc_cells,
                  any_time_victory=rules.victory is not None and any(
                      c.when == "any_time" for c in rules.victory.conditions),
                  supply_closed=supply_closed, supply_steps=supply_steps)


tables = PerGame(_build)
"""A game's tables, built on its first request (they die with the game)."""
