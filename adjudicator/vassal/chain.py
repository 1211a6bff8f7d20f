"""A game's logs read as one: in play by e-mail each VASSAL log begins where the previous one ended.

Each log's saved position (its `begin_save` part) is compared, unit by unit and marker by
marker, with the position the log before it ended at; every difference is an error (the game's
position was changed between logs). Then the entries of all logs are numbered one after the
other and replayed from the set-up as one game. A text log may come first or between them (a part
of the game written in the notation): the VASSAL log after it goes on from the position its replay
ends at, so it is translated when the chain's one replay gets there (`Chain.rest`), and that replay
goes on through it. docs/vassal-logs.md, "A game in several logs", has the conventions.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast, overload

from adjudicator.engine import Replay, RuleSystem, advance, replay, resolve
from adjudicator.findings import ChainOrderError, Finding, SectionTable
from adjudicator.contract import how_of, kind_of
from adjudicator.notation.entries import Entry, Header, TurnMarker
from adjudicator.notation.lines import SparseLines
from adjudicator.notation.text import LogSyntaxErrors
from adjudicator.notation.typography import typography_note
from adjudicator.systems import system_for
from adjudicator.vassal.detect import is_vassal_file
from adjudicator.vassal.joins import Position, differences, in_play, phase_index, replayed_position, vassal_position
from adjudicator.vassal.load import game_id_of, game_of_recording
from adjudicator.vassal.movement import Followed
from adjudicator.vassal.translate import (
    MAX_DIFFERENCES, Carry, Note, Phase, Translation, module_phases, phases, translate, typed_scenario,
)
from wargame.bundled import data_root, game_ids
from wargame.errors import DataError, Place, ReplayError, WargameError
from wargame.game import Game
from wargame.sequence import TurnOrder
from wargame.vassal.buildfile import ModuleInfo, read_module
from wargame.vassal.places import fitted_places
from wargame.vassal.reader import Limits, Recording, read_recording
from wargame.vassal.tracking import Tracking, track

CHAIN = SectionTable("vassal", {"chain": "each log of a game begins where the previous one ended"})
"""The reader's own finding: not a rule of the game, the logs of one game disagreeing."""
ORDER_SEARCH_BUDGET = 20_000
"""Orders tried when looking for one in which the logs follow each other (a handful for real games)."""
LINE_CITED = re.compile(r"\bline (\d+)\b")

TextReader = Callable[[Path], tuple[list[Entry], Sequence[str], Game | None]]
"""Reads a text or JSON log: its entries, its source lines and the game its header names (None: no
[Game] header, as in a later exchange of a game)."""


@dataclass
class Part:
    """One file of the chain: its entries numbered in the chain, and what to cite them by."""

    path: Path
    name: str
    base: int
    """The chain's line of the file's line 0 (its saved position, for a VASSAL file)."""
    entries: list[Entry]
    source: Sequence[str]
    """A text log's lines; for a VASSAL file, what VASSAL showed at each step (line N: step N)."""
    translation: Translation | None
    saved: Position | None
    ended: Position | None
    """Where the file ended (None for a text log no VASSAL file follows; for one a VASSAL file follows, set when
    the chain's replay reaches its end)."""
    notes: list[Note] = field(default_factory=list)

    @property
    def is_vassal(self) -> bool:
        """True for a VASSAL .vlog/.vsav, False for a text or JSON log."""
        return self.translation is not None


