"""A VASSAL recording's translation written out, and verdicts on it that cite VASSAL's steps."""

from __future__ import annotations

from typing import Any

import json
from collections.abc import Sequence

from adjudicator.engine import Replay
from adjudicator.findings import Finding
from adjudicator.markdown_escape import text as md_text
from adjudicator.notation.entries import Comment, Entry
from adjudicator.notation.text import write_text
from adjudicator.report import json_report, markdown_report, reconstructed_line, summary
from adjudicator.vassal.translate import Note, Translation, one_line


def annotated(translation: Translation, notes: Sequence[Note] | None = None, file: str | None = None) -> list[Entry]:
    """The entries with the reader's notes (`notes`, else the translation's) as comments after the
    step they concern, naming `file` if given (a chain of logs)."""
    out = list(translation.entries)
    where = f"{file} " if file else ""
    for note in reversed(translation.notes if notes is None else notes):
        at = next((i for i, e in enumerate(out) if e.line > note.step), len(out))
        out.insert(at, Comment(line=note.step, text=one_line(
            f"reader's note ({where}step {note.step}): {note.message}", 1000)))
    return out


def converted_text(translation: Translation) -> str:
    """The translation as a text log for a person to read or correct."""
    return write_text(annotated(translation))


def _ordered(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line, f.column, {"error": 0, "warning": 1, "note": 2}[f.severity]))


def _step(line: int) -> str:
    return "saved position" if line == 0 else f"step {line}"


def text_verdict(result: Replay[Any], translation: Translation, file: str) -> str:
    """`file: step N: error [onslaught 6.2]: message`, with what VASSAL showed at that step."""
    endpoint_steps = {translation.entries[i].line for i in translation.endpoint_moves}
    lines = []
    for f in _ordered(result.findings):
        lines.append(f"{file}: {_step(f.line)}: {f.severity} [{f.system} {f.rule}]: {f.message}")
        if f.line in translation.steps:
            lines.append(f"    VASSAL: {translation.steps[f.line]}")
        if f.is_reconstructed:
            lines.append(f"    {f.basis_tag()}")
        if f.line in endpoint_steps:
            lines.append("    (VASSAL recorded only where a counter ended in this step; the path is the reader's: "
                         "see `adjudicate convert`)")
    for note in translation.notes:
        lines.append(f"{file}: {_step(note.step)}: reader's note: {note.message}")
    s = summary(result)
    if result.stopped is not None:
        lines.append(f"{file}: replay stopped: {result.stopped}")
    lines.append(f"{file}: {s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s) from "
                 f"{len(translation.steps)} VASSAL step(s): {s['errors']} error(s), {s['warnings']} warning(s), "
                 f"{s['notes']} note(s)")
    if s["findings_by_rule"]:
        lines.append("by rule: " + ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items()))
    lines += reconstructed_line(s)
    return "\n".join(lines) + "\n"


def json_verdict(result: Replay[Any], translation: Translation) -> str:
    """The JSON verdict (each finding's `line` is its VASSAL step) plus the reader's side of it."""
    doc = json.loads(json_report(result))
    doc["vassal"] = vassal_section(translation, translation.notes)
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def vassal_section(translation: Translation, notes: Sequence[Note]) -> dict[str, object]:
    """The reader's side of a JSON verdict: every step, the notes, the reader's paths, the undone steps."""
    return {
        "file": translation.file,
        "scenario": translation.scenario,
        "steps": {str(n): text for n, text in sorted(translation.steps.items())},
        "notes": [{"step": n.step, "message": n.message} for n in notes],
        "endpoint_moves": [{"step": translation.entries[i].line, "note": why}
                           for i, why in sorted(translation.endpoint_moves.items())],
        "undone": {str(k): v for k, v in sorted(translation.undone.items())},
    }


def markdown_verdict(result: Replay[Any], translation: Translation, file: str) -> str:
    """The Markdown verdict, its `line` column headed `step` (0: the saved position)."""
    text = markdown_report(result, file).replace("| line | severity |", "| step | severity |", 1)
    if translation.notes:
        text += "\nReader's notes:\n\n" + "".join(f"- {_step(n.step)}: {md_text(n.message)}\n"
                                                 for n in translation.notes)
    return text
