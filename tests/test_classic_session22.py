"""The classic series' leftovers of session 21 and its audit in session 22, on Battle for Moscow: the clause a
breach cites (a rebuilt unit's empty hex is the replacements' own), and one breach, one error (one fault shared by
several units of an attack)."""

from __future__ import annotations

import shutil
from pathlib import Path

from classic_support import line_of, run, upto, verdict
from data_edits import edit

ROOT = Path(__file__).resolve().parent.parent


def errors(tmp_path: Path, log: str, data: Path | None = None) -> list[str]:
    """The messages of a log's errors."""
    return [f.message for f in run(tmp_path, log, data).findings if f.severity == "error"]


def test_a_rebuilt_unit_in_an_occupied_city_breaks_the_replacements_empty_hex(tmp_path: Path) -> None:
    """11.0 (`[replacements] empty_hex`): a rebuilt army appears in an empty hex of the east edge or an empty Soviet
    city; placed in Bryansk (0509), where so-3 stands, it breaks that clause, not stacking (6.0), and the phase's end
    does not report the hex again. Without the key the stacking limit governs the hex, and 6.0 is cited."""
    log = upto(1, "soviet_replacement") + "Soviet: replace so-5 reduced 0509\nPhase rail_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "so-5"), "error", "11.0")]
    assert errors(tmp_path, log) == ["so-5 may not be placed in 0509, where so-3 is: a rebuilt unit appears in an "
                                     "empty hex"]
    data = tmp_path / "data"
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / "moscow", data / kind / "moscow")
    edit(data / "counters" / "moscow" / "rules.toml", "empty_hex = true\n", "")
    assert verdict(tmp_path, log, data) == [(line_of(log, "so-5"), "error", "6.0")]


def test_one_fault_of_several_attackers_is_said_once_naming_them(tmp_path: Path) -> None:
    """7.0 (rulings register, as Onslaught's): an attack refused for a fault several of its units share is one error
    saying each fault once with the units it concerns (it said the fault again for each unit)."""
    log = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "German: retreat so-30 0302-0402-0502\nGerman: advance ge-xli 0201-0302\n" \
        "German: attack 0303 with ge-xli ge-lvi so-29 ge-xxvii ge-v so-16 die 2\nPhase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0303"), "error", "7.0")]
    assert errors(tmp_path, log) == [
        "ge-xli, ge-lvi have already attacked this phase; a unit attacks once a combat phase; so-29, so-16 are Soviet "
        "units; they cannot attack with the German units; ge-xxvii in 0103, ge-v in 0104 are not adjacent to 0303; only "
        "adjacent units attack"]
    one = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n" \
        "German: retreat so-30 0302-0402-0502\nGerman: attack 0301 with ge-xli so-29 die 2\n"
    assert errors(tmp_path, one) == ["ge-xli has already attacked this phase; a unit attacks once a combat phase; "
                                     "so-29 is a Soviet unit; it cannot attack with the German units"]


DR = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-lvi odds 5:1 die 1 result DR\n"
"""21 against so-30's 4 at 0302: 5:1, a 1 is DR (8.1: the German player retreats so-30 two hexes)."""


def test_a_retreat_written_for_a_unit_that_owed_none_is_one_error(tmp_path: Path) -> None:
    """8.1 (rulings register): the DR's retreat written for an attacker is one error, at it, saying which unit the
    result makes retreat; so-30's retreat, never written, is a note naming that line (it was a second error), and a
    retreat written for it afterwards settles the result as usual."""
    log = DR + "German: retreat ge-xli 0201-0101\nPhase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "retreat ge-xli"), "error", "8.1")]
    assert errors(tmp_path, log) == ["no combat result makes ge-xli retreat here; the DR on 0302 (line 6) makes so-30 "
                                     "retreat"]
    notes = [f.message for f in run(tmp_path, log).findings if f.severity == "note"]
    assert notes == ["so-30 did not retreat 2 hex(es) after the DR on 0302 (line 6) (not a breach of its own: the "
                     "retreat on line 7 was written for ge-xli, which owed none)"]
    fixed = DR + "German: retreat ge-xli 0201-0101\nGerman: retreat so-30 0302-0402-0502\nPhase german_movement\n"
    assert verdict(tmp_path, fixed) == [(line_of(fixed, "retreat ge-xli"), "error", "8.1")]


def test_an_advance_before_the_defenders_retreat_is_one_error(tmp_path: Path) -> None:
    """8.2 (rulings register): an attacker advancing into 0302 while so-30 still holds it is one error, at the advance;
    the retreat never written is a note naming it, and is judged without the attacker that went in early (it said so-30
    had no legal retreat and was eliminated, a second error)."""
    log = DR + "German: advance ge-xli 0201-0302\nPhase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "advance"), "error", "8.2")]
    notes = [f.message for f in run(tmp_path, log).findings if f.severity == "note"]
    assert notes == ["so-30 did not retreat 2 hex(es) after the DR on 0302 (line 6) (not a breach of its own: the "
                     "advance on line 7 went into 0302 before it)"]
    ended = DR + "German: advance ge-xli 0201-0302\n"
    assert [f.message for f in run(tmp_path, ended).findings if f.severity != "error"] == [
        "when the log ends, " + notes[0]]


def test_a_unit_that_never_made_its_retreat_is_judged_as_astray(tmp_path: Path) -> None:
    """House style 16 (rulings register): so-30's retreat, never written, is one 8.1 error as the log moves on; a German
    move into 0302, which so-30 would have left, is a note naming that retreat (it was a second error, 4.0). An entry
    naming so-30 is judged as it stands, and once it moves the players have gone on from there."""
    log = DR + "Phase german_movement\nge-xli 0201-0302\n"
    assert verdict(tmp_path, log) == [(line_of(log, "Phase german_movement"), "error", "8.1")]
    notes = [f.message for f in run(tmp_path, log).findings if f.severity == "note"]
    assert notes == ["ge-xli may not enter 0302: enemy units are there (not a breach of its own: so-30 owed a retreat "
                     "after the DR on 0302 (line 6), never written; without it there, this is no breach)"]
    moved = DR + "Phase german_movement\nPhase soviet_replacement\nPhase rail_movement\nPhase soviet_combat\n" \
        "Phase soviet_movement\nso-30 0302-0402\nTurn 2\nPhase german_replacement\nPhase panzer_movement\n" \
        "ge-xli 0201-0302-0402\n"
    assert verdict(tmp_path, moved) == [(line_of(moved, "Phase german_movement"), "error", "8.1"),
                                        (line_of(moved, "ge-xli 0201"), "error", "4.0")]


def test_a_unit_placed_where_the_rules_refuse_is_judged_as_astray(tmp_path: Path) -> None:
    """House style 16: the 1st Shock Army rebuilt on turn 1 (11.0: from turn 4) is one error; it stands in 1401 as
    written, so so-5 rebuilt there is a note naming that placement (it was a second error, the empty hex's)."""
    log = upto(1, "soviet_replacement") + "Soviet: replace so-1s reduced 1401\nSoviet: replace so-5 reduced 1401\n" \
        "Phase rail_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "so-1s"), "error", "11.0")]
    notes = [f.message for f in run(tmp_path, log).findings if f.severity == "note"]
    assert notes == ["so-5 may not be placed in 1401, where so-1s is: a rebuilt unit appears in an empty hex (not a "
                     "breach of its own: line 8 placed so-1s in 1401, which no rule allowed; without it there, this is "
                     "no breach)"]
