"""The NATO unit symbols inside a counter's frame and the unit size above it, drawn as white on a mask."""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from builder.render.counters.face import Rect
from builder.render.ink import cap_height, font_at, smaller, text_length
from wargame.records import frozen

SIZE_GLYPHS: dict[str, str] = {
    # F&M 2.3.1 unit sizes. A combat command is drawn as a regiment: Omaha 11.2.4 calls CCA/2 to
    # CCR/3 mechanized regiments ("CC" stays in the designation).
    "army": "XXXX",
    "corps": "XXX",
    "division": "XX",
    "brigade": "X",
    "combat_command": "III",
    "regiment": "III",
    "battalion": "II",
    "group": "",
}
SIZE_TEXT: dict[str, str] = {"group": "GP"}


@frozen
class Frame:
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


def _cross(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Infantry: corner to corner (the lines overshoot and are clipped to the frame)."""
    dx, dy = b.w * 0.1, b.h * 0.1
    d.line([(b.x0 - dx, b.y0 - dy), (b.x1 + dx, b.y1 + dy)], fill=255, width=round(b.stroke))
    d.line([(b.x0 - dx, b.y1 + dy), (b.x1 + dx, b.y0 - dy)], fill=255, width=round(b.stroke))


def _oval(d: ImageDraw.ImageDraw, b: Frame, rect: Rect | None = None) -> None:
    """Armour: the track oval."""
    x0, y0, x1, y1 = rect or (b.x0 + b.w * 0.17, b.y0 + b.h * 0.25, b.x1 - b.w * 0.17, b.y1 - b.h * 0.25)
    d.rounded_rectangle((x0, y0, x1, y1), radius=(y1 - y0) / 2, outline=255, width=round(b.stroke))


def _airborne(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Airborne: the canopy ('seagull') low in the frame, the cross cut away around it."""
    half = b.w * 0.19
    base = b.y1 - b.h * 0.1
    rise = b.h * 0.24
    for colour, width in ((0, b.stroke * 2.6), (255, b.stroke)):
        for left in (b.cx - half, b.cx):
            d.arc((left, base - rise, left + half, base + rise), 180, 360, fill=colour, width=round(width))


def _parachute(d: ImageDraw.ImageDraw, b: Frame) -> None:
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


def _glider(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Glider: a slender long-winged glider seen from above, low in the frame."""
    span = b.w * 0.3
    wing_y = b.y1 - b.h * 0.3
    chord = b.h * 0.09
    nose, tail = b.y1 - b.h * 0.42, b.y1 - b.h * 0.06
    body = b.stroke * 0.55
    for colour, grow in ((0, b.stroke * 0.8), (255, 0.0)):
        d.polygon([(b.cx - span - grow, wing_y - grow), (b.cx + span + grow, wing_y - grow),
                   (b.cx + span * 0.9 + grow, wing_y + chord + grow),
                   (b.cx - span * 0.9 - grow, wing_y + chord + grow)],
                  fill=colour)
        d.rounded_rectangle((b.cx - body - grow, nose - grow, b.cx + body + grow, tail + grow), radius=body + grow,
                            fill=colour)
        d.rectangle((b.cx - span * 0.3 - grow, tail - chord * 0.8 - grow, b.cx + span * 0.3 + grow, tail + grow),
                    fill=colour)


def _lower_label(d: ImageDraw.ImageDraw, b: Frame, text: str) -> None:
    """A short label low in the cross (volksgrenadier, ranger), the lines cut away around it."""
    f = font_at(b.h * 0.5)
    while text_length(f, text) > b.w * 0.5 and f.size > 6:
        f = smaller(f, 0.92)
    d.text((b.cx, b.y1 - b.stroke * 1.9), text, fill=255, font=f, anchor="ms",
           stroke_width=max(1, round(b.stroke * 0.7)), stroke_fill=0)


def _chevron(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Anti-tank: the inverted V from the bottom corners to the top centre."""
    d.line([(b.x0 - b.w * 0.05, b.y1 + b.h * 0.05), (b.cx, b.y0 + b.stroke * 0.5),
            (b.x1 + b.w * 0.05, b.y1 + b.h * 0.05)], fill=255, width=round(b.stroke), joint="curve")


def _anti_aircraft(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Anti-aircraft: the dome arc from the bottom corners, with wheels for motorized."""
    rise = b.h * 0.62
    d.arc((b.x0, b.y1 - rise, b.x1, b.y1 + rise), 180, 360, fill=255, width=round(b.stroke))
    r = b.h * 0.1
    for x in (b.cx - b.w * 0.14, b.cx + b.w * 0.14):
        y = b.y1 - b.h * 0.24
        d.ellipse((x - r, y - r, x + r, y + r), outline=255, width=max(1, round(b.stroke * 0.75)))


def _track_small(d: ImageDraw.ImageDraw, b: Frame) -> None:
    """Self-propelled: a small track oval at the bottom of the frame."""
    _oval(d, b, (b.cx - b.w * 0.2, b.y1 - b.h * 0.36, b.cx + b.w * 0.2, b.y1 - b.h * 0.1))


SymbolDrawer = Callable[[ImageDraw.ImageDraw, Frame], None]


def _overlay(*parts: SymbolDrawer) -> SymbolDrawer:
    """A symbol made of several marks drawn one over the other."""
    def draw(d: ImageDraw.ImageDraw, b: Frame) -> None:
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


def size_symbol(d: ImageDraw.ImageDraw, size: str, cx: float, cy: float, height: float, stroke: float) -> None:
    """The unit size above the frame: bars (I) and crosses (X), drawn, not typed."""
    glyphs = SIZE_GLYPHS.get(size, "")
    if not glyphs:
        text = SIZE_TEXT.get(size, "")
        if text:
            f = font_at(height * 1.35)
            d.text((cx, cy + cap_height(f) / 2), text, fill=255, font=f, anchor="ms")
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
