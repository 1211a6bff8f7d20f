"""One way in (house style 20): the logs a command is given (a text or JSON log, a VASSAL .vlog/.vsav, several
files of one game, a game's folder, standard input) read, told apart, translated and replayed once.

Every command reads through `open_logs` (and `replay_logs` for a replay with every state kept); none tells a
VASSAL file from a text log or one log from a chain on its own. What a command runs (the entries' and games'
models, the engine, the VASSAL reader) is imported inside the functions: a check of a text log loads no VASSAL
code (tests/test_cli_startup.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from adjudicator.notation.syntax_errors import MAX_LOG_BYTES, LogSyntaxErrors
from adjudicator.vassal.detect import is_vassal_file
from wargame.bundled import data_root, game_ids
from wargame.errors import LogSyntaxError, Place, WargameError, did_you_mean
from wargame.files import TooLarge, read_capped
from wargame.records import frozen

if TYPE_CHECKING:
    from adjudicator.contract import StateT
    from adjudicator.engine import Replay
    from adjudicator.findings import Finding
    from adjudicator.notation.entries import Entry
    from adjudicator.vassal.chain import Chain
    from adjudicator.vassal.translate import Translation
    from wargame.game import Game

STDIN = Path("<stdin>")
"""The name a log read from standard input (`-`) goes by in messages."""
MAX_STDIN_BYTES = 64 * 2**20
"""Standard input is read up to the larger of the caps it may be under: a VASSAL log's (wargame.vassal.reader)."""
LOG_SUFFIXES = (".log", ".json", ".txt", ".vlog", ".vsav")
NOT_LOGS = (".seal", ".ledger.json")

_stdin_bytes: dict[Path, bytes] = {}


def hold_stdin(raw: bytes) -> Path:
    """Standard input's text log, kept to be read as the log named STDIN."""
    _stdin_bytes[STDIN] = raw
    return STDIN


def read_log(path: Path) -> tuple[list[Entry], Sequence[str]]:
    """Entries and source lines of a text or JSON log; LogSyntaxErrors with carets otherwise."""
    entries, source, errors, _ = read_log_partly(path)
    if errors:
        raise LogSyntaxErrors(errors, source)
    return entries, source


def read_log_partly(path: Path) -> tuple[list[Entry], Sequence[str], list[LogSyntaxError], Finding | None]:
    """Entries, source lines, the syntax errors of a text log (the replay stops at the first) and its note of
    typographic characters read as the notation's own (`adjudicator/notation/typography.py`); a file
    that cannot be read as a log at all (too large, a zip, not UTF-8, a JSON twin that does not read
    strictly) raises LogSyntaxErrors."""
    from adjudicator.notation.text import parse_text_partly
    try:
        # Counted while read: a pipe, /dev/zero or a growing file reports no true size.
        raw = _stdin_bytes[path] if path == STDIN and path in _stdin_bytes else read_capped(path, MAX_LOG_BYTES)
        if len(raw) > MAX_LOG_BYTES:
            raise TooLarge(f"{len(raw):,} bytes")
    except TooLarge as e:
        raise LogSyntaxErrors([LogSyntaxError(f"{e.found}: a text or JSON log may have at most "
                                              f"{MAX_LOG_BYTES:,} (docs/limits.md)", Place(str(path)))]) from None
    if raw[:2] == b"PK":
        # A zip that is not a VASSAL save or log (those are read by adjudicator.vassal): a module, say.
        raise LogSyntaxErrors([LogSyntaxError(
            "this is a zip archive (a VASSAL .vmod?), not a text or JSON log; VASSAL logs and saved games are read "
            "from .vlog and .vsav files", Place(str(path), 1, 1))])
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise LogSyntaxErrors([LogSyntaxError("UTF-16 text (it starts with a UTF-16 byte-order mark): a log is a "
                                              "UTF-8 text or JSON file; save it as UTF-8", Place(str(path), 1, 1))])
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark some editors add is not part of the log
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise LogSyntaxErrors([LogSyntaxError(f"not UTF-8 text: byte 0x{raw[e.start]:02x} cannot be decoded; a log "
                                              "is a UTF-8 text or JSON file", Place(str(path), line, column))]
                              ) from None
    source = text.splitlines()
    if path.suffix == ".json" or (path == STDIN and text.lstrip().startswith("{")):
        from adjudicator.notation.jsonlog import placed_in, read_json_log
        entries, quoted = placed_in(read_json_log(text, str(path)), text)
        return entries, quoted, [], None
    from adjudicator.notation.typography import typography_note
    entries, errors = parse_text_partly(text, str(path))
    return entries, source, errors, typography_note(source)


