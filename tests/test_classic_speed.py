"""The classic replay's shortcuts (issue 31's speed) give the answers of the plain readings they replace: a line of
communication walked on the game's graph against a walk of the map itself, and an attack's odds asked twice of one
position against odds worked out anew."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine import replay
from adjudicator.notation.entries import Attack
from adjudicator.notation.text import parse_text
from adjudicator.systems import system_for
from adjudicator.systems.classic import combat
from adjudicator.systems.classic.base import enemy_of, in_communication, rules_of, zone_of
from adjudicator.systems.classic.state import ClassicState, evolve
from bench_support import bench_script
from wargame.hexes import Hex, Hexside

generator = bench_script("synthetic_classic", "bench_synthetic_classic_speed")


def plain_line(state: ClassicState, label: str, side: str) -> bool:
    """A line of communication found by walking the map hex by hex, every test made where it is met (the reading
    before the per-game graph)."""
    t = rules_of(state)
    supply = t.rules.supply
    if supply is None:
        return True
    grid = state.game.grid
    sources = frozenset(grid.label_of(h) for a in supply.sources.get(side, ()) for h in state.game.area_hexes(a))
    enemy = enemy_of(state, side)
    zoc = zone_of(state, enemy) if supply.enemy_zoc != "allowed" else frozenset()

    def open_hex(h: Hex) -> bool:
        holder = state.side_in(grid.label_of(h))
        if holder == enemy or t.hex_cost.get(h, 1.0) is None:
            return False
        if h in zoc and not (supply.enemy_zoc == "blocked_unless_friendly" and holder == side):
            return False
        return not any(t.game.terrain[x].id in supply.prohibited_terrain for x in t.game.hex_terrain[h]
                       if x in t.game.terrain)

    start = grid.hex_of(label)
    if label in sources:
        return True
    # 11.1 (rulings register): the hex traced from may be in an enemy zone, held by a friendly unit or empty.
    if state.side_in(label) == enemy:
        return False
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        h, d = queue.popleft()
        if supply.max_hexes is not None and d >= supply.max_hexes:
            continue
        for n in grid.neighbours_on_map(h):
            if n in seen or not open_hex(n) or t.side_add.get(Hexside.between(h, n), 0) is None:
                continue
            if grid.label_of(n) in sources:
                return True
            seen.add(n)
            queue.append((n, d + 1))
    return False


@pytest.fixture(scope="module")
def positions() -> list[Any]:
    """Every 40th position of a generated Battle for Moscow game (seed 3), and its attacks with their positions."""
    game = generator.classic()
    entries = parse_text(generator.generate_classic(3, None, game))
    result = replay(game, system_for(game), entries)
    return [(result.states[k], entries[k] if k < len(entries) else None) for k in range(len(result.states))]


def test_a_line_of_communication_is_the_plain_walks(positions: list[Any]) -> None:
    """From every hex of the map, for either side, in positions all through a game: the same answer."""
    checked = 0
    for state, _ in positions[::40]:
        for label in state.game.grid.labels:
            for side in state.game.manifest.sides:
                assert in_communication(state, label, side) == plain_line(state, label, side), (label, side)
                checked += 1
    assert checked > 1000


def test_an_attack_asked_twice_of_one_position_is_worked_out_once(positions: list[Any]) -> None:
    """The check and the application of an attack get one answer; another position (even an equal copy) gets its
    own, worked out anew and equal to it."""
    attacks = [(state, entry) for state, entry in positions if isinstance(entry, Attack)]
    assert attacks
    for state, entry in attacks:
        first = combat.work_out(state, entry.hex, list(entry.attackers))
        assert combat.work_out(state, entry.hex, list(entry.attackers)) is first
        copy = evolve(state)
        again = combat.work_out(copy, entry.hex, list(entry.attackers))
        assert again is not first and again == first
