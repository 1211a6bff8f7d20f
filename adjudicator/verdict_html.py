"""A verdict as one self-contained HTML page: a renderer of the verdict document (`adjudicator.verdict`) beside
text, JSON and Markdown, reading nothing else. Each entry's findings are shown with the lines around it, the
clause each cites and, when umpire drew them (`Verdict.pictures`), a picture of the position before it."""

from __future__ import annotations

import base64
import html

from adjudicator.verdict import Cited, Verdict, reconstructed_line

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


def summary_rows(verdict: Verdict) -> list[tuple[str, str]]:
    """The page's summary, row by row: what the text verdict's summary lines say."""
    s = verdict.summary
    rows = [("log", verdict.title), ("game", str(s["game"])), ("rule system", str(s["system"])),
            ("entries checked", f"{s['entries_checked']} of {s['entries']}{verdict.counted_from}"),
            ("turns", str(s["turns_replayed"])),
            ("findings", f"{s['errors']} error(s), {s['warnings']} warning(s), {s['notes']} note(s)")]
    if s["findings_by_rule"]:
        rows.append(("by rule", ", ".join(f"{rule} x{n}" for rule, n in s["findings_by_rule"].items())))
    if s["stopped"]:
        # A chain's stop names its file, as the text's `FILE: replay stopped: ...` does.
        rows.append(("replay stopped", (f"in {verdict.stopped_in}: " if verdict.kind == "chain" else "")
                     + str(s["stopped"])))
    rows += [("reconstructed", line) for line in reconstructed_line(s)]
    return rows


def _finding(c: Cited) -> list[str]:
    """A finding's paragraph (its basis when reconstructed) and the remarks after it."""
    esc = html.escape
    f = c.finding
    basis = f" ({f.basis_tag()})" if f.is_reconstructed else ""
    return [f'<p><span class="sev {f.severity}">{f.severity}</span> '
            f'<span class="rule">[{esc(f.system)} {esc(f.rule)}]</span> {esc(f.message + basis)}</p>',
            *(f'<p class="nopic">{esc(remark.strip())}</p>' for remark in c.remarks)]


def _anchor(verdict: Verdict, c: Cited) -> str:
    """The entry's section id: `line-12`, with a chain's log number first (`log-2-line-12`)."""
    if verdict.kind != "chain" or c.file not in verdict.files:
        return f"line-{c.finding.line}"
    return f"log-{verdict.files.index(c.file) + 1}-line-{c.finding.line}"


def _picture(verdict: Verdict, c: Cited) -> list[str]:
    """The entry's picture and its key, or why there is none (nothing without pictures drawn)."""
    esc = html.escape
    pictures = verdict.pictures
    if pictures is None:
        return []
    key = (c.file, c.finding.line)
    if key not in pictures.figures:
        return ['<p class="nopic">No picture: the finding concerns no place on the map (the sequence of play, points, '
                'a track).</p>']
    figure = pictures.figures[key]
    if figure is None:
        return [f'<p class="nopic">No picture: {pictures.cap} entries are pictured in one verdict, the first '
                'ones (docs/limits.md).</p>']
    data = base64.b64encode(figure.png).decode("ascii")
    # What each colour means, for the marks of this picture (a reader has no other key to them).
    return [f'<img alt="the position before {esc(verdict.cite(c))}, the entry marked" '
            f'width="{figure.width}" height="{figure.height}" src="data:image/png;base64,{data}">',
            '<ul class="legend">' + "".join(
                f'<li><span class="swatch" style="background:{colour}"></span>{esc(text)}</li>'
                for colour, text in figure.legend) + "</ul>"]


def render_html(verdict: Verdict) -> str:
    """One self-contained page: the summary, then each entry's findings with its lines, clauses and picture, then
    the VASSAL reader's notes."""
    esc = html.escape
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Umpire verdict: {esc(verdict.title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>Umpire verdict: {esc(verdict.title)}</h1>", "<table>"]
    out += [f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in summary_rows(verdict)]
    left_out = verdict.pictures_left_out()
    if left_out is not None:
        out.append(f"<tr><th>pictures</th><td>{esc(left_out)}</td></tr>")
    out.append("</table>")
    groups = verdict.by_entry()
    if not groups:
        out.append("<p>No finding: every entry checked keeps to the rules.</p>")
    for group in groups:
        first = group[0]
        out.append(f'<section id="{_anchor(verdict, first)}"><h2>{esc(verdict.cite(first))}</h2>')
        for c in group:
            out += _finding(c)
        if first.context:
            quoted = "\n".join((f'<span class="hit">{n:>5}  {esc(text)}</span>' if n == first.finding.line
                                else f"{n:>5}  {esc(text)}") for n, text in first.context)
            out.append(f"<pre>{quoted}</pre>")
        out += _picture(verdict, first)
        out.append("</section>")
    if verdict.notes:
        # A chain's notes name their file; one VASSAL file's, its step (the page names the file).
        out.append("<section><h2>Reader's notes</h2><ul>" + "".join(
            f"<li>{esc(f'{n.file} {n.where}' if verdict.kind == 'chain' else n.where)}: {esc(n.message)}</li>"
            for n in verdict.notes) + "</ul></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
