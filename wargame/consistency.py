"""Cross-checks between a game's data files; every problem is reported, not just the first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from wargame.errors import DataError, GridError, Place, did_you_mean, listed
from wargame.hexes import Hex
from wargame.layout import board_too_large

if TYPE_CHECKING:
    from wargame.gamedata import Game
    from wargame.toml_lines import TomlLines


class _Report:
    """Collects problems with their places."""

    def __init__(self) -> None:
        self.errors: list[DataError] = []
        self._lines: dict[Path, TomlLines | None] = {}

    def add(self, message: str, file: Path, line: int | None = None, key: str | None = None,
            at: tuple[str | int, ...] = ()) -> None:
        """A problem, at a line, or at the line of the key path `at` of a TOML file."""
        if line is None and at:
            line = self.line_of(file, at)
        self.errors.append(DataError(message, Place(file, line, None, key)))

    def line_of(self, file: Path, at: tuple[str | int, ...]) -> int | None:
        """The line of a key path of a TOML data file, the file indexed once (None: not there)."""
        if file not in self._lines:
            from wargame.toml_lines import TomlLines  # here: only a game with a problem is indexed

            try:
                self._lines[file] = TomlLines(file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                self._lines[file] = None
        lines = self._lines[file]
        return None if lines is None else lines.line_of(at)

    def known(self, word: str, vocabulary: Iterable[str], what: str, file: Path,
              line: int | None = None, key: str | None = None, at: tuple[str | int, ...] = ()) -> bool:
        if word in (vocabulary if isinstance(vocabulary, (set, frozenset, dict)) else list(vocabulary)):
            return True
        vocab = list(vocabulary)
        self.add(f"unknown {what} {word!r}{did_you_mean(word, vocab)}", file, line, key, at)
        return False

    def hex_on_map(self, game: Game, label: str, file: Path, line: int | None = None,
                   key: str | None = None, at: tuple[str | int, ...] = ()) -> Hex | None:
        try:
            return game.grid.hex_of(label)
        except GridError as e:
            self.add(e.message, file, line, key, at)
            return None


if TYPE_CHECKING:  # for the type checker alone: a Protocol class costs a start-up to make
    class _Identified(Protocol):
        """A table of an array of tables named by its `id`."""

        @property
        def id(self) -> str: ...


def _first(items: Sequence[_Identified], item_id: str, array: str, *rest: str) -> tuple[str | int, ...]:
    """The key path of the first table of an array with an id (or of `rest` in it)."""
    return next(((array, i, *rest) for i, item in enumerate(items) if item.id == item_id), (array,))


def given_again(tables: Sequence[tuple[tuple[str | int, ...], str]]) -> dict[str, tuple[int, tuple[str | int, ...]]]:
    """Each id given to more than one of the tables (given with their key paths): how many, and its second table's
    key path, where it is given again."""
    seen: dict[str, int] = {}
    again: dict[str, tuple[str | int, ...]] = {}
    for at, table_id in tables:
        seen[table_id] = seen.get(table_id, 0) + 1
        if seen[table_id] == 2:
            again[table_id] = at
    return {table_id: (seen[table_id], at) for table_id, at in again.items()}


def _once(report: _Report, file: Path, what: str, tables: Sequence[tuple[tuple[str | int, ...], str]]) -> None:
    """Each id given to one table only: the data keep one table an id, so a repeat's values would be lost or a
    reference to it ambiguous (a phase two steps answer to). Reported once an id, at its second table's id."""
    for table_id, (n, at) in given_again(tables).items():
        report.add(f"{what} {table_id!r} defined {n} times", file, key=what, at=(*at, "id"))


def _by_id(items: Sequence[_Identified], array: str) -> list[tuple[tuple[str | int, ...], str]]:
    """The tables of a top-level array with their key paths and ids."""
    return [((array, i), item.id) for i, item in enumerate(items)]


def cross_check(game: Game) -> list[DataError]:
    """Every inconsistency between the files of one game."""
    report = _Report()
    too_large = board_too_large(game.map.grid, game.map.layout.hex_size_px, game.map.layout.margin_px)
    if too_large is not None:
        # Refused here, not when `build` runs out of memory for the canvas; and alone: the other checks test
        # labels against every hex of the grid, costly on a board this large (40,000 hexes took 30 s, issue
        # 30), and the map has to change before they mean anything.
        return [DataError(too_large, Place(game.files["map"], key="grid"))]
    _check_map(game, report)
    _check_areas(game, report)
    _check_manifest(game, report)
    _check_pieces(game, report)
    _check_schedules(game, report)
    if game.rules is None and game.manifest.rule_system != "classic":
        return report.errors
    # The rules-as-data vocabulary is loaded only for a game that has it (a check of Onslaught does not pay for it).
    from wargame.rules_consistency import check_rules
    return report.errors + check_rules(game)


