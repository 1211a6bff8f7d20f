"""Logs that went through an email program or a word processor: curly quotes, en and em dashes and Unicode hyphens
read as the notation's own, one character for one, with one note a log saying so; lines an email reply quotes are
one error a run (docs/log-format.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate
from adjudicator.notation.entries import Comment, Header
from adjudicator.notation.text import parse_line, parse_text
from adjudicator.notation.typography import plain_code, typography_note
from adjudicator.sources import adjudicate_file, open_logs
from adjudicator.vassal.load import translate_file
from test_vassal_reader import Session
from wargame.errors import LogSyntaxError

ROOT = Path(__file__).resolve().parent.parent
COMBAT = ROOT / "examples" / "onslaught" / "legal-combat.log"
BREACH = ROOT / "examples" / "onslaught" / "breach-zoc.log"


def _retyped(text: str) -> str:
    """A log as a word processor may leave it: curly quotes in its header, en dashes in its paths."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("[Game"):
            line = line.replace('"', "\u201c", 1).replace('"', "\u201d", 1)
        elif not line.startswith("#"):
            code, hash_, comment = line.partition("#")
            line = code.replace("-", "\u2013") + hash_ + comment
        out.append(line)
    return "".join(out)


def _findings(path: Path) -> list[tuple[str, str, str, int, int, str]]:
    result, _ = adjudicate_file(path, None)
    return [(f.severity, f.system, f.rule, f.line, f.column, f.message) for f in result.findings]


def test_a_retyped_log_has_the_plain_logs_verdict_and_one_note(tmp_path: Path) -> None:
    """Every finding of the plain log, at the same line and column, and one note more; before, the curly header
    was "the log names no game" and the first en dash a syntax error that stopped the replay."""
    for example in (COMBAT, BREACH):
        retyped = tmp_path / example.name
        retyped.write_text(_retyped(example.read_text(encoding="utf-8")), encoding="utf-8")
        plain, typed = _findings(example), _findings(retyped)
        notes = [f for f in typed if f[2] == "typography"]
        assert [f for f in typed if f[2] != "typography"] == plain
        assert len(notes) == 1 and notes[0][0] == "note", typed
        header = next(n for n, line in enumerate(retyped.read_text(encoding="utf-8").splitlines(), 1)
                      if line.startswith("[Game"))
        assert notes[0][3:5] == (header, 7)
        assert "'\u201c' (left double quote) as '\"'" in notes[0][5] and "'\u2013' (en dash) as '-'" in notes[0][5]


def test_the_command_line_says_it_and_exits_as_for_the_plain_log(tmp_path: Path) -> None:
    """Exit 0 for a clean log read so (a note is no breach), and the note's caret under the first character."""
    retyped = tmp_path / "combat.log"
    retyped.write_text(_retyped(COMBAT.read_text(encoding="utf-8")), encoding="utf-8")
    result = CliRunner().invoke(adjudicate, ["check", str(retyped)])
    assert result.exit_code == 0, result.output
    assert "note [notation typography]: read '\u201c' (left double quote)" in result.output
    verdict = json.loads(CliRunner().invoke(adjudicate, ["check", str(retyped), "--format", "json"]).output)
    assert verdict["summary"]["notes"] == 1 and verdict["summary"]["errors"] == 0


def test_comments_are_kept_as_written_and_say_nothing() -> None:
    """A dash in a comment is the writer's: not read, not noted."""
    text = '[Game "onslaught"]\n# turn 1 \u2013 the landings\nTurn 1   # \u201cD-Day\u201d\n'
    entries = parse_text(text)
    comment = next(e for e in entries if isinstance(e, Comment))
    assert comment.text == "turn 1 \u2013 the landings"
    assert typography_note(text.splitlines()) is None
    assert plain_code('Allied: pass # it\u2019s \u201cover\u201d') == 'Allied: pass # it\u2019s \u201cover\u201d'


def test_a_header_with_plain_quotes_keeps_its_value() -> None:
    """A curly apostrophe inside a plainly quoted header value is part of the value (a player's name)."""
    header = next(e for e in parse_text('[Game "onslaught"]\n[Allied "O\u2019Brien"]\n') if isinstance(e, Header)
                  and e.key == "Allied")
    assert header.value == "O\u2019Brien"
    assert typography_note(['[Allied "O\u2019Brien"]']) is None


def test_columns_stay_where_the_writer_put_them() -> None:
    """One character for one: an error after a retyped dash points at the same column as in the plain line."""
    for line in ("German> retreat de-inf-04 0621\u20130622 sideways", "us\u2010inf\u201002 0620\u20140520 nope"):
        assert len(plain_code(line)) == len(line)
        plain = plain_code(line)
        assert all(a == b or b == "-" for a, b in zip(line, plain))


def test_a_log_retyped_on_every_line_is_one_note_naming_some_lines() -> None:
    """A long log pasted through a word processor: one note, twelve lines named and how many more."""
    lines = ['[Game "onslaught"]'] + [f"us-inf-01 0620\u20130520  # {n}" for n in range(5000)]
    note = typography_note(lines)
    assert note is not None and note.line == 2
    assert note.message.endswith("on line(s) 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 and 4,988 more")


def test_a_chain_notes_the_part_its_lines_are_in(tmp_path: Path) -> None:
    """Of several exchanges, the note is cited in the file whose lines were retyped, at its own line."""
    folder = tmp_path / "game"
    folder.mkdir()
    lines = COMBAT.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if line.startswith("German>"))
    (folder / "01.log").write_text("".join(lines[:cut]), encoding="utf-8")
    (folder / "02.log").write_text(_retyped("".join(lines[cut:])), encoding="utf-8")
    source = open_logs((folder,), None)
    result = source.replay()
    notes = [source.cited(f) for f in result.findings if f.rule == "typography"]
    assert len(notes) == 1 and notes[0].line == 1 and notes[0].column == 19, notes  # de\u2013inf\u201304
    assert source.locate(result.findings[[f.rule for f in result.findings].index("typography")].line)[0] \
        .endswith("02.log")


