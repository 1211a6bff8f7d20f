"""An attack on several hexes at once in the text notation (`attack 0621+0622 with ...`) and its JSON twin: every
log written before it parses, converts and seals as it did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.engine import resolve
from adjudicator.notation.entries import Attack, entry_data
from adjudicator.notation.jsonlog import log_data, read_json_log, write_json_log
from adjudicator.notation.text import LogSyntaxErrors, iter_units_and_hexes, parse_line, parse_text, write_text
from adjudicator.seal import entry_digest
from wargame.errors import LogSyntaxError
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent
LINE = "Allied: attack 0621+0622 with us-inf-01 us-inf-02 odds 2:1 die 5 result DR"


def test_several_hexes_parse_and_are_written_back() -> None:
    """The hexes joined by '+' are the attack's: the first in `hex`, the others in `more_hexes`."""
    entry = parse_line(LINE, 1)
    assert isinstance(entry, Attack)
    assert entry.hex == "0621" and entry.more_hexes == ["0622"] and entry.defending_hexes() == ("0621", "0622")
    assert write_text([entry]) == LINE + "\n"
    three = parse_line("German: attack 0303+0304+0305 with ge-vi", 1)
    assert isinstance(three, Attack) and three.defending_hexes() == ("0303", "0304", "0305")
    assert ("hex", "0622") in list(iter_units_and_hexes(entry))


def test_a_one_hex_attack_is_unchanged_in_json_and_in_its_seal() -> None:
    """A one-hex attack's JSON has no `more_hexes` key, so converted logs and seals made before read the same."""
    one = parse_line("Allied: attack 0621 with us-inf-01 die 5", 1)
    assert isinstance(one, Attack) and one.more_hexes == []
    assert "more_hexes" not in entry_data(one) and "more_hexes" not in write_json_log([one])
    # The digest the entry had before an attack could name several hexes.
    assert entry_digest(one) == "6b451130992bb887de1806f8f469f65832009e275e6295009caf7d176f4de653"


def test_json_twin_carries_several_hexes() -> None:
    """Text -> JSON -> text keeps every hex; the JSON form lists the further hexes, typed and strict."""
    entries = parse_text(LINE + "\n")
    text = json.dumps(log_data(entries))
    assert json.loads(text)["entries"][0]["more_hexes"] == ["0622"]
    back = read_json_log(text, "log.json")
    assert back == entries and write_text(back) == LINE + "\n"
    bad = text.replace('["0622"]', '"0622"')
    with pytest.raises(LogSyntaxErrors):
        read_json_log(bad, "log.json")


@pytest.mark.parametrize(("text", "column", "message"), [
    ("Allied: attack 0621+ with us-inf-01", 16, "'0621+' is not a hex or hexes joined by '+' (HEX+HEX)"),
    ("Allied: attack 0621++0622 with us-inf-01", 16, "'0621++0622' is not a hex or hexes joined by '+' (HEX+HEX)"),
    ("Allied: attack +0621 with us-inf-01", 16, "expected the defending hex, found '+0621'"),
])
def test_a_malformed_list_of_hexes_is_a_syntax_error(text: str, column: int, message: str) -> None:
    """Each malformed list of hexes is one error at its word."""
    with pytest.raises(LogSyntaxError) as caught:
        parse_line(text, 1)
    assert caught.value.place.column == column and caught.value.message == message


def test_an_unknown_further_hex_is_named_with_a_suggestion() -> None:
    """Every hex of the attack is resolved against the map, the further ones too ("did you mean")."""
    game = load_game(ROOT, "moscow")
    errors = resolve(game, parse_text("German: attack 0303+0330 with ge-vi\n"), "log")
    assert len(errors) == 1 and "0330" in errors[0].message
