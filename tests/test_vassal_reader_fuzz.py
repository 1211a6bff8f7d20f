"""Hostile and broken VASSAL files: every one ends in our clean error (or reads), never a traceback,
in bounded time and memory, and nothing is ever written outside the output path."""

from __future__ import annotations

import io
import struct
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cli import main
from adjudicator.notation.text import parse_text
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.report import annotated, converted_text
from wargame.errors import DataError, Place, WargameError
from wargame.vassal import pieces
from wargame.vassal.encoding import decode, encode
from wargame.vassal.pieces import read_piece
from wargame.vassal.reader import Limits, read_archive, read_recording
from wargame.vassal.savefile import deobfuscate, obfuscate
from wargame.vassal.tracking import track

DATA = Path(__file__).resolve().parent / "data" / "vassal"
ESC = "\x1b"
RECORDED = (DATA / "onslaught-session.vlog").read_bytes()
with zipfile.ZipFile(io.BytesIO(RECORDED)) as _archive:
    PLAIN = deobfuscate(_archive.read("savedGame")).decode("utf-8")
    META = {n: _archive.read(n) for n in ("savedata", "moduledata")}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def vlog_bytes(saved_game: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    """A zip holding a savedGame member (and the recorded metadata)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", saved_game)
        for name, data in {**META, **(extra or {})}.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def translate_bytes(data: bytes) -> None:
    """Write the bytes as a .vlog and translate it: it reads, or fails with our error only; what
    it reads converts to a text log that parses back entry for entry."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.vlog"
        path.write_bytes(data)
        try:
            translation = translate_file(path)
        except WargameError as e:
            assert str(e) and "Traceback" not in str(e)
            return
        entries = annotated(translation)
        assert len(parse_text(converted_text(translation))) == len(entries)


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    """Junk is refused cleanly."""
    translate_bytes(data)


@FUZZ
@given(st.integers(0, len(RECORDED) - 1))
def test_truncated_recording(length: int) -> None:
    """A recorded log cut anywhere is refused cleanly."""
    translate_bytes(RECORDED[:length])


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(RECORDED) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_damaged_recording(changes: list[tuple[int, int]]) -> None:
    """A recorded log with bytes overwritten is refused cleanly (or still reads)."""
    data = bytearray(RECORDED)
    for at, value in changes:
        data[at] = value
    translate_bytes(bytes(data))


SPECIALS = st.sampled_from(["\x1b", "\\", "/", ";", "\t", ",", "'", "LOG\t", "+/", "-/", "D/", "M/", "CHAT", "null",
                            "UNDO\ttrue", "TURNTurnTracker0\t", "MutableProperty\t", "PLAYER\t", "emb2;", "mark;",
                            "piece;", "stack", "-1", "99999999999", "Main Map", "Boxes and Tracks", "\x00", "é", "9"])


@FUZZ
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 40), SPECIALS), min_size=1, max_size=6))
def test_mutated_command_strings(edits: list[tuple[float, int, str]]) -> None:
    """The recorded command text with pieces cut out and VASSAL's delimiters and prefixes put in:
    read, or refused cleanly."""
    text = PLAIN
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut:]
    translate_bytes(vlog_bytes(obfuscate(text)))


WORDS = st.sampled_from(["M/", "D/", "+/", "-/", "CHAT", "/", ";", "\t", "\\", "1", "campaign-39-0", "Main Map",
                         "null", "emb2;", "piece;", "mark;UnitId", "de-inf-21", "&lt;", "***", " = ", "Allied: ",
                         "UNDO\ttrue", "2707", "-", "TURNTurnTracker0\t0|-5;0;false;20;9\\;0",
                         "TURNTurnTracker0\t0|99999;0;false;20;1\\;0", "CHAT*** 1d6 = 123456 *** &lt;Tester&gt;",
                         "CHAT&lt;Tester&gt; - Allied: attack 2708 with us-inf-01",
                         "CHAT*** 1d6 = 4 *** &lt;Tester&gt;",
                         "CHAT&lt;Tester&gt; - Turn 3", "CHAT&lt;Tester&gt; - de-inf-21 2707-2708-2709",
                         "PLAYER\tpw\tTe\"st\nx\tAllied", "\n", "\r", "\u2028", "#", "[", "\""])


@FUZZ
@given(st.lists(st.lists(st.lists(WORDS, max_size=12).map("".join), min_size=1, max_size=4), min_size=1,
                max_size=6))
