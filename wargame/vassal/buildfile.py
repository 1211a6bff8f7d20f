"""What a log reader needs from a VASSAL module (.vmod): its name, each map's hex grid and zones,
and its turn tracker's list, read from buildFile.xml without extracting anything.

Format facts: `../shared/reference/vassal-format.md` 1.1-1.4 and 3.1-3.3 (`HexGrid`,
`HexGridNumbering`, `RegularGridNumbering`, `Zone`/`PolygonEditor`, `Map.setBoardBoundaries`),
checked against VASSAL 3.7.26's sources. The point -> name arithmetic keeps Java's rounding
(section 3.3); tests/test_vassal_reader_module.py holds it against tests/vassal_oracle.py.
"""

from __future__ import annotations

import lzma
import math
import os
import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import BinaryIO
from xml.etree import ElementTree

from wargame.errors import DataError, Place
from wargame.records import frozen
from wargame.vassal.commands import split
from wargame.vassal.xmltext import parse_xml

P = "VASSAL.build."
MAX_BUILD_FILE_BYTES = 32 * 2**20
MAX_MODULE_MEMBERS = 100_000
MIN_HEX_PX, MAX_HEX_PX = 1.0, 100_000.0
"""A HexGrid's dx and dy: below a pixel or above this, a module is refused (docs/limits.md)."""
MAX_LEADING_ZEROS = 100
MAX_NUMBERING_OFFSET = 1_000_000
MAX_NAME_LETTERS = 64
"""Longer alphabetic hex names (points far off the grid) are written as letter x count."""


def _java_round(value: float) -> int:
    """`Math.round`: the nearest integer, halves up (unlike floor(v + 0.5) just below a half)."""
    low = math.floor(value)
    return low + 1 if value - low >= 0.5 else low


