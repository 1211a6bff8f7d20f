"""The move-log notation: every line form, round trips, every error with its column, carets.

Golden values written out by hand (house style 10); docs/log-format.md is the specification,
and its example logs are parsed here so the page cannot drift from the parser.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.notation.entries import (
    Action, Activate, Advance, Attack, Bombard, Capture, Comment, Declare, Entry, Header, Income, Loss, Move,
    Pass, Place, Retreat, RollOff, StandFast, StepMarker, SupportMarkers, TurnMarker, amended,
)
from adjudicator.notation.jsonlog import log_schema, read_json_log, write_json_log
from adjudicator.notation.text import (
    COMMANDS, LogSyntaxErrors, caret_message, parse_line, parse_text, parse_text_partly, write_entry, write_text,
)
from wargame.errors import LogSyntaxError, Place as ErrorPlace, WargameError

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "log-format.md"
SEED = "sha256:d32102eb42b3bf341871d77794a7d323ab2fc97ffe5abc3c30156b61af28d15f"

ALLIED = {"side": "Allied"}
GERMAN = {"side": "German"}
GERMAN_OPP = {"side": "German", "by_opponent": True}
ALLIED_OPP = {"side": "Allied", "by_opponent": True}


def bare(entries: list[Entry]) -> list[Entry]:
    """Entries without their position in the text (for round trips that renumber lines)."""
    return [replace(e, line=0, column=1) for e in entries]


# -- every line form: text -> the entry it parses to (at line 1) ------------------------------
# (text, expected entry, canonical): canonical lines are written back exactly as they are.
GOLDEN: list[tuple[str, Entry, bool]] = [
    # headers
    ('[Game "onslaught"]', Header(key="Game", value="onslaught"), True),
    ('[Game "omaha"]', Header(key="Game", value="omaha"), True),
    ('[Scenario "campaign"]', Header(key="Scenario", value="campaign"), True),
    ('[Scenario "beach_to_bocage"]', Header(key="Scenario", value="beach_to_bocage"), True),
    ('[Optional "allied_cooperation"]', Header(key="Optional", value="allied_cooperation"), True),
    ('[Allied "Alice Martin"]', Header(key="Allied", value="Alice Martin"), True),
    ('[German "Bernd \\"der Fuchs\\" Vogel"]', Header(key="German", value='Bernd "der Fuchs" Vogel'), True),
    (f'[DiceSeed "{SEED}"]', Header(key="DiceSeed", value=SEED), True),
    ('[Date "2024-06-06"]', Header(key="Date", value="2024-06-06"), True),
    ('[Note ""]', Header(key="Note", value=""), True),
    ('[Note "  spaced  # not a comment "]', Header(key="Note", value="  spaced  # not a comment "), True),
    ('[Note "C:\\new"]', Header(key="Note", value="C:\\new"), False),
    ('[Note "C:\\\\logs\\\\"]', Header(key="Note", value="C:\\logs\\"), True),
    ('[Game "onslaught"]  # the game', Header(key="Game", value="onslaught"), False),
    ('[Game "onslaught"]#the game', Header(key="Game", value="onslaught"), False),
    ('  [ Date   "2024-06-06" ]  ', Header(column=3, key="Date", value="2024-06-06"), False),
    # sequence of play
    ("Turn 1", TurnMarker(turn=1), True),
    ("Turn 0", TurnMarker(turn=0), True),
    ("Turn 17", TurnMarker(turn=17), True),
    ("Turn 9999", TurnMarker(turn=9999), True),
    ("Turn 007", TurnMarker(turn=7), False),
    ("Step action", StepMarker(step="action"), True),
    ("Step german_reserve", StepMarker(step="german_reserve"), True),
    ("Step reinforcement", StepMarker(step="reinforcement"), True),
    ("Phase support_fire_marker", StepMarker(step="support_fire_marker"), False),
    ("Phase mobile_combat", StepMarker(step="mobile_combat"), False),
    ("Roll Allied 5 German 4", RollOff(rolls={"Allied": 5, "German": 4}), True),
    ("Roll German 3 Allied 1", RollOff(rolls={"German": 3, "Allied": 1}), True),
    ("Roll Allied 4", RollOff(rolls={"Allied": 4}), True),
    # actions and activation (Onslaught 5.0-5.5)
    ("Allied: action combat supply 5", Action(**ALLIED, action="combat", supply=5), True),
    ("German: action movement", Action(**GERMAN, action="movement"), True),
    ("Allied: action breakthrough supply 4", Action(**ALLIED, action="breakthrough", supply=4), True),
    ("Allied: pass", Pass(**ALLIED), True),
    ("German> pass", Pass(**GERMAN_OPP), True),
    ("Allied: activate 0620", Activate(**ALLIED, hex="0620"), True),
    ("German: activate 2117 supply 1", Activate(**GERMAN, hex="2117", supply=1), True),
    ("Allied: activate 0820 br-inf-02 br-inf-03 supply 1",
     Activate(**ALLIED, hex="0820", units=["br-inf-02", "br-inf-03"], supply=1), True),
    ("Allied: activate 0720 br-arm-01 supply 2 attack-first",
     Activate(**ALLIED, hex="0720", units=["br-arm-01"], supply=2, order="attack-first"), True),
    ("Allied: activate 0720 us-arm-01 move-first",
     Activate(**ALLIED, hex="0720", units=["us-arm-01"], order="move-first"), True),
    # movement
    ("us-inf-01 0620-0520-0420", Move(unit="us-inf-01", path=["0620", "0520", "0420"]), True),
    ("us-inf-01 0620", Move(unit="us-inf-01", path=["0620"]), True),
    ("de-inf-23 strategic 3103-3203-3303", Move(unit="de-inf-23", path=["3103", "3203", "3303"], strategic=True),
     True),
    ("Allied: move us-para-01 0320-0321", Move(**ALLIED, unit="us-para-01", path=["0320", "0321"]), True),
    ("German: move de-pz-04 strategic 2117-2017",
     Move(**GERMAN, unit="de-pz-04", path=["2117", "2017"], strategic=True), True),
    ("CCA/2 2319-2218-2217", Move(unit="CCA/2", path=["2319", "2218", "2217"]), True),
    ("914/352 2218-2118", Move(unit="914/352", path=["2218", "2118"]), True),
    ("Sch/30 1005-1105", Move(unit="Sch/30", path=["1005", "1105"]), True),
    # combat: Onslaught odds, Fire & Movement differentials and support fire markers
    ("Allied: attack 0621 with us-inf-01 us-inf-02",
     Attack(**ALLIED, hex="0621", attackers=["us-inf-01", "us-inf-02"]), True),
    ("Allied: attack 0821 with br-inf-02 br-inf-03 br-para-01 odds 3:1 die 6 result DE",
     Attack(**ALLIED, hex="0821", attackers=["br-inf-02", "br-inf-03", "br-para-01"], odds="3:1", die=6,
            result="DE"), True),
    ("Allied: attack 0621 with us-inf-01 die 5", Attack(**ALLIED, hex="0621", attackers=["us-inf-01"], die=5), True),
    ("Allied: attack 0621 with us-inf-01 us-inf-02 die 5 reroll 6 result HH",
     Attack(**ALLIED, hex="0621", attackers=["us-inf-01", "us-inf-02"], die=5, reroll=6, result="HH"), True),
    ("German: attack 0720 with de-pz-01 odds 1:2 result AH",
     Attack(**GERMAN, hex="0720", attackers=["de-pz-01"], odds="1:2", result="AH"), True),
    ("Allied: attack 2218 with 16/1 116/29 diff +6 die 2 result D2 support us_sf_6 de_sf_4",
     Attack(**ALLIED, hex="2218", attackers=["16/1", "116/29"], odds="+6", die=2, result="D2",
            support=["us_sf_6", "de_sf_4"]), True),
    ("Allied: attack 2020 with 18/1 diff -1 die 1 result A2 support de_sf_1",
     Attack(**ALLIED, hex="2020", attackers=["18/1"], odds="-1", die=1, result="A2", support=["de_sf_1"]), True),
    ("German: attack 2219 with 915/352 diff 0", Attack(**GERMAN, hex="2219", attackers=["915/352"], odds="0"), True),
    ("Allied: attack 0320 with us-para-01 us-para-02 odds 2:1 die 3 result -",
     Attack(**ALLIED, hex="0320", attackers=["us-para-01", "us-para-02"], odds="2:1", die=3, result="-"), True),
    ("Allied: attack 2218 with 16/1 diff 0 die 4 result (A) support us_sf_2",
     Attack(**ALLIED, hex="2218", attackers=["16/1"], odds="0", die=4, result="(A)", support=["us_sf_2"]), True),
    ("Allied: attack 2319 with 16/1 support us_naval_7 us_sf_8",
     Attack(**ALLIED, hex="2319", attackers=["16/1"], support=["us_naval_7", "us_sf_8"]), True),
    ("Allied: attack 2218 with 16/1 support", Attack(**ALLIED, hex="2218", attackers=["16/1"]), False),
    ("German> retreat de-inf-04 0621-0622-0623",
     Retreat(**GERMAN_OPP, unit="de-inf-04", path=["0621", "0622", "0623"]), True),
    ("German> retreat 914/352 2218-2217-2117", Retreat(**GERMAN_OPP, unit="914/352", path=["2218", "2217", "2117"]),
     True),
    ("Allied: retreat 18/1 2120-2220", Retreat(**ALLIED, unit="18/1", path=["2120", "2220"]), True),
    ("Allied: advance br-inf-02 0820-0821", Advance(**ALLIED, unit="br-inf-02", path=["0820", "0821"]), True),
    ("Allied: advance 16/1 2119-2218", Advance(**ALLIED, unit="16/1", path=["2119", "2218"]), True),
    ("German> deplete de-inf-04", Loss(**GERMAN_OPP, loss="deplete", unit="de-inf-04"), True),
    ("Allied: deplete 116/29", Loss(**ALLIED, loss="deplete", unit="116/29"), True),
    ("German> eliminate de-inf-05", Loss(**GERMAN_OPP, loss="eliminate", unit="de-inf-05"), True),
    ("Allied: remove us-inf-05", Loss(**ALLIED, loss="remove", unit="us-inf-05"), True),
    ("German> stand de-inf-01", StandFast(**GERMAN_OPP, units=["de-inf-01"]), True),
    ("German> stand de-inf-01 de-inf-02", StandFast(**GERMAN_OPP, units=["de-inf-01", "de-inf-02"]), True),
    ("Allied: stand 18/1", StandFast(**ALLIED, units=["18/1"]), True),
    # supply, reinforcements, replacements
    ("Allied: reinforce us-inf-03 0620", Place(**ALLIED, how="reinforce", unit="us-inf-03", hex="0620"), True),
    ("German: reinforce Sch/30 1005", Place(**GERMAN, how="reinforce", unit="Sch/30", hex="1005"), True),
    ("German: reinforce ss-pz-03 entry_a", Place(**GERMAN, how="reinforce", unit="ss-pz-03", hex="entry_a"), True),
    ("Allied: delay us-inf-08", Place(**ALLIED, how="delay", unit="us-inf-08"), True),
    ("Allied: paradrop us-para-03 1520 supply 1",
     Place(**ALLIED, how="paradrop", unit="us-para-03", hex="1520", supply=1), True),
    ("Allied: pickup us-para-03", Place(**ALLIED, how="pickup", unit="us-para-03"), True),
    ("German: bombard 2319 diff +2 die 4 result D2 support de_sf_6 de_sf_3",
     Bombard(side="German", hex="2319", odds="+2", die=4, result="D2", support=["de_sf_6", "de_sf_3"]), True),
    ("German: draw de_sf_6 de_mines", SupportMarkers(side="German", how="draw", markers=["de_sf_6", "de_mines"]), True),
    ("Allied: aside us_sf_3", SupportMarkers(side="Allied", how="aside", markers=["us_sf_3"]), True),
    ("German> lose de_sf_4", SupportMarkers(side="German", by_opponent=True, how="lose", markers=["de_sf_4"]), True),
    ("Allied: setup 16/1 2319", Place(**ALLIED, how="setup", unit="16/1", hex="2319"), True),
    ("German: replace de-inf-05 full 2314 points 2",
     Place(**GERMAN, how="replace", unit="de-inf-05", strength="full", hex="2314", points=2), True),
    ("Allied: replace 116/29 full", Place(**ALLIED, how="replace", unit="116/29", strength="full"), True),
    ("Allied: replace us-arm-02 reduced 0620 points 2",
     Place(**ALLIED, how="replace", unit="us-arm-02", strength="reduced", hex="0620", points=2), True),
    ("Allied: replace us-para-01 points 2", Place(**ALLIED, how="replace", unit="us-para-01", points=2), True),
    ("Allied: reinforce fr-inf-02 points 1 supply 2",
     Place(**ALLIED, how="reinforce", unit="fr-inf-02", points=1, supply=2), True),
    ("Allied: income 12", Income(**ALLIED, points=12), True),
    ("German: income", Income(**GERMAN), True),
    ("Allied: income 8 decline 0620", Income(**ALLIED, points=8, declined=["0620"]), True),
    ("Allied: income decline 0620 0720", Income(**ALLIED, declined=["0620", "0720"]), True),
    ("Allied: income 10 reduce 0620 2", Income(**ALLIED, points=10, reduced={"0620": 2}), True),
    ("Allied: income 6 decline 0720 reduce 0620 2 0820 0",
     Income(**ALLIED, points=6, declined=["0720"], reduced={"0620": 2, "0820": 0}), True),
    ("Allied: income 12 decline", Income(**ALLIED, points=12), False),
    ("German: capture 0620 points 2", Capture(**GERMAN, hex="0620", points=2), True),
    ("German: capture 0720", Capture(**GERMAN, hex="0720"), True),
    ("German: declare bulge", Declare(**GERMAN, what="bulge"), True),
    # comments, white space
    ("# The Allies act first (5.0).", Comment(text="The Allies act first (5.0)."), True),
    ("#", Comment(text=""), False),
    ("#no space", Comment(text="no space"), False),
    ("    #   indented   ", Comment(column=5, text="indented"), False),
    ("# Turn 1 [Game \"x\"] Allied: pass", Comment(text='Turn 1 [Game "x"] Allied: pass'), True),
    ("Turn 1 # the first turn", TurnMarker(turn=1), False),
    ("Allied: attack 0621 with us-inf-01 us-inf-02 die 5   # odds left to the umpire",
     Attack(**ALLIED, hex="0621", attackers=["us-inf-01", "us-inf-02"], die=5), False),
    ("Allied: stand 18/1 #stiff resistance", StandFast(**ALLIED, units=["18/1"]), False),
    ("  us-inf-01   0620-0520  ", Move(column=3, unit="us-inf-01", path=["0620", "0520"]), False),
    ("\tAllied:\tpass", Pass(column=2, **ALLIED), False),
    ("Allied:    action   movement   supply   7", Action(**ALLIED, action="movement", supply=7), False),
]


@pytest.mark.parametrize(("text", "expected", "canonical"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_line_parses_to_its_entry(text: str, expected: Entry, canonical: bool) -> None:
    """Each line form gives exactly the expected entry, positioned at its first character."""
    assert parse_line(text, 1) == replace(expected, line=1)


@pytest.mark.parametrize(("text", "expected"), [(t, e) for t, e, c in GOLDEN if c],
                         ids=[t for t, _, c in GOLDEN if c])
def test_canonical_line_is_written_back_unchanged(text: str, expected: Entry) -> None:
    """write_entry is the inverse of parse_line for lines already in canonical spelling."""
    assert write_entry(expected) == text


@pytest.mark.parametrize(("text", "expected"), [(t, e) for t, e, _ in GOLDEN], ids=[g[0] for g in GOLDEN])
def test_every_golden_entry_round_trips_through_its_written_form(text: str, expected: Entry) -> None:
    """Whatever the spelling read, the written form parses back to the same entry."""
    entry = parse_line(text, 1)
    assert entry is not None
    again = parse_line(write_entry(entry), 1)
    assert again is not None
    assert bare([again]) == bare([entry])


def test_golden_lines_cover_every_command_and_every_kind() -> None:
    """No command and no entry kind is left without a golden line."""
    words = {m.group(2) for t, _, _ in GOLDEN if (m := re.match(r"\s*([A-Z][A-Za-z]*[:>])\s+(\S+)", t))}
    assert set(COMMANDS) <= words
    assert {e.kind for _, e, _ in GOLDEN} == _schema_kinds()  # type: ignore[attr-defined]


def _schema_kinds() -> set[str]:
    """Every `kind` the JSON Schema of the log document allows."""
    schema = log_schema()
    return set(schema["properties"]["entries"]["items"]["discriminator"]["mapping"])


def test_schema_lists_every_entry_kind() -> None:
    """`adjudicate schema` prints a schema whose discriminator names all twenty kinds."""
    assert _schema_kinds() == {"header", "turn", "step", "rolloff", "action", "pass", "activate", "move", "attack",
                               "bombard", "retreat", "advance", "loss", "stand", "place", "markers", "income", "capture",
                               "declare", "comment"}


def test_blank_lines_give_no_entry() -> None:
    """Empty and white-space-only lines are skipped, not errors."""
    assert parse_line("", 1) is None
    assert parse_line("   \t  ", 1) is None
    assert parse_text("\n\n   \n\t\n") == []
    assert parse_text("") == []


def test_line_numbers_and_line_endings() -> None:
    """Entries carry their 1-based line; CRLF and a missing final newline change nothing."""
    text = '[Game "onslaught"]\r\n\r\nTurn 1\r\n  Step action\r\nAllied: pass'
    entries = parse_text(text)
    assert [(e.line, e.column, e.kind) for e in entries] == [  # type: ignore[attr-defined]
        (1, 1, "header"), (3, 1, "turn"), (4, 3, "step"), (5, 1, "pass")]


def test_hash_inside_a_word_is_not_a_comment() -> None:
    """A comment starts only where a word would: `0620-0520#x` is one (bad) path word."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line("us-inf-01 0620-0520#note", 1)
    assert caught.value.message == "expected a path of hexes (HEX-HEX-...) after the unit, found '0620-0520#note'"
    assert parse_line("us-inf-01 0620-0520 #note", 1) == Move(line=1, unit="us-inf-01", path=["0620", "0520"])


