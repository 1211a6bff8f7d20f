"""Onslaught's supply (8.0-8.5, 7.5): sources, supply lines, and the Allied income.

Rulings: docs/rules-coverage.md, the rulings register (8.1-8.5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adjudicator.findings import Finding
from adjudicator.notation.entries import Capture, Income
from adjudicator.systems.base import PerGame
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    OnslaughtState, enemy_of, occupants, replace, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply_map import ALLIED, GERMAN, SupplyMap, toward_sources
from adjudicator.systems.onslaught.tables import hex_by_label
from adjudicator.systems.onslaught.zoc import zone_of_control
from wargame.errors import did_you_mean
from wargame.game import Game
from wargame.hexes import Hex


SOUTHERN_FRANCE = "southern_france"
"""The name of the southern France source in `allied_sources` and `allied_income`."""

# 8.5: "cannot use Rouen without controlling Le Havre" (no such rule for Ghent; see above).
PORT_PREREQUISITES: dict[str, str] = {"port_rouen": "port_le_havre"}

FORTIFICATION = "fortification"


TraceKey = tuple[str, frozenset[Hex], frozenset[Hex], frozenset[Hex]]
_traces: PerGame[dict[TraceKey, frozenset[Hex]]] = PerGame(lambda game: {})
"""Supply lines already traced in a game, by side, sources, blocked and enemy-held hexes (games repeat them)."""


def _controller(label: str, h: Hex, held: Mapping[Hex, str], controlled: Mapping[str, str],
                default: str) -> str:
    """Who controls a hex (8.1): its occupant, else who last entered it, else its set-up owner."""
    return held.get(h) or controlled.get(label, default)


def _watched(game: Game) -> tuple[tuple[Hex, ...], tuple[str, ...], int]:
    """What the Allied sources depend on (8.1, 8.4, 8.5): the occupants of the landing hexes, ports and
    port areas, the control of the landing hexes and ports, and the turn southern France opens."""
    supply_map = SupplyMap.of(game)
    hexes = {h for _, h in supply_map.landing} | {p.hex for p in supply_map.ports}
    hexes |= {h for p in supply_map.ports for h in p.port_area or ()}
    labels = [label for label, _ in supply_map.landing] + [p.label for p in supply_map.ports]
    return tuple(sorted(hexes)), tuple(labels), int(game.parameter["southern_france_first_turn"])


_watched_by_game = PerGame(_watched)
SourcesKey = tuple[tuple[str | None, ...], tuple[str | None, ...], bool]
_sources: PerGame[dict[SourcesKey, tuple[dict[str, frozenset[Hex]], frozenset[Hex]]]] = PerGame(lambda game: {})
"""The Allied sources of each combination of what they depend on, and their hexes (they change only
when a division enters or leaves one of those hexes, or control of one changes hands)."""


def allied_sources(state: OnslaughtState, controlled: Mapping[str, str]) -> dict[str, frozenset[Hex]]:
    """Allied supply sources usable now, by name (hex label, or SOUTHERN_FRANCE) (8.1, 8.4, 8.5)."""
    return dict(_allied_sources(state, controlled)[0])


def allied_source_hexes(state: OnslaughtState) -> frozenset[Hex]:
    """The hexes of the Allied supply sources usable now (8.1, 8.4, 8.5)."""
    return _allied_sources(state, state.controlled)[1]


def _allied_sources(state: OnslaughtState,
                    controlled: Mapping[str, str]) -> tuple[dict[str, frozenset[Hex]], frozenset[Hex]]:
    """The Allied sources by name and their hexes, worked out once for each combination of the
    occupants and control they depend on."""
    own = controlled is state.controlled
    if own and ALLIED in state._sources:
        return state._sources[ALLIED]
    hexes, labels, southern_france_turn = _watched_by_game(state.game)
    held = occupants(state)
    key = (tuple(map(held.get, hexes)), tuple(map(controlled.get, labels)), state.at.turn >= southern_france_turn)
    cache = _sources(state.game)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 1024:
            cache.clear()
        found = _work_out_allied_sources(state, controlled)
        hit = cache[key] = (found, frozenset(h for hs in found.values() for h in hs))
    if own:
        state._sources[ALLIED] = hit
    return hit


def carry_sources(before: OnslaughtState, after: OnslaughtState, places: Iterable[str]) -> None:
    """Let `after` keep the Allied sources of `before` when it differs from it only in who occupies or
    controls `places` (a move's hexes) and none of them is a landing hex, a port or in a port area (8.1,
    8.4, 8.5): the sources then stay the same, and are not worked out again."""
    known = before._sources.get(ALLIED)
    if known is not None and before.at.turn == after.at.turn and _watched_labels(before.game).isdisjoint(places):
        after._sources[ALLIED] = known


_watched_labels = PerGame(lambda game: frozenset(
    [game.grid.label_of(h) for h in _watched(game)[0]] + list(_watched(game)[1])))
"""The labels of the hexes the Allied sources depend on (8.1, 8.4, 8.5)."""


def _work_out_allied_sources(state: OnslaughtState, controlled: Mapping[str, str]) -> dict[str, frozenset[Hex]]:
    """Allied supply sources usable now, by name (8.1, 8.4, 8.5), from the position."""
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
    if state.at.turn >= int(state.game.parameter["southern_france_first_turn"]):
        out[SOUTHERN_FRANCE] = supply_map.entry_b
    return out


def german_sources(state: OnslaughtState, controlled: Mapping[str, str],
                   captured_fortified_ports: frozenset[str]) -> frozenset[Hex]:
    """German supply sources (8.4): the east edge and the fortified ports never captured."""
    supply_map = SupplyMap.of(state.game)
    held = occupants(state)
    # 8.4 (ruling, docs/rules-coverage.md): an east-edge hex occupied by an Allied division or in
    # an Allied division's ZOC is no source, with no exception for a German division standing on it.
    allied_zoc = zone_of_control(state, ALLIED)
    out = {h for h in supply_map.east_edge if held.get(h) != ALLIED and h not in allied_zoc}
    for label, h in supply_map.fortified_ports:
        # 8.4: once captured, never again a German source; Allied control means it was captured.
        if label not in captured_fortified_ports and _controller(label, h, held, controlled, GERMAN) == GERMAN:
            out.add(h)
    return frozenset(out)


def hexes_tracing_to(state: OnslaughtState, side: str, sources: Iterable[Hex],
                     avoid: frozenset[Hex] = frozenset()) -> frozenset[Hex]:
    """Every hex from which a division of `side` can trace a supply line to one of `sources` (8.3).

    A line may pass a hex in enemy ZOC only if a friendly division occupies it, the source hex
    included; the division's own hex never blocks (docs/rules-coverage.md, rulings of 8.3). Hexes enemy
    divisions occupy are left out: no division of `side` can be there. A line never passes the
    hexes in `avoid` (11.4: not within three movement points of an Allied division).
    """
    game = state.game
    links = SupplyMap.of(game).links
    held = occupants(state)
    enemy = next(s for s in game.manifest.sides if s != side)
    # 8.3: a hex in enemy ZOC blocks the line unless a friendly division occupies it.
    blocked = zone_of_control(state, enemy).difference([h for h, owner in held.items() if owner == side]) | avoid
    candidates = frozenset(h for h in sources if h in links)
    enemy_held = frozenset(h for h, owner in held.items() if owner != side)
    # The answer depends on these alone; games repeat them across many activations.
    key = (side, candidates, blocked, enemy_held)
    cache = _traces(game)
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


def traces_avoiding(state: OnslaughtState, side: str, start: Hex, sources: Iterable[Hex],
                    avoid: frozenset[Hex]) -> bool:
    """Whether `start in hexes_tracing_to(state, side, sources, avoid)`, from a search that starts at `start` and
    stops at the first source (11.4 asks it of one hex; the links run both ways, so the hexes it joins are the
    same)."""
    links = SupplyMap.of(state.game).links
    held = occupants(state)
    if start not in links or held.get(start, side) != side:
        return False
    candidates = frozenset(h for h in sources if h in links)
    if start in candidates:
        return True  # 8.3: a division standing on a source occupies it
    enemy = next(s for s in state.game.manifest.sides if s != side)
    blocked = zone_of_control(state, enemy).difference([h for h, owner in held.items() if owner == side]) | avoid
    # The division's own hex never blocks (8.3): the line may begin in it or any open neighbour.
    stack = [h for h in (start, *links[start]) if h not in blocked]
    seen = set(stack)
    while stack:
        h = stack.pop()
        if h in candidates:
            return True
        for n in links[h]:
            if n not in seen and n not in blocked:
                seen.add(n)
                stack.append(n)
    return False


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


def allied_income(state: OnslaughtState, controlled: Mapping[str, str], declined: Iterable[str],
                  reduced: Mapping[str, int] | None = None) -> dict[str, int]:
    """Supply points the Allies collect from each source they hold, less those declined (8.1) and
    those reduced by announcement (8.7: the capture takes half of what was collected)."""
    game = state.game
    supply_map = SupplyMap.of(game)
    value = {port.label: port.value for port in supply_map.ports}
    value.update((label, supply_map.landing_value) for label, _ in supply_map.landing)
    value[SOUTHERN_FRANCE] = int(game.parameter["southern_france_supply"])
    skipped = set(declined)
    # 8.1: a declined source yields nothing (and so nothing to capture, 8.7).
    less = reduced or {}
    return {name: min(value[name], less.get(name, value[name])) for name in allied_sources(state, controlled)
            if name not in skipped}


def capped(points: int, side: str, game: Game) -> int:
    """Supply points on a side's track after 8.2's cap (60 Allied, 40 German; 60 and 40 legal)."""
    limit = int(game.parameter[f"{side.lower()}_supply_max"])
    # 8.2: "can never accumulate more than 60 ... Any excess points are permanently lost."
    return min(points, limit)


def gained(state: OnslaughtState, side: str, points: int) -> OnslaughtState:
    """The state after `side` gains `points` (8.1, 8.7, 12.0): its track capped (8.2), and what the
    cap took kept, so that spending those points is 8.2's breach."""
    total = state.supply.get(side, 0) + points
    kept = capped(total, side, state.game)
    return replace(state, supply={**state.supply, side: kept}, capped_away={**state.capped_away, side: total - kept},
                   unpaid={**state.unpaid, side: 0})


