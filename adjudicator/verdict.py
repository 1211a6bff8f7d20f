"""One way out (house style 20): a verdict as one document (its findings sorted once, each cited in its own
file's terms) and a renderer per format: gcc-style text with carets, JSON for tools, Markdown for forum posts, and
an HTML page (`adjudicator.verdict_html`) with the pictures umpire draws of its entries (`Verdict.pictures`).

A verdict is made from what `adjudicator.sources` read and its replay: one text log, one VASSAL file (its lines
are VASSAL's steps), a game's files in order (each finding names its file), or a log that could not be
replayed at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, replace
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from adjudicator.findings import ChainOrderError, Finding
from adjudicator.markdown_escape import code_span, text as md_text
from adjudicator.notation.syntax_errors import quoted_source
from adjudicator.rendering import gravity, json_document, markdown_table, ordered
from wargame.errors import WargameError
from wargame.records import frozen

if TYPE_CHECKING:
    from adjudicator.contract import StateT
    from adjudicator.engine import Replay
    from adjudicator.notation.entries import Entry
    from adjudicator.sources import LogSource
    from adjudicator.vassal.chain import Chain, Part
    from adjudicator.vassal.translate import Note, Translation

Kind = Literal["log", "vassal", "chain", "unread", "dice"]
ENDPOINT_REMARK = ("    (VASSAL recorded only where a counter ended in this step; the path is the reader's: see "
                   "`adjudicate convert`)")
CONTEXT_LINES = 2
"""The lines of its file a page shows before and after a finding's line."""


class Summary(TypedDict):
    """A verdict's counts, as the JSON document's `summary` gives them (docs/log-format.md)."""

    game: str | None
    system: str | None
    turns_replayed: int
    entries_checked: int
    entries: int
    errors: int
    warnings: int
    notes: int
    findings_by_rule: dict[str, int]
    """Errors and warnings by `system rule`."""
    stopped: str | None
    """Why the replay stopped (None: it went to the end)."""
    stopped_line: int | None
    reconstructed: int
    """How many findings rest on reconstructed data."""
    stopped_in: NotRequired[str]
    """A chain's file the replay stopped in."""


@frozen
class Cited:
    """One finding as the verdict cites it: its file, its line (a VASSAL step) there, and what is quoted."""

    finding: Finding
    """In its file's terms: its line the file's own, a chain's `line N` in its message naming the file."""
    file: str
    where: str | None
    """`step 3` or `saved position` in a VASSAL file, "" for no place, None for a text log's `line:column`."""
    quoted: tuple[str, ...] = ()
    """The lines under it before its basis: the source line and a caret, or what VASSAL showed."""
    remarks: tuple[str, ...] = ()
    """The lines after its basis."""
    context: tuple[tuple[int, str], ...] = ()
    """The lines around it in its file (what VASSAL showed around a step), numbered, receipts elided: a page's
    excerpt."""

    @property
    def place(self) -> str:
        """`line 12`, `step 3` or `saved position`."""
        return self.where or f"line {self.finding.line}"


@frozen
class ReaderNote:
    """A note of the VASSAL reader on a step of a file."""

    file: str
    where: str
    message: str


class FinalState:
    """The final position as JSON data, worked out the first time it is asked for: only a JSON verdict prints it, and
    describing it (Onslaught's victory points, 13.3) was about 3% of a text verdict's cold check (issue 30)."""

    __slots__ = ("_describe", "_described")

    def __init__(self, describe: Callable[[], object]) -> None:
        self._describe: Callable[[], object] | None = describe
        self._described: object = None

    def data(self) -> object:
        """The description, worked out once."""
        if self._describe is not None:
            self._described, self._describe = self._describe(), None
        return self._described

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FinalState) and self.data() == other.data()

    __hash__ = None  # type: ignore[assignment]  # compared by its data, which may be a dict

    def __repr__(self) -> str:
        return f"FinalState({self.data()!r})"


