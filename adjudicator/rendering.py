"""What every report of the adjudicator renders alike (house style 20): findings in one order, JSON written one
way, Markdown tables laid out one way.

The verdict (`adjudicator.verdict`) and the combat audit (`adjudicator.dispute`) are each a document with a renderer
per format; these are the pieces they share. The words a log gave are made inert by `adjudicator.markdown_escape` in
Markdown and by `html.escape` in HTML.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adjudicator.findings import Finding

SEVERITY_ORDER: Mapping[str, int] = {"error": 0, "warning": 1, "note": 2}


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in the order every verdict gives them: by line, column, then errors first."""
    return sorted(findings, key=lambda f: (f.line, f.column, SEVERITY_ORDER[f.severity]))


def gravity(finding: Finding) -> tuple[int, int, str]:
    """The order of one entry's findings as a page lists them under it: errors first, then by column and rule."""
    return SEVERITY_ORDER[finding.severity], finding.column, finding.rule


def json_document(document: object) -> str:
    """A document as every JSON output writes it: indented, keys sorted, characters as they are, a final newline."""
    import json  # here, not at the top: a text verdict needs no JSON

    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def markdown_table(headings: Sequence[str], rows: Iterable[Sequence[object]], right: Container[int] = ()) -> list[str]:
    """A Markdown table's lines; the columns numbered in `right` aligned right (numbers). The cells are written as
    given: the caller made every word a log gave inert."""
    rule = "|".join("---:" if k in right else "---" for k in range(len(headings)))
    return [f"| {' | '.join(headings)} |", f"|{rule}|", *(f"| {' | '.join(map(str, row))} |" for row in rows)]
