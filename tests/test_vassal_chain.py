"""A game in several logs (issue 8): each VASSAL log's saved position checked against where the one
before it ended, then all of them replayed from the set-up as one game.

The recorded files in tests/data/vassal join up for real: `*-after-moves.vsav` was saved by VASSAL
3.7.26 at the end of the session its `*-session.vlog` recorded. The synthetic chains cut one log
built in VASSAL's formats (test_vassal_reader.Session) into several, each later file's saved
position written from where the one before it ended, as VASSAL writes it when a new log begins.
"""

from __future__ import annotations

import copy
import json
import math
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.vassal import chain as chain_module
from adjudicator.notation.entries import Place, Retreat, RollOff
from adjudicator.vassal.chain import Chain, read_chain
from adjudicator.vassal.joins import Position, differences
from test_vassal_reader import ESC, Session, game
from wargame.vassal.encoding import decode, encode
from wargame.vassal.reader import read_recording
from wargame.vassal.savefile import deobfuscate, obfuscate
from wargame.vassal.tracking import track

DATA = Path(__file__).resolve().parent / "data" / "vassal"
SESSION, SAVED = DATA / "onslaught-session.vlog", DATA / "onslaught-after-moves.vsav"


def run(*args: str | Path) -> tuple[int, str, str]:
    """adjudicate in-process: exit code, stdout, stderr."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def verdict(*args: str | Path) -> tuple[int, dict[str, object]]:
    """`adjudicate check --format json`: exit code and document."""
    code, out, err = run("check", "--format", "json", *args)
    assert code in (0, 1), err
    return code, json.loads(out)


def rewritten(source: Path, path: Path, edit: dict[str, str]) -> Path:
    """A copy of a recorded file with its command text edited (the position changed by hand)."""
    with zipfile.ZipFile(source) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    text = deobfuscate(members["savedGame"]).decode("utf-8")
    for old, new in edit.items():
        assert old in text
        text = text.replace(old, new)
    members["savedGame"] = obfuscate(text)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _nested(chain: Sequence[str]) -> str:
    """A Decorator chain, outermost trait first, as VASSAL nests it with tabs."""
    text = chain[-1]
    for part in reversed(chain[:-1]):
        text = encode([part, text], "\t")
    return text


def saved_after(previous: Path, restore: list[str]) -> list[str]:
    """The saved position a new log begins with: every piece, and the turn tracker, where `previous` ended."""
    tracking = track(read_recording(previous))
    adds = [""]
    for piece in sorted(tracking.final.values(), key=lambda p: p.piece_id):
        basic = decode(piece.traits[-1].state_text, ";")
        basic[:3] = [piece.map_name or "null", str(piece.x), str(piece.y)]
        states = [t.state_text for t in piece.traits[:-1]] + [encode(basic, ";")]
        adds.append("+/" + encode([piece.piece_id, _nested([t.type_text for t in piece.traits]), _nested(states)],
                                  "/"))
    out = [*restore[:2], encode(adds, ESC), *restore[3:]]
    for tracker_id, state in tracking.final_turns.items():
        out = [f"TURN{tracker_id}\t{state}" if p.startswith(f"TURN{tracker_id}\t") else p for p in out]
    return out


def cut(s: Session, before: Sequence[int], folder: Path) -> tuple[Path, list[Path]]:
    """The session as one log, and as logs cut before the given steps, each beginning where the last ended."""
    whole = s.write(folder / "whole.vlog")
    parts: list[Path] = []
    restore = s.restore
    for k, (start, end) in enumerate(zip([0, *before], [*before, len(s.steps)]), 1):
        if parts:
            restore = saved_after(parts[-1], s.restore)
        part = copy.copy(s)
        part.restore, part.steps = restore, s.steps[start:end]
        parts.append(part.write(folder / f"game-{k:02}.vlog"))
    return whole, parts


def combat_across_logs() -> Session:
    """An attack whose defender retreats in the next log, a roll-off and an elimination and its
    replacement across logs, and two breaches (cut before steps 5 and 10)."""
    s = Session()
    for player, text in (("a", "Allied: action combat supply 1"), ("a", "Allied: activate 0620 supply 1"),
                         ("a", "Allied: attack 0621 with us-inf-01 us-inf-02")):
        s.chat(player, text)
    s.roll("a", 5)                        # step 4: the attack's die; the first log ends here
    s.drag("de-inf-04", "0623", "b")      # step 5: the retreat, in the defender's log
    s.chat("a", "Allied: advance us-inf-01 0620-0621")
    s.drag("us-inf-01", "0621")
    s.delete("de-inf-19")                 # step 8: eliminated (Ctrl+D)
    s.roll("a", 3)                        # step 9: the Allied die of a roll-off; the second log ends here
    s.roll("b", 5)                        # step 10: the German die
    s.drag("de-inf-22", "2707", "b")      # a move without an action (5.2)
    s.flip("de-inf-20", 2)                # a depletion no combat called for (7.2)
    s.add("de-inf-19", "2509", like="de-inf-20")  # back from the palette: a replacement
    s.tracker(1, 1)
    return s


def located(doc: dict[str, object], cuts: Sequence[int] = (),
            names: Sequence[Path] = ()) -> list[tuple[int, int, str, str, str, str]]:
    """Findings as (file index, step, severity, system, rule, message): a chain's as they are, a single
    log's steps (and the `line N` its messages cite) cut as `cuts` into the files `names`."""
    def cut_at(line: int) -> tuple[int, int]:
        k = sum(1 for c in cuts if line > c)
        return k, line - [0, *cuts][k]

    def cited(match: re.Match[str]) -> str:
        k, step = cut_at(int(match.group(1)))
        return f"{names[k]} step {step}"

    out = []
    files = [f["file"] for f in doc["files"]] if "files" in doc else []  # type: ignore[index, union-attr]
    for f in doc["findings"]:  # type: ignore[union-attr]
        k, step = (files.index(f["file"]), f["line"]) if files else cut_at(f["line"])
        message = f["message"] if files or not names else re.sub(r"\bline (\d+)\b", cited, f["message"])
        out.append((k, step, f["severity"], f["system"], f["rule"], message))
    return out


