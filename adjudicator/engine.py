"""The replay engine: every entry is checked against the rules, then applied as the log says.

Three tiers (house style 5): a syntax error stops parsing; an entry that cannot be resolved
(unknown unit, hex off the map) stops the replay but keeps every state so far; a broken rule
becomes a finding and the replay goes on from what the players actually did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic

from adjudicator.basis import with_basis
from adjudicator.contract import (
    RuleSystem, SequencePoint, StateT, TurnContext, deciding_side, how_of, kind_of, played_scenario,
)
from adjudicator.findings import Finding, one_error
from adjudicator.headers import SINGLE_HEADERS, HeaderCheck, header_findings
from adjudicator.markers_again import turn_written_after, written_again
from adjudicator.missing_markers import Lookahead, missing_markers
from adjudicator.notation.entries import Entry, Header, StepMarker
from adjudicator.notation.text import iter_units_and_hexes
from adjudicator.position_slips import Relocation, SlipNotes, note_mismatch, relocate, repaired
from adjudicator.resolver import Resolver, resolve
from adjudicator.results_first import written_before_combat
from adjudicator.sequence_of_play import later_context, order_played, player_turn_goes_on, step_context
from wargame.errors import LogSyntaxError, Place, ReplayError, did_you_mean, listed
from wargame.game import Game
from wargame.sequence import Slot, TurnOrder, next_slot, slot_index

# The names other modules import from here; their homes are the modules above.
__all__ = ["NOTATION", "SINGLE_HEADERS", "Replay", "Resolver", "RuleSystem", "advance", "check", "follow",
           "header_findings", "judged_lawfully", "later_context", "order_played", "player_turn_goes_on", "replay",
           "resolve", "step_context", "with_basis"]


@dataclass
class Replay(Generic[StateT]):
    """The outcome of a replay: findings, the states kept, and where it stopped.

    With `keep_states=False` (a `check`) only the first and the last state are kept, so memory does
    not grow with the log; `state --at` and `export` replay with every state kept."""

    game: Game
    system: RuleSystem[StateT]
    entries: list[Entry]
    findings: list[Finding] = field(default_factory=list)
    states: list[StateT] = field(default_factory=list)
    stopped: ReplayError | None = None
    stopped_line: int | None = None
    """The log line (or VASSAL step) the replay stopped at: every entry before it was adjudicated."""
    applied: int = 0
    """How many entries were applied (the replay stopped before the next one, if it stopped)."""

    @property
    def final_state(self) -> StateT:
        """The last state reached."""
        return self.states[-1]

    def state_at(self, line: int) -> StateT:
        """The state after the last entry on or before a log line (every state kept)."""
        if len(self.states) != self.applied + 1:
            raise ValueError("the replay kept only its first and last states (replay(..., keep_states=True))")
        index = 0
        for i, entry in enumerate(self.entries):
            if entry.line <= line:
                index = i + 1
        return self.states[min(index, len(self.states) - 1)]


NOTATION = "notation"
"""The `system` of a finding about the log itself rather than a rule: a syntax error (rule `syntax`) or
an id the game does not know (rule `ids`). Both stop the replay at their line (house style 5)."""


def follow(system: RuleSystem[StateT], state: StateT, entry: Entry, resolver: Resolver) -> StateT:
    """The state after an entry as `replay` applies it, without checking it (the VASSAL reader follows a game
    so as it translates); ReplayError for an entry that stops a replay (an id the game does not know, an
    entry that cannot be applied)."""
    problem = resolver.first_problem(entry)
    if problem is not None:
        raise ReplayError(problem.message, problem.place)
    return _advanced(system, state, resolver, entry, resolver.order)


def advance(system: RuleSystem[StateT], state: StateT, entry: Entry, order: TurnOrder | None = None) -> StateT:
    """The state after an entry as the engine applies it, unchecked (house style 19): at a `Turn` marker of a system
    whose turn the engine keeps, the turn ending is judged over in its own context; at it and at a step or phase
    marker the next context goes in with a fresh step record; only then does the system apply the marker's game
    facts."""
    keeper = system.turn_keeper
    if keeper is not None:
        turn, step = entry.as_turn_marker(), entry.as_step_marker()
        if turn is not None:
            state = keeper.begin(keeper.end_turn(state, turn), TurnContext(turn.turn))
        elif step is not None:
            turn_order = order_played(system, state, order)
            if keeper.later_only:
                at = later_context(turn_order, keeper.context(state), step)
            else:
                at = step_context(turn_order, keeper.context(state), step)
            if at is not None:
                goes_on = keeper.carry is not None and player_turn_goes_on(turn_order.sequence, at)
                state = keeper.begin(keeper.end_step(state, step), at, goes_on, same_turn=True)
    return system.apply(state, entry)


def _advanced(system: RuleSystem[StateT], state: StateT, resolver: Resolver, entry: Entry,
              order: TurnOrder | None) -> StateT:
    """`advance` with the entry as applied (`Resolver.applied`); the state as it was when nothing of it can be."""
    applied = resolver.applied(entry)
    return state if applied is None else advance(system, state, applied, order)


def _sequence_findings(system: RuleSystem[StateT], order: TurnOrder, at: SequencePoint,
                       entry: StepMarker) -> list[Finding]:
    """The step or phase marker names the next one of the turn (4.0 / 4.1: the game's `[[sequence]]`)."""
    noun = system.step_noun
    sequence, ids = order.sequence, order.steps
    if entry.step not in ids:
        # Not a finding: an unknown step cannot be applied, so the replay stops here (tier 2).
        raise ReplayError(f"line {entry.line}: {entry.step!r} is not a {noun} of the turn"
                          f"{did_you_mean(entry.step, ids)} ({listed(ids)})")
    section = order.section
    if at.turn == 0:
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"a {noun} before the first 'Turn' marker")]
    expected = next_slot(sequence, at.step, at.player_turn)
    if system.engine_checks.skip_phases and (expected is None or entry.step != expected.id):
        # A later step or phase of the turn: the ones between passed with nothing done in them.
        current = slot_index(sequence, at.step, at.player_turn) if at.step is not None else -1
        if current is not None and any(s.id == entry.step for s in sequence[current + 1:]):
            return []
    if expected is None or entry.step != expected.id:
        after = at.step or "the turn marker"
        then = f"the next {noun} is {expected.id!r}" if expected is not None else f"{after!r} is the turn's last {noun}"
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"turn {at.turn}: {noun} {entry.step!r} comes after {after!r}; {then}")]
    return []


