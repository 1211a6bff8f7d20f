"""docs/rules-coverage.md is one step from a section to its check and its tests: every `path::function` and
every pytest node id of the systems' tables resolves, and the rows run in section order."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules-coverage.md"
HEADER = "| section | status | where (`path::function`) | tests (pytest node ids) |"


def tables(text: str) -> dict[str, list[list[str]]]:
    """Each system's table by its heading (`## Onslaught ...`): rows as cells, every table of the page
    whose header names sections, status, where and tests."""
    out: dict[str, list[list[str]]] = {}
    heading = ""
    in_table = False
    for line in text.splitlines():
        if line.startswith("## "):
            heading, in_table = line[3:].split(" (")[0].strip(), False
        elif line.startswith("| section | status | where"):
            in_table = True
            out[heading] = []
        elif in_table and line.startswith("|") and not line.startswith("|---"):
            out[heading].append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
        elif not line.startswith("|"):
            in_table = False
    return out


def section_key(name: str) -> tuple[int, ...]:
    """The sort key of a row: its first section number (`11.1.2, 11.2.4 reinforcements` -> (11, 1, 2))."""
    match = re.match(r"(\d+(?:\.\d+)*)", name)
    return tuple(int(n) for n in match.group(1).split(".")) if match else (10**6,)


def names_in(path: Path) -> set[str]:
    """Top-level names of a module, and `Class.method` for its classes' methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
            if isinstance(node, ast.ClassDef):
                out |= {f"{node.name}.{m.name}" for m in node.body if isinstance(m, ast.FunctionDef)}
        elif isinstance(node, ast.Assign):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def unresolved(rows: list[list[str]]) -> list[str]:
    """Every reference of the rows that does not resolve, and rows with no check or no test."""
    problems: list[str] = []
    for cells in rows:
        if len(cells) != 4:
            problems.append(f"{cells[0]}: {len(cells)} cells, not 4")
            continue
        section, _, where, tests = cells
        checks = re.findall(r"`([\w/.]+\.py)::([\w.]+)`", where)
        nodes = re.findall(r"`(tests/[\w/]+\.py)::(\w+)(?:\[([^\]]+)\])?`", tests)
        if not checks:
            problems.append(f"{section}: no `path::function` in its where column")
        if not nodes:
            problems.append(f"{section}: no pytest node id in its tests column")
        for file, name in checks:
            path = ROOT / file
            if not path.is_file():
                problems.append(f"{section}: {file} does not exist")
            elif name not in names_in(path):
                problems.append(f"{section}: {file} defines no {name}")
        for file, name, param in nodes:
            path = ROOT / file
            if not path.is_file():
                problems.append(f"{section}: {file} does not exist")
            elif name not in names_in(path):
                problems.append(f"{section}: {file} has no test {name}")
            elif param and file == "tests/test_examples.py" and not (ROOT / "examples" / param).is_file():
                problems.append(f"{section}: examples/{param} does not exist")
    return problems


SYSTEMS = {"Onslaught": "onslaught", "Fire & Movement / Omaha": "omaha", "Battle for Moscow": "moscow"}


@pytest.mark.parametrize("heading", ["Onslaught", "Fire & Movement / Omaha", "Battle for Moscow"])
def test_every_row_resolves_in_section_order(heading: str) -> None:
    """Each row names its checks as `path::function` and its tests as pytest node ids, all of which exist,
    and the rows are in section order."""
    rows = tables(PAGE.read_text(encoding="utf-8"))[heading]
    assert rows, heading
    assert unresolved(rows) == []
    keys = [section_key(cells[0]) for cells in rows]
    assert keys == sorted(keys)


def test_a_broken_reference_is_found() -> None:
    """A function that does not exist, a missing test and an unknown example are all reported."""
    rows = [["9.9 x", "checked", "`adjudicator/engine.py::no_such_function`",
             "`tests/test_engine.py::test_none`, `tests/test_examples.py::test_example_gives_exactly_its_expected_"
             "findings[onslaught/none.log]`"],
            ["9.8 y", "checked", "`adjudicator/engine.py::check`", "tests: none"]]
    assert unresolved(rows) == ["9.9 x: adjudicator/engine.py defines no no_such_function",
                                "9.9 x: tests/test_engine.py has no test test_none",
                                "9.9 x: examples/onslaught/none.log does not exist",
                                "9.8 y: no pytest node id in its tests column"]