def uncited(findings: list[tuple[int, int, str, str, str, str]]) -> list[tuple[str, str, str]]:
    """Severity, rule and message without the entries it cites, in order."""
    return sorted((f[2], f[4], re.sub(r" \((?:line \d+|\S+ step \d+)\)", "", f[5])) for f in findings)


# -- the recorded files -----------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["onslaught", "omaha"])
def test_recorded_save_continues_its_session(game_id: str) -> None:
    """The save VASSAL wrote at the end of a session begins exactly where the session's log ended:
    no difference, and the chain's verdict is the session's own, every finding naming the session."""
    session, saved = DATA / f"{game_id}-session.vlog", DATA / f"{game_id}-after-moves.vsav"
    code_one, one = verdict(session)
    code_two, two = verdict(session, saved)
    assert code_one == code_two == 1
    assert not any(f["rule"] == "chain" for f in two["findings"])  # type: ignore[union-attr, index]
    assert located(two) == located(one) and {f["file"] for f in two["findings"]} == {str(session)}  # type: ignore
    assert [f["kind"] for f in two["files"]] == ["vassal", "vassal"]  # type: ignore[index, union-attr]
    assert two["final_state"] == one["final_state"]


def test_a_saved_position_changed_between_logs_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """de-inf-21 put back on 2707 and the turn tracker moved on in the save that begins the next log:
    an error for each (at most MAX_DIFFERENCES, then how many more), citing the file and the unit,
    in text, JSON and Markdown; exit 1."""
    moved = moved_by_hand(SAVED, tmp_path / "moved.vsav", "onslaught", "de-inf-21", "2707")
    changed = rewritten(moved, tmp_path / "game-02.vsav", {"TURNTurnTracker0\t0|2;": "TURNTurnTracker0\t0|3;"})
    code, out, _ = run("check", SESSION, changed)
    assert code == 1
    lines = out.splitlines()
    assert f"{changed}: saved position: error [vassal chain]: de-inf-21 is at 2707 (reduced), {SESSION} ended with " \
           "it at 2708 (reduced)" in lines
    assert f"{changed}: saved position: error [vassal chain]: the turn tracker is at turn 3, Action Step; {SESSION} " \
           "ended at turn 2, Action Step" in lines
    assert any(line.startswith(f"{changed}: saved position: reader's note: the saved position is not where {SESSION} "
                               "ended (2 difference(s))") for line in lines)
    _, doc = verdict(SESSION, changed)
    chain = [f for f in doc["findings"] if f["rule"] == "chain"]  # type: ignore[union-attr, index]
    assert [(f["file"], f["line"], f["severity"], f["system"]) for f in chain] == [(str(changed), 0, "error",
                                                                                    "vassal")] * 2
    monkeypatch.setattr(chain_module, "MAX_DIFFERENCES", 1)
    code, out, _ = run(SESSION, changed)  # `adjudicate LOG LOG` is `adjudicate check LOG LOG`
    assert code == 1 and f"{changed}: saved position: error [vassal chain]: ... and 1 more difference(s)" in out
    assert "the turn tracker is at turn 3" not in out
    monkeypatch.undo()
    code, out, _ = run("check", "--format", "markdown", SESSION, changed)
    assert "| file | step | severity | rule | finding |" in out
    assert f"| `{changed}` | saved position | error | vassal chain | de-inf-21 is at 2707" in out