def _belongs(slots: Sequence[Slot], kind: str, how: str | None) -> str:
    """Where the sequence lets a kind be written, for a message: the phasing side's own phases, the
    steps (by a named side, for some unit types only), the opening before the first turn."""
    own: list[str] = []
    others: list[str] = []
    for slot in slots:
        for allowed in slot.entries:
            if not allowed.covers(kind, how):
                continue
            if allowed.side == "phasing" and not allowed.unit_types:
                own.append(slot.title or slot.name)
                continue
            who = [*([] if allowed.side in ("any", "phasing") else [f"by {allowed.side}"]),
                   *([f"{', '.join(allowed.unit_types)} units only"] if allowed.unit_types else [])]
            others.append(f"the {slot.name}" + (" before the first turn" if slot.opening else "")
                          + (f" ({', '.join(who)})" if who else ""))
    parts = ([f"its side's own {' or '.join(dict.fromkeys(own))}"] if own else []) + list(dict.fromkeys(others))
    return ", or to ".join(parts)


def _entry_place_findings(system: RuleSystem[StateT], order: TurnOrder, at: SequencePoint, state: StateT,
                          entry: Entry, kind: str) -> list[Finding]:
    """The step or phase under way allows this kind of entry from this side, for these units (`entries`
    of the game's `[[sequence]]`), citing the section the data gives for it; only for a kind the sequence
    governs (`TurnOrder.governs`).

    An opening step's allowances (before the first turn) are exceptions to the turn's: an entry it does
    not allow breaks the rule of the kind's own step or phase in the turn, which is the one cited."""
    how = how_of(entry)
    slot = order.slot_at(at.turn, at.step, at.player_turn)
    side = deciding_side(system.game_of(state), entry)
    units = system.game_of(state).units_by_id
    types = tuple(units[u].type for u in entry.acting_units() if u in units)
    if slot is not None and order.allows(slot, kind, side, types, how):
        return []
    opening = order.opening
    in_opening = [a for a in opening.entries if a.covers(kind, how)] if opening is not None else []
    allowed = [a for a in order.places.get(kind, ()) if a.covers(kind, how)]
    here = [a for a in slot.entries if a.covers(kind, how)] if slot is not None and not slot.opening else []
    section = (here or allowed or in_opening)[0].source
    noun = system.step_noun
    where = f"before the first turn ({slot.name})" if slot is not None and slot.opening else \
        f"turn {at.turn}, {slot.name}" if slot is not None else f"turn {at.turn}, before its first {noun}"
    belongs = _belongs((*order.sequence, *([opening] if opening is not None else [])), kind, how)
    acting = f" ({', '.join(entry.acting_units())})" if entry.acting_units() else ""
    written = f"{'an' if kind[0] in 'aeiou' else 'a'} '{kind}' entry" + ("" if how is None else f" ('{how}')")
    if here:
        return [system.table.finding("error", section, entry.line, entry.column,
                                     f"{where}: {side or 'a side without a name'} may not write {written} "
                                     f"here{acting}; it belongs to {belongs}")]
    return [system.table.finding("error", section, entry.line, entry.column,
                                 f"{where}: {written}{acting} belongs to {belongs}")]


