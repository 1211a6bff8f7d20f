"""`adjudicate rules GAME`: every section of a game's rules with what the referee checks of it, read from its
rule system's registry and coverage (adjudicator/coverage.py); docs/rules-coverage.md's tables are its output."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator.exits import could_not_run

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
    import json

    from wargame.bundled import data_root
    with could_not_run():
        from wargame.game import load_game  # on use: `adjudicate --help` loads no game models
        game = load_game(data_root(data), game_id)
        from adjudicator.coverage import markdown, text
        from adjudicator.systems import coverage_for
        examples = EXAMPLES / game_id if data is None else (data / "examples" / game_id)
        rows = coverage_for(game, examples)
    if fmt == "json":
        click.echo(json.dumps({"game": game_id, "rule_system": game.manifest.rule_system,
                               "sections": [r.as_dict() for r in rows]}, indent=2))
    elif fmt == "markdown":
        click.echo(markdown(rows), nl=False)
    else:
        click.echo(text(rows), nl=False)
