"""The commands on a log's form and positions: `convert`, `schema`, `state` and `export`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicator.exits import could_not_run
from adjudicator.options import DATA, FORCE, GAME, LOG, LOGS, MODULE, GivenPath, parse_at

# What a command runs is imported inside it: a command's --help imports only the options
# (tests/test_cli_startup.py).
if TYPE_CHECKING:
    from adjudicator.engine import Replay


VASSAL_SUFFIXES = (".vlog", ".vsav", ".vmod")
"""Names VASSAL opens as its own zip archives, which convert does not write."""


@click.command(short_help="Convert a log between the text notation, its JSON twin and VASSAL's .vlog/.vsav.")
@LOGS
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The converted log: .json for the JSON form, anything else but .vlog, .vsav and .vmod (see export) "
                   "for the text notation.")
@DATA
@GAME
@MODULE
@FORCE
def convert(logs: tuple[Path, ...], output: Path, data: Path | None, game_id: str | None,
            module: Path | None, force: bool) -> None:
    """Convert a log between the text notation and its JSON twin, or a VASSAL .vlog/.vsav into either;
    several logs of one game, in order, into one log."""
    from adjudicator.notation.jsonlog import write_json_log
    from adjudicator.notation.text import parse_text, write_text_faithfully
    from adjudicator.sources import expand_logs, open_logs
    from wargame.errors import WargameError
    from wargame.files import check_output, write_atomically
    with could_not_run():
        logs = expand_logs(logs)
    with could_not_run():
        check_output(output, (*logs, *([module] if module else [])))
        if output.suffix.lower() in VASSAL_SUFFIXES and not force:
            # A name VASSAL would open, given text: VASSAL could not read it, nor could `check` (a zip expected).
            raise WargameError(f"{output}: convert writes the text notation or its JSON twin (.json), not a VASSAL "
                               f"{output.suffix.lower()}; a VASSAL log or saved game is written by `adjudicate export "
                               f"LOG --module GAME.vmod -o {output.name}` (--force writes text under this name)")
        source = open_logs(logs, data, game_id, module, strict=True, gameless=True)
        if source.chain is not None:
            from adjudicator.vassal.report import chain_text
            source.check_joins()
            text = chain_text(source.chain)
            if output.suffix == ".json":
                # The JSON twin of the text log, so that its lines are the text's.
                text = write_json_log(parse_text(text, str(output)))
        elif source.translation is not None:
            from adjudicator.vassal.report import annotated, converted_text
            text = (write_json_log(annotated(source.translation)) if output.suffix == ".json"
                    else converted_text(source.translation))
        elif not source.entries:
            # An empty file converted to an empty log is almost surely the wrong file given: said, not written.
            raise WargameError(f"{source.path}: the log holds no entry (not even a header or a comment): nothing "
                               "to convert")
        elif output.suffix == ".json":
            text = write_json_log(source.entries)
        else:
            text = write_text_faithfully(source.entries, str(source.path))
        write_atomically(output, text, force)
    click.echo(str(output))


@click.command(short_help="Print the JSON Schema of the JSON form of logs.")
def schema() -> None:
    """Print the JSON Schema of the JSON form of logs."""
    import json

    from adjudicator.notation.jsonlog import log_schema
    click.echo(json.dumps(log_schema(), indent=2, sort_keys=True))


def position_at(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, data: Path | None,
                game_id: str | None, module: Path | None) -> tuple[Replay[object], object]:
    """The replay of one log or a chain, and its state at `--at` (the end without it); WargameError for a log
    the replay does not have or a line past its end (a saved VASSAL position that is not the set-up warned of)."""
    from adjudicator.sources import replay_logs
    replayed = replay_logs(logs, data, game_id, module, warn=warn)
    return replayed.result, replayed.state_at(at_line)[0]


def warn(message: str) -> None:
    """A warning on standard error."""
    click.echo(message, err=True)


@click.command(short_help="The position at any point of a log, or of a game's logs in order.")
@LOGS
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=parse_at, default=None,
              help="The position after the last entry on or before this line or VASSAL step (default: the end); "
                   "with several logs, LOG:LINE.")
@click.option("--json", "as_json", is_flag=True, help="The position as JSON (the rule system's own terms).")
@DATA
@GAME
@MODULE
def state(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, as_json: bool, data: Path | None,
          game_id: str | None, module: Path | None) -> None:
    """The position at any point of a log, or of several logs of one game in order."""
    with could_not_run():
        result, chosen = position_at(logs, at_line, data, game_id, module)
    if result.stopped is not None:
        click.echo(f"the replay stopped: {result.stopped}; the position is the last one reached", err=True)
    if as_json:
        import json

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


@click.command(short_help="Write a log as a VASSAL log (.vlog) to watch, or a position as a saved game (.vsav).")
@LOG
@click.option("--module", "module", type=GivenPath(path_type=Path, dir_okay=False, exists=True), default=None,
              help="The .vmod to watch the game with (required): its pieces, grid and zones are used.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="GAME.vlog: a VASSAL log replaying the log step by step; POS.vsav: a saved game of a position.")
@click.option("--at", "at_line", metavar="LINE", callback=parse_at, default=None,
              help="For a .vsav: the position after the last entry on or before this line (default: the end).")
@DATA
@FORCE
def export(log: Path, module: Path | None, output: Path, at_line: tuple[str | None, int] | None,
           data: Path | None, force: bool) -> None:
    """Write a text or JSON log as a VASSAL log (.vlog) to watch step by step in VASSAL, with each entry
    and the adjudicator's findings in the chat, or a position as a saved game (.vsav, --at LINE)."""
    from adjudicator.sources import open_logs
    from adjudicator.vassal.detect import is_vassal_file
    from adjudicator.vassal.export import Exporter
    from wargame.errors import WargameError
    from wargame.files import check_output, write_atomically
    from wargame.vassal.buildfile import open_module
    from wargame.vassal.definitions import read_catalogue

    with could_not_run():
        if module is None:
            raise WargameError("export needs the module the game is to be watched with: --module GAME.vmod "
                               "(e.g. --module dist/onslaught.vmod, made by `vmodbuild build onslaught`)")
        check_output(output, (log, module))
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
        source = open_logs((log,), data, strict=True)
        result = source.replay()
        if result.stopped is not None:
            raise WargameError(f"{log}: the replay stops ({result.stopped}); a log that does not replay to its end "
                               "is not exported")
        exporter = Exporter(result, read_catalogue(open_module(module)), log.name,
                            source.lines if log.suffix != ".json" else None)
        write_atomically(output, exporter.vlog() if suffix == ".vlog" else exporter.vsav(
            None if at_line is None else at_line[1]), force)
    click.echo(str(output))

