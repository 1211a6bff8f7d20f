"""Hexes in axial coordinates: neighbours, hexsides, distance, rings and lines.

All rule arithmetic is integer hex math on `Hex`; printed labels and offset parity live in
`wargame.grid`, pixels in `wargame.layout` (house style 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

# Axial direction vectors, counter-clockwise. For flat-topped hexes on a y-down screen these
# are SE, NE, N, NW, SW, S; for pointy-topped ones E, NE, NW, W, SW, SE (see wargame.grid).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_tuple_new = tuple.__new__


class Hex(NamedTuple):
    """A hex in axial coordinates (q, r); the third cube coordinate is s = -q - r."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate."""
        return -self.q - self.r

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in direction 0-5."""
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order."""
        # Written out in DIRECTIONS' order and made by tuple.__new__, not Hex()'s Python-level __new__ through a
        # generator: half the time, and a board asks for every hex's neighbours (test_hexes.py holds the order).
        q, r = self
        return (_tuple_new(Hex, (q + 1, r)), _tuple_new(Hex, (q + 1, r - 1)), _tuple_new(Hex, (q, r - 1)),
                _tuple_new(Hex, (q - 1, r)), _tuple_new(Hex, (q - 1, r + 1)), _tuple_new(Hex, (q, r + 1)))

    def distance(self, other: Hex) -> int:
        """Number of hex steps between two hexes."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def is_adjacent(self, other: Hex) -> bool:
        """True if the two hexes share a hexside."""
        return self.distance(other) == 1

    def direction_to(self, other: Hex) -> int:
        """Direction 0-5 of an adjacent hex; ValueError if not adjacent."""
        try:
            return DIRECTIONS.index((other.q - self.q, other.r - self.r))
        except ValueError:
            raise ValueError(f"{other} is not adjacent to {self}") from None

    def side(self, direction: int) -> Hexside:
        """The hexside of this hex in direction 0-5."""
        return Hexside.between(self, self.neighbour(direction))

    def sides(self) -> tuple[Hexside, ...]:
        """The six hexsides of this hex, in direction order."""
        return tuple(Hexside.between(self, n) for n in self.neighbours())

    def ring(self, radius: int) -> list[Hex]:
        """Hexes exactly `radius` steps away (6*radius of them; [self] for radius 0)."""
        if radius < 0:
            raise ValueError("radius must be >= 0")
        if radius == 0:
            return [self]
        results: list[Hex] = []
        dq, dr = DIRECTIONS[4]
        h = Hex(self.q + dq * radius, self.r + dr * radius)
        for direction in range(6):
            for _ in range(radius):
                results.append(h)
                h = h.neighbour(direction)
        return results

    def spiral(self, radius: int) -> Iterator[Hex]:
        """This hex, then each ring out to `radius`."""
        for k in range(radius + 1):
            yield from self.ring(k)

    def line_to(self, other: Hex) -> list[Hex]:
        """Hexes on the straight line from self to other, both included.

        Sampling points are nudged by a fixed epsilon so a line running exactly along
        hexsides picks the same side every time.
        """
        n = self.distance(other)
        if n == 0:
            return [self]
        eps_q, eps_r = 1e-6, 2e-6
        aq, ar = self.q + eps_q, self.r + eps_r
        bq, br = other.q + eps_q, other.r + eps_r
        return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def cube_round(fq: float, fr: float) -> Hex:
    """The hex containing fractional axial coordinates (ties broken in a fixed order)."""
    fs = -fq - fr
    q = round(fq)
    r = round(fr)
    s = round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


class Hexside(NamedTuple):
    """The side shared by two adjacent hexes; the same value whichever hex names it."""

    a: Hex
    b: Hex

    @staticmethod
    def between(one: Hex, other: Hex) -> Hexside:
        """The canonical hexside between two adjacent hexes; ValueError otherwise."""
        if one.distance(other) != 1:
            raise ValueError(f"{one} and {other} are not adjacent")
        return Hexside(one, other) if one < other else Hexside(other, one)

    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes the side separates."""
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex across this side from `h`."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")