@dataclass
class Chain:
    """The files of one game in order, and the findings about how they join."""

    game: Game
    system: RuleSystem[object]
    parts: list[Part]
    findings: list[Finding]
    unread: list[Path] = field(default_factory=list)
    """The logs given after a text log whose unknown id stops the replay: not read on."""
    joins: list[int] = field(default_factory=list)
    """The parts (text logs after the first) whose join is checked when the replay reaches them: the command's
    one replay checks them (`replay_chain`, `check_joins`), not a replay of everything before each."""
    rest: _Rest | None = field(default=None, repr=False)
    """The files from a VASSAL log after a text log on, not yet parts: that log goes on from where the replay of
    every file before it ends, so the chain's one replay translates them when it gets there (`replay_chain`,
    `check_joins`); None once every file is a part."""

    @property
    def entries(self) -> list[Entry]:
        """Every file's entries one after the other (those of `rest` once the chain is replayed)."""
        return [e for part in self.parts for e in part.entries]

    @property
    def headers(self) -> list[Header]:
        """Every file's headers in order, the files of `rest` included (a VASSAL log after another file has
        none: the game's are given by its first)."""
        later = self.rest.text_entries() if self.rest is not None else []
        return [h for e in [*self.entries, *later] if (h := e.as_header()) is not None]

    def locate(self, line: int) -> tuple[Part, int]:
        """The file a line of the chain is in, and its line (VASSAL step) there."""
        part = self.parts[0]
        for candidate in self.parts:
            if candidate.base <= line:
                part = candidate
        return part, line - part.base

    def cite(self, line: int) -> str:
        """`game-02.vlog step 5`, `game-01.log line 12`, `game-02.vlog saved position`."""
        part, local = self.locate(line)
        if not part.is_vassal:
            return f"{part.name} line {local}"
        return f"{part.name} {'saved position' if local == 0 else f'step {local}'}"

    def cited(self, message: str) -> str:
        """A message whose `line N` (the chain's numbering) names the file and its step instead."""
        return LINE_CITED.sub(lambda m: self.cite(int(m.group(1))), message)

    def source_lines(self) -> Sequence[str]:
        """Every text log's lines at their line of the chain (a VASSAL file's steps left blank), for the
        column of an unknown id."""
        return _part_lines([(part.base, part.source) for part in self.parts if not part.is_vassal])

    def line_of(self, part: Part, local: int) -> int:
        """The chain's line of a file's line (VASSAL step)."""
        return part.base + local


def _refuse_repeats(paths: Sequence[Path]) -> None:
    """A file given twice, under its name or another: a clear error (the game would be replayed twice)."""
    seen: dict[Path, int] = {}
    contents: dict[bytes, int] = {}
    for k, path in enumerate(paths):
        real = path.resolve()
        if real in seen:
            raise ChainOrderError(f"{path} is given twice (as log {seen[real] + 1} and log {k + 1} of the chain); give "
                               "each log of the game once, in the order they were played")
        seen[real] = k
        with path.open("rb") as stream:
            digest = hashlib.file_digest(stream, "sha256").digest()  # in chunks: a hostile file may be huge
        if digest in contents:
            raise ChainOrderError(f"{path} and {paths[contents[digest]]} are the same file (the same bytes): a log "
                               "given twice? give each log of the game once, in the order they were played")
        contents[digest] = k


def _order(links: list[list[bool]], fixed_first: bool) -> list[int] | None:
    """An order of the files in which each begins where the one before it ended, if one is found."""
    n = len(links)
    budget = [ORDER_SEARCH_BUDGET]

    def extend(path: list[int]) -> list[int] | None:
        if len(path) == n:
            return path
        budget[0] -= 1
        if budget[0] < 0:
            return None
        for j in range(n):
            if j not in path and links[path[-1]][j]:
                found = extend([*path, j])
                if found is not None:
                    return found
        return None

    for start in ([0] if fixed_first else range(n)):
        found = extend([start])
        if found is not None:
            return found
    return None


@dataclass
class _Read:
    """A file read but not yet translated."""

    path: Path
    recording: Recording | None = None
    tracking: Tracking | None = None
    entries: list[Entry] = field(default_factory=list)
    source: Sequence[str] = field(default_factory=list)
    saved: Position | None = None
    ended: Position | None = None


def _ended_by(read: _Read) -> str:
    return f"{read.path} ended" if read.recording is not None else f"the replay of {read.path} ended"


def _follows(after: _Read, before: _Read) -> bool:
    """True if a file's saved position is exactly where another ended."""
    return (after is not before and after.saved is not None and before.ended is not None
            and not differences(after.saved, before.ended, ""))