def traced_supply(state: OnslaughtState, side: str) -> frozenset[Hex]:
    """Hexes from which `side` traces a supply line in this state (8.3-8.5), computed once."""
    if side not in state._supplied:
        state._supplied[side] = supplied_hexes(state, side, state.controlled, state.captured_ports)
    return state._supplied[side]


def is_supplied(state: OnslaughtState, unit_id: str) -> bool:
    """Whether a division traces a supply line now (8.3-8.6; fortifications 7.5): the side's supplied
    hexes when already known, else a search from the division's hex that stops at the first source."""
    game = state.game
    where = state.location.get(unit_id)
    if where is None or not game.grid.is_label(where):
        return False
    side = unit_of(state, unit_id).side
    h = game.grid.hex_of(where)
    # 7.5, 8.4: German divisions in fortification hexes are always in supply.
    if side == GERMAN and FORTIFICATION in game.hex_terrain[h]:
        return True
    known = state._supplied.get(side)
    if known is not None:
        return h in known
    key = (side, h)
    line = state._lines.get(key)
    if line is None:
        line = state._lines[key] = traces_line(state, side, h)
    return line


def traces_line(state: OnslaughtState, side: str, start: Hex) -> bool:
    """Whether a division of `side` in `start` traces a supply line to one of its side's sources (8.3-8.5)."""
    if side == ALLIED:
        sources = allied_source_hexes(state)
    else:
        sources = german_sources(state, state.controlled, state.captured_ports)
    return traces_to(state, side, start, sources)