def test_trailing_comments_are_not_kept() -> None:
    """A comment after an entry is dropped; a comment line is an entry of its own."""
    entries = parse_text("# kept\nTurn 1 # dropped\n")
    assert entries == [Comment(line=1, text="kept"), TurnMarker(line=2, turn=1)]
    assert write_text(entries) == "# kept\nTurn 1\n"


# -- whole logs ----------------------------------------------------------------------------------
TURN_ONE = """\
# A short exchange with every kind of entry.
[Game "onslaught"]
[Scenario "campaign"]
[Optional "allied_cooperation"]
[Optional "infantry_breakthrough"]
[Allied "Alice Martin"]
[German "Bernd Vogel"]
[DiceSeed "sha256:d32102eb42b3bf341871d77794a7d323ab2fc97ffe5abc3c30156b61af28d15f"]
[Date "2024-06-06"]

Turn 1
Step action
Allied: action combat supply 2
Allied: activate 0820 br-inf-02 br-inf-03 supply 1
Allied: activate 0921 br-para-01 supply 1
Allied: attack 0821 with br-inf-02 br-inf-03 br-para-01 odds 3:1 die 6 result DE
German> eliminate de-inf-05
Allied: advance br-inf-02 0820-0821
Roll Allied 5 German 4
Allied: action movement supply 1
Allied: activate 0620 supply 1
us-inf-02 0620-0521-0522
Allied: move us-inf-01 0620-0621
Roll Allied 2 German 6
German: action combat
German: activate 0922 de-pz-01 supply 1
German: attack 0821 with de-pz-01 odds 1:1 die 2 result AH
German: deplete de-pz-01
German> stand br-inf-02
Roll Allied 5 German 5
Step german_reserve
German: activate 2117 supply 1
de-pz-04 strategic 2117-2017-1918
Step reinforcement
Allied: reinforce us-inf-03 0620
Allied: delay us-inf-08
Allied: paradrop us-para-03 1520 supply 1
German: replace de-inf-05 full 2314 points 2
German: capture 0720 points 2
German: declare bulge
German: income 8
Allied: income 8 decline 0720
Turn 2
Step action
Allied: pass
German> retreat de-inf-04 0621-0622-0623
Allied: remove us-inf-05
"""