def _check_order(files: list[_Read]) -> None:
    """Stop with the order to give when the files follow each other in another order only."""
    links = [[_follows(after, before) for after in files] for before in files]
    if all(links[k - 1][k] for k in range(1, len(files))):
        return
    order = _order(links, fixed_first=files[0].recording is None)
    if order is None or order == list(range(len(files))):
        return
    k = next(k for k in range(1, len(files)) if not links[k - 1][k])
    after = next((files[j].path for j in range(len(files)) if links[j][k]), None)
    raise ChainOrderError(
        f"the logs are out of order: {files[k].path} does not begin where {files[k - 1].path}, the log before it, "
        f"ended" + (f", but where {after} ended" if after is not None else "") + "; in the order "
        + " ".join(str(files[j].path) for j in order) + " each log begins where the one before it ended")


def _refuse_first_without_game(path: Path, later: Sequence[Path], read_text: TextReader, limits: Limits,
                               known: Sequence[str]) -> None:
    """A first log that names no game: if a later text log does (it begins the game), the logs are out of
    order, and the error says so and which comes first; else the exchanges before it are missing."""
    for k, other in enumerate(later, start=2):
        if is_vassal_file(other, limits):
            continue
        try:
            named = read_text(other)[2]
        except WargameError:
            continue  # a later log that does not read is reported when its turn comes
        if named is not None:
            raise ChainOrderError(
                f"the logs are out of order: {path}, given first, continues an earlier exchange (it names no game), "
                f"and {other}, given as log {k}, begins the game (its [Game \"{named.id}\"] header): give them in "
                "the order they were played, the one that begins the game first (or give the game's folder)",
                Place(str(path), 1, 1))
    raise DataError(f"the log names no game, and no log before it does: {path} continues an earlier exchange, so "
                    "give the exchanges before it first, in order (or the game's folder); the first names the game "
                    f"with a header [Game \"NAME\"], NAME one of {', '.join(known)}", Place(str(path), 1, 1))


def read_chain(paths: Sequence[Path], read_text: TextReader, data: Path | None = None, game_id: str | None = None,
               module_path: Path | None = None, limits: Limits = Limits(), stop_at_unknown: bool = False) -> Chain:
    """Read, check the joins of and translate a game's files in order (a text log may come first).

    An id a text log names that the game does not know: with `stop_at_unknown` (a verdict) the chain ends at
    its entry, where the replay stops, and the files after it are not read (`Chain.unread`); without it
    (a conversion, which must not drop entries) LogSyntaxErrors."""
    _refuse_repeats(paths)
    module: ModuleInfo | None = read_module(module_path) if module_path is not None else None
    root = data_root(data)
    files = [_Read(path) for path in paths]
    unread: list[Path] = []
    game: Game | None = None
    for k, read in enumerate(files):
        if not is_vassal_file(read.path, limits):
            read.entries, read.source, named_game = read_text(read.path)
            if named_game is not None and game is not None and named_game.id != game.id:
                raise DataError(f"a log of {named_game.id}, but {paths[0]} is of {game.id}: all the logs of a chain "
                                "are of one game", Place(str(read.path)))
            if game is None:
                if named_game is None:
                    _refuse_first_without_game(read.path, paths[k + 1:], read_text, limits, game_ids(root))
                game = named_game
            continue
        read.recording = read_recording(read.path, limits)
        read.tracking = track(read.recording)
        if game is None:
            game = game_of_recording(read.recording, read.tracking, root, game_id, module)
        elif game_id is None:
            named = game_id_of(read.recording, read.tracking, root, module)
            if named != game.id:
                raise DataError(f"a log of {named}, but {paths[0]} is of {game.id}: all the logs of a chain are of "
                                "one game", Place(str(read.path)))
    assert game is not None
    system = system_for(game)
    # The off-map board as the first recording's saved position fits it (today's, or commit 543cd0a's).
    first = next((read.tracking for read in files if read.tracking is not None), None)
    places = fitted_places(game, module, first.initial.values() if first is not None else ())
    phase_list = module_phases(game, module)[0] if module is not None else phases(game)
    for k, read in enumerate(files):
        if read.tracking is not None:
            read.saved = vassal_position(game, places, phase_list, read.tracking.initial, read.tracking.initial_turns)
            read.ended = vassal_position(game, places, phase_list, read.tracking.final, read.tracking.final_turns)
            continue
        errors = resolve(game, read.entries, str(read.path), read.source)
        if errors and not stop_at_unknown:
            raise LogSyntaxErrors(errors, read.source)
        if errors:
            # Issue 15 item 4: an unknown id stops the replay at its line, not the chain: everything before it
            # (earlier files included) is adjudicated; the files after it are not read on.
            stop = min((e.place.line or 0) if e.place is not None else 0 for e in errors)
            read.entries = [e for e in read.entries if e.line <= stop]
            unread += [r.path for r in files[k + 1:]]
            del files[k + 1:]
    # A text log after the first continues the replay of all before it: where it ends is known only once
    # they are translated, so the files' order is searched only among VASSAL logs after a first text log
    # (once the chain's replay knows where that text log ends).
    vassal_after = all(read.recording is not None for read in files[1:])
    text_first = files[0].recording is None and len(files) > 1
    if vassal_after and not text_first:
        _check_order(files)
    chain = Chain(game, system, [], [], unread)
    rest = _Rest(chain, files, module, phase_list, check_order=vassal_after and text_first)
    rest.go_on()
    chain.rest = None if rest.done else rest
    return chain