def test_every_kind_of_difference_is_said() -> None:
    """A unit moved, reduced, brought into or out of play; markers moved; the turn tracker."""
    before = Position({"a": ("0101", False), "b": ("0202", False), "c": ("0303", True)}, {"m": ("x@1",)}, (1, "One"))
    now = Position({"a": ("0102", False), "b": ("0202", True), "d": ("0404", False)}, {"m": ("x@2", "x@3")},
                   (1, "Two"))
    assert differences(now, before, "g1 ended") == [
        "a is at 0102, g1 ended with it at 0101", "b is at 0202 (reduced), g1 ended with it at 0202",
        "c is out of play, g1 ended with it at 0303 (reduced)", "d is at 0404, g1 ended with it out of play",
        "markers m are at x@2, x@3, g1 ended with them at x@1",
        "the turn tracker is at turn 1, Two; g1 ended at turn 1, One"]
    assert differences(Position(now.units, None, None), Position(now.units, {"m": ("x@1",)}, (2, "One")), "x") == []


# -- synthetic chains ---------------------------------------------------------------------------
def test_a_consistent_chain_replays_as_one_long_log(tmp_path: Path) -> None:
    """Cut into three logs, the game gives the same findings as in one log, each in its file at its
    step: the attack declared in the first log makes the defender's drag in the second its retreat,
    the Allied die at the end of the second and the German one in the third a roll-off, and the
    unit eliminated in the second and brought back in the third a replacement."""
    s = combat_across_logs()
    whole, parts = cut(s, [4, 9], tmp_path)
    code_one, one = verdict(whole)
    code_chain, chained = verdict(*parts)
    assert code_one == code_chain == 1
    assert located(chained) == located(one, cuts=[4, 9], names=parts)
    assert {(f[0], f[4]) for f in located(chained) if f[2] == "error"} >= {(2, "5.2"), (2, "7.2")}
    assert not any(f[4] == "chain" for f in located(chained))
    chain = read_chain(parts, lambda p: pytest.fail("no text log"))
    assert [type(e).__name__ for e in chain.parts[1].entries if isinstance(e, Retreat)] == ["Retreat"]
    assert [e.rolls for e in chain.parts[2].entries if isinstance(e, RollOff)] == [{"Allied": 3, "German": 5}]
    assert [(e.how, e.unit) for e in chain.parts[2].entries if isinstance(e, Place)] == [("replace", "de-inf-19")]
    assert chained["final_state"] == one["final_state"]


def test_a_clean_chain_exits_0(tmp_path: Path) -> None:
    """Declarations and drags across two logs that break no rule: exit 0, no finding."""
    s = Session()
    for text in ("Allied: action movement supply 2", "Allied: activate 0620 supply 1"):
        s.chat("a", text)
    s.drag("us-inf-01", "0520")
    s.chat("a", "us-inf-02 0620-0520-0420")
    s.drag("us-inf-02", "0420")
    _, parts = cut(s, [3], tmp_path)
    code, out, _ = run("check", *parts)
    assert code == 0, out
    assert out.splitlines()[-1].endswith("from 2 logs (5 VASSAL step(s)): 0 error(s), 0 warning(s), 0 note(s)")


