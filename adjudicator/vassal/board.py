"""Where the translation has each unit's counter: the saved position, VASSAL's places named as the game's
hexes, boxes and tracks, and the counters' faces."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from adjudicator.contract import RuleSystem
from adjudicator.notation.entries import Header
from adjudicator.vassal.chat import MOVE_REPORT, chat_text, one_line
from adjudicator.vassal.output import Output
from wargame.game import Game
from wargame.models import Box
from wargame.vassal.pieces import Piece
from wargame.vassal.places import NOWHERE, Location, Places
from wargame.vassal.tracking import ChatEvent, PieceEvent, StepEvents, Tracking

STEP_LAYER = "Step"
"""The layer our modules give two-sided counters (wargame.vassal.encoding.layer_two_sided)."""
PARKING = ("map", "off-grid")
"""Places that are no place of the game (the map key, a window's free area, off the hex grid): a counter put
there is set aside by hand, and is still where it was in the game until it comes back."""


def face_of(piece: Piece | None) -> int:
    """The steps a counter's face shows lost: 0 full, 1 reduced, 2 or 3 a further reduced face (our modules'
    Step layer, one level a face)."""
    layer = None if piece is None else piece.layer(STEP_LAYER)
    return 0 if layer is None else max(layer.level - 1, 0)


def is_reduced(piece: Piece | None) -> bool:
    """True for a counter showing its reduced side, or a face below it (our modules' Step layer past its first
    level)."""
    return face_of(piece) >= 1


@dataclass
class Board:
    """The units' places as the recording goes, and the names of VASSAL's places."""

    game: Game
    places: Places
    output: Output
    where: dict[str, Location] = field(default_factory=dict)
    """Where each unit's counter lies now."""
    eliminated: set[str] = field(default_factory=set)
    unknown_units: set[str] = field(default_factory=set)
    reported: dict[tuple[str | None, int, int], Location] = field(default_factory=dict)
    """The places VASSAL's report of the step names otherwise than the reader's layout (see read_reports)."""
    layout_differs: bool = False
    parked: dict[str, Location] = field(default_factory=dict)
    """The place of the game (hex, box, track, out of play) each counter set aside in a PARKING place left."""

    boxes: dict[str, Box] = field(init=False)
    """The game's boxes by id."""

    def __post_init__(self) -> None:
        self.boxes = {b.id: b for b in self.game.manifest.box}

    def unit_of(self, piece: Piece) -> str | None:
        """The unit a counter stands for, or None (and a note the first time) for a unit the game lacks."""
        unit = piece.properties.get("UnitId")
        if unit is None or not unit:
            return None
        if unit not in self.game.units_by_id:
            if unit not in self.unknown_units:
                self.unknown_units.add(unit)
                self.output.note(0, f"piece {piece.name!r} names unit {unit!r}, which {self.game.id} does not have "
                                    "(a module of another version?); it is not translated")
            return None
        return unit

    def locate(self, piece: Piece | None) -> Location:
        """The place a counter lies in (out of play for none)."""
        if piece is None:
            return NOWHERE
        reported = self.reported.get((piece.map_name, piece.x, piece.y))
        return reported if reported is not None else self.places.locate(piece.map_name, piece.x, piece.y)

    def read_reports(self, step: StepEvents) -> None:
        """Where VASSAL's report of the step's one drag names its places otherwise, its names win."""
        # That happens with a module whose off-map board the reader does not lay out as it does.
        self.reported = {}
        reports = [m for e in step.events if isinstance(e, ChatEvent)
                   if (m := MOVE_REPORT.match(one_line(chat_text(e.html)))) is not None]
        moves = [e for e in step.events if isinstance(e, PieceEvent) and e.how in ("move", "stack")
                 and e.before is not None and e.after is not None]
        if len(reports) != 1 or not moves:
            return
        # An Undo repeats the report of the move it takes back ("UNDO: * X moves A -> B *"): the
        # counter goes from B back to A.
        undo = reports[0].group("pieces").startswith("UNDO:")
        for attribute, group in (("before", "after" if undo else "before"), ("after", "before" if undo else "after")):
            spots = {(getattr(e, attribute).map_name, getattr(e, attribute).x, getattr(e, attribute).y) for e in moves}
            if len(spots) != 1:
                continue
            spot = next(iter(spots))
            named = self.places.named(reports[0].group(group))
            if named.kind not in ("hex", "box", "track"):
                continue
            ours = self.places.locate(*spot)
            if ours.name != named.name:
                self.reported[spot] = named
                if not self.layout_differs:
                    self.layout_differs = True
                    self.output.note(step.step.number, f"VASSAL names {named} where the reader's layout says {ours}: "
                                                       "the module lays out its maps differently from what the reader "
                                                       "computes from the game's data, so VASSAL's names are used "
                                                       "where it reports them (give the module with --module to read "
                                                       "its own layout)")

    def put(self, unit: str, after: Location) -> None:
        """The unit's counter now lies at `after`."""
        if after.kind == "none":
            self.where.pop(unit, None)
        else:
            self.where[unit] = after

    def left(self, unit: str, before: Location, after: Location) -> Location:
        """The place of the game a counter going from `before` to `after` leaves: where it was set aside from when
        it comes back from a PARKING place (the map key, a window's free area), else `before`. A counter put in
        a PARKING place from a place of the game is remembered there, as the game still has it."""
        if after.kind in PARKING:
            if before.kind not in PARKING:
                self.parked[unit] = before
            return before
        origin = self.parked.pop(unit, None)
        return origin if origin is not None and before.kind in PARKING else before

    def stack(self, where: str, side: str) -> list[str]:
        """The units of `side` whose counters lie in hex `where`, in the game's order."""
        return [u.id for u in self.game.units_by_id.values()
                if u.side == side and (at := self.where.get(u.id)) is not None and at.is_hex and at.name == where]

    def read_saved(self, tracking: Tracking, description: str,
                   system: RuleSystem[object] | None, declared: str | None = None) -> tuple[str, list[str]]:
        """Units where the recording starts; the scenario `declared` in chat, else the one whose set-up it matches
        best; and how it differs."""
        seen: dict[str, str] = {}
        reduced: set[str] = set()
        for piece in sorted(tracking.initial.values(), key=lambda p: p.piece_id):
            unit = self.unit_of(piece)
            if unit is None:
                continue
            if unit in seen:
                self.output.note(0, f"two counters of {unit} in the saved position ({seen[unit]} and "
                                    f"{self.locate(piece)}); the reader follows both as the one unit")
            where = self.locate(piece)
            self.where[unit] = where
            seen[unit] = where.name
            if is_reduced(piece):
                reduced.add(unit)
            box = self.boxes.get(where.name)
            if box is not None and box.kind == "eliminated":
                self.eliminated.add(unit)
        markers: dict[str, list[str]] = defaultdict(list)
        for piece in tracking.initial.values():
            marker = piece.properties.get("MarkerId")
            if marker and marker in self.game.markers_by_id and piece.map_name is not None:
                markers[marker].append(self.locate(piece).name)
        scores = {s.id: sum(1 for _, p in self.game.setup if p.scenario == s.id and seen.get(p.piece) == p.location)
                  for s in self.game.manifest.scenario}
        tied = [s for s, score in scores.items() if score == max(scores.values())]
        # Scenarios with the same set-up (a campaign and its first scenario) look alike on the board:
        # the save's comment may name one (adjudicate export's does), else the first listed is taken.
        said = re.findall(r"\bscenario ([\w-]+)", description)
        best = declared or next((s for s in said if s in tied), tied[0])
        expected = {p.piece: p.location for _, p in self.game.setup
                    if p.scenario == best and p.piece in self.game.units_by_id}
        # The faces the rules set up (a side set up reduced, rules.toml's start_reduced) are the set-up's too.
        set_up_reduced: set[str] = set()
        if system is not None:
            start = system.initial_state(self.game, [Header(key="Scenario", value=best)])
            set_up_reduced = set(system.position(start).reduced())
        differences = []
        for unit in sorted(set(expected) | set(seen)):
            if expected.get(unit) != seen.get(unit) or (unit in reduced) != (unit in set_up_reduced):
                now = seen.get(unit, "not in play") + (" (reduced)" if unit in reduced else "")
                differences.append(f"{unit} {expected.get(unit, 'not in play')} -> {now}")
        # Markers set up once each (turn, supply...): a different place is a move, or a layout
        # the reader does not know (a module other than the one the log was played with).
        placed: dict[str, list[str]] = defaultdict(list)
        for _, p in self.game.setup:
            if p.scenario == best and p.piece in self.game.markers_by_id:
                placed[p.piece] += [p.location] * p.count
        for marker in sorted(placed):
            if len(placed[marker]) == 1 and len(markers.get(marker, [])) == 1 and markers[marker] != placed[marker]:
                differences.append(f"marker {marker} {placed[marker][0]} -> {markers[marker][0]}")
        return best, differences