def names_game(entries: list[Entry]) -> bool:
    """True when a log has a [Game "..."] header (a later exchange of a game has none)."""
    return any(h is not None and h.key == "Game" for h in (e.as_header() for e in entries))


def game_of(entries: list[Entry], path: Path, data: Path | None) -> Game:
    """The game a log's [Game "..."] header names."""
    from wargame.game import load_game
    header = next((h for h in (e.as_header() for e in entries) if h is not None and h.key == "Game"), None)
    if header is None:
        raise LogSyntaxErrors([LogSyntaxError(
            'the log names no game: add a header like [Game "onslaught"]; a later exchange of a game is read after '
            'the ones before it (`adjudicate check EARLIER.log... LOG`, or the game\'s folder)',
            Place(str(path), 1, 1))])
    root = data_root(data)
    if header.value not in game_ids(root):
        raise LogSyntaxErrors([LogSyntaxError(f"unknown game {header.value!r}"
                                              f"{did_you_mean(header.value, game_ids(root))}",
                                              Place(str(path), header.line, header.column))])
    return load_game(root, header.value)


def read_text_part(path: Path, data: Path | None) -> tuple[list[Entry], Sequence[str], Game | None]:
    """A text or JSON log of a chain: its entries, source lines and game (None: no [Game] header, as in a
    later exchange)."""
    entries, source = read_log(path)
    return entries, source, game_of(entries, path, data) if names_game(entries) else None


def _is_log_file(path: Path) -> bool:
    """A file of a game's folder that is an exchange: a log's suffix, and not a seal or a ledger file."""
    name = path.name.lower()
    if name.startswith(".") or not name.endswith(LOG_SUFFIXES) or name.endswith(NOT_LOGS):
        return False
    if not path.is_file():
        # Named like an exchange but not one we can read: leaving it out would judge the game without it.
        kind = ("a broken symbolic link" if path.is_symlink() and not path.exists() else "a folder" if path.is_dir()
                else "a pipe" if path.is_fifo() else "not a regular file")
        raise WargameError(f"{path} is named like an exchange but is {kind}: the game's folder cannot be read "
                           "without it (move it out, or make it the exchange's file)")
    if name.endswith(".json"):
        with path.open("rb") as stream:
            head = stream.read(4096)
        # A ledger or seal saved under another name: its "format" says so (a log's JSON form has none).
        return b'"umpire-ledger"' not in head and b'"umpire-seal"' not in head
    return True


def expand_logs(given: tuple[Path, ...]) -> tuple[Path, ...]:
    """The logs given, a folder standing for its exchanges in name order (seals and ledgers left out)."""
    out: list[Path] = []
    for path in given:
        if not path.is_dir():
            out.append(path)
            continue
        found = sorted((p for p in path.iterdir() if _is_log_file(p)), key=lambda p: p.name)
        if not found:
            raise WargameError(f"{path} is a folder with no log in it (exchanges are {', '.join(LOG_SUFFIXES)} "
                               "files, read in name order)")
        out += found
    return tuple(out)


def step_lines(translation: Translation) -> list[str]:
    """What VASSAL showed at each step, as the "source lines" of a translation (line N: step N)."""
    return [translation.steps.get(n, "") for n in range(1, max(translation.steps, default=0) + 1)]


def replay_entries(game: Game, entries: list[Entry], path: Path, source: Sequence[str], keep_states: bool = True,
                   syntax: list[LogSyntaxError] | None = None) -> Replay[object]:
    """Replay up to the first line that cannot be read or resolved (reported as a finding, the replay
    stopped there); `keep_states=False` (a check) keeps only the last state, so memory stays bounded."""
    from adjudicator import engine
    from adjudicator.systems import system_for
    return engine.replay(game, system_for(game), entries, keep_states, file=str(path), source=source,
                         syntax=syntax or [])


