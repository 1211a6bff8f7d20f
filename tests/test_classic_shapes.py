"""The classic series on games shaped unlike Battle for Moscow: attacks on several hexes at once, units of more
than two steps, allowances that vary by turn (each a temporary data folder, as in test_classic_generality.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_classic_generality import HEAD, findings, other_game, run_messages

__all__ = ["other_game"]  # the fixture, used by the fixtures below


@pytest.fixture
def several(other_game: Path) -> Path:
    """The other game (a differential table) with attacks on several hexes allowed."""
    rules = other_game / "counters" / "steppe" / "rules.toml"
    text = rules.read_text(encoding="utf-8")
    assert "multi_hex = false" in text
    rules.write_text(text.replace("multi_hex = false", 'multi_hex = true\nmulti_hex_terrain = "best_for_defender"'),
                     encoding="utf-8")
    return other_game


COMBAT = HEAD + "Phase german_combat\n"


def test_one_attack_on_two_hexes_applies_its_result_in_both(several: Path, tmp_path: Path) -> None:
    """ge-vi (5, at 0203) and ge-lvi (9, at 0202) attack so-19 (4, 0303) and so-16 (4, 0304) as one: 14 - 8 = +6,
    read on +4; a 1 gives DE there, and both defenders are eliminated."""
    attack = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi diff +4 die 1 result DE\n"
    both = attack + "Soviet> eliminate so-19\nSoviet> eliminate so-16\nPhase german_movement\n"
    assert findings(several, both, tmp_path) == []
    one = attack + "Soviet> eliminate so-19\nPhase german_movement\n"
    assert findings(several, one, tmp_path) == [(8, "error", "8.0")]
    assert "so-16 still owes" in run_messages(several, one, tmp_path)[0]


def test_each_hex_of_an_attack_on_several_is_next_to_an_attacker(several: Path, tmp_path: Path) -> None:
    """ge-vi at 0203 is next to 0303 but not to so-30's 0302: that hex is not part of its attack."""
    log = COMBAT + "German: attack 0303+0302 with ge-vi die 1\n"
    assert findings(several, log, tmp_path) == [(6, "error", "7.0")]
    assert "no attacker is adjacent to 0302" in run_messages(several, log, tmp_path)[0]
    twice = COMBAT + "German: attack 0303+0303 with ge-vi die 1\n"
    assert "names 0303 twice" in run_messages(several, twice, tmp_path)[0]
    empty = COMBAT + "German: attack 0303+0403 with ge-vi die 1\n"
    assert "no enemy unit in 0403" in run_messages(several, empty, tmp_path)[0]


def test_an_attack_on_several_hexes_reads_the_terrain_best_for_the_defender(several: Path, tmp_path: Path) -> None:
    """ge-xli (12, at 0201) attacks so-30 (4, clear 0302) and so-29 (4, forest 0301) as one: 12 - 8 = +4, and the
    forest's shift (0301's terrain, the defender's best) puts it on +2; claiming +4 is wrong."""
    log = COMBAT + "German: attack 0302+0301 with ge-xli diff +4 die 4\n"
    assert findings(several, log, tmp_path) == [(6, "error", "7.0")]
    message = run_messages(several, log, tmp_path)[0]
    assert "terrain of 0301, the most favourable to the defender of 0302, 0301" in message
    assert "shifted -1 -> +2" in message
    assert findings(several, COMBAT + "German: attack 0302+0301 with ge-xli diff +2 die 4 result NE\n", tmp_path) == []


def test_each_defender_retreats_and_an_attacker_advances_into_either_hex(several: Path, tmp_path: Path) -> None:
    """A DR (a 3 on +4) makes both defenders retreat a hex; then one attacker may advance into a hex left empty."""
    attack = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi die 3 result DR\n"
    log = attack + "Soviet> retreat so-19 0303-0402\nSoviet> retreat so-16 0304-0403\nGerman: advance ge-vi 0203-0304\n"
    assert findings(several, log, tmp_path) == []
    assert findings(several, attack + "Soviet> retreat so-19 0303-0403\nPhase german_movement\n", tmp_path) == \
        [(8, "error", "8.1")]


def test_a_game_without_attacks_on_several_hexes_refuses_them(other_game: Path, tmp_path: Path) -> None:
    """With `multi_hex = false` (Battle for Moscow's 1986 rules too) an attack naming two hexes is one error."""
    log = COMBAT + "German: attack 0303+0304 with ge-vi ge-lvi die 1 result DE\n" \
        "Soviet> eliminate so-19\nSoviet> eliminate so-16\n"
    assert findings(other_game, log, tmp_path) == [(6, "error", "7.0")]
    assert "one hex" in run_messages(other_game, log, tmp_path)[0]