def _carry_of_text(game: Game, system: RuleSystem[object], state: object, phase_list: list[Phase]) -> Carry:
    """What a text log's replay hands the VASSAL log after it: scenario, turn, eliminated units."""
    position = system.position(state)
    index = phase_index(position.at, phase_list)
    eliminated = frozenset(u for u, where in position.units.items() if not in_play(game, where.place, "box"))
    followed = Followed(state)
    return Carry(position.scenario, None if index is None else (position.turn, index), None, eliminated, None, None,
                 lambda: followed)


class _Rest:
    """The files made the chain's parts in order: a text log numbered in the chain, a VASSAL log translated from
    where the file before it ends; one after a text log waits for the chain's replay to reach that end."""

    def __init__(self, chain: Chain, files: list[_Read], module: ModuleInfo | None, phase_list: list[Phase],
                 check_order: bool) -> None:
        self.chain, self.files, self.module, self.phase_list = chain, files, module, phase_list
        self.check_order = check_order
        """The VASSAL logs after a first text log: their order is checked once where it ends is known."""
        self.k = 0
        """The next file to make a part."""
        self.base = 0
        self.carry: Carry | None = None

    @property
    def done(self) -> bool:
        """True once every file is a part."""
        return self.k == len(self.files)

    def text_entries(self) -> list[Entry]:
        """The entries of the text logs not yet parts, on their own lines (a VASSAL log's are not known yet)."""
        return [e for read in self.files[self.k:] for e in read.entries]

    def go_on(self, ended: object = None) -> list[Entry]:
        """The next files made parts, up to the next VASSAL log after a text log (the first of them translated
        from `ended`, the state the chain's replay reached at the end of the text log before it): their entries."""
        parts = self.chain.parts
        start = len(parts)
        while not self.done:
            if self.files[self.k].recording is not None and self.k > 0 and self.files[self.k - 1].recording is None:
                if ended is None:
                    break
                self._after_text(ended)
                ended = None
            self._make_part()
        return [e for part in parts[start:] for e in part.entries]

    def _after_text(self, ended: object) -> None:
        """Where the text log before the next file ended (the state `ended`), as that VASSAL log goes on from."""
        chain, previous = self.chain, self.files[self.k - 1]
        previous.ended = chain.parts[-1].ended = replayed_position(chain.game, chain.system.position(ended),
                                                                   self.phase_list)
        if self.check_order:
            _check_order(self.files)
            self.check_order = False
        # The optional rules in force so far: a text log's `[Optional]` headers, as a VASSAL log's typed ones carry.
        optional = {h.value for part in chain.parts for e in part.entries
                    if (h := e.as_header()) is not None and h.key == "Optional"}
        self.carry = replace(_carry_of_text(chain.game, chain.system, ended, self.phase_list),
                             optional=frozenset(optional | (self.carry.optional if self.carry else set())))

    def _make_part(self) -> None:
        """The next file numbered in the chain (a VASSAL log translated, its join checked), a text log's join
        left to the chain's replay (`Chain.joins`)."""
        chain, k, read = self.chain, self.k, self.files[self.k]
        base, name = self.base, str(read.path)
        if read.recording is None:
            part = Part(read.path, name, base, [replace(e, line=e.line + base) for e in read.entries],
                        read.source, None, None, read.ended)
            # A file of a chain is its JSON twin by its name alone, as `read_log_partly` reads it.
            if read.path.suffix != ".json" and (note := typography_note(read.source, base)) is not None:
                chain.findings.append(note)
            if k > 0:
                chain.joins.append(k)
            span = max([len(read.source), *(e.line for e in read.entries)])
        else:
            assert read.tracking is not None and read.saved is not None and read.ended is not None
            # The game's scenario typed in any of its VASSAL logs is its header, as a later exchange's would be.
            declared = None if self.carry is not None else next(
                (s for f in self.files if f.tracking is not None and (s := typed_scenario(f.tracking, chain.game))),
                None)
            translation = translate(read.recording, read.tracking, chain.game, module=self.module, after=self.carry,
                                    declared=declared)
            steps = [translation.steps.get(n, "") for n in range(1, max(translation.steps, default=0) + 1)]
            part = Part(read.path, name, base,
                        [replace(e, line=e.line + base) for e in translation.entries], steps,
                        translation, read.saved, read.ended, list(translation.notes))
            self.carry = translation.carry
            span = max([len(steps), *(e.line for e in translation.entries)])
            if k > 0:
                chain.findings += _joins(part, self.files, k)
        chain.parts.append(part)
        self.base += span + 1
        self.k += 1