@frozen
class Verdict:
    """What a check found, for every format alike."""

    kind: Kind
    name: str
    """The log (or, for a chain, the first and last logs) the summary names."""
    findings: tuple[Cited, ...]
    summary: Summary
    counted_from: str = ""
    """What the entries came from, in the text summary: ` from 58 VASSAL step(s)`, ` from 4 logs`."""
    files: tuple[str, ...] = ()
    """A chain's files in order."""
    notes: tuple[ReaderNote, ...] = ()
    stopped_in: str = ""
    """The file the replay stopped in."""
    final_state: FinalState | None = None
    sections: dict[str, object] = field(default_factory=dict)
    """The JSON document's own sections beside findings, summary and final state (`vassal`, `files`)."""
    pictures: Pictures | None = None
    """The pictures of its entries for a page, drawn by umpire (None: a verdict without pictures)."""

    @property
    def title(self) -> str:
        """The logs as a page names them: each file's name, in order."""
        return ", ".join(Path(file).name for file in (self.files or (self.name,)))

    def cite(self, c: Cited) -> str:
        """A finding's place named for people: `game.log line 12`, `game.vlog step 5` (a chain's file as given)."""
        return f"{c.file if self.kind == 'chain' else Path(c.file).name} {c.place}"

    def by_entry(self) -> list[tuple[Cited, ...]]:
        """The findings of each entry (its file and line) in the verdict's order, an entry's gravest first."""
        return [tuple(sorted(group, key=lambda c: gravity(c.finding)))
                for _, group in groupby(self.findings, key=lambda c: (c.file, c.finding.line))]

    def pictures_left_out(self) -> str | None:
        """Which entries have no picture for the cap on pictures, named (None: none left out)."""
        if self.pictures is None:
            return None
        figures = self.pictures.figures
        cites = [self.cite(group[0]) for group in self.by_entry()
                 if (group[0].file, group[0].finding.line) in figures
                 and figures[(group[0].file, group[0].finding.line)] is None]
        if not cites:
            return None
        named = ", ".join(cites[:20]) + (f" and {len(cites) - 20} more" if len(cites) > 20 else "")
        return (f"the first {self.pictures.cap} entries with findings on the map are pictured; {len(cites)} are not: "
                f"{named} (docs/limits.md)")


@frozen
class Figure:
    """A picture of the position before an entry, drawn for a page: the PNG, its size and its marks' key."""

    png: bytes
    width: int
    height: int
    legend: tuple[tuple[str, str], ...]
    """Each colour of mark the picture shows (a CSS colour) and what it means, in drawing order."""


@frozen
class Pictures:
    """The pictures of a verdict's entries, by file and line: None where one was due past the cap, no key for an
    entry whose findings concern no place on the map."""

    figures: Mapping[tuple[str, int], Figure | None]
    cap: int
    """How many entries one verdict pictures (docs/limits.md)."""


def played_entries(entries: Sequence[Entry]) -> int:
    """How many entries record play: comments and headers (`[Game "..."]`, repeated or not in each exchange of
    a game) are not counted, so one game's count is the same whatever files or form it comes in."""
    return sum(1 for e in entries if not e.is_comment and e.as_header() is None)


def summary(result: Replay[StateT]) -> Summary:
    """Turns replayed, entries checked, findings by severity and by rule."""
    turns = [marker.turn for e in result.entries if (marker := e.as_turn_marker()) is not None]
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


def _step(line: int) -> str:
    return "saved position" if line == 0 else f"step {line}"


def _quoted(source: Sequence[str], line: int, column: int) -> tuple[str, ...]:
    # An empty line holds no entry to quote: a JSON log's line of its own JSON (adjudicator.notation.jsonlog).
    return tuple(quoted_source(source[line - 1], column)) if 0 < line <= len(source) and source[line - 1] else ()


def _context(lines: Sequence[str], line: int) -> tuple[tuple[int, str], ...]:
    """The lines around a line of a file, numbered, receipts elided."""
    from adjudicator.notation.text import elide_receipts
    return tuple((n, elide_receipts(lines[n - 1])) for n in range(line - CONTEXT_LINES, line + CONTEXT_LINES + 1)
                 if 0 < n <= len(lines))


def _text_cited(f: Finding, file: str, lines: Sequence[str]) -> Cited:
    return Cited(f, file, None, _quoted(lines, f.line, f.column), context=_context(lines, f.line))


def endpoint_steps(translation: Translation) -> frozenset[int]:
    """The steps of the moves VASSAL recorded only by their end points (worked out once a verdict, not a finding)."""
    return frozenset(translation.entries[i].line for i in translation.endpoint_moves)


def _vassal_cited(f: Finding, file: str, translation: Translation, local: int, steps: Sequence[str],
                  endpoint_steps: frozenset[int]) -> Cited:
    shown = (f"    VASSAL: {translation.steps[local]}",) if local in translation.steps else ()
    remarks = ((ENDPOINT_REMARK,) if local in endpoint_steps else ()) + \
        ((translation.remarks[local],) if local in translation.remarks else ())
    return Cited(f, file, _step(local), shown, remarks, _context(steps, local))


