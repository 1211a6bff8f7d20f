"""Colours and text for every picture the builder draws: the house font, colours, contrast, measuring, wrapping."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from math import ceil, modf
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent.parent / "fonts"
INK = "#1e1e1e"
PAPER = "#fbf8ef"
MIN_CONTRAST = 4.5
"""WCAG's minimum contrast for small text (1.4.3): every text on a counter or marker face."""

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont
KEPT_MASKS = 1024
"""Rendered texts a font keeps (then it starts again): a game's counters print a few hundred distinct ones."""


class KeptMasksFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks it renders: counters print the same values, dashes and names at the
    same sub-pixel positions again and again (Onslaught's 338 faces: 1,344 texts, 227 distinct), and FreeType's
    rendering was a fifth of their cost. The masks are the ones FreeType renders, so the pixels are the same."""

    def __init__(self, path: str, size: float = 10, index: int = 0, encoding: str = "",
                 layout_engine: ImageFont.Layout | None = None) -> None:
        super().__init__(path, size, index, encoding, layout_engine)  # the same arguments as a pickled font's
        self._masks: dict[Hashable, tuple[Any, tuple[int, int]]] = {}
        self._advances: dict[str, float] = {}
        self._kernings: dict[str, float] = {}

    def __setstate__(self, state: list[Any]) -> None:
        """An unpickled font, keeping no masks or advances yet."""
        super().__setstate__(state)
        self._masks = {}
        self._advances = {}
        self._kernings = {}

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        """FreeTypeFont.getlength, from each character's advance and each pair's kerning, measured once a font.

        FreeType's basic layout loads every glyph of a text to sum their advances (plus the kerning of each pair,
        in 64ths of a pixel): a chart's wrap trials measured the same glyphs again and again, and that was most of
        the charts' text cost. A glyph's advance and a pair's kerning do not depend on what is around them, and
        sums of 64ths are exact in floats, so the length is FreeType's to the bit (tests/test_render_ink.py).
        """
        if (self.layout_engine != ImageFont.Layout.BASIC or not isinstance(text, str) or mode or direction
                or features or language):
            return super().getlength(text, mode, direction, features, language)
        advances, kernings = self._advances, self._kernings
        total = 0.0
        previous = ""
        for char in text:
            advance = advances.get(char)
            if advance is None:
                advance = advances[char] = super().getlength(char)
            total += advance
            if previous:
                pair = previous + char
                kerning = kernings.get(pair)
                if kerning is None:  # the pair's length less its two advances
                    kerning = kernings[pair] = super().getlength(pair) - advances[previous] - advance
                total += kerning
            previous = char
        return total

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        """FreeTypeFont.getmask2, a mask rendered before given again (never a colour font's RGBA one, which
        ImageDraw changes)."""
        key = (text, mode, args, tuple(sorted(kwargs.items())))
        try:
            kept = self._masks.get(key)
        except TypeError:  # an unhashable argument (a list of OpenType features): rendered as usual
            return super().getmask2(text, mode, *args, **kwargs)
        if kept is None:
            kept = super().getmask2(text, mode, *args, **kwargs)
            if mode == "RGBA":
                return kept
            if len(self._masks) >= KEPT_MASKS:
                self._masks.clear()
            self._masks[key] = kept
        return kept


class TextDraw(ImageDraw.ImageDraw):
    """An ImageDraw that draws a one-line text in a house font as ImageDraw.text does, without its per-call work:
    the same mask asked of the font (kept by it after the first time) and the same core call, so the same pixels
    (tests/test_render_ink.py). A chart or a counter face prints a few hundred texts, and ImageDraw.text's own Python
    (its text object, line split, ink lookup) was a third of each call's cost; anything else goes to ImageDraw.text."""

    direct = True
    """Whether texts are drawn here (False once this Pillow's font turned down ImageDraw.text's arguments as copied)."""

    def __init__(self, im: Image.Image, mode: str | None = None) -> None:
        super().__init__(im, mode)
        self._text_inks: dict[str | tuple[int, ...] | int, int] = {}

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None, anchor: str | None = None,
             *args: Any, **kwargs: Any) -> None:
        """ImageDraw.text; a one-line str in a KeptMasksFont with a fill and an anchor drawn here."""
        if (args or kwargs or fill is None or anchor is None or type(font) is not KeptMasksFont
                or not isinstance(text, str) or "\n" in text or not isinstance(fill, (str, tuple, int))
                or not TextDraw.direct):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        ink = self._text_inks.get(fill)
        if ink is None:
            ink = self._text_inks[fill] = self._getink(fill)[0]  # type: ignore[assignment]
        x, y = xy
        # As ImageDraw.text's draw_text: the whole pixels of the point, the fractions as the mask's start.
        try:
            mask, offset = font.getmask2(text, self.fontmode, None, None, None, 0, anchor, ink,
                                         (modf(x)[0], modf(y)[0]), stroke_filled=True)
        except TypeError:
            # A Pillow older than the one this copies (pyproject allows 10.0), whose getmask2 takes no stroke_filled:
            # its own ImageDraw.text from now on, which asks its font as that version does.
            TextDraw.direct = False
            super().text(xy, text, fill, font, anchor)
            return
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