def test_text_to_entries_to_text_to_entries() -> None:
    """Parse, write, parse again: the same entries; writing is then a fixed point."""
    first = parse_text(TURN_ONE)
    written = write_text(first)
    second = parse_text(written)
    assert bare(second) == bare(first)
    assert write_text(second) == written
    assert written == "\n".join(line for line in TURN_ONE.splitlines() if line) + "\n"


def test_text_to_json_to_entries() -> None:
    """The JSON twin carries every entry, positions included, and validates back to equal entries."""
    entries = parse_text(TURN_ONE)
    text = write_json_log(entries)
    back = read_json_log(text, "log.json")
    assert back == entries
    raw = json.loads(text)
    assert raw["format"] == "umpire-log" and raw["version"] == 1
    assert [e["kind"] for e in raw["entries"]] == [e.kind for e in entries]  # type: ignore[attr-defined]
    assert write_text(back) == write_text(entries)


def test_json_with_defaults_left_out() -> None:
    """A tool may leave out every field that has a default."""
    entries = read_json_log(
        '{"entries": [{"kind": "turn", "turn": 1}, {"kind": "pass", "side": "Allied"},'
        ' {"kind": "rolloff", "rolls": {"Allied": 5, "German": 4}}]}', "log.json")
    assert entries == [TurnMarker(turn=1), Pass(side="Allied"), RollOff(rolls={"Allied": 5, "German": 4})]
    assert write_text(entries) == "Turn 1\nAllied: pass\nRoll Allied 5 German 4\n"


