"""`adjudicate`: check, formats, convert, schema, state, and exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main, read_log

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "onslaught"


def run(*args: str) -> tuple[int, str, str]:
    """adjudicate in-process: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_text_report_is_gcc_style_with_caret() -> None:
    """file:line:col: error [system rule]: message, then the source line and a caret."""
    code, out, _ = run("check", str(EXAMPLES / "breach-zoc.log"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("breach-zoc.log:7:1: error [onslaught 6.2]: br-inf-02 starts in an enemy zone of "
                             "control at 0820 and moves directly into another at 0721")
    assert lines[1] == "    br-inf-02 0820-0721  # expect: error 6.2" and lines[2] == "    ^"


def test_json_report_shape() -> None:
    """findings with severity, system, rule, line, column, message; summary; final state."""
    code, out, _ = run("check", "--format", "json", str(EXAMPLES / "breach-allowance.log"))
    assert code == 1
    doc = json.loads(out)
    assert {"findings", "summary", "final_state"} <= set(doc)
    error = next(f for f in doc["findings"] if f["severity"] == "error")
    basis = error.pop("basis")
    assert error == {"severity": "error", "system": "onslaught", "rule": "6.1", "section": "6.0", "line": 9,
                     "column": 1, "message": "de-inf-24 enters 5 hexes with a movement allowance of 4"}
    # The allowance overspent rests on the unit's movement allowance and the terrain entered (tests/test_verdict_basis.py).
    assert all(set(b) == {"file", "key", "source", "reconstructed"} for b in basis)
    assert {"file": "counters/onslaught/units.csv", "key": "de-inf-24 full.movement", "source": "8.4",
            "reconstructed": False} in basis
    assert doc["summary"]["errors"] == 1 and doc["final_state"]["positions"]["3206"] == ["de-inf-24"]


def test_markdown_report() -> None:
    """A table for forum posts."""
    code, out, _ = run("check", "--format", "markdown", str(EXAMPLES / "breach-zoc.log"))
    assert code == 1 and "| 7 | error | onslaught 6.2 |" in out


def test_log_as_first_argument_means_check() -> None:
    """`adjudicate LOG` checks the log."""
    assert run(str(EXAMPLES / "legal-turn1.log"))[0] == 0


def test_syntax_errors_exit_2_with_every_error(tmp_path: Path) -> None:
    """All syntax errors at once, with carets; nothing adjudicated; exit 2."""
    log = tmp_path / "bad.log"
    log.write_text('[Game "onslaught"]\nTurn x\nAllied: atack 0620\n', encoding="utf-8")
    code, err, _ = run("check", str(log))
    assert code == 2
    assert "bad.log:2:6: error [notation syntax]: expected a turn number, found 'x'" in err
    assert "bad.log:3:9: error [notation syntax]: unknown command 'atack' (did you mean 'attack'?)" in err
    assert "    Turn x\n         ^" in err


def test_unknown_unit_and_hex_suggest(tmp_path: Path) -> None:
    """Unit ids and hex labels are resolved against the game with suggestions, at the word's column;
    the replay stops at that line (exit 2) after adjudicating every line before it."""
    log = tmp_path / "ids.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nus-inf-1 0620-0720\nus-inf-01 0620-0799\n', encoding="utf-8")
    code, err, _ = run("check", str(log))
    assert code == 2
    assert "unknown unit 'us-inf-1' (did you mean" in err and "'us-inf-01'" in err
    assert "1 of 3 entries checked" in err and "0799" not in err.split("replay stopped")[0]
    log.write_text('[Game "onslaught"]\nTurn 1\nus-inf-01 0620-0799\n', encoding="utf-8")
    code, err, _ = run("check", str(log))
    assert code == 2 and "ids.log:3:16: error [notation ids]: hex 0799" in err


def test_a_marker_written_where_a_unit_belongs_is_said_to_be_a_marker(tmp_path: Path) -> None:
    """A support fire marker's id where a unit belongs (a move, an attacker, a loss) is named as a marker, not
    answered with the unit ids closest to it."""
    opening = (Path(__file__).parent.parent / "examples" / "omaha" / "legal-combat.log").read_text(encoding="utf-8")
    opening = "".join(opening.splitlines(keepends=True)[:34])
    log = tmp_path / "marker.log"
    for line in ("us_air_8 2319-2318", "Allied: attack 2117 with us_air_8 result -", "German: deplete de_sf_8"):
        log.write_text(opening + line + "\n", encoding="utf-8")
        code, out, _ = run("check", str(log))
        marker = "us_air_8" if "us_air_8" in line else "de_sf_8"
        assert code == 2 and f"unknown unit '{marker}': that is a marker (" in out and "did you mean" not in out, out
        assert "not a unit; a log names markers only after 'support', 'draw', 'aside' or 'lose'" in out
    # And a unit's id where a marker belongs is said to be a unit.
    for line in ("Allied: bombard 2117 die 1 result - support 16/1", "Allied: draw 16/1"):
        gt2 = (Path(__file__).parent.parent / "examples" / "omaha" / "legal-combat.log").read_text(encoding="utf-8")
        log.write_text("".join(gt2.splitlines(keepends=True)[:49]) + line + "\n", encoding="utf-8")  # GT 2's bombardment
        code, out, _ = run("check", str(log))
        assert "'16/1' is a unit, not a support fire marker; name a marker by its id here (7.2)" in out, out


def test_an_unknown_id_points_at_its_word(tmp_path: Path) -> None:
    """The caret of an unknown id is under the word, not at column 1."""
    log = tmp_path / "ids.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: action combat supply 1\n'
                   "Allied: activate 0620 us-inf-01 us-inf-99 supply 1\n", encoding="utf-8")
    code, out, _ = run("check", str(log))
    assert code == 2 and "ids.log:5:33: error [notation ids]: unknown unit 'us-inf-99'" in out
    assert "\n    Allied: activate 0620 us-inf-01 us-inf-99 supply 1\n" + " " * 36 + "^\n" in out


def test_a_mistyped_hex_suggests_a_hex_near_the_path(tmp_path: Path) -> None:
    """`9922` beside 0921 suggests 0922 (a keystroke away, next to the path), not the map's corner 5022."""
    log = tmp_path / "typo.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nbr-para-01 0921-9922\n', encoding="utf-8")
    code, out, _ = run("check", str(log))
    assert code == 2 and "did you mean '0922'?" in out and "5022" not in out


def test_every_format_prints_its_document_when_the_replay_stops(tmp_path: Path) -> None:
    """A stop (syntax error, unknown id, no game) still gives the full JSON / Markdown verdict on stdout,
    with summary.stopped set, the lines before adjudicated; exit 2."""
    log = tmp_path / "stop.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep german_reserve\nus-inf-01 0620-0720 flies\nTurn 2\n',
                   encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 2 and doc["summary"]["stopped"] and doc["summary"]["stopped_line"] == 4
    assert [(f["system"], f["rule"], f["line"]) for f in doc["findings"]] == [("onslaught", "4.0", 3),
                                                                              ("notation", "syntax", 4)]
    assert doc["final_state"]["turn"] == 1
    code, out, _ = run("check", "--format", "markdown", str(log))
    assert code == 2 and "| 4 | error | notation syntax |" in out and "Replay stopped" in out
    log.write_text("Turn 1\n", encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 2 and doc["final_state"] is None and "names no game" in doc["findings"][0]["message"]
    assert doc["summary"]["stopped"]


def test_a_move_or_retreat_off_the_map_is_a_rule_finding(tmp_path: Path) -> None:
    """A hex label of the map's format just beyond the edge, in a move, is a rule finding (Onslaught: no rule
    allows it, 6.1) and the replay goes on (exit 1)."""
    log = tmp_path / "edge.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nRoll Allied 1 German 6\n'
                   "German: action movement supply 1\nGerman: activate 3201 supply 1\nde-inf-24 3201-3200\n",
                   encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 1 and doc["summary"]["stopped"] is None
    assert [(f["rule"], f["line"]) for f in doc["findings"]] == [("6.1", 8)]
    assert "leaves the map at 3200" in doc["findings"][0]["message"]
    assert "3201" in doc["final_state"]["positions"]

@pytest.mark.parametrize(("path", "said"), [
    ("3201-3202-eliminated_german", "leaves the map at eliminated_german"),
    ("3201-eliminated_german", "leaves the map at eliminated_german"),
    ("eliminated_german-3202", "is in 3201, not eliminated_german"),
    ("eliminated_german-paratroop", "is in 3201, not eliminated_german"),
])
def test_a_box_in_a_move_s_path_is_a_rule_finding(tmp_path: Path, path: str, said: str) -> None:
    """A box of the game (an id the resolver knows, no hex) in a move's path: one finding at its line, the replay
    going on, the division kept to the hexes of the path on the map (it had stopped the check with exit 2, no line
    and "0 entries checked")."""
    log = tmp_path / "box.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nRoll Allied 1 German 6\n'
                   f"German: action movement supply 1\nGerman: activate 3201 supply 1\nde-inf-24 {path}\n"
                   "Roll Allied 1 German 1\n", encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 1 and doc["summary"]["stopped"] is None and doc["summary"]["entries_checked"] == 8
    assert [(f["rule"], f["line"]) for f in doc["findings"] if f["severity"] == "error"] == [("6.1", 8)]
    assert said in doc["findings"][0]["message"]


def test_missing_or_unknown_game(tmp_path: Path) -> None:
    """A log must name a bundled game."""
    log = tmp_path / "nogame.log"
    log.write_text("Turn 1\n", encoding="utf-8")
    assert "names no game" in run("check", str(log))[1]
    log.write_text('[Game "onslaugt"]\n', encoding="utf-8")
    code, err, _ = run("check", str(log))
    assert code == 2 and "did you mean 'onslaught'" in err


def test_convert_round_trip(tmp_path: Path) -> None:
    """text -> JSON -> text keeps every entry; the JSON validates against the printed schema."""
    source = EXAMPLES / "legal-turn1.log"
    as_json = tmp_path / "game.json"
    back = tmp_path / "game.log"
    assert run("convert", str(source), "-o", str(as_json))[0] == 0
    assert run("convert", str(as_json), "-o", str(back))[0] == 0
    def bare(path: Path) -> list[dict[str, object]]:
        from adjudicator.notation.entries import entry_data
        entries = read_log(path)[0]
        return [{k: v for k, v in entry_data(e).items() if k not in ("line", "column")} for e in entries]

    assert bare(back) == bare(source) == bare(as_json)
    code, out, _ = run("schema")
    assert code == 0 and json.loads(out)["title"] == "LogDocument"
    first, second = run("check", str(source)), run("check", str(as_json))
    assert first[0] == second[0] == 0


def test_a_json_log_s_findings_point_into_what_the_user_has(tmp_path: Path) -> None:
    """A twin's finding quotes its entry in the text notation (its line is the text log's), never the JSON file's line
    of that number; a hand-written log without lines is placed at each entry's object in the JSON file, so findings,
    `--at` and `combat --line` name its lines, and nothing of the JSON is quoted as if it were an entry."""
    source = Path(__file__).resolve().parent.parent / "examples" / "moscow" / "breach-zoc.log"
    twin = tmp_path / "twin.json"
    assert run("convert", str(source), "-o", str(twin))[0] == 0
    code, out, _ = run("check", str(twin))
    assert code == 1 and f"{twin}:9:1: error [moscow 5.0]" in out
    assert "    ge-ix 0305-0404-0403\n    ^" in out and "by_opponent" not in out
    document = json.loads(twin.read_text(encoding="utf-8"))
    for entry in document["entries"]:
        del entry["line"], entry["column"]
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(document, indent=2), encoding="utf-8")
    written = hand.read_text(encoding="utf-8").splitlines()
    move = next(n for n, line in enumerate(written, 1) if '"kind": "move"' in line)
    opening = max(n for n in range(1, move) if written[n - 1].strip() == "{")
    code, out, _ = run("check", str(hand))
    assert code == 1 and f"{hand}:{opening}:5: error [moscow 5.0]" in out and "    {" not in out
    code, at_move, _ = run("state", str(hand), "--at", str(opening))
    code_before, before_move, _ = run("state", str(hand), "--at", str(opening - 1))
    assert code == code_before == 0 and at_move != before_move and "0403" in at_move
    one_line = tmp_path / "one-line.json"
    one_line.write_text(json.dumps(document), encoding="utf-8")
    code, out, _ = run("check", str(one_line))
    column = one_line.read_text(encoding="utf-8").index('{"side": null, "by_opponent": false, "kind": "move"') + 1
    assert code == 1 and f"{one_line}:1:{column}: error [moscow 5.0]" in out and '"entries"' not in out


def test_convert_refuses_to_overwrite_its_input() -> None:
    """Nothing the user gave is ever overwritten."""
    source = EXAMPLES / "legal-turn1.log"
    code, _, err = run("convert", str(source), "-o", str(source))
    assert code == 2 and "overwrite" in err


def test_state_at_a_line() -> None:
    """state --at LINE shows the position after that line."""
    code, out, _ = run("state", str(EXAMPLES / "legal-turn1.log"), "--at", "10", "--json")
    assert code == 0
    doc = json.loads(out)
    assert "us-inf-01" in doc["positions"]["0520"] and doc["supply"]["Allied"] == 11


def test_state_at_a_line_past_the_end_is_refused() -> None:
    """state --at past the log's last line is an error naming the log's length (exit 2), not the end's
    position shown as if it were the line's; the last line itself is accepted."""
    log = EXAMPLES / "legal-turn1.log"
    lines = len(log.read_text(encoding="utf-8").splitlines())
    code, _, err = run("state", str(log), "--at", str(lines + 5))
    assert code == 2 and f"--at {lines + 5}" in err and f"has {lines} line(s)" in err and "Traceback" not in err
    assert run("state", str(log), "--at", str(lines))[0] == 0
    code, _, err = run("state", str(log), "--at", "other.log:3")
    assert code == 2 and "no log 'other.log'" in err


def test_placement_hexes_are_resolved(tmp_path: Path) -> None:
    """A placement naming a hex off the map stops with a suggestion (exit 2)."""
    log = tmp_path / "place.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nGerman: pass\nStep german_reserve\n'
                   "Step reinforcement\nAllied: reinforce us-inf-03 9999\n", encoding="utf-8")
    code, err, _ = run("check", str(log))
    assert code == 2 and "hex 9999" in err and "did you mean '5030'" in err


