"""Unit counters: what the rule system prints (style), the symbol, size, designation and values, both faces."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from PIL import Image, ImageDraw

from builder.render.counters.face import SUPERSAMPLE, Face, band, clip, edge, face_values, finish
from builder.render.counters.symbols import SYMBOLS, Frame, size_symbol
from builder.render.ink import PAPER, RGB, TextDraw, cap_height, font_at, readable, rgb, smaller, text_length
from wargame.errors import DataError
from wargame.game import Game
from wargame.models import Unit
from wargame.records import frozen

MOBILE_RED = "#c8102e"
LEG_BLACK = "#000000"
ZOC_BLACK = "#000000"


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon."""
    return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]


@frozen
class _UnitArt:
    """Everything that decides how one unit face looks (the render cache key)."""

    symbol: str
    size: str
    values: tuple[int, ...]
    boxed_value: int | None
    mobility: str
    text: RGB
    background: RGB
    reduced: bool
    designation: str
    no_zoc: bool
    size_px: int


def short_designation(unit: Unit) -> str:
    """The historical division a counter stands for, shortened: '1st Infantry Division' -> '1',
    '12. SS-Panzer-Division' -> '12 SS', 'Panzer-Lehr-Division' -> 'Lehr', 'Guards Armoured' -> 'Gds'."""
    text = unit.note.split("stands for", 1)[1].strip() if "stands for" in unit.note else ""
    head = text.split("(")[0]
    digits = re.match(r"\D*?(\d+)", head)
    if digits:
        number = digits.group(1)
        # Divisions of one type and number told apart by their branch (16th Luftwaffe field
        # division and 16th infantry division are both German infantry counters).
        for word, branch in (("SS-", "SS"), ("Luftwaffen", "LW"), ("Fallschirmj", "FJ"), ("Luftlande", "LL")):
            if word in head:
                return f"{number} {branch}"
        return number
    for word, short in (("Lehr", "Lehr"), ("Guards", "Gds")):
        if word in head:
            return short
    return unit.id.rsplit("-", 1)[-1]


def printed_designation(unit: Unit, from_note: bool) -> str:
    """The designation a counter prints: units.csv's `designation` where given, else the short historical one from
    the unit's note (game.toml's `[counter] from_note`), else its id."""
    if unit.designation:
        return unit.designation
    return short_designation(unit) if from_note else unit.id


def render_unit(game: Game, unit: Unit, face: Face, size_px: int = 75) -> Image.Image:
    """One face of a unit counter: a square RGB image size_px wide."""
    if face not in ("full", "reduced", "further1", "further2"):
        raise ValueError(f"unit {unit.id}: face must be 'full', 'reduced', 'further1' or 'further2', not {face!r}")
    if face == "reduced" and unit.reduced is None:
        raise ValueError(f"unit {unit.id} has one step: it has no reduced face")
    values = face_values(unit, face)
    nationality = {n.id: n for n in game.manifest.nationality}.get(unit.nationality)
    unit_type = {t.id: t for t in game.manifest.unit_type}.get(unit.type)
    if nationality is None or unit_type is None:
        raise DataError(f"unit {unit.id}: nationality {unit.nationality!r} or type {unit.type!r} is not in game.toml")
    style = game.manifest.counter  # what the game's counters print (game.toml's [counter])
    names = game.manifest.value_names
    art = _UnitArt(
        symbol=unit_type.symbol,
        size=unit.size,
        values=tuple(values),
        boxed_value=names.index("movement") if style.mobility_box and "movement" in names else None,
        mobility=unit.mobility,
        text=rgb(nationality.text_colour),
        background=rgb(nationality.background_colour),
        reduced=face != "full",
        designation=printed_designation(unit, style.from_note) if style.designation else "",
        no_zoc=style.zoc_mark and not unit.zoc,
        size_px=size_px,
    )
    return _draw_unit(art).copy()


@lru_cache(maxsize=1024)
def _draw_unit(art: _UnitArt) -> Image.Image:
    """Draw a unit face: its shapes (kept per look), then its texts at the size shown (cached: Onslaught's identical
    counters are drawn once)."""
    p = art.size_px
    image = _shapes(art.symbol, art.size, bool(art.designation), art.text, art.background, art.reduced, art.no_zoc,
                    p).copy()
    draw = TextDraw(image)
    # The texts are printed at the face's own size, not supersampled: FreeType antialiases (and hints) a glyph
    # itself, and printing it at three times the size was a third of a face's cost.
    top_h = _top_h(bool(art.designation), p)
    if art.designation:
        room = p * (0.74 if art.no_zoc else 0.88)
        f = font_at(p * 0.17, bold=True)
        while text_length(f, art.designation) > room and f.size > MIN_FONT_PX:
            f = smaller(f, 0.93)
        fill = readable(art.text, band(art.background) if art.reduced else art.background)
        draw.text((p * 0.06, (top_h + cap_height(f)) / 2 + p * 0.005), art.designation, fill=fill, font=f,
                  anchor="ls")
    _draw_values(draw, art, p)
    return image