@pytest.mark.parametrize("document", [
    '{"entries": [{"kind": "pas", "side": "Allied"}]}',
    '{"entries": [{"kind": "turn", "turn": "x"}]}',
    '{"entries": [{"kind": "turn", "turn": -1}]}',
    '{"entries": [{"kind": "turn", "turn": 1, "colour": "red"}]}',
    '{"entries": [{"kind": "move", "unit": "us-inf-01", "path": []}]}',
    '{"entries": [{"kind": "attack", "hex": "0621", "attackers": []}]}',
    '{"entries": [{"kind": "loss", "loss": "destroy", "unit": "x"}]}',
    '{"format": "pgn", "entries": []}',
    '{"version": 2, "entries": []}',
    '{"entries": [], "extra": 1}',
])
def test_json_twin_refuses_what_the_models_refuse(document: str) -> None:
    """Unknown kinds and fields, wrong types, empty paths, other formats and versions are refused."""
    with pytest.raises(LogSyntaxErrors):
        read_json_log(document, "log.json")


LONG_RECEIPT = "umpire1." + "a" * 4089
"""A receipt one character longer than a log may hold."""


@pytest.mark.parametrize(("document", "message", "column"), [
    (' []', 'a JSON log is an object ({"format": "umpire-log", "version": 1, "entries": [...]}), not an array', 2),
    ('{"entries": [1]}', "entries.0: Input should be a valid dictionary or object to extract fields from", 14),
    ('{"entries": [{"kind": "pass", "colour": "red"}]}', "entries.0.pass.colour: Extra inputs are not permitted", 41),
    ('{"entries": [], "extra": 1}', "extra: Extra inputs are not permitted", 26),
    ('{"entries": [{"kind": "income", "declined": "0101"}]}',
     "entries.0.income.declined: Input should be a valid list", 45),
    ('{"entries": [{"kind": "income", "reduced": []}]}',
     "entries.0.income.reduced: Input should be a valid dictionary", 44),
    ('{"entries": {}}', "entries: Input should be a valid list", 13),
    ('{"entries": [{"kind": "turn", "turn": true}]}', "entries.0.turn.turn: Input should be a valid integer", 39),
    ('{"entries": [{"kind": "rolloff", "rolls": {"Allied": 5}, "receipts": ["' + LONG_RECEIPT + '"]}]}',
     "entries.0.rolloff.receipts.0: String should have at most 4096 characters", 71),
    ('{"entries": [{"kind": "attack", "hex": "0101", "attackers": ["a"], "receipts": ["x"]}]}',
     "entries.0.attack.receipts.0: String should match pattern '^umpire1\\.[A-Za-z0-9_-]+$'", 81),
    ('{"entries": [{"turn": 1}]}', "entries.0: Unable to extract tag using discriminator 'kind'", 14),
    ('{"entries": [{"kind": "move", "unit": "u"}]}', "entries.0.move.path: Field required", 14),
])
def test_json_twin_errors_are_worded_as_they_were(document: str, message: str, column: int) -> None:
    """The entries are plain dataclasses now (issue 30): a JSON log's errors still read as the models' did, each
    placed at the value it is about (or at the nearest one the document holds: the entry a key is missing from)."""
    with pytest.raises(LogSyntaxErrors) as caught:
        read_json_log(document, "log.json")
    assert [(str(e.place), e.message) for e in caught.value.errors] == [(f"log.json:1:{column}", message)]