def traces_but_for_zoc(state: OnslaughtState, side: str, start: Hex) -> bool:
    """Whether a division of `side` in `start` would trace a supply line to one of its side's sources if
    enemy zones of control did not block it (8.3): the ZOC clause is then the one a claim of supply misreads."""
    links = SupplyMap.of(state.game).links
    held = occupants(state)
    if side == ALLIED:
        sources = frozenset(h for hexes in allied_sources(state, state.controlled).values() for h in hexes)
    else:
        sources = german_sources(state, state.controlled, state.captured_ports)
    seen = {start}
    frontier = [start]
    while frontier:
        h = frontier.pop()
        if h in sources:
            return True
        for n in links.get(h, ()):
            if n not in seen and held.get(n, side) == side:
                seen.add(n)
                frontier.append(n)
    return False


def traces_to(state: OnslaughtState, side: str, start: Hex, sources: frozenset[Hex]) -> bool:
    """Whether a division of `side` in `start` traces a supply line to one of `sources` (8.3): the answer
    of `start in hexes_tracing_to(state, side, sources)`, from a search that starts at the division and
    stops at the first source (or at a hex an earlier search found joined to one) instead of spreading over
    the whole map from every source."""
    links = SupplyMap.of(state.game).links
    held = occupants(state)
    if start not in links or held.get(start, side) != side:
        return False
    if start in sources:
        return True  # 8.3: a division standing on a source occupies it
    # Hexes joined to a source through hexes outside the enemy's ZOC stay joined whichever friendly
    # divisions stand in it (those only open more hexes): kept while the enemy's ZOC and the sources
    # stay the same, over the activations of a whole action.
    zoc = zone_of_control(state, enemy_of(state, side))
    game = state.game
    beyond = _beyond_zoc(game)
    wide_key = (side, sources, zoc)
    wide = beyond.get(wide_key)
    if wide is None:
        if len(beyond) > 256:
            beyond.clear()
        wide = beyond[wide_key] = set()
    # Those hexes are outside the enemy's ZOC, so never blocked: a division in or beside one traces
    # its line, asked before the blocked hexes are worked out.
    around = links[start]
    if start in wide or not wide.isdisjoint(around):
        return True
    # 8.3: a hex in enemy ZOC blocks the line unless a friendly division occupies it; the
    # division's own hex never blocks, so the line may begin in any open neighbour.
    blocked, opened = _blocked(state, side, zoc)
    frontier = [h for h in (start, *around) if h not in blocked]
    # Which open hexes join a source depends on the sources and the blocked hexes alone, which stay
    # the same over many activations: each search's hexes are remembered, joined or cut off (the
    # blocked hexes keyed by what makes them, the enemy's ZOC and the few hexes opened in it).
    regions = _regions(game)
    key = (side, sources, zoc, opened)
    region = regions.get(key)
    if region is None:
        if len(regions) > 256:
            regions.clear()
        region = regions[key] = (set(), set())
    joined, cut = region
    if any(h in joined for h in frontier):
        return True
    if all(h in cut for h in frontier):
        return False
    # Depth first, each hex's neighbours tried nearest to the side's sources first: the search heads
    # down the map's slope to them instead of spreading in rings. Whether a source is reached does
    # not depend on the order; every hex seen is joined to the division's hex whatever the order.
    toward = toward_sources(game).get(side, links)
    stack = list(frontier)
    seen = set(frontier)
    while stack:
        h = stack.pop()
        if h in sources or h in wide or h in joined:
            return _joined(start, h, seen, blocked, zoc, joined, wide)
        for n in toward[h]:
            if n not in seen and n not in blocked:
                seen.add(n)
                if n in sources or n in wide or n in joined:
                    return _joined(start, n, seen, blocked, zoc, joined, wide)
                stack.append(n)
    cut |= seen
    return False


