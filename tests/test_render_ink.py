"""The renderers' one module of colours and text (builder/render/ink.py): golden values, and nobody else measuring."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from builder.render.ink import (
    INK, MIN_CONTRAST, PAPER, contrast, fit_lines, font, font_at, hex_colour, mix, readable, rgb, text_colour_on,
    text_length, text_px, wrap, wrap_words,
)

ROOT = Path(__file__).resolve().parent.parent
BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def test_colours_parse_mix_and_print_back() -> None:
    """'#rrggbb' in and out, mixing rounds each channel."""
    assert rgb("#01abFF") == (1, 171, 255)
    assert hex_colour((1, 171, 255)) == "#01abff"
    assert mix(BLACK, WHITE, 0.5) == (128, 128, 128)
    assert mix((10, 20, 30), (10, 20, 30), 0.3) == (10, 20, 30)
    assert hex_colour(mix(rgb("#5a554b"), rgb(PAPER), 0.55)) == "#b3afa5"  # as the charts mixed it before ink.py


def test_contrast_and_readable_text() -> None:
    """WCAG's ratio: 21 for black on white, 1 for a colour on itself; a colour too faint gives way to ink or paper."""
    assert round(contrast(BLACK, WHITE), 6) == 21
    assert contrast((90, 85, 75), (90, 85, 75)) == 1
    assert readable(BLACK, WHITE) == BLACK
    assert readable((250, 250, 250), WHITE) == rgb(INK)
    assert readable((20, 20, 20), BLACK) == rgb(PAPER)
    assert all(contrast(readable(c, fill), fill) >= MIN_CONTRAST
               for c in ((255, 0, 0), (0, 128, 0), (200, 200, 0)) for fill in (BLACK, WHITE, (0, 0, 128)))


def test_text_on_a_chart_fill() -> None:
    """The charts print ink on light fills and paper on dark ones."""
    assert text_colour_on("#ffffff") == INK
    assert text_colour_on("#e6dec8") == INK
    assert text_colour_on("#5a554b") == PAPER
    assert text_colour_on("#000000") == PAPER


def test_wrap_keeps_newlines_spaces_and_long_words() -> None:
    """Explicit newlines start lines, single spaces are the only break, a word wider than the line stays whole."""
    face = font(16)
    assert wrap("a b\nc", face, 10_000) == ["a b", "c"]
    assert wrap("alpha beta", face, 1) == ["alpha", "beta"]
    assert wrap("a  b", face, 10_000) == ["a  b"]
    assert wrap("", face, 100) == [""]
    width = text_length(face, "alpha beta")
    assert wrap("alpha beta gamma", face, width) == ["alpha beta", "gamma"]


def test_wrap_words_folds_white_space() -> None:
    """Any white space between words is one space; a text of no words has no lines."""
    face = font(16)
    assert wrap_words("  alpha \n beta ", face, 10_000) == ["alpha beta"]
    assert wrap_words(" \n ", face, 100) == []


def test_measures() -> None:
    """A text's width is its widest line's, rounded up."""
    face = font(16)
    assert text_px("ab\nabcdef", face) == math.ceil(text_length(face, "abcdef"))
    assert text_px("", face) == 0


def test_fit_lines_shrinks_to_the_box() -> None:
    """A title too big for its box comes out smaller, within its lines."""
    face, lines = fit_lines("AN UNUSUALLY LONG MARKER TITLE", 200, 60, 40, max_lines=2)
    assert face.size < 40 and 1 <= len(lines) <= 2
    assert all(text_length(face, line) <= 200 for line in lines)
    big, one = fit_lines("HQ", 200, 60, 40)
    assert big.size == font_at(40).size and one == ["HQ"]


def test_only_ink_loads_fonts_parses_colours_or_measures_text() -> None:
    """Font files, colour parsing and text advances go through ink.py, so every renderer measures and wraps alike
    (the board's modules too)."""
    pattern = re.compile(r"\.getlength\(|\.textlength\(|ImageColor\.|ImageFont\.truetype\("
                         r"|def _?(wrap|luminance|mix)\b")
    allowed = {"builder/render/ink.py"}
    offenders = [f"{p.relative_to(ROOT).as_posix()}:{i}" for p in sorted((ROOT / "builder").rglob("*.py"))
                 if p.relative_to(ROOT).as_posix() not in allowed
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1) if pattern.search(line)]
    assert offenders == []


