"""The ids of an entry checked against the game (units, hexes, steps, sides), and the part of a path on the map."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from adjudicator.notation.entries import Entry, amended
from adjudicator.notation.text import iter_units_and_hexes, tokens_of
from wargame.errors import GridError, LogSyntaxError, Place, close_words, did_you_mean, listed
from wargame.game import Game
from wargame.sequence import TurnOrder

__all__ = ["Resolver", "resolve"]


def _column_of(source_line: str, value: str, fallback: int) -> int:
    """The column of the word naming `value` on its source line (a hex inside a path too), else `fallback`."""
    for token in tokens_of(source_line):
        if token.text == value:
            return token.column
        offset = 0
        for part in token.text.split("-"):
            if part == value:
                return token.column + offset
            offset += len(part) + 1
    return fallback


class Resolver:
    """Every unit id, hex label and step id of an entry checked against the game, with "did you mean"."""

    def __init__(self, game: Game, file: str, source: Sequence[str] = (), order: TurnOrder | None = None) -> None:
        self.game, self.file, self.source = game, file, source
        self.units = game.units_by_id
        self.boxes = {b.id for b in game.manifest.box} | set(game.areas_by_id)
        self.order = order or TurnOrder(game.manifest)
        self.steps = self.order.steps

    def _error(self, entry: Entry, value: str | None, message: str) -> LogSyntaxError:
        column = entry.column
        if value is not None and 0 < entry.line <= len(self.source):
            column = _column_of(self.source[entry.line - 1], value, entry.column)
        return LogSyntaxError(message, Place(self.file, entry.line, column))

    def leaves_map(self, entry: Entry) -> bool:
        """A move or retreat whose path steps from the map onto a hex beyond its edge (a label of the map's
        own format, next to the hex before it): a rule question for the system, not a typo."""
        path = entry.path_hexes() if entry.may_leave_map else ()
        if len(path) < 2:
            return False
        grid = self.game.grid
        if all(map(grid.is_label, path)):
            return False
        for before, label in zip(path, path[1:]):
            if not grid.is_label(label):
                beyond, last = grid.hex_beyond(label), grid.hex_beyond(before)
                return beyond is not None and last is not None and grid.is_label(before) and \
                    beyond.distance(last) == 1
        return False

    def _near(self, label: str, path: Sequence[str]) -> str:
        """ " (did you mean X?)" for a mistyped hex: one or two keystrokes from `label`, nearest the path's
        hexes on the map; else the on-map hex nearest where the label points."""
        grid = self.game.grid
        anchors = [grid.hex_of(x) for x in path if x != label and grid.is_label(x)]
        if anchors:
            close = [(min(a.distance(grid.hex_of(c)) for a in anchors), d, c)
                     for d, c in close_words(label, grid.labels, 2) if c not in path]
            close = [t for t in close if t[0] <= 6]
            if close:
                return f" (did you mean {min(close)[2]!r}?)"
        return ""

    def first_problem(self, entry: Entry) -> LogSyntaxError | None:
        """The first id of the entry the game does not know, placed at its word; None if all resolve."""
        sides = self.game.manifest.sides
        for side in entry.sides_named():
            if side not in sides:
                # A side the game lacks is an id like a unit's: no rule can be asked about it.
                return self._error(entry, side, f"unknown side {side!r}{did_you_mean(side, sides)} (the game's: "
                                                f"{', '.join(sides)})")
        marker = entry.as_step_marker()
        if marker is not None and self.steps and marker.step not in self.steps:
            return self._error(entry, marker.step, f"unknown step or phase {marker.step!r}"
                                                   f"{did_you_mean(marker.step, self.steps)} "
                                                   f"(the turn's: {listed(self.steps)})")
        leaving: bool | None = None  # worked out only for a label off the map (rare)
        path: list[str] = []
        is_label = self.game.grid.is_label
        for kind, value in iter_units_and_hexes(entry):
            if kind == "unit" and value not in self.units:
                return self._error(entry, value, self.game.unknown_unit(value))
            if kind == "hex" and not is_label(value) and value not in self.boxes:
                if leaving is None:
                    leaving = self.leaves_map(entry)
                    path = list(entry.path_hexes())
                if leaving and value in path:
                    continue
                try:
                    self.game.grid.hex_of(value)
                except GridError as e:
                    near = self._near(value, path) if value in path else ""
                    message = e.message if not near else re.sub(r" \(did you mean [^)]*\)$", "", e.message) + near
                    return self._error(entry, value, message)
        return None

    def applied(self, entry: Entry) -> Entry | None:
        """The entry as it is applied: a move or retreat whose path leaves the map or names a box or area (ids, no
        hexes) kept to its hexes on the map, from the first to the next that is not; None when none is left. The
        system's check says what the path breaks."""
        if not entry.may_leave_map:
            return entry
        is_label = self.game.grid.is_label
        path = entry.path_hexes()
        if all(map(is_label, path)):
            return entry
        first = next((i for i, label in enumerate(path) if is_label(label)), None)
        if first is None:
            return None
        return _on_map(amended(entry, path=list(path[first:])) if first else entry, is_label)


def resolve(game: Game, entries: Sequence[Entry], file: str, source: Sequence[str] = ()) -> list[LogSyntaxError]:
    """Every unit id and hex label the log names that the game does not know, with suggestions
    (the first of each entry)."""
    resolver = Resolver(game, file, source)
    return [problem for entry in entries if (problem := resolver.first_problem(entry)) is not None]


def _on_map(entry: Entry, grid_has: Callable[[str], bool]) -> Entry:
    """A move or retreat leaving the map, applied as far as its last hex on the map (the finding of the
    system says it may not leave; the unit cannot be placed beyond the edge)."""
    if entry.may_leave_map:
        path = list(entry.path_hexes())
        cut = next((i for i, label in enumerate(path) if not grid_has(label)), len(path))
        if cut < len(path):
            return amended(entry, path=path[:max(cut, 1)])
    return entry
