"""Place names on the boards keep off every printed hex number."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from builder.render.board import render_board
from wargame.bundled import data_root
from wargame.game import load_game

Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["omaha", "onslaught"])
def test_no_place_name_covers_a_hex_number(game_id: str) -> None:
    """Every place label (Sainte-Mère-Église, Compiègne, Le Molay-Littry, Pointe du Hoc...) is printed
    clear of the digits of every hex number, its own hex's and its neighbours' included."""
    game = load_game(data_root(), game_id)
    texts: list[object] = []
    render_board(game, texts=texts)  # type: ignore[arg-type]
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    labels = set(game.grid.labels)
    names = {p.name for _, p in game.places}
    numbers: list[tuple[str, Box]] = []
    places: list[tuple[str, Box]] = []
    for t in texts:
        text, xy, f, anchor = t.text, t.xy, t.font, t.anchor  # type: ignore[attr-defined]
        if t.glyphs and text in labels:  # type: ignore[attr-defined]
            numbers.append((text, draw.textbbox(xy, text, font=f, anchor=anchor)))
        elif text in names:
            places.append((text, draw.textbbox(xy, text, font=f, anchor=anchor, stroke_width=t.stroke_width)))  # type: ignore[attr-defined]
    assert len(numbers) == len(labels) and {n for n, _ in places} == names
    covered = sorted({(name, number) for name, box in places for number, digits in numbers
                      if _overlap(box, digits) > 0})
    assert covered == []
