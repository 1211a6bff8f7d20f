"""A unit's position change the log left out (a move, advance or retreat) is one error, where a later entry states
where the unit is (the engine, every system): the log is replayed with the unit put there, not judged entry by entry
against a position the players did not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import adjudicator.engine as engine
from adjudicator import position_slips
from adjudicator.position_slips import BUDGET, LOOKS, REPAIRS, REPLAYED_ENTRIES
from edit_support import EXAMPLES, edited, errors

MOSCOW = EXAMPLES / "moscow" / "legal-sample-game.log"
CHAIN = EXAMPLES / "omaha" / "legal-displacement-chain.log"
COMBAT = EXAMPLES / "omaha" / "legal-combat.log"
ONSLAUGHT = EXAMPLES / "onslaught" / "legal-sample-game.log"


@pytest.mark.parametrize(("log", "written"), [
    (MOSCOW, "ge-xli 0302-0402"), (MOSCOW, "ge-lvii 0407-0508"), (MOSCOW, "ge-xl 0306-0406"),
    (MOSCOW, "ge-xlviii 0308-0307-0406"), (MOSCOW, "German: advance ge-xxiv 0410-0510"),
    (MOSCOW, "ge-ix 0306-0406"), (CHAIN, "26/1 2318-2317-2316-2315"), (COMBAT, "16/1 2319-2218-2217"),
    (CHAIN, "German: setup 914/352 2115"), (ONSLAUGHT, "Allied: setup ca-inf-01 0820"),
])
def test_a_position_change_left_out_is_one_error(tmp_path: Path, log: Path, written: str) -> None:
    """A legal game with one move, advance or set-up placement left out gives one error, at the entry that shows
    where the unit was (a path's start, an activation's hex): before, each later entry judged with the unit where it
    no longer was gave its own (a stack left overstacked as a phase ends, an attack by a unit not adjacent, a landing
    hex holding three, then the move from the unit's other hex: two to five errors)."""
    text, line = edited(log, "delete", written)
    found = errors(tmp_path, text)
    assert len(found) == 1, found
    assert found[0].line >= line and "was left out" in found[0].message, found[0].message


def test_the_repair_cites_the_clause_the_mismatch_breaks(tmp_path: Path) -> None:
    """The one error is the mismatch's own (a move starts from the unit's hex, 4.0), saying what was left out."""
    text, _ = edited(MOSCOW, "delete", "ge-xli 0302-0402")
    [found] = errors(tmp_path, text)
    assert found.rule == "4.0" and found.message.startswith("ge-xli is in 0302, not 0402"), found


def test_a_genuine_breach_beside_a_repaired_slip_is_still_reported(tmp_path: Path) -> None:
    """The unit whose move was left out then attacks at odds misread (a breach of its own, in the stretch the
    relocation is inferred over): the slip is one error, the odds another."""
    text, _ = edited(MOSCOW, "delete", "ge-xli 0302-0402")
    text = text.replace("ge-lvi ge-vi ge-xli odds 6:1", "ge-lvi ge-vi ge-xli odds 5:1", 1)
    found = errors(tmp_path, text)
    assert len(found) == 2, found
    assert sum("was left out" in f.message for f in found) == 1, found


def test_an_origin_miswritten_is_judged_as_written(tmp_path: Path) -> None:
    """A move whose start is miswritten (the unit never left its hex, nothing else follows from it): the mismatch is
    the one error as written, no line is inferred left out."""
    text = MOSCOW.read_text(encoding="utf-8").replace("ge-xli 0302-0402\n", "ge-xli 0303-0402\n", 1)
    found = errors(tmp_path, text)
    assert len(found) == 1 and "left out" not in found[0].message, found


def _counted_passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting the engine's replays from now on."""
    calls = [0]
    one = engine._replay_pass

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return one(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_replay_pass", counted)
    return calls


def test_many_slips_cost_a_bounded_number_of_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every other move of the sample game left out: some are repaired, at most `REPAIRS`, within `BUDGET` replays."""
    calls = _counted_passes(monkeypatch)
    lines = MOSCOW.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for i, line in enumerate(lines) if not (re.match(r"^(ge|so)-\S+ \d{4}-", line) and i % 2 == 0)]
    found = errors(tmp_path, "".join(kept))
    repaired = [f for f in found if "was left out" in f.message]
    assert 1 <= len(repaired) <= REPAIRS and len(found) < len(lines) - len(kept), found
    assert calls[0] <= BUDGET + 2, calls


def test_the_search_stays_bounded_on_a_hostile_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of moves each starting from a hex its unit is not in: at most `LOOKS` are judged again with the unit
    moved and a bounded number of replays made, so the cost stays that of judging the log as written."""
    calls = _counted_passes(monkeypatch)
    moves = "".join(f"ge-xxvii 090{1 + k % 2}-0908\n" for k in range(3000))
    text = f'[Game "moscow"]\nTurn 1\nPhase german_replacement\nPhase panzer_movement\nPhase german_combat\n' \
           f"Phase german_movement\n{moves}"
    judged = 0
    mismatch_of = position_slips.mismatch_of

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal judged
        judged += 1
        return mismatch_of(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(position_slips, "mismatch_of", counted)
    found = errors(tmp_path, text)
    assert len(found) == 3000 and calls[0] <= BUDGET + 2, calls
    assert judged <= LOOKS + 1, judged


def test_a_long_log_gets_fewer_tries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search replays at most `REPLAYED_ENTRIES` entries in all, so a long log is tried again fewer times (24
    replays of a hostile 4 MB log would take minutes): with the cap at three times the log, three tries."""
    calls = _counted_passes(monkeypatch)
    lines = MOSCOW.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for i, line in enumerate(lines) if not (re.match(r"^(ge|so)-\S+ \d{4}-", line) and i % 2 == 0)]
    monkeypatch.setattr(position_slips, "REPLAYED_ENTRIES", 3 * len(kept))
    errors(tmp_path, "".join(kept))
    assert calls[0] <= 3 + 2, calls


def test_a_log_of_hundreds_of_errors_is_judged_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log with more than `MOST_ERRORS` errors is no slip's cascade: no replay is tried again (a fuzzed log of 3,900
    entries and 3,100 errors took 6 s, most of it in the search's replays)."""
    calls = _counted_passes(monkeypatch)
    lines = MOSCOW.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for i, line in enumerate(lines) if not (re.match(r"^(ge|so)-\S+ \d{4}-", line) and i % 2 == 0)]
    monkeypatch.setattr(position_slips, "MOST_ERRORS", 2)
    assert len(errors(tmp_path, "".join(kept))) > 2
    assert calls[0] == 1, calls
