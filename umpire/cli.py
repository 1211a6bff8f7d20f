"""`adjudicate`: the referee's commands (adjudicator.cli) and those that draw what it judged."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.cli import (
    DATA, GAME, LOGS, MODULE, _at, _could_not_run, _exit_for, _step_lines, adjudicate_file, adjudicate_vassal,
    main as adjudicate, position_at, read_logs,
)
from adjudicator.vassal.chain import replay_chain
from adjudicator.vassal.load import is_vassal_file
from umpire.judged import Judged, quoting
from wargame.files import write_atomically
from wargame.scene import Crop, parse_hex_list

_check = adjudicate.commands["check"]


def judge(logs: tuple[Path, ...], data: Path | None, game_id: str | None, module: Path | None) -> Judged:
    """The replay of one log or of a game's logs in order, with how to quote their lines."""
    if len(logs) > 1:
        chain = read_logs(logs, data, game_id, module)

        def chain_line(n: int) -> str | None:
            part, local = chain.locate(n)
            return part.source[local - 1] if 0 < local <= len(part.source) else None
        return Judged(replay_chain(chain), chain_line, chain.cite, ", ".join(p.name for p in logs))
    log = logs[0]
    if is_vassal_file(log):
        result, translation = adjudicate_vassal(log, data, game_id, module)
        return Judged(result, quoting(_step_lines(translation)), lambda n: f"{log.name} step {n}", log.name)
    result, source = adjudicate_file(log, data)
    return Judged(result, quoting(source), lambda n: f"{log.name} line {n}", log.name)


@adjudicate.command("check")
@LOGS
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown", "html"]), default="text",
              show_default=True,
              help="text: gcc-style lines; json: for tools; markdown: a forum post; html: a page with a picture "
                   "of each finding (needs -o).")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="With --format html: the page to write (images embedded).")
@click.option("--images", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="With --format markdown: write a picture of each finding into this folder and link it.")
@DATA
@GAME
@MODULE
@click.pass_context
def check(ctx: click.Context, logs: tuple[Path, ...], fmt: str, output: Path | None, images: Path | None,
          data: Path | None, game_id: str | None, module: Path | None) -> None:
    """Replay a log (text, JSON, or a VASSAL .vlog/.vsav) and report every rule breach; several logs of
    one game in order are checked as one game. Exit 0 clean, 1 breaches, 2 could not run."""
    if fmt == "html" and output is None:
        raise click.UsageError("--format html writes a page: give its file with -o REPORT.html")
    if output is not None and fmt != "html":
        raise click.UsageError("-o is for --format html (other formats print on standard output)")
    if images is not None and fmt != "markdown":
        raise click.UsageError("--images is for --format markdown")
    if fmt not in ("html",) and images is None:
        ctx.invoke(_check, logs=logs, fmt=fmt, data=data, game_id=game_id, module=module)
        return
    # The drawing code (Pillow, shapely, the board's art) is imported only when a picture is drawn, so
    # `adjudicate check` starts as fast as the referee alone.
    from builder.picture import cache_dir
    from umpire.report import html_report, markdown_with_images
    with _could_not_run():
        judged = judge(logs, data, game_id, module)
        if output is not None:
            write_atomically(output, html_report(judged, cache=cache_dir()))
            click.echo(f"wrote {output}")
        elif images is not None:
            click.echo(markdown_with_images(judged, images, cache=cache_dir()), nl=False)
    _exit_for(judged.result)


@adjudicate.command()
@LOGS
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=_at, default=None,
              help="The position after the last entry on or before this line or VASSAL step (default: the end); "
                   "with several logs, LOG:STEP.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The PNG to write.")
@click.option("--hexes", default=None, metavar="HEX,HEX...",
              help="Crop to these hexes (and one hex around them).")
@click.option("--around", default=None, metavar="HEX", help="Crop to the hexes within --radius of this hex.")
@click.option("--radius", type=click.IntRange(0, 30), default=3, show_default=True,
              help="With --around: how many hexes around it.")
@click.option("--scale", type=click.FloatRange(0.25, 2.0), default=1.0, show_default=True,
              help="The board's scale (1: the module's own pixels).")
@DATA
@GAME
@MODULE
def picture(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, output: Path, hexes: str | None,
            around: str | None, radius: int, scale: float, data: Path | None, game_id: str | None,
            module: Path | None) -> None:
    """Draw the position at any point of a log as a PNG: the module's board and counters."""
    from builder.picture import cache_dir, draw_scene, write_picture
    from umpire.scenes import scene_of
    with _could_not_run():
        result, chosen = position_at(logs, at_line, data, game_id, module)
        doc = result.system.describe(chosen)
        crop = None
        if hexes is not None or around is not None:
            crop = Crop(hexes=parse_hex_list(hexes) if hexes else (), around=around, radius=radius)
        when = f"line {at_line[1]}" if at_line else "the end"
        caption = f"{result.game.manifest.title}: the position at {when} of {', '.join(p.name for p in logs)}"
        scene = scene_of(doc["positions"], doc["depleted"], caption=caption)
        write_picture(draw_scene(result.game, scene, crop, scale, cache_dir()), output)
    click.echo(f"wrote {output}")


main = adjudicate
"""The `adjudicate` console script: the referee's group with the commands above added."""


__all__ = ["judge", "main"]
