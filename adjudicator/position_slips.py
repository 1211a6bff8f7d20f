"""A unit's change of position the log left out, inferred from the later entry that states where the unit is.

One slip, one error: a move, advance or retreat left out leaves its unit where it was, and every later entry is then
judged against a position the players did not have (a stack left overstacked as a phase ends, an attack by a unit
not adjacent, a move from a hex the unit is not in), each an error of its own. The entry that states the unit in
another hex than the one it is in (a mismatch: a path's start, the hex of a placement or an activation naming it),
where that is what the entry breaks, shows where the log has it. The engine then replays with the
unit put there right after the last entry that could have moved it: the last that placed or moved it, or the end of
a later step or phase in which its side may move it, the one that leaves fewest errors (the latest of those). The
inferred relocation is judged as nothing but the mismatch's own error, at its line, citing the clause it cites.

A repair is kept only where it leaves fewer errors than the log judged as written: an origin merely miswritten (the
unit never left) repairs nothing and stays as written. Bounded whatever the log: at most `REPAIRS` repairs and
`BUDGET` replays, each linear in the log.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from adjudicator.contract import RuleSystem, SequencePoint, StateT, how_of, kind_of
from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry
from wargame.records import frozen
from wargame.sequence import TurnOrder

__all__ = ["BUDGET", "LOOKS", "MOST_ERRORS", "NOTED", "REPAIRS", "REPLAYED_ENTRIES", "Mismatch", "Relocation", "SlipNotes", "mismatch_of",
           "note_mismatch", "relocate", "repaired", "stated_places"]

REPAIRS = 4
"""The most relocations inferred in one log: a log with more slips than that is judged as written from there."""

BUDGET = 24
"""The most replays the search for them makes (each linear in the log), whatever the log."""

REPLAYED_ENTRIES = 200_000
"""The most entries the search replays in all: a long log gets fewer tries (a 20-turn game of 2,000 entries all
24; a hostile log of 100,000 entries 2), so the search costs at most a few times judging the log as written."""

MOST_ERRORS = 100
"""A log with more errors than this is judged as written: a slip's cascade is a few errors, and a log of hundreds
(each entry judged with its findings' work, some twenty times a clean entry's) is no slip to repair."""

CANDIDATES = 5
"""The most places tried for one relocation: right after the last entry that placed or moved the unit, and the ends
of the latest steps or phases before the mismatch in which it could have moved."""

NOTED = 4
"""The most mismatches a replay notes (only the first ones are repaired; the rest are judged again after)."""

LOOKS = 64
"""The most entries a replay looks at for a mismatch (each is judged again with its unit moved): past them, a log is
judged as written, so the look costs the same whatever the log."""


@frozen
class Mismatch:
    """An entry that starts a unit's path from another hex than the one it is in."""

    index: int
    """The entry's index in the log."""
    unit: str
    stated: str
    """Where the log has the unit: its path's first hex."""
    found: Finding
    """The error that says so (the clause it cites is the repair's)."""


@frozen
class Relocation:
    """A unit put where a later entry states it is, before the entry of index `before`: the position change the log
    left out."""

    before: int
    mismatch: Mismatch
    said: Finding
    """The one error it is judged as, at the mismatch's line."""


@dataclass
class SlipNotes:
    """What a replay notes for the search: the first mismatches, and the step or phase under way before each marker."""

    mismatches: list[Mismatch] = field(default_factory=list)
    ends: dict[int, SequencePoint] = field(default_factory=dict)
    """By a marker's index: the step or phase it ends (where it was under way)."""
    looked: int = 0
    """How many units' places were judged again for a mismatch (at most `LOOKS`)."""

    @property
    def open(self) -> bool:
        """Whether the replay still looks for mismatches."""
        return len(self.mismatches) < NOTED and self.looked < LOOKS


def stated_places(entry: Entry) -> list[tuple[str, str]]:
    """The units an entry states the hex of before it acts, each with that hex: a move's, retreat's or advance's first
    hex, or the one hex of an entry (not a combat) naming units, as a placement or an activation does."""
    unit = entry.relocated_unit()
    if unit is not None:
        return [(unit, entry.path_hexes()[0])]
    if entry.as_combat() is not None:
        return []
    named = entry.named_ids()
    hexes = [v for kind, v in named if kind == "hex"]
    return [(v, hexes[0]) for kind, v in named if kind == "unit"] if len(hexes) == 1 else []


