"""What a finding's arithmetic rests on: the data records (CRT cell, hex terrain, hexside feature,
unit strength) named with their file, record and source, so a verdict resting on a reconstructed
value says so (docs/log-format.md, "basis"). The records come from the loaded game; a player who
corrects the data folder (`--data`) gets verdicts, and bases, on their values."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Literal

from adjudicator.contract import RuleSystem, StateT
from adjudicator.findings import Basis, Finding
from adjudicator.notation.entries import Entry
from adjudicator.notation.text import iter_units_and_hexes
from wargame.game import Game
from wargame.hexes import Hex, Hexside
from wargame.records import frozen

__all__ = ["Basis", "attack_records", "crt_cell", "hex_terrain", "hexside_features", "marker_values", "unit_strength",
           "with_basis"]


@frozen
class _Index:
    """A game's hex and hexside records by hex, with their line in the data file."""

    hexes: dict[str, tuple[int, str, str]]
    """By label: a finding names few hexes, and the map's label of each is at hand (no record parsed)."""
    hexsides: dict[Hexside, list[tuple[int, str, str]]]


_INDEXES: dict[int, tuple[Game, _Index]] = {}
"""One index per game loaded (the adjudicator's cache, not the kernel's: house style 15)."""


def _index(game: Game) -> _Index:
    known = _INDEXES.get(id(game))
    if known is not None and known[0] is game:
        return known[1]
    hexes = {r.hex: (n, r.hex, r.source) for n, r in game.hexes}
    sides: dict[Hexside, list[tuple[int, str, str]]] = {}
    for n, r, side in game.placed_hexsides:
        if side is not None:  # one the map does not have: the cross-check reports it when the game loads
            sides.setdefault(side, []).append((n, f"{r.hexside} {r.feature}", r.source))
    if len(_INDEXES) > 8:
        _INDEXES.clear()
    index = _INDEXES[id(game)] = (game, _Index(hexes, sides))
    return index[1]


_FILES: dict[int, tuple[Game, dict[str, str]]] = {}
"""Each game's data files by name, as a basis names them (asked for every record of every audit)."""


def _file(game: Game, name: str) -> str:
    known = _FILES.get(id(game))
    if known is None or known[0] is not game:
        if len(_FILES) > 8:
            _FILES.clear()
        known = _FILES[id(game)] = (game, {})
    files = known[1]
    if name not in files:
        files[name] = _file_of(game, name)
    return files[name]