def _author_findings(system: RuleSystem[StateT], state: StateT, entry: Entry) -> list[Finding]:
    """Who wrote an entry: a unit's decisions are its owner's (its placements too, when the system hands
    them over), and `Side>` marks a decision of the side not acting now."""
    if not entry.side:
        return []
    units = system.game_of(state).units_by_id
    table = system.table
    handed = system.engine_checks
    owned = entry.decided_by_owner() if handed.owner_writes(kind_of(entry)) else []
    out = [table.finding("error", "log", entry.line, entry.column,
                         f"{u} is a {units[u].side} unit; its owner, not {entry.side}, decides this")
           for u in owned if u in units and units[u].side != entry.side]
    if entry.by_opponent and entry.side == system.acting_side(state):
        out.append(table.finding("error", "log", entry.line, entry.column,
                                 f"'{entry.side}>' marks a decision of the side not taking the action, but "
                                 f"{entry.side} is taking it: write '{entry.side}:'"))
    return out


def check(system: RuleSystem[StateT], state: StateT, entry: Entry, order: TurnOrder | None = None) -> list[Finding]:
    """Every finding for an entry: the engine's generic checks in a fixed order, then the system's rules.

    1. the game is already decided (nothing but a claim of that victory follows an automatic victory);
    2. the entry kind is one of the system's;
    3. a step or phase marker names the next step of the game's sequence of play;
    4. the step or phase under way (the opening before the first turn) allows this kind of entry from this
       side, for these units (`entries` in `[[sequence]]`);
    5. the author (`Side:` / `Side>`) may write it;
    then the rule system's own checks. 1, 2 and an unknown step stop there; after 4, the system judges
    only what the entry's arrival brings about, not its kind's own rules (one breach, one error).
    `order` is the sequence of play of the scenario played (`replay` reads it once); without it, it is worked out
    for the scenario the state plays.
    ReplayError for a step or phase the game does not have."""
    handed = system.engine_checks
    table = system.table
    # A claim of the victory that decided the game comes after it: the system checks it against its count.
    if handed.decided and not entry.is_comment and not entry.claims_victory():
        outcome = system.outcome(state)
        if outcome is not None:
            return [table.finding("error", outcome.section, entry.line, entry.column,
                                  f"the game ended at line {outcome.line} with the {outcome.winner} player's "
                                  f"automatic victory ({outcome.reason}); nothing follows it")]
    kind = kind_of(entry)
    if handed.kinds and kind not in system.entry_kinds:
        why = system.foreign_kinds.get(kind, f"is not an entry of the {system.name} rule system")
        return [table.finding("error", "log", entry.line, entry.column, f"'{kind}' {why}")]
    out: list[Finding] = []
    if order is None:
        order = order_played(system, state, None)
    marker = entry.as_step_marker() if handed.sequence else None
    governed = handed.entries and order.governs(kind, how_of(entry))
    at = system.sequence_point(state) if marker is not None or governed else None
    if marker is not None and at is not None:
        out += _sequence_findings(system, order, at, marker)
    misplaced: list[Finding] = []
    if governed and at is not None:
        misplaced = _entry_place_findings(system, order, at, state, entry, kind)
        # One breach, one error: a misplacement already reported (a late arrival) is a note; its own rules judge it.
        if misplaced and (known := system.misplacement_reported(state, entry)) is not None:
            out, misplaced = out + [replace(f, severity="note", message=f"{f.message} ({known})") for f in misplaced], []
        out += misplaced
    if handed.author and entry.side:
        out += _author_findings(system, state, entry)
    own = system.check_rules(state, entry, kind_rules=not misplaced)
    # A move, retreat or advance is one decision along one path: one error, the other restrictions it breaks notes.
    relocating = entry.relocated_unit() is not None
    out += one_error(own, "the same path breaks {rule} above: one error") if relocating else own
    return with_basis(system, state, entry, out) if out else out