def _check_map(game: Game, report: _Report) -> None:
    files = game.files
    hex_terrain = {t.id for t in game.terrain.values() if t.kind == "hex"}
    hexside_features = {t.id for t in game.terrain.values() if t.kind == "hexside"}
    report.known(game.map.default_terrain, hex_terrain, "hex terrain", files["map"], key="default_terrain",
                 at=("default_terrain",))
    line_ids = {line.id for line in game.crt.line} if game.crt else set()
    for i, t in enumerate(game.terrain.values()):  # in terrain.toml's order (a terrain given twice: game.py)
        if t.crt_line is not None:
            report.known(t.crt_line, line_ids, "CRT line", files["terrain"], key=f"terrain.{t.id}.crt_line",
                         at=("terrain", i, "crt_line"))
        for other in t.cancels:
            report.known(other, hexside_features - {t.id}, "hexside feature", files["terrain"],
                         key=f"terrain.{t.id}.cancels", at=("terrain", i, "cancels"))
    seen_hexes: dict[str, int] = {}
    for line, record in game.hexes:
        report.hex_on_map(game, record.hex, files["hexes"], line, "hex")
        if record.hex in seen_hexes:
            report.add(f"hex {record.hex} already listed on line {seen_hexes[record.hex]}", files["hexes"], line, "hex")
        seen_hexes.setdefault(record.hex, line)
        for terrain in record.terrain:
            report.known(terrain, hex_terrain, "hex terrain", files["hexes"], line, "terrain")
    seen_sides: dict[tuple[object, str], int] = {}
    # Each hexside read once, by the table every later use reads too; one the map does not have is read again here
    # for its error.
    for line, side_record, placed in game.placed_hexsides:
        try:
            side = placed if placed is not None else game.grid.parse_hexside(side_record.hexside)
        except GridError as e:
            report.add(e.message, files["hexsides"], line, "hexside")
            continue
        key = (side, side_record.feature)
        if key in seen_sides:
            report.add(f"{side_record.feature} on hexside {side_record.hexside} already listed on line "
                       f"{seen_sides[key]}", files["hexsides"], line, "hexside")
        seen_sides.setdefault(key, line)
        report.known(side_record.feature, hexside_features, "hexside feature", files["hexsides"], line, "feature")
    for line, place in game.places:
        report.hex_on_map(game, place.hex, files["places"], line, "hex")


def _check_areas(game: Game, report: _Report) -> None:
    file = game.files["areas"]
    ids = Counter(a.id for a in game.areas.area)
    _once(report, file, "area", _by_id(game.areas.area, "area"))
    _once(report, file, "line", _by_id(game.areas.line, "line"))
    sides = game.manifest.sides
    for i, area in enumerate(game.areas.area):
        key = f"area[{i}] {area.id}"
        for label in area.hexes:
            report.hex_on_map(game, label, file, key=key, at=("area", i, "hexes"))
        for member in area.members:
            report.known(member, ids, "area", file, key=f"{key}.members", at=("area", i, "members"))
        if area.side is not None:
            report.known(area.side, sides, "side", file, key=f"{key}.side", at=("area", i, "side"))
    # Members must not loop back on themselves, or area_hexes would never end.
    members = {a.id: set(a.members) for a in game.areas.area}
    for start in members:
        stack, seen = list(members[start]), set()
        while stack:
            current = stack.pop()
            if current == start:
                report.add(f"area {start!r} contains itself through its members", file, key=f"area {start}",
                           at=_first(game.areas.area, start, "area", "members"))
                break
            if current not in seen:
                seen.add(current)
                stack.extend(members.get(current, ()))
    for i, line_def in enumerate(game.areas.line):
        key = f"line[{i}] {line_def.id}"
        hexes = [report.hex_on_map(game, label, file, key=key, at=("line", i, "hexes")) for label in line_def.hexes]
        for (la, a), (lb, b) in zip(zip(line_def.hexes, hexes), zip(line_def.hexes[1:], hexes[1:])):
            if a is not None and b is not None and not a.is_adjacent(b):
                report.add(f"line {line_def.id}: {la} and {lb} are not adjacent", file, key=key,
                           at=("line", i, "hexes"))
        for text in line_def.hexsides:
            try:
                game.grid.parse_hexside(text)
            except GridError as e:
                report.add(f"line {line_def.id}: {e.message}", file, key=key, at=("line", i, "hexsides"))