def test_random_log_steps(steps: list[list[str]]) -> None:
    """Made-up log steps after the recorded saved position: read, or refused cleanly."""
    parts = decode(PLAIN, ESC)
    end = parts.index("end_save") + 1
    logged = [encode(["LOG\t" + c for c in step], ESC) for step in steps]
    translate_bytes(vlog_bytes(obfuscate(encode([*parts[:end], *logged], ESC))))


def test_zip_bomb_is_refused_quickly() -> None:
    """A small file that inflates far past the cap is refused while inflating, not after."""
    bomb = zlib.compress(b"0" * (80 * 2**20), 9)
    assert len(bomb) < 200_000
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", b"0" * (80 * 2**20))
    data = buffer.getvalue()
    assert len(data) < 200_000
    start = time.perf_counter()
    with pytest.raises(DataError, match="would inflate to|inflates to more than"):
        read_archive(data, "bomb.vlog")
    assert time.perf_counter() - start < 5


def _lie_about_size(data: bytes, name: bytes, size: int) -> bytes:
    """The zip with the uncompressed size of member `name` written as `size` in both headers."""
    out = bytearray(data)
    local = out.find(b"PK\x03\x04" + out[4:4])
    while local != -1:
        name_len = struct.unpack_from("<H", out, local + 26)[0]
        if out[local + 30:local + 30 + name_len] == name:
            struct.pack_into("<I", out, local + 22, size)
        local = out.find(b"PK\x03\x04", local + 4)
    central = out.find(b"PK\x01\x02")
    while central != -1:
        name_len = struct.unpack_from("<H", out, central + 28)[0]
        if out[central + 46:central + 46 + name_len] == name:
            struct.pack_into("<I", out, central + 24, size)
        central = out.find(b"PK\x01\x02", central + 4)
    return bytes(out)


def test_declared_sizes_do_not_fool_the_reader() -> None:
    """A member that claims to be small but inflates huge, or claims to be huge: refused."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", b"0" * (80 * 2**20))
    small = _lie_about_size(buffer.getvalue(), b"savedGame", 100)
    with pytest.raises(DataError):
        read_archive(small, "liar.vlog")
    honest = vlog_bytes(obfuscate(PLAIN))
    huge = _lie_about_size(honest, b"savedGame", 2**32 - 1)
    with pytest.raises(DataError, match="would inflate to"):
        read_archive(huge, "huge.vlog")
    tight = Limits(max_saved_game_bytes=1000)
    with pytest.raises(DataError, match="more than the 1,000 accepted"):
        read_archive(honest, "tight.vlog", tight)


def test_path_traversal_members_are_refused_and_never_extracted(tmp_path: Path) -> None:
    """A member named ../../x is refused; the reader writes no file anywhere."""
    folder = tmp_path / "in"
    folder.mkdir()
    for evil in ("../../evil.txt", "/etc/evil", "C:\\evil.txt", "a/../../evil.txt"):
        path = folder / "game.vlog"
        path.write_bytes(vlog_bytes(obfuscate(PLAIN), {evil: b"owned"}))
        before = sorted(p.name for p in tmp_path.rglob("*"))
        with pytest.raises(DataError, match="path traversal"):
            read_recording(path)
        assert sorted(p.name for p in tmp_path.rglob("*")) == before
        assert not (tmp_path / "evil.txt").exists()


def test_too_many_members_and_too_large_files(tmp_path: Path) -> None:
    """Member count and file size are capped."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("savedGame", obfuscate(PLAIN))
        for i in range(100):
            archive.writestr(f"junk{i}", b"")
    with pytest.raises(DataError, match="members"):
        read_archive(buffer.getvalue(), "many.vlog")
    with pytest.raises(DataError, match="accepted for a saved game"):
        read_archive(RECORDED, "big.vlog", Limits(max_file_bytes=100))


