"""Marker counters: a side's colours, an icon or a title, the value or flip-side text, and the back of cup markers."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from PIL import Image, ImageDraw

from builder.render.counters.face import SUPERSAMPLE, edge, finish, paint
from builder.render.counters.icons import ICONS, skull
from builder.render.ink import (
    INK, PAPER, RGB, TextDraw, cap_height, draw_lines, fit_lines, font_at, rgb, smaller, text_length,
)
from wargame.game import Game
from wargame.models import Marker
from wargame.records import frozen


def marker_faces(marker: Marker) -> int:
    """How many faces a marker has: two for a supply marker with a flip side (its `text`)."""
    return 2 if marker.kind == "supply" and marker.text else 1


def side_colours(game: Game, side: str | None) -> tuple[RGB, RGB]:
    """Text and background colours of a side's markers: its most common nationality's."""
    if side is None:
        return rgb(INK), rgb(PAPER)
    counts = Counter(u.nationality for _, u in game.units if u.side == side)
    candidates = [n for n in game.manifest.nationality if n.side == side]
    if not candidates:
        return rgb(INK), rgb(PAPER)
    # Ties go to the nationality listed first in game.toml, so the choice is stable.
    chosen = max(candidates, key=lambda n: (counts[n.id], -candidates.index(n)))
    return rgb(chosen.text_colour), rgb(chosen.background_colour)


@frozen
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
        text, background = rgb(INK), rgb(PAPER)
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
    pen = TextDraw(ink)
    stroke = s * 0.026
    if art.icon == "mines":
        _mines_face(pen, art, s, stroke)
    elif art.icon != "none" and art.big:
        ICONS[art.icon](pen, (s * 0.22, s * 0.12, s * 0.78, s * 0.5), stroke)
        f = font_at(s * 0.4)
        while text_length(f, art.big) > s * 0.84 and f.size > 6:
            f = smaller(f, 0.93)
        pen.text((s / 2, s * 0.87), art.big, fill=255, font=f, anchor="ms")
    elif art.icon != "none":
        # No value: the icon above the marker's name.
        ICONS[art.icon](pen, (s * 0.3, s * 0.1, s * 0.7, s * 0.52), stroke)
        title_font, lines = fit_lines(_marker_title(art.title), s * 0.86, s * 0.34, s * 0.19, max_lines=2)
        draw_lines(pen, lines, title_font, s / 2, s * 0.74, 255)
    elif art.big:
        # The title at most two lines of about a fifth of the face (never the ~6 px of a long
        # name squeezed into one line), the value below it.
        title_font, lines = fit_lines(_marker_title(art.title), s * 0.86, s * 0.4, s * 0.2, max_lines=2)
        draw_lines(pen, lines, title_font, s / 2, s * 0.28, 255)
        f = font_at(s * 0.4)
        while text_length(f, art.big) > s * 0.76 and f.size > 6:
            f = smaller(f, 0.93)
        pen.text((s / 2, s * 0.84), art.big, fill=255, font=f, anchor="ms")
    else:
        title_font, lines = fit_lines(art.title.upper(), s * 0.8, s * 0.72, s * 0.2, max_lines=3)
        draw_lines(pen, lines, title_font, s / 2, s / 2, 255)
    paint(canvas, art.text, ink)
    # A thin inner frame tells markers from units at a glance.
    inset = s * 0.055
    draw.rectangle((inset, inset, s - inset, s - inset), outline=art.text, width=max(1, round(s * 0.01)))
    draw.rectangle((0, 0, s - 1, s - 1), outline=edge(art.background), width=max(1, round(s * 0.012)))
    return finish(canvas, art.size_px)


def _mines_face(pen: ImageDraw.ImageDraw, art: _MarkerArt, s: int, stroke: float) -> None:
    """Achtung Minen: the sign's words over a skull and crossbones, the value beside it."""
    f = font_at(s * 0.16)
    while text_length(f, "ACHTUNG!") > s * 0.8 and f.size > 1:
        f = smaller(f, 0.93)
    cap = cap_height(f)
    pen.text((s / 2, s * 0.11 + cap), "ACHTUNG!", fill=255, font=f, anchor="ms")
    pen.text((s / 2, s * 0.11 + cap * 2.45), "MINEN", fill=255, font=f, anchor="ms")
    skull(pen, (s * 0.1, s * 0.46, s * 0.45, s * 0.88), stroke)
    if art.big:
        g = font_at(s * 0.36)
        while text_length(g, art.big) > s * 0.36 and g.size > 6:
            g = smaller(g, 0.93)
        pen.text((s * 0.72, s * 0.86), art.big, fill=255, font=g, anchor="ms")