def _blocked(state: OnslaughtState, side: str, zoc: frozenset[Hex]) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The hexes that block `side`'s supply lines (8.3), in the enemy's ZOC and not occupied by a friendly
    division, and the few the friendly divisions open in it (which, with the ZOC, name the blocked hexes
    cheaply in a key); worked out once per position and side (a stack's divisions ask in turn)."""
    known = state._blocked.get(side)
    if known is None:
        held = occupants(state)
        opened = frozenset([h for h, owner in held.items() if owner == side and h in zoc])
        known = state._blocked[side] = (zoc - opened, opened)
    return known


def _joined(start: Hex, h: Hex, seen: set[Hex], blocked: frozenset[Hex], zoc: frozenset[Hex], joined: set[Hex],
            wide: set[Hex]) -> bool:
    """A search of `traces_to` reached `h`, a source or a hex joined to one: what it saw is remembered."""
    if start not in blocked:
        if h not in joined and zoc.isdisjoint(seen):
            wide |= seen  # joined without a hex of the enemy's ZOC
        joined |= seen  # one open area through the division's hex (a blocked one joins nothing)
    return True




_beyond_zoc: PerGame[dict[tuple[str, frozenset[Hex], frozenset[Hex]], set[Hex]]] = PerGame(lambda game: {})
"""Hexes joined to a side's sources through hexes outside the enemy's ZOC, by side, sources and enemy ZOC."""
_regions: PerGame[dict[tuple[str, frozenset[Hex], frozenset[Hex], frozenset[Hex]], tuple[set[Hex], set[Hex]]]] = \
    PerGame(lambda game: {})
"""Open hexes found joined to a side's sources, or cut off from them, by side, sources and blocked hexes (named
by the enemy's ZOC and the hexes friendly divisions open in it)."""


def mark_control(state: OnslaughtState, unit_id: str, labels: Iterable[str]) -> OnslaughtState:
    """Record who last entered each hex of a path (8.1 control; 8.4 captured fortified ports); the
    control map is copied only when a hex changes hands."""
    changes = control_changes(state, unit_id, labels)
    return replace(state, **changes) if changes else state


def control_changes(state: OnslaughtState, unit_id: str, labels: Iterable[str]) -> dict[str, object]:
    """The state's new control map and captured ports (8.1, 8.4) once a division entered `labels`;
    empty when no hex changes hands."""
    side = unit_of(state, unit_id).side
    on_map_hexes = hex_by_label(state.game)
    controlled = state.controlled
    changed = [label for label in labels if label in on_map_hexes and controlled.get(label) != side]
    if not changed:
        return {}
    fortified = _fortified_labels(state.game)
    taken = {label for label in changed if side == ALLIED and label in fortified} - state.captured_ports
    return {"controlled": {**controlled, **{label: side for label in changed}},
            "captured_ports": state.captured_ports | taken}


def _fortified(game: Game) -> frozenset[str]:
    """The labels of the fortified ports (8.4)."""
    return frozenset(label for label, _ in SupplyMap.of(game).fortified_ports)


_fortified_labels = PerGame(_fortified)


def income_due(state: OnslaughtState, entry: Income) -> int:
    """The supply points a side collects in the Reinforcement Step (8.1)."""
    if entry.side == "German":
        return int(state.game.parameter["german_supply_income"])
    return sum(allied_income(state, state.controlled, entry.declined, entry.reduced).values())


def check_income(state: OnslaughtState, entry: Income) -> list[Finding]:
    # 8.1: that income comes in the Reinforcement Step is the step's `entries` in game.toml (the engine's check).
    out = []
    due = income_due(state, entry)
    if entry.reduced and entry.side != "Allied":
        out.append(finding("error", "8.7", entry, "only the Allied player announces a reduced collection"))
    elif entry.reduced:
        held = allied_income(state, state.controlled, ())
        for source, points in sorted(entry.reduced.items()):
            if source not in held or source in entry.declined:
                out.append(finding("error", "8.7", entry, f"{source} is not a supply source the Allies collect from "
                                                          f"this turn{did_you_mean(source, sorted(held))}"))
            elif points > held[source]:
                out.append(finding("error", "8.7", entry, f"{source} yields {held[source]} supply point(s); a "
                                                          f"reduced collection takes fewer, not {points}"))
    if entry.points is not None and entry.points != due:
        sources = allied_income(state, state.controlled, entry.declined, entry.reduced) if entry.side == "Allied" else {}
        detail = (" (" + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())) + ")") if sources else ""
        misread = misread_sources(state, entry, due) if entry.side == "Allied" else None
        section, why = misread or ("8.1", "")
        out.append(finding("error", section, entry, f"{entry.side} collects {due} supply point(s){detail}, not "
                                                    f"{entry.points}{why}"))
    total = state.supply.get(entry.side or "", 0) + (entry.points if entry.points is not None else due)
    limited = capped(total, entry.side or "", state.game)
    if limited < total:
        out.append(finding("note", "8.2", entry, f"{entry.side} reaches {total} supply points; {total - limited} "
                                                 f"above the limit of {limited} are lost"))
    return out