def test_delayed_arrival_goes_to_the_delayed_box(tmp_path: Path) -> None:
    """`delay UNIT` puts the unit in its side's Delayed Reinforcements box (10.3)."""
    log = tmp_path / "delay.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: pass\nGerman: pass\nStep german_reserve\n'
                   "Step reinforcement\nAllied: delay us-inf-08\n", encoding="utf-8")
    code, out, _ = run("state", str(log), "--json")
    assert code == 0 and json.loads(out)["positions"]["delayed_allied"] == ["us-inf-08"]


def test_attack_from_afar_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    """An attacker that is not adjacent is reported (7.0) and the replay goes on (exit 1)."""
    log = tmp_path / "far.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nAllied: action combat supply 1\n'
                   "Allied: activate 0620 supply 1\nAllied: attack 0821 with us-inf-01 die 3\n", encoding="utf-8")
    code, out, err = run("check", str(log))
    assert code == 1 and "is not adjacent to 0821" in out and "Traceback" not in err


def test_vassal_files_and_bytes_are_handled_cleanly(tmp_path: Path) -> None:
    """A VASSAL log recorded in real VASSAL is read and refereed; a zip that is no VASSAL log, a
    broken .vlog and a file that is not UTF-8 give a clear error, exit 2, never a traceback."""
    import zipfile

    vlog = Path(__file__).resolve().parent / "data" / "vassal" / "onslaught-session.vlog"
    code, out, err = run("check", str(vlog))
    assert code == 1 and "VASSAL step" in out and "Traceback" not in err
    archive = tmp_path / "archive.log"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("hello.txt", "hi")
    code, err, _ = run("check", str(archive))
    assert code == 2 and "zip archive" in err and "Traceback" not in err
    broken = tmp_path / "broken.vlog"
    broken.write_bytes(b"PK\x03\x04junk")
    code, err, _ = run("check", str(broken))
    assert code == 2 and "not a readable zip archive" in err and "Traceback" not in err
    text = tmp_path / "text.vlog"
    text.write_text('[Game "onslaught"]\nTurn 1\n', encoding="utf-8")
    code, err, _ = run("check", str(text))
    assert code == 2 and "VASSAL writes those as zip archives" in err and "belongs in a .log file" in err
    noise = tmp_path / "noise.vsav"
    noise.write_bytes(b"\x00\x01\xfe" * 50)
    code, err, _ = run("check", str(noise))
    assert code == 2 and "VASSAL writes those as zip archives" in err and "belongs in" not in err
    binary = tmp_path / "bad.log"
    binary.write_bytes(b'[Game "onslaught"]\nTurn 1\n  \xff\n')
    code, err, _ = run("check", str(binary))
    assert code == 2 and "bad.log:3:3: error [notation syntax]: not UTF-8 text" in err