# -- fonts ------------------------------------------------------------------------------------
LAYOUT = ImageFont.Layout.BASIC
"""How every text is laid out: FreeType's own, glyph by glyph with its kerning. Pillow otherwise picks Raqm
(HarfBuzz) where the machine has the FriBiDi library and its basic layout where not, and the two place glyphs
differently (74 of Moscow's 87 images differ), so the same game drew different art from machine to machine. The
games' names are Latin text, which needs no shaping; a script that does (Arabic, Hebrew, combining marks) is drawn
unshaped (docs/limits.md)."""


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False, condensed: bool = False) -> Font:
    """The shipped DejaVu Sans (draws accented names on any machine), laid out the same way on every machine."""
    name = "DejaVuSans-Bold.ttf" if bold else ("DejaVuSansCondensed.ttf" if condensed else "DejaVuSans.ttf")
    return KeptMasksFont(str(FONTS / name), max(1, size), layout_engine=LAYOUT)


def font_at(em: float, bold: bool = True, condensed: bool = False) -> Font:
    """The house font at an em size in (supersampled) pixels, rounded; condensed applies to the regular face only."""
    return font(max(1, round(em)), bold=bold, condensed=condensed and not bold)


def smaller(face: Font, factor: float) -> Font:
    """The bold house font a step smaller: at least one size less, as 7 x 0.93 rounds back to 7 (a shrinking
    loop then never ended: `picture --scale 0.25` on Omaha)."""
    return font_at(min(face.size - 1, face.size * factor))


@lru_cache(maxsize=256)
def cap_height(face: Font) -> float:
    """Height of a capital/digit above the baseline (remembered: every counter face asks it of its fonts)."""
    box = face.getbbox("8", anchor="ls")
    return float(-box[1])


# -- colours ----------------------------------------------------------------------------------
def rgb(colour: str) -> RGB:
    """An '#rrggbb' or named colour as an RGB triple."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    return (r, g, b)


def hex_colour(colour: RGB) -> str:
    """An RGB triple as '#rrggbb'."""
    return "#" + "".join(f"{channel:02x}" for channel in colour)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction t of the way from a to b."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def luma(colour: RGB) -> float:
    """Brightness 0..1 of the gamma-encoded channels (Rec. 709 weights): the charts' ink-or-paper test."""
    r, g, b = (channel / 255 for channel in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_colour_on(fill: str) -> str:
    """Ink or paper, whichever the charts print on a fill."""
    return INK if luma(rgb(fill)) > 0.45 else PAPER


def relative_luminance(colour: RGB) -> float:
    """WCAG relative luminance (linearised channels)."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour[0]) + 0.7152 * channel(colour[1]) + 0.0722 * channel(colour[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(preferred: RGB, fill: RGB) -> RGB:
    """The preferred colour on a fill, or ink or paper when it would be hard to read there."""
    if contrast(preferred, fill) >= MIN_CONTRAST:
        return preferred
    ink, paper = rgb(INK), rgb(PAPER)
    return ink if contrast(ink, fill) >= contrast(paper, fill) else paper


# -- measuring and wrapping -------------------------------------------------------------------
@lru_cache(maxsize=65536)
def text_length(face: Font, text: str) -> float:
    """A text's advance in a font, remembered: laying out a chart measures the same cells and wrap trials many
    times over (for its natural, least and final widths and its heights)."""
    return face.getlength(text)


def text_px(text: str, face: Font) -> int:
    """Width of the widest explicit line of a text, in whole pixels."""
    return max((ceil(text_length(face, line)) for line in text.split("\n")), default=0)


def wrap(text: str, face: Font, width_px: float) -> list[str]:
    """Greedy word wrap at single spaces; explicit newlines start new lines; a too-long word keeps a line of its own."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            trial = f"{current} {word}" if current else word
            if current and text_length(face, trial) > width_px:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


def wrap_words(text: str, face: Font, width_px: float) -> list[str]:
    """The words of a text (any white space between them) wrapped greedily; no lines when it has no words."""
    words = text.split()
    return wrap(" ".join(words), face, width_px) if words else []


def fit_lines(text: str, max_w: float, max_h: float, em: float, bold: bool = True, condensed: bool = False,
              max_lines: int = 3) -> tuple[Font, list[str]]:
    """The largest font (at most em, shrinking by 8% down to 6) and wrapping that fit a text in a box."""
    size = em
    while True:
        face = font_at(size, bold, condensed)
        lines = wrap_words(text, face, max_w)
        line_h = cap_height(face) * 1.45
        fits = (len(lines) <= max_lines and all(text_length(face, line) <= max_w for line in lines)
                and line_h * (len(lines) - 1) + cap_height(face) <= max_h)
        if fits or size <= 6:
            return face, lines
        size *= 0.92


def draw_lines(draw: ImageDraw.ImageDraw, lines: Sequence[str], face: Font, cx: float, cy: float,
               fill: int | RGB) -> None:
    """Lines of text centred as a block on a point (capitals centred, not the em box)."""
    cap = cap_height(face)
    step = cap * 1.45
    block = step * (len(lines) - 1) + cap
    baseline = cy - block / 2 + cap
    for line in lines:
        draw.text((cx, baseline), line, fill=fill, font=face, anchor="ms")
        baseline += step