@frozen
class HexNaming:
    """A board's HexGrid and HexGridNumbering, enough to name the hex under a point as VASSAL does."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"
    board_size: tuple[int, int] = (0, 0)

    def _part(self, n: int, kind: str, leading: int) -> str:
        # RegularGridNumbering.getName, in closed form: the Java loops would run once per letter or
        # per leading zero, which a hostile module makes unbounded.
        out = "-" if n < 0 else ""
        n = abs(n)
        if kind == "A":
            # Java appends the same letter (n mod 26) n // 26 + 1 times.
            letter, count = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 26], n // 26 + 1
            if count > MAX_NAME_LETTERS:
                # Far off any real grid: named by its length, not spelt out (no hex of a game has it).
                return f"{out}{letter}x{count}"
            return out + letter * count
        digits = str(n)
        # A zero for each of leading, leading-1 ... 1 that still exceeds the number's digits.
        return out + "0" * max(0, leading - len(digits) + 1) + digits

    def name_at(self, x: int, y: int) -> str:
        """The location name VASSAL gives a board point (`HexGridNumbering.getName`, section 3.3)."""
        if self.sideways:
            x, y = y, x
        width, height = self.board_size
        max_rows = math.floor(height / self.dx + 0.5)
        max_columns = math.floor(width / self.dy + 0.5)
        raw_column = math.floor((x - self.x0) / self.dx + 0.5)
        if _java_round((x - self.x0) / self.dx) % 2 == 0:
            raw_row = _java_round((y - self.y0) / self.dy)
        else:
            raw_row = _java_round((y - self.y0 - self.dy / 2) / self.dy)
        column, row = raw_column, raw_row
        if self.v_descend and self.sideways:
            column = max_rows - column
        if self.h_descend and not self.sideways:
            column = max_columns - column
        if self.v_descend and not self.sideways:
            row = max_rows - row
        if self.h_descend and self.sideways:
            row = max_columns - row
        if self.stagger and raw_column % 2 != 0:
            if self.sideways:
                row += -1 if self.h_descend else 1
            else:
                row += -1 if self.v_descend else 1
        h = self._part(column + self.h_off, self.h_type, self.h_leading)
        v = self._part(row + self.v_off, self.v_type, self.v_leading)
        name = h + self.sep + v if self.first == "H" else v + self.sep + h
        return (self.location_format.replace("$gridLocation$", name).replace("$row$", v)
                .replace("$column$", h))

    def _pattern(self, kind: str, leading: int) -> str:
        # RegularGridNumbering.getMatchingPattern: at least leading+1 digits, or a run of capitals.
        return "(-?[A-Z]+)" if kind == "A" else "(-?[0-9]{" + str(leading + 1) + ",})"

    @staticmethod
    def _number(text: str, kind: str) -> int:
        if kind != "A":
            return int(text)
        letters = text.lstrip("-")
        value = 26 * (len(letters) - 1) + "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(letters[-1])
        return -value if text.startswith("-") else value

    def point_of(self, name: str) -> tuple[int, int] | None:
        """The board point VASSAL gives a location name (`RegularGridNumbering.getLocation`,
        `HexGridNumbering.getCenterPoint`, section 3.2); None for a name the numbering cannot read."""
        h, v = self._pattern(self.h_type, self.h_leading), self._pattern(self.v_type, self.v_leading)
        grid = h + re.escape(self.sep) + v if self.first == "H" else v + re.escape(self.sep) + h
        regex, groups = "", []
        for token in re.split(r"(\$gridLocation\$|\$row\$|\$column\$)", self.location_format):
            if token == "$gridLocation$":
                regex += grid
                groups += ["column", "row"] if self.first == "H" else ["row", "column"]
            elif token == "$row$":
                regex, groups = regex + v, groups + ["row"]
            elif token == "$column$":
                regex, groups = regex + h, groups + ["column"]
            else:
                regex += re.escape(token)
        m = re.fullmatch(regex, name)
        if m is None or "row" not in groups or "column" not in groups or max(map(len, m.groups())) > MAX_NAME_LETTERS:
            return None  # not a name of this numbering, or of a hex too far away to be on any board
        column = self._number(m.group(groups.index("column") + 1), self.h_type) - self.h_off
        row = self._number(m.group(groups.index("row") + 1), self.v_type) - self.v_off
        if self.stagger and column % 2 != 0:
            descending = self.h_descend if self.sideways else self.v_descend
            row += 1 if descending else -1
        width, height = self.board_size
        max_rows = math.floor(height / self.dx + 0.5)
        max_columns = math.floor(width / self.dy + 0.5)
        if self.sideways:
            if self.v_descend:
                column = max_rows - column
            if self.h_descend:
                row = max_columns - row
        else:
            if self.h_descend:
                column = max_columns - column
            if self.v_descend:
                row = max_rows - row
        x = math.trunc(column * self.dx) + self.x0
        y = (math.trunc(row * self.dy) if column % 2 == 0 else math.trunc(row * self.dy + self.dy / 2)) + self.y0
        return (y, x) if self.sideways else (x, y)


@frozen
class Zone:
    """A named polygon of a board (`Zone`): VASSAL names a point inside it by the zone's name."""

    name: str
    points: tuple[tuple[int, int], ...]
    seat: tuple[int, int] | None = None
    """Where a piece dropped in the zone snaps to (its RegionGrid's one Region), if it has one."""

    def contains(self, x: int, y: int) -> bool:
        """Even-odd insideness, left and top edges in, right and bottom out (`java.awt.Polygon`)."""
        inside = False
        pts = self.points
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
            if (ay <= y < by) or (by <= y < ay):
                cross = ax + (y - ay) * (bx - ax) / (by - ay)
                if x < cross:
                    inside = not inside
        return inside


@frozen
class BoardInfo:
    """One board of a map: its grid, if a hex grid, and its zones."""

    name: str
    hexes: HexNaming | None
    zones: tuple[Zone, ...]


@frozen
class MapInfo:
    """One map: its id in commands, the board's origin on it, its boards."""

    name: str
    origin: tuple[int, int]
    boards: tuple[BoardInfo, ...]


@frozen
class ModuleInfo:
    """What the log reader takes from a module."""

    file: str
    name: str
    version: str
    maps: dict[str, MapInfo] = field(default_factory=dict)
    turn_names: tuple[str, ...] = ()
    """The first list level of the first turn tracker (our modules' steps or phases)."""


def _float(value: str | None, default: float, what: str, place: Place) -> float:
    if value is None or value == "":
        return default
    try:
        number = float(value)
    except ValueError:
        raise DataError(f"{what} {value[:30]!r} is not a number", place) from None
    if not math.isfinite(number):
        raise DataError(f"{what} {value[:30]!r} is not a finite number", place)
    return number