def verdict_of(source: LogSource, result: Replay[StateT]) -> Verdict:
    """The verdict on logs read by adjudicator.sources and their replay."""
    if source.chain is not None:
        return _chain_verdict(result, source.chain)
    file = str(source.path)
    s = summary(result)
    final = FinalState(lambda: result.system.describe(result.final_state))
    translation = source.translation
    if translation is None:
        cited = tuple(_text_cited(f, file, source.lines) for f in ordered(result.findings))
        return Verdict("log", file, cited, s, stopped_in=file, final_state=final)
    ends = endpoint_steps(translation)
    return Verdict("vassal", file, tuple(_vassal_cited(f, file, translation, f.line, source.lines, ends)
                                         for f in ordered(result.findings)),
                   s, f" from {len(translation.steps)} VASSAL step(s)",
                   notes=tuple(ReaderNote(file, _step(n.step), n.message) for n in translation.notes),
                   stopped_in=file, final_state=final, sections={"vassal": vassal_section(translation,
                                                                                          translation.notes)})


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


def where(part: Part, local: int) -> str:
    """`saved position` or `step N` in a VASSAL file, `line N` in a text log."""
    return _step(local) if part.is_vassal else f"line {local}"


def logs_named(chain: Chain) -> str:
    """The chain's logs as a summary names them, the first and the last: `game/01.log to 04.log`."""
    first, last = chain.parts[0], chain.parts[-1]
    same_folder = all(p.path.parent == first.path.parent for p in chain.parts)
    return f"{first.name} to {last.path.name if same_folder else last.name}"


def _chain_verdict(result: Replay[StateT], chain: Chain) -> Verdict:
    cited: list[Cited] = []
    ends: dict[int, frozenset[int]] = {}
    for f in ordered(result.findings):
        part, local = chain.locate(f.line)
        local_f = replace(f, line=local, message=chain.cited(f.message))
        if part.translation is None:
            cited.append(_text_cited(local_f, part.name, part.source))
        else:
            if id(part) not in ends:
                ends[id(part)] = endpoint_steps(part.translation)
            cited.append(_vassal_cited(local_f, part.name, part.translation, local, part.source, ends[id(part)]))
    index = min(result.applied, len(result.entries) - 1)
    stopped_in = (chain.locate(result.entries[index].line)[0] if result.entries else chain.parts[-1]).name
    s = summary(result)
    if result.stopped is not None:
        s["stopped"] = chain.cited(str(result.stopped))
        s["stopped_in"] = stopped_in
        s["stopped_line"] = chain.locate(result.stopped_line)[1] if result.stopped_line is not None else None
    steps = sum(len(p.translation.steps) for p in chain.parts if p.translation is not None)
    # VASSAL steps are counted only where VASSAL files are among the logs.
    vassal = f" ({steps} VASSAL step(s))" if any(p.translation is not None for p in chain.parts) else ""
    files: list[dict[str, object]] = [
        {"file": p.name, "kind": "text"} if p.translation is None
        else {**vassal_section(p.translation, p.notes), "file": p.name, "kind": "vassal"} for p in chain.parts]
    notes = tuple(ReaderNote(p.name, where(p, n.step), n.message) for p in chain.parts for n in p.notes)
    return Verdict("chain", logs_named(chain), tuple(cited), s, f" from {len(chain.parts)} logs{vassal}",
                   tuple(p.name for p in chain.parts), notes, stopped_in,
                   FinalState(lambda: result.system.describe(result.final_state)), {"files": files})


def unread_verdict(file: str, errors: Sequence[WargameError], source: Sequence[str]) -> Verdict:
    """The verdict on a log that could not be replayed at all (no game named, not UTF-8, a JSON twin that does
    not validate...): the problems as findings of the notation, `summary.stopped` set."""
    from adjudicator.engine import NOTATION
    findings = [Finding("error", *((e.system, e.rule) if isinstance(e, ChainOrderError) else (NOTATION, "syntax")),
                        (e.place.line or 0) if e.place else 0, (e.place.column or 1) if e.place else 1, e.message)
                for e in errors]
    first = findings[0] if findings else None
    stopped = str(errors[0]) if errors else "the log could not be read"
    s: Summary = {"game": None, "system": None, "turns_replayed": 0, "entries_checked": 0, "entries": 0,
                  "errors": len(findings), "warnings": 0, "notes": 0,
                  "findings_by_rule": dict(Counter(f"{f.system} {f.rule}" for f in findings)),
                  "stopped": stopped, "stopped_line": first.line if first else None, "reconstructed": 0}
    # A place with no line (a VASSAL file's `step 3 (command 12), part 2`, a zip member) is cited by its key, so the
    # finding's own line gives the position, not only the "replay stopped" line.
    keys = [e.place.key if e.place is not None and e.place.line is None else None for e in errors]
    cited = tuple(Cited(f, file, key or (None if f.line else ""), _quoted(source, f.line, f.column))
                  for f, key in zip(findings, keys))
    return Verdict("unread", file, cited, s, stopped_in=file)


