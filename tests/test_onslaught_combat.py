"""Onslaught combat arithmetic: the 7.0 example, every 7.1 modifier, 7.5 doubling, the audit."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.systems.onslaught.combat import audit, odds_column
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.hexes import Hexside


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def find_side(game: Game, feature: str, clear_target: bool = True) -> Hexside:
    """Some hexside carrying a feature, with a clear hex on its far side."""
    for side, features in game.hexside_features.items():
        if features == frozenset({feature}) and game.hex_terrain[side.b] == ("clear",):
            return side
    raise AssertionError(feature)


def test_combat_example_7_0(game: Game) -> None:
    """7.0: two infantry (4+4) and an armor division (6) against a 4: 14:4 is 3:1; a 4 gives DH."""
    clear = next(h for h, t in game.hex_terrain.items() if t == ("clear",)
                 and all(game.hex_terrain[n] == ("clear",) for n in h.neighbours() if n in game.grid)
                 and not any(Hexside.between(h, n) in game.hexside_features for n in h.neighbours()))
    n1, n2 = clear.neighbours()[0], clear.neighbours()[1]
    result = audit(game, clear, [("de", 4)], [("a", n1, 4), ("b", n1, 4), ("c", n2, 6)], 4)
    assert (result.attack, result.defence, result.column, result.modified_die, result.result) == (14, 4, "3:1", 4, "DH")


def test_odds_round_down_and_bounds(game: Game) -> None:
    """7.0: ratios round down to a listed column; below and above the table use its ends."""
    assert odds_column(game, 14, 4)[0] == "3:1"
    assert odds_column(game, 7, 4)[0] == "1:1"
    assert odds_column(game, 2, 4)[0] == "1:2"
    assert odds_column(game, 1, 4)[0] == "1:2"
    assert odds_column(game, 40, 4)[0] == "6:1"
    assert odds_column(game, 4, 0)[0] == "6:1"


def test_defensive_terrain_and_clamp(game: Game) -> None:
    """7.1: forest, rough or bocage -1; modified rolls below 0 count as 0."""
    forest = next(h for h, t in game.hex_terrain.items() if t == ("forest",))
    attacker = next(n for n in forest.neighbours() if n in game.grid and Hexside.between(n, forest)
                    not in game.hexside_features)
    result = audit(game, forest, [("d", 4)], [("a", attacker, 8)], 1)
    assert [m.value for m in result.modifiers] == [-1]
    assert result.modified_die == 0


def test_supply_modifiers(game: Game) -> None:
    """7.1: an unsupplied attacker -1, an unsupplied defender +1; cumulative."""
    clear = next(h for h, t in game.hex_terrain.items() if t == ("clear",))
    a = clear.neighbours()[0]
    result = audit(game, clear, [("d", 4)], [("a", a, 8)], 6, attacker_unsupplied=True, defender_unsupplied=True)
    assert sorted(m.value for m in result.modifiers if "supply" in m.why) == [-1, 1]
    assert result.modified_die == 6  # 6 - 1 + 1


def test_river_and_major_waterway(game: Game) -> None:
    """7.1: all across rivers -1; all across a major waterway -2; some across each only -1."""
    river = find_side(game, "river")
    result = audit(game, river.b, [("d", 4)], [("a", river.a, 8)], 3)
    assert [m.value for m in result.modifiers if "across" in m.why] == [-1]
    waterway = find_side(game, "major_waterway")
    result = audit(game, waterway.b, [("d", 4)], [("a", waterway.a, 8)], 3)
    assert [m.value for m in result.modifiers if "across" in m.why] == [-2]
    others = [n for n in waterway.b.neighbours() if n in game.grid and n != waterway.a
              and Hexside.between(n, waterway.b) not in game.hexside_features]
    result = audit(game, waterway.b, [("d", 4)], [("a", waterway.a, 8), ("b", others[0], 4)], 3)
    assert not [m for m in result.modifiers if "across" in m.why]  # not all attackers cross water


def test_fortification_doubling(game: Game) -> None:
    """7.5: defence doubled only when every attacker attacks across a fortified hexside."""
    side = next(s for s, f in game.hexside_features.items() if "fortified" in f
                and "fortification" in game.hex_terrain[s.b] and "fortification" not in game.hex_terrain[s.a])
    fort, outside = side.b, side.a
    result = audit(game, fort, [("d", 4)], [("a", outside, 8)], 4, defender_in_fortification=True)
    assert result.doubled and result.defence == 8
    open_side = next((n for n in fort.neighbours() if n in game.grid and n != outside
                      and "fortified" not in game.hexside_features.get(Hexside.between(n, fort), frozenset())), None)
    if open_side is not None:
        result = audit(game, fort, [("d", 4)], [("a", outside, 8), ("b", open_side, 4)], 4,
                       defender_in_fortification=True)
        assert not result.doubled and result.defence == 4


def test_audit_command_from_a_log() -> None:
    """adjudicate combat LOG --at LINE explains the arithmetic, the result and the options."""
    result = CliRunner().invoke(main, ["combat", "examples/onslaught/legal-combat.log", "--at", "7"])
    assert result.exit_code == 0, result.output
    assert "7.0: 8:4 is 2:1" in result.output
    assert "7.1: -1 because defending stack in Bocage" in result.output
    assert "7.2: column 2:1, row 4: DR" in result.output
    assert "7.3 retreat: two hexes to" in result.output


def test_audit_command_without_a_log() -> None:
    """adjudicate combat --game ... --attack UNIT@HEX --defend UNIT@HEX --die N."""
    result = CliRunner().invoke(main, ["combat", "--game", "onslaught", "--attack", "us-inf-01@2019", "--attack",
                                       "us-inf-02@2019", "--attack", "us-arm-01@2120", "--defend", "de-inf-01@2020",
                                       "--die", "4"])
    assert result.exit_code == 0, result.output
    assert "14:4 rounds down to 3:1" in result.output and "row 4: DH" in result.output
    assert "armor (us-arm-01) one hex further" in result.output
    bad = CliRunner().invoke(main, ["combat", "--game", "onslaught", "--attack", "us-inf-1@2019", "--defend",
                                    "de-inf-01@2020"])
    assert bad.exit_code == 2 and "did you mean" in bad.stderr


def test_state_is_not_touched_by_audits(game: Game) -> None:
    """An audit reads the state only."""
    from adjudicator.systems import SYSTEMS
    from adjudicator.notation.entries import Attack

    system = SYSTEMS["onslaught"]
    state = replace(system.initial_state(game, []), location={"us-inf-01": "2019", "de-inf-01": "2020"})
    before = dict(state.location)
    system.combat_audit(state, Attack(hex="2020", attackers=["us-inf-01"], die=3))
    assert state.location == before


def test_odds_in_whole_numbers_are_the_fractions_ones() -> None:
    """7.0's column, worked out in whole numbers, is the one fractions give for any table and attack: the
    highest column at or below the ratio (the first of equal ones), and the same words for an exact ratio."""
    from fractions import Fraction

    from wargame.records import frozen

    @frozen
    class Table:
        """A table's columns (what odds_column reads)."""

        columns: tuple[str, ...]

    @frozen
    class Of:
        """A game with only a table."""

        crt: Table

    def by_fractions(columns: tuple[str, ...], attack: int, defence: int) -> tuple[str, str]:
        ratio = Fraction(attack, defence)
        usable = [c for c in columns if Fraction(*map(int, c.split(":"))) <= ratio]
        if not usable:
            return columns[0], f"{attack}:{defence} is below the lowest column, so {columns[0]} (table note)"
        column = max(usable, key=lambda c: Fraction(*map(int, c.split(":"))))
        exact = Fraction(*map(int, column.split(":"))) == ratio
        return column, f"{attack}:{defence} {'is' if exact else 'rounds down to'} {column}"

    for columns in (("1:2", "1:1", "2:1", "3:1", "6:1"), ("1:3", "2:3", "1:1", "3:2", "2:1", "4:2"), ("2:1", "1:2")):
        for attack in range(30):
            for defence in range(1, 15):
                got = odds_column(Of(Table(columns)), attack, defence)  # type: ignore[arg-type]
                assert got == by_fractions(columns, attack, defence), (columns, attack, defence)