def note_mismatch(notes: SlipNotes, system: RuleSystem[StateT], state: StateT, entry: Entry, index: int,
                  found: Sequence[Finding], judge: Callable[[StateT], Sequence[Finding]]) -> None:
    """Notes the mismatch an entry with findings shows, if any, while the notes are open."""
    if notes.open and (mismatch := mismatch_of(system, state, entry, index, found, judge, notes)) is not None:
        notes.mismatches.append(mismatch)


def mismatch_of(system: RuleSystem[StateT], state: StateT, entry: Entry, index: int, found: Sequence[Finding],
                judge: Callable[[StateT], Sequence[Finding]], notes: SlipNotes) -> Mismatch | None:
    """The mismatch an entry with errors shows (its unit elsewhere than the hex it states), or None; `judge` checks
    the entry in another state, to tell which of its errors the unit's place brings about (each time counted in
    `notes`, up to `LOOKS`)."""
    # A note counts too: a system that judged the unit's absence one error already (a unit never set up) made the
    # entries naming it notes, and the entry still shows where the log has the unit.
    errors = [f for f in found if f.severity in ("error", "note")]
    stated = stated_places(entry) if errors and system.auditor is not None else []
    if not stated:
        return None
    places = system.position(state).units
    on_map = system.game_of(state).grid.is_label
    for unit, hex_ in stated:
        # A placement from off the map states where the unit goes, not where it is: only a unit on the map is
        # compared with it (a move's start is compared wherever the unit is).
        if unit not in places or places[unit].place == hex_ or (
                entry.relocated_unit() is None and not on_map(places[unit].place)):
            continue
        notes.looked += 1
        if notes.looked > LOOKS:
            return None
        moved = [g for g in judge(relocate(system, state, unit, hex_)) if g.severity in ("error", "note")]
        kept_rules, kept_words = {g.rule for g in moved}, {(g.rule, g.message) for g in moved}
        place = places[unit].place
        # The clause the unit's place breaks: one no longer broken with the unit moved, else a finding that says
        # where the unit is and no longer stands (a system giving one error a path, the next restriction it breaks
        # takes that clause's place).
        gone = [f for f in errors if f.rule not in kept_rules] or \
            [f for f in errors if (f.rule, f.message) not in kept_words and place in f.message and hex_ in f.message]
        if not gone:
            # The unit's place is not what the entry breaks: no slip of that unit.
            continue
        # Its own words where they say where the unit is and where the log has it, else those plainly.
        said = gone[0] if gone[0].severity == "error" and place in gone[0].message and hex_ in gone[0].message \
            else replace(gone[0], severity="error", message=f"{unit} is in {place}, not {hex_}")
        return Mismatch(index, unit, hex_, said)
    return None


def relocate(system: RuleSystem[StateT], state: StateT, unit: str, hex_: str) -> StateT:
    """The state with one unit put in a hex, nothing else changed."""
    auditor = system.auditor
    assert auditor is not None  # only a mismatch noted with an auditor is relocated
    places = {u: p.place for u, p in system.position(state).units.items()}
    return auditor.with_units(state, {**places, unit: hex_})


def _pins(entry: Entry, unit: str) -> bool:
    """Whether an entry states or decides where the unit is: a move, retreat or advance of it, or an entry naming it
    and a hex that is not a combat (a placement)."""
    if entry.relocated_unit() == unit:
        return True
    if entry.as_combat() is not None or unit not in entry.acting_units():
        return False
    return any(kind == "hex" for kind, _ in entry.named_ids())


