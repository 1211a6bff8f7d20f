"""Support fire marker pools, as data the system checks against: what is still in a side's pool
(its cups) this game turn (7.1, 7.2; a folio's changes, Omaha 11.1.4, 11.2.6, 11.2.7, 14.1, come in
as arguments) and the order markers are placed on a combat (8.2.1 b).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from wargame.game import Game
from wargame.models import Marker

class Tally(Mapping[str, int]):
    """How many of each marker a state counts (used, put aside, lost for good, kept): a count a marker, so a log
    repeating markers costs each entry the same, not more with every repeat (a tuple of every use was counted over
    at each entry). Immutable; `count` as a tuple's, `plus` and `less` give new tallies."""

    __slots__ = ("_counts", "_hash")

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        self._counts: dict[str, int] = {m: n for m, n in (counts or {}).items() if n > 0}
        self._hash: int | None = None

    @classmethod
    def of(cls, *markers: str) -> Tally:
        """A tally of these markers, each as often as named."""
        return cls(Counter(markers))

    def __getitem__(self, marker_id: str) -> int:
        return self._counts[marker_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._counts.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Tally({self._counts!r})"

    def count(self, marker_id: str) -> int:
        """How many of a marker are counted (0 for none)."""
        return self._counts.get(marker_id, 0)

    def plus(self, markers: Iterable[str]) -> Tally:
        """The tally with these markers counted once more each time named."""
        counts = dict(self._counts)
        for marker_id in markers:
            counts[marker_id] = counts.get(marker_id, 0) + 1
        return Tally(counts)

    def less(self, marker_id: str) -> Tally:
        """The tally with one of a marker counted fewer (none below nothing)."""
        counts = dict(self._counts)
        counts[marker_id] = counts.get(marker_id, 0) - 1
        return Tally(counts)

    def elements(self) -> list[str]:
        """Every marker counted, as often as counted, by id."""
        return [m for m, n in sorted(self._counts.items()) for _ in range(n)]


NONE = Tally()
"""The empty tally."""


def counted(markers: Mapping[str, int] | Iterable[str]) -> Counter[str]:
    """A count of markers given as a tally (or any count a marker) or as a list of them."""
    if isinstance(markers, Mapping):
        return Counter(dict(markers))
    return Counter(markers)


CUP_KINDS = ("support_fire", "mines")
"""Marker kinds kept in the draw cups (11.1.4, 11.2.6); naval gunfire never goes in one (11.2.7)."""


Markers = Mapping[str, int] | Iterable[str]
"""Markers as a tally (a count a marker) or as a list of them."""


def in_cups(game: Game, side: str, lost: Markers, withheld: Markers, out: Markers,
            inclement: bool, scenario: str | None = None, capped: bool = True,
            allotted: Sequence[Marker] | None = None) -> Counter[str]:
    """How many of each of a side's cup markers can still be drawn this game turn: the allotment less
    those eliminated for good, put aside for the turn, already drawn or placed; no aircraft in
    inclement weather (14.1). `allotted`: the allotment, when the caller has it already."""
    gone = counted(withheld)
    gone.update(counted(out))
    left: Counter[str] = Counter()
    for marker in allotment(game, side, lost, scenario, capped) if allotted is None else allotted:
        if inclement and marker.icon == "aircraft":
            continue
        n = marker.count - gone[marker.id]
        if n > 0:
            left[marker.id] = n
    return left


def allotment(game: Game, side: str, lost: Markers = (), scenario: str | None = None,
              capped: bool = True) -> list[Marker]:
    """A side's cup markers this game turn (7.1): what is left of its set (the markers the scenario's
    set-up puts in its draw cups, else every one of the game's) after the markers eliminated for good
    (11.1.4, 11.2.3), or, when `capped` and the data's allotment is smaller, the lowest-valued of them
    first. The campaign game is not capped: its cups hold all of a side's markers (14.0 e, f)."""
    gone = counted(lost)
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
