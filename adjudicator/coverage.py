"""What a game's referee checks, section by section: the rows `adjudicate rules GAME` prints and
docs/rules-coverage.md's tables are (house style 12). Each rule system gives its rows: the classic series from its
registry and the game's data, Onslaught and Fire & Movement/Omaha from their registries and their coverage file
(a section's status in words, the handlers judging it by name, the other functions it rests on, its tests)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Generic, TypeVar

import tomli

from adjudicator.registry import Registry
from wargame.errors import WargameError
from wargame.records import frozen

S = TypeVar("S")

EXPECT = re.compile(r"#\s*expect:\s*error\s+(\S+)")
"""A breach log's one expected error and the section it cites."""
EXAMPLE_TEST = "tests/test_examples.py::test_example_gives_exactly_its_expected_findings"
"""The test that replays every example log and compares its findings with its `# expect:` lines."""


@frozen
class Row:
    """One section: what is checked of it, by which handlers, on which data, exercised by which logs and tests."""

    section: str
    title: str
    status: str
    where: tuple[str, ...]
    rests_on: tuple[str, ...]
    breach_logs: tuple[str, ...]
    tests: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        """The JSON form (`adjudicate rules GAME --format json`)."""
        return {"section": self.section, "title": self.title, "status": self.status, "where": list(self.where),
                "rests_on": list(self.rests_on), "breach_logs": list(self.breach_logs), "tests": list(self.tests)}


def where_of(fn: object) -> str:
    """`path::qualname` of a function, as the coverage tables name it."""
    module = str(getattr(fn, "__module__", "")).replace(".", "/") + ".py"
    return f"{module}::{getattr(fn, '__qualname__', '')}"


@frozen
class CoverageFile(Generic[S]):
    """A hand-written system's coverage: its rows in a TOML file beside its code, its handlers from its registry."""

    path: Path
    registry: Registry[S] | None = None
    rests_on: Mapping[str, tuple[str, ...]] | None = None
    """The kinds of data each section's judgement reads (the system's section table)."""

    def rows(self) -> list[Row]:
        """Every row of the file, its handlers resolved through the registry."""
        doc = tomli.loads(self.path.read_text(encoding="utf-8"))
        by_name = {h.name: h for h in self.registry.handlers} if self.registry is not None else {}
        out: list[Row] = []
        for item in doc["row"]:
            unknown = [n for n in item.get("handlers", []) if n not in by_name]
            if unknown:
                raise WargameError(f"{self.path.name}: section {item['section']} names no handler {unknown[0]!r} of "
                                   "the registry")
            handlers = [by_name[n] for n in item.get("handlers", [])]
            where = [where_of(h.check or h.apply) for h in handlers] + list(item.get("where", []))
            sections = re.findall(r"\d+(?:\.\d+)*[a-z]?", item["section"])
            rests = [t for h in handlers for t in h.rests_on]
            rests += [t for s in sections for t in (self.rests_on or {}).get(s, ())]
            tests = list(item.get("tests", []))
            logs = [t.rpartition("[")[2].rstrip("]") for t in tests
                    if t.startswith(EXAMPLE_TEST + "[") and "/breach-" in t]
            out.append(Row(item["section"], item["title"], item["status"], tuple(dict.fromkeys(where)),
                           tuple(dict.fromkeys(rests)), tuple(dict.fromkeys(logs)), tuple(dict.fromkeys(tests))))
        return out


def breach_logs(examples: Path | None) -> dict[str, list[str]]:
    """The breach logs of a game's examples folder by the section their one error cites."""
    out: dict[str, list[str]] = {}
    if examples is None or not examples.is_dir():
        return out
    for path in sorted(examples.glob("breach-*.log")):
        for section in EXPECT.findall(path.read_text(encoding="utf-8")):
            out.setdefault(section, []).append(f"{examples.name}/{path.name}")
    return out


def markdown(rows: Iterable[Row]) -> str:
    """The rows as docs/rules-coverage.md's table."""
    out = ["| section | status | where (`path::function`) | tests (pytest node ids) |", "|---|---|---|---|"]
    for row in rows:
        where = ", ".join(f"`{w}`" for w in row.where) or "the game's data files"
        tests = ", ".join(f"`{t}`" for t in row.tests) or "none (data)"
        rests = f" (rests on {', '.join(row.rests_on)})" if row.rests_on else ""
        out.append(f"| {row.section} {row.title} | {row.status}{rests} | {where} | {tests} |")
    return "\n".join(out) + "\n"


def text(rows: Iterable[Row]) -> str:
    """The rows for a person."""
    out: list[str] = []
    for row in rows:
        out.append(f"{row.section} {row.title}: {row.status}")
        out += [f"    handler {w}" for w in row.where]
        out += [f"    rests on {r}" for r in row.rests_on]
        out += [f"    breach log {b}" for b in row.breach_logs]
    return "\n".join(out) + "\n"


__all__ = ["EXAMPLE_TEST", "EXPECT", "CoverageFile", "Row", "breach_logs", "markdown", "text", "where_of"]