def test_a_json_logs_errors_are_placed_at_their_line_and_column_with_a_suggestion() -> None:
    """Each problem of a JSON log is placed at its line and column, as a text log's are (it named the file alone):
    a misspelt kind at the kind's value with the nearest kind suggested, a wrong value at the value, a missing key at
    its entry; a value inside a string that looks like JSON does not move them."""
    document = (
        '{\n'
        '  "format": "umpire-log",\n'
        '  "entries": [\n'
        '    {"kind": "comment", "text": "a [tricky], {text} \\" here"},\n'
        '    {"kind": "mvoe", "unit": "u", "path": ["0101"]},\n'
        '    {"kind": "turn", "turn": "one"},\n'
        '    {"kind": "move", "unit": "u"}\n'
        '  ]\n'
        '}\n')
    with pytest.raises(LogSyntaxErrors) as caught:
        read_json_log(document, "log.json")
    found = [(str(e.place), e.message) for e in caught.value.errors]
    assert found[0][0] == "log.json:5:14" and found[0][1].endswith("(did you mean 'move'?)")
    assert found[1] == ("log.json:6:30", "entries.2.turn.turn: Input should be a valid integer")
    assert found[2] == ("log.json:7:5", "entries.3.move.path: Field required")


def test_a_receipt_too_long_is_refused_in_the_text_notation() -> None:
    """A receipt over 4096 characters is a syntax error of its line, worded and placed as before the entries
    were plain dataclasses (pydantic refused it then); one of 4096 is read."""
    text = (f"Roll Allied 5 German 4 receipt umpire1.abc receipt {LONG_RECEIPT}\n"
            f"Allied: attack 0101 with x die 3 receipt {LONG_RECEIPT[:-1]}\n")
    entries, errors = parse_text_partly(text, "f.log")
    assert [(str(e.place), e.message) for e in errors] == [
        ("f.log:1:1", "receipts.1: String should have at most 4096 characters")]
    assert [type(e) for e in entries] == [Attack]


