"""Unit counters and markers drawn as vectors from the game data, both faces of each.

A unit counter shows what its rule system prints (Onslaught 2.3: symbol and combat-movement;
Fire & Movement 2.3: unit id, type and size symbols, attack-defence-movement, the leg or mobile
box and the no-ZOC hexagon of 6.0) in its nationality's colours. Everything is drawn at four
times the size and scaled down, so lines are smooth at any counter size and the bytes are the
same on every run.
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Literal

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from builder.render.ink import INK, PAPER, font
from wargame.errors import DataError
from wargame.files import write_atomically
from wargame.game import Game
from wargame.holding import COUNTER_ACROSS_FLATS, counter_size_px
from wargame.models import Marker, Unit

RGB = tuple[int, int, int]
Rect = tuple[float, float, float, float]
Face = Literal["full", "reduced"]

SUPERSAMPLE = 3
"""Counters are drawn this many times larger, then scaled down (antialiasing); 3 looks as 4 did at 100%,
in a quarter less time."""

MOBILE_RED = "#c8102e"
LEG_BLACK = "#000000"
ZOC_BLACK = "#000000"


@dataclass(frozen=True)
class CounterStyle:
    """What a rule system prints on a unit counter besides symbol, size and values."""

    designation: bool
    mobility_box: bool
    zoc_mark: bool
    from_note: bool = False
    """The designation is the short historical one read from the unit's note, not its id."""


COUNTER_STYLES: dict[str, CounterStyle] = {
    # Onslaught 2.3: a symbol and two numbers; the printed counters carry no designations. The
    # module's counters add the historical division each stands for (its number, from the unit's
    # note), so that a division a log names is found without hovering over dozens of "4-5"s.
    "onslaught": CounterStyle(designation=True, mobility_box=False, zoc_mark=False, from_note=True),
    # F&M 2.3: unit id and parent formation; movement allowance in a black box (leg) or red box
    # (mobile); 6.0: a black hexagon on units that exert no ZOC.
    "fire-and-movement": CounterStyle(designation=True, mobility_box=True, zoc_mark=True),
}
DEFAULT_STYLE = CounterStyle(designation=True, mobility_box=False, zoc_mark=True)

SIZE_GLYPHS: dict[str, str] = {
    # F&M 2.3.1 unit sizes. A combat command is drawn as a regiment: Omaha 11.2.4 calls CCA/2 to
    # CCR/3 mechanized regiments ("CC" stays in the designation).
    "division": "XX",
    "brigade": "X",
    "combat_command": "III",
    "regiment": "III",
    "battalion": "II",
    "group": "",
}
SIZE_TEXT: dict[str, str] = {"group": "GP"}


# -- names ------------------------------------------------------------------------------------
def image_name(piece_id: str, face: str) -> str:
    """File name of one face of a unit ("full", "reduced") or marker ("face0"...): '/' becomes '_'."""
    # Ids may hold '/', never a path separator in a file or archive name. Ids that differ
    # only by '/' against '_' (or by case) would share a name: write_counters refuses them.
    return f"{piece_id.replace('/', '_')}-{face}.png"


def marker_image_name(marker_id: str, face: int) -> str:
    """File name of one face of a marker (the module builder's "face<N>" naming)."""
    return image_name(marker_id, f"face{face}")


# -- colours ----------------------------------------------------------------------------------
def _rgb(colour: str) -> RGB:
    """An '#rrggbb' or named colour as an RGB triple."""
    r, g, b = ImageColor.getrgb(colour)[:3]
    return (r, g, b)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction t of the way from a to b."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _luminance(c: RGB) -> float:
    """WCAG relative luminance."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def _contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


MIN_CONTRAST = 4.5
"""WCAG's minimum contrast for small text (1.4.3): every text on a counter or marker face."""


def _readable(preferred: RGB, fill: RGB) -> RGB:
    """The preferred colour on a fill, or ink or paper when it would be hard to read there."""
    if _contrast(preferred, fill) >= MIN_CONTRAST:
        return preferred
    ink, paper = _rgb(INK), _rgb(PAPER)
    return ink if _contrast(ink, fill) >= _contrast(paper, fill) else paper


def _edge(background: RGB) -> RGB:
    """The die-cut edge line: the background darkened (lightened on black)."""
    return _mix(background, (255, 255, 255), 0.35) if _luminance(background) < 0.05 else _mix(background, (0, 0, 0), 0.45)


