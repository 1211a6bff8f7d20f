"""A picture of a position: the module's own board and counters, stacks as VASSAL shows them,
and a scene's marks (a path, a zone, arrows, a note) drawn over them, cropped to what matters.

The scene comes from the kernel (`wargame.scene`); this module only draws it.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from builder.render.board import HEX_NUMBER_SIZE, _wrap as wrap_words, board_layout, render_board
from builder.render.counters import render_marker, render_unit
from builder.render.holding import render_holding_board
from builder.render.style import INK, font
from wargame.errors import GridError, WargameError
from wargame.files import write_atomically
from wargame.game import Game
from wargame.holding import counter_size_px
from wargame.layout import Layout
from wargame.scene import Counter, Crop, Mark, Scene, Stack, Tone, angle_of

Point = tuple[float, float]
RENDER_CODE = Path(__file__).resolve().parent / "render"

TONES: dict[Tone, tuple[int, int, int]] = {
    "breach": (200, 30, 30),
    "legal": (20, 130, 60),
    "attacker": (200, 30, 30),
    "defender": (30, 80, 190),
    "info": (120, 40, 160),
}
"""Mark colours: red for what broke a rule and the attack, green for what was legal."""

STACK_OFFSET = 0.08
"""Each counter of a stack drawn this fraction of a counter up and right of the one below
(VASSAL's stacks are offset the same way, so the picture reads like the module)."""
MAX_DRAWN = 4
"""Counters drawn per stack at most; a badge gives the full count."""


@dataclass(frozen=True)
class Picture:
    """A drawn picture and the board pixels it was cut from (left, top)."""

    image: Image.Image
    origin: tuple[int, int]


def _counter_image(game: Game, counter: Counter, size_px: int) -> Image.Image:
    """The counter's face as the module prints it."""
    if counter.marker:
        marker = game.markers_by_id.get(counter.piece)
        if marker is None:
            raise WargameError(f"unknown marker {counter.piece!r} in the position")
        return render_marker(game, marker, 0, size_px)
    unit = game.units_by_id.get(counter.piece)
    if unit is None:
        raise WargameError(f"unknown unit {counter.piece!r} in the position")
    face = counter.face if unit.reduced is not None else "full"
    return render_unit(game, unit, face, size_px)


def _centre(game: Game, layout: Layout, label: str) -> Point | None:
    """A hex label's centre on the board, None for a box or a label off the map."""
    try:
        return layout.centre(game.grid.hex_of(label))
    except GridError:
        return None


def _draw_stack(board: Image.Image, game: Game, layout: Layout, stack: Stack, size_px: int) -> None:
    """The stack's counters, bottom first, offset as in VASSAL, with a count past MAX_DRAWN."""
    centre = _centre(game, layout, stack.place)
    if centre is None or not stack.counters:
        return
    step = max(2, round(size_px * STACK_OFFSET))
    shown = stack.counters[-MAX_DRAWN:]
    for i, counter in enumerate(shown):
        image = _counter_image(game, counter, size_px)
        x = round(centre[0] - size_px / 2 + i * step)
        y = round(centre[1] - size_px / 2 - i * step)
        board.paste(image, (x, y))
        ImageDraw.Draw(board).rectangle((x, y, x + size_px - 1, y + size_px - 1), outline=INK)


def _draw_count(board: Image.Image, game: Game, layout: Layout, stack: Stack, size_px: int) -> None:
    """A stack's count on its top counter's corner (drawn after every stack, so none hides it)."""
    centre = _centre(game, layout, stack.place)
    if centre is None or len(stack.counters) < 2:
        return
    step = max(2, round(size_px * STACK_OFFSET))
    raised = (min(len(stack.counters), MAX_DRAWN) - 1) * step
    _badge(ImageDraw.Draw(board), (round(centre[0] + size_px / 2 + raised), round(centre[1] - size_px / 2 - raised)),
           str(len(stack.counters)), max(9, size_px // 5))


def _badge(draw: ImageDraw.ImageDraw, xy: Point, text: str, radius: int) -> None:
    """A round count badge centred on a counter's top-right corner."""
    x, y = xy
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=(250, 250, 250), outline=INK, width=2)
    draw.text((x, y), text, fill=INK, font=font(round(radius * 1.2), bold=True), anchor="mm")


def _overlay_mark(overlay: Image.Image, game: Game, layout: Layout, mark: Mark) -> None:
    """One mark onto the translucent overlay."""
    draw = ImageDraw.Draw(overlay)
    colour = TONES[mark.tone]
    points = [p for label in mark.hexes if (p := _centre(game, layout, label)) is not None]
    width = max(3, round(layout.size_px / 8))
    if mark.kind == "shade":
        for label in mark.hexes:
            try:
                corners = layout.corners(game.grid.hex_of(label))
            except GridError:
                continue
            draw.polygon(corners, fill=(*colour, 70), outline=(*colour, 160))
    elif mark.kind == "ring":
        for label in mark.hexes:
            try:
                corners = layout.corners(game.grid.hex_of(label))
            except GridError:
                continue
            draw.line([*corners, corners[0]], fill=(*colour, 230), width=width, joint="curve")
    elif mark.kind == "path" and points:
        draw.line(points, fill=(*colour, 200), width=width, joint="curve")
        r = max(8, round(layout.size_px / 4))
        for n, (x, y) in enumerate(points):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(*colour, 230), outline=(255, 255, 255, 255), width=2)
            draw.text((x, y), str(n), fill=(255, 255, 255, 255), font=font(round(r * 1.2), bold=True), anchor="mm")
    elif mark.kind == "arrow" and len(points) >= 2:
        target = points[-1]
        for source in points[:-1]:
            _arrow(draw, source, target, colour, width, layout.size_px)
    elif mark.kind == "note" and points:
        _note(draw, points[0], points[1:], mark.text, colour, layout.size_px)
    elif mark.kind == "label":
        f = font(max(10, round(layout.size_px / 3)), bold=True)
        for x, y in points:
            # Low in the hex, below a counter's centre, outlined in white to read on any terrain.
            draw.text((x, y + layout.size_px * 0.62), mark.text, fill=(*colour, 255), font=f, anchor="mm",
                      stroke_width=2, stroke_fill=(255, 255, 255, 255))


def _arrow(draw: ImageDraw.ImageDraw, a: Point, b: Point, colour: tuple[int, int, int], width: int,
           size: float) -> None:
    """An arrow from one hex centre toward another, stopping short of both counters."""
    angle = angle_of(a, b)
    dx, dy = math.cos(angle), math.sin(angle)
    start = (a[0] + dx * size * 0.2, a[1] + dy * size * 0.2)
    tip = (b[0] - dx * size * 0.35, b[1] - dy * size * 0.35)
    draw.line([start, tip], fill=(*colour, 230), width=width)
    head = size * 0.35
    left = (tip[0] - head * math.cos(angle - 0.45), tip[1] - head * math.sin(angle - 0.45))
    right = (tip[0] - head * math.cos(angle + 0.45), tip[1] - head * math.sin(angle + 0.45))
    draw.polygon([tip, left, right], fill=(*colour, 240))


def _note(draw: ImageDraw.ImageDraw, at: Point, away_from: Sequence[Point], text: str,
          colour: tuple[int, int, int], size: float) -> None:
    """A boxed text (the odds, a differential) beside a hex, on the side away from `away_from`
    (the attackers, whose counters and arrows it must not hide); above the hex without them."""
    f = font(max(11, round(size / 2.6)), bold=True)
    left, top, right, bottom = draw.multiline_textbbox((0, 0), text, font=f)
    pad = 5
    w, h = right - left + 2 * pad, bottom - top + 2 * pad
    if away_from:
        mx = sum(p[0] for p in away_from) / len(away_from)
        my = sum(p[1] for p in away_from) / len(away_from)
        angle = angle_of((mx, my), at) if (mx, my) != at else -math.pi / 2
    else:
        angle = -math.pi / 2
    # The box's nearest edge sits just outside the hex, along the chosen direction.
    reach = size * 1.05
    cx = at[0] + math.cos(angle) * (reach + w / 2 * abs(math.cos(angle)))
    cy = at[1] + math.sin(angle) * (reach + h / 2 * abs(math.sin(angle)))
    x, y = cx - w / 2, cy - h / 2
    draw.rectangle((x, y, x + w, y + h), fill=(255, 255, 255, 235), outline=(*colour, 255), width=3)
    draw.multiline_text((x + pad - left, y + pad - top), text, fill=(*colour, 255), font=f)


def _bounds(game: Game, layout: Layout, labels: Sequence[str], margin: int,
            size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixel box holding the hexes and `margin` hexes around them, inside the board."""
    xs: list[float] = []
    ys: list[float] = []
    for label in labels:
        for x, y in layout.corners(game.grid.hex_of(label)):
            xs.append(x)
            ys.append(y)
    pad = margin * layout.across_flats_px + layout.size_px * 0.6  # room for a note beside a hex
    left = max(0, math.floor(min(xs) - pad))
    top = max(0, math.floor(min(ys) - pad))
    right = min(size[0], math.ceil(max(xs) + pad))
    bottom = min(size[1], math.ceil(max(ys) + pad))
    return left, top, right, bottom


READABLE_NUMBER_PX = 12
"""The hex numbers' font size in a picture meant for reading (a verdict's): digits about 10 px high."""


def reading_scale(game: Game) -> float:
    """The board scale at which a picture's hex numbers can be read at 100% (font of READABLE_NUMBER_PX at
    least), in steps of 0.05; never below the module's own scale."""
    needed = READABLE_NUMBER_PX / (game.map.layout.hex_size_px * HEX_NUMBER_SIZE)
    return max(1.0, math.ceil(needed * 20) / 20)


