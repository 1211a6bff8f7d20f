"""Printed text on the board: the hex numbers, place names placed clear of them, and the glyph printer."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from builder.render.board_canvas import BoardCanvas, Point, PrintedText, draw_outlined, is_dark, whole_px
from builder.render.board_terrain import hex_paint, hex_style
from builder.render.ink import INK, PAPER, font, rgb, text_length
from builder.render.window import ShiftedDraw
from wargame.hexes import Hex
from wargame.layout import FLAT, POINTY, OrientationMatrix


LABEL_DARK = "#5e584d"
LABEL_LIGHT = "#f4f0e6"


HEX_NUMBER_SIZE = 0.24
"""The printed hex numbers' font size, as a share of the hex size."""
HEX_NUMBER_DY: dict[OrientationMatrix, float] = {FLAT: -0.66, POINTY: -0.6}
"""How far above its hex's centre a hex number is printed, as a share of the hex size, for each orientation."""


def hex_number_px(hex_size_px: float) -> int:
    """The font size of the hex numbers on a board drawn with hexes of this size."""
    return whole_px(hex_size_px * HEX_NUMBER_SIZE)


def draw_hex_labels(b: BoardCanvas) -> None:
    """The printed hex numbers, small, at the top of each hex (printed over everything the
    board draws but the place names, which keep clear of them)."""
    game = b.game
    size = b.layout.size_px
    f = font(hex_number_px(size), condensed=True)
    dy = HEX_NUMBER_DY[b.matrix]
    styles: dict[tuple[str, ...], str] = {}
    for h in b.in_view(sorted(game.grid.hexes)):
        terrain = game.hex_terrain[h]
        if terrain not in styles:
            styles[terrain] = hex_paint(game, terrain)[0]
        fill = styles[terrain]
        cx, cy = b.layout.centre(h)
        ink = LABEL_LIGHT if is_dark(fill) else LABEL_DARK
        # A halo in the hex's colour keeps roads and rivers drawn across the number off its digits.
        b.texts.append(PrintedText((cx, cy + dy * size), game.grid.label_of(h), f, ink, "mm", whole_px(size * 0.05),
                                   fill, glyphs=True))


PLACE_FONT: dict[str, tuple[float, bool]] = {
    "city": (0.36, True), "port": (0.33, True), "town": (0.31, True), "village": (0.28, False),
    "landmark": (0.28, False), "beach": (0.3, True), "region": (0.34, True),
}


