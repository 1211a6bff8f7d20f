"""Two entries written in each other's place (a line swapped with the next): one error, not a cascade.

Read in the order written, the first breaks a rule (it needed the second before it) and what follows from it breaks
more. Where the entry after one that breaks a rule (markers aside: markers_again.py) is lawful, the first is lawful
after it, and the entry after the two breaks no more rules so than as written, the two are read as written in each
other's place: one error, the first's own (saying so), both carried out in their order. An entry written right after
a marker, lawful before it where the marker is lawful after it, is the same slip (`written_after_marker`): the one
error is the marker's where it broke a rule as written (its step ended too early), else the entry's.

A combat result written right before the attack it carries out is the commonest such slip: read as written the
result has no combat to carry out, the attack is judged on the position it left (its odds or its defenders changed),
and the result the attack calls for is then owed. Where the system names the section that carries a result out with
its combat (`EngineChecks.results_with_combat`), the one error cites it; the combat is judged on the position before
the result, whatever its own findings, and the result carried out after it. A result the combat does not call for
stays the error it is.

Ruling: docs/rules-coverage.md's register, rows "a result written before its combat" and "two entries swapped".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Generic

from adjudicator.contract import RuleSystem, StateT, kind_of
from adjudicator.findings import Finding
from adjudicator.missing_markers import STRETCH, Lookahead
from adjudicator.notation.entries import Entry
from wargame.records import frozen
from wargame.sequence import TurnOrder

__all__ = ["RESULT_KINDS", "Swapped", "in_each_others_place", "written_after_marker"]

RESULT_KINDS = frozenset({"loss", "retreat", "advance", "stand"})
"""The kinds of entry that carry out a combat's result (a loss, a retreat, an advance, a stand in place of one)."""


@frozen
class Swapped(Generic[StateT]):
    """A result and the combat after it read in each other's place: the combat's index in the log, the state after
    both, and the findings of both (the one error first)."""

    index: int
    state: StateT
    findings: list[Finding]


def _entry_after(ahead: Lookahead, index: int) -> tuple[int, Entry] | None:
    """The entry after the `index`th (comments and headers aside) with its index, unless it is a marker (markers
    written in each other's place are markers_again.py's)."""
    for at in range(index + 1, min(len(ahead.entries), index + 1 + STRETCH)):
        entry = ahead.entries[at]
        if entry.is_comment or entry.as_header() is not None:
            continue
        return None if entry.as_step_marker() or entry.as_turn_marker() else (at, entry)
    return None


def _carries_out(system: RuleSystem[StateT], state: StateT, entry: Entry, combat: Entry) -> bool:
    """Whether `entry` is a result for a unit that takes part in `combat` (an attack or a bombardment)."""
    units = entry.acting_units()
    if combat.as_combat() is None or kind_of(entry) not in RESULT_KINDS or not units:
        return False
    places = system.position(state).units
    attacked = combat.attacked_hexes()
    return all(u in combat.acting_units() or (u in places and places[u].place in attacked) for u in units)


def _goes_on(ahead: Lookahead, at: int, judge: Callable[[StateT, Entry], list[Finding]],
             carry_out: Callable[[StateT, Entry], StateT | None], state: StateT, entry: Entry, then_written: Entry,
             swapped: StateT) -> bool:
    """Whether the entry after the two (at `at`) breaks no more rules after them read swapped (`swapped`) than after
    them read as written: the entries after a pair show which order the players meant (an advance after a retreat
    written late carries out that retreat's result, not the attack's written before it)."""
    following = next((e for e in ahead.entries[at + 1:at + 1 + STRETCH] if not e.is_comment and
                      e.as_header() is None), None)
    if following is None:
        return True
    count = sum(f.severity == "error" for f in judge(swapped, following))
    if count == 0:
        return True
    first = carry_out(state, entry)
    written = carry_out(first, then_written) if first is not None else None
    return written is not None and count <= sum(f.severity == "error" for f in judge(written, following))