@frozen
class LogSource:
    """The logs of one command, read: one text or JSON log, one VASSAL file (translated), or a game's files in
    order (a chain), with what to quote each line by."""

    paths: tuple[Path, ...]
    """The files read, a folder expanded into its exchanges."""
    game: Game | None
    """None for a text log read `gameless` (a conversion, which needs no game)."""
    entries: list[Entry]
    """The entries read; of a chain, those before a VASSAL log after a text log, which its replay translates (the
    replay's `entries` are all)."""
    lines: Sequence[str]
    """One text log's lines; one VASSAL file's steps as VASSAL showed them (line N: step N); empty for a chain."""
    syntax: list[LogSyntaxError] = field(default_factory=list)
    """A text log's syntax errors: its replay stops at the first, reported as a finding."""
    translation: Translation | None = None
    """One VASSAL file's translation."""
    retyped: Finding | None = None
    """One text log's note of typographic characters read as the notation's own."""
    chain: Chain | None = None
    """Several files' chain (`--at LOG:LINE` reads through it)."""

    @property
    def path(self) -> Path:
        """The first (for one log: the only) file."""
        return self.paths[0]

    @property
    def noun(self) -> Literal["line", "step"]:
        """What a line of one log is called: `line`, or `step` for a VASSAL file."""
        return "step" if self.translation is not None else "line"

    @property
    def is_text(self) -> bool:
        """True for one text or JSON log."""
        return self.chain is None and self.translation is None

    def locate(self, line: int) -> tuple[str, int]:
        """The file a line of the replay is in (named as given) and its line (VASSAL step) there."""
        if self.chain is None:
            return str(self.path), line
        part, local = self.chain.locate(line)
        return part.name, local

    def cited(self, finding: Finding) -> Finding:
        """A finding in its own file's terms: its line there, a chain's `line N` in its message naming the file."""
        if self.chain is None:
            return finding
        return dataclasses.replace(finding, line=self.chain.locate(finding.line)[1],
                                   message=self.chain.cited(finding.message))

    def cite(self, line: int) -> str:
        """A line of the replay named for people: `game.log line 12`, `game.vlog step 5`, a chain's file and line."""
        return self.chain.cite(line) if self.chain is not None else f"{self.path.name} {self.noun} {line}"

    def quote(self, line: int) -> str | None:
        """The text of a line of the replay (what VASSAL showed at a step; receipts elided; None past the ends)."""
        from adjudicator.notation.text import elide_receipts
        text_lines, local = self.lines, line
        if self.chain is not None:
            part, local = self.chain.locate(line)
            text_lines = part.source
        return elide_receipts(text_lines[local - 1]) if 0 < local <= len(text_lines) else None

    def check_joins(self) -> None:
        """A chain's text logs' joins checked by a command that does not replay it (a conversion): ChainOrderError
        if one does not continue the log before it. `replay` checks them on its way."""
        if self.chain is not None:
            from adjudicator.vassal.chain import check_joins
            check_joins(self.chain)

    def replay(self, keep_states: bool = True) -> Replay[object]:
        """The replay of the logs from the set-up, once (a chain's joins checked on the way, their findings
        first)."""
        if self.chain is not None:
            from adjudicator.vassal.chain import replay_chain
            return replay_chain(self.chain, keep_states)
        game = self.game if self.game is not None else game_of(self.entries, self.path, None)
        result = replay_entries(game, self.entries, self.path, self.lines, keep_states, self.syntax)
        if self.retyped is not None:
            result.findings.append(self.retyped)
        return result


def open_logs(given: tuple[Path, ...], data: Path | None, game_id: str | None = None, module: Path | None = None, *,
              stop_at_unknown: bool = False, strict: bool = False, gameless: bool = False) -> LogSource:
    """The logs given, read: several files (or a folder) as one game's chain, a VASSAL file translated, a text
    or JSON log parsed (with `strict`, its syntax errors raise LogSyntaxErrors instead of stopping its replay).
    A text log is read for the game its header names (`game_id` and `module` are for VASSAL files);
    `stop_at_unknown` (a verdict) ends a chain at a text log's unknown id instead of refusing it; `gameless` (a
    conversion) reads a text log without loading its game (a later exchange names none)."""
    paths = expand_logs(given)
    if len(paths) > 1:
        from adjudicator.vassal.chain import read_chain
        chain = read_chain(paths, partial(read_text_part, data=data), data, game_id, module,
                           stop_at_unknown=stop_at_unknown)
        return LogSource(paths, chain.game, chain.entries, [], chain=chain)
    if is_vassal_file(paths[0]):
        from adjudicator.vassal.load import translate_file
        translation = translate_file(paths[0], data, game_id, module)
        return LogSource(paths, translation.game, translation.entries, step_lines(translation),
                         translation=translation)
    entries, lines, syntax, retyped = read_log_partly(paths[0])
    if strict and syntax:
        raise LogSyntaxErrors(syntax, lines)
    if not gameless and syntax and not names_game(entries):
        # A log whose opening lines cannot be read (quoted by an email reply, say) names no game for that reason:
        # the lines are the error. Otherwise both are said.
        from adjudicator.contract import kind_of
        first = min((e.line for e in entries if kind_of(e) != "comment"), default=None)
        opening = [e for e in syntax if e.place is not None and (first is None or (e.place.line or 0) < first)]
        try:
            game_of(entries, paths[0], data)
        except LogSyntaxErrors as e:
            raise LogSyntaxErrors(syntax if opening else [*syntax, *e.errors], lines) from None
    game = None if gameless else game_of(entries, paths[0], data)
    return LogSource(paths, game, entries, lines, syntax, retyped=retyped)


