"""`adjudicate`: the play-by-email referee's command line."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from functools import partial
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from adjudicator.findings import Finding
from adjudicator.notation.syntax_errors import MAX_LOG_BYTES, LogSyntaxErrors, caret_message, quoted_source
from adjudicator.rules_cli import rules as rules_command
from adjudicator.vassal.detect import is_vassal_file
from wargame.bundled import data_root, game_ids
from wargame.errors import DataErrors, LogSyntaxError, Place, WargameError, did_you_mean
from wargame.files import TooLarge, read_capped, read_stream_capped, write_atomically
from wargame.internal_errors import exit_2_on_interrupt, exit_3_on_internal_errors

# What a command runs (the entries' and the games' models, the engine, the rule systems, the ledger, the
# VASSAL reader) is imported inside it: `adjudicate --help` loads none of it, a check of a text log only what
# a check uses (tests/test_cli_startup.py; start-up figures in bench/README.md).
if TYPE_CHECKING:
    from adjudicator.engine import Replay
    from adjudicator.vassal.chain import Chain
    from adjudicator.vassal.translate import Translation
    from adjudicator.notation.entries import Entry
    from wargame.game import Game
    from wargame.receipts import Ledger


class _LogFirstGroup(click.Group):
    """`adjudicate LOG` means `adjudicate check LOG`; an internal error exits 3 (wargame.internal_errors)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with exit_3_on_internal_errors("adjudicate"):
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with exit_2_on_interrupt("adjudicate"):
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _global_options_after_command(args, self.commands))

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                          list[str]]:
        if args and args[0] not in self.commands and _is_log_argument(args[0]):
            return "check", self.commands["check"], args
        if args and args[0] not in self.commands and Path(args[0]).is_file():
            # A file that is not a log (`game.pbem`, a notes file): say what is read, not just "No such command".
            raise click.UsageError(f"{args[0]!r} is neither a command nor a log: logs are {', '.join(LOG_SUFFIXES)} "
                                   "files (or a game's folder, or - for standard input); rename it, or give it as "
                                   f"`adjudicate check {args[0]}` if it is a text log under another name", ctx)
        return super().resolve_command(ctx, args)


GLOBAL_OPTIONS = ("--data", "--format", "-o", "--output")
"""Options many commands share, accepted before the command too (`adjudicate --data DIR LOG`, as git-style
tools read them): they are moved after it, where the command's own option reads them."""


def _is_log_argument(arg: str) -> bool:
    """An argument that stands for a log: `-`, a log's suffix, or a folder of exchanges."""
    return arg == "-" or Path(arg).suffix.lower() in LOG_SUFFIXES or Path(arg).is_dir()


def _global_options_after_command(args: list[str], commands: Mapping[str, click.Command]) -> list[str]:
    """The arguments with the shared options given before the command (or the LOG) moved after it."""
    moved: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        name = arg.partition("=")[0]
        if name not in GLOBAL_OPTIONS:
            break
        takes_next = "=" not in arg
        moved += args[k:k + 2] if takes_next else [arg]
        k += 2 if takes_next else 1
    if not moved or k >= len(args):
        return args
    rest = args[k:]
    if rest[0] in commands:
        return [rest[0], *moved, *rest[1:]]
    if _is_log_argument(rest[0]) or Path(rest[0]).is_file():
        return ["check", *moved, *rest]
    return args


def _stop(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


@contextmanager
def _could_not_run() -> Iterator[None]:
    """Anything that stops adjudication: a clear message and exit 2."""
    try:
        yield
    except LogSyntaxErrors as e:
        for syntax in e.errors:
            click.echo(caret_message(syntax, e.source), err=True)
        _stop(f"{len(e.errors)} problem(s) in the log; nothing was adjudicated")
    except DataErrors as e:
        for data_error in e.errors:
            click.echo(str(data_error), err=True)
        _stop("the game data do not load")
    except WargameError as e:
        _stop(str(e))
    except OSError as e:
        _stop(f"{e.filename}: {e.strerror or e}" if e.filename else f"{e.strerror or e}")


STDIN = Path("<stdin>")
"""The name a log read from standard input (`-`) goes by in messages."""

_stdin_bytes: dict[Path, bytes] = {}
MAX_STDIN_BYTES = 64 * 2**20
"""Standard input is read up to the larger of the caps it may be under: a VASSAL log's (wargame.vassal.reader)."""


def _stdin_log(ctx: click.Context, given: Path) -> Path:
    """`-`: standard input, read once; a zip (a VASSAL log or save) is spooled to a temporary .vlog."""
    if str(given) != "-":
        return given
    try:
        raw = read_stream_capped(sys.stdin.buffer, MAX_STDIN_BYTES)
    except TooLarge as e:
        raise click.BadParameter(f"standard input: {e.found}; a log may have at most {MAX_LOG_BYTES:,}, a VASSAL log "
                                 f"or save {MAX_STDIN_BYTES:,} (docs/limits.md)") from None
    if raw[:2] != b"PK":
        _stdin_bytes[STDIN] = raw
        return STDIN
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="umpire-stdin-"))
    spooled = folder / "stdin.vlog"
    spooled.write_bytes(raw)
    ctx.call_on_close(partial(shutil.rmtree, folder, ignore_errors=True))
    return spooled


