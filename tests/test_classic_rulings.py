"""Battle for Moscow's rulings settled after audit 18 (B5, B6, B8 and the one-breach-one-error clean-ups): who
decides a retreat as the log and the VASSAL reader write it, what an exchange lets the attacker lose, the section
a wrong combat claim misread, and a refused replacement judged once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from classic_support import line_of, run, upto, verdict

from adjudicator.cli import main as adjudicate
from adjudicator.engine import replay
from adjudicator.notation.entries import Entry, Retreat
from adjudicator.notation.text import write_entry
from adjudicator.systems import system_for
from adjudicator.systems.classic import arrivals
from adjudicator.vassal import export as exporting
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.seats import Seats
from wargame.vassal.tracking import PieceEvent

DR = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n"
"""21 against so-30's 4 at 0302: 5:1, a 1 is DR (8.1: the German player retreats so-30)."""


# -- B5: who decides a retreat (8.1) -----------------------------------------------------------------------------
def test_a_retreat_the_defender_records_as_his_is_refused_either_way(tmp_path: Path) -> None:
    """`Soviet>` and `Soviet:` both record the Soviet player's decision (docs/log-format.md); 8.1 gives it to the
    attacker, so both are the one error the German's `German: retreat` is not."""
    for prefix in ("Soviet>", "Soviet:"):
        log = DR + f"{prefix} retreat so-30 0302-0402-0502\n"
        assert verdict(tmp_path, log) == [(line_of(log, "retreat so-30"), "error", "8.1")]
    assert verdict(tmp_path, DR + "German: retreat so-30 0302-0402-0502\n") == []


def dragged_retreats(tmp_path: Path, module: Path, monkeypatch: pytest.MonkeyPatch,
                     actor: str | None) -> tuple[list[str], list[tuple[str, str]]]:
    """The text log's attack exported to VASSAL with its retreat only dragged (not typed), by a player of `actor`'s
    side (None: no player the reader knows), read back: the retreats written and the verdict's errors."""
    log = tmp_path / "game.log"
    log.write_text(DR + "German: retreat so-30 0302-0402-0502\n", encoding="utf-8")
    step = exporting.Exporter.step

    def dragged(self: exporting.Exporter, *args: Any) -> list[str]:
        commands = step(self, *args)
        if isinstance(args[3], Retreat):
            del commands[0]  # the entry's text left out of the chat: only the counter dragged
        return commands

    def player(self: Seats, event: PieceEvent) -> str | None:
        return actor

    monkeypatch.setattr(exporting.Exporter, "step", dragged)
    monkeypatch.setattr(Seats, "actor_side", player)
    out = tmp_path / "game.vlog"
    result = CliRunner().invoke(adjudicate, ["export", str(log), "--module", str(module), "-o", str(out)])
    assert result.exit_code == 0, result.output
    translation = translate_file(out, module_path=module)
    entries: list[Entry] = list(translation.entries)
    again = replay(translation.game, system_for(translation.game), entries)
    return ([write_entry(e) for e in entries if isinstance(e, Retreat)],
            [(f.rule, f.message) for f in again.findings if f.severity == "error"])


@pytest.mark.parametrize("actor, written, errors", [
    ("German", "German: retreat so-30 0302-0402-0502", []),
    ("Soviet", "Soviet> retreat so-30 0302-0402-0502", ["8.1"]),
    (None, "German: retreat so-30 0302-0402-0502", []),
], ids=["by-the-attacker", "by-the-defender", "by-no-known-player"])
def test_the_vassal_reader_writes_who_dragged_a_retreat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        built_module: Callable[[str], Path], actor: str | None,
                                                        written: str, errors: list[str]) -> None:
    """The reader writes a retreat as the decision of the player who dragged the counter (`>` when he is not the
    attacker); with no player known, as the decision of the side the rules give it (8.1: the attacker's)."""
    retreats, found = dragged_retreats(tmp_path, built_module("moscow"), monkeypatch, actor)
    assert retreats == [written]
    assert [rule for rule, _ in found] == errors


# -- B6: an exchange paid beyond the step that matches it (8.0) --------------------------------------------------
def test_an_exchange_takes_no_step_past_the_one_that_matches_the_defenders_loss(tmp_path: Path) -> None:
    """8.0: ge-viii (7, reduced 3) attacks so-16 (4) at 1:1; a 2 is EX. so-16's 4 are matched by ge-viii's first
    step (7 to 3, 4 points): eliminating it outright loses a second step that nothing owes, the same over-loss an
    AL refuses."""
    ex = upto(1, "german_combat") + "German: attack 0304 with ge-viii odds 1:1 die 2 result EX\nSoviet> eliminate " \
        "so-16\n"
    over = ex + "German: eliminate ge-viii\nPhase german_movement\n"
    assert verdict(tmp_path, over) == [(line_of(over, "eliminate ge-viii"), "error", "8.0")]
    message = next(f.message for f in run(tmp_path, over).findings if f.severity == "error")
    assert "1 step(s) of ge-viii pay it, not 2" in message
    assert verdict(tmp_path, ex + "German: deplete ge-viii\nPhase german_movement\n") == []


