"""A picture of a position: the module's own board and counters, stacks as VASSAL shows them,
and a scene's marks (a path, a zone, arrows, a note) drawn over them, cropped to what matters.

The scene comes from the kernel (`wargame.scene`); this module only draws it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from builder.render.board import (
    HEX_NUMBER_DY, HEX_NUMBER_SIZE, board_image_size, board_layout, hex_number_px, render_board,
)
from builder.render.counters import render_marker, render_unit
from builder.render.ink import INK, PAPER, font, rgb, text_length, wrap_words
from builder.render.png import png_bytes
from builder.render.window import Offset, ShiftedDraw
from wargame.errors import GridError, WargameError
from wargame.files import write_atomically
from wargame.game import Game
from wargame.gamecache import cache_dir  # where rendered boards are kept too
from wargame.holding import counter_size_px
from wargame.layout import Layout
from wargame.records import frozen
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


@frozen
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


Box = tuple[float, float, float, float]
Box4 = tuple[int, int, int, int]
"""A box of whole pixels on the board: left, top, right, bottom."""
TAG_GAP_PX = 2
"""Clear pixels between a hex's tag and the counters and badges beside and below it."""


@frozen
class _Seat:
    """Where a stack on the map is drawn: its bottom counter's top-left, the step up and right to each
    counter above it, how many are drawn, and the box of its hex's number as the board prints it."""

    stack: Stack
    centre: Point
    corner: tuple[int, int]
    size_px: int
    step: int
    shown: int
    number: Box

    @property
    def box(self) -> Box:
        """The pixels its counters cover, bottom to top counter."""
        raised = (self.shown - 1) * self.step
        x, y = self.corner
        return x, y - raised, x + self.size_px + raised, y + self.size_px

    @property
    def badge(self) -> tuple[int, int, int] | None:
        """The count badge's centre and radius, on the top counter's top-right corner; None for one counter."""
        if len(self.stack.counters) < 2:
            return None
        x0, y0, x1, _ = self.box
        return round(x1), round(y0), max(9, self.size_px // 5)


def _number_font(layout: Layout) -> ImageFont.FreeTypeFont:
    """The board's hex number font, for the tags that print a hex's number again above its counters."""
    return font(hex_number_px(layout.size_px), condensed=True)


def _halo_px(layout: Layout) -> int:
    """The margin around a hex number's digits: the board's halo, and the tag's padding."""
    return max(1, round(layout.size_px * 0.05))


def _seat(game: Game, layout: Layout, stack: Stack, size_px: int) -> _Seat | None:
    """Where a stack is drawn: centred across its hex, and low enough that its top counter leaves the
    hex number printed above it readable (centred, the counter would hide it); None off the map."""
    centre = _centre(game, layout, stack.place)
    if centre is None or not stack.counters:
        return None
    step = max(2, round(size_px * STACK_OFFSET))
    shown = min(len(stack.counters), MAX_DRAWN)
    x, y = centre[0], centre[1] + HEX_NUMBER_DY[layout.matrix] * layout.size_px
    halo = _halo_px(layout)
    left, top, right, bottom = _number_font(layout).getbbox(stack.place, anchor="mm")
    number = (x + left - halo, y + top - halo, x + right + halo, y + bottom + halo)
    corner_y = max(round(centre[1] - size_px / 2), math.ceil(number[3]) + TAG_GAP_PX + (shown - 1) * step)
    return _Seat(stack, centre, (round(centre[0] - size_px / 2), corner_y), size_px, step, shown, number)


def _draw_stack(board: Image.Image, origin: Offset, game: Game, seat: _Seat, shown: Box) -> None:
    """The stack's counters, bottom first, offset as in VASSAL (`board` the part of the board at `origin`); a
    counter wholly outside the part `shown` in the picture is not drawn (nor its art made)."""
    x0, y0 = seat.corner
    draw = ShiftedDraw(board, origin)
    for i, counter in enumerate(seat.stack.counters[-MAX_DRAWN:]):
        x, y = x0 + i * seat.step, y0 - i * seat.step
        if x + seat.size_px < shown[0] or x > shown[2] or y + seat.size_px < shown[1] or y > shown[3]:
            continue
        board.paste(_counter_image(game, counter, seat.size_px), (x - origin[0], y - origin[1]))
        draw.rectangle((x, y, x + seat.size_px - 1, y + seat.size_px - 1), outline=INK)


def _meets(a: Box, b: Box4) -> bool:
    """True when two boxes share a pixel or touch."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _badge_box(badge: tuple[int, int, int]) -> Box:
    """What a count badge may ink: its circle and outline, and a pixel more."""
    x, y, radius = badge
    return x - radius - 3, y - radius - 3, x + radius + 3, y + radius + 3


def _tag_may_reach(seat: _Seat, layout: Layout, box: Box4) -> bool:
    """False for a hex's tag that cannot reach a box (a picture's crop), worked out before measuring it: a tag spans
    its hex's number's rows, and lies between the limits it starts from (1.5 hexes either side of the hex) or over
    the number itself; a hex more on each side covers what ink spreads past an advance, and a row of the number's
    height above and below what a name's accents and descenders reach past the number's own glyphs."""
    x0, y0, x1, y1 = seat.number
    reach = layout.size_px * 1.5
    left = min(seat.centre[0] - reach, x0) - layout.size_px
    right = max(seat.centre[0] + reach, x1) + layout.size_px
    rows = y1 - y0 + 2
    return _meets((left, y0 - rows, right, y1 + rows), box)


def _draw_count(board: Image.Image, origin: Offset, seat: _Seat) -> None:
    """A stack's count past one on its top counter's corner (drawn after every stack and tag, so none hides it)."""
    if seat.badge is not None:
        x, y, radius = seat.badge
        _badge(ShiftedDraw(board, origin), (x, y), str(len(seat.stack.counters)), radius)


def _place_names(game: Game) -> dict[str, str]:
    """Each named hex's place names (a town, a beach), as a tag prints them."""
    names: dict[str, list[str]] = {}
    for _, place in game.places:
        names.setdefault(place.hex, []).append(place.name)
    return {label: " / ".join(sorted(set(found))) for label, found in names.items()}


