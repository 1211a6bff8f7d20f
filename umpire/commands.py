"""The `adjudicate` commands that draw what the referee judged (picture, reach, retreats) and its check with
pictures; umpire.cli's group imports this module when one of them is run or asked for its --help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from adjudicator.check_commands import check as referee_check
from adjudicator.exits import could_not_run, exit_for
from adjudicator.options import DATA, FORCE, GAME, LOGS, MODULE, parse_at

# What a command runs is imported inside it: a command's --help imports only the options (start-up:
# bench/README.md, tests/test_cli_startup.py).

MOVE_KINDS = ("move", "strategic")
"""adjudicator.contract.MOVE_KINDS, written here so that the options need not load the contract (and with it
the games' models); tests/test_cli_startup.py holds the two equal."""


_PICTURE_FORMATS = ("html",)
_OWN = {"output", "images", "force"}


def _check_params() -> list[click.Parameter]:
    """The referee's `check` options, its --format offering html too, and ours (-o, --images)."""
    params: list[click.Parameter] = []
    for param in referee_check.params:
        if param.name == "fmt" and isinstance(param, click.Option) and isinstance(param.type, click.Choice):
            params.append(click.Option(
                ["--format", "fmt"], type=click.Choice([*param.type.choices, *_PICTURE_FORMATS]),
                default=param.default, show_default=True,
                help="text: gcc-style lines; json: for tools; markdown: a forum post (with --images, its pictures); "
                     "html: one page with a picture of each finding (needs -o)."))
        else:
            params.append(param)
    params.append(click.Option(["-o", "--output"], type=click.Path(path_type=Path, dir_okay=False), default=None,
                               help="With --format html: the page to write (pictures embedded)."))
    params.append(click.Option(["--images"], type=click.Path(path_type=Path, file_okay=False), default=None,
                               help="With --format markdown: write a picture of each finding into this folder and "
                                    "link it."))
    params.append(click.Option(["--force"], is_flag=True, default=False,
                               help="With -o: write over an existing file of another kind."))
    return params


def _check_output(output: Path | None, logs: tuple[Path, ...], *others: Path | str | None) -> None:
    """An output that would overwrite one of the command's files (its logs, --module, a --ledger file, not a
    URL), or that cannot be written where it is named, refused before any work (wargame.files.check_output)."""
    if output is None:
        return
    from adjudicator.sources import expand_logs
    from wargame.files import check_output
    files = [Path(other) for other in others if other is not None and "://" not in str(other)]
    check_output(output, (*expand_logs(logs), *files))


@click.pass_context
def _check_with_pictures(ctx: click.Context, /, **options: Any) -> None:
    """The referee's check; with --format html or --images, the verdict with a picture of each finding."""
    fmt: str = options["fmt"]
    output: Path | None = options["output"]
    images: Path | None = options["images"]
    if fmt == "html" and output is None:
        raise click.UsageError("--format html writes a page: give its file with -o REPORT.html")
    if output is not None and fmt != "html":
        raise click.UsageError("-o is for --format html (other formats print on standard output)")
    if images is not None and fmt != "markdown":
        raise click.UsageError("--images is for --format markdown")
    referee = {k: v for k, v in options.items() if k not in _OWN}
    if output is None and images is None:
        ctx.invoke(referee_check, **referee)
        return
    unsupported = sorted(k for k, v in referee.items()
                         if k not in ("logs", "fmt", "data", "game_id", "module", "ledger_source", "ledger_key")
                         and v != ctx.command.params[[p.name for p in ctx.command.params].index(k)].default)
    if unsupported:
        raise click.UsageError(f"option(s) {', '.join(unsupported)} not available with pictures")
    # The drawing code (Pillow, shapely, the board's art) is imported only when a picture is drawn, so
    # `adjudicate check` starts as fast as the referee alone.
    from builder.picture import cache_dir
    from umpire.cli import judge
    from umpire.report import html_report, markdown_with_images
    from wargame.collector import out_of_sight
    from wargame.files import write_atomically
    with could_not_run():
        _check_output(output, referee["logs"], referee["module"], referee.get("ledger_source"))
        judged = judge(referee["logs"], referee["data"], referee["game_id"], referee["module"],
                       referee.get("ledger_source"), referee.get("ledger_key"))
        with out_of_sight():  # the game and the replay, kept for the whole verdict
            if output is not None:
                write_atomically(output, html_report(judged, cache=cache_dir()), options["force"])
                click.echo(f"wrote {output}")
            elif images is not None:
                click.echo(markdown_with_images(judged, images, cache=cache_dir()), nl=False)
    exit_for(judged.result)


check = click.Command("check", params=_check_params(), callback=_check_with_pictures, help=referee_check.help,
                      short_help=referee_check.short_help)
"""The referee's check, with pictures."""


@click.command(short_help="Draw the position at any point of a log as a PNG, with the module's art.")
@LOGS
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=parse_at, default=None,
              help="The position after the last entry on or before this line or VASSAL step (default: the end); "
                   "with several logs, LOG:LINE.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The PNG to write.")