def test_the_page_has_both_systems_tables() -> None:
    """Both systems' tables are found by the parser (so the tests above read real rows)."""
    found = tables(PAGE.read_text(encoding="utf-8"))
    assert set(SYSTEMS) <= set(found) and len(found["Onslaught"]) == 44


@pytest.mark.parametrize("heading", list(SYSTEMS))
def test_every_table_is_the_rules_commands_output(heading: str) -> None:
    """Each system's table is exactly `adjudicate rules GAME --format markdown` (generated, not typed)."""
    from click.testing import CliRunner

    from adjudicator.cli import main

    result = CliRunner().invoke(main, ["rules", SYSTEMS[heading], "--format", "markdown"])
    assert result.exit_code == 0, result.output
    page = PAGE.read_text(encoding="utf-8")
    assert result.output in page, f"docs/rules-coverage.md's {heading} table is not `adjudicate rules`' output"
    rows = tables(page)[heading]
    assert [cells[0].split()[0] for cells in rows] == [line.split()[1] for line in result.output.splitlines()[2:]]


def test_every_onslaught_handler_judges_a_listed_section() -> None:
    """Each handler of Onslaught's registry is named by the coverage row of the section it judges, so the table
    cannot leave a registered check out."""
    from adjudicator.coverage import where_of
    from adjudicator.systems.onslaught.coverage import FILE
    from adjudicator.systems.onslaught.rules import REGISTRY

    rows = {row.section: row for row in FILE.rows()}
    for handler in REGISTRY.handlers:
        assert handler.clause in rows, handler.name
        assert where_of(handler.check or handler.apply) in rows[handler.clause].where, handler.name


def test_every_classic_handler_names_existing_tests() -> None:
    """The tests a classic handler declares exist (the coverage table lists them)."""
    from adjudicator.systems.classic import REGISTRY

    declared = [t for h in REGISTRY.handlers for t in h.tests]
    assert declared
    for node in declared:
        file, _, name = node.partition("::")
        assert name in names_in(ROOT / file), node


def test_rules_as_json_lists_every_section_with_resolvable_handlers() -> None:
    """`adjudicate rules moscow --format json`: every section of rules.toml, each checked one with handlers that
    exist (`path::function`) and a breach log or test; a game on a hand-written system is refused with exit 2."""
    import json

    from click.testing import CliRunner

    from adjudicator.cli import main

    result = CliRunner().invoke(main, ["rules", "moscow", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert [s["section"] for s in doc["sections"]] == ["1.0", "2.0", "3.0", "4.0", "5.0", "6.0", "7.0", "8.0", "8.1",
                                                       "8.2", "9.0", "10.0", "11.0", "11.1", "12.0"]
    for section in doc["sections"]:
        for where in section["where"]:
            file, _, name = where.partition("::")
            assert name in names_in(ROOT / file), where
        assert section["tests"], section["section"]
    refused = CliRunner().invoke(main, ["rules", "no-such-game"])
    assert refused.exit_code == 2 and "Error:" in refused.output and "Traceback" not in refused.output


@pytest.mark.parametrize("game", ["onslaught", "omaha"])
def test_the_hand_written_systems_list_every_checked_section_as_json(game: str) -> None:
    """`adjudicate rules onslaught|omaha --format json`: every row's handlers resolve (`path::function`), every row has
    a test, and every section the system's table calls checked has a row."""
    import json

    from click.testing import CliRunner

    from adjudicator.cli import main

    result = CliRunner().invoke(main, ["rules", game, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["rule_system"] == game
    for section in doc["sections"]:
        assert section["where"] and section["tests"], section["section"]
        for where in section["where"]:
            file, _, name = where.partition("::")
            assert name in names_in(ROOT / file), where
    listed = {s for row in doc["sections"] for s in re.findall(r"\d+(?:\.\d+)*", row["section"])}
    if game == "onslaught":
        from adjudicator.systems.onslaught.sections import CHECKED
        assert set(CHECKED) <= listed


def test_the_rulings_register_has_no_row_twice() -> None:
    """Each ruling is written once (21 rows had been repeated word for word by merges: issue 25)."""
    page = PAGE.read_text(encoding="utf-8")
    register = page[page.index("## Rulings register"):]
    rows = [line for line in register.splitlines() if line.startswith("| ") and not line.startswith("| section")]
    assert rows and len(rows) == len(set(rows)), [r[:80] for r in rows if rows.count(r) > 1][:3]
