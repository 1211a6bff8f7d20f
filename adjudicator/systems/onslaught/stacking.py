"""Stacking (6.3): the limit at the end of every action and step (a note when the log ends before it), and removals
from an overstacked hex."""

from __future__ import annotations

import weakref
from collections import Counter

from adjudicator.findings import Finding
from adjudicator.notation.entries import Loss, Place
from adjudicator.systems.onslaught.sections import TABLE, finding
from adjudicator.systems.onslaught.state import OnslaughtState, on_map, stacks, turn_and_step, unit_of, units_at
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


def overstacks_when_the_log_ends(state: OnslaughtState) -> list[Finding]:
    """6.3: a log ending before the action or step under way does never reaches the point where stacking is judged:
    each overstack not yet reported is a note on the line of the last entry that made it (the owner's removals, or
    a division leaving, could still come)."""
    if state.action_log.stacks_checked:
        return []
    limit = int(state.game.parameter.get("stacking_limit", 3))
    lines = state.action_log.arrived
    out = []
    for where, side, excess in overstacked(state):
        arrived = [lines[u] for u in units_at(state, where, side) if u in lines]
        if (where, side) in state.overstacks or not arrived:
            # Reported where it arose, until resolved; or it stood as the action or step began, judged there.
            continue
        line = max(arrived)
        out.append(TABLE.finding("note", "6.3", line, 1, f"the log ends inside {turn_and_step(state)}, before the "
                                                        "action or step under way ends, where stacking is judged "
                                                        f"(6.3): {side} has {excess} division(s) over the limit of "
                                                        f"{limit} in hex {where}, an error unless removals follow"))
    return out


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


def holds_full_stack(state: OnslaughtState, label: str, side: str) -> bool:
    """Whether a map hex already holds as many of `side`'s divisions as a stack may (6.3)."""
    if label not in hex_by_label(state.game):
        return False
    return len(units_at(state, label, side)) >= int(state.game.parameter.get("stacking_limit", 3))


def arrival_rule(state: OnslaughtState, entry: Place) -> str | None:
    """The section that reports a division arriving in a hex its side already fills as it arrives, or None when
    6.3 alone judges that stack, at the end of the action or step (a paradrop: 9.2 lets it land in any hex without
    Germans; a German replacement: 11.4 is silent on stacking). The check (`check_arrival`) and the apply
    (arrivals.py's `apply_place`, which spares 6.3 a stack reported here) both ask this, so each overstack is
    reported once."""
    if entry.hex is None or on_map(state, entry.unit) is not None:
        return None  # no hex of the map entered, or rebuilt where it stands (11.2): no arrival
    if entry.how == "setup":
        return "3.0"  # the landing divisions' grouping, judged hex by hex as turn 1 begins (setup.check_grouping)
    if entry.how == "reinforce" or entry.how == "replace" and unit_of(state, entry.unit).side == "Allied":
        # 10.1: reinforcements (from the schedule, the Delayed Reinforcements box or, 14.2, a French city) and
        # Allied replacements, placed "exactly like reinforcements" (11.3), are never overstacked.
        return "10.1"
    return None


def overstacks_on_arrival(state: OnslaughtState, entry: Place) -> bool:
    """Whether a placement's own rule reports the overstack it makes as the division arrives (`arrival_rule`)."""
    rule = arrival_rule(state, entry)
    return rule is not None and holds_full_stack(state, entry.hex or "", unit_of(state, entry.unit).side)


def check_arrival(state: OnslaughtState, entry: Place, found: list[Finding]) -> list[Finding]:
    """10.1: a reinforcement or Allied replacement placed where its side already has a full stack; a note when the
    placement has already broken another rule (one placement, one error), the overstack still counted reported."""
    if arrival_rule(state, entry) != "10.1" or not overstacks_on_arrival(state, entry):
        return []
    side = unit_of(state, entry.unit).side
    limit = int(state.game.parameter.get("stacking_limit", 3))
    message = (f"{entry.hex} already holds {limit} {side} divisions, a full stack; {entry.unit} may not be "
               "placed there to overstack it")
    first = next((f for f in found if f.severity == "error"), None)
    if first is None:
        return [finding("error", "10.1", entry, message)]
    return [finding("note", "10.1", entry, f"{message} (one placement, one error: see its {first.rule} error)")]