def misread_sources(state: OnslaughtState, entry: Income, due: int) -> tuple[str, str] | None:
    """The clause an Allied income claim misreads, when it is what counting sources that clause takes
    away gives: a landing hex last occupied by a German division (8.4), a port whose port area holds
    German divisions or Rouen without Le Havre (8.5). None when the claim is no such misreading (8.1)."""
    supply_map = SupplyMap.of(state.game)
    held = occupants(state)
    counted = allied_income(state, state.controlled, entry.declined, entry.reduced)
    skipped = set(entry.declined) | set(counted)
    lost = [label for label, _ in supply_map.landing if label not in skipped]
    # 8.5: a port the Allies hold that the port area (or Rouen's need of Le Havre) keeps from being a source.
    barred = [port for port in supply_map.ports
              if port.label not in skipped and port.value and held.get(port.hex) != GERMAN
              and _controller(port.label, port.hex, held, state.controlled, GERMAN) == ALLIED]
    if lost and due + supply_map.landing_value * len(lost) == entry.points:
        return "8.4", "".join(f"; {label} is no supply source: a German division was the last to occupy it"
                              for label in lost)
    if barred and due + sum(entry.reduced.get(p.label, p.value) for p in barred) == entry.points:
        return "8.5", "".join(f"; {p.label} is no supply source: " + (
            "German divisions are in its port area" if p.port_area is not None and
            any(held.get(h) == GERMAN for h in p.port_area) else "the port it depends on is not an Allied source")
            for p in barred)
    return None


