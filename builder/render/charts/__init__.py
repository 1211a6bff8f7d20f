"""Player-aid charts drawn from a game's data: CRT, terrain effects, schedules, tracks, tables."""

# Nothing here knows a game: every word and number on a chart comes from the game's data files,
# so a corrected CRT cell or a new terrain type shows up on the next build. Charts are drawn at
# 1x with FreeType's anti-aliased text (crisper than a downsampled 2x); the few shapes that need
# smooth edges (terrain swatches) are drawn at 4x and reduced. Output bytes depend only on the data.

from __future__ import annotations

from pathlib import Path

from PIL import Image

from builder.render.charts.combat import chart_sheet, crt_sheet, terrain_sheet
from builder.render.charts.layout import Pen, Sheet
from builder.render.charts.schedules import reinforcement_sheet, replacement_sheet
from builder.render.charts.tracks import sequence_sheet, supply_sheet, turn_sheet
from builder.render.ink import text_length
from builder.render.png import png_bytes
from wargame.files import write_atomically
from wargame.game import Game


def chart_sheets(game: Game) -> dict[str, Sheet]:
    """Every chart the data supports, by chart id, in a fixed order."""
    out: dict[str, Sheet] = {}
    if game.crt is not None:
        out["crt"] = crt_sheet(game, game.crt)
    if game.terrain:
        out["terrain"] = terrain_sheet(game)
    if game.reinforcements:
        out["reinforcements"] = reinforcement_sheet(game)
    if game.replacements:
        out["replacements"] = replacement_sheet(game)
    turn_tracks = [t for t in game.manifest.track if t.kind == "turn"]
    if turn_tracks:
        out["turn_track"] = turn_sheet(game, turn_tracks[0])
    supply = [t for t in game.manifest.track if t.kind == "supply"]
    if supply:
        out["supply_tracks"] = supply_sheet(game, supply)
    if game.manifest.sequence:
        out["sequence"] = sequence_sheet(game)
    for chart in game.charts.chart:
        out[f"chart-{chart.id}"] = chart_sheet(game, chart)
    return out


def render_charts(game: Game, scale: float = 1.0) -> dict[str, Image.Image]:
    """Every chart of a game as an image, keyed by a stable chart id."""
    pen = Pen(scale)
    text_length.cache_clear()  # measured afresh for each game's charts (and each build)
    return {chart_id: sheet.render(pen) for chart_id, sheet in chart_sheets(game).items()}


def write_charts(game: Game, out_dir: Path, scale: float = 1.0) -> list[Path]:
    """Write `<game>-<chart id>.png` for every chart, atomically; the paths written."""
    paths = []
    for chart_id, image in render_charts(game, scale).items():
        path = out_dir / f"{game.id}-{chart_id}.png"
        write_atomically(path, png_bytes(image))
        paths.append(path)
    return paths


__all__ = ["render_charts", "write_charts", "png_bytes", "chart_sheets"]