@pytest.mark.parametrize("saved_game, message", [
    (b"!VCSK7czz", "not a hex digit"),
    (b"!VCSK", "without its key"),
    (b"VOBS", "without its key"),
    (b"\xff\xfe", "not UTF-8"),
    ("\\" * 50 + ESC, "nested"),
    ("begin_save" + ESC + "+/x/mark;a\tpiece;;;;n/1", "traits but 1 states"),
    ("begin_save" + ESC + "+/x/nota trait\tpiece;;;;n/s\tnull;0;0;;0", "has no id"),
    ("begin_save" + ESC + "+/x/mark;a/x", "not a basic piece"),
    ("begin_save" + ESC + "+/x/piece;;;;n/Main Map;a;b;;0", "not two whole numbers"),
    ("begin_save" + ESC + "end_save" + ESC + "LOG\tM/x/Main Map/1/zz/null/null/0/0/null/p", "'zz' is not a whole"),
    ("begin_save" + ESC + "end_save" + ESC + "LOG\tM/x/Main Map", "9 fields expected"),
    ("begin_save" + ESC + "end_save" + ESC + "LOG\tLOG\tnull", "LOG command inside"),
    ("end_save", "no 'begin_save'"),
])
def test_malformed_saves_name_the_problem(saved_game: bytes | str, message: str, tmp_path: Path) -> None:
    """Each kind of damage is named, with the file and where in it."""
    data = saved_game if isinstance(saved_game, bytes) else obfuscate(saved_game)
    if isinstance(saved_game, str) and saved_game.startswith("\\"):
        # Nesting deeper than the cap: an escaped separator one level more each time.
        nested = "x"
        for _ in range(120):
            nested = encode([nested, "y"], ESC)
        data = obfuscate(nested)
    path = tmp_path / "bad.vlog"
    path.write_bytes(vlog_bytes(data))
    with pytest.raises(DataError, match=message) as caught:
        track(read_recording(path))
    assert str(path) in str(caught.value)


def test_the_command_line_refuses_hostile_files_cleanly(tmp_path: Path) -> None:
    """convert: `Error: ...` on stderr; check: its verdict document on stdout naming the problem; exit 2, no
    traceback, no output file."""
    path = tmp_path / "bomb.vlog"
    path.write_bytes(vlog_bytes(obfuscate(PLAIN), {"../escape": b"x"}))
    out = tmp_path / "out.log"
    for args in (["check", str(path)], ["convert", str(path), "-o", str(out)], [str(path)]):
        result = CliRunner().invoke(main, args)
        said = result.stderr if args[0] == "convert" else result.stdout
        assert result.exit_code == 2 and "path traversal" in said and "Traceback" not in said
        assert "Error:" in said if args[0] == "convert" else "replay stopped" in said
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not out.exists()


@pytest.mark.parametrize("type_text, state_text, message", [
    ("mark;a\tpiece;;;;n\tx", "\tnull;0;0;;0", "malformed piece type: a trait's type holds an unescaped tab (3 "
     "tab-separated parts): expected two, the trait's own type then the inner traits' with their tabs escaped"),
    ("mark;a\tpiece;;;;n", "1", "malformed piece state: 2 traits but 1 states: expected one state per trait"),
    ("nota trait\tpiece;;;;n", "s\tnull;0;0;;0", "malformed piece type: trait 'nota trait' has no id: expected it "
     "to begin with one, a name and ';' (like 'mark;')"),
    ("piece;;;;n", "Main Map;a;b;;0", "malformed piece state: position 'a;b' is not two whole numbers: expected the "
     "map's name, then x;y in whole pixels (like 'Main Map;120;340')"),
    ("piece;;;;n", "Main Map;1;2;g;x;k;v", "malformed piece state: property count 'x' is not a whole number: "
     "expected how many key;value pairs follow (like '2')"),
])
def test_a_malformed_piece_says_what_was_found_and_what_was_expected(type_text: str, state_text: str,
                                                                      message: str) -> None:
    """Each malformed piece's message names what it found and what VASSAL writes instead (the state's count alone,
    or the position alone, said nothing of what was expected)."""
    with pytest.raises(DataError) as caught:
        read_piece("x", type_text, state_text, Place("bad.vlog"))
    assert caught.value.message == message


def test_a_piece_of_too_many_traits_says_how_many_are_expected(monkeypatch: pytest.MonkeyPatch) -> None:
    """More traits than the cap: the message gives the cap as the most expected."""
    monkeypatch.setattr(pieces, "MAX_TRAITS", 2)
    inner = encode(["mark;b", "piece;;;;n"], "\t")
    with pytest.raises(DataError) as caught:
        read_piece("x", encode(["mark;a", inner], "\t"), "", Place("bad.vlog"))
    assert caught.value.message == "malformed piece type: more than 2 traits: expected at most 2 (no real piece has " \
                                   "so many)"
