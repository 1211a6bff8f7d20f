"""A combat result written right before the attack it carries out (the two lines swapped): one error, not three.

Read in the order written, the result has no combat to carry out (an error), the attack is judged on the position it
left (its odds or its defenders changed: more errors), and the result the attack calls for is then owed or refused
(one more). Where the entry after the result is an attack or a bombardment its unit takes part in, and the result,
carried out after that combat, breaks no rule, the two are read as written in each other's place: one error of the
order of the log, citing the section the system names for results carried out with their combat
(`EngineChecks.results_with_combat`); the combat is judged on the position before the result, as it was, and the
result is carried out after it, as the log meant. A result the combat does not call for stays the error it is.

Ruling: docs/rules-coverage.md's register, row "a result written before its combat".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic

from adjudicator.contract import RuleSystem, StateT, kind_of
from adjudicator.findings import Finding
from adjudicator.missing_markers import STRETCH, Lookahead
from adjudicator.notation.entries import Entry
from wargame.records import frozen
from wargame.sequence import TurnOrder

__all__ = ["RESULT_KINDS", "Swapped", "written_before_combat"]

RESULT_KINDS = frozenset({"loss", "retreat", "advance", "stand"})
"""The kinds of entry that carry out a combat's result (a loss, a retreat, an advance, a stand in place of one)."""


@frozen
class Swapped(Generic[StateT]):
    """A result and the combat after it read in each other's place: the combat's index in the log, the state after
    both, and the findings of both (the one error first)."""

    index: int
    state: StateT
    findings: list[Finding]


def _combat_after(ahead: Lookahead, index: int) -> tuple[int, Entry] | None:
    """The entry after the `index`th (comments and headers aside) with its index, if it is an attack or a
    bombardment."""
    for at in range(index + 1, min(len(ahead.entries), index + 1 + STRETCH)):
        entry = ahead.entries[at]
        if entry.is_comment or entry.as_header() is not None:
            continue
        return (at, entry) if entry.as_combat() is not None else None
    return None


def written_before_combat(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entry: Entry, index: int,
                          ahead: Lookahead, found: list[Finding], judge: Callable[[StateT, Entry], list[Finding]],
                          carry_out: Callable[[StateT, Entry], StateT | None]) -> Swapped[StateT] | None:
    """The result at `index` (`found` its findings where written) and the combat right after it read in each other's
    place (`judge` checks an entry, `carry_out` applies it, None where it cannot be); None where not so."""
    section = system.engine_checks.results_with_combat
    if section is None or kind_of(entry) not in RESULT_KINDS or not any(f.severity == "error" for f in found):
        return None
    after = _combat_after(ahead, index)
    units = entry.acting_units()
    if after is None or not units:
        return None
    at, combat = after
    places = system.position(state).units
    attacked = combat.attacked_hexes()
    if not all(u in combat.acting_units() or (u in places and places[u].place in attacked) for u in units):
        return None
    judged = judge(state, combat)
    fought = carry_out(state, combat)
    if fought is None:
        return None
    then = judge(fought, entry)
    done = carry_out(fought, entry)
    if done is None or any(f.severity == "error" for f in then):
        return None
    error = system.table.finding("error", section, entry.line, entry.column,
                                 f"this {kind_of(entry)} carries out the result of the {kind_of(combat)} on line "
                                 f"{combat.line}, written after it: the two are in each other's place (the result "
                                 f"is carried out with its combat, {section}); the {kind_of(combat)} is judged on the "
                                 f"position before it, and it is carried out after the {kind_of(combat)} (one error)")
    return Swapped(at, done, [error, *judged, *then])
