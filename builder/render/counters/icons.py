"""The icons markers print (aircraft, turret, ship, anchor, artillery, skull), drawn as white on a mask."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

from builder.render.counters.face import Rect


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


def skull(d: ImageDraw.ImageDraw, r: Rect, stroke: float) -> None:
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
    "mines": skull,
}