@click.option("--hexes", default=None, metavar="HEX,HEX...",
              help="Crop to these hexes (and one hex around them).")
@click.option("--around", default=None, metavar="HEX",
              help="Crop to the hexes within --radius of this hex, which is ringed.")
@click.option("--radius", type=click.IntRange(0, 30), default=3, show_default=True,
              help="With --around: how many hexes around it.")
@click.option("--scale", type=click.FloatRange(0.25, 2.0), default=None,
              help="The board's scale (1: the module's own pixels; default: the scale at which the hex numbers "
                   "read at 100%, about 10 px high).")
@click.option("--boxes/--no-boxes", default=None,
              help="Draw the holding board (boxes, tracks) below the map: by default with the whole map, "
                   "not with a crop.")
@click.option("--legend", is_flag=True, help="Say below the picture what each colour of mark means.")
@DATA
@GAME
@MODULE
@FORCE
def picture(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, output: Path, hexes: str | None,
            around: str | None, radius: int, scale: float | None, boxes: bool | None, legend: bool, data: Path | None,
            game_id: str | None, module: Path | None, force: bool) -> None:
    """Draw the position at any point of a log as a PNG: the module's board and counters."""
    from adjudicator.log_commands import position_at
    from builder.picture import cache_dir, draw_scene, reading_scale, write_picture
    from umpire.scenes import legend as legend_of, marker_pieces, scene_of
    from wargame.scene import Crop, Mark, parse_hex_list
    with could_not_run():
        _check_output(output, logs, module)
        result, chosen = position_at(logs, at_line, data, game_id, module)
        crop = None
        marks: list[Mark] = []
        if hexes is not None or around is not None:
            # --around shows the radius asked (no extra hex of margin), its centre ringed; --hexes one hex more.
            crop = Crop(hexes=parse_hex_list(hexes) if hexes else (), around=around, radius=radius,
                        margin=0 if around is not None and hexes is None else 1)
            if around is not None:
                result.game.grid.hex_of(around)  # a label not on the map: its error, with a suggestion
                marks.append(Mark("ring", (around,), "info"))
        when = f"line {at_line[1]}" if at_line else "the end"
        caption = f"{result.game.manifest.title}: the position at {when} of {', '.join(p.name for p in logs)}"
        if legend:
            caption += "".join(f"\n{text}" for _, text in legend_of(marks)) or "\n(nothing marked)"
        scene = scene_of(result.system.position(chosen), marks, caption=caption, markers=marker_pieces(result.game))
        with_boxes = crop is None if boxes is None else boxes
        scale = reading_scale(result.game) if scale is None else scale
        write_picture(draw_scene(result.game, scene, crop, scale, cache_dir(), with_boxes), output, force)
    click.echo(f"wrote {output}")


_AT_HELP = ("The position after the last entry on or before this line or VASSAL step (default: the end; 0: the "
            "set-up); with several logs, LOG:LINE.")


def _warn_stopped(result: Any) -> None:
    """A replay that stopped before the line asked for: the position is the last one reached (as `state` says)."""
    if result.stopped is not None:
        click.echo(f"the replay stopped: {result.stopped}; the position is the last one reached", err=True)


