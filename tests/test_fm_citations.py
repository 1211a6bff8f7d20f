"""Fire & Movement, session 24's audit of the clauses cited: each error names the clause the entry breaks, and one
slip is one error (the markers a draw brought placed as drawn are that draw's breach)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.findings import Finding
from fm_log import EXAMPLES, lines_of, log_findings

SAMPLE = EXAMPLES / "legal-sample-game.log"


def edited(replacements: dict[str, str]) -> list[str]:
    """The sample game's lines with each line that reads a key (comments aside) replaced by its value."""
    return [replacements.get(line.split("#")[0].strip(), line.rstrip("\n")) + "\n" if line.split("#")[0].strip()
            in replacements else line for line in lines_of(SAMPLE)]


def errors(found: list[Finding]) -> list[tuple[str, str]]:
    """(rule, message) of every error."""
    return [(f.rule, f.message) for f in found if f.severity == "error"]


def test_three_markers_drawn_for_a_bombardment_are_one_error_of_8_1(tmp_path: Path) -> None:
    """8.1 (8.1.2's step 2): a bombardment takes two markers at most. Three drawn for one is 8.1's error, on the draw
    (it cited 8.2.1 b, ground combat's procedure); placed as drawn, the bombardment is that breach (a note: it was
    two more errors, 8.2.1 b's and 8.1's)."""
    found = log_findings(tmp_path, edited({
        "Allied: draw us_sf_9 us_sf_8": "Allied: draw us_sf_9 us_sf_8 us_sf_7",
        "Allied: bombard 2218 diff +13 die 4 result D2 support us_sf_9 us_sf_8":
            "Allied: bombard 2218 diff +13 die 4 result D2 support us_sf_9 us_sf_8 us_sf_7"}))
    assert errors(found) == [("8.1", "Allied has drawn us_sf_9 us_sf_8 us_sf_7 for one bombardment; at most two "
                                     "markers (8.1)")]


def test_three_markers_drawn_for_a_combat_and_placed_are_one_error(tmp_path: Path) -> None:
    """8.2.1 b: three markers of a side drawn for one combat is the draw's error; placed as drawn, the attack's count
    is a note (it was a second 8.2.1 b error)."""
    found = log_findings(tmp_path, edited({
        "Allied: draw us_sf_3": "Allied: draw us_sf_3 us_sf_2",
        "Allied: attack 2119 with 175/29 116/29 diff +8 die 5 result Ex support us_sf_5 de_sf_4 us_sf_3":
            "Allied: attack 2119 with 175/29 116/29 diff +8 die 5 result Ex support us_sf_5 de_sf_4 us_sf_3 us_sf_2"}))
    assert [rule for rule, _ in errors(found)] == ["8.2.1b"]
    assert "has drawn us_sf_5 us_sf_3 us_sf_2" in errors(found)[0][1]
