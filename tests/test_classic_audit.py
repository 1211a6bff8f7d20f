"""The classic series' leftovers of session 20 and its audit in session 21, on Battle for Moscow and on the designer's
game (tests/data/rhine): a unit attacked once a combat phase wherever it retreats, a late reinforcement, a bridge
still written as a road, strategic movement and compulsory attacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from classic_support import line_of, run, upto, verdict
from test_classic_generality_rhine import TURN_1
from data_edits import edit
from builder.cli import main as vmodbuild

RHINE = Path(__file__).resolve().parent / "data" / "rhine"
HEAD = '[Game "rhine"]\n[Scenario "plunder"]\nTurn 1\nPhase reinforcement\nPhase rail\nPhase movement\nPhase combat\n'
"""The Allied player turn of turn 1 up to its combat phase."""


@pytest.fixture
def rhine(tmp_path: Path) -> Path:
    """A copy of the designer's game to change."""
    shutil.copytree(RHINE, tmp_path / "data")
    return tmp_path / "data"


def rules(data: Path, old: str, new: str) -> None:
    """One change to the copy's rules.toml."""
    edit(data / "counters" / "rhine" / "rules.toml", old, new)


# -- a unit is attacked once a combat phase (rules.toml [combat] defend_once) ------------------------------------------
RETREATED = HEAD + "Allied: attack 0418 with al-6ab al-gds odds 1:1 die 1 result DR\nGerman> retreat ge-7fj 0418-0518\n"
"""ge-7fj (defence 5) attacked in 0418 by 3 + 6, DR: its owner retreats it next to al-17ab (0519), where a retreat may
end in an enemy zone (the copy's `enemy_zoc = "allowed"`); al-gds set up in 0417."""


@pytest.fixture
def retreats(rhine: Path) -> Path:
    """The copy with retreats into enemy zones allowed and al-gds next to ge-7fj."""
    rules(rhine, 'chooser = "owner"\nenemy_zoc = "prohibited"', 'chooser = "owner"\nenemy_zoc = "allowed"')
    edit(rhine / "counters" / "rhine" / "setup.csv", "plunder,al-gds,0315,", "plunder,al-gds,0417,")
    return rhine


def test_a_unit_retreated_into_a_hex_not_attacked_is_not_attacked_again(retreats: Path, tmp_path: Path) -> None:
    """7.0 `defend_once`: the rule protects the units, so ge-7fj, attacked in 0418, may not be attacked again in 0518
    (the hex was not attacked: counting hexes let it be)."""
    log = RETREATED + "Allied: attack 0518 with al-17ab odds 1:2 die 1 result AR\nAllied: retreat al-17ab 0519-0520\n"
    assert verdict(tmp_path, RETREATED, retreats) == []
    assert verdict(tmp_path, log, retreats) == [(line_of(log, "attack 0518"), "error", "7.0")]
    message = next(f.message for f in run(tmp_path, log, retreats).findings if f.severity == "error")
    assert "ge-7fj in 0518 was attacked already this phase (in 0418)" in message


def test_a_compulsory_attack_counts_the_units_attacked(retreats: Path, tmp_path: Path) -> None:
    """7.0 `must_attack`: ge-7fj, attacked in 0418 and retreated next to al-17ab, counts as attacked (it may not be
    attacked again), and al-17ab, which could not have joined that attack, need not attack it; the units that stood
    next to the enemy from the start and did not attack are the phase's one error."""
    rules(retreats, "must_attack = false", "must_attack = true")
    log = RETREATED + "Phase reinforcement\n"
    found = run(tmp_path, log, retreats).findings
    assert verdict(tmp_path, log, retreats) == [(len(log.splitlines()), "error", "7.0")]
    message = next(f.message for f in found if f.severity == "error")
    assert "al-17ab" not in message and "0518" not in message and "al-43, al-51 did not attack" in message


# -- a bridge written the way it was before `cancels` (terrain.toml) -------------------------------------------------
def test_a_bridge_given_a_roads_cost_is_a_validate_warning(rhine: Path) -> None:
    """validate: a hexside feature with `mp_cost` (a road's cost) lying only on river hexsides is how a bridge was
    written before `cancels`; it still loads (a ford may mean it), but validate says what it reads as and suggests
    `cancels`. The designer's game, with `cancels`, has no warning."""
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(RHINE)])
    assert out.exit_code == 0 and "warning" not in out.output, out.output
    edit(rhine / "maps" / "rhine" / "terrain.toml", 'cancels = ["river"]\n', "mp_cost = 1\n")
    out = CliRunner().invoke(vmodbuild, ["validate", "rhine", "--data", str(rhine)])
    assert out.exit_code == 0, out.output
    assert "warning: " in out.output and "terrain.toml:69 [terrain.bridge.mp_cost]" in out.output
    assert "a road's cost" in out.output and 'did you mean `cancels = ["river"]`?' in out.output