def dice_verdict(file: str, entries: int, findings: Sequence[Finding], source: Sequence[str]) -> Verdict:
    """The verdict on a later exchange checked alone against the game's ledger: its dice only (its rules need
    the exchanges before it)."""
    found = sorted(findings, key=lambda f: (f.line, f.column))
    # Only its entries, errors and warnings are reported: its rules were not checked.
    s: Summary = {"game": None, "system": None, "turns_replayed": 0, "entries_checked": 0, "entries": entries,
                  "errors": sum(1 for f in found if f.severity == "error"),
                  "warnings": sum(1 for f in found if f.severity == "warning"), "notes": 0, "findings_by_rule": {},
                  "stopped": None, "stopped_line": None, "reconstructed": 0}
    why = (f"{file} continues an earlier exchange (it has no [Game] header): only its dice were checked against the "
           "ledger; give the exchanges before it (or the game's folder) to check its rules")
    cited = tuple(Cited(f, file, None, _quoted(source, f.line, f.column)) for f in found)
    return Verdict("dice", file, cited, s, sections={"note": why})


def _dice_document(verdict: Verdict, fmt: str) -> str:
    """A dice-only verdict (`dice_verdict`) in a format."""
    s, why = verdict.summary, verdict.sections["note"]
    if fmt == "json":
        doc = {"file": verdict.name, "rules_checked": False, "note": why, "errors": s["errors"],
               "warnings": s["warnings"], "findings": [c.finding.as_dict() for c in verdict.findings]}
        return json_document(doc)
    totals = f"{s['errors']} error(s), {s['warnings']} warning(s)"
    if fmt == "markdown":
        # Every word a log, a ledger's purpose or a file name gave made inert, as in every other verdict.
        lines = [f"# Dice of {code_span(verdict.name)}\n\n{md_text(why)}.\n"]
        lines += [f"- line {c.finding.line}: **{c.finding.severity}** [{md_text(c.finding.system)} "
                  f"{md_text(c.finding.rule)}] {markdown_finding(c.finding)}" for c in verdict.findings]
        return "\n".join([*lines, f"\n{totals}"]) + "\n"
    lines = [line for c in verdict.findings for line in (_head(c), *c.quoted)]
    return "\n".join([*lines, f"note: {why}", f"{s['entries']} entries' dice checked: {totals}"]) + "\n"


def render(verdict: Verdict, fmt: str) -> str:
    """The verdict in a format: `text`, `json` or `markdown` (the HTML page: `adjudicator.verdict_html`)."""
    if verdict.kind == "dice":
        return _dice_document(verdict, fmt)
    return {"json": render_json, "markdown": render_markdown}.get(fmt, render_text)(verdict)


def _head(c: Cited) -> str:
    f = c.finding
    at = f"{c.file}:{f.line}:{f.column}" if c.where is None else f"{c.file}: {c.where}" if c.where else c.file
    return f"{at}: {f.severity} [{f.system} {f.rule}]: {f.message}"


def reconstructed_line(s: Summary) -> list[str]:
    """The summary's word on findings resting on reconstructed data (none: no line)."""
    if not s["reconstructed"]:
        return []
    return [f"{s['reconstructed']} finding(s) rest on reconstructed data (PROVENANCE.md; correct the data folder "
            "and give it with --data to judge on the printed game's values)"]