def _file_of(game: Game, name: str) -> str:
    path = game.files.get(name)
    if path is None:
        return name
    try:
        return path.relative_to(game.root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def crt_cell(game: Game, column: str, die: int, line: str | None = None) -> Basis:
    """The combat table's cell of a column and (modified) die roll, on a terrain line if given: its source is a
    stated cell's, else the table's, and reconstructed when the terrain line is."""
    assert game.crt is not None
    stated = next((s.source for s in game.crt.stated if s.column == column and s.die == die), None)
    source = stated or game.crt.source
    crt_line = next((x for x in game.crt.line if x.id == line), None)
    if crt_line is not None and crt_line.source.startswith("reconstructed"):
        source = crt_line.source
    where = f"line {line} " if line else ""
    return Basis(_file(game, "crt"), f"results {where}{column}/{die}", source, f"crt {where}{column}/{die}")


def marker_values(game: Game, marker_ids: Iterable[str]) -> tuple[Basis, ...]:
    """The support fire markers' values (markers.toml)."""
    markers = game.markers_by_id
    return tuple(Basis(_file(game, "markers"), m, markers[m].source, f"marker {m}") for m in dict.fromkeys(marker_ids)
                 if m in markers)


def attack_records(game: Game, target: Hex, attackers: Iterable[tuple[str, bool]], defenders: Iterable[tuple[str, bool]],
                   sides: Iterable[Hexside] = (), markers: Iterable[str] = (),
                   values: tuple[str, str] = ("combat", "combat")) -> tuple[Basis, ...]:
    """Everything an attack's arithmetic reads: attackers' and defenders' values (unit, depleted?), the
    defending hex's terrain, the hexsides attacked across and the support markers."""
    return (*(unit_strength(game, u, "reduced" if depleted else "full", values[0]) for u, depleted in attackers
              if u in game.units_by_id),
            *(unit_strength(game, u, "reduced" if depleted else "full", values[1]) for u, depleted in defenders
              if u in game.units_by_id),
            *hex_terrain(game, [target]), *hexside_features(game, sides), *marker_values(game, markers))


def hex_terrain(game: Game, hexes: Iterable[Hex]) -> tuple[Basis, ...]:
    """The terrain records (hexes.csv rows) of hexes."""
    index = _index(game)
    grid = game.grid
    out = []
    for h in hexes:
        row = index.hexes.get(grid.label_of(h)) if h in grid else None
        if row is not None:
            n, label, source = row
            out.append(Basis(_file(game, "hexes"), f"{label} (line {n})", source, f"terrain {label}"))
    return tuple(out)


def hexside_features(game: Game, sides: Iterable[Hexside]) -> tuple[Basis, ...]:
    """The feature records (hexsides.csv rows) of hexsides (a hexside without a feature has none)."""
    index = _index(game)
    return tuple(Basis(_file(game, "hexsides"), f"{key} (line {n})", source, f"hexside {key}")
                 for side in sides for n, key, source in index.hexsides.get(side, ()))


def unit_strength(game: Game, unit_id: str, face: Literal["full", "reduced"], value: str) -> Basis:
    """A unit's printed value (`combat`, `attack`, `defence`) on one face, reconstructed if units.csv says so."""
    unit = game.units_by_id[unit_id]
    reconstructed = face in unit.reconstructed or f"{face}.{value}" in unit.reconstructed
    return Basis(_file(game, "units"), f"{unit_id} {face}.{value}", "reconstructed" if reconstructed else unit.source,
                 f"{unit_id} {face} {value}")


# -- the data a finding rests on, from its facts ------------------------------------------------------------
# A rule system's section table says which kinds of data each section's judgement reads (`rests_on`):
# a finding citing it rests on the records of those kinds that its facts name (the hexes, hexsides and
# units its message names, else its entry's), so no finding site has to list them by hand.

TOPICS = ("movement", "zoc", "stacking", "supply", "arrival", "setup", "victory", "terrain", "markers")
"""The kinds of data a section's judgement may read (a section table's `rests_on`)."""

SUPPLY_AREAS = frozenset({"port", "port_area", "landing", "beach", "edge"})
"""Area kinds a supply rule reads: ports and port areas (values, 8.1/8.5), landing hexes, beaches and map edges
as sources."""
ARRIVAL_AREAS = frozenset({"entry", "edge", "landing", "beach"})
VICTORY_AREAS = frozenset({"victory", "city", "port"})
_TRIM = ",;:.()'\"[]{}!?"
COSTS = re.compile(r"\ballowance\b|\bMPs?\b")
"""A finding that speaks of movement costs (an allowance overspent, MP spent by a hex)."""

GEOMETRIC = re.compile(r"\bskips from \S+ to \S+|\bis not adjacent\b")
"""A finding about the map's geometry alone (a path that skips a hex, a unit not next to the hex it attacks):
it rests on no terrain, unit value or area, whatever hexes it names."""


@frozen
class Facts:
    """What a finding names: hexes (in order, a path's included), hexsides, units, areas."""

    hexes: tuple[Hex, ...]
    sides: tuple[Hexside, ...]
    units: tuple[str, ...]
    areas: tuple[str, ...]
    is_path: bool = False
    """True when `hexes` is an entry's path (its first hex is left, not entered)."""
    markers: tuple[str, ...] = ()
    """Marker ids (support fire, naval gunfire)."""
    costs: bool = False
    """True when the finding speaks of movement points or an allowance: the units' allowances and the
    terrain of every hex entered count, not only the hexes named."""


def message_facts(game: Game, message: str) -> Facts:
    """The hexes (hexsides written `0101-0102`), units and areas (by id or name) a finding's message names."""
    grid = game.grid
    units = game.units_by_id
    hexes: list[Hex] = []
    sides: list[Hexside] = []
    named: list[str] = []
    markers: list[str] = []
    for word in message.split():
        token = word.strip(_TRIM)
        if token in units:
            named.append(token)
        elif token in game.markers_by_id:
            markers.append(token)
        elif grid.is_label(token):
            hexes.append(grid.hex_of(token))
        elif "-" in token and all(grid.is_label(t) for t in token.split("-")):
            # A hexside `0101-0102` or a path `2117-2016-1916`.
            path = [grid.hex_of(t) for t in token.split("-")]
            hexes += path
            sides += [Hexside.between(a, b) for a, b in zip(path, path[1:]) if a.is_adjacent(b)]
    areas = [a.id for a in game.areas.area if a.id in message or (len(a.name) > 3 and a.name in message)]
    return Facts(tuple(dict.fromkeys(hexes)), tuple(dict.fromkeys(sides)), tuple(dict.fromkeys(named)), tuple(areas),
                 markers=tuple(dict.fromkeys(markers)))


def entry_facts(game: Game, units: Iterable[str], labels: Iterable[str], markers: Iterable[str] = ()) -> Facts:
    """The facts of an entry: the units and hexes (a path in order) it names; hexsides between path neighbours;
    the markers it names."""
    grid = game.grid
    hexes = [grid.hex_of(label) for label in labels if grid.is_label(label)]
    sides = [Hexside.between(a, b) for a, b in zip(hexes, hexes[1:]) if a.is_adjacent(b)]
    return Facts(tuple(hexes), tuple(dict.fromkeys(sides)), tuple(u for u in dict.fromkeys(units)
                                                                 if u in game.units_by_id), (), len(hexes) > 1,
                 tuple(m for m in dict.fromkeys(markers) if m in game.markers_by_id))


def unit_zoc(game: Game, unit_id: str) -> Basis | None:
    """Whether a unit exerts a zone of control (units.csv `zoc` column); None where the file has no such column
    (every unit exerts one by the rules)."""
    unit = game.units_by_id[unit_id]
    if unit_id not in game.zoc_stated:
        return None
    source = "reconstructed" if "zoc" in unit.reconstructed else unit.source
    return Basis(_file(game, "units"), f"{unit_id} zoc", source, f"{unit_id} zoc")


def terrain_types(game: Game, hexes: Iterable[Hex]) -> tuple[Basis, ...]:
    """The terrain chart's lines (terrain.toml) of the hexes' terrain: their movement costs and effects."""
    kinds = dict.fromkeys(t for h in hexes for t in game.hex_terrain.get(h, ()))
    return tuple(Basis(_file(game, "terrain"), t, game.terrain[t].source, f"terrain chart {t}") for t in kinds
                 if t in game.terrain)


def parameters(game: Game, words: Iterable[str]) -> tuple[Basis, ...]:
    """The rules' numbers (parameters.toml) whose id holds one of the words."""
    wanted = tuple(words)
    return tuple(Basis(_file(game, "parameters"), p.id, p.source, f"parameter {p.id}")
                 for p in game.parameters.parameter if any(w in p.id for w in wanted))


def areas(game: Game, area_ids: Iterable[str]) -> tuple[Basis, ...]:
    """Area records (areas.toml): a port's value, a source's or entry area's hexes."""
    known = game.areas_by_id
    return tuple(Basis(_file(game, "areas"), f"area {a}", known[a].source, f"area {a}") for a in dict.fromkeys(area_ids)
                 if a in known)


def _areas_touching(game: Game, hexes: Iterable[Hex], kinds: frozenset[str]) -> list[str]:
    wanted = set(hexes)
    return [a.id for a in game.areas.area if a.kind in kinds and wanted & game.area_hexes(a.id)]


def arrivals(game: Game, units: Iterable[str]) -> tuple[Basis, ...]:
    """The reinforcement schedule's rows (reinforcements.csv) of units, and the entry areas they name."""
    wanted = set(units)
    out: list[Basis] = []
    for n, row in game.reinforcements:
        if row.unit in wanted:
            out.append(Basis(_file(game, "reinforcements"), f"{row.scenario} {row.unit} turn {row.turn} (line {n})",
                             row.source, f"arrival {row.unit}"))
            if row.entry is not None and row.entry in game.areas_by_id:
                out += areas(game, [row.entry])
            elif row.entry is not None and game.grid.is_label(row.entry):
                out += hex_terrain(game, [game.grid.hex_of(row.entry)])
    return tuple(out)


def set_up(game: Game, units: Iterable[str]) -> tuple[Basis, ...]:
    """The set-up rows (setup.csv) of units."""
    wanted = set(units)
    return tuple(Basis(_file(game, "setup"), f"{row.scenario} {row.piece} (line {n})", row.source,
                       f"set-up {row.piece}") for n, row in game.setup if row.piece in wanted)


class Board:
    """Where the units are and which are reduced, before the entry judged (for movement allowances and ZOC),
    read from the position only when a finding asks (a rule system's `check` may be asked often)."""

    def __init__(self, read: Callable[[], tuple[Mapping[str, str], frozenset[str]]]) -> None:
        self._read = read
        self._known: tuple[Mapping[str, str], frozenset[str]] | None = None

    def _board(self) -> tuple[Mapping[str, str], frozenset[str]]:
        if self._known is None:
            self._known = self._read()
        return self._known

    @property
    def location(self) -> Mapping[str, str]:
        """Every unit's place."""
        return self._board()[0]

    @property
    def reduced(self) -> frozenset[str]:
        """The units showing their reduced face."""
        return self._board()[1]


def topic_records(game: Game, topic: str, facts: Facts, board: Board) -> tuple[Basis, ...]:
    """The records of one kind of data a finding's facts name."""
    grid = game.grid
    if topic == "movement":
        entered = facts.hexes[1:] if facts.is_path else facts.hexes
        allowances = facts.units if facts.costs else ()
        return (*hex_terrain(game, entered), *terrain_types(game, entered), *hexside_features(game, facts.sides),
                *(unit_strength(game, u, "reduced" if u in board.reduced else "full", "movement") for u in allowances))
    if topic == "zoc":
        own = {game.units_by_id[u].side for u in facts.units}
        out: list[Basis] = [*hex_terrain(game, facts.hexes), *hexside_features(game, facts.sides)]
        for h in facts.hexes:
            for u, where in sorted(board.location.items()):
                if not grid.is_label(where) or game.units_by_id[u].side in own:
                    continue
                there = grid.hex_of(where)
                if there.is_adjacent(h):
                    out += [*hex_terrain(game, [there]), *hexside_features(game, [Hexside.between(h, there)])]
                    zoc = unit_zoc(game, u)
                    out += [zoc] if zoc is not None else []
        return tuple(out)
    if topic == "stacking":
        return (*parameters(game, ("stack",)), *hex_terrain(game, facts.hexes[-1:]))
    if topic == "supply":
        named = [*facts.areas, *_areas_touching(game, facts.hexes, SUPPLY_AREAS)]
        if not named:
            named = [a.id for a in game.areas.area if a.kind in SUPPLY_AREAS]
        return (*areas(game, named), *hex_terrain(game, facts.hexes))
    if topic == "arrival":
        return (*arrivals(game, facts.units), *areas(game, facts.areas),
                *areas(game, _areas_touching(game, facts.hexes, ARRIVAL_AREAS)), *hex_terrain(game, facts.hexes))
    if topic == "terrain":
        return (*hex_terrain(game, facts.hexes), *terrain_types(game, facts.hexes), *hexside_features(game, facts.sides))
    if topic == "markers":
        return marker_values(game, facts.markers)
    if topic == "setup":
        return (*set_up(game, facts.units), *hex_terrain(game, facts.hexes))
    if topic != "victory":
        raise ValueError(f"no kind of data {topic!r} (one of {', '.join(TOPICS)})")
    named = [*facts.areas, *_areas_touching(game, facts.hexes, VICTORY_AREAS)]
    if not named:
        named = [a.id for a in game.areas.area if a.kind == "victory" or (a.kind in VICTORY_AREAS and a.value)]
    return (*areas(game, named), *parameters(game, ("victory",)))


def finding_records(game: Game, topics: Iterable[str], message: str, entry: Facts, board: Board) -> tuple[Basis, ...]:
    """What a finding rests on: for each kind of data its section reads, the records its message names (the
    hexes and units it is about), else those its entry names."""
    if GEOMETRIC.search(message) is not None:
        return ()
    said = message_facts(game, message)
    units = tuple(dict.fromkeys((*entry.units[:1], *said.units))) if said.units else entry.units
    costs = COSTS.search(message) is not None
    markers = said.markers or entry.markers
    if costs and entry.is_path:
        # An allowance spent: the cost of every hex entered, up to the last one the message names.
        last = max((i for i, h in enumerate(entry.hexes) if h in said.hexes), default=len(entry.hexes) - 1)
        facts = Facts(entry.hexes[:last + 1], entry.sides[:last], units, said.areas, True, markers, True)
    elif said.hexes:
        # The hexes the message is about, and the entry's hexsides into them (a crossing's cost or feature).
        sides = said.sides or tuple(s for s in entry.sides if set(s.hexes()) & set(said.hexes))
        facts = Facts(said.hexes, sides, units, said.areas, markers=markers, costs=costs)
        if entry.is_path and "movement" in topics:
            # Terrain acts on a move where it is entered: a hex the message names that the path does not enter
            # (where the unit really was, where it started) rests on no terrain of the move.
            entered = tuple(h for h in said.hexes if h in entry.hexes[1:])
            moved = Facts(entered, tuple(s for s in sides if set(s.hexes()) & set(entered)), units, said.areas,
                          costs=costs)
            rest = [t for t in topics if t != "movement"]
            return tuple(dict.fromkeys((*topic_records(game, "movement", moved, board),
                                        *(b for t in rest for b in topic_records(game, t, facts, board)))))
    else:
        # A movement finding that names no hex and no cost (a unit moving twice, without activation) rests on
        # no terrain; the other kinds read the entry's hexes.
        facts = Facts(entry.hexes, entry.sides, units, said.areas, entry.is_path, markers, costs)
        topics = [t for t in topics if t != "movement" or costs]
    return tuple(dict.fromkeys(b for topic in topics for b in topic_records(game, topic, facts, board)))


def with_basis(system: RuleSystem[StateT], state: StateT, entry: Entry | None,
               findings: list[Finding]) -> list[Finding]:
    """Each finding that names no basis of its own, resting on the data its section reads (the section table's
    `rests_on`) that its message or entry names: the terrain of the hexes, the units' values, the areas
    (the records above). The state is the one the entry was judged in."""
    table = system.table
    if not any(not f.basis and table.topics(f) for f in findings):
        return findings
    game = system.game_of(state)

    def read_board() -> tuple[dict[str, str], frozenset[str]]:
        units = system.position(state).units
        return {u: p.place for u, p in units.items()}, frozenset(u for u, p in units.items() if p.reduced)

    board = Board(read_board)
    facts = Facts((), (), (), ())
    if entry is not None:
        named = list(iter_units_and_hexes(entry))
        facts = entry_facts(game, [v for k, v in named if k == "unit"], [v for k, v in named if k == "hex"],
                            combat.support if (combat := entry.as_combat()) is not None else [])
    return [f.with_basis(*finding_records(game, table.topics(f), f.message, facts, board))
            if not f.basis and table.topics(f) else f for f in findings]

