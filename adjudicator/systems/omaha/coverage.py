"""What the Fire & Movement series and Omaha's exclusive rules check, section by section (coverage.toml)."""

from __future__ import annotations

from pathlib import Path

from adjudicator.coverage import CoverageFile, Row
from adjudicator.systems.fire_and_movement.sections import RESTS_ON as SERIES_RESTS_ON
from adjudicator.systems.omaha.sections import RESTS_ON
from wargame.game import Game

FILE: CoverageFile[object] = CoverageFile(Path(__file__).with_name("coverage.toml"), None,
                                          {**SERIES_RESTS_ON, **RESTS_ON})


def rows_for(game: Game, examples: Path | None) -> list[Row]:
    """Every section of the series and the folio (the game's data change no row: the rules are code)."""
    return FILE.rows()
