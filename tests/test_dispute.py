"""`adjudicate combat` settles disputes (issue 16 item 4): every combat listed with whether its claims hold,
the claims against the computation, bombardments, what-ifs, impossible what-ifs refused, printed column
headings, retreat and advance options, the chance of each result, the formats."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main

ROOT = Path(__file__).resolve().parent.parent
ONSLAUGHT = ROOT / "examples" / "onslaught"
OMAHA = ROOT / "examples" / "omaha"
SAMPLE = ONSLAUGHT / "legal-sample-game.log"
OMAHA_SAMPLE = OMAHA / "legal-sample-game.log"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["combat", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_without_at_every_combat_is_listed_with_its_line_and_verdict() -> None:
    code, out, _ = run(SAMPLE)
    assert code == 0
    attacks = [n for n, line in enumerate(SAMPLE.read_text(encoding="utf-8").splitlines(), 1)
               if ": attack " in line and not line.startswith("#")]
    listed = [int(line.split(":")[1]) for line in out.splitlines()[:-1]]
    assert listed == attacks and all(line.endswith("claims hold") for line in out.splitlines()[:-1])
    assert out.splitlines()[-1] == f"{len(attacks)} combat(s) and bombardment(s): {len(attacks)} hold, 0 do not"


def test_a_list_names_the_claim_that_does_not_hold() -> None:
    log = ONSLAUGHT / "breach-odds.log"
    code, out, _ = run(log)
    assert code == 1
    assert f"{log}:7: attack on 0621 by us-inf-01 us-inf-02 (odds 3:1, die 5, result DR): claims do not hold: " \
           "odds: the log claims 3:1, the computation gives 2:1; 1 rule breach(es) on this line" in out


def test_at_compares_each_claim_with_the_computation() -> None:
    log = ONSLAUGHT / "breach-result.log"
    code, out, _ = run(log, "--at", "8")
    assert code == 1
    assert "result: the log claims DE, but die 5 on column 2:1 gives DR" in out
    assert "error [onslaught 7.2]" in out and out.rstrip().endswith("verdict: claims do not hold: result: the log "
                                                                    "claims DE, but die 5 on column 2:1 gives DR; "
                                                                    "1 rule breach(es) on this line")
    code, out, _ = run(SAMPLE, "--at", line_of(SAMPLE, "attack 0319"))
    assert code == 0 and "claims: the log's odds, die and result are the computation's" in out


def test_every_face_its_chance_and_the_columns_that_change_it() -> None:
    code, out, _ = run(SAMPLE, "--at", line_of(SAMPLE, "attack 0319"))
    assert code == 0
    # 12 against 4 is 3:1, the bocage's -1 (7.1): the faces read the 3:1 column one row lower.
    assert "each face of the die: 1: AH, 2: AH, 3: -, 4: DR, 5: DH, 6: DH" in out
    assert "chance of each result: AH 2/6 (33%), - 1/6 (17%), DR 1/6 (17%), DH 2/6 (33%)" in out
    assert "one column up, 4:1 (an attack of 16 against 4): die 4: DH instead of DR" in out
    assert "one column down, 2:1 (an attack under 12 against 4): die 4: - instead of DR" in out
    assert "7.3 retreat:" in out and "7.4 advance: if 0319 is left empty" in out


def test_die_asks_what_if_with_a_log_and_is_refused_without_at() -> None:
    line = line_of(SAMPLE, "attack 0319")
    code, out, _ = run(SAMPLE, "--at", line, "--die", "1")
    assert code == 0
    assert "7.1: die 1 - 1 = 0" in out and "what if the die had been 1: AH (the log's die 4 gives DR)" in out
    # The what-if's result moves no defender: no retreat of the log's DR, no advance into a hex still held.
    assert "7.3 retreat: none (result AH: no defender retreats)" in out and "two hexes to" not in out
    assert "7.4 advance: none (result AH: 0319 stays held)" in out
    code, _, err = run(SAMPLE, "--die", "1")
    assert code == 2 and "name the combat with --at LINE" in err


def test_at_a_line_without_a_combat_names_the_lines_that_have_one() -> None:
    code, _, err = run(ONSLAUGHT / "breach-odds.log", "--at", "2")
    assert code == 2 and "no attack or bombardment on line 2" in err and "the combats are on lines 7" in err


def test_impossible_what_ifs_are_refused_with_the_reason() -> None:
    base = ["--game", "onslaught", "--attack", "us-inf-01@0419"]
    code, _, err = run(*base, "--defend", "de-inf-02@0919")
    assert code == 2 and "us-inf-01 at 0419 is not adjacent to 0919" in err
    code, _, err = run("--game", "onslaught", "--attack", "de-inf-01@0419", "--defend", "de-inf-02@0319")
    assert code == 2 and "attackers and defenders are all German" in err
    code, _, err = run(*base, "--defend", "us-inf-01@0319")
    assert code == 2 and "us-inf-01 cannot attack and defend in the same combat" in err
    code, _, err = run(*base, "--attack", "de-inf-01@0420", "--defend", "de-inf-02@0319")
    assert code == 2 and "the attackers are of Allied and German" in err
    code, out, _ = run(*base, "--defend", "de-inf-02@0319", "--die", "4")
    assert code == 0 and "7.2: column 1:1, row 3: AH" in out


def test_fire_and_movement_prints_the_tables_headings_and_the_options() -> None:
    line = line_of(OMAHA_SAMPLE, "attack 2216 with CCA/2 CCB/2")
    code, out, _ = run(OMAHA_SAMPLE, "--at", line)
    assert code == 0, out
    # The column as the chart prints it: the heading over the die rolls (c11), and the line's cell (+8,+9).
    assert "line Mixed, Clear, Desert, Stream, column c11 (+8,+9) (8.2.2)" in out
    assert "each face of the die: 1: De, 2: D3, 3: D2, 4: D2, 5: Ex, 6: Ex" in out
    assert "8.3 D3: 352/352 retreats 3 hexes to " in out and "stiff resistance" in out
    assert "8.5: after D2, D3 or De, the attackers (CCA/2, CCB/2) may advance into 2216" in out


def test_bombardments_are_listed_and_audited() -> None:
    code, out, _ = run(OMAHA_SAMPLE)
    assert code == 0
    assert f"{OMAHA_SAMPLE}:266: bombardment of 1918 with de_sf_1 (diff -3, die 3, result -): claims hold" in out
    code, out, _ = run(OMAHA_SAMPLE, "--at", "266")
    assert code == 0
    assert "8.1.3: in a bombardment (A) is no effect" in out and "chance of each result: - 6/6 (100%)" in out
    assert "8.5: no advance after a bombardment" in out


def test_formats() -> None:
    line = line_of(SAMPLE, "attack 0319")
    code, out, _ = run(SAMPLE, "--at", line, "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["line"] == line and doc["holds"] is True
    assert doc["computed"] == {"odds": "3:1", "column": "3:1", "die": 4, "result": "DR", "effect": None}
    assert doc["claimed"] == {"odds": "3:1", "die": 4, "result": "DR"}
    assert doc["probabilities"] == {"AH": 0.3333, "-": 0.1667, "DR": 0.1667, "DH": 0.3333}
    code, out, _ = run(ONSLAUGHT / "breach-odds.log", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and [c["differences"] for c in doc["combats"]] == [
        ["odds: the log claims 3:1, the computation gives 2:1"]]
    code, out, _ = run(SAMPLE, "--at", line, "--format", "markdown")
    assert code == 0 and out.startswith("# attack on 0319") and "| 4 | DR |" in out and "| DH | 2/6 (33%) |" in out
    code, out, _ = run(SAMPLE, "--format", "markdown")
    assert out.startswith(f"# Combats of {SAMPLE}") and f"| {line} | attack on 0319" in out


def test_one_document_gives_every_format_the_same_facts() -> None:
    """The audits are one document (`CombatReport`) with a renderer per format: each combat's headline and
    verdict are the document's, the same in text, JSON and Markdown, and the command prints the renderers' output."""
    from adjudicator.dispute import RENDERERS
    from adjudicator.markdown_escape import text as md_text
    code, listed, _ = run(ONSLAUGHT / "breach-odds.log", "--format", "json")
    combats = json.loads(listed)["combats"]
    assert code == 1 and set(RENDERERS) == {"text", "json", "markdown"}
    text = run(ONSLAUGHT / "breach-odds.log")[1]
    markdown = run(ONSLAUGHT / "breach-odds.log", "--format", "markdown")[1]
    for combat in combats:
        verdict = "claims do not hold: " + "; ".join(combat["differences"])
        assert f":{combat['line']}: attack on {combat['hex']} by " in text and f": {verdict}" in text
        assert f"| {combat['line']} | attack on {combat['hex']} by " in markdown
        assert f"| {md_text(verdict)}" in markdown


def test_a_game_of_exchanges_is_audited_with_each_exchanges_lines() -> None:
    game = ROOT / "examples" / "pbem" / "changed-die"
    code, out, _ = run(game)
    assert code == 1
    assert f"{game / '02-turn-2.log'}:13: attack on 0319 by us-inf-01 us-inf-02 us-para-01 (odds 3:1, die 5, result " \
           "DR): claims do not hold: result: the log claims DR, but die 5 on column 3:1 gives DH" in out
    code, out, _ = run(game, "--at", "02-turn-2.log:13", "--die", "4")
    assert code == 0 and "what if the die had been 4: DR (the log's die 5 gives DH)" in out
    code, _, err = run(game, "--at", "02-turn-2.log:12")
    assert code == 2 and "no attack or bombardment on line 12" in err and "lines 6, 13, 43" in err


def test_an_omaha_beach_assault_is_audited_on_its_own_line() -> None:
    """11.2.3: a beach assault against a defence of zero, read on the beach-assault line the folio adds."""
    code, out, _ = run(OMAHA_SAMPLE, "--at", line_of(OMAHA_SAMPLE, "attack 2319 with 16/1 18/1"))
    assert code == 0, out
    assert "a beach assault against a defence of zero (11.2.3): line Beach Assault within EZOC, column c9 (+12,+13)" in out
    assert "each face of the die: 1: D2, 2: D2, 3: Ex, 4: Ex, 5: Ex, 6: -" in out