def _logs_with_stdin(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    """The LOG... arguments, `-` standing for standard input (one log only)."""
    if len(value) > 1 and any(str(v) == "-" for v in value):
        raise click.BadParameter("standard input (-) is read as a game's only log", ctx, param)
    return tuple(_stdin_log(ctx, v) for v in value)


def _log_with_stdin(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """A LOG argument, `-` standing for standard input."""
    return None if value is None else _stdin_log(ctx, value)


@contextmanager
def _unread(fmt: str, log: Path) -> Iterator[None]:
    """A log that cannot be replayed at all still gets its full verdict document on stdout (exit 2); the
    game data or an unreadable file are the only reasons not to run (exit 2, message on stderr)."""
    from adjudicator.report import unread_report
    try:
        yield
    except LogSyntaxErrors as e:
        # In a chain of logs the problem may be in any exchange: name the one its place names.
        named = next((str(x.place.file) for x in e.errors if x.place is not None and x.place.file), str(log))
        click.echo(unread_report(fmt, named, e.errors, e.source), nl=False)
        sys.exit(2)
    except (DataErrors, OSError):
        with _could_not_run():
            raise
    except WargameError as e:
        named = str(e.place.file) if e.place is not None and e.place.file else str(log)
        click.echo(unread_report(fmt, named, [e], []), nl=False)
        sys.exit(2)


def read_log(path: Path) -> tuple[list[Entry], list[str]]:
    """Entries and source lines of a text or JSON log; LogSyntaxErrors with carets otherwise."""
    entries, source, errors = read_log_partly(path)
    if errors:
        raise LogSyntaxErrors(errors, source)
    return entries, source


def read_log_partly(path: Path) -> tuple[list[Entry], list[str], list[LogSyntaxError]]:
    """Entries, source lines and the syntax errors of a text log (the replay stops at the first); a file
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
        from adjudicator.notation.jsonlog import read_json_log
        return read_json_log(text, str(path)), source, []
    entries, errors = parse_text_partly(text, str(path))
    return entries, source, errors


def game_of(entries: list[Entry], path: Path, data: Path | None) -> Game:
    """The game a log's [Game "..."] header names."""
    from adjudicator.notation.entries import Header
    from wargame.game import load_game
    header = next((e for e in entries if isinstance(e, Header) and e.key == "Game"), None)
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


def read_text_part(path: Path, data: Path | None) -> tuple[list[Entry], list[str], Game | None]:
    """A text or JSON log of a chain: its entries, source lines and game (None: no [Game] header, as in a
    later exchange)."""
    from adjudicator.notation.entries import Header
    entries, source = read_log(path)
    if not any(isinstance(e, Header) and e.key == "Game" for e in entries):
        return entries, source, None
    return entries, source, game_of(entries, path, data)


LOG_SUFFIXES = (".log", ".json", ".txt", ".vlog", ".vsav")
NOT_LOGS = (".seal", ".ledger.json")


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


def read_logs(logs: tuple[Path, ...], data: Path | None, game_id: str | None, module: Path | None,
              stop_at_unknown: bool = False) -> Chain:
    """Several logs of one game, in order, read as one (adjudicator.vassal.chain); `stop_at_unknown` for a
    verdict, which ends at a text log's unknown id instead of refusing the chain."""
    from adjudicator.vassal.chain import read_chain
    return read_chain(logs, partial(read_text_part, data=data), data, game_id, module,
                      stop_at_unknown=stop_at_unknown)


def chain_seal_findings(chain: Chain) -> list[Finding]:
    """Each sealed text exchange of a chain against its seal, and each seal's link to the exchange before it,
    numbered in the chain."""
    from adjudicator.engine import replay
    from adjudicator.seal import SEAL, make_seal, read_seal, seal_findings, seal_path
    # Positions are hashed as `adjudicate seal` made them: the exchanges one after the other, each entry on
    # its own file's line (a state may hold the line of the combat under way).
    local = [e.model_copy(update={"line": e.line - part.base}) for part in chain.parts for e in part.entries]
    result = replay(chain.game, chain.system, local, keep_states=True)
    findings: list[Finding] = []
    previous: str | None = None
    start = 0
    broken = False
    for k, part in enumerate(chain.parts):
        count = len(part.entries)
        positions = positions_of(result, start, count) if len(result.states) > 1 + start else None
        if part.is_vassal or not seal_path(part.path).exists():
            fresh = make_seal(part.path.name, part.entries, positions or [None] * count, previous)
            previous = fresh.final
            start += count
            continue
        sealed = read_seal(seal_path(part.path))
        shifted = dataclasses.replace(sealed, entries=tuple(
            dataclasses.replace(e, line=e.line + part.base) for e in sealed.entries))
        # After a broken exchange the later positions follow from the break: its finding stands for them.
        found = seal_findings(part.entries, None if broken else positions, shifted)
        if sealed.previous != previous:
            found.append(SEAL.finding("error", "previous", part.base + 1, 1, (
                "the seal carries no previous exchange's hash, but follows " + chain.parts[k - 1].name
                if sealed.previous is None else "the seal carries a previous hash that is not the final hash of "
                + (chain.parts[k - 1].name if k else "any exchange given before it"))))
        broken = broken or bool(found)
        findings += found
        previous = sealed.final
        start += count
    return findings


def _replay(game: Game, entries: list[Entry], path: Path, source: list[str], keep_states: bool = True,
            syntax: list[LogSyntaxError] | None = None) -> Replay[Any]:
    """Replay up to the first line that cannot be read or resolved (reported as a finding, the replay
    stopped there); `keep_states=False` (a check) keeps only the last state, so memory stays bounded."""
    from adjudicator.engine import replay
    from adjudicator.systems import system_for
    system = system_for(game)
    return replay(game, system, entries, keep_states, file=str(path), source=source, syntax=syntax or [])


def _step_lines(translation: Translation) -> list[str]:
    """What VASSAL showed at each step, as the "source lines" of a translation (line N: step N)."""
    return [translation.steps.get(n, "") for n in range(1, max(translation.steps, default=0) + 1)]


def adjudicate_vassal(path: Path, data: Path | None, game_id: str | None = None,
                      module: Path | None = None, keep_states: bool = True) -> tuple[Replay[Any], Translation]:
    """Read, translate and replay a VASSAL log or saved game (each entry's line is its VASSAL step)."""
    from adjudicator.vassal.load import translate_file
    translation = translate_file(path, data, game_id, module)
    return _replay(translation.game, translation.entries, path, _step_lines(translation), keep_states), translation


def adjudicate_file(path: Path, data: Path | None, keep_states: bool = True) -> tuple[Replay[Any], list[str]]:
    """Parse, resolve and replay a log file (a VASSAL .vlog/.vsav too: its lines are VASSAL steps)."""
    if is_vassal_file(path):
        result, translation = adjudicate_vassal(path, data, keep_states=keep_states)
        return result, _step_lines(translation)
    entries, source, syntax = read_log_partly(path)
    game = game_of(entries, path, data)
    return _replay(game, entries, path, source, keep_states, syntax), source


DATA = click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None,
                    help="Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games).")
LOG = click.argument("log", type=click.Path(path_type=Path, dir_okay=False, exists=True, allow_dash=True),
                     callback=_log_with_stdin)
# A folder stands for its exchanges in name order (expand_logs).
LOGS = click.argument("logs", metavar="LOG...", nargs=-1, required=True, callback=_logs_with_stdin,
                      type=click.Path(path_type=Path, exists=True, allow_dash=True))
GAME = click.option("--game", "game_id", default=None,
                    help="For a VASSAL .vlog/.vsav: the game, when the file does not tell (default: from its pieces).")
MODULE = click.option("--module", "module", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
                      help="For a VASSAL .vlog/.vsav: the .vmod it was played with, whose own grid and zones then "
                           "name the places (default: our game data).")
FORCE = click.option("--force", is_flag=True, default=False,
                     help="Write -o over an existing file of another kind (a VASSAL log with text, text with a PNG).")


@click.group(cls=_LogFirstGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="umpire")
def main() -> None:
    """Referee play-by-email wargame logs against the rules (`adjudicate LOG` checks a log)."""


main.add_command(rules_command)


@main.command(short_help="Replay logs and report every rule breach (exit 0 clean, 1 breaches, 2 could not run).")
@LOGS
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: file:line:col findings with carets; json: for tools; markdown: a table for a forum post.")
@DATA
@GAME
@MODULE
@click.option("--ledger", "ledger_source", metavar="LEDGER_FILE_OR_URL", default=None,
              help="The game's dice ledger (a downloaded file, or its URL): every receipt's signature and the chain "
                   "are verified, each die against its receipt, and every roll of the ledger must be in the log.")
@click.option("--ledger-key", "ledger_key", metavar="KEY_ID", default=None,
              help="The fingerprint (key id) of the ledger's key, as the server's /public-key gives it: a ledger "
                   "signed by another key is an error (the log's [LedgerKey] header pins it too).")
def check(logs: tuple[Path, ...], fmt: str, data: Path | None, game_id: str | None, module: Path | None,
          ledger_source: str | None, ledger_key: str | None) -> None:
    """Replay a log (text, JSON, or a VASSAL .vlog/.vsav) and report every rule breach; several logs of
    one game in order are checked as one game. Exit 0 clean, 1 breaches, 2 could not run."""
    from adjudicator.notation.entries import Header
    from adjudicator.report import json_report, markdown_report, text_report
    from adjudicator.seal import read_seal, seal_findings, seal_path
    ledger = None
    if ledger_source is not None:
        from adjudicator.dice_ledger import read_ledger
        with _could_not_run():
            ledger = read_ledger(ledger_source)

    def with_dice(result: Replay[Any]) -> Replay[Any]:
        if ledger is not None:
            from adjudicator.dice_ledger import check_dice, with_ledger_dice
            result.findings = [*with_ledger_dice(result, ledger), *check_dice(result.entries, ledger, dice_by_entry=
                                                             result.game.manifest.dice_by_entry() or None,
                                                             pinned_key=ledger_key)]
        return result

    with _could_not_run():
        logs = expand_logs(logs)
    if len(logs) > 1:
        from adjudicator.vassal.chain import replay_chain
        from adjudicator.vassal.chain_report import chain_json_verdict, chain_markdown_verdict, chain_text_verdict
        with _unread(fmt, logs[0]):
            chain = read_logs(logs, data, game_id, module, stop_at_unknown=True)
            chained = with_dice(replay_chain(chain, keep_states=False))
            if any(not p.is_vassal and seal_path(p.path).exists() for p in chain.parts):
                chained.findings = [*chained.findings, *chain_seal_findings(chain)]
        verdict = {"json": chain_json_verdict, "markdown": chain_markdown_verdict}.get(fmt, chain_text_verdict)
        click.echo(verdict(chained, chain), nl=False)
        _exit_for(chained)
    log = logs[0]
    if ledger is not None and not is_vassal_file(log):
        with _could_not_run():
            entries, source = read_log(log)
        if not any(isinstance(e, Header) and e.key == "Game" for e in entries):
            _exchange_dice(log, entries, source, ledger, fmt, ledger_key)
    if is_vassal_file(log):
        from adjudicator.vassal.report import json_verdict, markdown_verdict, text_verdict
        with _unread(fmt, log):
            result, translation = adjudicate_vassal(log, data, game_id, module, keep_states=False)
            with_dice(result)
        if fmt == "json":
            click.echo(json_verdict(result, translation), nl=False)
        elif fmt == "markdown":
            click.echo(markdown_verdict(result, translation, str(log)), nl=False)
        else:
            click.echo(text_verdict(result, translation, str(log)), nl=False)
        _exit_for(result)
    with _unread(fmt, log):
        # A sealed log's check hashes the position after every entry, so it keeps the states.
        sealed_log = seal_path(log).exists()
        result, source = adjudicate_file(log, data, keep_states=sealed_log)
        with_dice(result)
        if sealed_log:
            sealed = read_seal(seal_path(log))
            # A later exchange's positions follow from the earlier ones: `adjudicate seal --verify` checks them.
            positions = positions_of(result, 0, len(result.entries)) if sealed.previous is None else None
            result.findings = [*result.findings, *seal_findings(result.entries, positions, sealed)]
    if fmt == "json":
        click.echo(json_report(result), nl=False)
    elif fmt == "markdown":
        click.echo(markdown_report(result, str(log)), nl=False)
    else:
        click.echo(text_report(result, source, str(log)), nl=False)
    _exit_for(result)


def _exchange_dice(log: Path, entries: list[Entry], source: list[str], ledger: Ledger, fmt: str,
                   ledger_key: str | None) -> NoReturn:
    """A later exchange checked alone against the game's ledger: its dice and receipts only (its rules need
    the exchanges before it); the ledger's rolls before its first receipt and after its last are not its own."""
    from adjudicator.dice_ledger import check_dice
    findings = sorted(check_dice(entries, ledger, part_of_game=True, pinned_key=ledger_key),
                      key=lambda f: (f.line, f.column))
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    why = (f"{log} continues an earlier exchange (it has no [Game] header): only its dice were checked against the "
           "ledger; give the exchanges before it (or the game's folder) to check its rules")
    if fmt == "json":
        doc = {"file": str(log), "rules_checked": False, "note": why, "findings": [f.as_dict() for f in findings],
               "errors": errors, "warnings": warnings}
        click.echo(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(f"# Dice of {log}\n\n{why}.\n")
        for f in findings:
            click.echo(f"- line {f.line}: **{f.severity}** [{f.system} {f.rule}] {f.message}")
        click.echo(f"\n{errors} error(s), {warnings} warning(s)")
    else:
        for f in findings:
            click.echo(f"{log}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}")
            if 0 < f.line <= len(source):
                click.echo("\n".join(quoted_source(source[f.line - 1], f.column)))
        click.echo(f"note: {why}")
        click.echo(f"{len(entries)} entries' dice checked: {errors} error(s), {warnings} warning(s)")
    sys.exit(1 if errors else 0)


def positions_of(result: Replay[Any], start: int, count: int) -> list[str | None]:
    """The position hash after each of `count` entries from `start` (None past where the replay stopped)."""
    from adjudicator.seal import position_digest
    return [position_digest(result.system.position(result.states[i + 1])) if i + 1 < len(result.states) else None
            for i in range(start, start + count)]


def _finding_lines(findings: list[Finding], file: Path) -> list[str]:
    return [f"{file}:{f.line}:{f.column}: {f.severity} [{f.system} {f.rule}]: {f.message}"
            for f in sorted(findings, key=lambda f: (f.line, f.column))]


@main.command(short_help="Seal a log's entries and positions against later rewriting, or --verify seals.")
@LOGS
@click.option("--verify", is_flag=True, help="Check the logs' seals (and their links) instead of sealing.")
@DATA
def seal(logs: tuple[Path, ...], verify: bool, data: Path | None) -> None:
    """Seal the last LOG (the earlier ones are the game's exchanges before it, in order): write LOG.seal with
    the hash of every entry and of the position after it, chained from the previous exchange's final hash.
    With --verify, report every entry added, removed or rewritten since sealing, by its line. Exit 0 sound,
    1 a seal does not hold, 2 could not run."""
    from adjudicator.seal import Seal, make_seal, read_seal, seal_findings, seal_path
    with _could_not_run():
        logs = expand_logs(logs)
        parts = []
        for log in logs:
            if is_vassal_file(log):
                raise WargameError(f"{log}: seals are for text and JSON logs; convert a VASSAL log first")
            parts.append(read_log(log))
        combined = [e for entries, _ in parts for e in entries]
        game = game_of(parts[0][0], logs[0], data)
        result = _replay(game, combined, logs[0], parts[0][1])
        if result.stopped is not None:
            raise WargameError(f"the replay stops ({result.stopped}); a log that does not replay to its end is not "
                               "sealed")
        seals: list[Seal | None] = [read_seal(seal_path(log)) if seal_path(log).exists() else None for log in logs]
        if not verify and seals[-1] is not None:
            raise WargameError(f"{seal_path(logs[-1])} exists: a log is sealed once (check it with --verify)")
    problems: list[str] = []
    previous: str | None = None
    start = 0
    checked = logs if verify else logs[:-1]
    for k, (log, (entries, _)) in enumerate(zip(logs, parts)):
        positions = positions_of(result, start, len(entries))
        fresh = make_seal(log.name, entries, positions, previous)
        if k < len(checked) and (sealed := seals[k]) is not None:
            # After a broken exchange the later positions follow from the break: its finding stands for them.
            found = seal_findings(entries, None if problems else positions, sealed)
            if sealed.previous != previous:
                found.append(Finding("error", "seal", "previous", 1, 1, (
                    "the seal carries no previous exchange's hash, but follows " + logs[k - 1].name if
                    sealed.previous is None else "the seal carries a previous hash that is not the final hash of "
                    + (logs[k - 1].name if k else "any exchange given before it"))))
            problems += _finding_lines(found, log)
            previous = sealed.final
        else:
            previous = fresh.final
        start += len(entries)
    for line in problems:
        click.echo(line)
    if verify or problems:
        click.echo(f"{len(logs)} log(s), {sum(1 for s in seals if s is not None)} sealed: "
                   f"{len(problems)} problem(s)")
        sys.exit(1 if problems else 0)
    with _could_not_run():
        write_atomically(seal_path(logs[-1]), fresh.file_text())
    click.echo(str(seal_path(logs[-1])))


def _exit_for(result: Replay[Any]) -> NoReturn:
    """Exit 2 if the replay stopped, 1 if a rule was broken, 0 otherwise."""
    if result.stopped is not None:
        sys.exit(2)
    sys.exit(1 if any(f.severity == "error" for f in result.findings) else 0)


@main.command(short_help="Convert a log between the text notation, its JSON twin and VASSAL's .vlog/.vsav.")
@LOGS
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The converted log: .json for the JSON form, anything else for the text notation.")
@DATA
@GAME
@MODULE
@FORCE
def convert(logs: tuple[Path, ...], output: Path, data: Path | None, game_id: str | None,
            module: Path | None, force: bool) -> None:
    """Convert a log between the text notation and its JSON twin, or a VASSAL .vlog/.vsav into either;
    several logs of one game, in order, into one log."""
    from adjudicator.notation.entries import LogDocument
    from adjudicator.notation.text import parse_text, write_text_faithfully
    with _could_not_run():
        logs = expand_logs(logs)
    log = logs[0]
    with _could_not_run():
        if any(output.resolve() == given.resolve() for given in logs):
            raise WargameError("the output would overwrite the input; choose another name")
        if len(logs) > 1:
            from adjudicator.vassal.chain_report import chain_text
            text = chain_text(read_logs(logs, data, game_id, module))
            if output.suffix == ".json":
                # The JSON twin of the text log, so that its lines are the text's.
                text = LogDocument(entries=parse_text(text, str(output))).model_dump_json(indent=2) + "\n"
            write_atomically(output, text, force)
            click.echo(str(output))
            return
        if is_vassal_file(log):
            from adjudicator.vassal.load import translate_file
            from adjudicator.vassal.report import annotated, converted_text
            translation = translate_file(log, data, game_id, module)
            if output.suffix == ".json":
                write_atomically(output, LogDocument(entries=annotated(translation)).model_dump_json(indent=2) + "\n", force)
            else:
                write_atomically(output, converted_text(translation), force)
            click.echo(str(output))
            return
        entries, _ = read_log(log)
        if output.suffix == ".json":
            write_atomically(output, LogDocument(entries=entries).model_dump_json(indent=2) + "\n", force)
        else:
            write_atomically(output, write_text_faithfully(entries, str(log)), force)
    click.echo(str(output))


@main.command(short_help="Print the JSON Schema of the JSON form of logs.")
def schema() -> None:
    """Print the JSON Schema of the JSON form of logs."""
    from adjudicator.notation.entries import LogDocument
    click.echo(json.dumps(LogDocument.model_json_schema(), indent=2, sort_keys=True))


def _at(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str | None, int] | None:
    """`--at N`, or `--at LOG:N` in a chain of logs (LOG: the file as given, its name, or its place, 1...)."""
    if value is None:
        return None
    which, _, number = value.rpartition(":")
    if not (number.isascii() and number.isdigit() and len(number) <= 9):
        raise click.BadParameter(f"{value!r} is not a line or step number (or LOG:LINE for one of several logs, "
                                 "e.g. 2:12)", ctx, param)
    return which or None, int(number)


def _chain_line(chain: Chain, which: str | None, step: int) -> int:
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


def _warn_saved_position(path: Path, translation: Translation) -> None:
    """A saved position that is not the set-up: the position shown is the replay's, not the file's tracks."""
    if not translation.saved_differences:
        return
    markers = [d.removeprefix("marker ") for d in translation.saved_differences if d.startswith("marker ")]
    units = len(translation.saved_differences) - len(markers)
    click.echo(f"warning: {path}: the saved position is not scenario {translation.scenario}'s set-up; the position "
               "below is the replay of the steps from the set-up, not what the file shows"
               + (f" (tracks and markers in the file: {'; '.join(markers)})" if markers else "")
               + (f"; {units} unit(s) placed otherwise" if units else "")
               + ": give the game's earlier logs first", err=True)


@dataclasses.dataclass(frozen=True)
class Replayed:
    """One log or a game's logs in order, replayed with every state kept, and how its lines are counted."""

    result: Replay[Any]
    chain: Chain | None
    """The chain, for several logs (its `--at LOG:LINE` reads through it); None for one log."""
    lines: int
    """How many lines (a VASSAL file: steps) the one log has; 0 for a chain."""
    noun: str
    """What a line of the one log is called: `line`, or `step` for a VASSAL file."""


def replay_logs(logs: tuple[Path, ...], data: Path | None, game_id: str | None, module: Path | None) -> Replayed:
    """The replay of one log or a chain (a saved VASSAL position that is not the set-up warned of)."""
    logs = expand_logs(logs)
    if len(logs) > 1:
        from adjudicator.vassal.chain import replay_chain
        chain = read_logs(logs, data, game_id, module)
        return Replayed(replay_chain(chain), chain, 0, "line")
    if is_vassal_file(logs[0]):
        result, translation = adjudicate_vassal(logs[0], data, game_id, module)
        _warn_saved_position(logs[0], translation)
        return Replayed(result, None, len(_step_lines(translation)), "step")
    result, source = adjudicate_file(logs[0], data)
    return Replayed(result, None, len(source), "line")


def chosen_state(replayed: Replayed, logs: tuple[Path, ...], at_line: tuple[str | None, int] | None) -> tuple[Any, str]:
    """The state after `--at [LOG:]LINE` (the end without it) and how that moment is named for people (`line 12`,
    `step 12` of a VASSAL file, `LOG line 12` of a chain, `the end`); WargameError for a log the replay does
    not have or a line past its end."""
    result = replayed.result
    if at_line is None:
        return result.final_state, "the end"
    chain = replayed.chain
    if chain is not None:
        line = _chain_line(chain, *at_line)
        local = at_line[1]
        part = next(p for p in chain.parts if p.base == line - local)
        if local > len(part.source):
            raise _out_of_range(local, len(part.source), part.path.name)
        return result.state_at(line), f"{part.path.name} line {local}"
    log = expand_logs(logs)[0]
    if at_line[0] is not None and at_line[0] not in (log.name, str(log), "1"):
        raise WargameError(f"--at {at_line[0]}:{at_line[1]}: no log {at_line[0]!r} here"
                           f"{did_you_mean(at_line[0], [log.name])}")
    if at_line[1] > replayed.lines:
        raise _out_of_range(at_line[1], replayed.lines, log.name, replayed.noun)
    return result.state_at(at_line[1]), f"{replayed.noun} {at_line[1]}"


def _out_of_range(at: int, last: int, what: str, noun: str = "line") -> WargameError:
    return WargameError(f"--at {at}: {what} has {last} {noun}(s); give a {noun} from 0 (the set-up) to {last}")


def position_at(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, data: Path | None,
                game_id: str | None, module: Path | None) -> tuple[Replay[Any], Any]:
    """The replay of one log or a chain, and its state at `--at` (the end without it); WargameError for a log
    the replay does not have or a line past its end."""
    replayed = replay_logs(logs, data, game_id, module)
    return replayed.result, chosen_state(replayed, logs, at_line)[0]


@main.command(short_help="The position at any point of a log, or of a game's logs in order.")
@LOGS
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=_at, default=None,
              help="The position after the last entry on or before this line or VASSAL step (default: the end); "
                   "with several logs, LOG:LINE.")
@click.option("--json", "as_json", is_flag=True, help="The position as JSON (the rule system's own terms).")
@DATA
@GAME
@MODULE
def state(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, as_json: bool, data: Path | None,
          game_id: str | None, module: Path | None) -> None:
    """The position at any point of a log, or of several logs of one game in order."""
    with _could_not_run():
        result, chosen = position_at(logs, at_line, data, game_id, module)
    if result.stopped is not None:
        click.echo(f"the replay stopped: {result.stopped}; the position is the last one reached", err=True)
    if as_json:
        doc = result.system.describe(chosen)
        click.echo(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False))
        return
    position = result.system.position(chosen)
    line = f"Turn {position.turn}, {position.step_noun} {position.step or '-'}"
    if position.at.player_turn:
        line += f" ({position.at.player_turn} player turn)"
    for kind, values in sorted(position.tracks.items()):
        line += f"; {kind} " + ", ".join(f"{side} {points}" for side, points in sorted(values.items()))
    click.echo(line)
    for place, units in sorted(position.places().items()):
        click.echo(f"  {place}: {' '.join(units)}")
    if position.reduced():
        click.echo("depleted: " + " ".join(position.reduced()))