def test_logs_out_of_order_or_given_twice(tmp_path: Path) -> None:
    """Out of order: the order in which they follow each other; a file twice, by name or by content: exit 2."""
    _, parts = cut(combat_across_logs(), [4, 9], tmp_path)
    code, out, err = run("check", parts[0], parts[2], parts[1])
    err = out + err  # the verdict document on stdout, a data error on stderr
    assert code == 2 and "Traceback" not in err
    assert f"the logs are out of order: {parts[2]} does not begin where {parts[0]}, the log before it, ended, but " \
           f"where {parts[1]} ended; in the order {parts[0]} {parts[1]} {parts[2]} each log" in err
    code, out, err = run("check", parts[1], parts[0], parts[2])
    err = out + err  # the verdict document on stdout, a data error on stderr
    assert code == 2 and f"in the order {parts[0]} {parts[1]} {parts[2]}" in err
    code, out, err = run("check", parts[0], parts[1], parts[1])
    err = out + err  # the verdict document on stdout, a data error on stderr
    assert code == 2 and f"{parts[1]} is given twice (as log 2 and log 3 of the chain)" in err
    copy_of = tmp_path / "copy.vlog"
    copy_of.write_bytes(parts[0].read_bytes())
    code, out, err = run("check", parts[0], copy_of)
    err = out + err  # the verdict document on stdout, a data error on stderr
    assert code == 2 and f"{copy_of} and {parts[0]} are the same file" in err


def test_a_log_missing_from_the_chain(tmp_path: Path) -> None:
    """The middle log left out: the third's saved position matches no end; findings and a note say so."""
    _, parts = cut(combat_across_logs(), [4, 9], tmp_path)
    code, out, _ = run("check", parts[0], parts[2])
    assert code == 1
    assert f"{parts[2]}: saved position: error [vassal chain]: de-inf-04 is at 0623, {parts[0]} ended with it at 0621" \
        in out.splitlines()
    assert "nor where any other file given ended: a log missing between them" in out


def test_other_games_and_text_logs_after_vassal_ones(tmp_path: Path) -> None:
    """A log of another game, or a text log that does not continue the VASSAL log before it: exit 2."""
    code, out, err = run("check", SESSION, DATA / "omaha-session.vlog")
    err = out + err  # the verdict document on stdout, a data error on stderr
    assert code == 2 and "a log of omaha, but" in err and "all the logs of a chain are of one game" in err
    text = tmp_path / "session.log"
    assert run("convert", SESSION, "-o", text)[0] == 0
    code, out, err = run("check", SESSION, text)
    err = out + err  # the verdict document on stdout, a data error on stderr
    # The session converted sets the game up again after the session ended on turn 2: not its continuation.
    assert code == 2 and f"{text} does not continue {SESSION}" in err, err


def test_a_text_exchange_continues_a_vassal_log(tmp_path: Path) -> None:
    """A reply by e-mail in the notation after a VASSAL log goes on from where the log ended; its findings
    name its own file and line."""
    reply = tmp_path / "reply.log"
    reply.write_text("# the reply, by e-mail\nGerman: pass\n", encoding="utf-8")
    code, out, _ = run("check", SESSION, reply)
    assert code == 1
    # The VASSAL log ended in the Allied action (turn 2): the sequence of play goes on in the text log.
    assert f"{reply}:2:1: error [onslaught 5.0]: turn 2, Action Step: Allied takes this action, not German" in out
    assert "from 2 logs" in out


# -- a text log first ---------------------------------------------------------------------------
def moved_by_hand(source: Path, path: Path, game_id: str, unit: str, label: str) -> Path:
    """A copy of a recorded file with a counter (alone on its hex) put on another hex's centre."""
    piece = next(p for p in track(read_recording(source)).initial.values() if p.properties.get("UnitId") == unit)
    g = game(game_id)
    x, y = g.layout.centre(g.grid.hex_of(label))
    return rewritten(source, path, {f"Main Map;{piece.x};{piece.y};": f"Main Map;{math.floor(x)};{math.floor(y)};"})