def _check_manifest(game: Game, report: _Report) -> None:
    m = game.manifest
    file = game.files["game"]
    if m.sides[0] == m.sides[1]:
        report.add("the two sides must differ", file, key="sides", at=("sides",))
    _once(report, game.files["parameters"], "parameter", _by_id(game.parameters.parameter, "parameter"))
    _once(report, game.files["charts"], "chart", _by_id(game.charts.chart, "chart"))
    if game.crt is not None:
        _once(report, game.files["crt"], "CRT line", _by_id(game.crt.line, "line"))
    for what, items in (("nationality", m.nationality), ("unit_type", m.unit_type), ("box", m.box),
                        ("track", m.track), ("scenario", m.scenario), ("optional_rule", m.optional_rule),
                        ("roll", m.roll)):
        _once(report, file, what, _by_id(items, what))
    # A step or phase is named by its id wherever it is in the sequence (a log's step markers, the rules' `entries`).
    _once(report, file, "sequence", [*_by_id(m.sequence, "sequence"),
                                     *(((("sequence", i, "items", j)), sub.id) for i, item in enumerate(m.sequence)
                                       for j, sub in enumerate(item.items))])
    for i, nationality in enumerate(m.nationality):
        report.known(nationality.side, m.sides, "side", file, key=f"nationality {nationality.id}.side",
                     at=("nationality", i, "side"))
    for i, b in enumerate(m.box):
        if b.side is not None:
            report.known(b.side, m.sides, "side", file, key=f"box {b.id}.side", at=("box", i, "side"))
        if b.area is not None:
            report.known(b.area, game.areas_by_id, "area", file, key=f"box {b.id}.area", at=("box", i, "area"))
    # A unit eliminated goes to its side's one box of that kind for units: two would leave the choice to list order.
    kinds = Counter((b.kind, b.side, b.holds) for b in m.box if b.kind in ("eliminated", "delayed"))
    for (kind, side, holds), n in kinds.items():
        if n > 1:
            report.add(f"{n} {kind} boxes for {holds} of side {side}: a {holds[:-1]} {kind} would have two places to go",
                       file, key="box")
    for i, t in enumerate(m.track):
        if t.side is not None:
            report.known(t.side, m.sides, "side", file, key=f"track {t.id}.side", at=("track", i, "side"))
    for i, s in enumerate(m.scenario):
        report.known(s.first_player, m.sides, "side", file, key=f"scenario {s.id}.first_player",
                     at=("scenario", i, "first_player"))
    offered = {*m.declare.unit, *(w for words in m.declare.markers.values() for w in words)}
    if "also" in offered and (game.rules is None or not game.rules.combat.multi_hex):
        # A second hex of an attack is a breach where the rules refuse them: the module must not offer it.
        report.add("[declare] offers 'also' (another hex of an attack), but the game's rules refuse attacks on "
                   "several hexes (rules.toml's [combat] multi_hex = true allows them, and then the module offers it "
                   "by itself)", file, key="declare.unit", at=("declare", "unit"))


def _check_pieces(game: Game, report: _Report) -> None:
    m = game.manifest
    file = game.files["units"]
    nationalities = {n.id: n for n in m.nationality}
    types = {t.id for t in m.unit_type}
    seen: dict[str, int] = {}
    value_count = len(m.value_names)
    for line, unit in game.units:
        if unit.id in seen:
            report.add(f"unit id {unit.id!r} already used on line {seen[unit.id]}", file, line, "id")
        seen.setdefault(unit.id, line)
        report.known(unit.side, m.sides, "side", file, line, "side")
        if report.known(unit.nationality, nationalities, "nationality", file, line, "nationality"):
            if nationalities[unit.nationality].side != unit.side:
                report.add(f"nationality {unit.nationality!r} belongs to side "
                           f"{nationalities[unit.nationality].side!r}, not {unit.side!r}", file, line, "side")
        report.known(unit.type, types, "unit type", file, line, "type")
        if len(unit.further_reduced) != max(unit.steps - 2, 0):
            report.add(f"a {unit.steps}-step unit has {max(unit.steps - 2, 0)} further reduced face(s), not "
                       f"{len(unit.further_reduced)}", file, line, "further_reduced")
        if unit.steps > 2 and m.rule_system != "classic":
            report.add(f"{unit.steps} steps: the {m.rule_system} rule system's units have two at most (units of "
                       "three or four steps are a classic game's)", file, line, "steps")
        for step, values in [("full", unit.full), ("reduced", unit.reduced),
                             *(("further_reduced", v) for v in unit.further_reduced)]:
            if values is None:
                continue
            if len(values) != value_count or not all(isinstance(v, int) for v in values):
                report.add(f"{step} values {'-'.join(map(str, values))!r}: expected {value_count} whole numbers "
                           f"({'-'.join(m.value_names)})", file, line, step)
        for name in unit.reconstructed:
            vocabulary = ["full", "reduced", "further_reduced", "steps", "mobility", "zoc", "size", "type",
                          "nationality", "side", *(f"{step}.{v}" for step in ("full", "reduced") for v in m.value_names)]
            report.known(name, vocabulary, "reconstructed field", file, line, "reconstructed")
    marker_file = game.files["markers"]
    _once(report, marker_file, "marker", _by_id(game.markers.marker, "marker"))
    for i, mk in enumerate(game.markers.marker):
        if mk.id in seen:
            report.add(f"marker {mk.id!r} has the same id as a unit", marker_file, key=f"marker {mk.id}",
                       at=("marker", i, "id"))
        if mk.side is not None:
            report.known(mk.side, m.sides, "side", marker_file, key=f"marker {mk.id}.side", at=("marker", i, "side"))


