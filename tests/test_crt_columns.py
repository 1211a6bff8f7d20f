"""A combat table's columns are read as the referee reads them, or refused when the data load: an odds column that is
not A:D of two whole numbers above zero, or columns that do not rise from left to right, used to fail a check with an
internal error, or to give a legal log false breaches of the odds rule (Battle for Moscow 7.0, six of them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from umpire.cli import main as adjudicate
from wargame.errors import DataErrors
from wargame.game import load_game

ROOT = Path(__file__).resolve().parents[1]
MOSCOW_COLUMNS = 'columns = ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]'


def _moscow(tmp_path: Path, columns: str, kind: str = "odds") -> Path:
    """A copy of Battle for Moscow's data with other columns in crt.toml (and another kind of table)."""
    for folder in ("maps", "counters"):
        shutil.copytree(ROOT / folder / "moscow", tmp_path / folder / "moscow")
    crt = tmp_path / "counters" / "moscow" / "crt.toml"
    text = crt.read_text(encoding="utf-8")
    assert MOSCOW_COLUMNS in text and 'kind = "odds"' in text
    crt.write_text(text.replace(MOSCOW_COLUMNS, f"columns = [{columns}]").replace('kind = "odds"', f'kind = "{kind}"'),
                   encoding="utf-8")
    return tmp_path


def _problems(root: Path) -> list[str]:
    with pytest.raises(DataErrors) as refused:
        load_game(root, "moscow")
    return [str(e) for e in refused.value.errors]


@pytest.mark.parametrize("column", ["2-1", "2:0", "0:1", "x", "1:1.5", "-1:2", "1:", ":2", "2:1:1", "\uff12:1",
                                    "1234567:1", " 2:1"])
def test_an_odds_column_not_a_to_d_is_refused_when_the_data_load(tmp_path: Path, column: str) -> None:
    root = _moscow(tmp_path, f'"1:1", "{column}", "3:1", "4:1", "5:1", "6:1"')
    (problem,) = _problems(root)
    assert "crt.toml:8 [columns]" in problem
    assert f"odds column {column!r} is not two whole numbers above zero as A:D" in problem
    # The referee stops with the data's problem (exit 2), not an internal error (exit 3) in the middle of a check.
    result = CliRunner().invoke(adjudicate, ["--data", str(root), "check",
                                             str(ROOT / "examples" / "moscow" / "legal-sample-game.log")])
    assert result.exit_code == 2 and "odds column" in result.output + (result.stderr or "")


@pytest.mark.parametrize(("columns", "named"), [('"2:1", "1:1", "3:1", "4:1", "5:1", "6:1"', "'1:1' follows '2:1'"),
                                                ('"1:1", "2:2", "3:1", "4:1", "5:1", "6:1"', "'2:2' follows '1:1'"),
                                                ('"1:1", "2:1", "3:1", "4:1", "6:1", "5:1"', "'5:1' follows '6:1'")])
def test_odds_columns_that_do_not_rise_are_refused(tmp_path: Path, columns: str, named: str) -> None:
    """The referee reads the highest column at or below the odds and shifts along the table: columns out of order
    had a legal sample game breach 7.0 six times."""
    (problem,) = _problems(_moscow(tmp_path, columns))
    assert f"odds column {named} but is not higher" in problem and "crt.toml:8 [columns]" in problem


def test_rising_odds_columns_of_any_terms_load(tmp_path: Path) -> None:
    root = _moscow(tmp_path, '"1:3", "1:2", "2:3", "1:1", "3:2", "2:1"')
    assert load_game(root, "moscow").crt.columns[0] == "1:3"  # type: ignore[union-attr]


def _differential_problems(root: Path) -> list[str]:
    try:
        load_game(root, "moscow")
    except DataErrors as refused:
        return [str(e) for e in refused.errors if "differential column" in str(e)]
    return []


def test_a_classic_differential_tables_columns_are_rising_whole_numbers(tmp_path: Path) -> None:
    """On the classic series a differential table's columns are the differences they read: whole numbers (a sign or
    the minus sign allowed), rising; anything else is refused at crt.toml's `columns` line."""
    assert _differential_problems(_moscow(tmp_path / "fine", '"-2", "\u22121", "0", "+1", "2", "+3"',
                                          "differential")) == []
    (word,) = _differential_problems(_moscow(tmp_path / "word", '"-1", "0", "x", "+2", "+3", "+4"', "differential"))
    assert "differential column 'x' is not a whole number" in word and "crt.toml:8" in word
    (signs,) = _differential_problems(_moscow(tmp_path / "signs", '"-1", "0", "+-2", "+2", "+3", "+4"', "differential"))
    assert "differential column '+-2' is not a whole number" in signs
    (order,) = _differential_problems(_moscow(tmp_path / "order", '"0", "-1", "+1", "+2", "+3", "+4"',
                                              "differential"))
    assert "differential column '-1' is not higher than the one before it" in order and "crt.toml:8" in order
