"""Every rule system passes the same conformance checks (house style: OpenSpiel)."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine import advance, replay
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, Header
from adjudicator.notation.text import parse_text
from adjudicator.systems import SYSTEMS, system_for, system_names
from wargame.bundled import data_root, game_ids
from wargame.game import Game, load_game
from bench_support import bench_script

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

bench = bench_script("adjudicate", "conformance_adjudicate")
bench_omaha = bench_script("synthetic_omaha", "conformance_synthetic_omaha")


def games_of(system: str) -> list[Game]:
    """The bundled games that use a rule system."""
    root = data_root()
    return [g for g in (load_game(root, gid) for gid in game_ids(root)) if g.manifest.rule_system == system]


@pytest.mark.parametrize("name", system_names())
def test_empty_log_gives_no_finding(name: str) -> None:
    """A log with only its headers gives no finding."""
    for game in games_of(name):
        entries = parse_text(f'[Game "{game.id}"]\n')
        result = replay(game, system_for(game), entries)
        assert result.findings == [] and result.stopped is None


def state_values(state: Any) -> dict[str, Any]:
    """Every field of a state that is state (compare=True), deep-copied: memos (compare=False) are not."""
    return {f.name: copy.deepcopy(getattr(state, f.name)) for f in dataclasses.fields(state) if f.compare}


def changed_by_check(system: Any, game: Game, entries: list[Entry]) -> list[int]:
    """The lines of the entries whose check() changed the state it was given, compared deeply field by field."""
    state = system.initial_state(game, [e for e in entries if isinstance(e, Header)])
    changed = []
    for entry in entries:
        before = state_values(state)
        system.check(state, entry)
        if state_values(state) != before:
            changed.append(entry.line)
        state = advance(system, state, entry)
    return changed


def generated_logs(game: Game) -> list[str]:
    """Short synthetic games of the bench's generators (3 turns), legal and varied."""
    if game.id == "onslaught":
        return [bench.generate(1, 3, game)]
    if game.id == "omaha":
        return [bench_omaha.generate_omaha(1, 3, game)]
    return []


@pytest.mark.slow
@pytest.mark.parametrize("name", system_names())
def test_check_never_changes_the_state(name: str) -> None:
    """check() leaves the state exactly as it found it (a deep comparison of every field, nested dicts
    included), for every entry of every example log and of generated games."""
    for game in games_of(name):
        system = system_for(game)
        logs = {path.name: path.read_text(encoding="utf-8") for path in sorted((EXAMPLES / game.id).glob("*.log"))}
        logs.update((f"generated-{k}", text) for k, text in enumerate(generated_logs(game)))
        for log, text in logs.items():
            assert changed_by_check(system, game, parse_text(text)) == [], log


def test_an_in_place_write_in_check_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check() that writes into a dict of the state in place is caught, so the test above can fail."""
    system = SYSTEMS["onslaught"]
    game = games_of("onslaught")[0]
    honest = type(system).check_rules

    def meddling(self: Any, state: Any, entry: Entry, kind_rules: bool = True) -> list[Finding]:
        state.supply["Allied"] = state.supply.get("Allied", 0) + 1  # the write an old test could not see
        return honest(self, state, entry, kind_rules)

    monkeypatch.setattr(type(system), "check_rules", meddling)
    entries = parse_text(f'[Game "{game.id}"]\nTurn 1\n')
    assert changed_by_check(system, game, entries) == [1, 2]


@pytest.mark.parametrize("name", system_names())
def test_cited_sections_exist(name: str) -> None:
    """Every finding of every example cites a section of the system's table."""
    for game in games_of(name):
        system = system_for(game)
        for path in sorted((EXAMPLES / game.id).glob("*.log")):
            result = replay(game, system, parse_text(path.read_text(encoding="utf-8")))
            assert all(f.rule in system.table.sections for f in result.findings)
        with pytest.raises(KeyError):
            system.table.finding("error", "99.9", 1, 1, "a section no rulebook has")


@pytest.mark.parametrize("name", system_names())
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
