"""`adjudicate rules GAME`: every section of a game's rules with what the referee checks of it, read from its
rule system's registry and its data (the classic series; the other systems' tables are docs/rules-coverage.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from adjudicator.exits import could_not_run
from wargame.bundled import data_root
from wargame.errors import WargameError

if TYPE_CHECKING:
    from wargame.game import Game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
"""The bundled games' example logs (a checkout's; an installed wheel has none, so no breach logs are named)."""


@click.command(short_help="Every section of a game's rules: what is checked, by which handlers, on which data.")
@click.argument("game_id", metavar="GAME")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text: a paragraph a section; json: for tools; markdown: the table of docs/rules-coverage.md.")
def rules(game_id: str, data: Path | None, fmt: str) -> None:
    """Print every section of GAME's rules with its status, the handlers judging it (`path::function`), the data
    it rests on, its breach logs and tests."""
    with could_not_run():
        game = _classic_game(game_id, data)
    from adjudicator.systems.classic import REGISTRY
    from adjudicator.systems.classic.coverage import coverage, markdown, text
    examples = EXAMPLES / game_id if data is None else (data / "examples" / game_id)
    rows = coverage(game, REGISTRY, examples)
    if fmt == "json":
        click.echo(json.dumps({"game": game_id, "rule_system": "classic", "sections": [r.as_dict() for r in rows]},
                              indent=2))
    elif fmt == "markdown":
        click.echo(markdown(rows), nl=False)
    else:
        click.echo(text(rows), nl=False)


def _classic_game(game_id: str, data: Path | None) -> Game:
    """A game on the classic series (WargameError for one on a hand-written rule system)."""
    from wargame.game import load_game  # on use: `adjudicate --help` loads no game models
    game = load_game(data_root(data), game_id)
    if game.manifest.rule_system != "classic":
        raise WargameError(f"{game_id} is on the {game.manifest.rule_system} rule system, whose sections are listed "
                           "in docs/rules-coverage.md; `adjudicate rules` reads a rule registry, which the classic "
                           "series has (e.g. adjudicate rules moscow)")
    return game