# -- an attack's refusal worked out once ---------------------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "moscow"


@pytest.mark.parametrize("name", ["legal-sample-game.log", "breach-not-adjacent.log", "breach-attack-twice.log",
                                  "breach-multi-hex.log"])
def test_an_attacks_refusal_is_worked_out_once(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """7.0: whether the rules refuse an attack is worked out when the attack is checked and read when it is applied
    (it was worked out again): once an attack, the verdicts as they were."""
    from adjudicator.systems.classic import combat

    log = (EXAMPLES / name).read_text(encoding="utf-8")
    before = verdict(tmp_path, log)
    worked = combat._refusal
    calls: list[int] = []

    def counted(state: object, entry: object) -> object:
        calls.append(1)
        return worked(state, entry)  # type: ignore[arg-type]

    monkeypatch.setattr(combat, "_refusal", counted)
    assert verdict(tmp_path, log) == before
    attacks = sum(1 for line in log.splitlines() if ": attack " in line and not line.startswith("#"))
    assert len(calls) == attacks > 0


def test_a_compulsory_attack_is_owed_by_the_units_next_to_each_other_as_the_phase_began(rhine: Path,
                                                                                          tmp_path: Path) -> None:
    """7.0 `must_attack`: al-43's advance into Wesel (0317) brings it next to ge-8fj (0218), which no Allied unit
    stood next to as the combat phase began: no attack on it is owed (every other pair as the phase began fought)."""
    rules(rhine, "must_attack = false", "must_attack = true")
    setup = rhine / "counters" / "rhine" / "setup.csv"
    for old, new in (("al-gds,0315", "al-gds,0417"), ("ge-84,0617", "ge-84,0923"), ("ge-180,0717", "ge-180,1023"),
                     ("ge-8fj,1017", "ge-8fj,0218")):
        edit(setup, old, new)
    log = HEAD + ("Allied: attack 0317 with al-43 al-gds odds 1:1 die 1 result DR\nGerman> retreat ge-wesel 0317-0218\n"
                  "Allied: advance al-43 0316-0317\nAllied: attack 0418 with al-6ab odds 1:2 die 1 result AR\n"
                  "Allied: retreat al-6ab 0419-0420\nPhase reinforcement\n")
    assert verdict(tmp_path, log, rhine) == []
    idle = log.replace("Allied: attack 0418 with al-6ab odds 1:2 die 1 result AR\nAllied: retreat al-6ab 0419-0420\n", "")
    assert verdict(tmp_path, idle, rhine) == [(len(idle.splitlines()), "error", "7.0")]
    message = next(f.message for f in run(tmp_path, idle, rhine).findings if f.severity == "error")
    assert message.endswith("al-6ab did not attack; the enemy units in 0418 were not attacked"), message


# -- strategic movement (rules.toml [movement.strategic]: twice the allowance, more than three hexes from the enemy) --
TURN_2 = (TURN_1 + "Turn 2\nPhase reinforcement\nAllied: reinforce al-7ar 0610\nPhase rail\nPhase movement\n")
"""al-7ar (armour, 8) placed on the west edge on turn 2, far from the enemy, in the Allied Movement Phase."""
LONG = "0610-0510-0410-0310-0210-0110-0111-0211-0212-0112-0113-0213-0313-0413-0414-0314-0214-0114"
"""17 clear hexes, none within three of a German unit."""


def test_a_strategic_move_keeps_away_and_has_twice_the_allowance(tmp_path: Path) -> None:
    """4.4: 16 hexes at twice the allowance, more than three from the enemy, are lawful; a 17th is over the strategic
    allowance, cited and said as the strategic rule's (it was the counter's 8, at 4.0)."""
    lawful = TURN_2 + f"al-7ar strategic {LONG.rsplit('-', 1)[0]}\n"
    assert verdict(tmp_path, lawful, RHINE) == []
    over = TURN_2 + f"al-7ar strategic {LONG}\n"
    assert verdict(tmp_path, over, RHINE) == [(len(over.splitlines()), "error", "4.4")]
    message = next(f.message for f in run(tmp_path, over, RHINE).findings if f.severity == "error")
    assert "it had 16 of its strategic allowance (8 x2) left this phase" in message


@pytest.mark.parametrize("first, then", [("", "strategic "), ("strategic ", "")])
def test_a_units_movement_in_a_phase_is_strategic_or_not(tmp_path: Path, first: str, then: str) -> None:
    """4.4: al-7ar moving normally (7 hexes) and then strategically (7 more) had the strategic allowance for a move
    begun near the enemy or not: one error, the strategic rule's, at the second move; strategically then normally
    likewise (it was the allowance's 4.0, said as 0 MP left)."""
    hexes = LONG.split("-")
    log = TURN_2 + f"al-7ar {first}{'-'.join(hexes[:8])}\nal-7ar {then}{'-'.join(hexes[7:15])}\n"
    assert verdict(tmp_path, log, RHINE) == [(len(log.splitlines()), "error", "4.4")]
    message = next(f.message for f in run(tmp_path, log, RHINE).findings if f.severity == "error")
    assert "a unit's movement in a phase is strategic or not, all of it" in message


def test_the_movement_model_offers_no_strategic_move_after_a_normal_one(tmp_path: Path) -> None:
    """4.4: the model the readers ask (reach) applies the checker's rule: after a normal move al-7ar has no strategic
    reach, and after a strategic one no normal reach."""
    hexes = LONG.split("-")
    for first, other in (("", "strategic"), ("strategic ", "move")):
        replay = run(tmp_path, TURN_2 + f"al-7ar {first}{'-'.join(hexes[:4])}\n", RHINE)
        state = replay.final_state
        reach = replay.system.movement.reach(state, "al-7ar", other)
        assert not reach.hexes and "4.4: al-7ar moved" in reach.bars[0], reach
        assert replay.system.movement.reach(state, "al-7ar", "move" if other == "strategic" else "strategic").hexes


# -- a loss written for the wrong unit (8.0) ---------------------------------------------------------------------
@pytest.mark.parametrize("attack, wrong, owed", [
    ("0405 with ge-xl ge-xlvi odds 3:1 die 6 result DRL", "German: deplete ge-xl", "so-20 still owes 1 step"),
    ("0304 with ge-viii odds 1:1 die 6 result AL", "Soviet> deplete so-16", "the attackers (ge-viii) still owe 1 step"),
])
def test_a_loss_written_for_the_wrong_unit_is_one_error(tmp_path: Path, attack: str, wrong: str, owed: str) -> None:
    """8.0: the DRL's step written as the attacker's (or the AL's as the defender's) is one error, at that loss; the
    step the result still owes when the log moves on is the same mistake, noted (it was a second error)."""
    log = upto(1, "german_combat") + f"German: attack {attack}\n{wrong}\nPhase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, wrong), "error", "8.0")]
    notes = [f.message for f in run(tmp_path, log).findings if f.severity == "note"]
    assert any(owed in n and "not a breach of its own" in n for n in notes), notes


# -- an attack the rules refuse for several reasons (7.0) -----------------------------------------------------------
def test_an_attack_refused_for_several_reasons_is_one_error(tmp_path: Path) -> None:
    """7.0: an attack naming two units not next to so-30 is refused: one error at it, giving both (it was one error
    an attacker), and nothing of its result is owed."""
    log = upto(1, "german_combat") + "German: attack 0302 with ge-xli ge-xxvii ge-v odds 5:1 die 1 result DR\n" \
        "Phase german_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "attack 0302"), "error", "7.0")]
    message = next(f.message for f in run(tmp_path, log).findings if f.severity == "error")
    assert message == "ge-xxvii in 0103, ge-v in 0104 are not adjacent to 0302; only adjacent units attack"


def test_a_loss_no_result_owes_cites_the_results_section(tmp_path: Path) -> None:
    """8.0: a step lost with no combat result being carried out breaks the results' clause (where losses come from),
    as a retreat with none breaks the retreat's (8.1); it cited the combat section (7.0)."""
    log = upto(1, "german_combat") + "Soviet> deplete so-30\n"
    assert verdict(tmp_path, log) == [(line_of(log, "deplete"), "error", "8.0")]
