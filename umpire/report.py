"""Verdicts with pictures: one self-contained HTML page, or Markdown with image files beside it.

Each finding is shown with the log lines around it, the clause it cites and a picture of the
position just before its entry, what the entry did marked on it (see `umpire.scenes`).
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from adjudicator.findings import Finding
from adjudicator.markdown_escape import code_block, code_span, link_target, text as md_text
from adjudicator.notation.entries import Entry
from adjudicator.verdict import summary
from builder.picture import TONES, Painter, Picture, reading_scale
from umpire.judged import Judged
from umpire.movement import legal_retreats_beside
from umpire.scenes import context_marks, legend, marker_pieces, marks_for, mentioned, placed_by, scene_of
from wargame.files import write_atomically
from wargame.scene import Mark

CONTEXT_LINES = 2
"""Log lines shown before and after a finding's line."""
MAX_PICTURES = 50
"""Entries pictured in one verdict: each picture costs about 0.4 s and 1 MB of page, so a log of a
thousand findings would take minutes and gigabytes (docs/limits.md); the rest are listed without one."""
SEVERITY_ORDER = {"error": 0, "warning": 1, "note": 2}


@dataclass(frozen=True)
class Item:
    """One entry's findings, its quoted lines and its picture (None where nothing is on the map)."""

    line: int
    findings: tuple[Finding, ...]
    quoted: tuple[tuple[int, str], ...]
    marks: tuple[Mark, ...]
    picture: Picture | None
    left_out: bool = False
    """A picture was due but past MAX_PICTURES."""