def _part_lines(parts: list[tuple[int, Sequence[str]]]) -> SparseLines:
    """The text logs' lines at their lines of the chain (a part's line L is the chain's base + L), held sparsely."""
    bases = [base for base, _ in parts]

    def line_at(n: int) -> str:
        k = bisect.bisect_right(bases, n - 1) - 1  # the part whose lines begin at or before line n
        if k < 0:
            return ""
        base, lines = parts[k]
        return lines[n - 1 - base] if n - 1 - base < len(lines) else ""
    return SparseLines(line_at, max((base + len(lines) for base, lines in parts), default=0))


class _SourceLines(Sequence[str]):
    """`Chain.source_lines` as the parts come: the replay reads a text log's lines (an unknown id's column) made
    a part after it began."""

    def __init__(self, chain: Chain) -> None:
        self._chain = chain

    def __len__(self) -> int:
        return len(self._chain.source_lines())

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._chain.source_lines()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._chain.source_lines())


def _first_turn(entries: Sequence[Entry]) -> TurnMarker | None:
    """The first turn marker of a log, if any."""
    return next((turn for turn in (e.as_turn_marker() for e in entries) if turn is not None), None)


def _continue_text(chain: Chain, k: int, ended: object) -> None:
    """The text log `chain.parts[k]` continues the files before it, whose replay ended at the state `ended` (else
    ChainOrderError naming both, and the text log given after it that continues it if one does)."""
    before, read = chain.parts[k - 1], chain.parts[k]
    at = chain.system.position(ended).at
    setup = next((e for e in read.entries if kind_of(e) == "place" and how_of(e) == "setup"), None)
    if setup is not None and at.turn > 0:
        raise ChainOrderError(f"{read.path} does not continue {before.path}: it sets up a game (line "
                              f"{setup.line - read.base}) after {before.path} ended on turn {at.turn}; give each "
                              "exchange of one game once, in the order they were played")
    turn = _first_turn(read.entries)
    if turn is not None and not at.turn <= turn.turn <= at.turn + 1:
        message = (f"{read.path} does not continue {before.path}: it begins turn {turn.turn} (line "
                   f"{turn.line - read.base}), but {before.path} ended on turn {at.turn}")
        # A log given later that begins where this one should: the logs are out of order, not one missing.
        expected = next((r for r in chain.parts[k + 1:] if not r.is_vassal and (t := _first_turn(r.entries)) is not None
                         and at.turn <= t.turn <= at.turn + 1), None)
        if expected is not None:
            raise ChainOrderError(f"the logs are out of order: {message}, and {expected.path}, given after it, "
                                  f"continues {before.path}: give the logs in the order they were played")
        raise ChainOrderError(message + (": an exchange is missing between them, or the logs are out of order"
                                         if turn.turn > at.turn else ": the logs are out of order, or one is given "
                                         "twice"))


