"""The headers that contradict the game's: a second game or scenario, an optional rule named after play begins."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic

from adjudicator.contract import RuleSystem, StateT
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry, Header

__all__ = ["SINGLE_HEADERS", "HeaderCheck", "header_findings"]


SINGLE_HEADERS = ("Game", "Scenario", "LedgerKey")
"""Headers a game has one value of, set by its first file: a later one naming another contradicts it."""


def header_findings(system: RuleSystem[StateT], entries: Sequence[Entry]) -> dict[int, Finding]:
    """By line, the headers that contradict the game's (a later `[Scenario]` or `[Game]` naming another, as a
    later exchange of a chain may), and the optional rules put in force once play has begun: the rules read
    every header from the start, so either would change the whole game silently."""
    return HeaderCheck(system).read(entries)


class HeaderCheck(Generic[StateT]):
    """`header_findings` read on as a game's entries come (a chain's files one after another), each entry once."""

    def __init__(self, system: RuleSystem[StateT]) -> None:
        self.system = system
        self.first: dict[str, Header] = {}
        self.optional: set[str] = set()
        self.begun = False

    def read(self, entries: Iterable[Entry]) -> dict[int, Finding]:
        """By line, the contradicting headers among `entries`, the entries before them read already."""
        system, first, optional = self.system, self.first, self.optional
        out: dict[int, Finding] = {}
        for any_entry in entries:
            entry = any_entry.as_header()
            if entry is None:
                self.begun = self.begun or not any_entry.is_comment
                continue
            if entry.key in SINGLE_HEADERS:
                known = first.setdefault(entry.key, entry)
                if known.value != entry.value:
                    out[entry.line] = system.table.finding(
                        "error", "log", entry.line, entry.column, f'[{entry.key} "{entry.value}"] contradicts the '
                        f'game\'s [{entry.key} "{known.value}"]: a game has one, given by its first file (the first '
                        "is used)")
            elif entry.key == "Optional":
                if self.begun and entry.value not in optional:
                    out[entry.line] = system.table.finding(
                        "error", "log", entry.line, entry.column, f'[Optional "{entry.value}"] comes after play has '
                        "begun: the optional rules are in force from the start, named before the first entry of play "
                        "(in the game's first file)")
                optional.add(entry.value)
        return out