def _png(picture: Picture) -> bytes:
    buffer = io.BytesIO()
    picture.image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def items(judged: Judged, scale: float | None = None, cache: Path | None = None, draw: bool = True,
          max_pictures: int | None = None) -> list[Item]:
    """The findings grouped by entry, in log order, each with its lines, marks and picture (none drawn
    without `draw`, none past the first `max_pictures`), at `scale` (default: the scale whose hex numbers read
    at 100%, builder.picture)."""
    result = judged.result
    scale = reading_scale(result.game) if scale is None else scale
    by_line: dict[int, list[Finding]] = defaultdict(list)
    for f in result.findings:
        by_line[f.line].append(f)
    entries: dict[int, Entry] = {e.line: e for e in result.entries}
    painter: Painter | None = None
    out = []
    drawn = 0
    for line in sorted(by_line):
        findings = tuple(sorted(by_line[line], key=lambda f: (SEVERITY_ORDER[f.severity], f.column, f.rule)))
        quoted = tuple((n, text) for n in range(line - CONTEXT_LINES, line + CONTEXT_LINES + 1)
                       if n > 0 and (text := judged.source_line(n)) is not None)
        picture = None
        marks: list[Mark] = []
        entry = entries.get(line)
        if entry is not None:
            before = result.state_at(line - 1)
            position = result.system.position(before)
            places = {u: at.place for u, at in position.units.items()}
            # The rule system's context first (zones of control, supply lines, a retreat's legal paths),
            # so the entry's own marks are drawn over it.
            marks = [*context_marks(result.system, before, entry, findings, places),
                     *legal_retreats_beside(result.system, before, entry),
                     *(marks_for(entry, places, findings) or mentioned(findings, places, result.game.grid))]
            if marks and draw and drawn < (MAX_PICTURES if max_pictures is None else max_pictures):
                painter = painter or Painter(result.game, scale, cache)
                scene = scene_of(position, marks, markers=marker_pieces(result.game), placed=placed_by(entry))
                picture = painter.draw(scene)
                drawn += 1
        out.append(Item(line, findings, quoted, tuple(marks), picture, bool(marks) and draw and picture is None))
    return out


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;
line-height:1.4;color:#1e1e1e;background:#fbf8ef}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem;border-top:1px solid #ccc;padding-top:1rem}
.sev{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;color:#fff;font-weight:bold;font-size:.85rem}
.error{background:#c81e1e}.warning{background:#b36b00}.note{background:#5a5a5a}
pre{background:#fff;border:1px solid #ddd;padding:.5rem;overflow-x:auto;font-size:.85rem}
pre .hit{background:#ffe3e3;font-weight:bold}
img{max-width:100%;height:auto;border:1px solid #bbb}
.legend{list-style:none;padding:0;margin:.3rem 0;font-size:.9rem}.legend li{margin:.1rem 0}
.swatch{display:inline-block;width:1rem;height:1rem;margin-right:.4rem;vertical-align:-.15rem;border-radius:.2rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}
.rule{font-family:ui-monospace,monospace}.nopic{font-style:italic;color:#555}
"""


def _summary_rows(judged: Judged) -> list[tuple[str, str]]:
    s = summary(judged.result)
    rows = [("log", judged.name), ("game", str(s["game"])), ("rule system", str(s["system"])),
            ("entries checked", f"{s['entries_checked']} of {s['entries']}"),
            ("turns", str(s["turns_replayed"])),
            ("findings", f"{s['errors']} error(s), {s['warnings']} warning(s), {s['notes']} note(s)")]
    if s["findings_by_rule"]:
        rows.append(("by rule", ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items())))
    if s["stopped"]:
        rows.append(("replay stopped", str(s["stopped"])))
    return rows


def _left_out_words(judged: Judged, lines: list[int]) -> str:
    """Which entries have no picture for the cap, named."""
    named = ", ".join(judged.cite(n) for n in lines[:20]) + (f" and {len(lines) - 20} more" if len(lines) > 20 else "")
    return (f"the first {MAX_PICTURES} entries with findings on the map are pictured; {len(lines)} are not: "
            f"{named} (docs/limits.md)")


def html_report(judged: Judged, scale: float | None = None, cache: Path | None = None) -> str:
    """One self-contained page: the summary, then each finding with its lines, clause and picture."""
    esc = html.escape
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Umpire verdict: {esc(judged.name)}</title><style>{_CSS}</style></head><body>",
           f"<h1>Umpire verdict: {esc(judged.name)}</h1>", "<table>"]
    out += [f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in _summary_rows(judged)]
    out.append("</table>")
    found = items(judged, scale, cache)
    left_out = [item.line for item in found if item.left_out]
    if left_out:
        out.insert(-1, f"<tr><th>pictures</th><td>{esc(_left_out_words(judged, left_out))}</td></tr>")
    if not found:
        out.append("<p>No finding: every entry checked keeps to the rules.</p>")
    for item in found:
        out.append(f'<section id="line-{item.line}"><h2>{esc(judged.cite(item.line))}</h2>')
        for f in item.findings:
            out.append(f'<p><span class="sev {f.severity}">{f.severity}</span> '
                       f'<span class="rule">[{esc(f.system)} {esc(f.rule)}]</span> {esc(f.message)}</p>')
        if item.quoted:
            quoted = "\n".join((f'<span class="hit">{n:>5}  {esc(text)}</span>' if n == item.line
                                else f"{n:>5}  {esc(text)}") for n, text in item.quoted)
            out.append(f"<pre>{quoted}</pre>")
        if item.left_out:
            out.append(f'<p class="nopic">No picture: {MAX_PICTURES} entries are pictured in one verdict, the first '
                       'ones (docs/limits.md).</p>')
        elif item.picture is None:
            out.append('<p class="nopic">No picture: the finding concerns no place on the map (the sequence of play, points, '
                       'a track).</p>')
        else:
            data = base64.b64encode(_png(item.picture)).decode("ascii")
            out.append(f'<img alt="the position before {esc(judged.cite(item.line))}, the entry marked" '
                       f'width="{item.picture.image.width}" height="{item.picture.image.height}" '
                       f'src="data:image/png;base64,{data}">')
            # What each colour means, for the marks of this picture (a reader has no other key to them).
            out.append('<ul class="legend">' + "".join(
                f'<li><span class="swatch" style="background:rgb{TONES[tone]}"></span>{esc(text)}</li>'
                for tone, text in legend(item.marks)) + "</ul>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def markdown_with_images(judged: Judged, images: Path, scale: float | None = None, cache: Path | None = None) -> str:
    """Markdown for a forum post, each finding's picture written into `images` and linked (every word a
    log or a file name gave made inert)."""
    s = summary(judged.result)
    out = [f"### Umpire verdict: {code_span(judged.name)} ({md_text(s['game'])})", "",
           f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
           f"**{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s).", ""]
    if s["stopped"]:
        out += [f"Replay stopped: {md_text(s['stopped'])}", ""]
    found = items(judged, scale, cache)
    left_out = [item.line for item in found if item.left_out]
    if left_out:
        out += [f"Pictures: {md_text(_left_out_words(judged, left_out))}", ""]
    for item in found:
        out.append(f"#### {md_text(judged.cite(item.line))}")
        out += [f"- **{f.severity}** \\[{md_text(f.system)} {md_text(f.rule)}\\] {md_text(f.message)}"
                for f in item.findings]
        if item.quoted:
            out += ["", *code_block([f"{n:>5}{' >' if n == item.line else '  '} {text}" for n, text in item.quoted])]
        if item.picture is not None:
            path = images / f"line-{item.line}.png"
            write_atomically(path, _png(item.picture))
            out += ["", f"![{md_text(f'the position before {judged.cite(item.line)}')}]({link_target(path.as_posix())})", "",
                    *(f"- {md_text(text)}" for _, text in legend(item.marks))]
        out.append("")
    return "\n".join(out)