def _places(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entries: Sequence[Entry],
            findings: Sequence[Finding], mismatch: Mismatch, ends: dict[int, SequencePoint]) -> list[int]:
    """Where the relocation may go, as indexes of the entry it precedes: right after the last entry that placed or
    moved the unit, and, before each error since (the ones the slip may have brought about), the end of the latest
    step or phase in which the unit's side may move, retreat or advance it (at most `CANDIDATES`, earliest first)."""
    m = mismatch.index
    start = next((k + 1 for k in range(m - 1, -1, -1) if _pins(entries[k], mismatch.unit)), 0)
    unit = system.game_of(state).units_by_id.get(mismatch.unit)
    if unit is None or start >= m:
        return [start] if start < m else []
    moving = {(kind_of(e), how_of(e)) for e in entries[start:m + 1] if e.relocated_unit() is not None}

    def ends_movement(k: int) -> bool:
        """Whether the marker of index k ends a step or phase in which the unit could have moved."""
        at = ends.get(k)
        slot = order.slot_at(at.turn, at.step, at.player_turn) if at is not None else None
        # A kind the sequence does not place (moves within an action) may be written in any step.
        return slot is not None and any(not order.governs(kind, how) or order.allows(slot, kind, unit.side,
                                                                                      (unit.type,), how)
                                        for kind, how in moving)

    lines = [e.line for e in entries]
    first, last = entries[start].line, entries[m].line
    # The entries the errors in the window stand at (an error as a step ends stands at the marker that ends it).
    at_errors = sorted({bisect_left(lines, f.line, start, m + 1) for f in findings
                        if f.severity == "error" and first <= f.line < last} | {m})
    out = {start}
    allowed = sorted(i for i in ends if start < i <= m and ends_movement(i))
    for target in at_errors:
        before = bisect_right(allowed, target)
        if before:
            out.add(allowed[before - 1])
        if len(out) >= CANDIDATES:
            break
    return sorted(out)


def _errors(findings: Sequence[Finding]) -> int:
    """How many errors."""
    return sum(1 for f in findings if f.severity == "error")


def _said(system: RuleSystem[StateT], entries: Sequence[Entry], mismatch: Mismatch, before: int,
          ends: dict[int, SequencePoint]) -> Finding:
    """The one error a relocation is judged as: the mismatch's own, saying what was left out and where it goes."""
    at = ends.get(before)
    if at is not None and at.step is not None:
        where = f"as the '{at.step}' {system.step_noun} of turn {at.turn} ends"
    elif before > 0:
        where = f"after line {entries[before - 1].line}"
    else:
        where = "before the log's first entry"
    return replace(mismatch.found, message=(
        f"{mismatch.found.message}: a line putting {mismatch.unit} in {mismatch.stated} was left out; it is put "
        f"there {where} and the entries after are judged with it there (one line left out, one error)"))


Run = Callable[[Sequence[Relocation]], "tuple[Sequence[Finding], SlipNotes]"]


def repaired(system: RuleSystem[StateT], state: StateT, order: TurnOrder, entries: Sequence[Entry],
             findings: Sequence[Finding], notes: SlipNotes, run: Run) -> list[Relocation]:
    """The relocations to replay with (none: the log judged as written): each kept only where it leaves fewer errors
    than without it; `run` replays with some and gives the findings and notes."""
    kept: list[Relocation] = []
    best = _errors(findings)
    if best > MOST_ERRORS:
        return kept
    budget = min(BUDGET, REPLAYED_ENTRIES // max(1, len(entries)))
    tried: set[tuple[int, str]] = set()
    while len(kept) < REPAIRS and budget > 0:
        gained = False
        for mismatch in notes.mismatches:
            if (mismatch.index, mismatch.unit) in tried:
                continue
            tried.add((mismatch.index, mismatch.unit))
            choice: tuple[int, list[Relocation], Sequence[Finding], SlipNotes] | None = None
            for before in _places(system, state, order, entries, findings, mismatch, notes.ends):
                if budget <= 0:
                    break
                budget -= 1
                trial = [*kept, Relocation(before, mismatch, _said(system, entries, mismatch, before, notes.ends))]
                out, trial_notes = run(trial)
                count = _errors(out)
                # The fewest errors; of as few, the latest place (the least the log is assumed to have left out).
                if count < best and (choice is None or count <= choice[0]):
                    choice = (count, trial, out, trial_notes)
            if choice is not None:
                best, kept, findings, notes = choice[0], choice[1], choice[2], choice[3]
                gained = True
                break
        if not gained:
            break
    return kept