@pytest.mark.parametrize("game_id, unit, at, to", [("onslaught", "de-inf-21", "2708", "2707"),
                                                   ("omaha", "2Rgr", "2019", "2020")])
def test_a_text_log_then_vassal_logs(tmp_path: Path, game_id: str, unit: str, at: str, to: str) -> None:
    """The first log converted to the notation, then the save that continues it: the save is compared
    with the text log's replayed position (units and turn: an unchanged save joins cleanly, a moved
    unit is an error), and the text log's findings are cited by its line with a caret."""
    session, saved = DATA / f"{game_id}-session.vlog", DATA / f"{game_id}-after-moves.vsav"
    text = tmp_path / "session.log"
    assert run("convert", session, "-o", text)[0] == 0
    code, out, _ = run("check", text, saved)
    assert code == 1 and "vassal chain" not in out and "reader's note" not in out
    first = out.splitlines()[0]
    assert first.startswith(f"{text}:") and " error [" in first
    assert out.splitlines()[2].strip() == "^"
    changed = moved_by_hand(saved, tmp_path / "game-02.vsav", game_id, unit, to)
    code, out, _ = run("check", text, changed)
    assert code == 1
    assert f"{changed}: saved position: error [vassal chain]: {unit} is at {to} (reduced), the replay of {text} " \
           f"ended with it at {at} (reduced)" in out.splitlines()
    assert "markers are not compared" in out


# -- convert and state ---------------------------------------------------------------------------
def test_convert_a_chain_into_one_log(tmp_path: Path) -> None:
    """Several logs into one text log (and its JSON twin) that checks as the chain does, without the
    joins, which it keeps as comments."""
    _, parts = cut(combat_across_logs(), [4, 9], tmp_path)
    changed = rewritten(parts[1], tmp_path / "changed.vlog", {"TURNTurnTracker0\t0|1;": "TURNTurnTracker0\t0|2;"})
    out = tmp_path / "game.log"
    code, stdout, _ = run("convert", parts[0], changed, parts[2], "-o", out)
    assert code == 0 and stdout.strip() == str(out)
    text = out.read_text(encoding="utf-8")
    assert f"# {changed}: saved position: error [vassal chain]: the turn tracker is at turn 2, Action Step; " \
           f"{parts[0]} ended at turn 1, Action Step\n" in text
    assert "German> retreat de-inf-04" in text and "Roll Allied 3 German 5" in text
    assert f"# reader's note ({changed} step 0): the saved position is not where" in text
    consistent = tmp_path / "consistent.log"
    assert run("convert", *parts, "-o", consistent)[0] == 0
    _, chained = verdict(*parts)
    _, converted = verdict(consistent)
    assert uncited(located(converted)) == uncited(located(chained))
    as_json = tmp_path / "game.json"
    assert run("convert", *parts, "-o", as_json)[0] == 0
    assert run("check", as_json)[0] == 1
    assert run("convert", *parts, "-o", parts[1])[0] == 2


def test_state_of_a_chain(tmp_path: Path) -> None:
    """`state A B --at B:STEP` is the position in B (by name, path or place); a bare number is refused."""
    code, out, _ = run("state", SESSION, SAVED, "--json")
    assert code == 0 and json.loads(out)["turn"] == 2
    _, at_start, _ = run("state", SESSION, SAVED, "--json", "--at", "1:0")
    _, after_move, _ = run("state", SESSION, SAVED, "--json", "--at", f"{SESSION.name}:1")
    assert "de-inf-21" in json.loads(at_start)["positions"]["2707"]
    assert "de-inf-21" in json.loads(after_move)["positions"]["2708"]
    assert json.loads(run("state", SESSION, SAVED, "--json", "--at", "2:0")[1])["turn"] == 2
    code, _, err = run("state", SESSION, SAVED, "--at", "5")
    assert code == 2 and "--at LOG:LINE" in err
    code, _, err = run("state", SESSION, SAVED, "--at", "onslaught-after-moves.vsa:0")
    assert code == 2 and "did you mean 'onslaught-after-moves.vsav'" in err
    code, _, err = run("state", SESSION, "--at", "x")
    assert code == 2 and "is not a line or step number" in err


