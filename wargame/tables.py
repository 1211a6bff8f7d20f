"""Models of a game's tables: the combat results table, printed charts and the rules' parameters (crt.toml,
charts.toml, parameters.toml), each value with its source as in wargame/models.py."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Literal

from wargame.constraints import MinLen, Model, RefusedAt
from wargame.models import Ident, Source


class CrtLine(Model):
    """A terrain line of a differential CRT: the differentials that fall in each column."""

    id: Ident
    name: str
    cells: tuple[str, ...]
    source: Source
    note: str = ""


class StatedCell(Model):
    """One result the rulebook states (a worked example) inside a table otherwise reconstructed."""

    column: str
    die: int
    result: str
    source: Source


class CombatTable(Model):
    """`counters/<game>/crt.toml`: the combat results table."""

    schema_version: Literal[1]
    name: str = "Combat Results Table"
    """The table's name as the rulebook gives it."""
    kind: Literal["odds", "differential"]
    columns: Annotated[tuple[str, ...], MinLen(1)]
    die_rolls: Annotated[tuple[int, ...], MinLen(1)]
    results: tuple[tuple[str, ...], ...]
    result_codes: dict[str, str]
    line: list[CrtLine] = field(default_factory=list)
    stated: list[StatedCell] = field(default_factory=list)
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind == "odds":
            _rising_odds(self.columns)
        if len(self.results) != len(self.die_rolls):
            raise RefusedAt(f"{len(self.results)} result rows for {len(self.die_rolls)} die rolls", "results")
        for i, (die, row) in enumerate(zip(self.die_rolls, self.results)):
            if len(row) != len(self.columns):
                raise RefusedAt(f"die {die}: {len(row)} results for {len(self.columns)} columns", "results", i)
            for j, cell in enumerate(row):
                if cell not in self.result_codes:
                    raise RefusedAt(f"die {die}: result {cell!r} is not in result_codes", "results", i, j)
        for k, stated in enumerate(self.stated):
            if stated.column not in self.columns or stated.die not in self.die_rolls:
                raise RefusedAt(f"stated cell {stated.column} / die {stated.die} is not in the table", "stated", k)
            found = self.results[self.die_rolls.index(stated.die)][self.columns.index(stated.column)]
            if found != stated.result:
                raise RefusedAt(f"stated cell {stated.column} / die {stated.die}: the table gives {found!r}, "
                                f"{stated.source} states {stated.result!r}", "stated", k, "result")
        for k, crt_line in enumerate(self.line):
            if len(crt_line.cells) != len(self.columns):
                raise RefusedAt(f"line {crt_line.id}: {len(crt_line.cells)} cells for {len(self.columns)} columns",
                                "line", k, "cells")


def _rising_odds(columns: tuple[str, ...]) -> None:
    """An odds table's columns are A:D, two whole numbers above zero, each column higher than the one before: the
    referee reads the highest listed column at or below an attack's odds, and shifts columns left and right."""
    terms: list[tuple[int, int]] = []
    for column in columns:
        a, colon, d = column.partition(":")
        if not (colon and all(t.isascii() and t.isdigit() and len(t) <= 6 and int(t) > 0 for t in (a, d))):
            raise RefusedAt(f"odds column {column!r} is not two whole numbers above zero as A:D (e.g. '3:2')",
                            "columns")
        terms.append((int(a), int(d)))
    for (low_a, low_d), (high_a, high_d), before, column in zip(terms, terms[1:], columns, columns[1:]):
        if low_a * high_d >= high_a * low_d:
            raise RefusedAt(f"odds column {column!r} follows {before!r} but is not higher: the columns rise from "
                            "left to right", "columns")


class Chart(Model):
    """A printed chart kept as rows of cells (victory levels, replacement costs...)."""

    id: Ident
    name: str
    columns: Annotated[tuple[str, ...], MinLen(1)]
    rows: tuple[tuple[str, ...], ...]
    source: Source
    note: str = ""

    def __post_init__(self) -> None:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise RefusedAt(f"row {i + 1} has {len(row)} cells for {len(self.columns)} columns", "rows", i)


class Parameter(Model):
    """A number or switch the rules use (stacking limit, supply caps...), kept as data."""

    id: Ident
    value: int | float | bool | str
    source: Source
    note: str = ""


class ParametersFile(Model):
    """`counters/<game>/parameters.toml`: the rules' numbers, each with its source."""

    schema_version: Literal[1]
    parameter: list[Parameter] = field(default_factory=list)


class ChartsFile(Model):
    """`counters/<game>/charts.toml`."""

    schema_version: Literal[1]
    chart: list[Chart] = field(default_factory=list)
