"""Golden logs: each example names, in `# expect:` comments, exactly the findings it must give."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import adjudicate_file, main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# examples/pbem holds the exchanges of one game, which replay only together (tests/test_ledger_logs.py).
LOGS = sorted(p for p in EXAMPLES.rglob("*.log") if p.relative_to(EXAMPLES).parts[0] != "pbem")
EXPECT = re.compile(r"#\s*expect:\s*(error|warning|note)\s+(\S+)")


def expected(path: Path) -> set[tuple[int, str, str]]:
    """(line, severity, rule) written in the log's comments."""
    out = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for severity, rule in EXPECT.findall(line):
            out.add((n, severity, rule))
    return out


@pytest.mark.parametrize("path", LOGS, ids=[str(p.relative_to(EXAMPLES)) for p in LOGS])
def test_example_gives_exactly_its_expected_findings(path: Path) -> None:
    """Errors and warnings match the expectations exactly; notes must include the expected ones."""
    result, _ = adjudicate_file(path, None)
    assert result.stopped is None, result.stopped
    found = {(f.line, f.severity, f.rule) for f in result.findings}
    want = expected(path)
    assert {f for f in found if f[1] != "note"} == {w for w in want if w[1] != "note"}
    assert {w for w in want if w[1] == "note"} <= found
    if path.name.startswith("breach-"):
        # One breach, one error: exactly one error finding, at the marked line, citing the marked clause.
        assert len({w for w in want if w[1] == "error"}) == 1, "a breach log breaks exactly one rule"
        assert len([f for f in result.findings if f.severity == "error"]) == 1, result.findings
    if path.name.startswith("legal-"):
        assert not [f for f in result.findings if f.severity == "error"], result.findings


@pytest.mark.parametrize("path", LOGS, ids=[str(p.relative_to(EXAMPLES)) for p in LOGS])
def test_exit_code(path: Path) -> None:
    """adjudicate exits 1 for a log with breaches and 0 for a clean one."""
    result = CliRunner().invoke(main, [str(path)])
    assert result.exit_code == (1 if any(s == "error" for _, s, _ in expected(path)) else 0), result.output


def test_rule_4_1_turn_1_example() -> None:
    """4.1: five points on the combat action, the last seven on seven stacks, four German points,
    three reserve moves leaving one point; then 8 German and 12 Allied points of income."""
    path = EXAMPLES / "onslaught" / "legal-rule-4.1-turn1.log"
    result, _ = adjudicate_file(path, None)
    assert not [f for f in result.findings if f.severity != "note"]
    reinforcement_line = next(e.line for e in result.entries if getattr(e, "step", None) == "reinforcement")
    before_income = result.state_at(reinforcement_line)
    assert before_income.supply == {"Allied": 0, "German": 1}
    assert result.final_state.supply == {"Allied": 12, "German": 9}