def _draw_tag(board: Image.Image, origin: Offset, layout: Layout, seat: _Seat, name: str,
              others: Sequence[Box]) -> Box:
    """An occupied hex's number, and its place's name, on a plate where the board prints the number (its
    counters would hide the name, and every other stack may reach over the number): as wide as the counters
    and badges beside it leave, the name shortened with an ellipsis when it does not fit. Returns its box."""
    f = _number_font(layout)
    x0, y0, x1, y1 = seat.number
    # Only what crosses the tag's band limits it, on either side of the hex's centre.
    limit_left, limit_right = seat.centre[0] - layout.size_px * 1.5, seat.centre[0] + layout.size_px * 1.5
    for left, top, right, bottom in others:
        if bottom <= y0 or top >= y1:
            continue
        if right <= seat.centre[0]:
            limit_left = max(limit_left, right + TAG_GAP_PX)
        elif left >= seat.centre[0]:
            limit_right = min(limit_right, left - TAG_GAP_PX)
    pad = _halo_px(layout)
    text = seat.stack.place
    if name.startswith(text):
        name = name[len(text):].strip()  # a place named after its hex ("0307 town") is not numbered twice
    for cut in range(len(name), -1, -1):
        shown = name if cut == len(name) else name[:cut].rstrip(" /-") + "…"
        candidate = f"{seat.stack.place} {shown}" if cut >= min(3, len(name)) and cut else seat.stack.place
        width = text_length(f, candidate) + 2 * pad
        if width <= limit_right - limit_left or not cut:
            text = candidate
            break
    left, top, right, bottom = f.getbbox(text, anchor="lm")
    width = right - left + 2 * pad
    # Centred over the hex's own number when there is room, else slid toward the free side.
    start = min(max(seat.centre[0] - width / 2, limit_left), limit_right - width)
    if text == seat.stack.place:
        start = x0  # the number alone stays exactly where the board prints it
    box = (start, y0, start + width, y1)
    draw = ShiftedDraw(board, origin)
    draw.rounded_rectangle(box, radius=max(2, round(pad)), fill=PAPER, outline=INK, width=1)
    draw.text((start + pad - left, (y0 + y1) / 2), text, fill=INK, font=f, anchor="lm")
    return box


def _badge(draw: ImageDraw.ImageDraw, xy: Point, text: str, radius: int) -> None:
    """A round count badge centred on a counter's top-right corner."""
    x, y = xy
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=(250, 250, 250), outline=INK, width=2)
    draw.text((x, y), text, fill=INK, font=font(round(radius * 1.2), bold=True), anchor="mm")


def _overlay_mark(overlay: Image.Image, origin: Offset, game: Game, layout: Layout, mark: Mark) -> None:
    """One mark onto the translucent overlay (the part of the board at `origin`)."""
    draw = ShiftedDraw(overlay, origin)
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


def kept_board(game: Game, scale: float, where: Path | None) -> Image.Image | None:
    """The rendered board when the cache holds this data's board, else None."""
    if where is None:
        return None
    path = where / "boards" / f"{game.id}-{board_key(game, scale)}.png"
    try:
        with Image.open(path) as kept:
            kept.load()
            return kept.convert("RGB")
    except (OSError, ValueError):
        return None  # not cached yet, or a damaged file: render it again


def cached_board(game: Game, scale: float, where: Path | None) -> Image.Image:
    """The rendered board, from the cache when it holds this data's board, else rendered and kept there."""
    kept = kept_board(game, scale, where)
    if kept is not None:
        return kept
    board = render_board(game, scale)
    if where is None:
        return board
    path = where / "boards" / f"{game.id}-{board_key(game, scale)}.png"
    try:
        # Our own cache: a damaged file is replaced.
        write_atomically(path, png_bytes(board, compress_level=1), force=True)
    except (OSError, WargameError):
        pass  # a read-only or full cache only costs the next run the rendering
    return board


WINDOW_REACH = 2.0
"""Hexes of board drawn above and left of a picture's crop and cut off after: Pillow rounds a negative coordinate
toward zero, so a counter, tag or mark reaching into the crop from there must have none (as on the whole board)."""

