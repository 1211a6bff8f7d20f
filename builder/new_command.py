"""`vmodbuild new`: a new game's data folder from a bundled game or a blank map. A module of its own: the templates'
choices are the bundled games, listed when the command is made, and its copying (shutil) is needed by no other
command (a rebuild of unchanged data imported both, issue 30 item 3)."""

from __future__ import annotations

from pathlib import Path

import click

from builder.scaffold import TEMPLATES, new_game
from builder.stopping import stopping_on_errors
from wargame.bundled import bundled_root


@click.command(short_help="Start a new game's data folder from a bundled game or a blank map.")
@click.argument("game")
@click.option("--from", "template", type=click.Choice(TEMPLATES), required=True,
              help="Start from a copy of a bundled game, or from blank: a plain map with four units on the "
                   "classic series (rules as data), with a sample log the referee checks clean.")
@click.option("--data", "target", type=click.Path(path_type=Path, file_okay=False), envvar="UMPIRE_DATA",
              required=True, help="Folder to write maps/GAME and counters/GAME into, created if missing: give it, "
                                  "or set $UMPIRE_DATA to it. Give the same --data to the other commands.")
def new(game: str, template: str, target: Path) -> None:
    """Start a new game's data folder that validates and builds as it is."""
    with stopping_on_errors(target, game, target):
        made = new_game(bundled_root(), game, template, target)
    click.echo(f"{made.counters}\n{made.maps}")
    if made.sample_log is not None:
        click.echo(f"{made.sample_log}: a sample game; referee it: adjudicate --data {target} {made.sample_log}")
    click.echo(f"next: vmodbuild validate {game} --data {target}; the walk-through is docs/designing-a-game.md")
