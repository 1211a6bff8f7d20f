"""What Onslaught's referee checks, section by section: coverage.toml's rows with the registry's handlers."""

from __future__ import annotations

from pathlib import Path

from adjudicator.coverage import CoverageFile, Row
from adjudicator.systems.onslaught.rules import REGISTRY
from adjudicator.systems.onslaught.sections import RESTS_ON
from wargame.game import Game

FILE = CoverageFile(Path(__file__).with_name("coverage.toml"), REGISTRY, RESTS_ON)


def rows_for(game: Game, examples: Path | None) -> list[Row]:
    """Every section of Onslaught (the game's data change no row: the rules are code)."""
    return FILE.rows()
