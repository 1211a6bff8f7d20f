"""Stacking (6.3): the limit at the end of every action and step, and removals from an overstacked hex."""

from __future__ import annotations

import weakref
from collections import Counter

from adjudicator.findings import Finding
from adjudicator.notation.entries import Loss
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import OnslaughtState, on_map, stacks, unit_of, units_at
from adjudicator.systems.onslaught.tables import hex_by_label
from wargame.game import Game


_last: dict[str, tuple[dict[str, str], weakref.ref[Game], list[tuple[str, str, int]]]] = {}
"""The latest position's overstacks, with its location mapping and game (an action's end is checked, then
applied, on the same position)."""


def overstacked(state: OnslaughtState) -> list[tuple[str, str, int]]:
    known = _last.get("overstacked")
    if known is not None and known[0] is state.location and known[1]() is state.game:
        return list(known[2])
    limit = int(state.game.parameter.get("stacking_limit", 3))
    units, hexes = state.game.units_by_id, hex_by_label(state.game)
    # Only a place holding more divisions than the limit can hold more of one side.
    count = Counter((where, units[u].side) for where, here in stacks(state).items()
                    if len(here) > limit and where in hexes for u in here)
    found = sorted((where, side, n - limit) for (where, side), n in count.items() if n > limit)
    _last["overstacked"] = (state.location, weakref.ref(state.game), found)
    return list(found)


def check_remove(state: OnslaughtState, entry: Loss) -> list[Finding]:
    """6.3: divisions are removed only from a stack over the limit, by their owner."""
    where = state.location.get(entry.unit)
    if on_map(state, entry.unit) is None:
        return [finding("error", "6.3", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
    side = unit_of(state, entry.unit).side
    limit = int(state.game.parameter.get("stacking_limit", 3))
    if entry.side and entry.side != side:
        return [finding("error", "6.3", entry, f"{entry.unit} is {side}; the owner chooses which divisions are "
                                               "removed")]
    here = units_at(state, where or "", side)
    if len(here) <= limit:
        return [finding("error", "6.3", entry, f"{where} holds {len(here)} {side} division(s), within the limit "
                                               f"of {limit}; nothing is removed")]
    return []