def captured_points(state: OnslaughtState, label: str) -> int:
    """Supply points a German capture of an Allied source takes (8.7): half, rounded up, of
    what the Allies collected there on the previous turn."""
    return -(-state.collected.get(state.at.turn - 1, {}).get(label, 0) // 2)


def check_capture(state: OnslaughtState, entry: Capture) -> list[Finding]:
    # 8.7: that the German player captures in the Reinforcement Step is the step's `entries` in game.toml
    # (the engine's check).
    out: list[Finding] = []
    supply_map = SupplyMap.of(state.game)
    sources = {p.label for p in supply_map.ports} | {label for label, _ in supply_map.landing}
    if entry.hex not in sources:
        hint = did_you_mean(entry.hex, sorted(sources))
        return out + [finding("error", "8.7", entry, f"{entry.hex} is not an Allied port or landing hex"
                                                     f"{hint}")]
    if not units_at(state, entry.hex, "German"):
        out.append(finding("error", "8.7", entry, f"no German division occupies {entry.hex}"))
    if (state.at.turn, entry.hex) in state.seized:
        out.append(finding("error", "8.7", entry, f"supply at {entry.hex} was already captured this turn"))
    before = state.collected.get(state.at.turn - 1, {}).get(entry.hex, 0)
    if before < 1 and entry.points != 0:
        # 8.7: nothing collected there, nothing captured; `points 0` claims exactly that.
        out.append(finding("error", "8.7", entry, f"the Allies collected no supply at {entry.hex} on turn "
                                                  f"{state.at.turn - 1}, so there is none to capture"))
    elif entry.points is not None and entry.points != captured_points(state, entry.hex):
        out.append(finding("error", "8.7", entry, f"capturing {entry.hex} yields "
                                                  f"{captured_points(state, entry.hex)} supply point(s) "
                                                  f"(half of the {before} the Allies collected there on turn "
                                                  f"{state.at.turn - 1}, rounded up), not {entry.points}"))
    return out


def apply_income(state: OnslaughtState, entry: Income) -> OnslaughtState:
    """Supply income (8.1), capped (8.2); what each Allied source yielded is kept for 8.7's captures."""
    if not entry.side:
        return state
    if entry.side == "Allied":
        # 8.7: what each source yielded this turn is what a capture next turn takes half of.
        state = replace(state, collected={**state.collected, state.at.turn: allied_income(
            state, state.controlled, entry.declined, entry.reduced)})
    return gained(state, entry.side, entry.points if entry.points is not None else income_due(state, entry))


def apply_capture(state: OnslaughtState, entry: Capture) -> OnslaughtState:
    """A German capture of Allied supply (8.7): the points at once, 8.2's cap still holding."""
    if not entry.side:
        return state
    state = gained(state, entry.side, entry.points if entry.points is not None else captured_points(state, entry.hex))
    return replace(state, seized=state.seized | {(state.at.turn, entry.hex)})
