"""Verdicts for people and tools: gcc-style text with carets, JSON, Markdown for forum posts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from adjudicator.engine import NOTATION, Replay
from adjudicator.findings import ChainOrderError, Finding
from adjudicator.markdown_escape import code_span, text as md_text
from adjudicator.notation.entries import Comment, Entry, Header, TurnMarker
from adjudicator.notation.text import quoted_source
from wargame.errors import WargameError


def summary(result: Replay[Any]) -> dict[str, Any]:
    """Turns replayed, entries checked, findings by severity and by rule."""
    turns = [e.turn for e in result.entries if isinstance(e, TurnMarker)]
    by_rule = Counter(f"{f.system} {f.rule}" for f in result.findings if f.severity != "note")
    return {
        "game": result.game.id,
        "system": result.system.name,
        "turns_replayed": len(set(turns)),
        "entries_checked": played_entries(result.entries[:result.applied]),
        "entries": played_entries(result.entries),
        "errors": sum(1 for f in result.findings if f.severity == "error"),
        "warnings": sum(1 for f in result.findings if f.severity == "warning"),
        "notes": sum(1 for f in result.findings if f.severity == "note"),
        "findings_by_rule": dict(sorted(by_rule.items())),
        "stopped": None if result.stopped is None else str(result.stopped),
        "stopped_line": result.stopped_line,
        "reconstructed": sum(1 for f in result.findings if f.is_reconstructed),
    }


def played_entries(entries: Sequence[Entry]) -> int:
    """How many entries record play: comments and headers (`[Game "..."]`, repeated or not in each exchange of
    a game) are not counted, so one game's count is the same whatever files or form it comes in."""
    return sum(1 for e in entries if not isinstance(e, (Comment, Header)))


def _ordered(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line, f.column, {"error": 0, "warning": 1, "note": 2}[f.severity]))


def text_report(result: Replay[Any], source: Sequence[str], file: str) -> str:
    """gcc style: `file:line:col: error [onslaught 6.2]: message`, the source line and a caret."""
    lines = []
    for f in _ordered(result.findings):
        lines.append(f"{file}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}")
        if 0 < f.line <= len(source):
            lines += quoted_source(source[f.line - 1], f.column)
        if f.is_reconstructed:
            lines.append(f"    {f.basis_tag()}")
    s = summary(result)
    if result.stopped is not None:
        lines.append(f"{file}: replay stopped: {result.stopped}")
    # The summary names its log: several verdicts in a row (the README's first command) stay apart.
    lines.append(f"{file}: {s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
                 f"{s['errors']} error(s), {s['warnings']} warning(s), {s['notes']} note(s)")
    if s["findings_by_rule"]:
        lines.append("by rule: " + ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items()))
    lines += reconstructed_line(s)
    return "\n".join(lines) + "\n"


def reconstructed_line(s: dict[str, Any]) -> list[str]:
    """The summary's word on findings resting on reconstructed data (none: no line)."""
    if not s["reconstructed"]:
        return []
    return [f"{s['reconstructed']} finding(s) rest on reconstructed data (PROVENANCE.md; correct the data folder "
            "and give it with --data to judge on the printed game's values)"]


def markdown_finding(f: Finding) -> str:
    """A finding's message for a Markdown cell, with its basis, every character a player typed inert."""
    return md_text(f.message + (f" ({f.basis_tag()})" if f.is_reconstructed else ""))


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
    out = [f"### Umpire verdict: {code_span(file)} ({md_text(s['game'])})", "",
           f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
           f"**{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s).", ""]
    if result.findings:
        out += ["| line | severity | rule | finding |", "|---:|---|---|---|"]
        for f in _ordered(result.findings):
            out.append(f"| {f.line} | {f.severity} | {md_text(f.system)} {md_text(f.rule)} | {markdown_finding(f)} |")
    if result.stopped is not None:
        out += ["", f"Replay stopped: {md_text(result.stopped)}"]
    out += ["", *reconstructed_line(s)] if s["reconstructed"] else []
    return "\n".join(out) + "\n"


def unread_report(fmt: str, file: str, errors: Sequence[WargameError], source: Sequence[str]) -> str:
    """The full verdict document of a log that could not be replayed at all (no game named, not UTF-8, a
    JSON twin that does not validate...): the problems as findings of the notation, `summary.stopped` set."""
    findings = [Finding("error", *((e.system, e.rule) if isinstance(e, ChainOrderError) else (NOTATION, "syntax")),
                        (e.place.line or 0) if e.place else 0, (e.place.column or 1) if e.place else 1, e.message)
                for e in errors]
    first = findings[0] if findings else None
    stopped = str(errors[0]) if errors else "the log could not be read"
    s: dict[str, Any] = {"game": None, "system": None, "turns_replayed": 0, "entries_checked": 0, "entries": 0,
                         "errors": len(findings), "warnings": 0, "notes": 0,
                         "findings_by_rule": dict(Counter(f"{f.system} {f.rule}" for f in findings)),
                         "stopped": stopped, "stopped_line": first.line if first else None, "reconstructed": 0}
    if fmt == "json":
        return json.dumps({"findings": [f.as_dict() for f in findings], "summary": s, "final_state": None},
                          indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        out = [f"### Umpire verdict: {code_span(file)}", "", f"Nothing could be adjudicated: **{len(findings)} error(s)**.", "",
               "| line | severity | rule | finding |", "|---:|---|---|---|"]
        out += [f"| {f.line} | {f.severity} | {f.system} {f.rule} | {markdown_finding(f)} |" for f in findings]
        return "\n".join([*out, "", f"Replay stopped: {md_text(stopped)}"]) + "\n"
    lines = []
    for f in findings:
        lines.append(f"{file}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}" if f.line
                     else f"{file}: {f.severity} [{f.system} {f.rule}]: {f.message}")
        if 0 < f.line <= len(source):
            lines += quoted_source(source[f.line - 1], f.column)
    lines.append(f"{file}: replay stopped: {stopped}")
    lines.append(f"{file}: 0 entries checked: {len(findings)} error(s), 0 warning(s), 0 note(s)")
    return "\n".join(lines) + "\n"