def _int(value: str | None, default: int, what: str, place: Place) -> int:
    if value is None or value == "":
        return default
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", value):
        raise DataError(f"{what} {value[:30]!r} is not a whole number", place)
    return int(value)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def hex_naming(hex_grid: Mapping[str, str], numbering: Mapping[str, str], board_size: tuple[int, int],
               place: Place = Place()) -> HexNaming:
    """A board's hex naming from its HexGrid and HexGridNumbering attributes (defaults: vassal-format.md 1.4)."""
    a, n = hex_grid, numbering
    default_dx = math.sqrt(3) / 2 * 64.0
    dx = _float(a.get("dx"), default_dx, "HexGrid dx", place)
    dy = _float(a.get("dy"), 64.0, "HexGrid dy", place)
    if "dy" in a and dx == default_dx:
        # setAttribute("dy") resets a dx still at its default (vassal-format.md 1.4).
        dx = math.sqrt(3) / 2 * dy
    if not (MIN_HEX_PX <= dx <= MAX_HEX_PX and MIN_HEX_PX <= dy <= MAX_HEX_PX):
        raise DataError(f"HexGrid dx {dx:g} and dy {dy:g}: each must be between {MIN_HEX_PX:g} and {MAX_HEX_PX:g} "
                        "pixels", place)

    def flag(key: str, default: bool) -> bool:
        value = n.get(key)
        return default if value is None else value.lower() == "true"

    def bounded(key: str, default: int, low: int, high: int) -> int:
        value = _int(n.get(key), default, key, place)
        if not low <= value <= high:
            raise DataError(f"HexGridNumbering {key} {value}: must be between {low} and {high}", place)
        return value

    return HexNaming(
        dx=dx, dy=dy, x0=_int(a.get("x0"), 0, "HexGrid x0", place), y0=_int(a.get("y0"), 32, "HexGrid y0", place),
        sideways=a.get("sideways", "false").lower() == "true", first=n.get("first", "H")[:1],
        sep=n.get("sep", ""), h_type=n.get("hType", "N")[:1], v_type=n.get("vType", "N")[:1],
        h_leading=bounded("hLeading", 1, 0, MAX_LEADING_ZEROS),
        v_leading=bounded("vLeading", 1, 0, MAX_LEADING_ZEROS),
        h_off=bounded("hOff", 1, -MAX_NUMBERING_OFFSET, MAX_NUMBERING_OFFSET),
        v_off=bounded("vOff", 1, -MAX_NUMBERING_OFFSET, MAX_NUMBERING_OFFSET),
        h_descend=flag("hDescend", False), v_descend=flag("vDescend", False), stagger=flag("stagger", True),
        location_format=n.get("locationFormat", "$gridLocation$"), board_size=board_size)


def _zones(grid: ElementTree.Element, place: Place) -> tuple[Zone, ...]:
    zones: list[Zone] = []
    for zone in grid.iter(f"{P}module.map.boardPicker.board.mapgrid.Zone"):
        points: list[tuple[int, int]] = []
        for pair in (zone.get("path") or "").split(";"):
            if not pair:
                continue
            xs, _, ys = pair.partition(",")
            points.append((_int(xs, 0, "zone point", place), _int(ys, 0, "zone point", place)))
        if len(points) >= 3:
            region = zone.find(f"{P}module.map.boardPicker.board.RegionGrid/{P}module.map.boardPicker.board.Region")
            seat = None if region is None else (_int(region.get("originx"), 0, "region x", place),
                                                _int(region.get("originy"), 0, "region y", place))
            zones.append(Zone(zone.get("name", ""), tuple(points), seat))
    return tuple(zones)


MAX_MODULEDATA_BYTES = 2**20


@frozen
class ModuleFile:
    """A module's buildFile.xml parsed, its image sizes and its moduledata member."""

    file: str
    root: ElementTree.Element
    image_sizes: dict[str, tuple[int, int]]
    moduledata: bytes


def _seekable(handle: BinaryIO, file: str) -> BinaryIO:
    """A module's file, refused if it is a pipe or a device: a zip is read from its end, and /dev/zero or
    a FIFO has none (zipfile would read it whole, without bound)."""
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        raise DataError("not a regular file: a module is a zip archive, read from a file (not a pipe or a device)",
                        Place(file))
    return handle