def draw_places(b: BoardCanvas, reserved: list[tuple[float, float, float, float]]) -> None:
    """Place symbols and names: one label per group of adjacent hexes of the same name."""
    game, s, draw = b.game, b.s, b.draw
    by_name: dict[tuple[str, str], set[Hex]] = defaultdict(set)
    for _, place in game.places:
        by_name[(place.name, place.kind)].add(game.grid.hex_of(place.hex))
    groups: list[tuple[str, str, list[Hex]]] = []
    for (name, kind), members in sorted(by_name.items()):
        left = set(members)
        while left:
            seed = min(left)
            component, frontier = {seed}, [seed]
            while frontier:
                for n in frontier.pop().neighbours():
                    if n in left and n not in component:
                        component.add(n)
                        frontier.append(n)
            left -= component
            groups.append((name, kind, sorted(component)))
    names: list[tuple[Point, str, str, list[Hex]]] = []
    for name, kind, hexes in groups:
        # Built-up terrain (and a fort symbol) already mark the hex: no extra dot.
        built_up = any(
            hex_style(game, t).texture in ("houses", "blocks", "fort") for h in hexes for t in game.hex_terrain[h])
        centres = [b.centre(h) for h in hexes]
        cx = sum(p[0] for p in centres) / len(centres)
        cy = sum(p[1] for p in centres) / len(centres)
        if not built_up and kind in ("city", "town", "village", "port"):
            for x, y in centres:
                r = s * (0.1 if kind in ("city", "port") else 0.075)
                draw.rectangle((x - r, y - r, x + r, y + r), fill=INK, outline=PAPER, width=whole_px(s * 0.025))
                reserved.append((x - r, y - r, x + r, y + r))
        elif kind == "landmark":
            for x, y in centres:
                r = s * 0.12
                draw_outlined(draw, [(x, y - r), (x + r * 0.9, y + r * 0.6), (x - r * 0.9, y + r * 0.6)], INK, PAPER,
                              whole_px(s * 0.025))
                reserved.append((x - r, y - r, x + r, y + r))
        names.append(((cx, cy), name, kind, hexes))
    # Names are placed and printed at final pixels, among the symbols' boxes.
    size = b.layout.size_px
    taken = _Boxes(2 * size)
    for x0, y0, x1, y1 in reserved:
        taken.add((*b.final(x0, y0), *b.final(x1, y1)))
    # A name may not hide any printed hex number (a long name reaches two hexes away).
    # The box is the digits' with their halo (font 0.24 of the hex, 4 condensed digits).
    label_h, label_w = 0.32 * size, 0.36 * size
    dy = HEX_NUMBER_DY[b.matrix]
    # Cities first so the most important names get the best spots.
    rank = {"city": 0, "port": 1, "town": 2, "region": 3, "beach": 4, "landmark": 5, "village": 6}
    ordered = sorted(names, key=lambda n: (rank.get(n[2], 9), n[1]))
    near = (-math.inf, -math.inf, math.inf, math.inf)  # where a box can change a placement that matters
    if b.windowed:
        ordered, near = _placements_reaching(b, ordered)
    for h in sorted(game.grid.hexes):
        x, y = b.layout.centre(h)
        box = (x - label_w, y + dy * size - label_h / 2, x + label_w, y + dy * size + label_h / 2)
        if box[2] >= near[0] and box[0] <= near[2] and box[3] >= near[1] and box[1] <= near[3]:
            taken.add(box)
    board_px = (b.board_px[0] / b.ss, b.board_px[1] / b.ss)
    extents: Extents = {}
    for centre, name, kind, hexes in ordered:
        cx, cy = b.final(*centre)
        points, bold = PLACE_FONT.get(kind, (0.3, False))
        stroke = whole_px(size * 0.055)
        many = len(hexes) > 1
        spots: list[tuple[Point, Literal["mm", "lm", "rm"]]] = (
            [((cx, cy), "mm"), ((cx, cy + 0.42 * size), "mm"), ((cx, cy - 0.34 * size), "mm")] if many else
            [((cx, cy + 0.4 * size), "mm"), ((cx, cy - 0.34 * size), "mm"), ((cx + 0.2 * size, cy + 0.02 * size), "lm"),
             ((cx - 0.2 * size, cy + 0.02 * size), "rm"), ((cx, cy + 0.72 * size), "mm"), ((cx, cy + 0.52 * size), "mm"),
             ((cx, cy + 0.05 * size), "mm")])
        # Then the same spots nudged sideways, where a long name clears the numbers beside it.
        spots += [((x + dx * size, y), anchor) for (x, y), anchor in list(spots) for dx in (-0.45, 0.45)]
        best: tuple[float, Point, Literal["mm", "lm", "rm"], tuple[float, float, float, float],
                    ImageFont.FreeTypeFont] | None = None
        # The name's own size first, then smaller, before it may cover anything.
        for shrink in (1.0, 0.88, 0.78):
            f = font(whole_px(size * points * shrink), bold=bold)
            for spot, anchor in spots:
                spot = _inside_image(_text_box(draw, extents, spot, name, f, anchor, stroke), spot, board_px)
                box = _text_box(draw, extents, spot, name, f, anchor, stroke)
                overlap = taken.overlap(box)
                if best is None or overlap < best[0]:
                    best = (overlap, spot, anchor, box, f)
                if overlap == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        _, spot, anchor, box, f = best
        ink = "#1b4f8a" if kind in ("beach", "region") else INK
        b.texts.append(PrintedText(spot, name, f, ink, anchor, stroke, PAPER))
        taken.add(box)


Name = tuple[Point, str, str, list[Hex]]
"""A place's name to print: its hexes' centre (canvas pixels), the name, its kind and its hexes."""
Box = tuple[float, float, float, float]


def _name_reach(b: BoardCanvas, name: Name) -> Box:
    """A box (final pixels) holding every box the name may be given: at its largest size, at each spot tried (at most
    0.65 of a hex aside, 0.34 above and 0.72 below its centre), moved back onto the board; with a margin, never
    short."""
    size = b.layout.size_px
    cx, cy = b.final(*name[0])
    points, bold = PLACE_FONT.get(name[2], (0.3, False))
    f = font(whole_px(size * points), bold=bold)
    stroke = whole_px(size * 0.055)
    lines = name[1].split("\n")
    # A glyph may overhang its advance: half a font size of margin, and the stroke on either side.
    w = max(text_length(f, line) for line in lines) + f.size + 2 * stroke + 2
    h = (1.5 * f.size + 4) * len(lines) + 2 * stroke + 2
    x0, y0, x1, y1 = cx - 0.65 * size - w, cy - 0.34 * size - h, cx + 0.65 * size + w, cy + 0.72 * size + h
    # A box past the board's edge is moved back onto it (by its overhang at most).
    width, height = b.board_px[0] / b.ss, b.board_px[1] / b.ss
    x0, x1 = x0 - max(0.0, x1 - width), x1 + max(0.0, -x0)
    y0, y1 = y0 - max(0.0, y1 - height), y1 + max(0.0, -y0)
    return x0, y0, x1, y1


