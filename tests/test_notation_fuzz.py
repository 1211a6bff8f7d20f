"""Fuzzing the move-log notation (house style 10: junk gives our error, never a traceback).

Any text gives entries or LogSyntaxErrors whose every error points inside the text; any entry
list the notation can express survives write_text -> parse_text and the JSON twin.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Capture, Comment, Declare, Entry, Header, Income, Loss, Move, Pass,
    Place, Retreat, RollOff, StandFast, StepMarker, TurnMarker,
)
from adjudicator.notation.jsonlog import read_json_log, write_json_log
from adjudicator.notation.text import (
    COMMANDS, LogSyntaxErrors, caret_message, parse_line, parse_text, write_text,
)
from wargame.errors import LogSyntaxError

ROOT = Path(__file__).resolve().parent.parent
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _unit_ids(game: str) -> list[str]:
    with open(ROOT / "counters" / game / "units.csv", encoding="utf-8") as f:
        rows = [line for line in f if not line.startswith("#")]
    return [row["id"] for row in csv.DictReader(rows)]


UNIT_IDS = _unit_ids("onslaught") + _unit_ids("omaha")
HEX_LABELS = ["0620", "0720", "0820", "0621", "0821", "0922", "2318", "2319", "2219", "2120", "1718", "0421"]
# Every word the parser gives a meaning to somewhere; ids drawn for round trips avoid them.
RESERVED = {"Turn", "Step", "Phase", "Roll", "with", "odds", "diff", "die", "result", "support", "supply", "points",
            "move-first", "attack-first", "strategic", "full", "reduced", "decline", *COMMANDS}
# Characters str.splitlines() ends a line at: they cannot appear inside one entry's text.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def check_outcome(text: str) -> list[Entry] | None:
    """Parse `text`; assert the outcome is entries or well-placed syntax errors, nothing else."""
    lines = text.splitlines()
    try:
        entries = parse_text(text, "fuzz.log")
    except LogSyntaxErrors as e:
        assert e.errors, "LogSyntaxErrors without errors"
        seen_lines = []
        for error in e.errors:
            assert isinstance(error, LogSyntaxError) and not isinstance(error, LogSyntaxErrors)
            assert error.message
            place = error.place
            assert place is not None and place.file == "fuzz.log"
            assert place.line is not None and 1 <= place.line <= len(lines), (place, len(lines))
            assert place.column is not None and 1 <= place.column <= len(lines[place.line - 1]) + 1, place
            rendered = caret_message(error, lines)
            assert rendered.startswith(f"fuzz.log:{place.line}:{place.column}: error: ")
            assert rendered.endswith("^")
            seen_lines.append(place.line)
        assert seen_lines == sorted(set(seen_lines)), "one error per line, in line order"
        return None
    for entry in entries:
        assert isinstance(entry, Entry)
        assert 1 <= entry.line <= len(lines)
        assert 1 <= entry.column <= len(lines[entry.line - 1])
        assert not lines[entry.line - 1][: entry.column - 1].strip(), "an entry starts at its first character"
    assert [e.line for e in entries] == sorted({e.line for e in entries}), "one entry per line, in order"
    return entries


# -- 1. any text ---------------------------------------------------------------------------------
@FAST
@given(st.text(max_size=200))
def test_any_unicode_text(text: str) -> None:
    """Arbitrary Unicode gives entries or placed syntax errors."""
    check_outcome(text)


NOTATION_CHARS = st.sampled_from([*"TurnStepPhaseRollAlliedGerman:>#[]\"\\ -+/_.0123456789\t", "é", "\u3000", "\x00",
                                  "\r"])


@FAST
@given(st.lists(st.text(alphabet=NOTATION_CHARS, max_size=40), max_size=12))
def test_text_from_the_notations_characters(lines: list[str]) -> None:
    """Lines drawn from the characters the notation cares about."""
    check_outcome("\n".join(lines))


# -- 2. token soups ----------------------------------------------------------------------------------
TOKENS = st.one_of(
    st.sampled_from(["Turn", "Step", "Phase", "Roll", "Allied:", "German:", "Allied>", "German>", "allied:",
                     "Allied", ":", ">", "#", "#x", "[", "]", '"', '[Game', '"onslaught"]', "strategic", "with",
                     "odds", "diff", "die", "result", "support", "supply", "points", "full", "reduced", "decline",
                     "move-first", "attack-first", "bulge", "action", "movement", "combat", "breakthrough",
                     "german_reserve", "reinforcement", "mobile_combat", "DE", "DR", "D2", "(A)", "-", "--", "0620-",
                     "-0620", "0620--0520", "3:1", "1:2", "+3", "-2", "0", "-0", "-1", "-9999", "12345", "٣"]),
    st.sampled_from(list(COMMANDS)),
    st.sampled_from(UNIT_IDS),
    st.sampled_from(HEX_LABELS),
    st.lists(st.sampled_from(HEX_LABELS), min_size=1, max_size=4).map("-".join),
    st.integers(-20, 20).map(str),
    st.text(min_size=1, max_size=6).filter(lambda t: not any(c in LINE_BREAKS for c in t)),
)
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", " \t ", "\u00a0"])


# Words that decide a line's form: a soup line often starts with one, to get past the first word.
HEADS = st.one_of(st.sampled_from(["Turn", "Step", "Phase", "Roll", "Allied:", "German:", "Allied>", "German>"]),
                  st.sampled_from(UNIT_IDS))


@st.composite
def soup_line(draw: st.DrawFn) -> str:
    """A line of vocabulary words in random order, with random spacing."""
    words = draw(st.lists(TOKENS, max_size=9))
    if draw(st.booleans()):
        words.insert(0, draw(HEADS))
    seps = draw(st.lists(SEPARATORS, min_size=len(words) + 1, max_size=len(words) + 1))
    return seps[0] * draw(st.integers(0, 1)) + "".join(w + s for w, s in zip(words, seps[1:]))


@FAST
@given(st.lists(soup_line(), max_size=10))
def test_token_soup(lines: list[str]) -> None:
    """Vocabulary in the wrong order gives entries or placed syntax errors."""
    check_outcome("\n".join(lines))


@FAST
@given(st.lists(soup_line(), min_size=1, max_size=10))
def test_all_errors_at_once_means_one_per_bad_line(lines: list[str]) -> None:
    """parse_text reports exactly the lines parse_line refuses, and keeps exactly the others."""
    text = "\n".join(lines)
    good, bad = [], []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = parse_line(line, number, "fuzz.log")
        except LogSyntaxError as e:
            bad.append((e.place, e.message))
            continue
        if entry is not None:
            good.append(entry)
    try:
        assert parse_text(text, "fuzz.log") == good
        assert not bad
    except LogSyntaxErrors as e:
        assert [(x.place, x.message) for x in e.errors] == bad


# -- 3. mutated valid logs ---------------------------------------------------------------------------
VALID = """\
[Game "onslaught"]
[Scenario "campaign"]
[Optional "allied_cooperation"]
[DiceSeed "sha256:d32102eb42b3bf341871d77794a7d323ab2fc97ffe5abc3c30156b61af28d15f"]
Turn 1
Step action
Allied: action combat supply 2
Allied: activate 0820 br-inf-02 br-inf-03 supply 1
Allied: attack 0821 with br-inf-02 br-inf-03 odds 3:1 die 6 result DE
German> retreat de-inf-05 0821-0822-0823
Allied: advance br-inf-02 0820-0821
Roll Allied 5 German 4
Allied: action breakthrough supply 2
Allied: activate 0720 br-arm-01 supply 2 attack-first
br-arm-01 strategic 0720-0620-0520
German> deplete de-inf-04
German> stand de-inf-01 de-inf-02
Allied: remove us-inf-05
Roll Allied 5 German 5
Step german_reserve
German: activate 2117 supply 1
Step reinforcement
Allied: reinforce us-inf-03 0620
Allied: delay us-inf-08
Allied: paradrop us-para-03 1520 supply 1
German: replace de-inf-05 full 2314 points 2
Allied: income 8 decline 0720
German: capture 0720 points 2
German: declare bulge
# a comment
Phase combat
Allied: attack 2218 with 16/1 116/29 diff +6 die 2 result D2 support us_sf_6 de_sf_4
CCA/2 2319-2218-2217
"""
VALID_LINES = VALID.splitlines()
MUTATION_CHARS = st.sampled_from(list(" \t#:>[]\"\\-+/_.0123456789xA") + ["é", "\x85", "\u2028", "\x0c"])


@st.composite
def mutated_log(draw: st.DrawFn) -> str:
    """The valid log with a few characters or words inserted, deleted, swapped or duplicated."""
    text = VALID
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "swap", "word", "line", "drop_line"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "insert":
            text = text[:at] + draw(MUTATION_CHARS) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1:]
        elif kind == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2:]
        elif kind == "word":
            text = text[:at] + " " + draw(TOKENS) + " " + text[at:]
        elif kind == "line":
            text = text[:at] + "\n" + draw(st.sampled_from(VALID_LINES)) + "\n" + text[at:]
        else:
            lines = text.splitlines()
            if lines:
                del lines[draw(st.integers(0, len(lines) - 1))]
            text = "\n".join(lines)
    return text


@FAST
@given(mutated_log())
def test_mutated_valid_log(text: str) -> None:
    """A valid log with typos gives entries or placed syntax errors."""
    check_outcome(text)


def test_the_unmutated_log_is_valid() -> None:
    """The seed of the mutations parses cleanly, so mutations start from a valid log."""
    entries = check_outcome(VALID)
    assert entries is not None and len(entries) == len(VALID_LINES)


# -- 4. entries -> text -> entries, and the JSON twin -------------------------------------------------
def _name(pattern: str) -> st.SearchStrategy[str]:
    return st.from_regex(pattern, fullmatch=True).filter(lambda w: w not in RESERVED)


WORD = _name(r"[A-Za-z0-9][A-Za-z0-9_.+/-]{0,11}")
UNIT = st.one_of(st.sampled_from(UNIT_IDS), WORD)
HEX = st.one_of(st.sampled_from(HEX_LABELS), st.from_regex(r"[0-9]{4}", fullmatch=True), WORD)
ATTACKED = HEX.filter(lambda h: "+" not in h)
PART = _name(r"[A-Za-z0-9_.+/]{1,6}")
PATH = st.builds(lambda first, rest: [first, *rest],
                 st.one_of(st.sampled_from(HEX_LABELS), _name(r"[A-Za-z0-9][A-Za-z0-9_.+/]{0,5}")),
                 st.lists(st.one_of(st.sampled_from(HEX_LABELS), PART), max_size=5))
SIDE = st.one_of(st.sampled_from(["Allied", "German"]), st.from_regex(r"[A-Z][A-Za-z]{0,8}", fullmatch=True))
NUMBER = st.integers(0, 9999)  # claims are counts and die rolls: never negative
MAYBE_NUMBER = st.none() | NUMBER
ODDS = st.none() | st.from_regex(r"[0-9]{1,3}:[0-9]{1,3}", fullmatch=True) | st.from_regex(r"[+-]?[0-9]{1,3}",
                                                                                            fullmatch=True)
ONE_LINE = st.text(alphabet=st.characters(codec="utf-8", exclude_characters=LINE_BREAKS), max_size=30)
HEADER_VALUE = st.text(alphabet=st.characters(codec="utf-8", exclude_characters=LINE_BREAKS), max_size=30)
RESULT = st.none() | st.from_regex(r"[A-Za-z0-9]{1,6}|\([A-Za-z0-9]{1,4}\)|-", fullmatch=True)
PLACE_HEX = st.none() | HEX.filter(lambda h: h not in ("supply", "points"))


def sided(cls: type[Entry], **fields: st.SearchStrategy[object]) -> st.SearchStrategy[Entry]:
    """Entries a side makes: `Side:` or `Side>`, then the command's fields."""
    return st.builds(cls, side=SIDE, by_opponent=st.booleans(), **fields)


