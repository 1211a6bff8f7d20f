"""A text (or JSON) log written back as a VASSAL log or saved game, to watch a game in VASSAL.

The saved position is the scenario's set-up as the log's replay begins it; then every entry of
the log is one step, which moves, flips, adds and removes the pieces so that the board shows the
position the adjudicator's replay reaches after that entry, moves the markers on the tracks and
the turn tracker, and writes the entry and the adjudicator's findings on it to the chat. The
pieces are the module's own (its PieceSlots with their prototypes expanded), placed with its own
grid and zones. Everything is deterministic: piece ids follow the data, zip entries are sorted
and dated 1980. docs/vassal-logs.md, "From a text log to VASSAL", has the conventions.
"""

from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from dataclasses import dataclass, field

from adjudicator.contract import OUT_OF_PLAY, MarkerUse, TurnContext
from adjudicator.contract import Position as ReplayedPosition
from adjudicator.engine import Replay
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry
from adjudicator.notation.text import write_entry
from adjudicator.vassal.joins import phase_index
from adjudicator.vassal.translate import Phase, module_phases
from wargame.errors import DataError, Place
from wargame.game import Game
from wargame.records import frozen
from wargame.sequence import phasing_side, turn_sequence
from wargame.vassal import logfile
from wargame.vassal.commands import ESC, split
from wargame.vassal.encoding import encode, step_suffix
from wargame.vassal.buildfile import HexNaming, Zone
from wargame.vassal.decks import Cup, add_decks
from wargame.vassal.definitions import Catalogue, Definition
from wargame.vassal.places import area_id
from wargame.vassal.savefile import PlacedPiece, restore_commands, save_archive

STEP_LAYER = "Step"
"""The Layer our modules give two-sided pieces (level 2: the reduced side, or a marker's flip side)."""
UMPIRE = "Umpire"
"""Who says the findings in the chat."""
PLAYER_ID = "umpire"
"""The player id VASSAL writes in every move (a password, in a real game)."""
SEAT_GAP_PX = 4

Spot = tuple[str, int, int]
"""A map and a point on it."""


@frozen
class Shown:
    """What the board shows of a position: units, markers and the turn tracker."""

    units: dict[str, tuple[str, int]]
    """Every unit in play: its hex, box or track space, and the steps its face shows lost (0 full, 1 reduced, 2 or 3
    a further reduced face of a unit of three or four steps)."""
    markers: dict[str, tuple[tuple[str, bool], ...]]
    """Every marker on the board: its places (one per counter) and whether each is flipped."""
    turn: tuple[int, int] | None
    """The turn and the index of its step in the turn tracker's list (None: before the first)."""


def _marker_box(game: Game, side: str | None, source: str, kind: str | None = None) -> str | None:
    """The box of a side the game's data gives for a rule section (its `source`), if there is one."""
    return next((b.id for b in game.manifest.box if b.side == side and b.source == source and b.holds == "markers"
                 and (kind is None or b.kind == kind)), None)


def _out_of_cup(game: Game, position: ReplayedPosition, marker: str, cup: str, count: int) -> list[tuple[str, bool]]:
    """Where a draw cup's counters of one marker are: in the cup, or out of it for this game turn or for good."""
    # Fire & Movement keeps the markers drawn or placed this game turn (7.2), put aside (11.2.3,
    # 14.1) and eliminated for good (11.1.4); the boxes are the game data's for those sections.
    use = position.markers.get(marker, MarkerUse())
    used, aside, lost = use.used, use.aside, use.lost
    side = game.markers_by_id[marker].side
    used_box = _marker_box(game, side, "7.2") or cup
    aside_box = _marker_box(game, side, "14.1") or used_box
    lost_box = _marker_box(game, side, "11.1.4", "eliminated") or used_box
    out = [used_box] * used + [aside_box] * aside + [lost_box] * lost
    out = out[:count]
    return [(place, False) for place in [cup] * (count - len(out)) + out]