def cache_dir() -> Path | None:
    """Where rendered boards are kept between runs: $UMPIRE_CACHE, else $XDG_CACHE_HOME/umpire or
    ~/.cache/umpire; None when UMPIRE_CACHE is empty or there is no home folder (no cache)."""
    chosen = os.environ.get("UMPIRE_CACHE")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "umpire"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None  # no home to keep a cache in
    # A home that does not exist is not ours to create (a service account, HOME=/nonexistent): no cache.
    return home / ".cache" / "umpire" if home.is_dir() else None


def board_key(game: Game, scale: float) -> str:
    """A hash of everything the board's pixels depend on: the game's data files, the drawing code, the scale."""
    digest = hashlib.sha256(f"{game.id}\0{scale!r}\0".encode())
    for name in sorted(game.files):
        # An optional file a game does not have (rules.toml, reinforcements.csv) is hashed as absent.
        path = game.files[name]
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"\1absent") + b"\0")
    for source in sorted(RENDER_CODE.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def cached_board(game: Game, scale: float, where: Path | None) -> Image.Image:
    """The rendered board, from the cache when it holds this data's board, else rendered and kept there."""
    if where is None:
        return render_board(game, scale)
    path = where / "boards" / f"{game.id}-{board_key(game, scale)}.png"
    try:
        with Image.open(path) as kept:
            kept.load()
            return kept.convert("RGB")
    except (OSError, ValueError):
        pass  # not cached yet, or a damaged file: render it again
    board = render_board(game, scale)
    buffer = io.BytesIO()
    board.save(buffer, format="PNG", compress_level=1)
    try:
        write_atomically(path, buffer.getvalue(), force=True)  # our own cache: a damaged file is replaced
    except (OSError, WargameError):
        pass  # a read-only or full cache only costs the next run the rendering
    return board


class Painter:
    """Draws scenes on one game's board, rendered once (and cached on disk) however many are drawn."""

    def __init__(self, game: Game, scale: float = 1.0, cache: Path | None = None) -> None:
        self.game = game
        self.layout = board_layout(game, scale)
        self.board = cached_board(game, scale, cache).convert("RGBA")
        self.counter_px = counter_size_px(self.layout)

    def holding(self, scene: Scene) -> Image.Image:
        """The holding board (the module's boxes and tracks) with the scene's counters in their boxes and
        each track value it gives ringed; track values no track of the game shows are left out."""
        board = render_holding_board(self.game, self.counter_px)
        image = board.image.copy()
        step = max(2, round(self.counter_px * STACK_OFFSET))
        for stack in scene.stacks:
            seat = board.location_of(stack.place)
            if seat is None or self.game.grid.is_label(stack.place):
                continue
            shown = stack.counters[-MAX_DRAWN:]
            for i, counter in enumerate(shown):
                x = round(seat[0] - self.counter_px / 2 + i * step)
                y = round(seat[1] - self.counter_px / 2 - i * step)
                image.paste(_counter_image(self.game, counter, self.counter_px), (x, y))
                ImageDraw.Draw(image).rectangle((x, y, x + self.counter_px - 1, y + self.counter_px - 1), outline=INK)
            if len(stack.counters) > 1:
                raised = (len(shown) - 1) * step
                _badge(ImageDraw.Draw(image), (round(seat[0] + self.counter_px / 2 + raised),
                                               round(seat[1] - self.counter_px / 2 - raised)),
                       str(len(stack.counters)), max(9, self.counter_px // 5))
        draw = ImageDraw.Draw(image)
        for value in scene.tracks:
            for track in self.game.manifest.track:
                if track.kind != value.kind or (track.side is not None and track.side != value.side):
                    continue
                for area in board.layout.spaces:
                    if area.location == f"{track.id}@{value.value}":
                        x0, y0, x1, y1 = area.rect
                        draw.rectangle((x0, y0, x1 - 2, y1 - 2), outline=TONES["info"], width=5)
        return image

    def draw(self, scene: Scene, crop: Crop | None = None, boxes: bool = False) -> Picture:
        """The scene cropped as asked; without a crop, around its marks (the whole board if none)."""
        game, layout = self.game, self.layout
        board = self.board.copy()
        for stack in scene.stacks:
            _draw_stack(board, game, layout, stack, self.counter_px)
        for stack in scene.stacks:
            _draw_count(board, game, layout, stack, self.counter_px)
        overlay = Image.new("RGBA", board.size, (0, 0, 0, 0))
        for mark in scene.marks:
            _overlay_mark(overlay, game, layout, mark)
        board = Image.alpha_composite(board, overlay)
        wanted = crop.labels(game.grid) if crop is not None else \
            [label for mark in scene.marks for label in mark.hexes if game.grid.is_label(label)]
        origin = (0, 0)
        if wanted:
            margin = crop.margin if crop is not None else 2
            left, top, right, bottom = _bounds(game, layout, wanted, margin, board.size)
            board = board.crop((left, top, right, bottom))
            origin = (left, top)
        image = board.convert("RGB")
        if boxes:
            image = _stacked(image, self.holding(scene))
        if scene.caption:
            image = _captioned(image, scene.caption)
        return Picture(image, origin)


def draw_scene(game: Game, scene: Scene, crop: Crop | None = None, scale: float = 1.0,
               cache: Path | None = None, boxes: bool = False) -> Picture:
    """One scene on the game's board, with the holding board below it if `boxes` (see `Painter` for many)."""
    return Painter(game, scale, cache).draw(scene, crop, boxes)


def _stacked(top: Image.Image, bottom: Image.Image) -> Image.Image:
    """One image above the other, left-aligned, on paper."""
    out = Image.new("RGB", (max(top.width, bottom.width), top.height + bottom.height), (251, 248, 239))
    out.paste(top, (0, 0))
    out.paste(bottom, (0, top.height))
    return out


def _captioned(image: Image.Image, caption: str) -> Image.Image:
    """The picture with its caption in a band below it."""
    f = font(14)
    probe = ImageDraw.Draw(image)
    # The board's own word wrap, a paragraph at a time.
    width = max(200, image.width - 16)
    lines = [line for paragraph in caption.splitlines() for line in wrap_words(probe, paragraph, f, width) or [""]]
    line_h = 19
    out = Image.new("RGB", (image.width, image.height + 10 + line_h * len(lines)), (255, 255, 255))
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    for i, line in enumerate(lines):
        draw.text((8, image.height + 5 + i * line_h), line, fill=INK, font=f)
    return out


def write_picture(picture: Picture, path: Path, force: bool = False) -> Path:
    """The picture as a PNG, written atomically (same scene, same bytes); over a file of another kind
    only with `force`."""
    buffer = io.BytesIO()
    picture.image.save(buffer, format="PNG", optimize=False)
    write_atomically(path, buffer.getvalue(), force)
    return path


__all__ = ["Painter", "Picture", "board_key", "cache_dir", "cached_board", "draw_scene", "reading_scale", "write_picture"]