WINDOWS_BEFORE_WHOLE = 6
"""Windows one painter draws before it draws the whole board once and cuts the rest from it: each window repeats
the board-wide work (place names set clear of each other), so about ten windows cost what the whole board costs
(bench/README.md); a verdict with many findings' pictures then pays the whole board once, not once a picture."""


class Painter:
    """Draws scenes on one game's board: a cropped picture on the part of the board it shows, drawn for it
    (or cut from the whole board when this painter or the disk cache already holds it); a picture of the
    whole board on the whole board, rendered once (and cached on disk) however many are drawn."""

    def __init__(self, game: Game, scale: float = 1.0, cache: Path | None = None) -> None:
        self.game = game
        self.scale = scale
        self.cache = cache
        self.layout = board_layout(game, scale)
        self.counter_px = counter_size_px(self.layout)
        self.size = board_image_size(game, scale)
        self._whole: Image.Image | None = None
        self._looked = False  # for the whole board in the disk cache
        self.windows = 0  # windows drawn so far

    def _board(self, box: Box4 | None, shown: Box4 | None) -> Image.Image:
        """The board's pixels in `box` (the whole board for None), RGBA: cut from the whole board when this painter
        or the disk cache holds it, else drawn for the picture, only those in `shown` (paper around them)."""
        if self._whole is None and not self._looked:
            self._looked = True
            kept = kept_board(self.game, self.scale, self.cache)
            self._whole = None if kept is None else kept.convert("RGBA")
        if box is None or shown is None or self._whole is not None or self.windows >= WINDOWS_BEFORE_WHOLE:
            if self._whole is None:
                self._whole = cached_board(self.game, self.scale, self.cache).convert("RGBA")
            return self._whole.copy() if box is None else self._whole.crop(box)
        # What the picture draws around the part shown is cut off after: the board is not drawn there.
        self.windows += 1
        board = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), rgb(PAPER))
        board.paste(render_board(self.game, self.scale, window=shown), (shown[0] - box[0], shown[1] - box[1]))
        return board

    def holding(self, scene: Scene) -> Image.Image:
        """The holding board (the module's boxes and tracks) with the scene's counters in their boxes and
        each track value it gives ringed; track values no track of the game shows are left out."""
        from builder.render.holding import render_holding_board  # with --boxes only

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
        wanted = crop.labels(game.grid) if crop is not None else \
            [label for mark in scene.marks for label in mark.hexes if game.grid.is_label(label)]
        shown: Box4 | None = None  # the crop, on the board
        work: Box4 | None = None  # what is drawn: the crop and WINDOW_REACH up and left
        origin: Offset = (0, 0)
        if wanted:
            margin = crop.margin if crop is not None else 2
            shown = _bounds(game, layout, wanted, margin, self.size)
            reach = math.ceil(WINDOW_REACH * layout.size_px)
            work = (max(0, shown[0] - reach), max(0, shown[1] - reach), shown[2], shown[3])
            origin = work[:2]
        board = self._board(work, shown)
        seats = [seat for stack in scene.stacks if (seat := _seat(game, layout, stack, self.counter_px)) is not None]
        visible = shown or (0, 0, *self.size)
        for seat in seats:
            _draw_stack(board, origin, game, seat, visible)
        # Tags after every stack, so a neighbour's counters never hide one, and each kept clear of them.
        badges: list[Box] = [(x - r, y - r, x + r, y + r) for seat in seats if seat.badge for x, y, r in [seat.badge]]
        names = _place_names(game)
        for seat in seats:
            if _tag_may_reach(seat, layout, visible):
                others = [other.box for other in seats if other is not seat] + badges
                _draw_tag(board, origin, layout, seat, names.get(seat.stack.place, ""), others)
        for seat in seats:
            if seat.badge is not None and _meets(_badge_box(seat.badge), visible):
                _draw_count(board, origin, seat)
        overlay = Image.new("RGBA", board.size, (0, 0, 0, 0))
        for mark in scene.marks:
            _overlay_mark(overlay, origin, game, layout, mark)
        board = Image.alpha_composite(board, overlay)
        if shown is not None:
            board = board.crop((shown[0] - origin[0], shown[1] - origin[1], shown[2] - origin[0], shown[3] - origin[1]))
            origin = shown[:2]
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
    out = Image.new("RGB", (max(top.width, bottom.width), top.height + bottom.height), rgb(PAPER))
    out.paste(top, (0, 0))
    out.paste(bottom, (0, top.height))
    return out


def _captioned(image: Image.Image, caption: str) -> Image.Image:
    """The picture with its caption in a band below it."""
    f = font(14)
    # The renderers' word wrap, a paragraph at a time.
    width = max(200, image.width - 16)
    lines = [line for paragraph in caption.splitlines() for line in wrap_words(paragraph, f, width) or [""]]
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
    write_atomically(path, png_bytes(picture.image), force)
    return path


__all__ = ["Painter", "Picture", "board_key", "cache_dir", "cached_board", "draw_scene", "kept_board", "reading_scale",
           "write_picture"]