# -- errors: exact column and message -------------------------------------------------------------
COMMAND_LIST = ", ".join(COMMANDS)
FIRST_WORD = "expected a unit id, a side followed by ':' or '>', or Turn/Step/Phase/Roll"
ERRORS: list[tuple[str, int, str]] = [
    # sequence of play
    ("Turn x", 6, "expected a turn number, found 'x'"),
    ("Turn", 5, "expected a turn number at the end of the line"),
    ("Turn 1 2", 8, "unexpected '2' at the end of the entry"),
    ("Turn 12345", 6, "expected a turn number, found '12345'"),
    ("Turn 1#x", 6, "expected a turn number, found '1#x'"),
    ("Turn 1.5", 6, "expected a turn number, found '1.5'"),
    ("Step", 5, "expected a step or phase id at the end of the line"),
    ("Step #action", 5, "expected a step or phase id at the end of the line"),
    ("Phase mobile combat", 14, "unexpected 'combat' at the end of the entry"),
    ("Step _x", 6, "expected a step or phase id, found '_x'"),
    ("Roll", 5, "expected each side's die roll, e.g. Roll Allied 5 German 4"),
    ("Roll allied 5", 6, "expected a side, found 'allied'"),
    ("Roll Allied five", 13, "expected Allied's die roll, found 'five'"),
    ("Roll Allied 5 German", 21, "expected German's die roll at the end of the line"),
    ("Roll Allied 5 German 4 German", 24, "German rolls once in a roll-off"),
    ("Roll Allied 5 Allied 4", 15, "Allied rolls once in a roll-off"),
    ("Roll Allied -5", 13, "expected Allied's die roll, found '-5'"),
    ("Turn -1", 6, "expected a turn number, found '-1'"),
    # headers (the column of the '[')
    ("[Game onslaught]", 1, 'expected a header like [Game "onslaught"]'),
    ('  [Game "onslaught"', 3, 'expected a header like [Game "onslaught"]'),
    ('[Game "onslaught"] extra', 1, 'expected a header like [Game "onslaught"]'),
    ('[1Game "x"]', 1, 'expected a header like [Game "onslaught"]'),
    ('[Game"onslaught"]', 1, 'expected a header like [Game "onslaught"]'),
    ('[Game "on"slaught"]', 1, 'expected a header like [Game "onslaught"]'),
    ("[", 1, 'expected a header like [Game "onslaught"]'),
    # the first word
    (":pass", 1, f"{FIRST_WORD}, found ':pass'"),
    ("Allied advance us-inf-01 0620-0720", 7, "expected ':' (or '>') after the side: write 'Allied: advance ...'"),
    ("allied: pass", 1, "a side is written with a capital: 'Allied:'"),
    ("Allied:pass", 8, "a space after the side: write 'Allied: pass ...'"),
    ("Allied us-inf-01 0620", 18, "unexpected '0620' at the end of the entry"),
    ("us-inf-01", 10, "expected a path of hexes (HEX-HEX-...) after the unit at the end of the line"),
    ("us-inf-01 strategic", 20, "expected a path of hexes (HEX-HEX-...) after the unit at the end of the line"),
    ("us-inf-01 0620-", 11, "'0620-' is not a path of hexes (HEX-HEX-...)"),
    ("us-inf-01 0620-0520 0420", 21, "unexpected '0420' at the end of the entry"),
    ("us-inf-01 0620,0520", 11, "expected a path of hexes (HEX-HEX-...) after the unit, found '0620,0520'"),
    ("de-inf-24 strategc 3201-3202-3203", 11, "unknown word 'strategc' before the path (did you mean 'strategic'?)"),
    ("German: move de-inf-24 stratgeic 3201-3202", 24,
     "unknown word 'stratgeic' before the path (did you mean 'strategic'?)"),
    # commands
    ("Allied:", 8, f"expected a command ({COMMAND_LIST}) at the end of the line"),
    ("Allied: atack 0621 with us-inf-01", 9, "unknown command 'atack' (did you mean 'attack'?)"),
    ("Allied: Pass", 9, "unknown command 'Pass' (did you mean 'pass'?)"),
    ("Allied: mvoe us-inf-01 0620-0520", 9, "unknown command 'mvoe' (did you mean 'move'?)"),
    ("German> retret de-inf-04 0621-0622", 9, "unknown command 'retret' (did you mean 'retreat'?)"),
    ("Allied: frobnicate", 9, "unknown command 'frobnicate'"),
    ("Allied: action", 15, "expected an action type at the end of the line"),
    ("Allied: action combat supply", 29, "expected a number after 'supply' at the end of the line"),
    ("Allied: action combat supply five", 30, "expected a number after 'supply', found 'five'"),
    ("Allied: action combat supply -1", 30, "expected a number after 'supply', found '-1'"),
    ("Allied: action combat breakthrough", 23, "unexpected 'breakthrough' at the end of the entry"),
    ("Allied: pass now", 14, "unexpected 'now' at the end of the entry"),
    ("Allied: activate", 17, "expected a hex at the end of the line"),
    ("Allied: activate 0620 move-first supply 1", 34,
     "unexpected 'supply': options come in the order 'supply', 'move-first or attack-first'"),
    ("Allied: activate 0620 us-inf-01 3:1", 33, "expected a unit id, found '3:1'"),
    ("Allied: attack 0621 us-inf-01", 21, "expected 'with' and the attacking units"),
    ("Allied: attack 0621", 20, "expected 'with' and the attacking units"),
    ("Allied: attack", 15, "expected the defending hex at the end of the line"),
    ("Allied: attack 0621 with", 25, "expected the attacking units after 'with'"),
    ("Allied: attack 0621 with odds 3:1", 26, "expected the attacking units after 'with'"),
    ("Allied: attack 0621 with us-inf-01 odds 3-1", 41, "expected odds like 3:1, found '3-1'"),
    ("Allied: attack 0621 with us-inf-01 odds +3", 41, "expected odds like 3:1, found '+3'"),
    ("Allied: attack 0621 with us-inf-01 diff 3:1", 41, "expected a differential like +3, found '3:1'"),
    ("Allied: attack 0621 with us-inf-01 diff", 40, "expected a differential like +3 at the end of the line"),
    ("Allied: attack 0621 with us-inf-01 die six", 40, "expected a number after 'die', found 'six'"),
    ("Allied: attack 0621 with us-inf-01 die -2", 40, "expected a number after 'die', found '-2'"),
    ("Allied: attack 0621 with us-inf-01 result DE+", 43,
     "expected a result code (as on the table, e.g. DR, (A), -), found 'DE+'"),
    ("Allied: attack 0621 with us-inf-01 result", 42,
     "expected a result code (as on the table, e.g. DR, (A), -) at the end of the line"),
    ("Allied: attack 0621 with us-inf-01 die 4 odds 3:1", 42,
     "unexpected 'odds': options come in the order 'odds or diff', 'die', 'reroll', 'result', 'defender', 'support', 'receipt'"),
    ("Allied: bombard 2117 die 3 support us_sf_5 defender 914/352", 44,
     "unexpected 'defender': options come in the order 'diff', 'die', 'reroll', 'result', 'defender', 'support', 'receipt'"),
    ("Allied: attack 2117 with 16/1 support us_sf_5 die 3", 47,
     "unexpected 'die': options come in the order 'odds or diff', 'die', 'reroll', 'result', 'defender', 'support', 'receipt'"),
    ("Allied: attack 0621 with us-inf-01 odds 3:1 diff +1", 45,
     "unexpected 'diff': options come in the order 'odds or diff', 'die', 'reroll', 'result', 'defender', 'support', 'receipt'"),
    ("Allied: attack 0621 with us-inf-01 3:1", 36, "expected a unit id, found '3:1'"),
    ("Allied: attack 2218 with 16/1 support +6", 39,
     "expected a support fire marker id (as markers.toml names it), found '+6': the log names the markers; their "
     "strength comes from the marker's data, not from the log"),
    ("Allied: bombard 2218 support 3:1", 30, "expected a support fire marker id (as markers.toml names it), found '3:1'"),
    ("Allied: draw us_sf_6 3:1", 22, "expected a support fire marker id (as markers.toml names it), found '3:1'"),
    ("Allied: income 5 decline 3:1", 26, "expected a supply source declined, found '3:1'"),
    ("Allied: move us-inf-01", 23, "expected a path of hexes (HEX-HEX-...) at the end of the line"),
    ("German> retreat de-inf-05", 26, "expected a path of hexes (HEX-HEX-...) at the end of the line"),
    ("German> retreat de-inf-05 0821--0823", 27, "'0821--0823' is not a path of hexes (HEX-HEX-...)"),
    ("German> retreat", 16, "expected a unit id at the end of the line"),
    ("Allied: advance br-inf-02 0820-0821 0722", 37, "unexpected '0722' at the end of the entry"),
    ("German> deplete", 16, "expected a unit id at the end of the line"),
    ("German> eliminate de-inf-05 de-inf-04", 29, "unexpected 'de-inf-04' at the end of the entry"),
    ("German> stand", 14, "expected the units that stand fast"),
    ("Allied: reinforce", 18, "expected a unit id at the end of the line"),
    ("Allied: reinforce us-inf-03 0620 0720", 34, "unexpected '0720' at the end of the entry"),
    ("Allied: reinforce us-inf-03 full 0620", 34, "unexpected '0620' at the end of the entry"),
    ("German: replace de-inf-05 supply 1 points 2", 36,
     "unexpected 'points': options come in the order 'points', 'supply'"),
    ("German: replace de-inf-05 full 2314 points", 43, "expected a number after 'points' at the end of the line"),
    ("Allied: income twelve", 16, "unexpected 'twelve' at the end of the entry"),
    ("Allied: income -3", 16, "unexpected '-3' at the end of the entry"),
    ("German: capture 0620 points -2", 29, "expected a number after 'points', found '-2'"),
    ("German: capture", 16, "expected a hex at the end of the line"),
    ("German: capture 0620 points two", 29, "expected a number after 'points', found 'two'"),
    ("German: declare", 16, "expected what is declared at the end of the line"),
    ("German: declare bulge now", 23, "unexpected 'now' at the end of the entry"),
    ("Allied: income 10 reduce 0620", 30, "expected the points collected from 0620 at the end of the line"),
    ("Allied: income 10 reduce", 25, "expected a supply source at the end of the line"),
    # columns of missing words are one past the line's last word (a comment after it is not counted)
    ("  Turn", 7, "expected a turn number at the end of the line"),
    ("Turn   ", 5, "expected a turn number at the end of the line"),
    ("Allied: attack 0621 # with us-inf-01", 20, "expected 'with' and the attacking units"),
    ("Allied: attack 0621 with   # us-inf-01", 25, "expected the attacking units after 'with'"),
]


