"""Issue 15's "Done when": every section docs/rules-coverage.md lists as checked has a breach log
(`examples/<game>/breach-*.log`) whose one expected error cites that section or one of its sub-clauses,
so each checked rule is shown to give its one error where it is broken (tests/test_examples.py replays
them). Rows no log can breach are exempted here, each with its reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_rules_coverage import PAGE, tables

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"Onslaught": "onslaught", "Fire & Movement / Omaha": "omaha", "Battle for Moscow": "moscow"}
"""Each system's table heading on the page, and the examples folder of its game."""
EXPECT = re.compile(r"#\s*expect:\s*error\s+(\S+)")
SECTIONS = re.compile(r"\d+(?:\.\d+)*")

EXEMPT: dict[str, dict[str, str]] = {
    "moscow": {},
    "omaha": {
        "5.4": "a table of movement costs (with 5.4.1 and 5.4.2, what a road or trail costs): a move that "
               "cannot pay them breaks 5.2 c, which the findings cite (breach-allowance.log)",
        "6.0": "defines where zones of control lie; moving or retreating against them breaks 6.1 or 6.2, "
               "which the findings cite (breach-leg-ezoc.log, breach-retreat-ezoc.log)",
    },
    "onslaught": {
        "8.2": "the track and its caps: every gain is capped (a note says what is lost); spending more than the "
               "track holds breaks 5.2 (9.2 for a paradrop), which the findings cite, naming what the cap took "
               "(breach-supply-lost-to-the-cap.log)",
        "13.2": "the Allied automatic victory needs a won campaign before turn 20 (no German division in supply "
                "west of the Rhine, 15 Allied divisions in supply east of the Victory Line): hundreds of entries "
                "that would all be legal; the condition is tested in tests/test_onslaught_victory.py",
    },
}
"""Checked rows no log can breach, by game: section -> why."""

ONSLAUGHT_PENDING: set[str] = set()
"""Onslaught's checked sections whose breach logs are being written on another branch (s6-onsl); emptied
when it is merged."""


def covers(rule: str, section: str) -> bool:
    """Whether a cited rule is the section or one of its sub-clauses (`8.2.1d` and `8.2.4` of `8.2`,
    `14.0g` of `14.0`; not `8.10` of `8.1`)."""
    if rule == section:
        return True
    rest = rule[len(section):] if rule.startswith(section) else ""
    return rest[:1] == "." or rest[:1].isalpha()


def checked_sections(rows: list[list[str]]) -> list[str]:
    """The sections named at the head of every row whose status starts with "checked"
    (`11.1.2, 11.2.4 reinforcements` names two)."""
    out: list[str] = []
    for cells in rows:
        if not cells[1].startswith("checked"):
            continue
        head = re.match(r"[\d.,\s]+", cells[0])
        out += [s for s in SECTIONS.findall(head.group(0) if head else "") if s not in out]
    return out


def cited(game: str) -> dict[str, list[str]]:
    """The clause each breach log of a game expects its one error to cite, and the logs citing it."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "examples" / game).glob("breach-*.log")):
        for rule in EXPECT.findall(path.read_text(encoding="utf-8")):
            out.setdefault(rule, []).append(path.name)
    return out


@pytest.mark.parametrize("heading", sorted(GAMES))
def test_every_checked_section_has_a_breach_log(heading: str) -> None:
    """Every checked row's sections are cited by some breach log of its game, or exempted with a reason
    (or, for Onslaught, still pending on its branch)."""
    game = GAMES[heading]
    rules = cited(game)
    pending = ONSLAUGHT_PENDING if game == "onslaught" else set()
    missing = [s for s in checked_sections(tables(PAGE.read_text(encoding="utf-8"))[heading])
               if s not in EXEMPT[game] and s not in pending and not any(covers(r, s) for r in rules)]
    assert missing == [], f"{game}: checked sections without a breach log: {missing}"


@pytest.mark.parametrize("heading", sorted(GAMES))
def test_exemptions_and_pending_stay_honest(heading: str) -> None:
    """An exemption names a checked row and gives a reason; a section pending or exempted that a breach log
    now cites is taken off the list (so the lists only shrink to what is true)."""
    game = GAMES[heading]
    sections = checked_sections(tables(PAGE.read_text(encoding="utf-8"))[heading])
    rules = cited(game)
    for section, reason in EXEMPT[game].items():
        assert section in sections and reason, section
        assert not any(covers(r, section) for r in rules), f"{section} has a breach log: drop its exemption"
    if game == "onslaught":
        assert ONSLAUGHT_PENDING <= set(sections)
        assert not [s for s in ONSLAUGHT_PENDING if any(covers(r, s) for r in rules)], "drop from ONSLAUGHT_PENDING"


def test_sub_clauses_count_for_their_section() -> None:
    """`covers` takes a numbered or lettered sub-clause for its section, and nothing else."""
    assert covers("8.2.1d", "8.2") and covers("8.2.4", "8.2") and covers("14.0g", "14.0") and covers("5.2", "5.2")
    assert not covers("8.10", "8.1") and not covers("8.2", "8.2.1") and not covers("6.1", "6.0")
    assert checked_sections([["11.1.2, 11.2.4 reinforcements", "checked: x", "", ""],
                             ["9.0 supply", "nothing to check", "", ""]]) == ["11.1.2", "11.2.4"]
