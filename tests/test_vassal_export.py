"""`adjudicate export`: a text log written as a VASSAL log or saved game, read back with our own
reader (wargame.vassal + adjudicator.vassal.translate) step by step against the text log's replay."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.engine import Replay, replay
from adjudicator.notation.entries import Comment
from adjudicator.sources import game_of, read_log, replay_entries
from adjudicator.systems import system_for
from adjudicator.vassal.joins import Position, phase_index, replayed_position, vassal_position
from adjudicator.vassal.export import Exporter, ModulePlaces, Shown, _Board
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.translate import Phase, chat_text, module_phases
from test_vassal_grid import VARIANTS
from test_vassal_reader_module import EXTRA_CONFIGURATIONS
from vassal_oracle import VassalHexGrid
from wargame.game import Game
from wargame.grid import Grid
from wargame.layout import Layout, vassal_grid
from wargame.vassal.buildfile import hex_naming, open_module, read_module
from wargame.vassal.definitions import Catalogue, read_catalogue
from wargame.vassal.pieces import Piece
from wargame.vassal.places import Places
from wargame.vassal.reader import read_recording
from wargame.vassal.tracking import ChatEvent, PieceEvent, Tracking, TurnEvent, track

ROOT = Path(__file__).resolve().parent.parent
LOGS = [
    ("onslaught", "examples/onslaught/legal-sample-game.log"),
    ("omaha", "examples/omaha/legal-combat.log"),
    # Issue 15: a one-step unit's stand (8.4) is its counter eliminated, not flipped; the whole game round-trips.
    ("omaha", "examples/omaha/legal-sample-game.log"),
    ("onslaught", "examples/onslaught/breach-zoc.log"),
    ("omaha", "examples/omaha/breach-stacking.log"),
    ("omaha", "examples/omaha/breach-marker-draw.log"),
    # The classic series: Battle for Moscow's whole sample game (set-up faces, flips in place, retreats by the
    # attacker), and a breach.
    ("moscow", "examples/moscow/legal-sample-game.log"),
    ("moscow", "examples/moscow/breach-retreat-zoc.log"),
]


def replayed(log: Path) -> Replay:
    """The text log's own replay."""
    entries, source = read_log(log)
    return replay_entries(game_of(entries, log, None), entries, log, source)


def export(log: Path, module: Path, out: Path, *extra: str) -> Any:
    """`adjudicate export`, its result."""
    return CliRunner().invoke(main, ["export", str(log), "--module", str(module), "-o", str(out), *extra])


def boards(tracking: Tracking) -> list[tuple[dict[str, Piece], dict[str, str]]]:
    """The pieces and turn trackers after the saved position and after every step."""
    pieces, turns = dict(tracking.initial), dict(tracking.initial_turns)
    out = [(dict(pieces), dict(turns))]
    for step in tracking.steps:
        for event in step.events:
            if isinstance(event, PieceEvent):
                if event.after is None:
                    pieces.pop(event.piece_id, None)
                else:
                    pieces[event.piece_id] = event.after
            elif isinstance(event, TurnEvent):
                turns[event.tracker_id] = event.new
        out.append((dict(pieces), dict(turns)))
    return out


def eliminated(game: Game, positions: dict[str, list[str]]) -> set[str]:
    """Units in an Eliminated box."""
    boxes = {b.id for b in game.manifest.box if b.kind == "eliminated"}
    return {u for place, units in positions.items() if place in boxes for u in units}


def board_eliminated(game: Game, places: Places, pieces: dict[str, Piece]) -> set[str]:
    boxes = {b.id for b in game.manifest.box if b.kind == "eliminated"}
    return {p.properties["UnitId"] for p in pieces.values() if "UnitId" in p.properties
            and places.locate(p.map_name, p.x, p.y).name in boxes}


def same(a: Position, b: Position) -> bool:
    """Units (hex or box, reduced or not) and the turn tracker, markers left aside."""
    return a.units == b.units and (a.turn is None or b.turn is None or a.turn == b.turn)


