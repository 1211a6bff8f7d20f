"""Onslaught's supply (8.0-8.5, 7.5): sources, supply lines, and the Allied income.

Pure functions over an `OnslaughtState`; nothing is mutated. One search answers a whole side:
`supplied_hexes` spreads out from every usable source at once, so asking about each division
afterwards is a set lookup.

Rulings (each also noted where it is applied):

- 8.3, the division's own hex: a supply line starts in the division's hex, which a friendly
  division (the division itself) occupies, so that hex never blocks the line. A division in
  enemy ZOC is in supply if a neighbouring hex carries a line to a source. The same holds for
  a hex a division is about to be placed in (10.1: reinforcements may be placed in enemy ZOC).
- 8.3 and 8.4, the source hex: the source hex is the last hex of the line, so 8.3 applies to
  it: a source in enemy ZOC serves only if a friendly division occupies it (and a division
  standing on a source is always supplied, by the ruling above). For the German east edge
  8.4 spells out "not occupied by an Allied division or in an Allied division's ZOC"; read as
  8.3 restated for the last hex, so an edge hex in Allied ZOC that a German division occupies
  still serves (8.3's exception for friendly-occupied hexes carries over).
- 8.1, control: the side of the division in a hex now, else the side that last entered it
  (`controlled`, hex label -> side), else the set-up owner: landing hexes are Allied (3.0,
  8.1), ports German. A division standing in a hex is the last to have entered it.
- 8.4, fortified ports: a fortified port the Allies control (or occupy) has been captured, so
  it counts as captured even if `captured_fortified_ports` omits it.
- 8.4, southern France: from turn 8 entry area B is where the Allied line ends; the source is
  off the map, so B's hexes are not subject to control (a German division that passed through
  B does not shut it), only to 8.3 (enemy divisions and ZOC in B block the hexes they cover).
- 8.5, port areas: Le Havre and Rouen share one port area, Antwerp and Ghent another
  (maps/onslaught/areas.toml). A port in a port area is a source only while the whole area is
  clear of German divisions and the Allies control the port. Rouen also needs Le Havre
  controlled; "controlling Le Havre" read as 8.1 control, which with the shared area clear
  is the same as Le Havre being a source, so the two readings listed in the ambiguities
  agree. 8.5 names the dependency for Rouen only, and the Antwerp-Ghent pair is not alike:
  ships reach Ghent from the Westerschelde through the Terneuzen canal, not past Antwerp; so
  Ghent does not need Antwerp, only the clear port area (which is the Westerschelde).
- 8.1, income: southern France gives its 4 points every turn from turn 8, whatever happens in
  area B (it is not a hex anyone can enter); sources without a printed value are held for 0.
- 8.1 vs 8.2, the cap: 8.2 is the specific rule ("can never accumulate more than 60 supply
  points; the German, no more than 40. Any excess points are permanently lost") and the
  equipment agrees: the tracks run to 30 and 20 and the flipped marker adds 30 or 20, so 60
  and 40 are exactly the most a track can show. 8.1's "stays below" is loose wording for the
  same limit; 60 (40) is legal, 61 (41) is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.systems.onslaught import system
from wargame.game import Game
from wargame.hexes import Hex, Hexside

if TYPE_CHECKING:
    from adjudicator.systems.onslaught.system import OnslaughtState

ALLIED = "Allied"
GERMAN = "German"
SOUTHERN_FRANCE = "southern_france"
"""The name of the southern France source in `allied_sources` and `allied_income`."""

# 8.5: "cannot use Rouen without controlling Le Havre" (no such rule for Ghent; see above).
PORT_PREREQUISITES: dict[str, str] = {"port_rouen": "port_le_havre"}

FORTIFICATION = "fortification"


@dataclass(frozen=True)
class Port:
    """A port (8.1): its area id, hex label and hex, printed value, and enclosing port area."""

    id: str
    label: str
    hex: Hex
    value: int
    port_area: frozenset[Hex] | None


@dataclass(frozen=True)
class SupplyMap:
    """The map facts supply asks about, computed once per game."""

    links: dict[Hex, tuple[Hex, ...]]
    landing: tuple[tuple[str, Hex], ...]
    landing_value: int
    ports: tuple[Port, ...]
    fortified_ports: tuple[tuple[str, Hex], ...]
    east_edge: frozenset[Hex]
    entry_b: frozenset[Hex]

    @staticmethod
    def of(game: Game) -> SupplyMap:
        """The supply facts of a game (cached on the game object)."""
        cached: SupplyMap | None = getattr(game, "_onslaught_supply_map", None)
        if cached is None:
            cached = SupplyMap._build(game)
            setattr(game, "_onslaught_supply_map", cached)
        return cached

    @staticmethod
    def _build(game: Game) -> SupplyMap:
        tables = system._Tables.of(game)
        grid = game.grid
        # 8.3: any traversable terrain, major waterways included; never a prohibited hex (sea,
        # neutral land), an impassable (sea) hexside or off the map.
        links = {h: tuple(n for n in h.neighbours()
                          if n in tables.passable and Hexside.between(h, n) not in tables.impassable_sides)
                 for h in sorted(tables.passable)}
        areas = game.areas_by_id
        landing_area = areas["landing_hexes"]
        landing = tuple((label, grid.hex_of(label)) for label in landing_area.hexes)
        landing_value = landing_area.value if landing_area.value is not None else \
            int(game.parameter["landing_hex_supply"])
        port_areas = [game.area_hexes(a.id) for a in game.areas.area if a.kind == "port_area"]
        ports = []
        for area in game.areas.area:
            if area.kind != "port":
                continue
            (label,) = area.hexes
            h = grid.hex_of(label)
            enclosing = next((hexes for hexes in port_areas if h in hexes), None)
            ports.append(Port(area.id, label, h, area.value or 0, enclosing))
        fortified = tuple((grid.label_of(h), h) for h in sorted(game.area_hexes("fortified_ports"),
                                                                 key=grid.label_of))
        return SupplyMap(links, landing, landing_value, tuple(ports), fortified,
                         game.area_hexes("east_edge"), game.area_hexes("entry_b"))


def occupants(state: OnslaughtState) -> dict[Hex, str]:
    """The side of the divisions in each occupied map hex (computed once per state)."""
    if not state._occupants:
        hexes = _hex_by_label(state.game)
        units = state.game.units_by_id
        # Filled in place, as the state's other caches are (an empty map is merely recomputed).
        state._occupants.update((hexes[where], units[unit_id].side) for unit_id, where in state.location.items()
                                if where in hexes)
    return state._occupants


def _hex_by_label(game: Game) -> dict[str, Hex]:
    """Every map hex by its label (cached on the game object: looked up for every division of every state)."""
    cached: dict[str, Hex] | None = getattr(game, "_hex_by_label", None)
    if cached is None:
        cached = {game.grid.label_of(h): h for h in game.grid.hexes}
        setattr(game, "_hex_by_label", cached)
    return cached


def _controller(label: str, h: Hex, held: Mapping[Hex, str], controlled: Mapping[str, str],
                default: str) -> str:
    """Who controls a hex (8.1): its occupant, else who last entered it, else its set-up owner."""
    return held.get(h) or controlled.get(label, default)


def allied_sources(state: OnslaughtState, controlled: Mapping[str, str]) -> dict[str, frozenset[Hex]]:
    """Allied supply sources usable now, by name (hex label, or SOUTHERN_FRANCE) (8.1, 8.4, 8.5)."""
    supply_map = SupplyMap.of(state.game)
    held = occupants(state)
    out: dict[str, frozenset[Hex]] = {}
    # 8.1, 8.4: a landing hex last occupied by a German division is no source until retaken.
    for label, h in supply_map.landing:
        if _controller(label, h, held, controlled, ALLIED) == ALLIED:
            out[label] = frozenset({h})
    usable: dict[str, bool] = {}
    for port in supply_map.ports:
        # 8.5: a port in a port area serves only while the whole area is clear of Germans.
        clear = port.port_area is None or not any(held.get(h) == GERMAN for h in port.port_area)
        usable[port.id] = clear and _controller(port.label, port.hex, held, controlled, GERMAN) == ALLIED
    for port in supply_map.ports:
        needed = PORT_PREREQUISITES.get(port.id)
        if usable[port.id] and (needed is None or usable[needed]):
            out[port.label] = frozenset({port.hex})
    # 8.4: from turn 8 a line traced to entry area B reaches southern France.
    if state.turn >= int(state.game.parameter["southern_france_first_turn"]):
        out[SOUTHERN_FRANCE] = supply_map.entry_b
    return out


def german_sources(state: OnslaughtState, controlled: Mapping[str, str],
                   captured_fortified_ports: frozenset[str]) -> frozenset[Hex]:
    """German supply sources (8.4): the east edge and the fortified ports never captured."""
    supply_map = SupplyMap.of(state.game)
    held = occupants(state)
    # Whether an edge hex is in Allied ZOC or occupied is 8.3's question, settled by the search.
    out = set(supply_map.east_edge)
    for label, h in supply_map.fortified_ports:
        # 8.4: once captured, never again a German source; Allied control means it was captured.
        if label not in captured_fortified_ports and _controller(label, h, held, controlled, GERMAN) == GERMAN:
            out.add(h)
    return frozenset(out)


def hexes_tracing_to(state: OnslaughtState, side: str, sources: Iterable[Hex],
                     avoid: frozenset[Hex] = frozenset()) -> frozenset[Hex]:
    """Every hex from which a division of `side` can trace a supply line to one of `sources` (8.3).

    A line may pass a hex in enemy ZOC only if a friendly division occupies it, the source hex
    included; the division's own hex never blocks (see the module's rulings). Hexes enemy
    divisions occupy are left out: no division of `side` can be there. A line never passes the
    hexes in `avoid` (11.4: not within three movement points of an Allied division).
    """
    game = state.game
    links = SupplyMap.of(game).links
    held = occupants(state)
    enemy = next(s for s in game.manifest.sides if s != side)
    # 8.3: a hex in enemy ZOC blocks the line unless a friendly division occupies it.
    blocked = frozenset(h for h in system.ONSLAUGHT.zoc(state, enemy) if held.get(h) != side) | avoid
    candidates = frozenset(h for h in sources if h in links)
    enemy_held = frozenset(h for h, owner in held.items() if owner != side)
    # The answer depends on these alone; games repeat them across many activations.
    key = (side, candidates, blocked, enemy_held)
    cache: dict[tuple[str, frozenset[Hex], frozenset[Hex], frozenset[Hex]], frozenset[Hex]] | None = \
        getattr(game, "_supply_traces", None)
    if cache is None:
        cache = {}
        setattr(game, "_supply_traces", cache)  # lives and dies with the game's data
    if key in cache:
        return cache[key]
    if len(cache) > 512:
        cache.clear()
    reached = {h for h in candidates if h not in blocked}
    frontier = list(reached)
    while frontier:
        h = frontier.pop()
        for n in links[h]:
            if n not in reached and n not in blocked:
                reached.add(n)
                frontier.append(n)
    out = set(reached)
    # 8.3: the division's own hex never blocks its line, so one step beyond the open hexes is
    # supplied too, and so is a source hex itself (a division standing on it occupies it).
    for h in reached:
        out.update(links[h])
    out.update(candidates)
    result = frozenset(h for h in out if held.get(h, side) == side)
    cache[key] = result
    return result



def supplied_hexes(state: OnslaughtState, side: str, controlled: Mapping[str, str],
                   captured_fortified_ports: frozenset[str]) -> frozenset[Hex]:
    """Every hex from which a division of `side` can trace a supply line to a source (8.3, 8.4)."""
    if side == ALLIED:
        sources: Iterable[Hex] = (h for hexes in allied_sources(state, controlled).values() for h in hexes)
    elif side == GERMAN:
        sources = german_sources(state, controlled, captured_fortified_ports)
    else:
        raise ValueError(f"unknown side {side!r} (sides: {ALLIED}, {GERMAN})")
    return hexes_tracing_to(state, side, sources)


def in_supply(state: OnslaughtState, unit_id: str, supplied: frozenset[Hex]) -> bool:
    """Whether a division on the map is in supply, given its side's `supplied_hexes` (7.5, 8.3)."""
    game = state.game
    where = state.location.get(unit_id)
    if where is None or not game.grid.is_label(where):
        return False
    h = game.grid.hex_of(where)
    # 7.5, 8.4: German divisions in fortification hexes are always in supply.
    if game.units_by_id[unit_id].side == GERMAN and FORTIFICATION in game.hex_terrain[h]:
        return True
    return h in supplied


def allied_income(state: OnslaughtState, controlled: Mapping[str, str], declined: Iterable[str]) -> dict[str, int]:
    """Supply points the Allies collect from each source they hold, less those declined (8.1)."""
    game = state.game
    supply_map = SupplyMap.of(game)
    value = {port.label: port.value for port in supply_map.ports}
    value.update((label, supply_map.landing_value) for label, _ in supply_map.landing)
    value[SOUTHERN_FRANCE] = int(game.parameter["southern_france_supply"])
    skipped = set(declined)
    # 8.1: a declined source yields nothing (and so nothing to capture, 8.7).
    return {name: value[name] for name in allied_sources(state, controlled) if name not in skipped}


def capped(points: int, side: str, game: Game) -> int:
    """Supply points on a side's track after 8.2's cap (60 Allied, 40 German; 60 and 40 legal)."""
    limit = int(game.parameter[f"{side.lower()}_supply_max"])
    # 8.2: "can never accumulate more than 60 ... Any excess points are permanently lost."
    return min(points, limit)