def _markers(game: Game, position: ReplayedPosition) -> dict[str, tuple[tuple[str, bool], ...]]:
    """Markers where the scenario sets them up, the turn marker on the turn, supply on its track (8.2)."""
    scenario = position.scenario
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    placed: dict[str, list[tuple[str, bool]]] = {}
    for _, p in game.setup:
        if p.scenario == scenario and p.piece in game.markers_by_id:
            placed.setdefault(p.piece, []).extend([(p.location, False)] * p.count)
    for marker_id, places in placed.items():
        if places and places[0][0] in cups:
            placed[marker_id] = _out_of_cup(game, position, marker_id, places[0][0], len(places))
    marked = position.marked_hexes or {}
    for marker in game.markers.marker:
        beachheads = marked.get(marker.kind or "")
        if marker.kind == "beachhead" and beachheads is not None and marker.id in placed:
            # 11.2.1: a marker on each beach landing hex the assault landed on, while no German unit
            # has entered it; the others stay in their box.
            box = placed[marker.id]
            on_hexes = [(label, False) for label in sorted(beachheads)][:len(box)]
            placed[marker.id] = on_hexes + box[len(on_hexes):]
    tracks = {t.kind: t for t in game.manifest.track if t.side is None}
    supply = position.tracks.get("supply", {})
    turn_track = tracks.get("turn")
    for marker in game.markers.marker:
        if marker.id not in placed or len(placed[marker.id]) != 1:
            continue
        if marker.kind == "turn" and turn_track is not None and turn_track.first <= position.turn <= turn_track.last:
            placed[marker.id] = [(f"{turn_track.id}@{position.turn}", False)]
        elif marker.kind == "supply" and marker.side is not None and marker.side in supply:
            track = next((t for t in game.manifest.track if t.kind == "supply" and t.side == marker.side), None)
            if track is None:
                continue
            points = supply[marker.side]
            # 8.2: above the track's last space the marker flips to its +last side and counts on from the start.
            flipped = points > track.last
            space = min(max(points - track.last if flipped else points, track.first), track.last)
            placed[marker.id] = [(f"{track.id}@{space}", flipped)]
    return {m: tuple(places) for m, places in sorted(placed.items())}


def shown(game: Game, position: ReplayedPosition, phase_list: list[Phase]) -> Shown:
    """The board of a replayed position: units where the replay has them, markers, the turn tracker."""
    # A unit out of play for good has no counter: VASSAL shows it removed, as the reader takes an elimination.
    units = {u: (where.place, where.face) for u, where in position.units.items()
             if u in game.units_by_id and where.place != OUT_OF_PLAY}
    index = phase_index(position.at, phase_list)
    if index is None and position.at.turn > 0 and position.at.step is None:
        index = _first_step(game, position.scenario, phase_list)
    return Shown(dict(sorted(units.items())), _markers(game, position),
                 None if index is None else (position.turn, index))


def _first_step(game: Game, scenario: str, phase_list: list[Phase]) -> int | None:
    """The tracker's step a turn begun shows before its first step or phase line: the turn's first (VASSAL's
    tracker has no turn without a step; the reader takes it as the typed `Turn` alone, docs/vassal-logs.md)."""
    sequence = turn_sequence(game.manifest, scenario)
    if not sequence:
        return None
    first = sequence[0]
    return phase_index(TurnContext(0, first.id, phasing_side(game.manifest, first, scenario)), phase_list)


@dataclass
class _Piece:
    piece_id: str
    definition: Definition
    spot: Spot | None
    level: int = 1

    def state(self) -> str:
        """The piece's whole state chain where it lies, its Step layer at its level."""
        layer = self.definition.layer(STEP_LAYER)
        overrides = {} if layer is None else {layer: str(self.level)}
        spot = self.spot or ("null", 0, 0)
        return self.definition.state_text(spot[0], spot[1], spot[2], overrides)