def render_text(verdict: Verdict) -> str:
    """gcc style: `file:line:col: error [onslaught 6.2]: message`, the source line and a caret (a VASSAL file:
    `file: step N: ...` and what VASSAL showed)."""
    lines: list[str] = []
    for c in verdict.findings:
        lines += [_head(c), *c.quoted]
        lines += [f"    {c.finding.basis_tag()}"] if c.finding.is_reconstructed else []
        lines += c.remarks
    lines += [f"{n.file}: {n.where}: reader's note: {n.message}" for n in verdict.notes]
    s = verdict.summary
    if s["stopped"] is not None:
        lines.append(f"{verdict.stopped_in}: replay stopped: {s['stopped']}")
    if verdict.kind == "unread":
        lines.append(f"{verdict.name}: 0 entries checked: {s['errors']} error(s), 0 warning(s), 0 note(s)")
        return "\n".join(lines) + "\n"
    # The summary names its log: several verdicts in a row (the README's first command) stay apart.
    lines.append(f"{verdict.name}: {s['entries_checked']} of {s['entries']} entries checked over "
                 f"{s['turns_replayed']} turn(s){verdict.counted_from}: {s['errors']} error(s), {s['warnings']} "
                 f"warning(s), {s['notes']} note(s)")
    if s["findings_by_rule"]:
        lines.append("by rule: " + ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items()))
    lines += reconstructed_line(s)
    return "\n".join(lines) + "\n"


def render_json(verdict: Verdict) -> str:
    """The verdict as JSON: findings, summary and final state (docs/log-format.md); a chain's findings name
    their file."""
    findings = [{**c.finding.as_dict(), "file": c.file} if verdict.kind == "chain"
                else {**c.finding.as_dict(), "where": c.where} if verdict.kind == "unread" and c.where
                else c.finding.as_dict() for c in verdict.findings]
    final = None if verdict.final_state is None else verdict.final_state.data()
    doc = {"findings": findings, "summary": verdict.summary, "final_state": final, **verdict.sections}
    return json_document(doc)


def markdown_finding(f: Finding) -> str:
    """A finding's message for a Markdown cell, with its basis, every character a player typed inert."""
    return md_text(f.message + (f" ({f.basis_tag()})" if f.is_reconstructed else ""))


def render_markdown(verdict: Verdict) -> str:
    """The verdict as a Markdown table for a forum post (every word a log or a file name gave made inert)."""
    s = verdict.summary
    if verdict.kind == "unread":
        out = [f"### Umpire verdict: {code_span(verdict.name)}", "",
               f"Nothing could be adjudicated: **{s['errors']} error(s)**.", "",
               *markdown_table(["line", "severity", "rule", "finding"],
                               [(c.where or c.finding.line, c.finding.severity, f"{c.finding.system} {c.finding.rule}",
                                 markdown_finding(c.finding)) for c in verdict.findings], right={0})]
        return "\n".join([*out, "", f"Replay stopped: {md_text(s['stopped'])}"]) + "\n"
    if verdict.kind == "chain":
        return _chain_markdown(verdict)
    out = [f"### Umpire verdict: {code_span(verdict.name)} ({md_text(s['game'])})", "",
           f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
           f"**{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s).", ""]
    if verdict.findings:
        out += markdown_table([("step" if verdict.kind == "vassal" else "line"), "severity", "rule", "finding"],
                              [(c.finding.line, c.finding.severity, f"{md_text(c.finding.system)} "
                                f"{md_text(c.finding.rule)}", markdown_finding(c.finding)) for c in verdict.findings],
                              right={0})
    if s["stopped"] is not None:
        out += ["", f"Replay stopped: {md_text(s['stopped'])}"]
    out += ["", *reconstructed_line(s)] if s["reconstructed"] else []
    text = "\n".join(out) + "\n"
    if verdict.notes:
        text += "\nReader's notes:\n\n" + "".join(f"- {n.where}: {md_text(n.message)}\n" for n in verdict.notes)
    return text


def _chain_markdown(verdict: Verdict) -> str:
    s = verdict.summary
    names = ", ".join(code_span(name) for name in verdict.files)
    totals = (f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s)"
              f"{verdict.counted_from}: **{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s)")
    out = [f"### Umpire verdict: {len(verdict.files)} logs ({md_text(s['game'])})", "", f"Logs, in order: {names}.",
           "", totals, ""]
    if verdict.findings:
        out += markdown_table(["file", "step", "severity", "rule", "finding"],
                              [(code_span(c.file, in_table=True), c.place, c.finding.severity,
                                f"{c.finding.system} {c.finding.rule}", markdown_finding(c.finding))
                               for c in verdict.findings])
    out += ["", *reconstructed_line(s)] if s["reconstructed"] else []
    if s["stopped"] is not None:
        out += ["", f"Replay stopped in {code_span(verdict.stopped_in)}: {md_text(s['stopped'])}"]
    notes = [f"- {code_span(n.file)} {n.where}: {md_text(n.message)}" for n in verdict.notes]
    if notes:
        out += ["", "Reader's notes:", "", *notes]
    return "\n".join(out) + "\n"