def _still_astray(astray: dict[str, int], entry: Entry, found: Sequence[Finding]) -> dict[str, int]:
    """The units standing where a broken rule put them after an entry, with the line of that entry: a move,
    retreat or advance that breaks a rule of the system puts its unit astray; any later entry that moves,
    reduces or places the unit ends it (the players have gone on from there)."""
    # An attack's attackers stay where they are: it moves, reduces or places none of them.
    acting = set(entry.acting_units()) if entry.as_attack() is None else set()
    out = {u: line for u, line in astray.items() if u not in acting} if acting & astray.keys() else astray
    # A move, retreat or advance that breaks a rule puts its unit astray.
    relocated = entry.relocated_unit()
    if relocated is not None and any(f.severity == "error" and f.system != NOTATION and f.rule != "log"
                                     for f in found):
        out = {**out, relocated: entry.line}
    return out


def judged_lawfully(system: RuleSystem[StateT], state: StateT, entry: Entry, found: list[Finding],
                    astray: Mapping[str, int], order: TurnOrder) -> list[Finding]:
    """The findings of an entry with the errors that only a unit astray brings about made notes (house style
    16: the breach that put it there was the error; judged from where the unit lawfully is, which the rules
    do not fix, that is without it, the entry breaks no rule of that section).

    An entry naming a unit astray, or attacking its hex, is the players' consistent follow-up and is judged
    as it stands; so is any entry of a system without `with_units`."""
    auditor = system.auditor
    if auditor is None:
        return found
    named = {value for kind, value in iter_units_and_hexes(entry) if kind == "unit"}
    if named & astray.keys():
        return found
    places = system.position(state).units
    attacked = entry.attacked_hexes()
    if any(places[u].place in attacked for u in astray if u in places):
        return found
    lawful = auditor.with_units(state, {u: p.place for u, p in places.items() if u not in astray})
    kept = {f.rule for f in check(system, lawful, entry, order) if f.severity == "error"}
    if all(f.rule in kept for f in found if f.severity == "error"):
        return found
    cause = "; ".join(f"line {line} put {unit} in {places[unit].place}" for unit, line in sorted(astray.items())
                      if unit in places)
    return [f if f.severity != "error" or f.rule in kept else
            replace(f, severity="note", message=f"{f.message} (not a breach of its own: {cause}, which no rule "
                                                f"allowed; without it there, this is no breach)")
            for f in found]


def _copy_of(system: RuleSystem[StateT], entry: Entry, before: Entry | None) -> bool:
    """Whether an entry repeats the one before it word for word (where each stands in the log aside); a marker
    where only a later part of the turn opens is not judged so: a phase named again may be the next player's
    (markers_again.py tells)."""
    keeper = system.turn_keeper
    if keeper is not None and keeper.later_only and (entry.as_step_marker() or entry.as_turn_marker()):
        return False
    # Entries of two kinds are never equal (dataclasses compare their own class only).
    return before is not None and replace(entry, line=0, column=1) == replace(before, line=0, column=1)