def test_text_is_laid_out_the_same_on_every_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every font lays text out with FreeType's basic layout: Pillow would pick Raqm where FriBiDi is installed and
    its basic layout where not, and a counter face then came out differently from one machine to the next."""
    from PIL import ImageFont

    from builder.render.counters import units
    from wargame.bundled import data_root
    from wargame.game import load_game

    game = load_game(data_root(), "omaha")
    unit = game.units[0][1]

    def face() -> bytes:
        font.cache_clear()
        text_length.cache_clear()
        units._draw_unit.cache_clear()
        return units.render_unit(game, unit, "full").tobytes()

    here = face()
    assert font(12).layout_engine == ImageFont.Layout.BASIC
    monkeypatch.setattr(ImageFont.core, "HAVE_RAQM", False)  # a machine without FriBiDi
    assert face() == here
    font.cache_clear()
    text_length.cache_clear()
    units._draw_unit.cache_clear()


TEXTS = ["", "A", "AV", "To", "LT. Yo", "Wavy river", "1-2-3 / 4", "Fürth–Köln “Ω” ½ ×", "e\u0301", "\U0001F600x",
         "\u4e2d\u6587", "a\nb", "\t", "AVAVAVA" * 9, "Sea-borne landing, Pointe du Hoc (rangers)"]


@pytest.mark.parametrize(("size", "bold", "condensed"), [
    (6, False, False), (13, False, False), (16, True, False), (19, False, True), (55, True, False),
])
def test_lengths_from_kept_advances_are_freetypes(size: int, bold: bool, condensed: bool) -> None:
    """A house font's getlength, summed from each character's advance and each pair's kerning, is FreeType's own
    to the bit: texts with kerned pairs, marks, glyphs the font lacks, measured in any order, by fonts of several
    sizes at once (each keeps its own advances)."""
    from PIL import ImageFont

    from builder.render.ink import LAYOUT

    fonts = [font(size, bold, condensed), font(size + 1, bold, condensed)]
    plain = [ImageFont.truetype(f.path, f.size, layout_engine=LAYOUT) for f in fonts]
    for text in TEXTS + [t[::-1] for t in TEXTS] + [t[:3] for t in TEXTS]:
        for kept, reference in zip(fonts, plain):
            assert kept.getlength(text) == reference.getlength(text), (text, kept.size)
    assert font(16).getlength("AV") < font(16).getlength("A") + font(16).getlength("V")  # DejaVu kerns AV


def test_lengths_by_other_layouts_or_options_are_pillows() -> None:
    """A length asked with options FreeType's basic layout does not take alone goes to Pillow as before."""
    from PIL import ImageFont

    from builder.render.ink import KeptMasksFont

    kept = KeptMasksFont(font(16).path, 16, layout_engine=ImageFont.Layout.BASIC)
    assert kept.getlength(b"AV") == ImageFont.truetype(kept.path, 16, layout_engine=ImageFont.Layout.BASIC).getlength(
        b"AV")
    assert kept.getlength("AV", mode="1") == ImageFont.truetype(
        kept.path, 16, layout_engine=ImageFont.Layout.BASIC).getlength("AV", mode="1")


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_text_draw_prints_imagedraws_pixels(mode: str) -> None:
    """TextDraw prints a one-line text as ImageDraw.text does, to the pixel: anchors, sub-pixel points, fills, fonts;
    the text it does not take (several lines, no anchor, a stroke) goes to ImageDraw.text."""
    from PIL import Image, ImageDraw

    from builder.render.ink import TextDraw

    fills: list[object] = ["#1e1e1e", (200, 10, 10)] if mode == "RGB" else [255, "#808080"]
    cases: list[tuple[tuple[float, float], str, object, str | None, dict[str, object]]] = [
        ((x, y), text, fill, anchor, {})
        for x in (10, 10.3, 10.75) for y in (40, 40.5) for text in ("Hello AV", "1-2", "Ölmütz")
        for fill in fills for anchor in ("lm", "mm", "ls", "rm", "ms", "la")]
    cases += [((12.5, 30), "two\nlines", fills[0], "la", {}), ((12.5, 30), "no anchor", fills[0], None, {}),
              ((12.5, 30), "stroked", fills[0], "lm", {"stroke_width": 1, "stroke_fill": fills[1]})]
    for size, bold in ((9, False), (16, True), (31, False)):
        face = font(size, bold)
        for xy, text, fill, anchor, more in cases:
            expected = Image.new(mode, (200, 80), "white" if mode == "RGB" else 0)
            got = expected.copy()
            ImageDraw.Draw(expected).text(xy, text, fill=fill, font=face, anchor=anchor, **more)  # type: ignore[arg-type]
            TextDraw(got).text(xy, text, fill=fill, font=face, anchor=anchor, **more)
            assert got.tobytes() == expected.tobytes(), (size, bold, xy, text, fill, anchor, more)


def test_text_draw_leaves_imagedraw_out_of_a_one_line_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-line text with a fill and an anchor is printed without ImageDraw.text (its per-call work)."""
    from PIL import Image, ImageDraw

    from builder.render.ink import TextDraw

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("ImageDraw.text called")

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", refused)
    image = Image.new("RGB", (120, 40), "white")
    TextDraw(image).text((10.5, 20), "Moscow", fill="#1e1e1e", font=font(16), anchor="lm")
    assert image.getextrema() != ((255, 255),) * 3  # printed
    with pytest.raises(AssertionError):
        TextDraw(image).text((10.5, 20), "two\nlines", fill="#1e1e1e", font=font(16), anchor="la")


def test_text_draw_falls_back_to_imagedraw_on_an_older_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the font's getmask2 turns down the arguments copied from ImageDraw.text (an older Pillow, which
    pyproject allows), TextDraw prints with ImageDraw.text from then on, to its pixels."""
    from PIL import Image, ImageDraw, ImageFont

    from builder.render.ink import KeptMasksFont, TextDraw

    real = ImageFont.FreeTypeFont.getmask2
    refused: list[str] = []

    def older(self: ImageFont.FreeTypeFont, text: str, mode: str = "", *args: object, **kwargs: object) -> object:
        if not refused:  # TextDraw's first call, the one it copies from this Pillow's ImageDraw.text
            refused.append(text)
            raise TypeError("getmask2() got an unexpected keyword argument 'stroke_filled'")
        return real(self, text, mode, *args, **kwargs)  # type: ignore[arg-type]

    face = font(16)
    expected = Image.new("RGB", (120, 40), "white")
    ImageDraw.Draw(expected).text((10.5, 20), "Moscow", fill="#1e1e1e", font=face, anchor="lm")
    monkeypatch.setattr(KeptMasksFont, "getmask2", older)
    monkeypatch.setattr(TextDraw, "direct", True)
    for _ in range(2):
        got = Image.new("RGB", (120, 40), "white")
        TextDraw(got).text((10.5, 20), "Moscow", fill="#1e1e1e", font=face, anchor="lm")
        assert got.tobytes() == expected.tobytes()
    assert TextDraw.direct is False and refused == ["Moscow"]
