"""`vmodbuild`'s commands but `geography` (builder.geography.commands) and `new` (builder.new_command): validate,
show, preview, build and render; builder.cli's group imports this module when one of them is run or asked for its
--help."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from builder.stopping import fail, stopping_on_errors
from wargame.bundled import data_root, game_ids
from wargame.errors import DataErrors, UnreadableData, WargameError

DATA_OPTION = click.option(
    "--data", "data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None,
    help="Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games).",
)


@click.command(short_help="Load and cross-check a game's data, every problem listed (every game without GAME).")
@click.argument("game", required=False)
@DATA_OPTION
def validate(game: str | None, data: Path | None) -> None:
    """Load and cross-check a game's data (every game if none is named).

    Exit 0 when the data are consistent, 1 when problems are found (all are listed),
    2 when the data cannot be read at all.
    """
    from wargame.game import load_game

    try:
        root = data_root(data)
        games = [game] if game else game_ids(root)
    except WargameError as e:
        fail(e)
    if not games:
        click.echo(f"Error: no game under {root}: a game is a folder counters/GAME holding a game.toml, with its map "
                   f"in maps/; start one with `vmodbuild new GAME --from blank --data {root}`", err=True)
        sys.exit(2)
    problems = 0
    for game_id in games:
        try:
            loaded = load_game(root, game_id)
        except UnreadableData as e:
            fail(e)  # the data cannot be read at all: nothing was validated
        except DataErrors as e:
            for error in e.errors:
                click.echo(str(error), err=True)
            problems += len(e.errors)
            click.echo(f"{game_id}: {len(e.errors)} problem(s)")
            continue
        except WargameError as e:
            fail(e)
        # Lawful data likely not meant (a bridge written as a road): said, not counted as a problem.
        from wargame.rules_consistency import data_warnings
        for warning in data_warnings(loaded):
            click.echo(f"warning: {warning}", err=True)
        click.echo(f"{game_id}: ok ({len(loaded.grid)} hexes, {len(loaded.units)} units, "
                   f"{len(loaded.hexside_features)} hexsides with features)")
    sys.exit(1 if problems else 0)


@click.command(short_help="Describe a game's loaded data (--json: canonical JSON for other tools).")
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Canonical JSON of everything loaded (shape in README).")
@DATA_OPTION
def show(game: str, as_json: bool, data: Path | None) -> None:
    """Describe a game's loaded data, for a person or (with --json) for other tools."""
    from wargame.describe import game_json, game_summary
    from wargame.game import load_game

    with stopping_on_errors(None, game, data):
        loaded = load_game(data_root(data), game)
    click.echo(game_json(loaded) if as_json else game_summary(loaded), nl=False)


@click.command()
@click.argument("game")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Folder to write <game>-map.png into (created if missing).")
@DATA_OPTION
def preview(game: str, out_dir: Path, data: Path | None) -> None:
    """Write a quick PNG of a game's map data to look at."""
    from builder.preview import write_preview
    from wargame.game import load_game

    with stopping_on_errors(out_dir, game, data):
        path = write_preview(load_game(data_root(data), game), out_dir)
    click.echo(str(path))


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """Refuse nan, which passes FloatRange's comparisons (every comparison with nan is false)."""
    if value != value:
        raise click.BadParameter("nan is not a number between 0.5 and 4", ctx, param)
    return value


def _games_for(game: str | None, all_games: bool, root: Path) -> list[str]:
    if all_games and game is not None:
        raise click.UsageError(f"give GAME ({game}) or --all, not both")
    if all_games:
        return game_ids(root)
    if game is None:
        raise click.UsageError("name a GAME or give --all")
    return [game]


@click.command()
@click.argument("game", required=False)
@click.option("--all", "all_games", is_flag=True, help="Every bundled game.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("dist"),
              show_default=True, help="Folder for <game>.vmod.")
@click.option("--scale", type=click.FloatRange(0.5, 4.0), default=1.0, show_default=True, callback=_finite,
              help="Resolution of the art (the module's grid follows it).")
@DATA_OPTION
def build(game: str | None, all_games: bool, out_dir: Path, scale: float, data: Path | None) -> None:
    """Build playable VASSAL 3.7 modules: dist/<game>.vmod."""
    from builder.vassal.module_cache import keep_module, kept_module, package_version
    from wargame.collector import collector_off, out_of_sight
    from wargame.files import write_atomically
    from wargame.gamecache import cache_dir

    with stopping_on_errors(out_dir, game, data):
        root = data_root(data)
        umpire_version, cache = package_version("umpire"), cache_dir()
        for game_id in _games_for(game, all_games, root):
            path = out_dir / f"{game_id}.vmod"
            # Every input as before: the module built then, without loading the game or importing the drawing.
            kept = kept_module(cache, root, game_id, scale, umpire_version)
            if kept is not None:
                write_atomically(path, kept.data)
                click.echo(f"{path}: {len(kept.data) // 1024} KB, {kept.images} images")
                continue
            with collector_off():  # the drawing's and the module's code and the game, kept for the whole build
                from builder.vassal.art_cache import cached_art
                from builder.vassal.module import write_module
                from wargame.game import load_game, unchanged_since_loaded

                loaded = load_game(root, game_id)
            with out_of_sight():
                built = write_module(loaded, path, umpire_version, scale, cached_art(loaded, scale, cache))
                # The game as loaded is still this process's for these files only if none changed since loading
                # began.
                keep_module(cache, root, game_id, scale, umpire_version, list(loaded.files.values()), built.data,
                            len(built.images), lambda: unchanged_since_loaded(loaded))
            click.echo(f"{path}: {len(built.data) // 1024} KB, {len(built.images)} images")


@click.command(short_help="Write the module's art as PNGs: board, holding board, counters, charts.")
@click.argument("game")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="Folder to write the PNGs into.")
@click.option("--scale", type=click.FloatRange(0.5, 4.0), default=1.0, show_default=True, callback=_finite,
              help="Resolution of the art (1: the module's own).")
@DATA_OPTION
def render(game: str, out_dir: Path, scale: float, data: Path | None) -> None:
    """Write the board, every counter face and every chart of a game as PNGs."""
    from builder.render.png import png_bytes
    from builder.vassal.art import draw_art
    from wargame.files import write_atomically
    from wargame.game import load_game

    with stopping_on_errors(out_dir, game, data):
        loaded = load_game(data_root(data), game)
        art = draw_art(loaded, scale)
        pictures = {f"{game}-board.png": art.board, f"{game}-holding.png": art.holding.image,
                    **{f"counters/{name}": image for name, image in art.counters.items()},
                    **{f"{game}-{chart}.png": image for chart, image in art.charts.items()}}
        for name, image in sorted(pictures.items()):
            write_atomically(out_dir / name, png_bytes(image))
    click.echo(f"{out_dir}: {len(pictures)} PNGs")
