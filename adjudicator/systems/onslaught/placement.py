"""Where Onslaught's arrivals may be placed (10.1-10.3, 11.3): entry hexes, supply, stacking."""

from __future__ import annotations

from adjudicator.systems.onslaught import supply
from adjudicator.systems.onslaught.state import OnslaughtState, enemy_of, unit_of, units_at
from adjudicator.systems.onslaught.supply_map import SupplyMap
from adjudicator.systems.onslaught.tables import area_of, hex_by_label
from wargame.hexes import Hex


def allied_source_hexes(state: OnslaughtState) -> frozenset[Hex]:
    """The landing hexes and ports that are Allied supply sources now (8.1, 8.4, 8.5)."""
    sources = supply.allied_sources(state, state.controlled)
    return frozenset(h for name, hexes in sources.items() if name != supply.SOUTHERN_FRANCE for h in hexes)


def entry_hexes(state: OnslaughtState, unit_id: str, entry_area: str | None, replacing: bool) -> frozenset[Hex]:
    """Where a reinforcement (or an Allied replacement, 11.3) may be placed (10.1-10.3)."""
    game = state.game
    side = unit_of(state, unit_id).side
    if entry_area in ("entry_a", "entry_b") and not replacing:
        return area_of(game, entry_area)
    if side == "German":
        return area_of(game, "germany")
    return allied_source_hexes(state)


def placement_sources(state: OnslaughtState, side: str, entry_area: str | None) -> frozenset[Hex]:
    """The sources a newly placed division traces supply to: German the east edge only (10.2); Allied
    their sources, area B's reinforcements off the southern edge through B (10.3)."""
    supply_map = SupplyMap.of(state.game)
    if side == "German":
        return frozenset(supply_map.east_edge)
    sources = set(allied_source_hexes(state))
    if entry_area == "entry_b" or state.at.turn >= int(state.game.parameter["southern_france_first_turn"]):
        sources |= supply_map.entry_b
    return frozenset(sources)


def supplied_from(state: OnslaughtState, side: str, entry_area: str | None) -> frozenset[Hex]:
    """Hexes a newly placed division traces supply from (10.2, 10.3)."""
    return supply.hexes_tracing_to(state, side, placement_sources(state, side, entry_area))


def open_hexes(state: OnslaughtState, unit_id: str, entry_area: str | None,
               replacing: bool = False) -> list[Hex]:
    """The hexes a reinforcement may be placed in now: its entry hexes, in supply, not
    enemy-held, not already holding three of its side's divisions (10.1)."""
    side = unit_of(state, unit_id).side
    sources = placement_sources(state, side, entry_area)
    full = full_hexes(state, side)
    # 10.1: never where enemy divisions stand (a hex they hold is no source either, 8.4, unless a wrong placement
    # beside them made it count as entered).
    enemy = {h for h in entry_hexes(state, unit_id, entry_area, replacing)
             if units_at(state, state.game.grid.label_of(h), enemy_of(state, side))}
    full |= enemy
    # A search from each of the few entry hexes (`traces_to`, answering as `supplied_from` would), not a flood of
    # the whole map from every source: a delayed or replaced division asks this of a handful of hexes.
    return sorted((h for h in entry_hexes(state, unit_id, entry_area, replacing)
                   if h not in full and supply.traces_to(state, side, h, sources)), key=state.game.grid.label_of)


def room_in(state: OnslaughtState, side: str, hexes: list[Hex]) -> int:
    """How many more divisions of `side` the hexes take before each holds a full stack (6.3)."""
    limit = int(state.game.parameter.get("stacking_limit", 3))
    return sum(limit - len(units_at(state, state.game.grid.label_of(h), side)) for h in hexes)


def full_hexes(state: OnslaughtState, side: str) -> set[Hex]:
    """Hexes where `side` already has as many divisions as a stack may hold (6.3)."""
    hexes = hex_by_label(state.game)
    units = state.game.units_by_id
    limit = int(state.game.parameter.get("stacking_limit", 3))
    count: dict[str, int] = {}
    for unit_id, where in state.location.items():
        if where in hexes and units[unit_id].side == side:
            count[where] = count.get(where, 0) + 1
    return {hexes[where] for where, n in count.items() if n >= limit}


def placement_problem(state: OnslaughtState, unit_id: str, label: str, entry_area: str | None,
                      replacing: bool = False) -> str | None:
    """Why a division may not be placed at `label` now (10.1-10.3, 11.3), or None; stacking (10.1) is judged
    for every arrival alike (stacking.check_arrival)."""
    game = state.game
    side = unit_of(state, unit_id).side
    if not game.grid.is_label(label):
        return f"{label} is not a hex of the map"
    h = game.grid.hex_of(label)
    if h not in entry_hexes(state, unit_id, entry_area, replacing):
        if side == "German" and entry_area in ("entry_a", "entry_b") and not replacing:
            return f"{label} is not in {game.areas_by_id[entry_area].name}, where {unit_id} enters"
        if side == "German":
            return f"{label} is not in Germany, where German reinforcements are placed"
        if entry_area == "entry_b" and not replacing:
            return f"{label} is not in {game.areas_by_id['entry_b'].name}, where {unit_id} enters"
        if replacing and h in area_of(game, "entry_b"):
            # 11.3: placed like reinforcements, "but never in entry area B".
            return f"{label} is in {game.areas_by_id['entry_b'].name}, where Allied replacements are never placed"
        return f"{label} is not an Allied supply source (a landing hex or a port the Allies hold)"
    if units_at(state, label, enemy_of(state, side)):
        return f"enemy divisions hold {label}"
    if not supply.traces_to(state, side, h, placement_sources(state, side, entry_area)):
        where = "to the eastern map edge" if side == "German" else "to an Allied supply source"
        return f"{unit_id} at {label} could not trace a supply line {where}"
    return None
