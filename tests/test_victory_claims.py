"""Issue 26 item 5: claims of victory in the notation (`Side: declare victory [LEVEL] [points SIDE N SIDE N]`, and
its JSON twin) checked against the referee's count: Onslaught 13.1-13.3, Omaha 13.0 and 14.3."""

from __future__ import annotations

from pathlib import Path

from adjudicator.cli import adjudicate_file
from adjudicator.notation.entries import Declare
from adjudicator.notation.jsonlog import read_json_log, write_json_log
from adjudicator.notation.text import parse_text, parse_text_partly, write_text
from adjudicator.systems.onslaught import ONSLAUGHT
from adjudicator.systems.onslaught.victory import check_claim, judge_claim, score
from wargame.bundled import data_root
from wargame.game import load_game
from play_support import play as replay
from play_support import when

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def errors(path: Path) -> list[tuple[int, str, str]]:
    """(line, rule, message) of each error of a log."""
    result, _ = adjudicate_file(path, None)
    assert result.stopped is None, result.stopped
    return [(f.line, f.rule, f.message) for f in result.findings if f.severity == "error"]


def test_the_notation_and_its_json_twin() -> None:
    """A claim's level and points, written and read back in text and in JSON; a side without its points is a
    syntax error."""
    text = '[Game "onslaught"]\nAllied: declare victory decisive points Allied 14 German 9\nGerman: declare bulge\n'
    entries = parse_text(text)
    claim = entries[1]
    assert isinstance(claim, Declare) and (claim.what, claim.level, claim.points) == \
        ("victory", "decisive", {"Allied": 14, "German": 9})
    assert write_text(entries) == text
    assert read_json_log(write_json_log(entries), "log.json") == entries
    _, wrong = parse_text_partly('[Game "onslaught"]\nAllied: declare victory points Allied 14 German\n')
    assert len(wrong) == 1 and "German's victory points" in str(wrong[0])


def test_onslaught_score_at_the_end() -> None:
    """13.3: at turn 20's Reinforcement Step the set-up position scores German 42, Allied 15: a German decisive
    victory. The right claim passes; a wrong winner, level or score is one 13.3 error naming the count."""
    game = load_game(data_root(), "onslaught")
    end = when(ONSLAUGHT.initial_state(game, []), turn=20, step="reinforcement")
    counted = score(end)
    assert (counted.winner, counted.level, counted.of("German").total, counted.of("Allied").total) == \
        ("German", "decisive", 42, 15)
    # Made in the Reinforcement Step, a claim is judged as the step ends (ruling 13.2 / 13.3): on that position.
    assert judge_claim(end, Declare(side="German", what="victory", level="decisive",
                                    points={"German": 42, "Allied": 15})) == []
    for claim in (Declare(side="Allied", what="victory"), Declare(side="German", what="victory", level="strategic"),
                  Declare(side="German", what="victory", points={"German": 40, "Allied": 15})):
        assert check_claim(end, claim) == []
        (found,) = judge_claim(end, claim)
        assert (found.severity, found.rule) == ("error", "13.3"), found
    (found,) = judge_claim(end, Declare(side="German", what="victory", points={"German": 40, "Allied": 15}))
    assert "the victory points are Allied 15 German 42, not German 40 Allied 15" in found.message
    # Before the end, with no automatic victory: no victory to claim (13.2 for an Allied claim alone).
    (found,) = check_claim(when(end, turn=5, step="action"), Declare(side="Allied", what="victory"))
    assert found.rule == "13.2"


def test_onslaught_automatic_victory_claims() -> None:
    """13.1: after the German automatic victory, an Allied claim is one error; the German's, level `automatic`,
    is none (the engine lets a claim follow the victory that ended the game)."""
    assert errors(EXAMPLES / "onslaught" / "breach-victory-claim.log") == [
        (36, "13.1", "Allied claims victory, but the German player wins: an automatic victory: the Allied player "
                     "has no units on the map")]


def test_omaha_claims(tmp_path: Path) -> None:
    """13.0: no beach landing hex left as GT 1 ends: the German's strategic victory; the Allied claim, or the
    German's with another level, is one 13.0 error; in the campaign the same claim cites 14.3; a claim before the
    game is over is an error too."""
    text = (EXAMPLES / "omaha" / "breach-victory-claim.log").read_text(encoding="utf-8")
    assert [e[:2] for e in errors(EXAMPLES / "omaha" / "breach-victory-claim.log")] == [(44, "13.0")]
    cases = {"German: declare victory strategic": [], "German: declare victory": [],
             "German: declare victory operational": [(44, "13.0")]}
    for claim, want in cases.items():
        path = tmp_path / "claim.log"
        path.write_text(text.replace("Allied: declare victory", claim), encoding="utf-8")
        assert [e[:2] for e in errors(path)] == want, claim
    campaign = (EXAMPLES / "omaha" / "breach-campaign-sudden-death.log").read_text(encoding="utf-8")
    lines = [line for line in campaign.splitlines() if not line.startswith("Turn 2") and "support_fire_marker  " not in line]
    path = tmp_path / "campaign.log"
    path.write_text("\n".join(lines[:-1] if "expect" in lines[-1] else lines) + "\nAllied: declare victory\n",
                    encoding="utf-8")
    assert [e[1] for e in errors(path)] == ["14.3"]
    early = text.split("Phase mobile_combat")[0] + "Phase mobile_combat\nGerman: declare victory\n"
    path.write_text(early, encoding="utf-8")
    assert [e[1] for e in errors(path)] == ["13.0"]


def test_onslaught_claims_are_judged_as_the_reinforcement_step_ends() -> None:
    """Ruling 13.2 / 13.3: a claim of the victory points made in turn 20's Reinforcement Step is judged on the position
    the step ends in: a German replacement placed west of the Rhine after it scores (41 becomes 42), on the claim's
    line, at the log's end or at the next turn marker."""
    game = load_game(data_root(), "onslaught")
    start = ONSLAUGHT.initial_state(game, [])
    arrived = {row.unit: "out_of_play" for _, row in game.reinforcements}
    end = when(start, turn=20, step="reinforcement", location={**start.location, **arrived,
                                                                 "de-inf-21": "eliminated_german"})
    end = when(end, replacement_points={"German": 2, "Allied": 4})
    rebuilt = "German: replace de-inf-21 full 2209 points 2\n"
    for claimed, wrong in ((41, True), (42, False)):
        played = replay(ONSLAUGHT, end, f"German: declare victory decisive points German {claimed} Allied 15\n"
                                        + rebuilt)
        assert played.errors() == ([("13.3", f"German: declare victory decisive points German {claimed} Allied 15")]
                                   if wrong else [])
    # A claim in an earlier turn's Reinforcement Step is judged as that turn ends, at the next turn marker, once.
    early = replay(ONSLAUGHT, when(end, turn=19), "German: declare victory decisive\nTurn 20\n")
    assert early.errors() == [("13.3", "German: declare victory decisive")]