@st.composite
def place_entry(draw: st.DrawFn) -> Place:
    """A placement; a strength only where the notation has one (replace)."""
    how = draw(st.sampled_from(["reinforce", "replace", "paradrop", "setup", "delay"]))
    strength = draw(st.none() | st.sampled_from(["full", "reduced"])) if how == "replace" else None
    return Place(side=draw(SIDE), by_opponent=draw(st.booleans()), how=how, unit=draw(UNIT), hex=draw(PLACE_HEX),
                 strength=strength, points=draw(MAYBE_NUMBER), supply=draw(MAYBE_NUMBER))


@st.composite
def move_entry(draw: st.DrawFn) -> Move:
    """A move in the short form (no side) or the long form."""
    if draw(st.booleans()):
        return Move(side=draw(SIDE), by_opponent=draw(st.booleans()), unit=draw(UNIT), path=draw(PATH),
                    strategic=draw(st.booleans()))
    return Move(unit=draw(UNIT), path=draw(PATH), strategic=draw(st.booleans()))


ENTRY: st.SearchStrategy[Entry] = st.one_of(
    st.builds(Header, key=st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True), value=HEADER_VALUE),
    st.builds(TurnMarker, turn=st.integers(0, 9999)),
    st.builds(StepMarker, step=WORD),
    st.builds(RollOff, rolls=st.dictionaries(SIDE, NUMBER, min_size=1, max_size=3)),
    st.builds(Comment, text=ONE_LINE.map(str.strip)),
    sided(Action, action=WORD, supply=MAYBE_NUMBER),
    sided(Pass),
    sided(Activate, hex=HEX, units=st.lists(UNIT, max_size=3), supply=MAYBE_NUMBER,
          order=st.none() | st.sampled_from(["move-first", "attack-first"])),
    move_entry(),
    # An attack's hexes are joined by '+' in the text: each one is a word without it.
    sided(Attack, hex=ATTACKED, more_hexes=st.lists(ATTACKED, max_size=2),
          attackers=st.lists(UNIT, min_size=1, max_size=3), odds=ODDS, die=MAYBE_NUMBER, result=RESULT,
          support=st.lists(WORD, max_size=3)),
    sided(Retreat, unit=UNIT, path=PATH),
    sided(Advance, unit=UNIT, path=PATH),
    sided(Loss, loss=st.sampled_from(["deplete", "eliminate", "remove"]), unit=UNIT),
    sided(StandFast, units=st.lists(UNIT, min_size=1, max_size=3)),
    place_entry(),
    sided(Income, points=MAYBE_NUMBER, declined=st.lists(HEX, max_size=3)),
    sided(Capture, hex=HEX, points=MAYBE_NUMBER),
    sided(Declare, what=WORD),
)