@frozen
class Replayed:
    """Logs read and replayed with every state kept (`state`, `picture`, `reach`, `retreats`)."""

    source: LogSource
    result: Replay[object]

    def state_at(self, at_line: tuple[str | None, int] | None) -> tuple[object, str]:
        """The state after `--at [LOG:]LINE` (the end without it) and how that moment is named for people (`line
        12`, `step 12` of a VASSAL file, `LOG line 12` of a chain, `the end`); WargameError for a log the replay
        does not have or a line past its end."""
        result = self.result
        if at_line is None:
            return result.final_state, "the end"
        chain = self.source.chain
        if chain is not None:
            line = chain_line(chain, *at_line)
            local = at_line[1]
            part = next(p for p in chain.parts if p.base == line - local)
            if local > len(part.source):
                raise _out_of_range(local, len(part.source), part.path.name)
            return result.state_at(line), f"{part.path.name} line {local}"
        log = self.source.path
        if at_line[0] is not None and at_line[0] not in (log.name, str(log), "1"):
            raise WargameError(f"--at {at_line[0]}:{at_line[1]}: no log {at_line[0]!r} here"
                               f"{did_you_mean(at_line[0], [log.name])}")
        if at_line[1] > len(self.source.lines):
            raise _out_of_range(at_line[1], len(self.source.lines), log.name, self.source.noun)
        return result.state_at(at_line[1]), f"{self.source.noun} {at_line[1]}"


def adjudicate_file(path: Path, data: Path | None, keep_states: bool = True) -> tuple[Replay[object], Sequence[str]]:
    """One log file (text, JSON, or a VASSAL file, its lines VASSAL's steps) read and replayed, and its lines."""
    source = open_logs((path,), data)
    return source.replay(keep_states), source.lines


def saved_position_warning(source: LogSource) -> str | None:
    """A saved VASSAL position that is not the set-up: the position shown is the replay's, not the file's."""
    translation = source.translation
    if translation is None or not translation.saved_differences:
        return None
    markers = [d.removeprefix("marker ") for d in translation.saved_differences if d.startswith("marker ")]
    units = len(translation.saved_differences) - len(markers)
    return (f"warning: {source.path}: the saved position is not scenario {translation.scenario}'s set-up; the "
            "position below is the replay of the steps from the set-up, not what the file shows"
            + (f" (tracks and markers in the file: {'; '.join(markers)})" if markers else "")
            + (f"; {units} unit(s) placed otherwise" if units else "")
            + ": give the game's earlier logs first")


def replay_logs(given: tuple[Path, ...], data: Path | None, game_id: str | None, module: Path | None,
                warn: Callable[[str], None] | None = None) -> Replayed:
    """The logs read and replayed with every state kept; `warn` told of a saved VASSAL position that is not the
    set-up."""
    source = open_logs(given, data, game_id, module)
    warning = saved_position_warning(source)
    if warning is not None and warn is not None:
        warn(warning)
    return Replayed(source, source.replay())


def chain_line(chain: Chain, which: str | None, step: int) -> int:
    """The chain's line of `--at LOG:LINE` (a VASSAL log's line: its step)."""
    names = [str(k) for k in range(1, len(chain.parts) + 1)]
    if which is None:
        raise WargameError(f"with several logs, say in which the position is wanted: --at LOG:LINE, LOG being the "
                           f"file or its place in the chain (e.g. --at {len(chain.parts)}:{step})")
    for k, part in enumerate(chain.parts):
        if which in (part.name, part.path.name, names[k]):
            return part.base + step
    raise WargameError(f"--at {which}:{step}: no log {which!r} in the chain"
                       f"{did_you_mean(which, [p.path.name for p in chain.parts] + names)}")


def _out_of_range(at: int, last: int, what: str, noun: str = "line") -> WargameError:
    return WargameError(f"--at {at}: {what} has {last} {noun}(s); give a {noun} from 0 (the set-up) to {last}")


def positions_of(result: Replay[StateT], start: int, count: int, chain: Chain | None = None) -> list[str | None]:
    """The position hash after each of `count` entries from `start` (None past where the replay stopped); of a
    chain's replay, a decided game's line is its own file's, as `adjudicate seal` (whose replay numbers each
    entry in its file) hashed it."""
    from adjudicator.seal import position_digest

    def digest(state: StateT) -> str:
        position = result.system.position(state)
        if chain is not None and position.outcome is not None:
            outcome = dataclasses.replace(position.outcome, line=chain.locate(position.outcome.line)[1])
            position = dataclasses.replace(position, outcome=outcome)
        return position_digest(position)

    return [digest(result.states[i + 1]) if i + 1 < len(result.states) else None for i in range(start, start + count)]
