"""VASSAL's SequenceEncoder as we write and read it, quirks included (vassal-format.md 1.5)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wargame.vassal.commands import ESC, split
from wargame.vassal.encoding import (
    add_piece, basic_piece, decode, delete, encode, layer_two_sided, properties, report_flip, use_prototype,
)

REFERENCE_SLOT = (
    "+/null/prototype;Unit\temb2;;0;;Flip;0;;;0;;;;1;false;0;0;front.png,back.png;,+ (reduced);true;Step;;;false;;"
    "1;1;true;;70,130;;;1.0;;true\\\tmark;Side,Type\\\\\tpiece;;;;1st Inf/\t1\\\tRed,Infantry\\\\\tnull;0;0;3;0"
)
REFERENCE_PROTOTYPE = (
    "+/null/report;70\\,130;$oldPieceName$ flipped to $newPieceName$ at $location$ *;;;;false\tdelete;Delete;"
    "68,130;\\\tpiece;;;;/-1\t\\\tnull;0;0;;0"
)


def test_piece_slot_matches_vassal_output() -> None:
    """The reference PieceSlot, re-serialised identically by VASSAL 3.7.26, is what we write."""
    traits = [use_prototype("Unit"), layer_two_sided(["front.png", "back.png"], ["", "+ (reduced)"]),
              properties({"Side": "Red", "Type": "Infantry"}), basic_piece("1st Inf")]
    assert add_piece(traits, "3") == REFERENCE_SLOT


def test_prototype_matches_vassal_output() -> None:
    """The reference prototype definition is what we write."""
    assert add_piece([report_flip("$oldPieceName$ flipped to $newPieceName$ at $location$ *"), delete(),
                      basic_piece("")], "") == REFERENCE_PROTOTYPE


def test_escaping_and_quoting() -> None:
    """Delimiters are escaped; tokens ending with a backslash, or quoted, are wrapped (SequenceEncoder.append)."""
    assert encode(["a;b", "c"], ";") == "a\\;b;c"
    assert encode(["\\x", "'q'"], ";") == "\\x;''q''"
    assert encode(["x\\", "y"], ";") == "'x\\';y"
    assert encode([], ";") == ""
    assert encode([None, True, 3], ";") == ";true;3"
    assert decode("a\\;b;c", ";") == ["a;b", "c"]
    assert decode("a;", ";") == ["a", ""]
    assert decode("", ";") == [""]


def test_trailing_backslash_survives() -> None:
    """A token ending in a backslash is quoted, so it does not swallow the next delimiter (VASSAL reads
    one token fewer otherwise: a text log line ending in a backslash lost a step in the .vlog)."""
    assert decode(encode(["a\\", "b"], ";"), ";") == ["a\\", "b"]
    assert split(encode(["LOG\tCHAT* Allied: pass \\", "LOG\tCHAT next"], ESC), ESC) == [
        "LOG\tCHAT* Allied: pass \\", "LOG\tCHAT next"]


TOKEN = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12)


@given(st.lists(TOKEN, min_size=1, max_size=6), st.sampled_from([";", ",", "\t", "/"]))
def test_round_trip(tokens: list[str], delimiter: str) -> None:
    """decode(encode(tokens)) gives any tokens back, a trailing backslash or quotes included."""
    assert decode(encode(tokens, delimiter), delimiter) == tokens


def test_nested_chain_decodes_trait_by_trait() -> None:
    """The TYPE and STATE chains split into one token per trait, outermost first."""
    command = REFERENCE_SLOT
    _, type_text, state_text = decode(command[2:], "/")
    types, states = [], []
    while True:
        parts = decode(type_text, "\t")
        state_parts = decode(state_text, "\t")
        types.append(parts[0])
        states.append(state_parts[0])
        if len(parts) == 1:
            break
        type_text, state_text = parts[1], state_parts[1]
    assert [t.split(";")[0] for t in types] == ["prototype", "emb2", "mark", "piece"]
    assert states == ["", "1", "Red,Infantry", "null;0;0;3;0"]


@given(st.text(max_size=200))
def test_obfuscation_is_vassals_byte_by_byte(text: str) -> None:
    """The '!VCSK' form, made by one translate and hex() call, is each UTF-8 byte xored with the key as two hex
    digits (VASSAL's ObfuscatingOutputStream), and reads back."""
    from wargame.vassal.savefile import deobfuscate, obfuscate

    data = text.encode("utf-8")
    key = obfuscate(text)[5:7]
    key_byte = int(key, 16)
    assert obfuscate(text) == b"!VCSK" + key + "".join(f"{b ^ key_byte:02x}" for b in data).encode()
    assert deobfuscate(obfuscate(text)) == data


@given(st.lists(st.one_of(st.none(), st.booleans(), st.integers(), st.text(alphabet="ab;\\'\t", max_size=6)),
                max_size=12), st.sampled_from([";", "\t", ","]))
def test_encode_is_sequence_encoders_append(tokens: list[str | int | bool | None], delimiter: str) -> None:
    """encode, joined once, is SequenceEncoder.append token after token: a delimiter between tokens, each escaped,
    quoted when it ends in a backslash or is wrapped in quotes."""
    expected: str | None = None
    for token in tokens:
        text = ("true" if token else "false") if isinstance(token, bool) else "" if token is None else str(token)
        expected = "" if expected is None else expected + delimiter
        if text:
            escaped = text.replace(delimiter, "\\" + delimiter)
            if text[-1] == "\\" or (text[0] == "'" and text[-1] == "'"):
                escaped = "'" + escaped + "'"
            expected += escaped
    assert encode(tokens, delimiter) == (expected or "")
