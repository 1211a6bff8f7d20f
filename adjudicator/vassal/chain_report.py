"""Verdicts on a chain of logs, every finding and note naming its file, and the chain as one text log."""

from __future__ import annotations

from typing import Any

import json
from dataclasses import replace
from collections.abc import Sequence

from adjudicator.engine import Replay
from adjudicator.findings import Finding
from adjudicator.markdown_escape import code_span, text as md_text
from adjudicator.notation.entries import Comment, Entry
from adjudicator.notation.text import quoted_source, write_text
from adjudicator.report import markdown_finding, reconstructed_line, summary
from adjudicator.vassal.chain import Chain, Part
from adjudicator.vassal.report import annotated, vassal_section
from adjudicator.vassal.translate import one_line

SEVERITY_ORDER = {"error": 0, "warning": 1, "note": 2}


def _ordered(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line, f.column, SEVERITY_ORDER[f.severity]))


def where(part: Part, local: int) -> str:
    """`saved position` or `step N` in a VASSAL file, `line N` in a text log."""
    if not part.is_vassal:
        return f"line {local}"
    return "saved position" if local == 0 else f"step {local}"


def _stopped_at(result: Replay[Any], chain: Chain) -> Part:
    """The file whose entry stopped the replay."""
    index = min(result.applied, len(result.entries) - 1)
    return chain.locate(result.entries[index].line)[0] if result.entries else chain.parts[-1]


def _totals(result: Replay[Any], chain: Chain) -> str:
    s = summary(result)
    steps = sum(len(p.translation.steps) for p in chain.parts if p.translation is not None)
    # VASSAL steps are counted only where VASSAL files are among the logs.
    vassal = f" ({steps} VASSAL step(s))" if any(p.translation is not None for p in chain.parts) else ""
    return (f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s) from "
            f"{len(chain.parts)} logs{vassal}: {s['errors']} error(s), {s['warnings']} warning(s), "
            f"{s['notes']} note(s)")


def logs_named(chain: Chain) -> str:
    """The chain's logs as a summary names them, the first and the last: `game/01.log to 04.log`."""
    first, last = chain.parts[0], chain.parts[-1]
    same_folder = all(p.path.parent == first.path.parent for p in chain.parts)
    return f"{first.name} to {last.path.name if same_folder else last.name}"


def chain_text_verdict(result: Replay[Any], chain: Chain) -> str:
    """`game-02.vlog: step 3: error [onslaught 5.2]: ...`; a text log's findings with its line and a caret."""
    lines: list[str] = []
    for f in _ordered(result.findings):
        part, local = chain.locate(f.line)
        message = chain.cited(f.message)
        if part.translation is None:
            lines.append(f"{part.name}:{local}:{f.column}: {f.severity} [{f.system} {f.rule}]: {message}")
            if 0 < local <= len(part.source):
                lines += quoted_source(part.source[local - 1], f.column)
            lines += [f"    {f.basis_tag()}"] if f.is_reconstructed else []
            continue
        lines.append(f"{part.name}: {where(part, local)}: {f.severity} [{f.system} {f.rule}]: {message}")
        if local in part.translation.steps:
            lines.append(f"    VASSAL: {part.translation.steps[local]}")
        lines += [f"    {f.basis_tag()}"] if f.is_reconstructed else []
        if local in {part.translation.entries[i].line for i in part.translation.endpoint_moves}:
            lines.append("    (VASSAL recorded only where a counter ended in this step; the path is the reader's: "
                         "see `adjudicate convert`)")
    for part in chain.parts:
        lines += [f"{part.name}: {where(part, n.step)}: reader's note: {n.message}" for n in part.notes]
    if result.stopped is not None:
        lines.append(f"{_stopped_at(result, chain).name}: replay stopped: {chain.cited(str(result.stopped))}")
    # The summary names the logs, as one log's verdict names its log: verdicts in a row stay apart.
    lines.append(f"{logs_named(chain)}: {_totals(result, chain)}")
    s = summary(result)
    if s["findings_by_rule"]:
        lines.append("by rule: " + ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items()))
    lines += reconstructed_line(s)
    return "\n".join(lines) + "\n"


def chain_json_verdict(result: Replay[Any], chain: Chain) -> str:
    """Findings with their `file` and `line` (the VASSAL step, or the text log's line), then each file."""
    findings = []
    for f in _ordered(result.findings):
        part, local = chain.locate(f.line)
        findings.append({**f.as_dict(), "file": part.name, "line": local, "message": chain.cited(f.message)})
    s = summary(result)
    if result.stopped is not None:
        s["stopped"] = chain.cited(str(result.stopped))
        s["stopped_in"] = _stopped_at(result, chain).name
        s["stopped_line"] = chain.locate(result.stopped_line)[1] if result.stopped_line is not None else None
    files: list[dict[str, object]] = []
    for part in chain.parts:
        if part.translation is None:
            files.append({"file": part.name, "kind": "text"})
        else:
            files.append({**vassal_section(part.translation, part.notes), "file": part.name, "kind": "vassal"})
    doc = {"findings": findings, "summary": s, "final_state": result.system.describe(result.final_state),
           "files": files}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def chain_markdown_verdict(result: Replay[Any], chain: Chain) -> str:
    """A Markdown table for a forum post, each finding with its file and step."""
    s = summary(result)
    names = ", ".join(code_span(p.name) for p in chain.parts)
    out = [f"### Umpire verdict: {len(chain.parts)} logs ({md_text(s['game'])})", "", f"Logs, in order: {names}.", "",
           _totals(result, chain).replace(f"{s['errors']} error(s)", f"**{s['errors']} error(s)**"), ""]
    if result.findings:
        out += ["| file | step | severity | rule | finding |", "|---|---|---|---|---|"]
        for f in _ordered(result.findings):
            part, local = chain.locate(f.line)
            out.append(f"| {code_span(part.name, in_table=True)} | {where(part, local)} | {f.severity} | {f.system} {f.rule} | "
                       f"{markdown_finding(replace(f, message=chain.cited(f.message)))} |")
    out += ["", *reconstructed_line(s)] if s["reconstructed"] else []
    if result.stopped is not None:
        out += ["", f"Replay stopped in {code_span(_stopped_at(result, chain).name)}: "
                   f"{md_text(chain.cited(str(result.stopped)))}"]
    notes = [f"- {code_span(p.name)} {where(p, n.step)}: {md_text(n.message)}" for p in chain.parts for n in p.notes]
    if notes:
        out += ["", "Reader's notes:", "", *notes]
    return "\n".join(out) + "\n"


def chain_entries(chain: Chain) -> list[Entry]:
    """The whole chain as one log: each file's entries, its notes and how it joins the one before, as comments."""
    out: list[Entry] = []
    for part in chain.parts:
        if part.translation is None:
            out += part.entries
            continue
        entries = annotated(part.translation, part.notes, part.name)
        joins = [Comment(line=0, text=one_line(f"{part.name}: saved position: {f.severity} [{f.system} {f.rule}]: "
                                               f"{f.message}", 1000))
                 for f in chain.findings if chain.locate(f.line)[0] is part]
        at = next((i for i, e in enumerate(entries) if e.line > 0 or not isinstance(e, Comment)), len(entries))
        out += [*entries[:at], *joins, *entries[at:]]
    return out


def chain_text(chain: Chain) -> str:
    """The chain as a text log for a person to read or correct."""
    return write_text(chain_entries(chain))
