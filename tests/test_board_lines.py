"""The board drawn at 2x (issue 30 item 2, fifth pass): lines and marks where their points say and with the ink of
their exact size, whichever way a line runs and however a width rounds to the canvas's whole pixels."""

from __future__ import annotations

import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from builder.render import board as board_module
from builder.render.board_terrain import _stroke, dot_box_radius
from builder.render.window import Recording, RecordingDraw, ShiftedDraw, forward


def _rows(image: Image.Image, x: int) -> list[int]:
    """The inked rows of a column."""
    return [y for y in range(image.height) if image.getpixel((x, y))]


def test_the_board_is_supersampled_twice() -> None:
    """The board's shapes are drawn at 2x (3x cost a canvas 2.25 times larger for the same look at 100%)."""
    assert board_module.SUPERSAMPLE == 2


@pytest.mark.parametrize("width", [2, 4])
def test_an_even_line_drawn_either_way_lands_on_the_same_pixels(width: int) -> None:
    """Pillow widens a two-point line of even width a pixel more on one side of its travel: the board draws every
    such line toward +x+y, so a hexside drawn from either end fills the same rows (right to left it filled the row
    above; a grid line at 2x then sat in the hex row above its side)."""
    y = 20.63
    pictures = []
    for points in ([(5.0, y), (35.0, y)], [(35.0, y), (5.0, y)]):
        image = Image.new("L", (40, 40), 0)
        ShiftedDraw(image, even_forward=True).line(points, fill=255, width=width)
        pictures.append(image)
    assert ImageChops.difference(*pictures).getbbox() is None
    assert _rows(pictures[0], 20) == list(range(21 - width // 2, 21 + width // 2))
    plain = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(plain).line([(35.0, y), (5.0, y)], fill=255, width=width)
    assert _rows(plain, 20) != _rows(pictures[0], 20), "Pillow no longer shifts a reversed even line: drop `forward`"


def test_a_recorded_even_line_is_filed_forward() -> None:
    """The build's recording files a two-point even line toward +x+y (flat or paired points) and leaves odd widths and
    longer lines as given."""
    recording = Recording([(0, 0, 100)])
    draw = RecordingDraw(Image.new("RGB", (1, 1)), recording)
    draw.line([(30.0, 10.0), (10.0, 10.0)], fill=(0, 0, 0), width=2)
    draw.line([(30.0, 10.0), (10.0, 10.0)], fill=(0, 0, 0), width=3)
    lines = [args[0] for name, args in recording.calls[0] if name == "draw_lines" and isinstance(args, tuple)]
    assert lines == [[(10.0, 10.0), (30.0, 10.0)], [(30.0, 10.0), (10.0, 10.0)]]
    assert forward((4.0, 1.0, 2.0, 1.0)) == (2.0, 1.0, 4.0, 1.0)
    three = [(3.0, 0.0), (2.0, 0.0), (1.0, 0.0)]
    assert forward(three) == three


def test_a_texture_line_carries_the_ink_of_its_exact_width() -> None:
    """A texture's line rounded up to whole canvas pixels is mixed toward the hex's fill by as much (at 2x a hatch
    line of 1.58 pixels drawn 2 wide darkened a neutral hex by half as much again as at 3x); one rounded down keeps
    its ink."""
    ink, width = _stroke((0, 0, 0), "#ffffff", 1.5)
    assert width == 2 and ink == (64, 64, 64)  # 255 - 255 * 1.5 / 2, rounded
    assert _stroke((0, 0, 0), "#ffffff", 2.4) == ((0, 0, 0), 2)
    for exact in (1.6, 2.7, 3.5):
        (grey, _, _), whole = _stroke((0, 0, 0), "#ffffff", exact)
        assert (255 - grey) * whole == pytest.approx(255 * exact, abs=2)


def _mean_area(box_radius: float, n: int = 200) -> float:
    """The mean number of pixels Pillow fills for an ellipse box of a half-size, over sub-pixel positions."""
    rng = random.Random(3)
    total = 0
    for _ in range(n):
        x, y = 10 + rng.random(), 10 + rng.random()
        image = Image.new("L", (20, 20), 0)
        ImageDraw.Draw(image).ellipse((x - box_radius, y - box_radius, x + box_radius, y + box_radius), fill=255)
        total += sum(1 for v in image.tobytes() if v)
    return total / n


@pytest.mark.parametrize("radius", [1.58, 1.76, 2.38, 2.64])
def test_a_stipple_dot_has_the_area_of_its_circle(radius: float) -> None:
    """A stipple dot (radius s * 0.022 on the canvas: 1.58 and 1.76 at 2x, 2.38 and 2.64 at 3x) inks about its
    circle's area on average, not the half pixel more all round that Pillow fills for the circle's own box."""
    circle = math.pi * radius**2
    assert _mean_area(radius) > 1.25 * circle
    assert _mean_area(dot_box_radius(radius)) == pytest.approx(circle, rel=0.18)