MIN_FONT_PX = 2
"""The smallest a designation or the values shrink to fit (in the face's pixels)."""


def _top_h(designated: bool, size_px: float) -> float:
    """The height of the top row (the designation, the reduced band): without a designation only the band, and the
    symbol grows into it."""
    return size_px * (0.2 if designated else 0.13)


@lru_cache(maxsize=256)
def _shapes(symbol: str, size: str, designated: bool, text: RGB, background: RGB, reduced: bool, no_zoc: bool,
            size_px: int) -> Image.Image:
    """A face without its texts: the colours, the reduced band, the type box with its symbol and size, the no-ZOC
    hexagon and the die-cut edge, drawn supersampled and reduced (cached: every unit of one nationality, type and
    size, on the same face, shares them)."""
    s = size_px * SUPERSAMPLE
    canvas = Image.new("RGB", (s, s), background)
    draw = ImageDraw.Draw(canvas)
    top_h = _top_h(designated, s)
    if reduced:
        # The depleted face: a light band across the top, as printed on many two-step counters.
        draw.rectangle((0, 0, s, top_h), fill=band(background))
    ink, where = _symbol_ink(symbol, size, designated, s)
    # Pasting through the mask's part that is not empty: the same pixels as through the whole mask.
    canvas.paste(text, where, ink)
    if no_zoc:
        # F&M 6.0: a black hexagon marks a unit that exerts no ZOC.
        draw.polygon(_hexagon(s * 0.87, top_h / 2 + s * 0.005, s * 0.072), fill=rgb(ZOC_BLACK))
    draw.rectangle((0, 0, s - 1, s - 1), outline=edge(background), width=max(1, round(s * 0.012)))
    return finish(canvas, size_px)


@lru_cache(maxsize=256)
def _symbol_ink(symbol: str, size: str, designated: bool, s: int) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """The type box, its symbol and the unit size above it, as a mask on a canvas s wide, cut to where it is not
    empty, and where that is (cached: counters of one type and size share it, whatever their colours)."""
    stroke = s * 0.026
    top_h = _top_h(designated, s)
    size_cy = top_h + s * 0.065
    box_w, box_h = (0.52, 0.31) if designated else (0.56, 0.34)
    box_y0 = size_cy + s * 0.07
    box = Frame(s * (0.5 - box_w / 2), box_y0, s * (0.5 + box_w / 2), box_y0 + s * box_h, stroke)
    mask = Image.new("L", (s, s), 0)
    SYMBOLS[symbol](ImageDraw.Draw(mask), box)
    ink = clip(mask, (box.x0, box.y0, box.x1, box.y1))
    pen = ImageDraw.Draw(ink)
    pen.rectangle((box.x0, box.y0, box.x1, box.y1), outline=255, width=round(stroke))
    size_symbol(pen, size, box.cx, size_cy, s * 0.095, stroke * 1.1)
    where = ink.getbbox() or (0, 0, 1, 1)
    return ink.crop(where), where


def _draw_values(draw: ImageDraw.ImageDraw, art: _UnitArt, p: int) -> None:
    """The values along the bottom, movement boxed in F&M (black: leg, red: mobile), on a face p pixels wide."""
    parts: list[tuple[str, bool]] = []
    for i, value in enumerate(art.values):
        if i:
            parts.append(("-", False))
        parts.append((str(value), i == art.boxed_value))
    # Printed in runs: the values and dashes between boxes as one text each (kerned as set in type), not one by one.
    parts = _runs(parts)
    em = p * 0.3
    while True:
        f = font_at(em)
        cap = cap_height(f)
        pad = cap * 0.2
        widths = [text_length(f, text) + (2 * pad if boxed else 0) for text, boxed in parts]
        total = sum(widths)
        if total <= p * 0.86 or f.size <= MIN_FONT_PX:
            break
        em = min(em * 0.94, f.size - 1)
    baseline = p * 0.895
    x = (p - total) / 2
    for (text, boxed), w in zip(parts, widths):
        if boxed:
            fill = rgb(MOBILE_RED if art.mobility == "mobile" else LEG_BLACK)
            draw.rectangle((round(x), round(baseline - cap - pad), round(x + w) - 1, round(baseline + pad) - 1),
                           fill=fill)
            draw.text((x + pad, baseline), text, fill=rgb(PAPER), font=f, anchor="ls")
        else:
            draw.text((x, baseline), text, fill=art.text, font=f, anchor="ls")
        x += w


def _runs(parts: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Texts in order with each stretch of unboxed ones joined into one (a boxed one stands alone)."""
    runs: list[tuple[str, bool]] = []
    for text, boxed in parts:
        if runs and not boxed and not runs[-1][1]:
            runs[-1] = (runs[-1][0] + text, False)
        else:
            runs.append((text, boxed))
    return runs