def _write_marked(moment: Any, marks: list[Any], hexes: list[str], caption: str, output: Path, force: bool) -> None:
    """The position with the marks, cropped to the hexes marked (and one hex around), as a PNG."""
    from builder.picture import cache_dir, draw_scene, reading_scale, write_picture
    from umpire.scenes import scene_of
    from wargame.scene import Crop
    scene = scene_of(moment.result.system.position(moment.state), marks, caption)
    crop = Crop(hexes=tuple(sorted(set(hexes))))
    game = moment.result.game
    write_picture(draw_scene(game, scene, crop, reading_scale(game), cache_dir()), output, force)


@click.command(short_help="The hexes a unit may still reach at any point of a log, with their cost.")
@LOGS
@click.argument("unit")
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=parse_at, default=None, help=_AT_HELP)
@click.option("--kind", type=click.Choice(MOVE_KINDS), default="move", show_default=True,
              help="move: normal movement; strategic: Onslaught's strategic movement (6.4).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a hex and its cost a line, cheapest first; json: for tools.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also draw the hexes in reach, shaded with their cost, as a PNG.")
@DATA
@GAME
@MODULE
@FORCE
def reach(logs: tuple[Path, ...], unit: str, at_line: tuple[str | None, int] | None, kind: str, fmt: str,
          output: Path | None, data: Path | None, game_id: str | None, module: Path | None, force: bool) -> None:
    """The hexes UNIT may still reach after a line of the log, with what reaching each costs, by every
    movement rule the referee checks (zones of control, terrain, waterways, supply, what it did already);
    or why it may not move now."""
    import json

    from umpire.movement import moment_at, reach_json, reach_marks, reach_text, unit_place
    from wargame.errors import WargameError
    with could_not_run():
        _check_output(output, logs, module)
        moment = moment_at(logs, at_line, data, game_id, module)
        _warn_stopped(moment.result)
        found = moment.model.reach(moment.state, unit, kind)
        where = unit_place(moment, unit)
        if output is not None:
            if not moment.result.game.grid.is_label(where):
                raise WargameError(f"{unit} is not on the map ({where}): there is nothing to draw")
            caption = (f"{moment.result.game.manifest.title}: where {unit} may move after {moment.when}"
                       + (" (strategic movement)" if kind == "strategic" else ""))
            _write_marked(moment, reach_marks(found, where), [where, *found.hexes], caption, output, force)
    if fmt == "json":
        click.echo(json.dumps(reach_json(moment, unit, kind, found), indent=2, sort_keys=True))
    else:
        click.echo(reach_text(moment, unit, kind, found), nl=False)
    if output is not None:
        click.echo(f"wrote {output}", err=True)


@click.command(short_help="The legal retreats of the combat result pending at any point of a log.")
@LOGS
@click.option("--at", "at_line", metavar="[LOG:]LINE", callback=parse_at, default=None, help=_AT_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: each unit, the hexes due and each path; json: for tools.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also draw every legal retreat path as a PNG.")
@DATA
@GAME
@MODULE
@FORCE
def retreats(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, fmt: str, output: Path | None,
             data: Path | None, game_id: str | None, module: Path | None, force: bool) -> None:
    """The retreats the combat result pending after a line of the log still owes: each unit, the hexes due
    and every legal path, by the rule system's retreat rules."""
    import json

    from umpire.movement import moment_at, retreat_marks, retreats_json, retreats_text
    from wargame.errors import WargameError
    with could_not_run():
        _check_output(output, logs, module)
        moment = moment_at(logs, at_line, data, game_id, module)
        _warn_stopped(moment.result)
        options = moment.model.retreat_options(moment.state)
        if output is not None:
            marks = retreat_marks(moment, options)
            hexes = [label for mark in marks for label in mark.hexes]
            if not hexes:
                raise WargameError(f"no combat result pending after {moment.when} calls for a retreat: there is "
                                   "nothing to draw")
            caption = f"{moment.result.game.manifest.title}: the legal retreats after {moment.when}"
            _write_marked(moment, marks, hexes, caption, output, force)
    if fmt == "json":
        click.echo(json.dumps(retreats_json(moment, options), indent=2, sort_keys=True))
    else:
        click.echo(retreats_text(moment, options), nl=False)
    if output is not None:
        click.echo(f"wrote {output}", err=True)


__all__ = ["MOVE_KINDS", "check", "picture", "reach", "retreats"]