def test_a_json_twin_is_not_read_so(tmp_path: Path) -> None:
    """The JSON twin is a tool's, read strictly: no character of it is read as another, and no note."""
    twin = tmp_path / "combat.json"
    CliRunner().invoke(adjudicate, ["convert", str(COMBAT), "-o", str(twin)])
    data = json.loads(twin.read_text(encoding="utf-8"))
    data["entries"].insert(0, {"kind": "comment", "text": "turn 1 \u2013 the landings"})
    twin.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert all(f[2] != "typography" for f in _findings(twin))


def test_a_chat_line_read_so_is_a_readers_note(tmp_path: Path) -> None:
    """A declaration typed in VASSAL's chat with an en dash reads, and the reader says what it read."""
    s = Session()
    s.chat("a", "us-inf-02 0620\u20130520")
    translation = translate_file(s.write(tmp_path / "dash.vlog"))
    assert any("'\u2013' (en dash) as '-'" in n.message for n in translation.notes), translation.notes


def _errors(path: Path) -> list[str]:
    result = CliRunner().invoke(adjudicate, ["check", str(path), "--format", "json"])
    return [f"{f['line']}: {f['message']}" for f in json.loads(result.output)["findings"]]


def test_a_log_quoted_by_an_email_reply_is_one_error(tmp_path: Path) -> None:
    """Every line quoted ('> ' from a reply): one error naming the run, not one a line, and not "the log names no
    game" (its header is among the quoted lines); before, that was the only error."""
    quoted = tmp_path / "reply.log"
    quoted.write_text("".join("> " + line if line.strip() else ">\n"
                              for line in COMBAT.read_text(encoding="utf-8").splitlines(keepends=True)),
                      encoding="utf-8")
    errors = _errors(quoted)
    count = len(COMBAT.read_text(encoding="utf-8").splitlines())
    assert errors == [f"1: lines 1-{count} are quoted from an email (starting with '>'): paste the log without the "
                      "reply's quoting, or remove the '>' where a line is this exchange's own"], errors


def test_a_quoted_line_inside_a_log_is_named_alone(tmp_path: Path) -> None:
    """One line quoted in the middle of a log: its own error, the lines before it adjudicated."""
    lines = COMBAT.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if line.startswith("German>"))
    log = tmp_path / "one.log"
    log.write_text("".join(lines[:at] + ["> " + lines[at]] + lines[at + 1:]), encoding="utf-8")
    errors = _errors(log)
    assert errors[0].startswith(f"{at + 1}: line {at + 1} is quoted from an email"), errors


def test_a_log_naming_no_game_with_a_syntax_error_says_both(tmp_path: Path) -> None:
    """A later exchange given alone, with a line that does not read: the line's error and "names no game" (the
    syntax error used to be left out)."""
    log = tmp_path / "later.log"
    log.write_text("# exchange 2\nTurn 1\nStep actoin @@\n", encoding="utf-8")
    errors = _errors(log)
    assert any("unexpected '@@'" in e for e in errors) and any("names no game" in e for e in errors), errors


@pytest.mark.parametrize(("line", "column", "said"), [
    ("Allied : action combat supply 1", 8, "the ':' goes right after the side: write 'Allied: action ...'"),
    ("German >retreat de-inf-04 0621-0622", 8, "the '>' goes right after the side: write 'German> retreat ...'"),
    ("Allied:action combat supply 1", 8, "a space after the side: write 'Allied: action ...'"),
])
def test_a_side_spaced_wrongly_is_told_how_to_write_it(line: str, column: int, said: str) -> None:
    """A side's ':' or '>' apart from it, or the command glued to it: said so, where the parser read the side as a
    unit of a short-form move ("expected a path of hexes ... found ':'")."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line(line, 4)
    assert caught.value.message == said and caught.value.place is not None and caught.value.place.column == column
