"""Issue 26 item 4: after a wrong result claim the verdict says what the table gives and what must be carried
out; it never also tells the player to carry out the claimed result (Onslaught, Fire & Movement, the classic
series)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.cli import adjudicate_file

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ONSLAUGHT = """[Game "onslaught"]
Turn 1
Step action
Allied: action combat supply 1
Allied: activate 0620 supply 1
Allied: attack 0621 with us-inf-01 us-inf-02 odds 2:1 die 5 result DE
"""
"""2:1 against bocage, die 5 - 1 = 4: the table gives DR; DE is claimed."""


def messages(tmp_path: Path, text: str) -> list[tuple[str, str, str]]:
    """(severity, rule, message) of every finding after the claim, of a log written to a file."""
    path = tmp_path / "game.log"
    path.write_text(text, encoding="utf-8")
    result, _ = adjudicate_file(path, None)
    claim = next(n for n, line in enumerate(text.splitlines(), 1) if " result " in line.split("#")[0])
    return [(f.severity, f.rule, f.message) for f in result.findings if f.line != claim or f.severity == "note"]


def test_onslaught_owes_the_tables_result(tmp_path: Path) -> None:
    """Onslaught 7.2: nothing carried out at the log's end, the claim half done as the action ends, or an
    entry that fits neither result: each names the table's DR, never the claimed DE."""
    for text in (ONSLAUGHT, ONSLAUGHT + "German> deplete de-inf-04\nRoll Allied 5 German 2\n"):
        found = messages(tmp_path, text)
        owed = [m for _, _, m in found if "not carried out" in m]
        assert owed and all("result DR" in m and "must retreat two hexes" in m for m in owed), found
        assert not any("DE" in m for _, _, m in found), found
    # A retreat of one hex fits neither DE nor DR: it is judged by the table's DR.
    found = messages(tmp_path, ONSLAUGHT + "German> retreat de-inf-04 0621-0622\n")
    assert found and not any("DE" in m for _, _, m in found), found


def test_fire_and_movement_owes_the_tables_result(tmp_path: Path) -> None:
    """F&M 8.2.4: a claimed Ex (the table gives D2) with nothing carried out when the log ends: the note asks
    for the D2's retreat, not the exchange's reductions."""
    text = (EXAMPLES / "omaha" / "breach-claimed-result.log").read_text(encoding="utf-8")
    claim = next(line for line in text.splitlines() if "result Ex" in line)
    found = messages(tmp_path, text[:text.index(claim) + len(claim)] + "\n")
    owed = [m for _, _, m in found if "not carried out" in m]
    assert owed and all("result D2" in m and "must retreat 2 hexes" in m for m in owed), found
    assert not any("Ex" in m for m in owed), found


def test_classic_owes_the_tables_result(tmp_path: Path) -> None:
    """Battle for Moscow 8.0: a claimed DE (the table gives DR) left undone as the phase ends: the error asks
    for the DR's retreat, not the DE's step loss."""
    text = (EXAMPLES / "moscow" / "breach-result.log").read_text(encoding="utf-8").replace("result NE", "result DE")
    found = messages(tmp_path, text + "Phase german_movement\n")
    assert [(s, r) for s, r, _ in found] == [("error", "8.1")], found
    assert "after the DR on 0302" in found[0][2] and "DE" not in found[0][2]