def _written_twice(found: list[Finding]) -> list[Finding]:
    """The findings of an entry written twice in a row that breaks a rule: its first error, saying so, the rest notes."""
    first = next(f for f in found if f.severity == "error")
    said = first if "written again" in first.message else \
        replace(first, message=f"{first.message} (the entry before it written again, word for word: not carried out)")
    return one_error([said if f is first else f for f in found], "the same entry written again: one error")


def replay(game: Game, system: RuleSystem[StateT], entries: list[Entry], keep_states: bool = True, *,
           file: str = "<log>", source: Sequence[str] = (), syntax: Sequence[LogSyntaxError] = (),
           headers: Sequence[Header] | None = None,
           more: Callable[[StateT], list[Entry]] | None = None) -> Replay[StateT]:
    """Check and apply every entry in order, up to the first that cannot be read or resolved.

    `syntax` holds the log's syntax errors: each becomes a finding (system `notation`, rule `syntax`)
    and the replay stops at the first of their lines, after adjudicating every entry before it. An id
    the game does not know stops the replay at its entry in the same way (rule `ids`). A ReplayError
    (an entry of the log that cannot be applied) stops it as the log's fault too; any other exception
    is a bug in Umpire and propagates as one.

    `more` goes on from where the entries end (a chain's VASSAL log, translated from where the text log before
    it ends): asked with the state reached each time they run out, until it gives none, so a chain is replayed
    once; `headers` are then the game's, those of the entries to come included (the set-up reads them all).

    A unit's position change the log left out, shown by a later entry stating the unit in another hex (a path's
    start, a placement's or activation's hex), is inferred and judged as one error (`adjudicator/position_slips.py`):
    the log is then replayed with it (a chain's is not)."""
    if headers is None:
        headers = [h for e in entries if (h := e.as_header()) is not None]
    # The scenario the log plays, from its headers (the game's first): its sequence of play, its first player's
    # player turns first, is the one every marker and entry is judged and applied in.
    order = TurnOrder(game.manifest, played_scenario(game, headers))
    args = (game, system, entries, file, source, syntax, headers, order, more)
    notes = SlipNotes() if more is None else None
    result = _replay_pass(*args, keep_states, (), notes)
    if notes is None or not notes.mismatches:
        return result

    def run(relocations: Sequence[Relocation]) -> tuple[Sequence[Finding], SlipNotes]:
        """The findings and notes of a replay with these relocations."""
        again = SlipNotes()
        return _replay_pass(*args, False, relocations, again).findings, again

    kept = repaired(system, result.states[0], order, result.entries, result.findings, notes, run)
    return _replay_pass(*args, keep_states, kept, None) if kept else result