def test_a_fire_and_movement_unit_leaving_the_map_is_a_5_2_finding(tmp_path: Path) -> None:
    """Omaha: a German unit on the south edge row moved one hex beyond it is a 5.2 f breach (a unit exits the map
    only where the exclusive rules allow it), not an unknown hex; the replay goes on (exit 1)."""
    lines = (EXAMPLES.parent / "omaha" / "breach-retreat-ezoc.log").read_text(encoding="utf-8").splitlines()[:30]
    text = "\n".join(lines).replace("German: setup 352/352 1510", "German: setup 352/352 1530")
    log = tmp_path / "exit.log"
    log.write_text(text + "\n352/352 1530-1531\n", encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(log))
    doc = json.loads(out)
    assert code == 1 and doc["summary"]["stopped"] is None
    assert [(f["system"], f["rule"], f["line"]) for f in doc["findings"]] == [("fire-and-movement", "5.2f", 31)]
    assert "leaves the map at 1531" in doc["findings"][0]["message"]
    assert "352/352" in doc["final_state"]["positions"]["1530"]


def test_a_data_file_that_is_not_utf8_is_a_problem_of_the_data(data_copy: Path, tmp_path: Path) -> None:
    """`check --data D` (adjudicate and umpire, a text log and a VASSAL one) with a byte of units.csv that is not
    UTF-8: the verdict said `error [notation syntax]` at the file, no line, as if the log were at fault. It is one
    problem of the game data, at its line and column, saying what was expected, and nothing else (the rows referring
    to units.csv are not each an unknown unit); exit 2."""
    from test_vassal_reader import Session

    from umpire.cli import main as umpire
    units = data_copy / "counters" / "onslaught" / "units.csv"
    lines = units.read_bytes().split(b"\n")
    lines[8] = lines[8].replace(b",leg,", b",l\xffeg,", 1)
    units.write_bytes(b"\n".join(lines))
    vlog = Session().write(tmp_path / "game.vlog")
    for command in (main, umpire):
        for log in (EXAMPLES / "legal-sample-game.log", vlog):
            result = CliRunner().invoke(command, ["check", str(log), "--data", str(data_copy)])
            assert result.exit_code == 2 and result.stdout == "" and result.stderr.splitlines() == [
                f"{units}:9:52: byte 0xff is not UTF-8 text (invalid start byte): expected a file saved as UTF-8",
                "Error: the game data do not load"], (result.stdout, result.stderr)


def test_a_units_file_whose_header_is_refused_is_its_own_problems_only(data_copy: Path) -> None:
    """A units.csv whose `id` column is misspelt loads no unit: its header's problems are the data's, and the rows of
    the other files naming a unit are not each an unknown unit (one mistake, not a cascade of them)."""
    units = data_copy / "counters" / "onslaught" / "units.csv"
    units.write_text(units.read_text(encoding="utf-8").replace("\nid,", "\nident,", 1), encoding="utf-8")
    code, out, err = run("check", str(EXAMPLES / "legal-sample-game.log"), "--data", str(data_copy))
    assert code == 2 and out == "" and err.splitlines() == [
        f"{units}:6:1: unknown column 'ident' (did you mean 'id'? a required column, not given)",
        "Error: the game data do not load"]
