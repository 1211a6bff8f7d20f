"""Findings are data: a severity, the rule system and section, the log position, a message.

A rule system makes findings only through its `SectionTable`, which refuses a section the
system does not list, so citations cannot drift (house style 4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from wargame.errors import WargameError
from wargame.records import frozen

Severity = Literal["error", "warning", "note"]


@frozen
class Basis:
    """One data record a finding's arithmetic rests on: the file, the record in it, and the value's source."""

    file: str
    """The data file, relative to the data folder (e.g. `counters/onslaught/crt.toml`)."""
    key: str
    """The record in it: a key (`results 2:1/3`), a row's first field (`0620`) or `line N`."""
    source: str
    """The value's source as the data mark it: a rule section (`7.0`) or `reconstructed[:topic]`."""
    what: str = ""
    """A short name of the value for the text tag (`crt 2:1/3`, `terrain 0620`); `key` if empty."""

    @property
    def is_reconstructed(self) -> bool:
        """True if the value is the project's reconstruction, not the printed game's (PROVENANCE.md)."""
        return self.source.startswith("reconstructed")

    def as_dict(self) -> dict[str, object]:
        """The JSON form (docs/log-format.md, "basis")."""
        return {"file": self.file, "key": self.key, "source": self.source,
                "reconstructed": self.is_reconstructed}

    def tag(self) -> str:
        """`reconstructed crt 2:1/3` or `7.0 crt 3:1/4`: the text report's short form."""
        return f"{'reconstructed' if self.is_reconstructed else self.source} {self.what or self.key}"


def top_section(rule: str) -> str:
    """The top-level section a citation belongs to, as the section tables name it: `8.2.1` -> `8.0`,
    `11.2.3` -> `11.0`, `7.0` -> `7.0`; a citation that is not numbered (`log`, `syntax`) is its own."""
    m = re.match(r"^(\d+)(?:\.|$)", rule)
    return f"{m.group(1)}.0" if m else rule


@frozen
class Finding:
    """One verdict on one log entry."""

    severity: Severity
    system: str
    rule: str
    line: int
    column: int
    message: str
    basis: tuple[Basis, ...] = ()
    """The data records the finding's arithmetic rests on (a CRT cell, a hex's terrain, a unit's strength)."""

    @property
    def section(self) -> str:
        """The top-level section of `rule`, for grouping (`8.2.1` -> `8.0`)."""
        return top_section(self.rule)

    @property
    def is_reconstructed(self) -> bool:
        """True if the finding rests on at least one reconstructed value."""
        return any(b.is_reconstructed for b in self.basis)

    def with_basis(self, *basis: Basis) -> Finding:
        """The finding resting also on these records (duplicates dropped, order kept)."""
        return replace(self, basis=tuple(dict.fromkeys((*self.basis, *basis))))

    def basis_tag(self) -> str:
        """`basis: reconstructed crt 2:1/3; reconstructed terrain 0621`: the reconstructed values the finding
        rests on, for the text report ('' when it rests on none: JSON lists every record)."""
        tags = [b.tag() for b in self.basis if b.is_reconstructed]
        return "basis: " + "; ".join(tags) if tags else ""

    def as_dict(self) -> dict[str, object]:
        """The JSON form (documented in docs/log-format.md)."""
        return {"severity": self.severity, "system": self.system, "rule": self.rule, "section": self.section,
                "line": self.line, "column": self.column, "message": self.message,
                "basis": [b.as_dict() for b in self.basis]}


class SectionTable:
    """The sections a rule system checks, and the only door to making findings."""

    def __init__(self, system: str, sections: dict[str, str], series: SectionTable | None = None,
                 rests_on: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.system = system
        self.own = dict(sections)
        self.rests_on: dict[str, tuple[str, ...]] = dict(rests_on or {})
        """The kinds of data (adjudicator.basis.TOPICS) a section's judgement reads, by section: a finding citing
        it rests on the records of those kinds its facts name (docs/log-format.md, "basis")."""
        unknown = set(self.rests_on) - set(self.own)
        if unknown:
            raise KeyError(f"{system} lists no section {sorted(unknown)[0]!r} (rests_on)")
        self.series = series
        """The series rules a folio is built on (Omaha on Fire & Movement): their sections are cited
        as the series', the folio's exclusive ones as the folio's."""
        self.sections: dict[str, str] = {**(series.sections if series is not None else {}), **self.own}

    def topics(self, finding: Finding) -> tuple[str, ...]:
        """The kinds of data a finding's section reads (a series' section: the series' table says)."""
        if finding.system == self.system:
            return self.rests_on.get(finding.rule, ())
        return self.series.topics(finding) if self.series is not None else ()

    def finding(self, severity: Severity, section: str, line: int, column: int, message: str,
                basis: tuple[Basis, ...] = ()) -> Finding:
        """A finding citing a listed section; KeyError for a section the system does not list."""
        if section in self.own:
            return Finding(severity, self.system, section, line, column, message, basis)
        if self.series is not None and section in self.series.sections:
            return self.series.finding(severity, section, line, column, message, basis)
        raise KeyError(f"{self.system} lists no section {section!r}")



class ChainOrderError(WargameError):
    """Logs of one game given so that they do not join (out of order, one missing or given twice): a verdict
    reports it as the chain's problem (`vassal chain`), not the notation's."""

    system = "vassal"
    rule = "chain"


def one_error(found: list[Finding], why: str) -> list[Finding]:
    """The findings of one breach with its first error kept and every later error made a note ending
    with `why` (house style 16: a one-line breach gives one error, its consequences are notes)."""
    errors = [f for f in found if f.severity == "error"]
    if len(errors) < 2:
        return found
    first = errors[0]
    return [f if f.severity != "error" or f is first else
            replace(f, severity="note", message=f"{f.message} ({why.format(rule=first.rule)})") for f in found]