class _JoinsChecked:
    """The chain's rule system for its replay, checking each text log's join (`Chain.joins`) as the replay reaches
    the log's first entry: one replay judges the game and its joins, not one more replay of all before each join."""

    def __init__(self, chain: Chain) -> None:
        self._chain = chain
        self._system = chain.system
        self._order = TurnOrder(chain.game.manifest)

    def __getattr__(self, name: str) -> object:
        return getattr(self._system, name)

    @property
    def turn_keeper(self) -> None:
        """None: `apply` applies through the engine itself, once the joins are checked in the state before the
        entry (the engine would otherwise put a marker's turn in before)."""
        return None

    def apply(self, state: object, entry: Entry) -> object:
        """The entry applied as the engine applies it (`advance`), the joins of the logs before it checked first."""
        self.reach(entry.line, state)
        return advance(self._system, state, entry, self._order)

    def reach(self, line: int | None, state: object) -> None:
        """Check the joins of the text logs beginning before `line` (None: every one left) from `state`."""
        joins = self._chain.joins
        while joins and (line is None or self._chain.parts[joins[0]].base < line):
            _continue_text(self._chain, joins.pop(0), state)


def _replay(chain: Chain, keep_states: bool) -> Replay[object]:
    """The replay of the chain's entries, once: the text logs' joins checked on the way (ChainOrderError), a
    VASSAL log after a text log translated from the state it reaches there and replayed on."""
    checked = _JoinsChecked(chain)
    rest = chain.rest
    if rest is None:
        result = replay(chain.game, cast("RuleSystem[object]", checked), chain.entries, keep_states,
                        source=chain.source_lines())
    else:
        result = replay(chain.game, cast("RuleSystem[object]", checked), chain.entries, keep_states,
                        source=_SourceLines(chain), headers=chain.headers, more=rest.go_on)
        # A replay stopped before the end: the files after it go on from where it stopped, unreplayed.
        while not rest.done:
            rest.go_on(result.final_state)
        chain.rest = None
        result.entries = chain.entries
    checked.reach(None, result.final_state)
    result.system = chain.system
    return result


def check_joins(chain: Chain) -> None:
    """The text logs' joins checked, and every file translated, without a verdict (a conversion): ChainOrderError
    if one does not join."""
    if chain.joins or chain.rest is not None:
        _replay(chain, keep_states=False)


def _joins(part: Part, files: list[_Read], k: int) -> list[Finding]:
    """Findings for each way a file's saved position differs from where the one before it ended."""
    previous = files[k - 1]
    assert part.saved is not None and previous.ended is not None
    found = differences(part.saved, previous.ended, _ended_by(previous))
    out = [CHAIN.finding("error", "chain", part.base, 1, text) for text in found[:MAX_DIFFERENCES]]
    if len(found) > MAX_DIFFERENCES:
        out.append(CHAIN.finding("error", "chain", part.base, 1, f"... and {len(found) - MAX_DIFFERENCES} more "
                                                                   "difference(s)"))
    if found:
        others = [files[j].path for j in range(len(files)) if j != k - 1 and _follows(files[k], files[j])]
        if others:
            why = f"; it begins where {others[0]} ended: are the logs in order?"
        else:
            why = (", nor where any other file given ended: a log missing between them, or the position changed "
                   "between logs (counters moved while no log was recorded, or a log begun from another save)")
        if previous.recording is None:
            why += " (after a text log, markers are not compared: its replay has none)"
        part.notes.insert(0, Note(0, f"the saved position is not where {previous.path} ended ({len(found)} "
                                     f"difference(s)){why}"))
    return out


def replay_chain(chain: Chain, keep_states: bool = True) -> Replay[object]:
    """All the files' entries replayed from the set-up as one game, the joins' findings first; a stop (an
    unknown id) names its file and line there."""
    result = _replay(chain, keep_states)
    result.findings = [*chain.findings, *result.findings]
    stopped = result.stopped
    if stopped is not None and stopped.place is not None and result.stopped_line is not None:
        part, local = chain.locate(result.stopped_line)
        after = f"; the logs after it were not read ({', '.join(map(str, chain.unread))})" if chain.unread else ""
        result.stopped = ReplayError(stopped.message + after, Place(part.name, local, stopped.place.column))
    return result