class ModulePlaces:
    """Where each place of the game lies in the module: a hex by its grid, a box or track space by its zone."""

    def __init__(self, game: Game, catalogue: Catalogue) -> None:
        self.game = game
        self.file = catalogue.info.file
        self.hex_map: tuple[str, HexNaming, tuple[int, int]] | None = None
        self.zones: dict[str, tuple[str, Zone, tuple[int, int]]] = {}
        for map_info in catalogue.info.maps.values():
            for board in map_info.boards[:1]:
                if board.hexes is not None and self.hex_map is None:
                    self.hex_map = (map_info.name, board.hexes, map_info.origin)
                for zone in board.zones:
                    area = area_id(game, zone.name)
                    if area is not None and area not in self.zones:
                        self.zones[area] = (map_info.name, zone, map_info.origin)
        self.cups: dict[str, Cup] = {}
        """Draw cups by box id: a DrawPile named after the box, whose Deck holds the cup's markers."""
        self.cards: dict[str, Definition] = {}
        for name, (cup, cards) in catalogue.cups.items():
            area = area_id(game, name)
            if area is not None:
                self.cups[area] = cup
                for card in cards:
                    self.cards.setdefault(card.properties.get("MarkerId", ""), card)
        sizes = [d.size_px for d in catalogue.units.values() if d.size_px > 0]
        self.counter_px = max(sizes) if sizes else 50

    def name(self, location: str) -> str:
        """The name VASSAL shows for a place (a hex label, or the zone's name)."""
        if location in self.zones:
            return self.zones[location][1].name
        return location

    def seats(self, location: str) -> list[Spot]:
        """The points a piece may be put at in a place, the first free one taken (boxes hold many)."""
        if self.game.grid.is_label(location):
            if self.hex_map is None:
                raise DataError("the module has no map with a hex grid", Place(self.file))
            map_name, naming, origin = self.hex_map
            point = naming.point_of(location)
            width, height = naming.board_size
            if point is None or naming.name_at(*point) != location or not (
                    0 <= point[0] < (width or point[0] + 1) and 0 <= point[1] < (height or point[1] + 1)):
                raise DataError(f"the module's hex grid has no hex {location!r} on its board: a module of another "
                                "game?", Place(self.file))
            return [(map_name, point[0] + origin[0], point[1] + origin[1])]
        cup = self.cups.get(location)
        if cup is not None:
            return [(cup.map_name, cup.x, cup.y)]
        found = self.zones.get(location)
        if found is None:
            raise DataError(f"the module has no box or track space for {location!r} (a zone named after it): "
                            "a module of another game, or of another version?", Place(self.file))
        map_name, zone, origin = found
        if zone.seat is not None:
            return [(map_name, zone.seat[0] + origin[0], zone.seat[1] + origin[1])]
        xs, ys = [p[0] for p in zone.points], [p[1] for p in zone.points]
        pitch = self.counter_px + SEAT_GAP_PX
        columns = max(1, (max(xs) - min(xs)) // pitch)
        rows = max(1, (max(ys) - min(ys)) // pitch)
        seats = []
        for row in range(rows):
            for column in range(columns):
                x = min(xs) + pitch // 2 + column * pitch + (max(xs) - min(xs) - columns * pitch) // 2
                y = min(ys) + pitch // 2 + row * pitch + (max(ys) - min(ys) - rows * pitch) // 2
                if zone.contains(x, y):
                    seats.append((map_name, x + origin[0], y + origin[1]))
        if not seats:
            xc, yc = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
            seats = [(map_name, xc + origin[0], yc + origin[1])]
        return seats


def _next_seat(seats: list[Spot], held: dict[Spot, int]) -> Spot:
    """The seat of a box the next counter put in it takes: the first free one, else (a full box) the one with
    the fewest counters."""
    free = [s for s in seats if not held.get(s)]
    if free:
        return free[0]
    return min(seats, key=lambda s: (held.get(s, 0), s))


@dataclass
class _Board:
    """The pieces on the module's maps as the export goes on, and the commands that change them."""

    game: Game
    catalogue: Catalogue
    places: ModulePlaces
    pieces: dict[str, _Piece] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    markers: dict[str, list[str]] = field(default_factory=dict)
    stacks: int = 0
    made: int = 0
    left: set[str] = field(default_factory=set)
    """The boxes a piece left (moved out or removed) since they were last laid out again."""

    def new_id(self, kind: str) -> str:
        """Piece ids in the order the pieces come into play (`u` units, `m` markers): stable for the same log."""
        self.made += 1
        return f"{kind}{self.made}"

    def at(self, spot: Spot) -> list[str]:
        """The pieces at a point, in the order they came there."""
        return [p.piece_id for p in self.pieces.values() if p.spot == spot]

    def seat(self, location: str) -> Spot:
        """The point a piece put in a place lies at: a hex's centre, a box's first free seat, a cup's Deck."""
        seats = self.places.seats(location)
        if location in self.places.cups:
            return seats[0]  # a Deck holds any number of pieces
        return _next_seat(seats, {s: len(self.at(s)) for s in seats})

    def definition(self, unit: str | None, marker: str | None) -> Definition:
        """The module's piece of a unit or marker; DataError if it has none."""
        # A draw cup's marker is its card (masked when drawn), as the module's DrawPile deals it.
        found = self.catalogue.units.get(unit or "") if unit else (
            self.places.cards.get(marker or "") or self.catalogue.markers.get(marker or ""))
        if found is None:
            what = f"unit {unit}" if unit else f"marker {marker}"
            raise DataError(f"the module has no piece for {what} (no PieceSlot with its "
                            f"{'UnitId' if unit else 'MarkerId'}): a module of another game, or of another version?",
                            Place(self.catalogue.info.file))
        return found

    # -- the saved position ------------------------------------------------------------------
    def place_all(self, position: Shown) -> None:
        """Every unit and marker of a position on the board (the saved position)."""
        for unit, (location, face) in position.units.items():
            piece = _Piece(self.new_id("u"), self.definition(unit, None), self.seat(location), face + 1)
            self.pieces[piece.piece_id] = piece
            self.units[unit] = piece.piece_id
        for marker, places in position.markers.items():
            for location, flipped in places:
                piece = _Piece(self.new_id("m"), self.definition(None, marker), self.seat(location),
                               2 if flipped else 1)
                self.pieces[piece.piece_id] = piece
                self.markers.setdefault(marker, []).append(piece.piece_id)

    def in_cup(self, piece: _Piece) -> Cup | None:
        """The draw cup whose Deck a piece lies in, if any."""
        return next((c for c in self.places.cups.values() if (c.map_name, c.x, c.y) == piece.spot), None)

    def placed(self) -> list[PlacedPiece]:
        """The pieces of the saved position outside the draw cups."""
        out = []
        for piece in self.pieces.values():
            assert piece.spot is not None
            if self.in_cup(piece) is None:
                out.append(PlacedPiece(piece.piece_id, piece.definition.type_text, piece.state(), *piece.spot))
        return out

    def decks(self) -> list[tuple[Cup, list[tuple[str, str, str]]]]:
        """Each draw cup's Deck and the pieces in it (a Deck, not a Stack, holds them)."""
        out = []
        for _, cup in sorted(self.places.cups.items()):
            inside = [(p.piece_id, p.definition.type_text, p.state()) for p in self.pieces.values()
                      if self.in_cup(p) is cup]
            out.append((cup, inside))
        return out

    # -- commands ---------------------------------------------------------------------------------
    def _move(self, piece: _Piece, location: str, to: Spot | None = None) -> list[str]:
        """A drag of a piece to a place (to a given point of it, else its next seat): the move, onto the pieces
        there or in a new stack."""
        old = piece.spot
        assert old is not None
        old_under = [p for p in self.at(old) if p != piece.piece_id]
        spot = to or self.seat(location)
        under = self.at(spot)
        piece.spot = spot
        commands = [logfile.move_piece(piece.piece_id, spot[0], spot[1], spot[2], under[-1] if under else None,
                                       old[0], old[1], old[2], old_under[-1] if old_under else None, PLAYER_ID)]
        if not under and location not in self.places.cups:
            # VASSAL puts a piece dropped on an empty point in a new Stack, and logs its creation
            # (dropped on a Deck, the piece joins the Deck: MovePiece's merge finder).
            self.stacks += 1
            commands.append(logfile.add_stack(f"ls{self.stacks}", spot[0], spot[1], spot[2], [piece.piece_id]))
        return commands

    def _name(self, piece: _Piece) -> str:
        """The piece's name as VASSAL reports it (the Step layer's suffix on a reduced unit)."""
        return piece.definition.name + (step_suffix(piece.level) if piece.definition.properties.get("UnitId") else "")

    def _add(self, piece: _Piece, location: str) -> list[str]:
        """A piece taken from a palette onto a place: added, then put in the stack of its point (VASSAL's order)."""
        piece.spot = self.seat(location)
        under = self.at(piece.spot)
        self.pieces[piece.piece_id] = piece
        self.stacks += 1
        return [logfile.add_piece(piece.piece_id, piece.definition.type_text, piece.state()),
                logfile.add_stack(f"ls{self.stacks}", *piece.spot, [*under, piece.piece_id]),
                logfile.chat(html.escape(f"* {self._name(piece)} created in {self.places.name(location)} *",
                                         quote=False))]

    def change(self, unit: str | None, marker: str | None, before: tuple[str, int] | None,
               after: tuple[str, int] | None, existing: _Piece | None) -> tuple[list[str], _Piece | None]:
        """The commands that take one unit (or marker counter) from `before` to `after` (a place and a face: the
        steps a unit shows lost, whether a marker is flipped), and its piece then."""
        commands: list[str] = []
        if after is None:
            if existing is not None:
                commands.append(logfile.remove_piece(existing.piece_id))
                del self.pieces[existing.piece_id]
                if before is not None:
                    self.left.add(before[0])
            return commands, None
        location, level = after[0], int(after[1]) + 1
        if existing is None:
            piece = _Piece(self.new_id("u" if unit else "m"), self.definition(unit, marker), None, level)
            commands += self._add(piece, location)
            return commands, piece
        piece = existing
        assert before is not None
        if before[0] != location:
            self.left.add(before[0])
        flips = piece.definition.layer(STEP_LAYER) is not None and piece.level != level
        on_map = self.game.grid.is_label(location)
        if unit is not None and flips and not on_map:
            # A unit's side matters on the map only: in a box it keeps the side it had (an
            # eliminated unit is no longer depleted, but its counter is not flipped back in the box).
            flips, level = False, piece.level
        if before[0] != location:
            if unit is not None and on_map and not self.game.grid.is_label(before[0]) and piece.level >= 2:
                # Out of a box with its reduced side up: a fresh counter, as from a palette, full
                # strength side up (then flipped below if it comes back reduced: the replacement's depletion).
                commands.append(logfile.remove_piece(piece.piece_id))
                del self.pieces[piece.piece_id]
                piece.level = 1
                commands += self._add(piece, location)
                flips = piece.level != level
            else:
                commands += self._move(piece, location)
                commands.append(logfile.chat(html.escape(f"* {self._name(piece)} moves {self.places.name(before[0])} "
                                                         f"-> {self.places.name(location)} *", quote=False)))
        if flips:
            old_state, old_name = piece.state(), self._name(piece)
            piece.level = level
            commands.append(logfile.change_piece(piece.piece_id, piece.state(), old_state))
            commands.append(logfile.chat(html.escape(f"* {old_name} flipped to {self._name(piece)} at "
                                                     f"{self.places.name(location)} *", quote=False)))
        return commands, piece

    def tidy(self) -> list[str]:
        """Every box a piece left laid out again as a fresh box is (`seat` from empty: no gaps), by moving its
        top counters from the seats that hold more than that into the seats that hold fewer."""
        commands: list[str] = []
        for location in sorted(self.left):
            if self.game.grid.is_label(location) or location in self.places.cups:
                continue
            seats = self.places.seats(location)
            held = {s: len(self.at(s)) for s in seats}
            want = dict.fromkeys(seats, 0)
            for _ in range(sum(held.values())):
                want[_next_seat(seats, want)] += 1
            # The counters that leave: from the last seats first, each stack's top counter first.
            movers = [pid for s in reversed(seats) for pid in reversed(self.at(s)[want[s]:])]
            for spot in seats:
                for _ in range(want[spot] - held[spot]):
                    piece = self.pieces[movers.pop(0)]
                    name = self.places.name(location)
                    commands += self._move(piece, location, spot)
                    commands.append(logfile.chat(html.escape(f"* {self._name(piece)} moves {name} -> {name} *",
                                                             quote=False)))
        self.left.clear()
        return commands


def _finding_text(finding: Finding) -> str:
    """A finding as the verdict writes it: `error [onslaught 6.2]: message`."""
    return f"{finding.severity} [{finding.system} {finding.rule}]: {finding.message}"


def check_module(game: Game, catalogue: Catalogue) -> None:
    """Refuse a module of another game: its name, and a piece for every unit of the game."""
    title = game.manifest.title
    if catalogue.info.name != title:
        raise DataError(f"the module is {catalogue.info.name!r}, not {title!r}: give the module of {game.id} "
                        f"(vmodbuild build {game.id})", Place(catalogue.info.file))
    missing = sorted(u for u in game.units_by_id if u not in catalogue.units)
    if missing:
        raise DataError(f"the module has no piece for {len(missing)} unit(s) of {game.id} ({', '.join(missing[:5])}"
                        f"{'...' if len(missing) > 5 else ''}): a module of another version?",
                        Place(catalogue.info.file))


class Exporter:
    """A replayed log and a module: the VASSAL log of the whole game, or a saved game of one position."""

    def __init__(self, result: Replay[object], catalogue: Catalogue, log_name: str, source: Sequence[str] | None) -> None:
        self.result = result
        self.game = result.game
        self.catalogue = catalogue
        self.log_name = log_name
        self.source = source
        check_module(self.game, catalogue)
        self.phase_list = module_phases(self.game, catalogue.info)[0]
        self.places = ModulePlaces(self.game, catalogue)
        self.positions = [shown(self.game, result.system.position(s), self.phase_list) for s in result.states]

    def _restore(self, board: _Board, position: Shown) -> list[str]:
        """The saved position's top-level commands: pieces, stacks, Decks, boards, turn tracker."""
        board.place_all(position)
        tracker = self.catalogue.tracker
        turn_state = None
        if tracker is not None and position.turn is not None and position.turn[1] < len(tracker.phases):
            turn_state = tracker.state(*position.turn)
        boards = sorted(self.catalogue.boards.items())
        commands = restore_commands(board.placed(), boards, turn_state, tracker.tracker_id if tracker else "")
        return split(add_decks(encode(commands, ESC), board.decks()), ESC)

    def _archive(self, text: str, description: str) -> bytes:
        """The zip of a savedGame text with the module's moduledata."""
        info = self.catalogue.info
        moduledata = self.catalogue.moduledata
        if not moduledata:
            moduledata = (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1"><version>'
                          f"{html.escape(info.version)}</version><VassalVersion>3.7.0</VassalVersion><dateSaved>0"
                          f"</dateSaved><name>{html.escape(info.name)}</name></data>\n").encode("utf-8")
        return save_archive(text, info.name, info.version, moduledata, 0, description)

    def scenario_said(self) -> str:
        """The scenario in the save's comment: scenarios with the same set-up (Omaha's campaign and
        beach_to_bocage) look alike on the board, and the reader takes the comment's one."""
        return f"scenario {self.result.system.position(self.result.states[0]).scenario}"

    def entry_text(self, entry: Entry) -> str:
        """The entry as the log wrote it (a text log's own line), else in the notation."""
        if self.source is not None and 0 < entry.line <= len(self.source):
            line = self.source[entry.line - 1].strip()
            if line:
                return line
        return write_entry(entry)

    def findings_by_entry(self) -> dict[int, list[Finding]]:
        """Each finding with the entry it is about: the last entry on or before its line."""
        out: dict[int, list[Finding]] = {}
        entries = self.result.entries
        # The entries by line, each with the latest index among those up to it, so a finding's entry is one
        # bisection away (a scan of every entry for each finding took 13 s of 8,000 findings' export).
        by_line = sorted(range(len(entries)), key=lambda k: entries[k].line)
        lines = [entries[k].line for k in by_line]
        latest = list(accumulate(by_line, max))
        for finding in sorted(self.result.findings, key=lambda f: (f.line, f.column)):
            at = bisect_right(lines, finding.line)
            out.setdefault(latest[at - 1] if at else 0, []).append(finding)
        return out

    def step(self, board: _Board, before: Shown, after: Shown, entry: Entry, findings: list[Finding]) -> list[str]:
        """One entry's step: its text and findings in the chat, then the pieces and the turn tracker."""
        commands = [logfile.chat(html.escape(f"<{self.log_name} line {entry.line}> - {self.entry_text(entry)}",
                                             quote=False))]
        for finding in findings:
            commands.append(logfile.chat(html.escape(f"<{UMPIRE}> - {_finding_text(finding)}", quote=False)))
        for unit in sorted(set(before.units) | set(after.units)):
            was, now = before.units.get(unit), after.units.get(unit)
            if was != now:
                made, piece = board.change(unit, None, was, now, board.pieces.get(board.units.get(unit, "")))
                commands += made
                if piece is None:
                    board.units.pop(unit, None)
                else:
                    board.units[unit] = piece.piece_id
        for marker in sorted(set(before.markers) | set(after.markers)):
            was_all, now_all = before.markers.get(marker, ()), after.markers.get(marker, ())
            ids = board.markers.setdefault(marker, [])
            kept: list[str] = []
            for k in range(max(len(was_all), len(now_all))):
                was = was_all[k] if k < len(was_all) else None
                now = now_all[k] if k < len(now_all) else None
                existing = board.pieces.get(ids[k]) if k < len(ids) else None
                if was != now:
                    made, existing = board.change(None, marker, was, now, existing)
                    commands += made
                if existing is not None:
                    kept.append(existing.piece_id)
            board.markers[marker] = kept
        commands += board.tidy()
        tracker = self.catalogue.tracker
        if (tracker is not None and after.turn is not None and after.turn != before.turn
                and after.turn[1] < len(tracker.phases)):
            old = "" if before.turn is None or before.turn[1] >= len(tracker.phases) else tracker.shown(*before.turn)
            commands.append(logfile.chat(html.escape(f"* Turn Updated from {old} to {tracker.shown(*after.turn)}",
                                                     quote=False)))
            commands.append(logfile.set_turn(tracker.tracker_id, tracker.state(*after.turn)))
        return commands

    def vlog(self) -> bytes:
        """The VASSAL log: the set-up as the saved position, then one step per entry."""
        board = _Board(self.game, self.catalogue, self.places)
        restore = self._restore(board, self.positions[0])
        findings = self.findings_by_entry()
        steps = []
        for k, entry in enumerate(self.result.entries):
            steps.append(self.step(board, self.positions[k], self.positions[k + 1], entry, findings.get(k, [])))
        return self._archive(logfile.log_text(restore, steps),
                             f"{self.log_name}, {self.scenario_said()}, replayed by adjudicate export")

    def vsav(self, line: int | None) -> bytes:
        """A saved game of the position after the last entry on or before `line` (None: the end)."""
        index = len(self.result.entries)
        if line is not None:
            # As Replay.state_at: the state after the last entry on or before the line.
            index = max((k + 1 for k, e in enumerate(self.result.entries) if e.line <= line), default=0)
        board = _Board(self.game, self.catalogue, self.places)
        restore = self._restore(board, self.positions[min(index, len(self.positions) - 1)])
        where = "the end" if line is None else f"line {line}"
        return self._archive(logfile.log_text(restore, []),
                             f"{self.log_name} at {where}, {self.scenario_said()} (adjudicate export)")