def test_chain_lines_name_their_file() -> None:
    """Every line of the chain is cited by file and step, and a message's `line N` too."""
    chain: Chain = read_chain([SESSION, SAVED], lambda p: pytest.fail("no text log"))
    second = chain.parts[1]
    assert chain.locate(second.base) == (second, 0) and chain.locate(3) == (chain.parts[0], 3)
    assert chain.cited(f"the attack on 0621 (line {second.base})") == f"the attack on 0621 ({SAVED} saved position)"
    assert chain.cited("line 2 and line 9") == f"{SESSION} step 2 and {SESSION} step 9"


# -- an unknown id in a text log of a chain ------------------------------------------------------------
def exchanges_with_a_typo(tmp_path: Path) -> list[Path]:
    """The sample game's four text exchanges (unsealed), the second with a unit id mistyped on its line 24."""
    logs = []
    for source in sorted((Path(__file__).resolve().parent.parent / "examples/pbem/game").glob("*.log")):
        copy_of = tmp_path / source.name
        text = source.read_text(encoding="utf-8")
        if source.name.startswith("02-"):
            assert "\nus-inf-03 0620-0621\n" in text
            text = text.replace("\nus-inf-03 0620-0621\n", "\nus-inf-3 0620-0621\n")
        copy_of.write_text(text, encoding="utf-8")
        logs.append(copy_of)
    return logs


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_an_unknown_id_in_a_text_log_stops_the_chain_at_its_line(tmp_path: Path, fmt: str) -> None:
    """Issue 15 item 4 in a chain: everything before the unknown id (the first exchange and the second's first
    23 lines) is adjudicated and reported, the stop names its file, line and a did-you-mean, the logs after it
    are said not read, and every format prints its whole document on stdout (exit 2)."""
    logs = exchanges_with_a_typo(tmp_path)
    second = str(logs[1])
    code, out, _ = run("check", "--format", fmt, *logs)
    assert code == 2
    said = "unknown unit 'us-inf-3' (did you mean 'us-inf-03'"
    if fmt == "json":
        doc = json.loads(out)
        summary = doc["summary"]
        assert summary["stopped_in"] == second and summary["stopped_line"] == 24
        assert said in summary["stopped"] and str(logs[2]) in summary["stopped"]
        ids = [f for f in doc["findings"] if f["rule"] == "ids"]
        assert [(f["file"], f["line"], f["column"]) for f in ids] == [(second, 24, 1)]
        # The first exchange's 65 plays and the second's up to the typo (comments and headers are not counted).
        assert summary["entries_checked"] > 80 and [f["file"] for f in doc["files"]] == [str(logs[0]), second]
        # The replay reached the second exchange: its position is turn 2's, not the set-up.
        assert doc["final_state"]["turn"] == 2
    elif fmt == "markdown":
        assert out.startswith("### Umpire verdict: 2 logs") and f"| `{second}` | line 24 | error | notation ids |" in out
        assert f"Replay stopped in `{second}`" in out and said in out
    else:
        assert out.startswith(f"{second}:24:1: error [notation ids]: {said}")
        assert f"{second}: replay stopped: {second}:24:1: {said}" in out
        assert "the logs after it were not read" in out and re.search(r"\.log: 8\d of \d\d entries checked", out, re.M)


def test_an_unknown_id_in_a_text_log_after_a_vassal_log_after_a_text_log(tmp_path: Path) -> None:
    """The replay that goes on through a VASSAL log after a text log reads the text logs after it as they come: a
    mistyped hex in one is cited at its word, with a caret under it."""
    text = tmp_path / "01.log"
    assert run("convert", SESSION, "-o", text)[0] == 0
    reply = tmp_path / "03.log"
    reply.write_text("Allied: action movement supply 1\nAllied: activate 0720 supply 1\nbr-inf-01 0720-0721-0x22\n",
                     encoding="utf-8")
    code, out, _ = run("check", text, SAVED, reply)
    assert code == 2
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith(f"{reply}:3:"))
    assert lines[at].startswith(f"{reply}:3:21: error [notation ids]: '0x22' is not a hex label of this map")
    assert lines[at + 1:at + 3] == ["    br-inf-01 0720-0721-0x22", " " * 24 + "^"]