def _meets(a: Box, b: Box) -> bool:
    """Whether two boxes touch."""
    return a[2] >= b[0] and a[0] <= b[2] and a[3] >= b[1] and a[1] <= b[3]


def _placements_reaching(b: BoardCanvas, ordered: list[Name]) -> tuple[list[Name], Box]:
    """Of the names in placing order, those a window needs: each one whose box may reach the window, and before it
    every name whose box may meet one of its spots (what it is placed clear of), and so on back; with the box
    holding all their spots. The names left out cannot change the placements kept (a box away from every spot adds
    nothing to a spot's overlap: the same sums), and cannot reach the window themselves."""
    ss = b.ss
    window = (b.origin[0] / ss - 1, b.origin[1] / ss - 1, (b.origin[0] + b.image.width) / ss + 1,
              (b.origin[1] + b.image.height) / ss + 1)
    reach = [_name_reach(b, name) for name in ordered]
    needed = [_meets(box, window) for box in reach]
    for i in range(len(ordered) - 1, 0, -1):
        if needed[i]:
            for j in range(i):
                if not needed[j] and _meets(reach[j], reach[i]):
                    needed[j] = True
    kept = [k for k in range(len(ordered)) if needed[k]]
    if not kept:
        return [], (0.0, 0.0, -1.0, -1.0)
    near = (min(reach[k][0] for k in kept), min(reach[k][1] for k in kept), max(reach[k][2] for k in kept),
            max(reach[k][3] for k in kept))
    return [ordered[k] for k in kept], near


Extents = dict[tuple[str, ImageFont.FreeTypeFont, str, float], tuple[float, float, float, float]]
"""Lines of text's boxes about their anchors, by text, font, anchor and stroke."""


def _text_box(draw: ImageDraw.ImageDraw, extents: Extents, xy: Point, text: str, f: ImageFont.FreeTypeFont,
              anchor: str, stroke: float) -> tuple[float, float, float, float]:
    """What `draw.textbbox` gives for one line of text: its box about the anchor, measured once (a name tries
    a dozen spots), moved to xy."""
    if "\n" in text:
        return draw.textbbox(xy, text, font=f, anchor=anchor, stroke_width=stroke)
    key = (text, f, anchor, stroke)
    extent = extents.get(key)
    if extent is None:
        extent = extents[key] = draw.textbbox((0, 0), text, font=f, anchor=anchor, stroke_width=stroke)
    x, y = xy
    return extent[0] + x, extent[1] + y, extent[2] + x, extent[3] + y


class _Boxes:
    """Boxes (x0, y0, x1, y1) filed under the square cells they touch, so the area a new box
    shares with them is summed over its neighbours only (same sum, same order as over all)."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.boxes: list[tuple[float, float, float, float]] = []
        self.cells: dict[tuple[int, int], list[int]] = defaultdict(list)

    def _cells(self, box: Sequence[float]) -> Iterable[tuple[int, int]]:
        """The cells a box touches."""
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def add(self, box: Sequence[float]) -> None:
        """File a box."""
        self.boxes.append((box[0], box[1], box[2], box[3]))
        for cell in self._cells(box):
            self.cells[cell].append(len(self.boxes) - 1)

    def overlap(self, box: Sequence[float]) -> float:
        """The area a box shares with the filed ones, summed in filing order."""
        near = sorted({k for cell in self._cells(box) for k in self.cells.get(cell, ())})
        return sum(_overlap(box, self.boxes[k]) for k in near)


def _inside_image(box: Sequence[float], spot: Point, size: tuple[float, float]) -> Point:
    """A text position moved so its box stays on the board (names of edge hexes)."""
    x, y = spot
    x += max(0.0, -box[0]) - max(0.0, box[2] - size[0])
    y += max(0.0, -box[1]) - max(0.0, box[3] - size[1])
    return x, y


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Area shared by two boxes (x0, y0, x1, y1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


_Mask = tuple[Image.Image, int, int]
"""A glyph's mask and where its top-left corner lies from the pen (whole pixels)."""


def _inked(mask: Image.Image, dx: int, dy: int) -> _Mask | None:
    """A mask cut to its inked part, its offset moved to match (None: nothing inked). Pasting ink through a mask
    leaves a pixel under a zero as it was, so the cut mask prints the same pixels, on about half as many (a board
    pastes some 12,000 glyphs)."""
    box = mask.getbbox()
    if box is None:
        return None
    return mask.crop(box), dx + box[0], dy + box[1]


