"""Findings are data: a severity, the rule system and section, the log position, a message.

A rule system makes findings only through its `SectionTable`, which refuses a section the
system does not list, so citations cannot drift (house style 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True)
class Finding:
    """One verdict on one log entry."""

    severity: Severity
    system: str
    rule: str
    line: int
    column: int
    message: str

    def as_dict(self) -> dict[str, object]:
        """The JSON form (documented in docs/log-format.md)."""
        return {"severity": self.severity, "system": self.system, "rule": self.rule, "line": self.line,
                "column": self.column, "message": self.message}


class SectionTable:
    """The sections a rule system checks, and the only door to making findings."""

    def __init__(self, system: str, sections: dict[str, str], series: SectionTable | None = None) -> None:
        self.system = system
        self.own = dict(sections)
        self.series = series
        """The series rules a folio is built on (Omaha on Fire & Movement): their sections are cited
        as the series', the folio's exclusive ones as the folio's."""
        self.sections: dict[str, str] = {**(series.sections if series is not None else {}), **self.own}

    def finding(self, severity: Severity, section: str, line: int, column: int, message: str) -> Finding:
        """A finding citing a listed section; KeyError for a section the system does not list."""
        if section in self.own:
            return Finding(severity, self.system, section, line, column, message)
        if self.series is not None and section in self.series.sections:
            return self.series.finding(severity, section, line, column, message)
        raise KeyError(f"{self.system} lists no section {section!r}")
