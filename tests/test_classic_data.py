"""A designer's slips in a classic game's data are `vmodbuild validate` errors at their file and line, and nothing
a designer can write makes `adjudicate` fail with an internal error (exit 3)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as adjudicate
from builder.cli import main as vmodbuild
from data_edits import edit

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def moscow(tmp_path: Path) -> Path:
    """A writable copy of Battle for Moscow's data."""
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / "moscow", tmp_path / kind / "moscow")
    return tmp_path


def validate(data: Path) -> tuple[int, str]:
    """`vmodbuild validate moscow`'s exit code and output."""
    result = CliRunner().invoke(vmodbuild, ["validate", "moscow", "--data", str(data)])
    return result.exit_code, result.output


SLIPS = {
    # An unknown result code in the table.
    "crt-code": ("crt.toml", '["DR", "DR", "DR", "DR", "DR", "DRL"]', '["DR", "DR", "XX", "DR", "DR", "DRL"]',
                 r"crt\.toml.*XX|rules\.toml.*XX"),
    # A table row with a gap.
    "crt-gap": ("crt.toml", '["DR", "DR", "DR", "DR", "DR", "DRL"]', '["DR", "DR", "DR", "DR", "DRL"]',
                r"crt\.toml"),
    # A phase naming a unit type the game does not have.
    "phase-type": ("game.toml", 'unit_types = ["panzer"]', 'unit_types = ["panzr"]', r"game\.toml.*panzr"),
    # A weather turn past the last turn.
    "weather-turn": ("rules.toml", "turns = [3, 4]", "turns = [3, 9]", r"rules\.toml:\d+.*turn 9"),
    # A rule citing a section the rules do not list.
    "section": ("rules.toml", 'kind = "stop"\nsource = "5.0"', 'kind = "stop"\nsource = "5.5"',
                r"rules\.toml.*5\.5"),
    # A terrain effect naming an unknown terrain.
    "terrain": ("rules.toml", 'terrain = "forest"', 'terrain = "forrest"', r"rules\.toml:\d+.*forrest.*forest"),
    # A victory place that is not on the map.
    "place": ("rules.toml", 'controls = ["Moscow"]', 'controls = ["Moskva"]', r"rules\.toml:\d+.*Moskva"),
    # A misspelt key of the attacks on several hexes, and a reading of their terrain the series does not have.
    "multi-hex": ("rules.toml", "multi_hex = false", "multi_hexes = true",
                  r"rules\.toml:\d+ \[combat\.multi_hexes\]: unknown key 'multi_hexes' \(did you mean 'multi_hex'\?\)"),
    "multi-hex-terrain": ("rules.toml", "multi_hex = false", 'multi_hex = true\nmulti_hex_terrain = "worst"',
                          r"rules\.toml:\d+ \[combat\.multi_hex_terrain\]: .*best_for_defender.*'worst'"),
}


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_a_designers_slip_is_a_validate_error(moscow: Path, slip: str) -> None:
    """Each slip is reported with its file (and line where the file has one), never a traceback."""
    name, old, new, pattern = SLIPS[slip]
    folder = "counters"
    edit(moscow / folder / "moscow" / name, old, new)
    code, output = validate(moscow)
    assert code != 0 and "Traceback" not in output, output
    assert re.search(pattern, output), output
    # A rules.toml that is there but wrong is not also reported missing.
    assert "needs counters/GAME/rules.toml" not in output, output


MUTATIONS = [
    ("rules.toml", 'kind = "stop"', 'kind = "lock"'), ("rules.toml", 'kind = "stop"', 'kind = "none"'),
    ("rules.toml", 'kind = "stop"', 'kind = "no_zoc_to_zoc"'), ("rules.toml", "limit = 1", "limit = 3"),
    ("rules.toml", 'count = "units"', 'count = "steps"'), ("rules.toml", 'checked = "end_of_phase"',
                                                          'checked = "end_of_move"'),
    ("rules.toml", 'below = "no_effect"', 'below = "prohibited"'), ("rules.toml", 'below = "no_effect"',
                                                                    'below = "lowest"'),
    ("rules.toml", 'chooser = "opponent"', 'chooser = "owner"'), ("rules.toml", "extend_to_empty = true",
                                                                  "extend_to_empty = false"),
    ("rules.toml", "must_attack = false", "must_attack = true"), ("rules.toml", "units = 1\nhexes = 1",
                                                                           "units = 0\nhexes = 0"),
    ("rules.toml", "max_hexes = 1", "max_hexes = 0"), ("rules.toml", "attack_factor = 0.5", "attack_factor = 0.01"),
    ("rules.toml", 'enemy_zoc = "blocked"', 'enemy_zoc = "allowed"'), ("rules.toml", "uses_allowance = true",
                                                                       "uses_allowance = false"),
    ("rules.toml", 'enemy_zoc = "stop"', 'enemy_zoc = "prohibited"'), ("rules.toml", "shift = -1", "shift = -9"),
    ("rules.toml", "shift = -1", "shift = 9"), ("rules.toml", 'otherwise = "Soviet"', 'otherwise = "draw"'),
    ("rules.toml", 'when = "end"', 'when = "any_time"'), ("rules.toml", 'start_reduced = ["Soviet"]',
                                                         'start_reduced = []'),
    ("rules.toml", 'rebuild = "reduced"', 'rebuild = "full"'), ("rules.toml", "defender_retreat = 2",
                                                                "defender_retreat = 9"),
    ("rules.toml", "multi_hex = false", "multi_hex = true"),
]


@pytest.mark.parametrize("mutation", range(len(MUTATIONS)))
def test_no_rule_choice_makes_the_referee_fail(moscow: Path, mutation: int) -> None:
    """Whatever each rule's choice or number, the sample game and every breach log are refereed (exit 0, 1 or 2,
    never 3)."""
    name, old, new = MUTATIONS[mutation]
    edit(moscow / "counters" / "moscow" / name, old, new)
    for log in [ROOT / "examples" / "moscow" / "legal-sample-game.log",
                *sorted((ROOT / "examples" / "moscow").glob("breach-*.log"))]:
        result = CliRunner().invoke(adjudicate, ["check", str(log), "--data", str(moscow)])
        assert result.exit_code in (0, 1, 2), (log.name, result.output, result.exception)


def test_more_slips_are_validate_errors(moscow: Path) -> None:
    """An unknown side set up reduced, and replacements past the last turn, are refused by validate."""
    edit(moscow / "counters" / "moscow" / "rules.toml", 'start_reduced = ["Soviet"]', 'start_reduced = ["Martian"]')
    code, output = validate(moscow)
    assert code != 0 and re.search(r"rules\.toml.*Martian", output), output
    edit(moscow / "counters" / "moscow" / "rules.toml", 'start_reduced = ["Martian"]', 'start_reduced = ["Soviet"]')
    with (moscow / "counters" / "moscow" / "replacements.csv").open("a", encoding="utf-8") as out:
        out.write("campaign,99,Soviet,steps,1,reconstructed,\n")
    code, output = validate(moscow)
    assert code != 0 and re.search(r"replacements\.csv:\d+.*turn 99", output), output