@pytest.mark.parametrize("game_id, log", LOGS)
def test_the_exported_log_replays_the_text_log_step_by_step(game_id: str, log: str, tmp_path: Path,
                                                             built_module: Callable[[str], Path]) -> None:
    """One step per entry; after each, the board our reader follows shows the replay's position (units, hexes,
    reduced or not, eliminated, the turn tracker, the supply and turn markers); the chat carries each entry
    and every finding; the reader's translation adjudicates to the same findings."""
    module = built_module(game_id)
    out = tmp_path / "game.vlog"
    result = export(ROOT / log, module, out)
    assert result.exit_code == 0, result.output
    text = replayed(ROOT / log)
    game = text.game
    recording = read_recording(out)
    tracking = track(recording)
    assert len(tracking.steps) == len(text.entries)
    info = read_module(module)
    places = Places(game, info)
    phase_list: list[Phase] = module_phases(game, info)[0]
    states = boards(tracking)
    supply_tracks = {t.side: t for t in game.manifest.track if t.kind == "supply"}
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    for k, (pieces, turns) in enumerate(states):
        doc = text.system.describe(text.states[k])
        shown = vassal_position(game, places, phase_list, pieces, turns)
        expected = replayed_position(game, text.system.position(text.states[k]), phase_list)
        assert shown.units == expected.units, (log, k)
        assert board_eliminated(game, places, pieces) == eliminated(game, doc["positions"]), (log, k)
        if phase_index(text.system.position(text.states[k]).at, phase_list) is not None:
            assert shown.turn == expected.turn, (log, k)
        assert shown.markers is not None
        if doc["turn"] >= 1:
            assert shown.markers.get("turn") == (f"turn@{doc['turn']}",), (log, k)
        for side, points in doc.get("supply", {}).items():
            track_ = supply_tracks[side]
            marker = next(m.id for m in game.markers.marker if m.kind == "supply" and m.side == side)
            space = points - track_.last if points > track_.last else points
            assert shown.markers.get(marker) == (f"{track_.id}@{space}",), (log, k, side)
        state = text.states[k]
        for marker in game.markers.marker:
            rows = [p for _, p in game.setup if p.piece == marker.id and p.scenario == state.scenario]
            cup = next((p.location for p in rows if p.location in cups), None)
            if cup is None:
                continue
            # 7.2, 11.1.4: a cup's markers are in it unless drawn or placed, put aside, or eliminated for good.
            count = sum(p.count for p in rows)
            used, aside, lost = (getattr(state, name).count(marker.id)
                                 for name in ("markers_used", "withheld", "lost_markers"))
            where = shown.markers.get(marker.id, ())
            assert where.count(cup) == count - used - aside - lost, (log, k, marker.id)
            assert len(where) == count and (used == 0 or f"{(marker.side or '').lower()}_sf_used" in where)
        beachheads = getattr(state, "beachheads", None)
        for marker in game.markers.marker:
            if marker.kind == "beachhead" and beachheads is not None:
                # 11.2.1: the beachhead markers lie on the beach hexes that have one.
                where = shown.markers.get(marker.id, ())
                assert sorted(p for p in where if game.grid.is_label(p)) == sorted(beachheads), (log, k)
    findings_said = []
    for k, (step, entry) in enumerate(zip(tracking.steps, text.entries), 1):
        chats = [chat_text(e.html) for e in step.events if isinstance(e, ChatEvent)]
        assert chats[0] == f"<{Path(log).name} line {entry.line}> - " + (
            read_log(ROOT / log)[1][entry.line - 1].strip()), k
        findings_said += [c.removeprefix("<Umpire> - ") for c in chats if c.startswith("<Umpire> - ")]
    assert sorted(findings_said) == sorted(f"{f.severity} [{f.system} {f.rule}]: {f.message}"
                                           for f in text.findings)
    translation = translate_file(out, module_path=module)
    # Nothing the reader had to guess or could not match (decks are not followed, and said so).
    assert [n.message for n in translation.notes if "deck" not in n.message] == [], log
    again = replay(game, system_for(game), translation.entries)
    assert again.stopped is None
    assert sorted((f.severity, f.rule, f.message) for f in again.findings) == sorted(
        (f.severity, f.rule, f.message) for f in text.findings)
    # The translation, entry by entry, reaches the text log's position at each step.
    for k in range(len(text.entries) + 1):
        ours = replayed_position(game, text.system.position(again.state_at(k)), phase_list)
        theirs = replayed_position(game, text.system.position(text.states[k]), phase_list)
        assert ours.units == theirs.units, (log, k)


