"""The HTML verdict is a renderer of the verdict document (issue 25 item 5): every fact the text verdict shows
(each finding's place, clause, message and basis, the remarks, the summary, the stop, the reader's notes) is on
the page, from the same document, for one text log, a game's exchanges and a VASSAL file."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import main as referee
from adjudicator.sources import open_logs
from adjudicator.verdict import Verdict, reconstructed_line, render, verdict_of
from adjudicator.verdict_html import render_html

ROOT = Path(__file__).resolve().parent.parent
ONSLAUGHT = ROOT / "examples" / "onslaught"
CHANGED_DIE = ROOT / "examples" / "pbem" / "changed-die"


def _verdict(*logs: Path) -> Verdict:
    source = open_logs(logs, None, stop_at_unknown=True)
    return verdict_of(source, source.replay(keep_states=False))


def _page_text(verdict: Verdict) -> str:
    """The page's words as a reader sees them: tags dropped, entities read."""
    page = render_html(verdict)
    assert page.startswith("<!DOCTYPE html>")
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _assert_every_fact_on_the_page(verdict: Verdict) -> None:
    page = _page_text(verdict)
    flat = " ".join(page.split())

    def shown(words: str) -> bool:
        return " ".join(words.split()) in flat

    s = verdict.summary
    assert shown(verdict.title) and shown(f"{s['entries_checked']} of {s['entries']}{verdict.counted_from}")
    assert shown(f"{s['errors']} error(s), {s['warnings']} warning(s), {s['notes']} note(s)")
    assert all(shown(f"{rule} x{n}") for rule, n in s["findings_by_rule"].items())
    assert all(shown(line) for line in reconstructed_line(s))
    if s["stopped"] is not None:
        assert shown(str(s["stopped"])) and (verdict.kind != "chain" or shown(verdict.stopped_in))
    for c in verdict.findings:
        f = c.finding
        assert shown(verdict.cite(c)) and shown(f"[{f.system} {f.rule}]") and shown(f.message), f
        assert not f.is_reconstructed or shown(f.basis_tag())
        assert all(shown(remark) for remark in c.remarks)
    for note in verdict.notes:
        assert shown(f"{note.where}: {note.message}")


def test_a_text_logs_facts_are_on_its_page(tmp_path: Path) -> None:
    """A breach resting on reconstructed data, and a replay stopped by an unknown unit."""
    verdict = _verdict(ONSLAUGHT / "breach-odds.log")
    assert any(c.finding.is_reconstructed for c in verdict.findings)
    _assert_every_fact_on_the_page(verdict)
    stopped = tmp_path / "stopped.log"
    stopped.write_text((ONSLAUGHT / "breach-odds.log").read_text(encoding="utf-8")
                       + "Allied: move us-inf-99 0620-0621\n", encoding="utf-8")
    verdict = _verdict(stopped)
    assert verdict.summary["stopped"] is not None
    _assert_every_fact_on_the_page(verdict)


def test_a_games_exchanges_are_cited_in_their_own_files(tmp_path: Path) -> None:
    """A chain's findings on the page name their file and line there (they named the chain's numbering) and so
    does its stop; the excerpt is the file's own lines."""
    verdict = _verdict(CHANGED_DIE)
    _assert_every_fact_on_the_page(verdict)
    page = render_html(verdict)
    second = CHANGED_DIE / "02-turn-2.log"
    assert f"<h2>{second} line 13</h2>" in page and 'id="log-2-line-13"' in page
    assert '<span class="hit">   13  Allied: attack 0319' in page
    logs = [tmp_path / p.name for p in sorted(CHANGED_DIE.glob("*.log"))]
    for log, given in zip(logs, sorted(CHANGED_DIE.glob("*.log"))):
        log.write_text(given.read_text(encoding="utf-8"), encoding="utf-8")
    logs[2].write_text(logs[2].read_text(encoding="utf-8") + "Allied: move us-inf-99 0620-0621\n", encoding="utf-8")
    verdict = _verdict(*logs)
    assert verdict.kind == "chain" and verdict.stopped_in == str(logs[2])
    _assert_every_fact_on_the_page(verdict)


def test_a_vassal_files_facts_are_on_its_page(tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """A VASSAL file's findings by step, the reader's remarks on its moves and its count of steps."""
    vlog = tmp_path / "game.vlog"
    done = CliRunner().invoke(referee, ["export", str(ONSLAUGHT / "breach-zoc.log"), "--module",
                                        str(built_module("onslaught")), "-o", str(vlog)])
    assert done.exit_code == 0, done.output
    verdict = _verdict(vlog)
    assert verdict.kind == "vassal" and verdict.findings and verdict.counted_from
    _assert_every_fact_on_the_page(verdict)


@pytest.mark.parametrize("log", sorted(ONSLAUGHT.glob("breach-*.log"))[:6], ids=lambda p: p.name)
def test_every_finding_of_the_text_verdict_is_on_the_page(log: Path) -> None:
    """The text verdict's heads (`file:line:col: severity [clause]: message`) each have their finding on the page."""
    verdict = _verdict(log)
    text = render(verdict, "text")
    page = _page_text(verdict)
    for head in re.findall(r"^\S+:\d+:\d+: (\w+) \[([^\]]+)\]: (.*)$", text, re.MULTILINE):
        assert f"[{head[1]}]" in page and head[2] in " ".join(page.split()), head


def test_the_final_position_is_described_only_for_a_json_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text, Markdown or HTML verdict never describes the final position (Onslaught's victory points, 13.3, were
    about 3% of a cold text check); a JSON verdict describes it once, however often it is rendered."""
    from adjudicator.systems import SYSTEMS
    from adjudicator.verdict import render_json

    system = type(SYSTEMS["onslaught"])
    described: list[object] = []
    real = system.describe

    def counted(self: object, state: object) -> dict[str, object]:
        described.append(state)
        return real(self, state)  # type: ignore[arg-type]
    monkeypatch.setattr(system, "describe", counted)
    verdict = _verdict(ONSLAUGHT / "legal-sample-game.log")
    for fmt in ("text", "markdown"):
        render(verdict, fmt)
    render_html(verdict)
    assert described == []
    first = json.loads(render_json(verdict))["final_state"]
    assert json.loads(render_json(verdict))["final_state"] == first and len(described) == 1
    assert first["victory_points"] and first["positions"]