class GlyphPrinter:
    """Prints short texts from glyph masks rendered once per character and sub-pixel pen
    position: FreeType's stroker is the slow part of drawing the map's ~1,500 hex labels,
    and they are all the same few characters in one font. The text's anchored origin is
    rounded to a whole pixel (the same glyphs then recur); a text the font kerns is drawn
    as usual."""

    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.origin = origin  # where the image lies on the board (a window of it)
        self.draw = ShiftedDraw(image, origin)
        self.masks: dict[tuple[ImageFont.FreeTypeFont, float, str, int], tuple[_Mask | None, _Mask | None]] = {}
        self.baselines: dict[ImageFont.FreeTypeFont, int] = {}
        self.lengths: dict[tuple[ImageFont.FreeTypeFont, str], float] = {}
        self.inks: dict[str | tuple[int, ...], tuple[int, ...]] = {}

    def _ink(self, colour: str | tuple[int, ...]) -> tuple[int, ...]:
        """A colour as the board's RGB pixels hold it (what Image.paste works out for each paste)."""
        if colour not in self.inks:
            self.inks[colour] = rgb(colour) if isinstance(colour, str) else colour
        return self.inks[colour]

    def _length(self, f: ImageFont.FreeTypeFont, text: str) -> float:
        """The advance of a character or a pair (layout is slow, the pairs few)."""
        key = (f, text)
        if key not in self.lengths:
            self.lengths[key] = text_length(f, text)
        return self.lengths[key]

    def _glyph(self, f: ImageFont.FreeTypeFont, stroke: float, char: str,
               sixty_fourths: int) -> tuple[_Mask | None, _Mask | None]:
        """A character's stroked and plain masks, each cut to its inked part with its offset from the pen (whole
        pixels; None where nothing is inked)."""
        key = (f, stroke, char, sixty_fourths)
        if key not in self.masks:
            x0, y0, x1, y1 = (round(v) for v in f.getbbox(char, anchor="ls", stroke_width=stroke))
            ox, oy = 2 - x0, 2 - y0  # the pen's whole-pixel origin inside the masks
            size = (x1 - x0 + 5, y1 - y0 + 4)
            outer, inner = Image.new("L", size, 0), Image.new("L", size, 0)
            pen = (ox + sixty_fourths / 64, oy)
            ImageDraw.Draw(outer).text(pen, char, fill=255, font=f, anchor="ls", stroke_width=stroke, stroke_fill=255)
            ImageDraw.Draw(inner).text(pen, char, fill=255, font=f, anchor="ls")
            self.masks[key] = (_inked(outer, -ox, -oy), _inked(inner, -ox, -oy))
        return self.masks[key]

    def print(self, t: PrintedText) -> None:
        """Print one text as ImageDraw.text would (anchor 'mm')."""
        f, text = t.font, t.text
        # The lengths kept looked up here, not through _length (a board prints some 1,500 labels, a call a char).
        lengths = self.lengths
        advances = []
        for char in text:
            advance = lengths.get((f, char))
            advances.append(self._length(f, char) if advance is None else advance)
        length = sum(advances)
        kerned = False
        for a, c, advance_a, advance_c in zip(text, text[1:], advances, advances[1:]):
            pair = lengths.get((f, a + c))
            if abs((self._length(f, a + c) if pair is None else pair) - advance_a - advance_c) > 1e-6:
                kerned = True
                break
        if t.anchor != "mm" or kerned:
            self.draw.text(t.xy, t.text, fill=t.fill, font=f, anchor=t.anchor, stroke_width=t.stroke_width,
                           stroke_fill=t.stroke_fill)
            return
        if f not in self.baselines:  # the baseline below the middle anchor: the font's, not the text's
            self.baselines[f] = round(f.getbbox("0", anchor="mm")[1] - f.getbbox("0", anchor="ls")[1])
        x, y = round(t.xy[0] - length / 2) - self.origin[0], round(t.xy[1]) + self.baselines[f] - self.origin[1]
        placed = []
        pen = 0.0
        masks, stroke = self.masks, t.stroke_width
        for char, advance in zip(text, advances):
            whole = math.floor(pen)
            sixty_fourths = round((pen - whole) * 64)
            glyph = masks.get((f, stroke, char, sixty_fourths))
            placed.append((x + whole, self._glyph(f, stroke, char, sixty_fourths) if glyph is None else glyph))
            pen += advance
        # The whole text's stroke first, then its ink, as ImageDraw draws them: Image.paste's own work, its
        # checks and colour lookup done once here (about 12,000 pastes a board).
        self.image.load()
        core = self.image.im
        if t.stroke_width and t.stroke_fill is not None:
            ink = self._ink(t.stroke_fill)
            for px, (outer, _) in placed:
                if outer is not None:
                    mask, dx, dy = outer
                    core.paste(ink, (px + dx, y + dy, px + dx + mask.width, y + dy + mask.height), mask.im)
        ink = self._ink(t.fill)
        for px, (_, inner) in placed:
            if inner is not None:
                mask, dx, dy = inner
                core.paste(ink, (px + dx, y + dy, px + dx + mask.width, y + dy + mask.height), mask.im)