def test_a_breach_is_said_at_its_step(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """The ZOC breach's finding is in the chat of the step of its entry, and the verdict cites that step."""
    log = ROOT / "examples/onslaught/breach-zoc.log"
    out = tmp_path / "zoc.vlog"
    assert export(log, built_module("onslaught"), out).exit_code == 0
    text = replayed(log)
    (finding,) = [f for f in text.findings if f.severity == "error"]
    index = max(k for k, e in enumerate(text.entries) if e.line <= finding.line)
    step = track(read_recording(out)).steps[index]
    said = [chat_text(e.html) for e in step.events if isinstance(e, ChatEvent)]
    assert f"<Umpire> - error [onslaught 6.2]: {finding.message}" in said
    verdict = CliRunner().invoke(main, ["check", str(out), "--module", str(built_module("onslaught"))])
    assert verdict.exit_code == 1 and f"step {index + 1}: error [onslaught 6.2]" in verdict.stdout


def _box_counts(pieces: dict[str, Piece], seats: list[tuple[str, int, int]]) -> list[int]:
    return [sum(1 for p in pieces.values() if (p.map_name, p.x, p.y) == s) for s in seats]


def _fresh(counts: list[int]) -> bool:
    """A box's counts per seat as a box filled from empty has them: its first seats one a counter, or (more
    counters than seats) every seat, with counts that differ by one at most."""
    n = sum(counts)
    if n <= len(counts):
        return counts == [1] * n + [0] * (len(counts) - n)
    return max(counts) - min(counts) <= 1


@pytest.mark.parametrize("game_id, log", LOGS)
def test_boxes_keep_no_gaps(game_id: str, log: str, tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """After every step of every exported example, each box is laid out as a box filled from empty."""
    module = built_module(game_id)
    out = tmp_path / "game.vlog"
    assert export(ROOT / log, module, out).exit_code == 0
    game = replayed(ROOT / log).game
    places = ModulePlaces(game, read_catalogue(open_module(module)))
    seats = {b.id: places.seats(b.id) for b in game.manifest.box if b.kind != "draw_cup"}
    for k, (pieces, _) in enumerate(boards(track(read_recording(out)))):
        for box, spots in seats.items():
            assert _fresh(_box_counts(pieces, spots)), (log, k, box, _box_counts(pieces, spots))


def test_a_counter_leaving_a_box_leaves_no_gap(built_module: Callable[[str], Path]) -> None:
    """The first of three counters in a box taken out: the last one moves into its seat (a drag in the box)."""
    module = built_module("onslaught")
    game = replayed(ROOT / LOGS[0][1]).game
    places = ModulePlaces(game, read_catalogue(open_module(module)))
    board = _Board(game, read_catalogue(open_module(module)), places)
    box = next(b.id for b in game.manifest.box if b.kind == "eliminated")
    units = sorted(game.units_by_id)[:3]
    hex_ = next(p.location for _, p in game.setup if game.grid.is_label(p.location))
    board.place_all(Shown({u: (box, False) for u in units}, {}, None))
    spots = places.seats(box)
    assert [board.pieces[board.units[u]].spot for u in units] == spots[:3]
    first = board.pieces[board.units[units[0]]]
    board.change(units[0], None, (box, False), (hex_, False), first)
    commands = board.tidy()
    assert {board.pieces[board.units[u]].spot for u in units[1:]} == set(spots[:2])
    assert board.pieces[board.units[units[2]]].spot == spots[0]
    assert sum(c.startswith("M/") for c in commands) == 1
    assert board.tidy() == []
    # Back into the box: the next seat, then nothing to tidy.
    board.change(units[0], None, (hex_, False), (box, False), first)
    assert first.spot == spots[2] and board.tidy() == []


@pytest.mark.parametrize("game_id, log, line", [("onslaught", "examples/onslaught/legal-sample-game.log", 40),
                                                ("omaha", "examples/omaha/legal-combat.log", 25)])
def test_a_saved_game_at_a_line(game_id: str, log: str, line: int, tmp_path: Path,
                                built_module: Callable[[str], Path]) -> None:
    """`--at LINE` gives the position after that line (as `adjudicate state` takes it), without it the end."""
    module = built_module(game_id)
    text = replayed(ROOT / log)
    info = read_module(module)
    places, phase_list = Places(text.game, info), module_phases(text.game, info)[0]
    for at, state in ((str(line), text.state_at(line)), (None, text.final_state)):
        out = tmp_path / f"at-{at}.vsav"
        result = export(ROOT / log, module, out, *(["--at", at] if at else []))
        assert result.exit_code == 0, result.output
        recording = read_recording(out)
        assert not recording.is_log
        tracking = track(recording)
        shown = vassal_position(text.game, places, phase_list, tracking.initial, tracking.initial_turns)
        expected = replayed_position(text.game, text.system.position(state), phase_list)
        assert shown.units == expected.units and shown.turn == expected.turn
    early = tmp_path / "early.vsav"
    assert export(ROOT / log, module, early, "--at", "1").exit_code == 0
    assert early.read_bytes() != (tmp_path / f"at-{line}.vsav").read_bytes()


def test_exports_are_byte_identical(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """The same inputs give the same bytes; entries sorted and dated 1980."""
    log, module = ROOT / "examples/omaha/legal-combat.log", built_module("omaha")
    for name in ("a.vlog", "b.vlog", "a.vsav", "b.vsav"):
        assert export(log, module, tmp_path / name, *(["--at", "20"] if name.endswith("vsav") else [])).exit_code == 0
    assert (tmp_path / "a.vlog").read_bytes() == (tmp_path / "b.vlog").read_bytes()
    assert (tmp_path / "a.vsav").read_bytes() == (tmp_path / "b.vsav").read_bytes()
    # Across processes too: nothing depends on the order of a set or a dict of strings.
    for seed in ("1", "2"):
        subprocess.run([sys.executable, "-m", "adjudicator", "export", str(log), "--module", str(module), "-o",
                        str(tmp_path / f"seed{seed}.vlog")], check=True, cwd=ROOT, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": seed})
    assert (tmp_path / "seed1.vlog").read_bytes() == (tmp_path / "seed2.vlog").read_bytes() == (
        tmp_path / "a.vlog").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.vlog") as archive:
        assert archive.namelist() == ["moduledata", "savedGame", "savedata"]
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.read("savedGame").startswith(b"!VCSK")
        assert archive.read("moduledata") == zipfile.ZipFile(module).read("moduledata")


def test_pieces_are_the_modules_own(built_module: Callable[[str], Path]) -> None:
    """A unit's piece in play is its PieceSlot with the prototype expanded, as in the module's own set-up save."""
    module = built_module("onslaught")
    catalogue = read_catalogue(open_module(module))
    setup = Path(module).parent / "campaign-from-module.vsav"
    setup.write_bytes(zipfile.ZipFile(module).read("campaign.vsav"))
    pieces = track(read_recording(setup)).initial
    for piece in pieces.values():
        unit = piece.properties.get("UnitId")
        if unit:
            definition = catalogue.units[unit]
            assert [t.type_text for t in piece.traits] == list(definition.types)
            assert [t.state_text for t in piece.traits][:-1] == list(definition.states)[:-1]
            assert definition.gpid == piece.gpid


def test_hex_points_match_vassal() -> None:
    """A hex's point is VASSAL's getLocation (the oracle) on every hex of our grids and on other grids."""
    for variant in VARIANTS:
        grid = Grid(variant.spec)
        layout = Layout.for_grid(grid, variant.size_px, variant.margin_px)
        size = layout.board_size(grid, variant.margin_px)
        derived = vassal_grid(layout, grid, size)
        oracle = VassalHexGrid(derived.hex_grid, derived.numbering, size)
        naming = hex_naming(derived.hex_grid, derived.numbering, size)
        for h in grid.hexes:
            label = grid.label_of(h)
            point = naming.point_of(label)
            assert point == oracle.location(label), (variant.id, label)
            assert point is not None and naming.name_at(*point) == label
            x, y = layout.centre(h)
            assert abs(point[0] - x) <= 1 and abs(point[1] - y) <= 1
    rng = random.Random(5)
    for hex_grid, numbering, size in EXTRA_CONFIGURATIONS:
        oracle = VassalHexGrid(hex_grid, numbering, size)
        naming = hex_naming(hex_grid, numbering, size)
        for _ in range(300):
            p = rng.randrange(0, size[0]), rng.randrange(0, size[1])
            name = oracle.location_name(p)
            assert naming.point_of(name) == oracle.location(name), (numbering, name)
    assert naming.point_of("not a hex") is None


def test_cli_errors(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """No --module, another game's module, a log that does not read, an output over an input, a wrong suffix,
    --at for a log, a VASSAL file given: a clear error and exit 2, nothing written."""
    log = ROOT / "examples/onslaught/legal-turn1.log"
    onslaught, omaha = built_module("onslaught"), built_module("omaha")
    runner = CliRunner()
    out = tmp_path / "x.vlog"
    cases: list[tuple[list[str], str]] = [
        (["export", str(log), "-o", str(out)], "export needs the module"),
        (["export", str(log), "--module", str(omaha), "-o", str(out)], "not 'Onslaught"),
        (["export", str(log), "--module", str(onslaught), "-o", str(tmp_path / "x.txt")], "not .txt"),
        (["export", str(log), "--module", str(onslaught), "-o", str(out), "--at", "3"], "saved game"),
        (["export", str(log), "--module", str(onslaught), "-o", str(log)], "overwrite an input"),
    ]
    broken = tmp_path / "broken.log"
    broken.write_text('[Game "onslaught"]\nTurn 1\nus-inf-01 0620-0520 flies\n', encoding="utf-8")
    cases.append((["export", str(broken), "--module", str(onslaught), "-o", str(out)], "nothing was adjudicated"))
    unknown = tmp_path / "unknown.log"
    unknown.write_text('[Game "onslaught"]\n[Scenario "nowhere"]\nTurn 1\n', encoding="utf-8")
    cases.append((["export", str(unknown), "--module", str(onslaught), "-o", str(out)], "unknown scenario"))
    recorded = ROOT / "tests/data/vassal/onslaught-session.vlog"
    cases.append((["export", str(recorded), "--module", str(onslaught), "-o", str(out)], "a VASSAL file already"))
    for args, message in cases:
        result = runner.invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert not out.exists()


def test_pywargame_reads_the_export(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """A second opinion: pywargame's save reader decodes the file, and every piece added decodes to its traits."""
    from test_vassal_pywargame import load_pywargame

    load_pywargame()
    from pywargame.vassal.save import SaveIO
    from pywargame.vassal.withtraits import WithTraits

    out = tmp_path / "game.vlog"
    assert export(ROOT / "examples/onslaught/legal-sample-game.log", built_module("onslaught"), out).exit_code == 0
    _, lines = SaveIO.readSave(str(out))
    adds = [line.lstrip("\\") for line in lines if line.lstrip("\\").startswith("+/") and "/stack/" not in line]
    assert len(adds) >= len(replayed(ROOT / "examples/onslaught/legal-sample-game.log").states[0].location)
    units = 0
    for line in adds:
        _, traits = WithTraits.decodeAdd2(line.rstrip("\\"), False)
        assert type(traits[-1]).__name__ == "BasicTrait"
        units += any(type(t).__name__ == "LayerTrait" for t in traits)
    assert units > 0


def test_a_json_log_exports_as_its_text(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """The JSON twin gives the same position and, read back, the same verdict; its chat lines are the notation."""
    log, module = ROOT / "examples/omaha/breach-stacking.log", built_module("omaha")
    twin = tmp_path / "game.json"
    assert CliRunner().invoke(main, ["convert", str(log), "-o", str(twin)]).exit_code == 0
    for source, name in ((log, "text"), (twin, "json")):
        assert export(source, module, tmp_path / f"{name}.vsav", "--at", "30").exit_code == 0
        assert export(source, module, tmp_path / f"{name}.vlog").exit_code == 0
    saved = [zipfile.ZipFile(tmp_path / f"{name}.vsav").read("savedGame") for name in ("text", "json")]
    assert saved[0] == saved[1]
    verdicts = []
    for name in ("text", "json"):
        result = CliRunner().invoke(main, ["check", str(tmp_path / f"{name}.vlog"), "--module", str(module)])
        verdicts.append([line.split(": ", 2)[-1] for line in result.stdout.splitlines()
                         if ": error [" in line and not line.startswith(" ")])
    assert verdicts[0] == verdicts[1] and verdicts[0]
    steps = track(read_recording(tmp_path / "json.vlog")).steps
    first = [chat_text(e.html) for e in steps[0].events if isinstance(e, ChatEvent)][0]
    comment = read_log(log)[0][0]
    assert isinstance(comment, Comment) and first == f"<game.json line 1> - # {comment.text}"


def _module_with(module: Path, out: Path, change: Callable[[str], str]) -> Path:
    """A copy of a module whose buildFile.xml is changed."""
    with zipfile.ZipFile(module) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "buildFile.xml":
                data = change(data.decode("utf-8")).encode("utf-8")
            target.writestr(info, data)
    return out


def test_a_broken_module_is_a_clear_error(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """A piece definition that does not read, a prototype missing, a unit's piece missing, a hex the grid
    cannot place, random damage to a piece's text: an error naming the module (exit 2), never a traceback."""
    module = built_module("onslaught")
    log = ROOT / "examples/onslaught/legal-turn1.log"
    text = zipfile.ZipFile(module).read("buildFile.xml").decode("utf-8")
    slot = text.index("<VASSAL.build.widget.PieceSlot")
    start, end = text.index(">", slot) + 1, text.index("</VASSAL.build.widget.PieceSlot>", slot)
    cases = {
        "junk": (lambda t: t[:start] + "no piece at all" + t[end:], "add-piece"),
        "prototype": (lambda t: t.replace('PrototypeDefinition name="onslaught infantry"',
                                          'PrototypeDefinition name="gone"'), "does not define"),
        "unit": (lambda t: t.replace("UnitId", "UnitName"), "no piece for"),
        "grid": (lambda t: t.replace('hOff="', 'hOff="9'), "hex grid has no hex"),
    }
    for name, (change, message) in cases.items():
        broken = _module_with(module, tmp_path / f"{name}.vmod", change)
        result = export(log, broken, tmp_path / f"{name}.vlog")
        assert result.exit_code == 2 and message in result.output, (name, result.output)
        assert str(broken) in result.output or "Error:" in result.output
    rng = random.Random(11)
    body = text[start:end]
    for k in range(12):
        cut = rng.randrange(len(body))
        mutated = body[:cut] + rng.choice(["/", "\t", ";", "\\", "'", "", "x"]) * rng.randrange(1, 4) + body[cut + 1:]
        broken = _module_with(module, tmp_path / f"m{k}.vmod", lambda t: t[:start] + mutated + t[end:])
        result = export(log, broken, tmp_path / f"m{k}.vlog")
        assert result.exit_code in (0, 2), (k, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (k, result.output)
        assert "Traceback" not in result.output


def test_hex_names_that_are_not_hexes() -> None:
    """Any text as a hex name: a point or None, never an exception."""
    rng = random.Random(2)
    alphabet = "0123456789-AZaz./$ "
    for hex_grid, numbering, size in EXTRA_CONFIGURATIONS:
        naming = hex_naming(hex_grid, numbering, size)
        for _ in range(300):
            name = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 9)))
            point = naming.point_of(name)
            assert point is None or len(point) == 2


@functools.cache
def _catalogue(module: Path) -> Catalogue:
    """A module's pieces and places as the exporter reads them, once per module and worker."""
    return read_catalogue(open_module(module))


EXAMPLES = sorted((game_id, f"examples/{game_id}/{log.name}") for game_id in ("onslaught", "omaha", "moscow")
                  for log in (ROOT / "examples" / game_id).glob("*.log"))


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "log"), EXAMPLES, ids=[log for _, log in EXAMPLES])
def test_every_example_goes_through_vassal_and_back(game_id: str, log: str, tmp_path: Path,
                                                    built_module: Callable[[str], Path]) -> None:
    """Every example log of Onslaught, Omaha and Moscow exported as a VASSAL log reads back to the same findings
    (rule and message, each at the step of its entry) and the same final position; its end saved as a game
    reads back with no error (a game saved after its start does not breach the sequence of play)."""
    # One test per log, so the suite's workers share the examples out. The exporter is the one `adjudicate export`
    # makes (its command line is tested above), with each module's catalogue read once: reading it was most of the
    # time, and the vlog and the vsav come from one replay.
    module = built_module(game_id)
    out, saved = tmp_path / "game.vlog", tmp_path / "end.vsav"
    source, lines = read_log(ROOT / log)
    text = replay_entries(game_of(source, ROOT / log, None), source, ROOT / log, lines)
    exporter = Exporter(text, _catalogue(module), Path(log).name, lines)
    out.write_bytes(exporter.vlog())
    saved.write_bytes(exporter.vsav(None))
    translation = translate_file(out, module_path=module)
    again = replay(text.game, system_for(text.game), translation.entries)
    assert translation.scenario == text.final_state.scenario, log
    # One VASSAL step per entry: a finding of the text log's line L is at the step of the entry of line L.
    step_of = {e.line: k for k, e in enumerate(text.entries, 1)}
    assert sorted((f.severity, f.system, f.rule, f.message, f.line) for f in again.findings) == sorted(
        (f.severity, f.system, f.rule, f.message, step_of.get(f.line, 0)) for f in text.findings), log
    info = read_module(module)
    phase_list = module_phases(text.game, info)[0]
    ours = replayed_position(text.game, text.system.position(again.final_state), phase_list)
    theirs = replayed_position(text.game, text.system.position(text.final_state), phase_list)
    assert ours == theirs, log
    read = translate_file(saved, module_path=module)
    found = replay(text.game, system_for(text.game), read.entries).findings
    assert [f for f in found if f.severity == "error"] == [], (log, found)


PBEM = sorted(p for p in (ROOT / "examples" / "pbem").iterdir() if p.is_dir())
"""The play-by-email games as their exchanges (examples/pbem: the sample game, a changed die, a hidden reroll)."""


@pytest.mark.slow
@pytest.mark.parametrize("folder", PBEM, ids=[p.name for p in PBEM])
def test_every_pbem_exchange_goes_through_vassal_and_back(folder: Path, tmp_path: Path,
                                                         built_module: Callable[[str], Path]) -> None:
    """Issue 26 item 6: a play-by-email game's exchanges, read as one game (its chain), exported as one VASSAL log
    (export takes one log: the exchanges joined in order, which replay as the chain does) read back to the same
    findings (rule and message, at the step of each entry) and final position; and each exchange's end, saved
    as a game, holds the position the chain reaches there."""
    from adjudicator.sources import expand_logs, open_logs
    from adjudicator.vassal.chain import replay_chain
    from adjudicator.vassal.joins import differences
    from wargame.vassal.places import fitted_places

    exchanges = expand_logs((folder,))
    chain = open_logs(tuple(exchanges), None).chain
    assert chain is not None
    played = replay_chain(chain)
    game = played.game
    module = built_module(game.id)
    joined = tmp_path / "joined.log"
    texts = [p.read_text(encoding="utf-8") for p in exchanges]
    joined.write_text("".join(t if t.endswith("\n") else t + "\n" for t in texts), encoding="utf-8")
    text = replayed(joined)
    # The joined log is the chain: the same entries in order, the same findings of each entry.
    assert [replace(e, line=0) for e in text.entries] == [replace(e, line=0) for e in played.entries]
    by_index = {e.line: k for k, e in enumerate(played.entries, 1)}
    text_index = {e.line: k for k, e in enumerate(text.entries, 1)}
    assert sorted((f.severity, f.rule, f.message, text_index.get(f.line, 0)) for f in text.findings) == \
        sorted((f.severity, f.rule, f.message, by_index.get(f.line, 0)) for f in played.findings)
    out = tmp_path / "game.vlog"
    result = export(joined, module, out)
    assert result.exit_code == 0, result.output
    translation = translate_file(out, module_path=module)
    again = replay(game, system_for(game), translation.entries)
    assert sorted((f.severity, f.rule, f.message, f.line) for f in again.findings) == \
        sorted((f.severity, f.rule, f.message, text_index.get(f.line, 0)) for f in text.findings)
    info = read_module(module)
    phase_list = module_phases(game, info)[0]
    assert replayed_position(game, text.system.position(again.final_state), phase_list) == \
        replayed_position(game, text.system.position(text.final_state), phase_list)
    # Each exchange's end as a saved game: the chain's position after that exchange's last entry.
    last = 0
    for path, source in zip(exchanges, texts):
        last += len(source.splitlines())
        index = max(k for k, e in enumerate(text.entries) if e.line <= last)
        saved = tmp_path / f"{path.stem}.vsav"
        assert export(joined, module, saved, "--at", str(last)).exit_code == 0, path
        tracking = track(read_recording(saved))
        places = fitted_places(game, info, tracking.initial.values())
        at_end = vassal_position(game, places, phase_list, tracking.initial, tracking.initial_turns)
        expected = replayed_position(game, text.system.position(text.states[index + 1]), phase_list)
        assert differences(at_end, expected, "the chain") == [], path
