"""Verdicts for people and tools: gcc-style text with carets, JSON, Markdown for forum posts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from adjudicator.engine import Replay
from adjudicator.findings import Finding
from adjudicator.notation.entries import TurnMarker


def summary(result: Replay[Any]) -> dict[str, Any]:
    """Turns replayed, entries checked, findings by severity and by rule."""
    turns = [e.turn for e in result.entries if isinstance(e, TurnMarker)]
    by_rule = Counter(f"{f.system} {f.rule}" for f in result.findings if f.severity != "note")
    return {
        "game": result.game.id,
        "system": result.system.name,
        "turns_replayed": len(set(turns)),
        "entries_checked": result.applied,
        "entries": len(result.entries),
        "errors": sum(1 for f in result.findings if f.severity == "error"),
        "warnings": sum(1 for f in result.findings if f.severity == "warning"),
        "notes": sum(1 for f in result.findings if f.severity == "note"),
        "findings_by_rule": dict(sorted(by_rule.items())),
        "stopped": None if result.stopped is None else str(result.stopped),
    }


def _ordered(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line, f.column, {"error": 0, "warning": 1, "note": 2}[f.severity]))


def text_report(result: Replay[Any], source: Sequence[str], file: str) -> str:
    """gcc style: `file:line:col: error [onslaught 6.2]: message`, the source line and a caret."""
    lines = []
    for f in _ordered(result.findings):
        lines.append(f"{file}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}")
        if 0 < f.line <= len(source):
            lines.append(f"    {source[f.line - 1]}")
            lines.append(f"    {' ' * (f.column - 1)}^")
    s = summary(result)
    if result.stopped is not None:
        lines.append(f"{file}: replay stopped: {result.stopped}")
    # The summary names its log: several verdicts in a row (the README's first command) stay apart.
    lines.append(f"{file}: {s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
                 f"{s['errors']} error(s), {s['warnings']} warning(s), {s['notes']} note(s)")
    if s["findings_by_rule"]:
        lines.append("by rule: " + ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items()))
    return "\n".join(lines) + "\n"


def json_report(result: Replay[Any]) -> str:
    """The verdict as JSON: findings, summary and final state (docs/log-format.md)."""
    doc = {
        "findings": [f.as_dict() for f in _ordered(result.findings)],
        "summary": summary(result),
        "final_state": result.system.describe(result.final_state),
    }
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def markdown_report(result: Replay[Any], file: str) -> str:
    """The verdict as a Markdown table for a forum post."""
    s = summary(result)
    out = [f"### Umpire verdict: `{file}` ({s['game']})", "",
           f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
           f"**{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s).", ""]
    if result.findings:
        out += ["| line | severity | rule | finding |", "|---:|---|---|---|"]
        for f in _ordered(result.findings):
            out.append(f"| {f.line} | {f.severity} | {f.system} {f.rule} | {f.message.replace('|', '/')} |")
    if result.stopped is not None:
        out += ["", f"Replay stopped: {result.stopped}"]
    return "\n".join(out) + "\n"
