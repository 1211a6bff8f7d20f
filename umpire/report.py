"""Verdicts with pictures: one self-contained HTML page, or Markdown with image files beside it.

The verdict is the adjudicator's document (adjudicator.verdict), rendered as every format is; what this module
adds is a picture of the position just before each entry with findings, what the entry did marked on it (see
`umpire.scenes`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from adjudicator.findings import Finding
from adjudicator.markdown_escape import code_block, code_span, link_target, text as md_text
from adjudicator.notation.entries import Entry
from adjudicator.rendering import gravity
from adjudicator.verdict import CONTEXT_LINES, Figure, Pictures, markdown_finding
from adjudicator.verdict_html import render_html
from builder.picture import TONES, Painter, Picture, reading_scale
from builder.render.png import png_bytes
from umpire.judged import Judged
from umpire.movement import legal_retreats_beside
from umpire.scenes import context_marks, legend, marker_pieces, marks_for, mentioned, placed_by, scene_of
from wargame.files import write_atomically
from wargame.records import frozen
from wargame.scene import Mark

MAX_PICTURES = 50
"""Entries pictured in one verdict: each picture costs about 0.4 s and 1 MB of page, so a log of a
thousand findings would take minutes and gigabytes (docs/limits.md); the rest are listed without one."""


@frozen
class Item:
    """One entry's findings, its quoted lines and its picture (None where nothing is on the map)."""

    line: int
    findings: tuple[Finding, ...]
    quoted: tuple[tuple[int, str], ...]
    marks: tuple[Mark, ...]
    picture: Picture | None
    left_out: bool = False
    """A picture was due but past MAX_PICTURES."""


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
        findings = tuple(sorted(by_line[line], key=gravity))
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


def pictures(judged: Judged, scale: float | None = None, cache: Path | None = None) -> Pictures:
    """The picture of each entry with findings on the map (the first MAX_PICTURES drawn), keyed as the verdict
    cites the entry: its file and line."""
    figures: dict[tuple[str, int], Figure | None] = {}
    for item in items(judged, scale, cache):
        if item.picture is not None:
            figures[judged.locate(item.line)] = Figure(
                png_bytes(item.picture.image), item.picture.image.width, item.picture.image.height,
                tuple((f"rgb{TONES[tone]}", text) for tone, text in legend(item.marks)))
        elif item.left_out:
            figures[judged.locate(item.line)] = None
    return Pictures(figures, MAX_PICTURES)


def html_report(judged: Judged, scale: float | None = None, cache: Path | None = None) -> str:
    """One self-contained page: the verdict document rendered as HTML (adjudicator.verdict_html), each entry
    with its picture."""
    return render_html(replace(judged.verdict, pictures=pictures(judged, scale, cache)))


def markdown_with_images(judged: Judged, images: Path, scale: float | None = None, cache: Path | None = None) -> str:
    """Markdown for a forum post, each entry's picture written into `images` and linked (every word a log or a
    file name gave made inert): the verdict document, each entry with its lines and picture."""
    verdict = replace(judged.verdict, pictures=pictures(judged, scale, cache))
    assert verdict.pictures is not None
    s = verdict.summary
    out = [f"### Umpire verdict: {code_span(verdict.title)} ({md_text(s['game'])})", "",
           f"{s['entries_checked']} of {s['entries']} entries checked over {s['turns_replayed']} turn(s): "
           f"**{s['errors']} error(s)**, {s['warnings']} warning(s), {s['notes']} note(s).", ""]
    if s["stopped"]:
        out += [f"Replay stopped: {md_text(s['stopped'])}", ""]
    left_out = verdict.pictures_left_out()
    if left_out is not None:
        out += [f"Pictures: {md_text(left_out)}", ""]
    for group in verdict.by_entry():
        first = group[0]
        line, cite = first.finding.line, verdict.cite(first)
        out.append(f"#### {md_text(cite)}")
        out += [f"- **{c.finding.severity}** \\[{md_text(c.finding.system)} {md_text(c.finding.rule)}\\] "
                f"{markdown_finding(c.finding)}" for c in group]
        if first.context:
            out += ["", *code_block([f"{n:>5}{' >' if n == line else '  '} {text}" for n, text in first.context])]
        figure = verdict.pictures.figures.get((first.file, line))
        if figure is not None:
            # A chain's files may share a line number: the picture's name says which file.
            number = f"{verdict.files.index(first.file) + 1}-" if first.file in verdict.files else ""
            path = images / f"line-{number}{line}.png"
            write_atomically(path, figure.png)
            out += ["", f"![{md_text(f'the position before {cite}')}]({link_target(path.as_posix())})", "",
                    *(f"- {md_text(text)}" for _, text in figure.legend)]
        out.append("")
    return "\n".join(out)
