"""Every rule system passes the same conformance checks (house style: OpenSpiel)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from adjudicator.engine import replay
from adjudicator.notation.entries import Header
from adjudicator.notation.text import parse_text
from adjudicator.systems import SYSTEMS
from wargame.bundled import data_root, game_ids
from wargame.game import Game, load_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def games_of(system: str) -> list[Game]:
    """The bundled games that use a rule system."""
    root = data_root()
    return [g for g in (load_game(root, gid) for gid in game_ids(root)) if g.manifest.rule_system == system]


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_empty_log_gives_no_finding(name: str) -> None:
    """A log with only its headers gives no finding."""
    for game in games_of(name):
        entries = parse_text(f'[Game "{game.id}"]\n')
        result = replay(game, SYSTEMS[name], entries)
        assert result.findings == [] and result.stopped is None


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_check_never_changes_the_state(name: str) -> None:
    """check() leaves the state exactly as it found it, for every entry of every example."""
    system = SYSTEMS[name]
    for game in games_of(name):
        for path in sorted((EXAMPLES / game.id).glob("*.log")):
            entries = parse_text(path.read_text(encoding="utf-8"))
            state = system.initial_state(game, [e for e in entries if isinstance(e, Header)])
            for entry in entries:
                before = copy.deepcopy(system.describe(state)), copy.copy(state.__dict__)
                system.check(state, entry)
                assert (system.describe(state), state.__dict__) == before, (path.name, entry.line)
                state = system.apply(state, entry)


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_cited_sections_exist(name: str) -> None:
    """Every finding of every example cites a section of the system's table."""
    system = SYSTEMS[name]
    for game in games_of(name):
        for path in sorted((EXAMPLES / game.id).glob("*.log")):
            result = replay(game, system, parse_text(path.read_text(encoding="utf-8")))
            assert all(f.rule in system.table.sections for f in result.findings)
    with pytest.raises(KeyError):
        system.table.finding("error", "99.9", 1, 1, "a section no rulebook has")


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_every_system_has_games_and_examples(name: str) -> None:
    """A registered system is used by a bundled game, which has example logs."""
    games = games_of(name)
    assert games
    assert all(list((EXAMPLES / g.id).glob("*.log")) for g in games)


def test_coverage_page_lists_the_checked_sections() -> None:
    """docs/rules-coverage.md's totals name exactly the sections the system declares checked."""
    import re

    from adjudicator.systems.onslaught.sections import CHECKED, SECTIONS

    text = (Path(__file__).resolve().parent.parent / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    m = re.search(r"Totals: (\d+) sections fully checked \(([^)]*)\)", text)
    assert m is not None
    listed = tuple(s.strip() for s in m.group(2).replace("\n", " ").split(","))
    assert listed == CHECKED and int(m.group(1)) == len(CHECKED)
    assert set(CHECKED) <= set(SECTIONS)