def _band(background: RGB) -> RGB:
    """The lighter band across the top of a reduced face."""
    return _mix(background, (255, 255, 255), 0.7)


# -- drawing helpers --------------------------------------------------------------------------
def _finish(canvas: Image.Image, size_px: int) -> Image.Image:
    """The supersampled canvas scaled down to the counter size."""
    return canvas.resize((size_px, size_px), Image.Resampling.LANCZOS)


def _paint(canvas: Image.Image, colour: RGB, mask: Image.Image) -> None:
    """Lay a colour through a greyscale mask (255 = full colour)."""
    canvas.paste(colour, (0, 0, *canvas.size), mask)


def _clip(mask: Image.Image, rect: Rect) -> Image.Image:
    """The mask with everything outside a rectangle removed."""
    keep = Image.new("L", mask.size, 0)
    ImageDraw.Draw(keep).rectangle(rect, fill=255)
    return ImageChops.multiply(mask, keep)


def _text_font(em: float, bold: bool = True, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The house font at a supersampled em size."""
    return font(max(1, round(em)), bold=bold, condensed=condensed and not bold)


def _smaller(f: ImageFont.FreeTypeFont, factor: float) -> ImageFont.FreeTypeFont:
    """The house font a step smaller: at least one size less, as 7 x 0.93 rounds back to 7 (a shrinking
    loop then never ended: `picture --scale 0.25` on Omaha)."""
    return _text_font(min(f.size - 1, f.size * factor))


def _cap_height(f: ImageFont.FreeTypeFont) -> float:
    """Height of a capital/digit above the baseline."""
    box = f.getbbox("8", anchor="ls")
    return float(-box[1])


def _fit_lines(text: str, max_w: float, max_h: float, em: float, bold: bool = True,
               condensed: bool = False, max_lines: int = 3) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest font (at most em) and word wrapping that fit text in a box."""
    words = text.split()
    size = em
    while True:
        f = _text_font(size, bold, condensed)
        lines: list[str] = []
        for word in words:
            if lines and f.getlength(f"{lines[-1]} {word}") <= max_w:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        line_h = _cap_height(f) * 1.45
        fits = (len(lines) <= max_lines and all(f.getlength(line) <= max_w for line in lines)
                and line_h * (len(lines) - 1) + _cap_height(f) <= max_h)
        if fits or size <= 6:
            return f, lines
        size *= 0.92


def _draw_lines(draw: ImageDraw.ImageDraw, lines: Sequence[str], f: ImageFont.FreeTypeFont,
                cx: float, cy: float, fill: int | RGB) -> None:
    """Lines of text centred as a block on a point (capitals centred, not the em box)."""
    cap = _cap_height(f)
    step = cap * 1.45
    block = step * (len(lines) - 1) + cap
    baseline = cy - block / 2 + cap
    for line in lines:
        draw.text((cx, baseline), line, fill=fill, font=f, anchor="ms")
        baseline += step


# -- unit symbols -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Box:
    """The NATO symbol frame: outer rectangle and stroke width."""

    x0: float
    y0: float
    x1: float
    y1: float
    stroke: float

    @property
    def w(self) -> float:
        """Outer width."""
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        """Outer height."""
        return self.y1 - self.y0

    @property
    def cx(self) -> float:
        """Centre x."""
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        """Centre y."""
        return (self.y0 + self.y1) / 2


def _cross(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Infantry: corner to corner (the lines overshoot and are clipped to the frame)."""
    dx, dy = b.w * 0.1, b.h * 0.1
    d.line([(b.x0 - dx, b.y0 - dy), (b.x1 + dx, b.y1 + dy)], fill=255, width=round(b.stroke))
    d.line([(b.x0 - dx, b.y1 + dy), (b.x1 + dx, b.y0 - dy)], fill=255, width=round(b.stroke))


def _oval(d: ImageDraw.ImageDraw, b: _Box, rect: Rect | None = None) -> None:
    """Armour: the track oval."""
    x0, y0, x1, y1 = rect or (b.x0 + b.w * 0.17, b.y0 + b.h * 0.25, b.x1 - b.w * 0.17, b.y1 - b.h * 0.25)
    d.rounded_rectangle((x0, y0, x1, y1), radius=(y1 - y0) / 2, outline=255, width=round(b.stroke))


def _airborne(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Airborne: the canopy ('seagull') low in the frame, the cross cut away around it."""
    half = b.w * 0.19
    base = b.y1 - b.h * 0.1
    rise = b.h * 0.24
    for colour, width in ((0, b.stroke * 2.6), (255, b.stroke)):
        for left in (b.cx - half, b.cx):
            d.arc((left, base - rise, left + half, base + rise), 180, 360, fill=colour, width=round(width))


def _parachute(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Paratroop: a parachute canopy with its shroud lines."""
    half = b.w * 0.25
    top = b.y0 + b.h * 0.14
    rim = b.y0 + b.h * 0.5
    d.chord((b.cx - half, top, b.cx + half, rim + (rim - top)), 180, 360, fill=255)
    apex = (b.cx, b.y1 - b.h * 0.12)
    stroke = max(1, round(b.stroke * 0.6))
    for k in range(5):
        x = b.cx - half + k * half / 2
        d.line([(x, rim), apex], fill=255, width=stroke)
    d.ellipse((apex[0] - b.stroke, apex[1] - b.stroke, apex[0] + b.stroke, apex[1] + b.stroke), fill=255)


def _glider(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Glider: a slender long-winged glider seen from above, low in the frame."""
    span = b.w * 0.3
    wing_y = b.y1 - b.h * 0.3
    chord = b.h * 0.09
    nose, tail = b.y1 - b.h * 0.42, b.y1 - b.h * 0.06
    body = b.stroke * 0.55
    for colour, grow in ((0, b.stroke * 0.8), (255, 0.0)):
        d.polygon([(b.cx - span - grow, wing_y - grow), (b.cx + span + grow, wing_y - grow),
                   (b.cx + span * 0.9 + grow, wing_y + chord + grow), (b.cx - span * 0.9 - grow, wing_y + chord + grow)],
                  fill=colour)
        d.rounded_rectangle((b.cx - body - grow, nose - grow, b.cx + body + grow, tail + grow), radius=body + grow,
                            fill=colour)
        d.rectangle((b.cx - span * 0.3 - grow, tail - chord * 0.8 - grow, b.cx + span * 0.3 + grow, tail + grow),
                    fill=colour)


def _lower_label(d: ImageDraw.ImageDraw, b: _Box, text: str) -> None:
    """A short label low in the cross (volksgrenadier, ranger), the lines cut away around it."""
    f = _text_font(b.h * 0.5)
    while f.getlength(text) > b.w * 0.5 and f.size > 6:
        f = _smaller(f, 0.92)
    d.text((b.cx, b.y1 - b.stroke * 1.9), text, fill=255, font=f, anchor="ms",
           stroke_width=max(1, round(b.stroke * 0.7)), stroke_fill=0)


def _chevron(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Anti-tank: the inverted V from the bottom corners to the top centre."""
    d.line([(b.x0 - b.w * 0.05, b.y1 + b.h * 0.05), (b.cx, b.y0 + b.stroke * 0.5),
            (b.x1 + b.w * 0.05, b.y1 + b.h * 0.05)], fill=255, width=round(b.stroke), joint="curve")


def _anti_aircraft(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Anti-aircraft: the dome arc from the bottom corners, with wheels for motorized."""
    rise = b.h * 0.62
    d.arc((b.x0, b.y1 - rise, b.x1, b.y1 + rise), 180, 360, fill=255, width=round(b.stroke))
    r = b.h * 0.1
    for x in (b.cx - b.w * 0.14, b.cx + b.w * 0.14):
        y = b.y1 - b.h * 0.24
        d.ellipse((x - r, y - r, x + r, y + r), outline=255, width=max(1, round(b.stroke * 0.75)))


def _track_small(d: ImageDraw.ImageDraw, b: _Box) -> None:
    """Self-propelled: a small track oval at the bottom of the frame."""
    _oval(d, b, (b.cx - b.w * 0.2, b.y1 - b.h * 0.36, b.cx + b.w * 0.2, b.y1 - b.h * 0.1))


SymbolDrawer = Callable[[ImageDraw.ImageDraw, _Box], None]


def _overlay(*parts: SymbolDrawer) -> SymbolDrawer:
    """A symbol made of several marks drawn one over the other."""
    def draw(d: ImageDraw.ImageDraw, b: _Box) -> None:
        for part in parts:
            part(d, b)
    return draw


def _label(text: str) -> SymbolDrawer:
    """The mark of a lettered symbol."""
    return lambda d, b: _lower_label(d, b, text)


SYMBOLS: dict[str, SymbolDrawer] = {
    # One drawer per UnitType.symbol (Onslaught 2.3; F&M 10.3).
    "infantry": _cross,
    "armor": _oval,
    # Onslaught's paratroop divisions: the NATO airborne infantry symbol (infantry cross and
    # the canopy arc), as F&M's parachute infantry.
    "paratroop": _overlay(_cross, _airborne),
    "volksgrenadier": _overlay(_cross, _label("VG")),
    "mechanized": _overlay(_cross, _oval),
    "antitank": _overlay(_chevron, _track_small),
    "antiaircraft": _anti_aircraft,
    "ranger": _overlay(_cross, _label("RGR")),
    "glider": _overlay(_cross, _glider),
    "parachute_infantry": _overlay(_cross, _airborne),
}


def _size_symbol(d: ImageDraw.ImageDraw, size: str, cx: float, cy: float, height: float, stroke: float) -> None:
    """The unit size above the frame: bars (I) and crosses (X), drawn, not typed."""
    glyphs = SIZE_GLYPHS.get(size, "")
    if not glyphs:
        text = SIZE_TEXT.get(size, "")
        if text:
            f = _text_font(height * 1.35)
            d.text((cx, cy + _cap_height(f) / 2), text, fill=255, font=f, anchor="ms")
        return
    x_w = height * 0.95
    gap = height * 0.34
    widths = [x_w if g == "X" else stroke for g in glyphs]
    x = cx - (sum(widths) + gap * (len(glyphs) - 1)) / 2
    top, bottom = cy - height / 2, cy + height / 2
    for glyph, w in zip(glyphs, widths):
        if glyph == "X":
            d.line([(x, top), (x + w, bottom)], fill=255, width=round(stroke))
            d.line([(x, bottom), (x + w, top)], fill=255, width=round(stroke))
        else:
            d.rectangle((x, top, x + w, bottom), fill=255)
        x += w + gap


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon."""
    return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]


# -- units ------------------------------------------------------------------------------------
@dataclass(frozen=True)
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


def counter_style(game: Game) -> CounterStyle:
    """What the game's rule system prints on its unit counters."""
    return COUNTER_STYLES.get(game.manifest.series_id, DEFAULT_STYLE)


def render_unit(game: Game, unit: Unit, face: Face, size_px: int = 75) -> Image.Image:
    """One face of a unit counter: a square RGB image size_px wide."""
    if face not in ("full", "reduced"):
        raise ValueError(f"unit {unit.id}: face must be 'full' or 'reduced', not {face!r}")
    if face == "reduced" and unit.reduced is None:
        raise ValueError(f"unit {unit.id} has one step: it has no reduced face")
    nationality = {n.id: n for n in game.manifest.nationality}.get(unit.nationality)
    unit_type = {t.id: t for t in game.manifest.unit_type}.get(unit.type)
    if nationality is None or unit_type is None:
        raise DataError(f"unit {unit.id}: nationality {unit.nationality!r} or type {unit.type!r} is not in game.toml")
    style = counter_style(game)
    names = game.manifest.value_names
    values = unit.full if face == "full" else (unit.reduced or ())
    art = _UnitArt(
        symbol=unit_type.symbol,
        size=unit.size,
        values=tuple(values),
        boxed_value=names.index("movement") if style.mobility_box and "movement" in names else None,
        mobility=unit.mobility,
        text=_rgb(nationality.text_colour),
        background=_rgb(nationality.background_colour),
        reduced=face == "reduced",
        designation=(short_designation(unit) if style.from_note else unit.id) if style.designation else "",
        no_zoc=style.zoc_mark and not unit.zoc,
        size_px=size_px,
    )
    return _draw_unit(art).copy()


@lru_cache(maxsize=1024)
def _draw_unit(art: _UnitArt) -> Image.Image:
    """Draw a unit face (cached: Onslaught's identical counters are drawn once)."""
    s = art.size_px * SUPERSAMPLE
    canvas = Image.new("RGB", (s, s), art.background)
    draw = ImageDraw.Draw(canvas)
    stroke = s * 0.026
    # Without a designation the top row is only the reduced band, and the symbol grows into it.
    top_h = s * (0.2 if art.designation else 0.13)
    if art.reduced:
        # The depleted face: a light band across the top, as printed on many two-step counters.
        draw.rectangle((0, 0, s, top_h), fill=_band(art.background))
    size_cy = top_h + s * 0.065
    box_w, box_h = (0.52, 0.31) if art.designation else (0.56, 0.34)
    box_y0 = size_cy + s * 0.07
    box = _Box(s * (0.5 - box_w / 2), box_y0, s * (0.5 + box_w / 2), box_y0 + s * box_h, stroke)
    symbol = Image.new("L", (s, s), 0)
    SYMBOLS[art.symbol](ImageDraw.Draw(symbol), box)
    ink = _clip(symbol, (box.x0, box.y0, box.x1, box.y1))
    pen = ImageDraw.Draw(ink)
    pen.rectangle((box.x0, box.y0, box.x1, box.y1), outline=255, width=round(stroke))
    _size_symbol(pen, art.size, box.cx, size_cy, s * 0.095, stroke * 1.1)
    _paint(canvas, art.text, ink)

    if art.designation:
        room = s * (0.74 if art.no_zoc else 0.88)
        f = _text_font(s * 0.17, bold=True)
        while f.getlength(art.designation) > room and f.size > 6:
            f = _smaller(f, 0.93)
        fill = _readable(art.text, _band(art.background) if art.reduced else art.background)
        draw.text((s * 0.06, (top_h + _cap_height(f)) / 2 + s * 0.005), art.designation, fill=fill, font=f,
                  anchor="ls")
    if art.no_zoc:
        # F&M 6.0: a black hexagon marks a unit that exerts no ZOC.
        draw.polygon(_hexagon(s * 0.87, top_h / 2 + s * 0.005, s * 0.072), fill=_rgb(ZOC_BLACK))
    _draw_values(draw, art, s)
    draw.rectangle((0, 0, s - 1, s - 1), outline=_edge(art.background), width=max(1, round(s * 0.012)))
    return _finish(canvas, art.size_px)


def _draw_values(draw: ImageDraw.ImageDraw, art: _UnitArt, s: int) -> None:
    """The values along the bottom, movement boxed in F&M (black: leg, red: mobile)."""
    parts: list[tuple[str, bool]] = []
    for i, value in enumerate(art.values):
        if i:
            parts.append(("-", False))
        parts.append((str(value), i == art.boxed_value))
    em = s * 0.3
    while True:
        f = _text_font(em)
        cap = _cap_height(f)
        pad = cap * 0.2
        widths = [f.getlength(text) + (2 * pad if boxed else 0) for text, boxed in parts]
        total = sum(widths)
        if total <= s * 0.86 or em < 8:
            break
        em *= 0.94
    baseline = s * 0.895
    x = (s - total) / 2
    for (text, boxed), w in zip(parts, widths):
        if boxed:
            fill = _rgb(MOBILE_RED if art.mobility == "mobile" else LEG_BLACK)
            draw.rectangle((x, baseline - cap - pad, x + w, baseline + pad), fill=fill)
            draw.text((x + pad, baseline), text, fill=_rgb(PAPER), font=f, anchor="ls")
        else:
            draw.text((x, baseline), text, fill=art.text, font=f, anchor="ls")
        x += w


# -- markers ----------------------------------------------------------------------------------
def marker_faces(marker: Marker) -> int:
    """How many faces a marker has: two for a supply marker with a flip side (its `text`)."""
    return 2 if marker.kind == "supply" and marker.text else 1


def side_colours(game: Game, side: str | None) -> tuple[RGB, RGB]:
    """Text and background colours of a side's markers: its most common nationality's."""
    if side is None:
        return _rgb(INK), _rgb(PAPER)
    counts = Counter(u.nationality for _, u in game.units if u.side == side)
    candidates = [n for n in game.manifest.nationality if n.side == side]
    if not candidates:
        return _rgb(INK), _rgb(PAPER)
    # Ties go to the nationality listed first in game.toml, so the choice is stable.
    chosen = max(candidates, key=lambda n: (counts[n.id], -candidates.index(n)))
    return _rgb(chosen.text_colour), _rgb(chosen.background_colour)


@dataclass(frozen=True)
class _MarkerArt:
    """Everything that decides how one marker face looks (the render cache key)."""

    kind: str
    title: str
    big: str
    icon: str
    text: RGB
    background: RGB
    size_px: int


def render_marker(game: Game, marker: Marker, face: int = 0, size_px: int = 75) -> Image.Image:
    """One face of a marker counter: a square RGB image size_px wide."""
    if not 0 <= face < marker_faces(marker):
        raise ValueError(f"marker {marker.id} has {marker_faces(marker)} face(s): no face {face}")
    text, background = side_colours(game, marker.side)
    if marker.kind == "turn":
        text, background = _rgb(INK), _rgb(PAPER)
    value = "" if marker.value is None else f"+{marker.value}"
    big = marker.text if face == 1 else value
    icon: str = marker.icon
    if marker.kind == "support_fire" and icon == "none":
        icon = "artillery"   # F&M 2.3: every support fire marker shows a type symbol
    if marker.kind == "naval_gunfire" and icon == "none":
        icon = "turret"
    if marker.kind == "mines" and icon == "none":
        icon = "mines"
    if marker.kind == "beachhead" and icon == "none":
        icon = "anchor"
    art = _MarkerArt(marker.kind, marker.name, big, icon, text, background, size_px)
    return _draw_marker(art).copy()


def marker_back(game: Game, side: str | None, size_px: int = 75) -> Image.Image:
    """The back of a side's markers drawn unseen from a cup: the side's colours, its name and a '?'."""
    text, background = side_colours(game, side)
    art = _MarkerArt("back", (side or "marker").upper(), "?", "none", text, background, size_px)
    return _draw_marker(art).copy()


def _marker_title(title: str) -> str:
    """A marker's title as printed: in capitals."""
    return title.upper()


@lru_cache(maxsize=256)
def _draw_marker(art: _MarkerArt) -> Image.Image:
    """Draw a marker face."""
    s = art.size_px * SUPERSAMPLE
    canvas = Image.new("RGB", (s, s), art.background)
    draw = ImageDraw.Draw(canvas)
    ink = Image.new("L", (s, s), 0)
    pen = ImageDraw.Draw(ink)
    stroke = s * 0.026
    if art.icon == "mines":
        _mines_face(pen, art, s, stroke)
    elif art.icon != "none" and art.big:
        ICONS[art.icon](pen, (s * 0.22, s * 0.12, s * 0.78, s * 0.5), stroke)
        f = _text_font(s * 0.4)
        while f.getlength(art.big) > s * 0.84 and f.size > 6:
            f = _smaller(f, 0.93)
        pen.text((s / 2, s * 0.87), art.big, fill=255, font=f, anchor="ms")
    elif art.icon != "none":
        # No value: the icon above the marker's name.
        ICONS[art.icon](pen, (s * 0.3, s * 0.1, s * 0.7, s * 0.52), stroke)
        title_font, lines = _fit_lines(_marker_title(art.title), s * 0.86, s * 0.34, s * 0.19, max_lines=2)
        _draw_lines(pen, lines, title_font, s / 2, s * 0.74, 255)
    elif art.big:
        # The title at most two lines of about a fifth of the face (never the ~6 px of a long
        # name squeezed into one line), the value below it.
        title_font, lines = _fit_lines(_marker_title(art.title), s * 0.86, s * 0.4, s * 0.2, max_lines=2)
        _draw_lines(pen, lines, title_font, s / 2, s * 0.28, 255)
        f = _text_font(s * 0.4)
        while f.getlength(art.big) > s * 0.76 and f.size > 6:
            f = _smaller(f, 0.93)
        pen.text((s / 2, s * 0.84), art.big, fill=255, font=f, anchor="ms")
    else:
        title_font, lines = _fit_lines(art.title.upper(), s * 0.8, s * 0.72, s * 0.2, max_lines=3)
        _draw_lines(pen, lines, title_font, s / 2, s / 2, 255)
    _paint(canvas, art.text, ink)
    # A thin inner frame tells markers from units at a glance.
    inset = s * 0.055
    draw.rectangle((inset, inset, s - inset, s - inset), outline=art.text, width=max(1, round(s * 0.01)))
    draw.rectangle((0, 0, s - 1, s - 1), outline=_edge(art.background), width=max(1, round(s * 0.012)))
    return _finish(canvas, art.size_px)


def _mines_face(pen: ImageDraw.ImageDraw, art: _MarkerArt, s: int, stroke: float) -> None:
    """Achtung Minen: the sign's words over a skull and crossbones, the value beside it."""
    f = _text_font(s * 0.16)
    while f.getlength("ACHTUNG!") > s * 0.8 and f.size > 1:
        f = _smaller(f, 0.93)
    cap = _cap_height(f)
    pen.text((s / 2, s * 0.11 + cap), "ACHTUNG!", fill=255, font=f, anchor="ms")
    pen.text((s / 2, s * 0.11 + cap * 2.45), "MINEN", fill=255, font=f, anchor="ms")
    _skull(pen, (s * 0.1, s * 0.46, s * 0.45, s * 0.88), stroke)
    if art.big:
        g = _text_font(s * 0.36)
        while g.getlength(art.big) > s * 0.36 and g.size > 6:
            g = _smaller(g, 0.93)
        pen.text((s * 0.72, s * 0.86), art.big, fill=255, font=g, anchor="ms")


# -- marker icons -----------------------------------------------------------------------------
def _aircraft(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """A fighter-bomber seen from above, nose up."""
    x0, y0, x1, y1 = r
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    fw = w * 0.075
    d.rounded_rectangle((cx - fw, y0, cx + fw, y1), radius=fw, fill=255)
    wing_y = y0 + h * 0.34
    d.polygon([(cx - fw, wing_y), (x0, wing_y + h * 0.12), (x0, wing_y + h * 0.24), (cx - fw, wing_y + h * 0.26),
               (cx + fw, wing_y + h * 0.26), (x1, wing_y + h * 0.24), (x1, wing_y + h * 0.12), (cx + fw, wing_y)],
              fill=255)
    tail_y = y0 + h * 0.8
    tw = w * 0.22
    d.polygon([(cx - fw, tail_y), (cx - tw, tail_y + h * 0.1), (cx - tw, tail_y + h * 0.17),
               (cx + tw, tail_y + h * 0.17), (cx + tw, tail_y + h * 0.1), (cx + fw, tail_y)], fill=255)
    # Propeller disc at the nose.
    d.line([(cx - w * 0.14, y0 + h * 0.02), (cx + w * 0.14, y0 + h * 0.02)], fill=255, width=round(stroke * 0.8))


def _turret(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """A naval gun turret in profile, guns trained to the right on a deck."""
    x0, y0, x1, y1 = r
    w, h = x1 - x0, y1 - y0
    deck = y1 - h * 0.12
    d.rectangle((x0, deck, x1, y1), fill=255)
    d.polygon([(x0 + w * 0.05, deck), (x0 + w * 0.1, y0 + h * 0.32), (x0 + w * 0.22, y0 + h * 0.2),
               (x0 + w * 0.52, y0 + h * 0.2), (x0 + w * 0.6, deck)], fill=255)
    gun = round(h * 0.1)
    for k, start in enumerate((0.36, 0.58)):
        ys = y0 + h * start
        d.line([(x0 + w * 0.5, ys), (x1, ys - h * (0.22 - 0.02 * k))], fill=255, width=gun)
    del stroke


def _ship(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """A warship in profile."""
    x0, y0, x1, y1 = r
    w, h = x1 - x0, y1 - y0
    d.polygon([(x0, y0 + h * 0.6), (x1, y0 + h * 0.6), (x1 - w * 0.1, y1), (x0 + w * 0.06, y1)], fill=255)
    d.rectangle((x0 + w * 0.3, y0 + h * 0.35, x0 + w * 0.62, y0 + h * 0.6), fill=255)
    d.rectangle((x0 + w * 0.4, y0 + h * 0.12, x0 + w * 0.5, y0 + h * 0.35), fill=255)
    d.line([(x0 + w * 0.62, y0 + h * 0.5), (x1 - w * 0.05, y0 + h * 0.42)], fill=255, width=round(stroke))


def _anchor(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """An anchor (beachheads: where troops and supply come ashore)."""
    x0, y0, x1, y1 = r
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    width = round(stroke * 1.1)
    ring = h * 0.1
    d.ellipse((cx - ring, y0, cx + ring, y0 + 2 * ring), outline=255, width=width)
    d.line([(cx, y0 + 2 * ring), (cx, y1)], fill=255, width=width)
    d.line([(cx - w * 0.2, y0 + h * 0.34), (cx + w * 0.2, y0 + h * 0.34)], fill=255, width=width)
    arm = min(w * 0.36, h * 0.62)
    d.arc((cx - arm, y1 - 2 * arm, cx + arm, y1), 20, 160, fill=255, width=width)
    for sx in (-1, 1):
        tip_x = cx + sx * arm * math.cos(math.radians(20))
        tip_y = y1 - arm + arm * math.sin(math.radians(20))
        d.polygon([(tip_x + sx * h * 0.07, tip_y - h * 0.14), (tip_x - sx * h * 0.09, tip_y - h * 0.02),
                   (tip_x + sx * h * 0.03, tip_y + h * 0.05)], fill=255)


def _artillery(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """Support fire without another icon: the NATO artillery symbol (a dot in a frame)."""
    x0, y0, x1, y1 = r
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = min(x1 - x0, (y1 - y0) * 1.5)
    h = w / 1.5
    d.rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), outline=255, width=round(stroke))
    dot = h * 0.22
    d.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=255)


def _skull(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
    """A skull over crossed bones (the German minefield sign)."""
    x0, y0, x1, y1 = r
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    bone = round(stroke * 1.2)
    knob = stroke * 0.85
    for (ax, ay), (bx, by) in (((x0, y0 + h * 0.5), (x1, y1)), ((x1, y0 + h * 0.5), (x0, y1))):
        d.line([(ax, ay), (bx, by)], fill=255, width=bone)
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length * knob, (bx - ax) / length * knob
        for px, py in ((ax, ay), (bx, by)):
            # Each bone end is two knuckles either side of the shaft.
            for sign in (-1, 1):
                kx, ky = px + sign * nx, py + sign * ny
                d.ellipse((kx - knob, ky - knob, kx + knob, ky + knob), fill=255)
    # Cut a gap around the skull so it stands clear of the bones.
    gap = stroke * 0.8
    d.ellipse((cx - w * 0.3 - gap, y0 - gap, cx + w * 0.3 + gap, y0 + h * 0.66 + gap), fill=0)
    d.rectangle((cx - w * 0.17 - gap, y0 + h * 0.4, cx + w * 0.17 + gap, y0 + h * 0.82 + gap), fill=0)
    d.ellipse((cx - w * 0.3, y0, cx + w * 0.3, y0 + h * 0.66), fill=255)
    d.rounded_rectangle((cx - w * 0.17, y0 + h * 0.45, cx + w * 0.17, y0 + h * 0.82), radius=w * 0.05, fill=255)
    eye = w * 0.09
    for ex in (cx - w * 0.12, cx + w * 0.12):
        d.ellipse((ex - eye, y0 + h * 0.3 - eye, ex + eye, y0 + h * 0.3 + eye * 1.2), fill=0)
    d.polygon([(cx, y0 + h * 0.47), (cx - w * 0.04, y0 + h * 0.57), (cx + w * 0.04, y0 + h * 0.57)], fill=0)
    for tx in (cx - w * 0.07, cx, cx + w * 0.07):
        d.line([(tx, y0 + h * 0.66), (tx, y0 + h * 0.82)], fill=0, width=max(1, round(stroke * 0.45)))


ICONS: dict[str, Callable[[ImageDraw.ImageDraw, Rect, float], None]] = {
    "aircraft": _aircraft,
    "turret": _turret,
    "ship": _ship,
    "artillery": _artillery,
    "anchor": _anchor,
    "mines": _skull,
}


# -- files ------------------------------------------------------------------------------------
def _png(image: Image.Image) -> bytes:
    """PNG bytes without metadata (identical on every run)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def counter_images(game: Game) -> list[tuple[str, str, Callable[[int], Image.Image]]]:
    """Every counter face of a game: (file name, piece id, renderer by size), units then markers."""
    faces: list[tuple[str, str, Callable[[int], Image.Image]]] = []
    for _, unit in game.units:
        unit_faces: tuple[Face, ...] = ("full", "reduced") if unit.reduced is not None else ("full",)
        for face in unit_faces:
            faces.append((image_name(unit.id, face), unit.id, partial(render_unit, game, unit, face)))
    for marker in game.markers.marker:
        for n in range(marker_faces(marker)):
            faces.append((marker_image_name(marker.id, n), marker.id, partial(render_marker, game, marker, n)))
    return faces


def write_counters(game: Game, out_dir: Path, size_px: int = 75) -> list[Path]:
    """Write every face of every unit and marker as PNG files; the paths written, in order."""
    faces = counter_images(game)
    seen: dict[str, str] = {}
    for name, piece_id, _ in faces:
        # Case too: a module unpacked on a case-insensitive disk must not lose a picture.
        other = seen.setdefault(name.casefold(), piece_id)
        if other != piece_id:
            raise DataError(f"{game.id}: pieces {other!r} and {piece_id!r} would share the image {name}")
    paths: list[Path] = []
    for name, _, draw in faces:
        path = out_dir / name
        write_atomically(path, _png(draw(size_px)))
        paths.append(path)
    return paths


__all__ = [
    "COUNTER_ACROSS_FLATS", "COUNTER_STYLES", "CounterStyle", "counter_images", "counter_size_px", "counter_style",
    "image_name", "marker_back", "marker_faces",
    "marker_image_name", "render_marker", "render_unit", "side_colours", "write_counters",
]