def numbered(entries: list[Entry]) -> list[Entry]:
    """The entries as written one per line: line i + 1, column 1."""
    return [replace(e, line=i + 1, column=1) for i, e in enumerate(entries)]


@FAST
@given(st.lists(ENTRY, max_size=12))
def test_written_entries_parse_back_to_the_same_entries(entries: list[Entry]) -> None:
    """write_text then parse_text is the identity on every entry the notation can express."""
    text = write_text(entries)
    assert text.count("\n") == len(entries) and len(text.splitlines()) == len(entries)
    assert parse_text(text) == numbered(entries)


@FAST
@given(st.lists(ENTRY, max_size=12))
def test_entries_survive_the_json_twin(entries: list[Entry]) -> None:
    """Entries -> JSON -> entries keeps every entry, and the text written from either is the same."""
    back = read_json_log(write_json_log(numbered(entries)), "log.json")
    assert back == numbered(entries)
    assert write_text(back) == write_text(entries)


@FAST
@given(st.lists(soup_line(), max_size=10))
def test_writing_what_was_parsed_is_a_fixed_point(lines: list[str]) -> None:
    """Whatever parses, written once, is written identically after another parse."""
    entries = check_outcome("\n".join(lines))
    if entries is None:
        return
    once = write_text(entries)
    assert write_text(parse_text(once)) == once


@pytest.mark.slow
@SLOW
@given(st.one_of(st.text(max_size=300), st.lists(soup_line(), max_size=20).map("\n".join), mutated_log()))
def test_heavy_fuzz_of_the_parser(text: str) -> None:
    """The three text generators, many more times (run by .ci/run; deselect with -m 'not slow')."""
    check_outcome(text)


@pytest.mark.slow
@SLOW
@given(st.lists(ENTRY, max_size=20))
def test_heavy_round_trip(entries: list[Entry]) -> None:
    """The entry round trips, many more times."""
    assert parse_text(write_text(entries)) == numbered(entries)
    assert read_json_log(write_json_log(entries), "log.json") == entries