@pytest.mark.parametrize(("text", "column", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_error_column_and_message(text: str, column: int, message: str) -> None:
    """Each malformed line gives one error with the exact column and message."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line(text, 4, "game.log")
    assert not isinstance(caught.value, LogSyntaxErrors)
    assert caught.value.message == message
    assert caught.value.place == ErrorPlace("game.log", 4, column)
    assert 1 <= column <= len(text) + 1


def test_all_errors_of_a_file_are_reported_at_once() -> None:
    """One error per malformed line, in line order; good lines around them do not hide them."""
    text = "\n".join([
        '[Game "onslaught"]',
        "Turn x",
        "Step action",
        "Allied: atack 0621 with us-inf-01",
        "",
        "Allied: attack 0621 us-inf-01 die 4 odds 3:1",
        "us-inf-01 0620-0520",
        "Roll Allied 5 German",
        "[Date 2024]",
    ])
    with pytest.raises(LogSyntaxErrors) as caught:
        parse_text(text, "exchange.log")
    found = [(e.place.line, e.place.column, e.message) for e in caught.value.errors if e.place]
    assert found == [
        (2, 6, "expected a turn number, found 'x'"),
        (4, 9, "unknown command 'atack' (did you mean 'attack'?)"),
        (6, 21, "expected 'with' and the attacking units"),
        (8, 21, "expected German's die roll at the end of the line"),
        (9, 1, 'expected a header like [Game "onslaught"]'),
    ]
    assert all(e.place is not None and e.place.file == "exchange.log" for e in caught.value.errors)
    assert caught.value.message == "5 error(s) in the log"
    assert isinstance(caught.value, LogSyntaxError) and isinstance(caught.value, WargameError)


def test_a_single_bad_line_is_still_a_list() -> None:
    """parse_text always raises the collecting error, even for one problem."""
    with pytest.raises(LogSyntaxErrors) as caught:
        parse_text("Turn")
    assert len(caught.value.errors) == 1
    assert caught.value.errors[0].place == ErrorPlace("<log>", 1, 5)


# -- caret messages ------------------------------------------------------------------------------
def test_caret_under_the_offending_word() -> None:
    """`file:line:col: error: message`, the source line indented by four, a caret under the column."""
    source = ['[Game "onslaught"]', "Turn x"]
    error = LogSyntaxError("expected a turn number, found 'x'", ErrorPlace("game.log", 2, 6))
    assert caret_message(error, source) == (
        "game.log:2:6: error: expected a turn number, found 'x'\n"
        "    Turn x\n"
        "         ^")


def test_caret_one_past_the_end_for_a_missing_word() -> None:
    """An error about a missing word puts the caret just after the line's last character."""
    source = ["Allied: attack 0621"]
    with pytest.raises(LogSyntaxErrors) as caught:
        parse_text(source[0], "x.log")
    assert caret_message(caught.value.errors[0], source) == (
        "x.log:1:20: error: expected 'with' and the attacking units\n"
        "    Allied: attack 0621\n"
        "                       ^")


def test_caret_messages_for_every_error_of_a_file() -> None:
    """Each collected error renders against the file's own lines."""
    text = "Turn x\n  Allied: atack 0621\n"
    with pytest.raises(LogSyntaxErrors) as caught:
        parse_text(text, "t.log")
    rendered = [caret_message(e, text.splitlines()) for e in caught.value.errors]
    assert rendered == [
        "t.log:1:6: error: expected a turn number, found 'x'\n    Turn x\n         ^",
        "t.log:2:11: error: unknown command 'atack' (did you mean 'attack'?)\n"
        "      Allied: atack 0621\n"
        "              ^",
    ]


@pytest.mark.parametrize(("place", "expected"), [
    (None, "error: bad"),
    (ErrorPlace("g.log"), "g.log: error: bad"),
    (ErrorPlace("g.log", 3), "g.log:3: error: bad\n    third\n    ^"),
    (ErrorPlace("g.log", 9, 2), "g.log:9:2: error: bad"),
    (ErrorPlace("g.log", 0, 2), "g.log:0:2: error: bad"),
    (ErrorPlace(None, 1, 3), "<input>:1:3: error: bad\n    first\n      ^"),
])
def test_caret_message_without_a_usable_line(place: ErrorPlace | None, expected: str) -> None:
    """No place, no line or a line outside the source: the message alone; no column: caret at 1."""
    assert caret_message(LogSyntaxError("bad", place), ["first", "second", "third"]) == expected


# -- the documentation ----------------------------------------------------------------------------
def _blocks(info: str) -> list[str]:
    return re.findall(rf"^```{info}\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_every_log_example_in_the_documentation_parses() -> None:
    """The ```log blocks of docs/log-format.md are valid logs that survive a round trip."""
    blocks = _blocks("log")
    assert len(blocks) >= 3
    for block in blocks:
        entries = parse_text(block, "docs/log-format.md")
        assert bare(parse_text(write_text(entries))) == bare(entries)
        assert read_json_log(write_json_log(entries), "log.json") == entries


def test_documented_turn_one_is_the_rule_4_1_example() -> None:
    """The complete example has the shape of 4.1: 5 + 7 Allied supply, 4 + 3 German, the roll-offs."""
    block = next(b for b in _blocks("log") if "Step reinforcement" in b)
    entries = parse_text(block)
    actions = [(e.side, e.action, e.supply) for e in entries if isinstance(e, Action)]
    assert actions == [("Allied", "combat", 5), ("Allied", "movement", 7), ("German", "movement", 4)]
    rolls = [e.rolls for e in entries if isinstance(e, RollOff)]
    assert rolls == [{"Allied": 5, "German": 4}, {"Allied": 5, "German": 1}, {"Allied": 1, "German": 3},
                     {"Allied": 5, "German": 5}]
    attacks = [e for e in entries if isinstance(e, Attack)]
    assert len(attacks) == 3
    steps = [e.step for e in entries if isinstance(e, StepMarker)]
    assert steps == ["action", "german_reserve", "reinforcement"]
    headers = {e.key: e.value for e in entries if isinstance(e, Header)}
    assert headers["Game"] == "onslaught" and headers["DiceSeed"] == SEED
    incomes = {e.side: e.points for e in entries if isinstance(e, Income)}
    assert incomes == {"German": 8, "Allied": 12}


def test_json_examples_in_the_documentation_validate() -> None:
    """Every JSON log document shown in docs/log-format.md is accepted by the models."""
    documents = [b for b in _blocks("json") if '"format": "umpire-log"' in b]
    assert documents
    for block in documents:
        read_json_log(block, "docs/log-format.md")


def test_documentation_names_every_command() -> None:
    """The grammar in the documentation lists every command the parser knows."""
    grammar = _blocks("ebnf")
    assert len(grammar) == 1
    for command in COMMANDS:
        assert f'"{command}"' in grammar[0], command


# -- parser bugs found by these tests, now fixed -------------------------------------------------
def test_negative_turn_is_a_syntax_error() -> None:
    """A negative turn number is a syntax error placed on the number, like any other bad word."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line("Turn -1", 1)
    assert caught.value.place is not None and caught.value.place.column == 6


def test_no_effect_result_can_be_written() -> None:
    """`result -` records the no-effect result of both combat tables."""
    assert parse_line("Allied: attack 0320 with us-para-01 die 3 result -", 1) == Attack(
        line=1, side="Allied", hex="0320", attackers=["us-para-01"], die=3, result="-")


def test_bracketed_result_can_be_written() -> None:
    """`result (A)` records Fire & Movement's attacker-loss result."""
    entry = parse_line("Allied: attack 2218 with 16/1 diff 0 die 4 result (A)", 1)
    assert isinstance(entry, Attack) and entry.result == "(A)"


def test_header_value_with_a_trailing_backslash_round_trips() -> None:
    """Any header value survives write_text and parse_text."""
    entries: list[Entry] = [Header(key="Note", value="C:\\logs\\"), Header(key="Note", value='say \\"hi\\"')]
    assert bare(parse_text(write_text(entries))) == bare(entries)


def test_a_side_rolls_once_in_a_roll_off() -> None:
    """`Roll Allied 5 Allied 4` is an error on the second 'Allied'."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line("Roll Allied 5 Allied 4", 1)
    assert caught.value.place is not None and caught.value.place.column == 15


def test_header_line_takes_a_trailing_comment() -> None:
    """Comments may follow any entry, headers included."""
    assert parse_line('[Game "onslaught"]  # the game', 1) == Header(line=1, key="Game", value="onslaught")


def test_entries_compare_hash_and_print_as_dataclasses() -> None:
    """Entry's own equality, hash and repr (written once for every kind) behave as the generated ones would."""
    move = Move(line=3, unit="u", path=["0101", "0102"])
    assert move == Move(line=3, unit="u", path=["0101", "0102"])
    assert move != Move(line=4, unit="u", path=["0101", "0102"])
    assert Retreat(unit="u", path=["0101"]) != Advance(unit="u", path=["0101"]) and Pass() != object()
    assert hash(Pass(side="Allied")) == hash(Pass(side="Allied"))
    assert repr(move) == ("Move(line=3, column=1, side=None, by_opponent=False, kind='move', unit='u', "
                          "path=['0101', '0102'], strategic=False)")


def test_an_entry_amended_keeps_the_fields_its_kind_has() -> None:
    """`amended` changes the fields an entry's kind has and leaves out the others (a comment beside an attack on
    one VASSAL step has no die), as pydantic's model_copy once did without complaint."""
    attack = Attack(line=7, hex="0621", attackers=["us-inf-01"])
    assert amended(attack, die=5, receipts=["umpire1.abc"]) == Attack(line=7, hex="0621", attackers=["us-inf-01"],
                                                                      die=5, receipts=["umpire1.abc"])
    assert amended(Comment(line=7, text="a note"), die=5) == Comment(line=7, text="a note")


def test_a_reroll_is_written_and_read_in_both_forms() -> None:
    """`die N reroll N` (a VASSAL log's die rolled again, its result carried out) reads back from the text and the
    JSON twin; a combat without one keeps its JSON form (and a seal's hash) as before the field."""
    text = ('[Game "omaha"]\nAllied: attack 2218 with 16/1 die 4 reroll 1 result D2\n'
            "German: bombard 2319 die 2 reroll 3 result D2 support de_sf_9\nAllied: attack 2218 with 16/1 die 4\n")
    entries = parse_text(text)
    assert [getattr(e, "reroll", None) for e in entries] == [None, 1, 3, None]
    assert read_json_log(write_json_log(entries), "log.json") == entries and write_text(entries) == text
    assert [("reroll" in e) for e in json.loads(write_json_log(entries))["entries"][1:]] == [True, True, False]