@main.command(short_help="Write a log as a VASSAL log (.vlog) to watch, or a position as a saved game (.vsav).")
@LOG
@click.option("--module", "module", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="The .vmod to watch the game with (required): its pieces, grid and zones are used.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="GAME.vlog: a VASSAL log replaying the log step by step; POS.vsav: a saved game of a position.")
@click.option("--at", "at_line", metavar="LINE", callback=_at, default=None,
              help="For a .vsav: the position after the last entry on or before this line (default: the end).")
@DATA
@FORCE
def export(log: Path, module: Path | None, output: Path, at_line: tuple[str | None, int] | None,
           data: Path | None, force: bool) -> None:
    """Write a text or JSON log as a VASSAL log (.vlog) to watch step by step in VASSAL, with each entry
    and the adjudicator's findings in the chat, or a position as a saved game (.vsav, --at LINE)."""
    from adjudicator.vassal.export import Exporter
    from wargame.vassal.buildfile import open_module
    from wargame.vassal.definitions import read_catalogue

    with _could_not_run():
        if module is None:
            raise WargameError("export needs the module the game is to be watched with: --module GAME.vmod "
                               "(e.g. --module dist/onslaught.vmod, made by `vmodbuild build onslaught`)")
        if any(output.resolve() == given.resolve() for given in (log, module)):
            raise WargameError("the output would overwrite an input; choose another name")
        suffix = output.suffix.lower()
        if suffix not in (".vlog", ".vsav"):
            given = suffix or "a name without a suffix"
            raise WargameError(f"{output}: the output is a VASSAL log (.vlog) or saved game (.vsav), not {given}")
        if at_line is not None and (suffix != ".vsav" or at_line[0] is not None):
            raise WargameError("--at LINE gives the position of one line: write it as a saved game (-o POS.vsav)"
                               if suffix != ".vsav" else f"--at {at_line[0]}:{at_line[1]}: export takes one log; "
                               f"give --at {at_line[1]}")
        if is_vassal_file(log):
            raise WargameError(f"{log} is a VASSAL file already: export writes a text or JSON log as one (to go the "
                               "other way, `adjudicate convert`)")
        entries, source = read_log(log)
        game = game_of(entries, log, data)
        result = _replay(game, entries, log, source)
        if result.stopped is not None:
            raise WargameError(f"{log}: the replay stops ({result.stopped}); a log that does not replay to its end "
                               "is not exported")
        exporter = Exporter(result, read_catalogue(open_module(module)), log.name,
                            source if log.suffix != ".json" else None)
        write_atomically(output, exporter.vlog() if suffix == ".vlog" else exporter.vsav(
            None if at_line is None else at_line[1]), force)
    click.echo(str(output))


def _refuse_odd_sides(game: Game, attackers: list[str], defenders: list[str]) -> None:
    """A combat's units: each known and given once."""
    for unit in (*attackers, *defenders):
        if unit not in game.units_by_id:
            raise WargameError(f"unknown unit {unit!r}{did_you_mean(unit, game.units_by_id)}")
    # A unit on both sides is the dispute's own refusal (impossible_what_if), with its reason.
    twice = sorted({u for units in (attackers, defenders) for u in units if units.count(u) > 1})
    if twice:
        raise WargameError(f"{', '.join(twice)} given more than once: a unit attacks or defends, once")
    # The sides of the units are the dispute's own check (adjudicator.dispute.impossible_what_if).


def _off_the_map(result: Replay[Any], index: int) -> str | None:
    """`LINE: why` when a unit the combat at `index` names is not on the map then (not arrived, in a box):
    the log's breach for `check` (a finding), but a combat with no place to compute."""
    entry = result.entries[index]
    game = result.game
    places = {u: at.place for u, at in result.system.position(result.states[index]).units.items()}
    for unit in (*getattr(entry, "attackers", ()), *getattr(entry, "support", ())):
        if unit in game.units_by_id and not game.grid.is_label(places.get(unit, "")):
            where = places.get(unit)
            return (f"{entry.line}: {unit} is not on the map {'(in ' + where + ')' if where else ''} at the combat: "
                    "it cannot be audited (`check` gives the breach)").replace("map  at", "map at")
    return None


def _stopped_before(result: Replay[Any]) -> str | None:
    """`the replay stops: FILE:LINE:COL: why`, or None when the replay reached the end."""
    return None if result.stopped is None else f"the replay stops: {result.stopped}"


@main.command(short_help="Audit disputed combats: the claims against the computation, odds, results, retreats.")
@click.argument("logs", metavar="[LOG...]", nargs=-1, type=click.Path(path_type=Path, exists=True, allow_dash=True),
                callback=_logs_with_stdin)
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=_at, default=None,
              help="The line of the attack or bombardment (with several logs or a game's folder, LOG:LINE); "
                   "default: a list of every one and whether its claims hold.")