def open_module(path: Path) -> ModuleFile:
    """A .vmod's buildFile (read in memory, capped, no DOCTYPE or entities): DataError if not a module."""
    file = str(path)
    moduledata = b""
    try:
        with open(path, "rb") as handle, zipfile.ZipFile(_seekable(handle, file)) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_MODULE_MEMBERS:
                raise DataError(f"{len(infos)} members: refused as absurd for a module", Place(file))
            names = {i.filename: i for i in infos}
            info = names.get("buildFile.xml") or names.get("buildFile")
            if info is None:
                raise DataError("no buildFile.xml: not a VASSAL module" + (
                    " (a saved game or log: give it as the log, and the module with --module)"
                    if "savedGame" in names else ""), Place(file))
            if info.file_size > MAX_BUILD_FILE_BYTES:
                raise DataError(f"buildFile.xml would inflate to {info.file_size:,} bytes: refused", Place(file))
            with archive.open(info) as stream:
                text = stream.read(MAX_BUILD_FILE_BYTES + 1)
            if len(text) > MAX_BUILD_FILE_BYTES:
                raise DataError("buildFile.xml inflates past its cap: refused", Place(file))
            meta = names.get("moduledata")
            if meta is not None:
                with archive.open(meta) as stream:
                    moduledata = stream.read(MAX_MODULEDATA_BYTES + 1)
                if len(moduledata) > MAX_MODULEDATA_BYTES:
                    raise DataError(f"moduledata inflates past {MAX_MODULEDATA_BYTES:,} bytes: refused", Place(file))
            image_sizes: dict[str, tuple[int, int]] = {}
            for name, member in names.items():
                if name.startswith("images/") and name.lower().endswith(".png") and member.file_size >= 24:
                    with archive.open(member) as stream:
                        size = _png_size(stream.read(24))
                    if size is not None:
                        image_sizes[name[len("images/"):]] = size
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError, NotImplementedError, RuntimeError,
            ValueError, OverflowError) as e:
        raise DataError(f"not a readable module ({e})", Place(file)) from None
    root = parse_xml(text, "buildFile.xml", Place(file, key="buildFile.xml"))
    return ModuleFile(file, root, image_sizes, moduledata)


def read_module(path: Path) -> ModuleInfo:
    """The reader's view of a .vmod: DataError if it is not a module we can read."""
    return module_info(open_module(path))


def module_info(module: ModuleFile) -> ModuleInfo:
    """Name, maps (grids and zones) and turn-tracker steps of an opened module."""
    file, root, image_sizes = module.file, module.root, module.image_sizes
    place = Place(file, key="buildFile.xml")
    maps: dict[str, MapInfo] = {}
    for element in root.iter():
        if element.tag not in (f"{P}module.Map", f"{P}module.PrivateMap", f"{P}module.PlayerHand"):
            continue
        boards: list[BoardInfo] = []
        for board in element.iter(f"{P}module.map.boardPicker.Board"):
            size = image_sizes.get(board.get("image", ""), (
                _int(board.get("width"), 0, "Board width", place), _int(board.get("height"), 0, "Board height", place)))
            # The hex grid sits on the board, or is the background grid of its ZonedGrid (our
            # modules: the map's title and legend strip is a zone without hexes).
            grid = board.find(f"{P}module.map.boardPicker.board.HexGrid")
            if grid is None:
                grid = board.find(f"{P}module.map.boardPicker.board.ZonedGrid/{P}module.map.boardPicker.board.HexGrid")
            naming = None
            if grid is not None:
                numbering = grid.find(f"{P}module.map.boardPicker.board.mapgrid.HexGridNumbering")
                naming = hex_naming(grid.attrib, numbering.attrib if numbering is not None else {}, size, place)
            zoned = board.find(f"{P}module.map.boardPicker.board.ZonedGrid")
            boards.append(BoardInfo(board.get("name", ""), naming, _zones(zoned, place) if zoned is not None else ()))
        name = element.get("mapName", "")
        origin = (_int(element.get("edgeWidth"), 0, "edgeWidth", place),
                  _int(element.get("edgeHeight"), 0, "edgeHeight", place))
        maps[name] = MapInfo(name, origin, tuple(boards))
    turn_names: tuple[str, ...] = ()
    tracker = root.find(f".//{P}module.turn.TurnTracker")
    if tracker is not None:
        level = tracker.find(f".//{P}module.turn.ListTurnLevel")
        if level is not None:
            turn_names = tuple(split(level.get("list") or "", ","))
    return ModuleInfo(file, root.get("name", ""), root.get("version", ""), maps, turn_names)
