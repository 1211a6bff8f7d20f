"""Support fire marker pools, as data the system checks against: what is still in a side's pool
(its cups) this game turn (7.1, 7.2; a folio's changes, Omaha 11.1.4, 11.2.6, 11.2.7, 14.1, come in
as arguments) and the order markers are placed on a combat (8.2.1 b).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from wargame.game import Game
from wargame.models import Marker

CUP_KINDS = ("support_fire", "mines")
"""Marker kinds kept in the draw cups (11.1.4, 11.2.6); naval gunfire never goes in one (11.2.7)."""


def in_cups(game: Game, side: str, lost: Sequence[str], withheld: Sequence[str], out: Sequence[str],
            inclement: bool, scenario: str | None = None, capped: bool = True,
            allotted: Sequence[Marker] | None = None) -> Counter[str]:
    """How many of each of a side's cup markers can still be drawn this game turn: the allotment less
    those eliminated for good, put aside for the turn, already drawn or placed; no aircraft in
    inclement weather (14.1). `allotted`: the allotment, when the caller has it already."""
    gone = Counter(withheld)
    gone.update(out)
    left: Counter[str] = Counter()
    for marker in allotment(game, side, lost, scenario, capped) if allotted is None else allotted:
        if inclement and marker.icon == "aircraft":
            continue
        n = marker.count - gone[marker.id]
        if n > 0:
            left[marker.id] = n
    return left


def allotment(game: Game, side: str, lost: Sequence[str] = (), scenario: str | None = None,
              capped: bool = True) -> list[Marker]:
    """A side's cup markers this game turn (7.1): what is left of its set (the markers the scenario's
    set-up puts in its draw cups, else every one of the game's) after the markers eliminated for good
    (11.1.4, 11.2.3), or, when `capped` and the data's allotment is smaller, the lowest-valued of them
    first. The campaign game is not capped: its cups hold all of a side's markers (14.0 e, f)."""
    gone = Counter(lost)
    counts = cup_counts(game, side, scenario)
    markers = sorted((replace(m, count=counts[m.id] - gone[m.id]) for m in game.markers.marker
                      if m.side == side and m.kind in CUP_KINDS and counts[m.id] > gone[m.id]),
                     key=lambda m: (m.kind == "mines", m.value or 0, m.id))
    wanted = game.parameter.get(f"{side.lower()}_support_allotment")
    if not capped or not isinstance(wanted, int) or isinstance(wanted, bool):
        return markers
    # 7.1: fewer markers than the pool holds are taken lowest value first; the mines come on top
    # of the allotment (11.1.4).
    out: list[Marker] = []
    room = wanted
    for marker in markers:
        if marker.kind == "mines":
            out.append(marker)
            continue
        take = min(marker.count, room)
        room -= take
        if take:
            out.append(replace(marker, count=take))
    return out


def cup_counts(game: Game, side: str, scenario: str | None = None) -> Counter[str]:
    """How many of each of a side's markers start in its draw cups: the scenario's set-up rows that
    put them in a draw cup box (7.1, 11.1.4, 11.2.6, 14.0 e, f), or every marker of the game's when
    no scenario is given or its set-up puts none there."""
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    markers = game.markers_by_id
    counts: Counter[str] = Counter()
    for _, p in game.setup:
        if p.scenario == scenario and p.location in cups and p.piece in markers and markers[p.piece].side == side:
            counts[p.piece] += p.count
    if counts:
        return counts
    return Counter({m.id: m.count for m in game.markers.marker if m.side == side})


def placement_order_ok(sides: Iterable[str], attacker: str) -> bool:
    """8.2.1 b: markers are placed attacker, defender, attacker, defender, each step optional, so the
    sides of a combat's markers, in the order the log lists them, are a subsequence of A D A D."""
    steps = [attacker, "defender", attacker, "defender"]
    i = 0
    for side in sides:
        want = "defender" if side != attacker else attacker
        while i < len(steps) and steps[i] != want:
            i += 1
        if i == len(steps):
            return False
        i += 1
    return True