def _replay_pass(game: Game, system: RuleSystem[StateT], entries: list[Entry], file: str, source: Sequence[str],
                 syntax: Sequence[LogSyntaxError], headers: Sequence[Header], order: TurnOrder,
                 more: Callable[[StateT], list[Entry]] | None, keep_states: bool,
                 relocations: Sequence[Relocation], notes: SlipNotes | None) -> Replay[StateT]:
    """One replay of `replay`'s, with these relocations put in (each before its entry, its error at its mismatch),
    noting the mismatches and the markers' steps or phases in `notes` if given."""
    result: Replay[StateT] = Replay(game, system, list(entries))
    first_bad = min((e.place.line or 0 for e in syntax if e.place is not None), default=None)
    unread = [Finding("error", NOTATION, "syntax", (e.place.line or 0) if e.place else 0,
                      (e.place.column or 1) if e.place else 1, e.message) for e in syntax]

    def stop(error: ReplayError, line: int, *found: Finding) -> Replay[StateT]:
        result.findings += [*found, *(f for f in unread if f.line >= line)]
        result.stopped, result.stopped_line = error, line
        return result

    resolver = Resolver(game, file, source, order)
    state = system.initial_state(game, headers)
    result.states.append(state)
    astray: dict[str, int] = {}
    headers_read = HeaderCheck(system)
    contradicting = headers_read.read(entries)

    def continued() -> Iterator[Entry]:
        """The entries, then those `more` gives from the state they end at."""
        yield from entries
        while more is not None and (following := more(state)):
            result.entries += following
            # Only the entries given now: those before were read (each file of a long chain read once).
            contradicting.update(headers_read.read(following))
            yield from following

    ahead = Lookahead(result.entries)
    before: Entry | None = None
    carried_early = -1  # a combat carried out before the result written ahead of it (results_first.py)

    def carry_out(at: StateT, entry: Entry) -> StateT | None:
        """The state after an entry, None where it cannot be applied (it is then read as written)."""
        try:
            return None if resolver.first_problem(entry) is not None else _advanced(system, at, resolver, entry, order)
        except ReplayError:
            return None

    for index, entry in enumerate(continued()):
        if first_bad is not None and entry.line >= first_bad:
            break
        if index == carried_early:
            # Judged and applied with the result written before it (its findings given then).
            before, result.applied = entry, result.applied + 1
            if keep_states:
                result.states.append(state)
            continue
        if entry.line in contradicting and entry.as_header() is not None:
            result.findings.append(contradicting[entry.line])
        problem = resolver.first_problem(entry)
        if problem is not None:
            return stop(ReplayError(problem.message, problem.place), entry.line,
                        Finding("error", NOTATION, "ids", entry.line,
                                (problem.place.column or 1) if problem.place else entry.column, problem.message))
        try:
            for moved in relocations:
                if moved.before == index:
                    state = relocate(system, state, moved.mismatch.unit, moved.mismatch.stated)
                if moved.mismatch.index == index:
                    result.findings.append(moved.said)
            if notes is not None and (entry.as_step_marker() is not None or entry.as_turn_marker() is not None):
                notes.ends[index] = system.sequence_point(state)
            # A marker written again (where phases are named again, the entries after it not showing the next
            # player's), or the second of two swapped: one error, and it opens nothing (the phase under way goes on).
            if (again := written_again(system, state, order, entry, index, ahead)) is not None:
                result.findings.append(again)
            else:
                # A marker the log left out (the markers written after it show it): one error, then applied.
                if (left_out := missing_markers(system, state, order, entry, index, ahead)
                        or turn_written_after(system, state, order, entry, index, ahead)) is not None:
                    markers, said = left_out
                    result.findings.append(said)
                    for marker in markers:
                        result.findings += check(system, state, marker, order)
                        state = advance(system, state, marker, order)
                found = check(system, state, entry, order)
                swapped = written_before_combat(system, state, order, entry, index, ahead, found,
                                                lambda at, e: check(system, at, e, order), carry_out)
                if swapped is not None:
                    # A result and its combat written in each other's place: one error, both carried out in order.
                    result.findings += swapped.findings
                    state, carried_early = swapped.state, swapped.index
                elif any(f.severity == "error" for f in found) and _copy_of(system, entry, before):
                    # The entry before it written again, word for word, breaking a rule: one slip, one error, and
                    # not carried out (the entries after it follow the first; applied, each was an error of its own).
                    result.findings += _written_twice(found)
                else:
                    if notes is not None and found:
                        # A unit the entry states elsewhere than it is: a position change the log may have left out.
                        note_mismatch(notes, system, state, entry, index, found,
                                      lambda moved: check(system, moved, entry, order))
                    if astray and any(f.severity == "error" for f in found):
                        found = judged_lawfully(system, state, entry, found, astray, order)
                    result.findings += found
                    astray = _still_astray(astray, entry, found)
                    state = _advanced(system, state, resolver, entry, order)
        except ReplayError as e:
            return stop(e, entry.line, system.table.finding("error", "log", entry.line, entry.column, e.message))
        if not entry.is_comment and entry.as_header() is None:
            before = entry
        result.applied += 1
        if keep_states:
            result.states.append(state)
        else:
            result.states[1:] = [state]
    if first_bad is not None:
        return stop(ReplayError("the log cannot be read from here on (a syntax error)", Place(file, first_bad)),
                    first_bad)
    result.findings += with_basis(system, state, None, system.finish(state))
    return result