def _location_ok(game: Game, report: _Report, location: str, file: Path, line: int, key: str,
                 areas: tuple[str, ...] = ()) -> None:
    """A location is a hex label, a box id or 'track@space' (or one of `areas`, where an area may be named)."""
    boxes = {b.id for b in game.manifest.box}
    tracks = {t.id: t for t in game.manifest.track}
    if location in boxes:
        return
    if "@" in location:
        track_id, _, space = location.partition("@")
        if report.known(track_id, tracks, "track", file, line, key):
            track = tracks[track_id]
            if not space.lstrip("-").isdigit() or not track.first <= int(space) <= track.last:
                report.add(f"{location!r}: space must be a number from {track.first} to {track.last}",
                           file, line, key)
        return
    if game.grid.is_label(location):
        return
    try:
        game.grid.parse_label(location)
    except GridError:
        area = f"an area of areas.toml ({listed(sorted(areas))}), " if areas else ""
        report.add(f"{location!r} is neither a hex label, {area}a box ({listed(sorted(boxes)) or 'none'}) "
                   f"nor TRACK@SPACE{did_you_mean(location, [*areas, *boxes, *game.grid.labels])}", file, line, key)
        return
    report.hex_on_map(game, location, file, line, key)


def _check_schedules(game: Game, report: _Report) -> None:
    m = game.manifest
    scenarios = {s.id: s for s in m.scenario}
    units = game.units_by_id
    markers = game.markers_by_id
    file = game.files["setup"]
    placed: dict[tuple[str, str], int] = {}
    for line, p in game.setup:
        report.known(p.scenario, scenarios, "scenario", file, line, "scenario")
        if p.piece in units:
            if p.count != 1:
                report.add(f"unit {p.piece!r} is one piece: count must be 1", file, line, "count")
            if (p.scenario, p.piece) in placed:
                report.add(f"unit {p.piece!r} already placed on line {placed[(p.scenario, p.piece)]}",
                           file, line, "piece")
            placed.setdefault((p.scenario, p.piece), line)
        elif p.piece in markers:
            if p.count > markers[p.piece].count:
                report.add(f"marker {p.piece!r}: {p.count} placed but the game has {markers[p.piece].count}",
                           file, line, "count")
        elif p.piece not in game.unloaded_units:  # a units.csv row that failed is reported there once
            report.add(f"unknown unit or marker {p.piece!r}{did_you_mean(p.piece, [*units, *markers])}",
                       file, line, "piece")
        _location_ok(game, report, p.location, file, line, "location")
    file = game.files["reinforcements"]
    arriving: dict[tuple[str, str], int] = {}
    for line, a in game.reinforcements:
        scenario = scenarios.get(a.scenario)
        if report.known(a.scenario, scenarios, "scenario", file, line, "scenario") and scenario is not None:
            if not scenario.first_turn <= a.turn <= scenario.last_turn:
                report.add(f"turn {a.turn} is outside scenario {a.scenario!r} (turns {scenario.first_turn}-"
                           f"{scenario.last_turn})", file, line, "turn")
        if a.unit not in game.unloaded_units:
            report.known(a.unit, units, "unit", file, line, "unit")
        if (a.scenario, a.unit) in placed:
            report.add(f"unit {a.unit!r} is both set up (setup.csv line {placed[(a.scenario, a.unit)]}) "
                       "and a reinforcement", file, line, "unit")
        if (a.scenario, a.unit) in arriving:
            report.add(f"unit {a.unit!r} already arrives on line {arriving[(a.scenario, a.unit)]}", file, line, "unit")
        arriving.setdefault((a.scenario, a.unit), line)
        if a.entry is not None and a.entry not in game.areas_by_id:
            _location_ok(game, report, a.entry, file, line, "entry", tuple(game.areas_by_id))
    file = game.files["replacements"]
    for line, r in game.replacements:
        report.known(r.scenario, scenarios, "scenario", file, line, "scenario")
        report.known(r.side, m.sides, "side", file, line, "side")
