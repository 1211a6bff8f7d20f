"""What a picture of a position shows: the counters in each hex and what is marked on them.

The referee fills a `Scene` from a position it judged (and a finding's facts); the builder draws
it with the module's own art. Neither knows the other: this module is the contract between them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Literal

from wargame.errors import GridError, WargameError
from wargame.grid import Grid
from wargame.hexes import Hex
from wargame.records import frozen

WORDS = re.compile(r"[A-Za-z0-9][A-Za-z0-9/_.+-]*")
"""The words of a message that may name a unit or a hex (a path's hyphens kept, split by the reader)."""

Face = Literal["full", "reduced", "further1", "further2"]
"""A unit's printed face: full, reduced, or a further reduced face of a unit of three or four steps."""
FACES: tuple[Face, ...] = ("full", "reduced", "further1", "further2")
"""The faces by steps lost: 0 full, 1 reduced, 2 and 3 the further reduced ones."""
Tone = Literal["breach", "legal", "attacker", "defender", "info"]
MarkKind = Literal["path", "shade", "arrow", "ring", "note", "label"]


@frozen
class Counter:
    """One counter of a stack, as printed: a unit's face, or a marker's face number."""

    piece: str
    face: Face = "full"
    marker: bool = False


@frozen
class Stack:
    """The counters in one hex (or box), bottom first, as VASSAL stacks them."""

    place: str
    counters: tuple[Counter, ...]


@frozen
class Mark:
    """One thing drawn over the board.

    path: the hexes moved through, numbered from 0; shade: hexes tinted (a zone of control);
    arrow: from each hex but the last to the last (attackers to the defender); ring: hexes
    outlined; note: a text box beside the first hex (the odds, a differential), away from the others;
    label: a short text (a movement cost) low in each of its hexes.
    """

    kind: MarkKind
    hexes: tuple[str, ...]
    tone: Tone = "info"
    text: str = ""


@frozen
class TrackValue:
    """Where a track's marker stands: the track kind (`supply`, `turn`), the side (None: both) and its value."""

    kind: str
    side: str | None
    value: int


@frozen
class Scene:
    """A position as a picture shows it: stacks (in hexes and in boxes), track values, marks, a caption."""

    stacks: tuple[Stack, ...]
    marks: tuple[Mark, ...] = ()
    caption: str = ""
    tracks: tuple[TrackValue, ...] = ()


@frozen
class Crop:
    """Which part of the map a picture shows: the hexes given, or every hex within `radius`
    of `around`, widened by `margin` hexes on each side; the whole map when both are empty."""

    hexes: tuple[str, ...] = ()
    around: str | None = None
    radius: int = 3
    margin: int = 1
    extra: tuple[str, ...] = field(default=())

    def labels(self, grid: Grid) -> list[str]:
        """The labels of the hexes the crop must show (empty: the whole map)."""
        wanted: list[str] = []
        if self.around is not None:
            centre = grid.hex_of(self.around)
            wanted += [grid.label_of(h) for h in grid.hexes if centre.distance(h) <= self.radius]
        for label in (*self.hexes, *self.extra):
            grid.hex_of(label)  # GridError with a suggestion for a label not on the map
            wanted.append(label)
        return sorted(set(wanted))


def parse_hex_list(text: str) -> tuple[str, ...]:
    """`0620,0821` (commas or spaces) as a tuple of labels; WargameError if empty."""
    labels = tuple(part for part in text.replace(",", " ").split() if part)
    if not labels:
        raise WargameError("expected hex labels separated by commas, e.g. 0620,0821")
    return labels


def stacks_in(places: Mapping[str, Iterable[Counter]]) -> tuple[Stack, ...]:
    """Stacks in label order (a deterministic picture whatever order the position lists)."""
    return tuple(Stack(place, tuple(counters)) for place, counters in sorted(places.items()))


def hex_span(grid: Grid, labels: Iterable[str]) -> int:
    """The largest distance between two of the hexes (0 for one hex or none)."""
    hexes: list[Hex] = []
    for label in labels:
        try:
            hexes.append(grid.hex_of(label))
        except GridError:
            continue
    return max((a.distance(b) for a in hexes for b in hexes), default=0)


def angle_of(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The direction from a to b, in radians on screen (y down)."""
    return math.atan2(b[1] - a[1], b[0] - a[0])


__all__ = ["FACES", "WORDS", "Counter", "Crop", "Face", "Mark", "MarkKind", "Scene", "Stack", "Tone", "TrackValue", "angle_of", "hex_span",
           "parse_hex_list", "stacks_in"]