def in_each_others_place(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                          ahead: Lookahead, found: list[Finding], judge: Callable[[StateT, Entry], list[Finding]],
                          carry_out: Callable[[StateT, Entry], StateT | None]) -> Swapped[StateT] | None:
    """The entry at `index` (`found` its findings where written), breaking a rule, and the entry right after it read
    in each other's place where so both break none (`judge` checks an entry, `carry_out` applies it, None where it
    cannot be); None where not so. A result before its combat cites the system's clause for results carried out
    with their combat; any other entry keeps its own first error, saying so."""
    if entry.as_step_marker() or entry.as_turn_marker() or not any(f.severity == "error" for f in found):
        return None
    after = _entry_after(ahead, index)
    if after is None:
        return None
    at, then_written = after
    section = system.engine_checks.results_with_combat
    result = section is not None and _carries_out(system, state, entry, then_written)
    judged = judge(state, then_written)
    if not result and any(f.severity == "error" for f in judged):
        return None
    first = carry_out(state, then_written)
    if first is None:
        return None
    then = judge(first, entry)
    done = carry_out(first, entry)
    if done is None or any(f.severity == "error" for f in then) or \
            not _goes_on(ahead, at, judge, carry_out, state, entry, then_written, done):
        return None
    if section is not None and result:
        error = system.table.finding("error", section, entry.line, entry.column,
                                     f"this {kind_of(entry)} carries out the result of the {kind_of(then_written)} on "
                                     f"line {then_written.line}, written after it: the two are in each other's place "
                                     f"(the result is carried out with its combat, {section}); the "
                                     f"{kind_of(then_written)} is judged on the position before it, and it is carried "
                                     f"out after the {kind_of(then_written)} (one error)")
    else:
        own = next(f for f in found if f.severity == "error")
        error = replace(own, message=f"{own.message} (the {kind_of(then_written)} on line {then_written.line}, "
                                     f"written after it, belongs before it: the two are in each other's place, and "
                                     f"read so both are lawful; one error, and the {kind_of(entry)} is carried out "
                                     f"after it)")
    return Swapped(at, done, [error, *judged, *then])


def written_after_marker(system: RuleSystem[StateT], marked: tuple[StateT, Entry, bool] | None, entry: Entry,
                         found: list[Finding], judge: Callable[[StateT, Entry], list[Finding]],
                         carry_out: Callable[[StateT, Entry], StateT | None]) -> tuple[StateT, list[Finding]] | None:
    """An entry breaking a rule right after a marker (`marked`: the state before that marker, the marker, and whether
    it broke a rule) that is lawful before it, the marker lawful after it: the two written in each other's place,
    carried out in their order (the state after both), one error (the findings of the entry): the marker's, where it
    broke a rule as written (the step ending too early), else the entry's own, saying so; None where not so."""
    if marked is None or entry.as_step_marker() or entry.as_turn_marker() or \
            not any(f.severity == "error" for f in found):
        return None
    before, marker, broke = marked
    earlier = judge(before, entry)
    if any(f.severity == "error" for f in earlier):
        return None
    first = carry_out(before, entry)
    if first is None or any(f.severity == "error" for f in judge(first, marker)):
        return None
    done = carry_out(first, marker)
    if done is None:
        return None
    swapped = (f"the marker on line {marker.line}, written before it, belongs after it: the two are in each other's "
               f"place, and read so both are lawful")
    if broke:
        return done, [replace(f, severity="note", message=f"{f.message} ({swapped}: one error, the marker's)")
                      if f.severity == "error" else f for f in found]
    own = next(f for f in found if f.severity == "error")
    said = replace(own, message=f"{own.message} ({swapped}; one error, and the {kind_of(entry)} is carried out "
                                f"before the marker)")
    return done, [said, *(f for f in earlier if f.severity != "error")]