@click.option("--game", "game_id", default=None, help="Without a log: the game.")
@click.option("--attack", "attack_units", multiple=True, help="Without a log: an attacker, UNIT@HEX (repeat).")
@click.option("--defend", "defend_units", multiple=True, help="Without a log: a defender, UNIT@HEX (repeat).")
@click.option("--die", type=click.IntRange(1, 6), default=None,
              help="The die roll; with a log and --at, what the result would have been with this die.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: for a person; json: for tools; markdown: a forum post.")
@DATA
def combat(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, game_id: str | None,
           attack_units: tuple[str, ...], defend_units: tuple[str, ...], die: int | None, fmt: str,
           data: Path | None) -> None:
    """Audit a disputed combat: odds or differential with the arithmetic, every modifier and why, the table's
    column as printed and the result; the log's claims against it; the chance of each result; the retreat
    and advance it opens. Without --at, every combat and bombardment of the log (or of a game's exchanges),
    each with whether its claims hold. Exit 0 the claims hold, 1 they do not, 2 could not run (an impossible
    what-if included)."""
    from adjudicator.dispute import Audited, claim_differences, impossible_what_if, no_combat, rendered
    from adjudicator.systems import system_for
    from wargame.game import load_game
    from adjudicator.notation.entries import Attack, Bombard

    with _could_not_run():
        if logs:
            if attack_units or defend_units or game_id is not None:
                raise WargameError("with a log, the combat is the log's (--at LINE); --game, --attack and --defend "
                                   "set up a combat without a log")
            if die is not None and at_line is None:
                raise WargameError("--die asks what a combat's result would have been with another die: name the "
                                   "combat with --at LINE")
            logs = expand_logs(logs)
            chain = read_logs(logs, data, None, None) if len(logs) > 1 else None
            if chain is not None:
                from adjudicator.vassal.chain import replay_chain
                result = replay_chain(chain)
                wanted = None if at_line is None else _chain_line(chain, *at_line)

                def where(line: int) -> tuple[str, int]:
                    part, local = chain.locate(line)
                    return part.name, local

                def cited(f: Finding) -> Finding:
                    return dataclasses.replace(f, line=chain.locate(f.line)[1], message=chain.cited(f.message))
            else:
                if at_line is not None and at_line[0] is not None:
                    raise WargameError(f"--at {at_line[0]}:{at_line[1]}: one log is given; give --at {at_line[1]}")
                result, _ = adjudicate_file(logs[0], data)
                wanted = None if at_line is None else at_line[1]

                def where(line: int) -> tuple[str, int]:
                    return str(logs[0]), line

                def cited(f: Finding) -> Finding:
                    return f
            auditor = result.system.auditor
            if auditor is None:
                raise WargameError(f"combat audits are not available for the {result.system.name} rule system yet")
            every = [i for i, e in enumerate(result.entries) if isinstance(e, (Attack, Bombard))]
            # The entry the replay stopped at (an unknown unit, a hex off the map) and those after it have no
            # position to audit them in: `check` says why the replay stopped, exit 2, and so does this.
            combats = [i for i in every if i < min(result.applied, len(result.states))]
            stop = _stopped_before(result)
            if wanted is not None:
                chosen_ones = [i for i in combats if result.entries[i].line == wanted]
                if not chosen_ones and stop and any(result.entries[i].line == wanted for i in every):
                    raise WargameError(f"{stop}: the combat on line {where(wanted)[1]} cannot be audited")
                if not chosen_ones:
                    file, local = where(wanted)
                    raise no_combat(local, file, [where(result.entries[i].line)[1] for i in combats
                                                  if where(result.entries[i].line)[0] == file])
                combats = chosen_ones[:1]
            if not combats:
                raise WargameError(f"{stop}: no combat before it to audit" if stop and every
                                   else f"no attack or bombardment in {' '.join(map(str, logs))}")
            audits = []
            off_map = [(i, why) for i in combats if (why := _off_the_map(result, i)) is not None]
            if off_map and wanted is not None:
                raise WargameError(f"{where(result.entries[off_map[0][0]].line)[0]}:{off_map[0][1]}")
            for i, why in off_map:
                click.echo(f"{where(result.entries[i].line)[0]}:{why}", err=True)
            combats = [i for i in combats if i not in dict(off_map)]
            if off_map and not combats:
                sys.exit(2)
            for i in combats:
                entry = result.entries[i]
                assert isinstance(entry, (Attack, Bombard))
                state = result.states[i]
                account = auditor.account(state, entry)
                findings = tuple(cited(f) for f in result.findings if f.line == entry.line and f.system != "ledger")
                file, local = where(entry.line)
                if die is not None:
                    asked = auditor.account(state, entry.model_copy(update={"die": die}))
                    audits.append(Audited(file, local, entry, asked, (), findings, die, account.result))
                else:
                    audits.append(Audited(file, local, entry, account, tuple(claim_differences(entry, account)),
                                          findings))
            name = " ".join(map(str, logs))
            unaudited = (f"{stop}: the combats from there on are not audited"
                         if stop and len(combats) + len(off_map) < len(every) else None)
            if off_map and unaudited is None:
                unaudited = f"{len(off_map)} combat(s) with a unit off the map are not audited"
        else:
            unaudited = None
            if game_id is None or not attack_units or not defend_units:
                raise WargameError("without a log, give --game, --attack UNIT@HEX and --defend UNIT@HEX")
            game = load_game(data_root(data), game_id)
            system = system_for(game)
            _refuse_odd_sides(game, [a.partition("@")[0] for a in attack_units],
                              [d.partition("@")[0] for d in defend_units])
            if system.auditor is None:
                raise WargameError(f"combat audits are not available for the {system.name} rule system yet")

            def placed_of(specs: tuple[str, ...]) -> dict[str, str]:
                out: dict[str, str] = {}
                for spec in specs:
                    unit, _, hex_label = spec.partition("@")
                    if unit not in game.units_by_id:
                        raise WargameError(f"unknown unit {unit!r}{did_you_mean(unit, game.units_by_id)}")
                    if not hex_label:
                        raise WargameError(f"{spec}: give the unit's hex, UNIT@HEX")
                    game.grid.hex_of(hex_label)
                    out[unit] = hex_label
                return out

            attackers, defenders = placed_of(attack_units), placed_of(defend_units)
            why = impossible_what_if(game, attackers, defenders)
            if why is not None:
                raise WargameError(f"this combat cannot happen: {why}")
            state = system.auditor.with_units(system.initial_state(game, []), {**attackers, **defenders})
            target = next(iter(defenders.values()))
            side = game.units_by_id[next(iter(attackers))].side
            attack = Attack(hex=target, attackers=list(attackers), die=die, side=side)
            audits = [Audited("what-if", 0, attack, system.auditor.account(state, attack), (), ())]
            name = "what-if"
        text = rendered(audits, name, at_line is not None or not logs, fmt)
    click.echo(text, nl=False)
    if unaudited is not None:
        click.echo(unaudited, err=True)
        sys.exit(2)
    sys.exit(0 if all(a.holds or a.what_if is not None for a in audits) else 1)  # a what-if is a question