def test_an_exchange_may_take_a_units_last_step_when_it_is_needed(tmp_path: Path) -> None:
    """8.0 ("at least"): ge-liii's first step (6 to 3) pays 3 of so-13's 4; its second (3) is needed and may
    overpay, so eliminating ge-liii outright is lawful."""
    log = upto(1, "german_combat") + "German: attack 0510 with ge-xxiv ge-liii odds 3:1 die 4 result EX\n" \
        "Soviet> eliminate so-13\nGerman: eliminate ge-liii\nPhase german_movement\n"
    assert verdict(tmp_path, log) == []


# -- B8 and one breach, one error: the section a wrong claim misread (7.0, 10.0) ---------------------------------
def test_a_result_read_without_the_mud_cites_the_mud(tmp_path: Path) -> None:
    """10.0: in mud 21 is halved to 10 1/2 against so-30's 4, 2:1, where a 5 is NE; the DE claimed is what the
    unhalved 5:1 gives, so the misread rule is mud's (as a move over its one hex cites it)."""
    log = upto(3, "german_combat") + "German: attack 0302 with ge-xli ge-lvi die 5 result DE\n" \
        "Soviet> eliminate so-30\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0302"), "error", "10.0")]
    message = next(f.message for f in run(tmp_path, log).findings if f.severity == "error")
    assert "without the Mud" in message and "x0.5 (Mud [10.0])" in message


def test_a_reroll_s_result_is_no_condition_misread(tmp_path: Path) -> None:
    """10.0: ge-xli alone against so-30 in mud is 1:1 (3:1 unhalved); the DR claimed with a 2 is what 3:1 gives, so
    mud's halving was misread (10.0). With the die rolled again (a VASSAL log's reroll) and DR what the 1 gives at
    1:1, the table was read right for the wrong die: the combat section's error, the 2's result owed (7.0). A reroll
    that does not give DR leaves the misreading."""
    for reroll, cited in (("", "10.0"), ("reroll 1 ", "7.0"), ("reroll 6 ", "10.0")):
        log = upto(3, "german_combat") + f"German: attack 0302 with ge-xli die 2 {reroll}result DR\n"
        assert verdict(tmp_path, log) == [(line_of(log, "attack 0302"), "error", cited)], reroll


def test_a_result_read_on_the_column_claimed_is_part_of_that_misreading(tmp_path: Path) -> None:
    """7.0, one breach one error: 29 against so-20's 4 in the forest is read on 6:1 (a 3 is DE); the log claims 5:1
    and the DRL a 3 gives there. The result follows from the odds claimed: one error, which says both."""
    log = upto(1, "panzer_movement") + "ge-xl 0306-0307-0308\nge-lvii 0407-0307-0306\nPhase german_combat\n" \
        "German: attack 0405 with ge-ix ge-xlvi ge-lvii odds 5:1 die 3 result DRL\nSoviet> eliminate so-20\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0405"), "error", "7.0")]
    message = next(f.message for f in run(tmp_path, log).findings if f.severity == "error")
    assert "read on 6:1 (die 3: DE, not DRL)" in message


# -- a refused replacement judged once (11.0) --------------------------------------------------------------------
def test_a_replacement_is_judged_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of a replacement runs once: its application learns from it that the replacement was refused
    (so that it spends no point), not by judging it again."""
    calls: list[str] = []
    check = arrivals.check_replace

    def counted(*args: Any) -> Any:
        calls.append(args[1].unit)
        return check(*args)

    monkeypatch.setattr(arrivals, "check_replace", counted)
    log = upto(1, "soviet_replacement") + "Soviet: replace so-1s reduced 1402\nSoviet: replace so-5 reduced 1401\n"
    assert [(n, r) for n, _, r in verdict(tmp_path, log)] == [(line_of(log, "so-1s"), "11.0")]
    assert calls == ["so-1s", "so-5"]


# -- 8.2: an advance after a later battle ------------------------------------------------------------------------
def test_an_advance_after_the_next_battle_says_it_came_late(tmp_path: Path) -> None:
    """8.2: ge-xli's advance into 0302 written after the battle on 0509 was resolved is refused, and the message says
    why: its own battle came before, and an advance follows it at once."""
    log = upto(1, "german_combat") + "German: attack 0302 with ge-xli odds 3:1 die 1 result DR\n" \
        "German: retreat so-30 0302-0401-0501\nGerman: attack 0509 with ge-xiii ge-liii odds 3:1 die 1 result DR\n" \
        "German: retreat so-3 0509-0609-0709\nGerman: advance ge-xli 0201-0302\n"
    assert verdict(tmp_path, log) == [(line_of(log, "advance ge-xli"), "error", "8.2")]
    message = next(f.message for f in run(tmp_path, log).findings if f.severity == "error")
    assert "its battle came before" in message
