"""Player-aid charts drawn from a game's data: CRT, terrain effects, schedules, tracks, tables.

Nothing here knows a game: every word and number on a chart comes from the game's data files,
so a corrected CRT cell or a new terrain type shows up on the next build. Charts are drawn at
1x with FreeType's anti-aliased text (crisper than a downsampled 2x); the few shapes that need
smooth edges (terrain swatches) are drawn at 4x and reduced. Output bytes depend only on the data.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil, cos, pi, sin
from pathlib import Path
from typing import Literal, Protocol

from PIL import Image, ImageDraw, ImageFont

from builder.render.style import INK, PAPER, font
from wargame.files import write_atomically
from wargame.game import Game
from wargame.models import Arrival, Chart, CombatTable, SequenceItem, TerrainType, Track, Unit, is_reconstructed

Align = Literal["left", "centre", "right"]
Draw = ImageDraw.ImageDraw
Font = ImageFont.FreeTypeFont

MIN_WIDTH_PX = 700
MAX_WIDTH_PX = 1400
BODY_PX = 16
SMALL_PX = 13
HEADING_PX = 19
TITLE_PX = 24

HEADER_FILL = "#e6dec8"
SECTION_FILL = "#5a554b"
END_OUTLINE = "#9b2d20"
EMPTY_FILL = "#ece7d9"
RULE = "#8a8478"
MUTED = "#5f5a50"
TITLE_FILL = INK
# Muted tints that tell result codes apart without claiming which is good for whom: the
# data does not say, and the order of codes in a CRT differs from game to game.
RESULT_TINTS = (
    "#f2d4cf", "#f5e3c3", "#efeab8", "#d8e8c4", "#c6e2e6", "#d0d8f2",
    "#e2d2ee", "#f0d2e0", "#d9d3c4", "#ffffff", "#e6c9ab", "#c7d0d6",
)
TAG_SYMBOLS = ("*", "†", "‡", "§", "¶", "#")


# -- drawing context -------------------------------------------------------------------------
@dataclass(frozen=True)
class Pen:
    """Sizes at one scale: every length on a chart goes through here."""

    scale: float = 1.0

    def px(self, length: float) -> int:
        """A length in output pixels."""
        return max(1, round(length * self.scale))

    def font(self, size: int = BODY_PX, bold: bool = False, condensed: bool = False) -> Font:
        """The house font at this scale."""
        return font(self.px(size), bold=bold, condensed=condensed)

    def line_px(self, size: int) -> int:
        """Baseline-to-baseline distance for text of a size."""
        return self.px(size * 1.32)


def _display(text: str) -> str:
    """Typographic touches only: true minus signs before digits, a spaced dash for a lone '-'."""
    if text == "-":
        return "–"
    out = []
    for i, ch in enumerate(text):
        is_sign = ch == "-" and i + 1 < len(text) and text[i + 1].isdigit() and (i == 0 or not text[i - 1].isalnum())
        out.append("−" if is_sign else ch)
    return "".join(out)


def _wrap(text: str, face: Font, width_px: int) -> list[str]:
    """Greedy word wrap; explicit newlines start new lines; a too-long word stays whole."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        current = ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if current and _length(face, trial) > width_px:
                lines.append(current)
                current = word
            else:
                current = trial
        lines.append(current)
    return lines


def _text_px(text: str, face: Font) -> int:
    """Width of the widest explicit line of a text."""
    return max((ceil(_length(face, line)) for line in text.split("\n")), default=0)


@lru_cache(maxsize=65536)
def _length(face: Font, text: str) -> float:
    """A text's advance in a font, remembered: laying out a chart measures the same cells and
    wrap trials many times over (for its natural, least and final widths and its heights)."""
    return face.getlength(text)


def _luminance(colour: str) -> float:
    """Relative brightness 0..1 of #rrggbb (to pick ink or paper text on a fill)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _on(fill: str) -> str:
    """The text colour that reads on a fill."""
    return INK if _luminance(fill) > 0.45 else PAPER


def _mix(colour: str, other: str, amount: float) -> str:
    """`colour` moved `amount` of the way towards `other`."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


# -- blocks ------------------------------------------------------------------------------------
class Block(Protocol):
    """A piece of a chart stacked top to bottom: it knows its widths and draws itself."""

    def natural_px(self, pen: Pen) -> int:
        """The width it would like."""

    def min_px(self, pen: Pen) -> int:
        """The narrowest width it can be drawn at."""

    def height_px(self, pen: Pen, width_px: int) -> int:
        """Its height at a width."""

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Draw it with its top-left corner at (x, y)."""


@dataclass(frozen=True)
class Heading:
    """A section heading with a rule under it."""

    text: str

    def natural_px(self, pen: Pen) -> int:
        """The heading's text width."""
        return _text_px(self.text, pen.font(HEADING_PX, bold=True))

    def min_px(self, pen: Pen) -> int:
        """Headings do not wrap."""
        return self.natural_px(pen)

    def height_px(self, pen: Pen, width_px: int) -> int:
        """One line and the rule."""
        return pen.line_px(HEADING_PX) + pen.px(6)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Bold text, thin rule."""
        draw = ImageDraw.Draw(image)
        draw.text((x, y + pen.line_px(HEADING_PX) - pen.px(5)), self.text, font=pen.font(HEADING_PX, bold=True),
                  fill=INK, anchor="ls")
        rule_y = y + pen.line_px(HEADING_PX) + pen.px(2)
        draw.line([(x, rule_y), (x + width_px, rule_y)], fill=INK, width=pen.px(1.5))


@dataclass(frozen=True)
class Paragraph:
    """Running text that wraps to the chart's width."""

    text: str
    size: int = BODY_PX
    colour: str = INK
    bold: bool = False

    def natural_px(self, pen: Pen) -> int:
        """Text never widens a chart beyond what its tables need."""
        return 0

    def min_px(self, pen: Pen) -> int:
        """Wraps to anything."""
        return 0

    def height_px(self, pen: Pen, width_px: int) -> int:
        """Lines times line height."""
        return len(_wrap(self.text, pen.font(self.size, self.bold), width_px)) * pen.line_px(self.size)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Left-aligned wrapped lines."""
        draw = ImageDraw.Draw(image)
        face = pen.font(self.size, self.bold)
        step = pen.line_px(self.size)
        for i, line in enumerate(_wrap(self.text, face, width_px)):
            draw.text((x, y + i * step + step // 2), line, font=face, fill=self.colour, anchor="lm")


@dataclass(frozen=True)
class Gap:
    """Vertical space."""

    size_px: int

    def natural_px(self, pen: Pen) -> int:
        """No width."""
        return 0

    def min_px(self, pen: Pen) -> int:
        """No width."""
        return 0

    def height_px(self, pen: Pen, width_px: int) -> int:
        """Its size."""
        return pen.px(self.size_px)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Nothing to draw."""


@dataclass(frozen=True)
class Swatch:
    """A terrain sample: a filled hex for hex terrain, a hexside stroke for a hexside feature."""

    kind: Literal["hex", "hexside"]
    colour: str | None

    def draw(self, image: Image.Image, box: tuple[int, int, int, int]) -> None:
        """Draw at 4x and reduce, so the small hexagon has smooth edges."""
        left, top, right, bottom = box
        side = min(right - left, bottom - top)
        big = side * 4
        tile = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        draw = ImageDraw.Draw(tile)
        radius = big * 0.48
        centre = big / 2
        corners = [(centre + radius * cos(pi / 3 * k), centre + radius * sin(pi / 3 * k)) for k in range(6)]
        if self.kind == "hex":
            draw.polygon(corners, fill=self.colour or PAPER, outline=INK, width=max(2, big // 28))
        else:
            draw.polygon(corners, fill=PAPER, outline=RULE, width=max(2, big // 40))
            # The hexside sample: the hex's right-hand edge, drawn thick in the feature's colour.
            draw.line([corners[5], corners[0], corners[1]], fill=self.colour or INK, width=max(4, big // 9),
                      joint="curve")
        tile = tile.resize((side, side), Image.Resampling.LANCZOS)
        image.paste(tile, (left + (right - left - side) // 2, top + (bottom - top - side) // 2), tile)


@dataclass(frozen=True)
class Cell:
    """One table cell."""

    text: str = ""
    bold: bool = False
    fill: str | None = None
    colour: str = INK
    align: Align = "centre"
    size: int = BODY_PX
    span: int = 1
    swatch: Swatch | None = None


@dataclass(frozen=True)
class Table:
    """A ruled table; columns in `wrap` share the width left over and wrap their text."""

    rows: Sequence[Sequence[Cell]]
    wrap: Mapping[int, float] = field(default_factory=dict)
    """Wrapping columns and their share of the leftover width."""
    min_wrap_px: int = 200
    max_wrap_px: int = 560
    group_rules: frozenset[int] = frozenset()
    """Rows above which a heavy rule is drawn (e.g. between turns)."""
    min_column_px: int = 0

    @property
    def columns(self) -> int:
        """Number of columns."""
        return sum(c.span for c in self.rows[0]) if self.rows else 0

    def _placed(self) -> Iterable[tuple[int, int, Cell]]:
        """(row, first column, cell) for every cell."""
        for r, row in enumerate(self.rows):
            col = 0
            for cell in row:
                yield r, col, cell
                col += cell.span

    def _pad(self, pen: Pen) -> tuple[int, int]:
        """Horizontal and vertical padding inside a cell."""
        return pen.px(9), pen.px(5)

    def _cell_px(self, pen: Pen, cell: Cell) -> int:
        """Width a cell's content needs on one line."""
        if cell.swatch is not None:
            return pen.px(30)
        return _text_px(_display(cell.text), pen.font(cell.size, cell.bold))

    def _widths(self, pen: Pen, wrap_px: int | None) -> list[int]:
        """Column widths with every wrapping column at `wrap_px` (None: its natural width)."""
        pad_x, _ = self._pad(pen)
        widths = [pen.px(self.min_column_px)] * self.columns
        for _, col, cell in self._placed():
            if cell.span != 1:
                continue
            need = self._cell_px(pen, cell) + 2 * pad_x
            if col in self.wrap:
                need = min(need, pen.px(self.max_wrap_px)) if wrap_px is None else wrap_px
            widths[col] = max(widths[col], need)
        # A spanning cell wider than its columns widens the last of them.
        for _, col, cell in self._placed():
            if cell.span > 1:
                need = self._cell_px(pen, cell) + 2 * pad_x
                have = sum(widths[col:col + cell.span])
                if need > have:
                    widths[col + cell.span - 1] += need - have
        return widths

    def natural_px(self, pen: Pen) -> int:
        """Every column on one line (wrapping columns capped)."""
        return sum(self._widths(pen, None))

    def min_px(self, pen: Pen) -> int:
        """Wrapping columns at their minimum."""
        return sum(self._widths(pen, pen.px(self.min_wrap_px)) if self.wrap else self._widths(pen, None))

    def layout(self, pen: Pen, width_px: int) -> list[int]:
        """Column widths filling `width_px` when the table can wrap, else its natural widths."""
        widths = self._widths(pen, None)
        if not self.wrap:
            return widths
        fixed = sum(w for c, w in enumerate(widths) if c not in self.wrap)
        total = sum(self.wrap.values())
        for c, weight in self.wrap.items():
            widths[c] = max(pen.px(self.min_wrap_px), int((width_px - fixed) * weight / total))
        # Give the rounding remainder to the last wrapping column so the table meets the edge.
        widths[max(self.wrap)] += max(0, width_px - sum(widths))
        return widths

    def _lines(self, pen: Pen, cell: Cell, width_px: int) -> list[str]:
        """A cell's text broken to its column."""
        pad_x, _ = self._pad(pen)
        return _wrap(_display(cell.text), pen.font(cell.size, cell.bold), width_px - 2 * pad_x)

    def _row_heights(self, pen: Pen, widths: list[int]) -> list[int]:
        """Height of every row."""
        _, pad_y = self._pad(pen)
        heights = [0] * len(self.rows)
        for r, col, cell in self._placed():
            width = sum(widths[col:col + cell.span])
            lines = len(self._lines(pen, cell, width)) if cell.swatch is None else 1
            need = lines * pen.line_px(cell.size) + 2 * pad_y
            if cell.swatch is not None:
                need = max(need, pen.px(30) + 2 * pad_y)
            heights[r] = max(heights[r], need, pen.line_px(BODY_PX) + 2 * pad_y)
        return heights

    def height_px(self, pen: Pen, width_px: int) -> int:
        """Sum of row heights."""
        return sum(self._row_heights(pen, self.layout(pen, width_px)))

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Fills, text, then the rules on top."""
        draw = ImageDraw.Draw(image)
        widths = self.layout(pen, width_px)
        heights = self._row_heights(pen, widths)
        lefts = [x + sum(widths[:c]) for c in range(len(widths) + 1)]
        tops = [y + sum(heights[:r]) for r in range(len(heights) + 1)]
        pad_x, pad_y = self._pad(pen)
        thin, heavy = pen.px(1), pen.px(2)
        for r, col, cell in self._placed():
            box = (lefts[col], tops[r], lefts[col + cell.span], tops[r + 1])
            if cell.fill:
                draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=cell.fill)
            if cell.swatch is not None:
                cell.swatch.draw(image, (box[0] + pad_x, box[1] + pad_y, box[2] - pad_x, box[3] - pad_y))
                continue
            face = pen.font(cell.size, cell.bold)
            step = pen.line_px(cell.size)
            lines = self._lines(pen, cell, box[2] - box[0])
            top = box[1] + (box[3] - box[1] - step * len(lines)) // 2
            for i, line in enumerate(lines):
                cy = top + i * step + step // 2
                if cell.align == "left":
                    draw.text((box[0] + pad_x, cy), line, font=face, fill=cell.colour, anchor="lm")
                elif cell.align == "right":
                    draw.text((box[2] - pad_x, cy), line, font=face, fill=cell.colour, anchor="rm")
                else:
                    draw.text(((box[0] + box[2]) // 2, cy), line, font=face, fill=cell.colour, anchor="mm")
        # Inner rules per cell edge (spanning cells have none inside), heavy frame and group rules.
        for r, col, cell in self._placed():
            if col > 0:
                draw.line([(lefts[col], tops[r]), (lefts[col], tops[r + 1])], fill=RULE, width=thin)
        for r in range(1, len(heights)):
            rule_width, colour = (heavy, INK) if r in self.group_rules else (thin, RULE)
            draw.line([(x, tops[r]), (lefts[-1] - 1, tops[r])], fill=colour, width=rule_width)
        draw.rectangle((x, y, lefts[-1] - 1, tops[-1] - 1), outline=INK, width=heavy)


@dataclass(frozen=True)
class Space:
    """One space of a track: its number, fill and small marks (tag text on a colour)."""

    label: str
    fill: str
    marks: tuple[tuple[str, str], ...] = ()
    caption: str = ""
    outline: str = INK


@dataclass(frozen=True)
class TrackRow:
    """Numbered spaces side by side, wrapping into as few even rows as the width allows."""

    spaces: tuple[Space, ...]
    space_px: int = 56
    number_px: int = 20

    def _rows(self, pen: Pen, width_px: int) -> list[tuple[Space, ...]]:
        """The spaces cut into balanced rows that fit."""
        per_row = max(1, width_px // pen.px(self.space_px))
        rows = ceil(len(self.spaces) / per_row)
        per_row = ceil(len(self.spaces) / rows)
        return [self.spaces[i:i + per_row] for i in range(0, len(self.spaces), per_row)]

    def _caption_px(self, pen: Pen, row: Sequence[Space]) -> int:
        """Room under a row for captions, if any space has one."""
        return pen.line_px(SMALL_PX) * max((len(s.caption.split("\n")) for s in row if s.caption), default=0)

    def natural_px(self, pen: Pen) -> int:
        """The widest row when the spaces are balanced over as few rows as the widest chart allows."""
        rows = self._rows(pen, pen.px(MAX_WIDTH_PX - 80))
        return max(len(row) for row in rows) * pen.px(self.space_px)

    def min_px(self, pen: Pen) -> int:
        """Ten spaces a row at least."""
        return min(len(self.spaces), 10) * pen.px(self.space_px)

    def height_px(self, pen: Pen, width_px: int) -> int:
        """Rows of spaces, their captions and a gap between rows."""
        rows = self._rows(pen, width_px)
        return sum(pen.px(self.space_px) + self._caption_px(pen, row) for row in rows) + pen.px(12) * (len(rows) - 1)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Square spaces with the number on top and marks along the bottom."""
        draw = ImageDraw.Draw(image)
        size = pen.px(self.space_px)
        number = pen.font(self.number_px, bold=True)
        mark_face = pen.font(SMALL_PX - 1, bold=True)
        caption_face = pen.font(SMALL_PX)
        top = y
        for row in self._rows(pen, width_px):
            for i, space in enumerate(row):
                left = x + i * size
                draw.rectangle((left, top, left + size, top + size), fill=space.fill, outline=INK, width=pen.px(2))
                if space.outline != INK:
                    inset = pen.px(2)
                    draw.rectangle((left + inset, top + inset, left + size - inset, top + size - inset),
                                   outline=space.outline, width=pen.px(3))
                has_marks = bool(space.marks)
                cy = top + (size * 0.4 if has_marks else size / 2)
                draw.text((left + size / 2, cy), space.label, font=number, fill=_on(space.fill), anchor="mm")
                if has_marks:
                    mark_h = pen.px(15)
                    widths = [_text_px(text, mark_face) + pen.px(8) for text, _ in space.marks]
                    total = sum(widths) + pen.px(3) * (len(widths) - 1)
                    mx = left + (size - total) / 2
                    my = top + size - mark_h - pen.px(5)
                    for (text, colour), w in zip(space.marks, widths):
                        draw.rounded_rectangle((mx, my, mx + w, my + mark_h), radius=pen.px(4), fill=colour,
                                               outline=INK, width=1)
                        draw.text((mx + w / 2, my + mark_h / 2), text, font=mark_face, fill=_on(colour), anchor="mm")
                        mx += w + pen.px(3)
                for k, line in enumerate(space.caption.split("\n") if space.caption else []):
                    # Centred under its space, but kept inside the chart at either end of a row.
                    half = _text_px(line, caption_face) / 2
                    cx = min(max(left + size / 2, x + half), x + width_px - half)
                    draw.text((cx, top + size + pen.px(3) + k * pen.line_px(SMALL_PX)), line,
                              font=caption_face, fill=INK, anchor="mt")
            top += size + self._caption_px(pen, row) + pen.px(12)


@dataclass(frozen=True)
class Outline:
    """A numbered outline: (depth, number, text, aside) lines, the aside right-aligned in grey."""

    lines: tuple[tuple[int, str, str, str], ...]

    def _indent(self, pen: Pen, depth: int) -> int:
        """Left offset of a depth."""
        return depth * pen.px(34)

    def _number_px(self, pen: Pen) -> int:
        """Width kept for numbers."""
        face = pen.font(BODY_PX, bold=True)
        return max((_text_px(n, face) for _, n, _, _ in self.lines), default=0) + pen.px(10)

    def natural_px(self, pen: Pen) -> int:
        """The longest line with its aside."""
        body, aside = pen.font(BODY_PX), pen.font(SMALL_PX)
        return max((self._indent(pen, d) + self._number_px(pen) + _text_px(t, body) + pen.px(30) + _text_px(a, aside)
                    for d, _, t, a in self.lines), default=0)

    def min_px(self, pen: Pen) -> int:
        """Lines are short; they do not wrap."""
        return self.natural_px(pen)

    def _line_px(self, pen: Pen) -> int:
        """Height of one outline line."""
        return pen.line_px(BODY_PX) + pen.px(8)

    def height_px(self, pen: Pen, width_px: int) -> int:
        """One line per entry."""
        return len(self.lines) * self._line_px(pen)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Top-level entries bold with a rule above; nested ones indented."""
        draw = ImageDraw.Draw(image)
        step = self._line_px(pen)
        number_px = self._number_px(pen)
        for i, (depth, number, text, aside) in enumerate(self.lines):
            cy = y + i * step + step // 2
            if depth == 0 and i > 0:
                draw.line([(x, y + i * step), (x + width_px, y + i * step)], fill=RULE, width=pen.px(1))
            left = x + self._indent(pen, depth)
            draw.text((left, cy), number, font=pen.font(BODY_PX, bold=True), fill=INK, anchor="lm")
            draw.text((left + number_px, cy), text, font=pen.font(BODY_PX, bold=depth == 0), fill=INK, anchor="lm")
            if aside:
                draw.text((x + width_px, cy), aside, font=pen.font(SMALL_PX), fill=MUTED, anchor="rm")


@dataclass(frozen=True)
class Sheet:
    """A whole chart: a title bar over stacked blocks, on paper."""

    title: str
    game_title: str
    blocks: Sequence[Block]
    footer: str = ""

    def render(self, pen: Pen) -> Image.Image:
        """Pick the width from the blocks, stack them, draw."""
        margin = pen.px(24)
        gap = pen.px(12)
        title_face = pen.font(TITLE_PX, bold=True)
        game_face = pen.font(BODY_PX)
        title_need = _text_px(self.title, title_face) + _text_px(self.game_title, game_face) + pen.px(60)
        natural = max([b.natural_px(pen) for b in self.blocks] + [title_need - 2 * margin])
        inner = min(max(natural, pen.px(MIN_WIDTH_PX) - 2 * margin), pen.px(MAX_WIDTH_PX) - 2 * margin)
        inner = max([inner] + [b.min_px(pen) for b in self.blocks])
        width = inner + 2 * margin
        title_h = pen.px(TITLE_PX * 2.1)
        footer_h = pen.line_px(SMALL_PX) + pen.px(6) if self.footer else 0
        body_h = sum(b.height_px(pen, inner) for b in self.blocks) + gap * max(0, len(self.blocks) - 1)
        height = title_h + margin + body_h + margin + footer_h
        image = Image.new("RGB", (width, height), PAPER)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, width - 1, title_h - 1), fill=TITLE_FILL)
        draw.text((margin, title_h // 2), self.title, font=title_face, fill=PAPER, anchor="lm")
        draw.text((width - margin, title_h // 2), self.game_title, font=game_face, fill=PAPER, anchor="rm")
        y = title_h + margin
        for block in self.blocks:
            block.draw(image, pen, margin, y, inner)
            y += block.height_px(pen, inner) + gap
        if self.footer:
            draw.text((width - margin, height - margin // 2 - footer_h // 2), self.footer, font=pen.font(SMALL_PX),
                      fill=MUTED, anchor="rm")
        draw.rectangle((0, 0, width - 1, height - 1), outline=INK, width=pen.px(2))
        return image


# -- words from the data ------------------------------------------------------------------------
def _number(value: float) -> str:
    """A number without a needless '.0': 1.0 -> '1', 0.5 -> '0.5'."""
    return f"{value:g}"


def _signed(value: int) -> str:
    """A modifier with its sign: +1, −1."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _source(source: str) -> str:
    """A source as players read it: the section, or 'reconstructed'."""
    return "reconstructed" if is_reconstructed(source) else source


def _footer(*sources: str) -> str:
    """The footer naming the rule sections a chart's values come from, and whether any are reconstructed."""
    sections = sorted({s for s in sources if not is_reconstructed(s)}, key=_section_key)
    reconstructed = any(is_reconstructed(s) for s in sources)
    if not sections:
        return "Reconstructed: not printed in the rulebook (see PROVENANCE.md)" if reconstructed else ""
    return f"Rules {', '.join(sections)}" + ("; some values reconstructed (PROVENANCE.md)" if reconstructed else "")


def _humane(word: str) -> str:
    """An identifier as words."""
    return word.replace("_", " ")


def _names(game: Game) -> dict[str, str]:
    """Display names of every id a chart cell may hold: unit types, nationalities, terrain, areas, boxes."""
    names: dict[str, str] = {}
    for t in game.terrain.values():
        names[t.id] = t.name
    for a in game.areas.area:
        names[a.id] = a.name
    for b in game.manifest.box:
        names[b.id] = b.name
    for n in game.manifest.nationality:
        names[n.id] = n.name
    for u in game.manifest.unit_type:
        names[u.id] = u.name
    return names


def _side_colour(game: Game, side: str) -> str:
    """A side's colour: the counter background of its first nationality."""
    for nationality in game.manifest.nationality:
        if nationality.side == side:
            return nationality.background_colour
    return HEADER_FILL


def _first_players(game: Game) -> tuple[str | None, str | None]:
    """First and second player when every scenario agrees, else None."""
    firsts = {s.first_player for s in game.manifest.scenario}
    if len(firsts) != 1:
        return None, None
    first = firsts.pop()
    others = [s for s in game.manifest.sides if s != first]
    return first, (others[0] if others else None)


# -- the charts ------------------------------------------------------------------------------------
def _result_tints(crt: CombatTable) -> dict[str, str]:
    """A tint per result code, in the order the data lists them."""
    return {code: RESULT_TINTS[i % len(RESULT_TINTS)] for i, code in enumerate(crt.result_codes)}


def _crt_sheet(game: Game, crt: CombatTable) -> Sheet:
    """Combat Results Table: terrain lines (differential CRTs), results grid, key, notes."""
    tints = _result_tints(crt)
    n = len(crt.columns)
    rows: list[list[Cell]] = []
    group_rules: set[int] = set()
    marked: list[str] = []
    if crt.kind == "differential" and crt.line:
        rows.append([Cell("Defender's terrain", bold=True, fill=HEADER_FILL, align="left"),
                     Cell("Combat differential (attack − defence) falling in each column", bold=True,
                          fill=HEADER_FILL, span=n)])
        for crt_line in crt.line:
            name = crt_line.name
            if is_reconstructed(crt_line.source):
                name += " †"
                marked.append(crt_line.name)
            rows.append([Cell(name, bold=True, align="left")]
                        + [Cell(c.replace(",", ", "), fill=None if c else EMPTY_FILL, size=SMALL_PX + 1)
                           for c in crt_line.cells])
        group_rules.add(len(rows))
    die_header = "Die roll"
    column_label = "Odds (attack : defence)" if crt.kind == "odds" else "Column"
    if crt.kind == "odds":
        rows.append([Cell("", fill=HEADER_FILL), Cell(column_label, bold=True, fill=HEADER_FILL, span=n)])
    rows.append([Cell(die_header, bold=True, fill=HEADER_FILL)]
                + [Cell(c, bold=True, fill=HEADER_FILL, size=BODY_PX if crt.kind == "odds" else SMALL_PX)
                   for c in crt.columns])
    group_rules.add(len(rows))
    stated = {(cell.column, cell.die): cell for cell in crt.stated}
    for die, results in zip(crt.die_rolls, crt.results):
        # A result the rulebook states inside a reconstructed table is marked (‡) and cited below.
        rows.append([Cell(str(die), bold=True, fill=HEADER_FILL)]
                    + [Cell(r + (" ‡" if (column, die) in stated else ""), bold=True, fill=tints[r])
                       for column, r in zip(crt.columns, results)])
    grid = Table(rows, group_rules=frozenset(group_rules), min_column_px=56 if crt.kind == "odds" else 62)
    key = Table([[Cell("Result", bold=True, fill=HEADER_FILL), Cell("Meaning", bold=True, fill=HEADER_FILL,
                                                                       align="left")]]
                + [[Cell(code, bold=True, fill=tints[code]), Cell(meaning, align="left", size=BODY_PX - 1)]
                   for code, meaning in crt.result_codes.items()],
                wrap={1: 1}, min_wrap_px=360)
    blocks: list[Block] = [grid, Gap(6), Heading("Results"), key]
    if crt.note:
        blocks += [Gap(4), Heading("Notes"), Paragraph(crt.note, size=BODY_PX - 1)]
    if marked:
        line_notes = " ".join(f"{line.name}: {line.note}" for line in crt.line
                              if is_reconstructed(line.source) and line.note)
        blocks.append(Paragraph(f"† Reconstructed line (not in the rulebook's table). {line_notes}".strip(),
                                size=SMALL_PX, colour=MUTED))
    footer = _footer(crt.source)
    if is_reconstructed(crt.source):
        blocks.append(Paragraph("Reconstructed table: the rulebook does not print these results; they are the "
                                "project's reading (PROVENANCE.md).", size=SMALL_PX, colour=MUTED))
        footer = _footer(*(cell.source for cell in crt.stated)) if crt.stated else ""
    for cell in crt.stated:
        blocks.append(Paragraph(f"‡ Stated by the rulebook ({cell.source}): {cell.column}, die {cell.die} = "
                                f"{cell.result}.", size=SMALL_PX, colour=MUTED))
    return Sheet(crt.name, game.manifest.title, blocks, footer)


def _movement(t: TerrainType) -> str:
    """Movement effect of a terrain type."""
    parts = []
    if t.prohibited:
        parts.append("Prohibited")
    if t.mp_cost is not None:
        parts.append(f"{_number(t.mp_cost)} MP")
    if t.mp_add is not None:
        parts.append(f"+{_number(t.mp_add)} MP")
    if t.movement_effect:
        parts.append(t.movement_effect)
    return ", ".join(parts) or "—"


def _combat(game: Game, t: TerrainType) -> str:
    """Combat effect of a terrain type: die modifier and/or CRT line."""
    parts = []
    if t.combat_die_modifier is not None:
        parts.append(f"Die {_signed(t.combat_die_modifier)}")
    if t.crt_line is not None:
        lines = {line.id: line.name for line in game.crt.line} if game.crt else {}
        parts.append(f"{lines.get(t.crt_line, _humane(t.crt_line))} line")
    if t.combat_effect:
        parts.append(t.combat_effect)
    return ", ".join(parts) or "—"


def _terrain_sheet(game: Game) -> Sheet:
    """Terrain Effects Chart: hex terrain, then hexside features."""
    header = [Cell("", fill=HEADER_FILL), Cell("Terrain", bold=True, fill=HEADER_FILL, align="left"),
              Cell("Movement", bold=True, fill=HEADER_FILL), Cell("Combat", bold=True, fill=HEADER_FILL),
              Cell("Zones of control", bold=True, fill=HEADER_FILL), Cell("Rule", bold=True, fill=HEADER_FILL),
              Cell("Notes", bold=True, fill=HEADER_FILL, align="left")]
    rows: list[list[Cell]] = [header]
    sections: set[int] = set()
    for kind, heading in (("hex", "Hex terrain"), ("hexside", "Hexside features")):
        types = [t for t in game.terrain.values() if t.kind == kind]
        if not types:
            continue
        sections.add(len(rows))
        rows.append([Cell(heading, bold=True, align="left", fill=SECTION_FILL, colour=PAPER, span=len(header))])
        for t in types:
            rows.append([
                Cell(swatch=Swatch(t.kind, t.colour)),
                Cell(t.name, bold=True, align="left"),
                Cell(_movement(t)),
                Cell(_combat(game, t)),
                Cell("Blocks ZOC" if t.blocks_zoc else "—"),
                Cell(_source(t.source), size=SMALL_PX, colour=MUTED),
                Cell(t.note, align="left", size=SMALL_PX),
            ])
    blocks: list[Block] = [Table(rows, wrap={1: 1, 2: 1, 3: 1, 6: 2}, min_wrap_px=150, max_wrap_px=340,
                                 group_rules=frozenset(sections))]
    footer = _footer(*(t.source for t in game.terrain.values()))
    return Sheet("Terrain Effects Chart", game.manifest.title, blocks, footer)


def _section_key(section: str) -> tuple[int, ...]:
    """Sort key of a rule section number."""
    return tuple(int(part) for part in section.split("."))


def _has_designations(game: Game) -> bool:
    """Whether units carry their own names; if any name is shared, counters are generic and get counted."""
    names = [u.name for _, u in game.units]
    return len(set(names)) == len(names)


def _entry_name(game: Game, entry: str | None, names: dict[str, str]) -> str:
    """Where a reinforcement enters, as players read it."""
    if not entry:
        return ""
    if entry in names:
        return names[entry]
    if "@" in entry:
        track, _, space = entry.partition("@")
        tracks = {t.id: t.name for t in game.manifest.track}
        return f"{tracks.get(track, track)} {space}"
    if entry.isdigit():
        return f"Hex {entry}"
    words = _humane(entry)
    return words[:1].upper() + words[1:]


def _units_text(game: Game, units: list[Unit], designated: bool, suffix: str) -> str:
    """Designated units by id; generic counters counted by nationality and type."""
    if designated:
        return ", ".join(f"{u.id}{suffix}" for u in units)
    nationalities = [n.id for n in game.manifest.nationality]
    types = [t.id for t in game.manifest.unit_type]
    names = _names(game)
    groups: dict[tuple[int, int], list[Unit]] = defaultdict(list)
    for u in units:
        groups[(nationalities.index(u.nationality), types.index(u.type))].append(u)
    parts = []
    for key in sorted(groups):
        members = groups[key]
        shared = sorted({u.name for u in members})
        nationality, unit_type = members[0].nationality, members[0].type
        label = shared[0] if len(shared) == 1 else f"{names[nationality]} {names[unit_type].lower()}"
        # No-break spaces keep "3 × US infantry division" from breaking after the count.
        parts.append(f"{len(members)}\u00a0×\u00a0{label}{suffix}")
    return ", ".join(parts)


def _reinforcement_sheet(game: Game) -> Sheet:
    """Reinforcement schedule: per scenario, turn by turn, each side's arrivals and entries."""
    names = _names(game)
    designated = _has_designations(game)
    sides = list(game.manifest.sides)
    tags = sorted({tag for _, a in game.reinforcements for tag in a.tags})
    symbols = {tag: TAG_SYMBOLS[i % len(TAG_SYMBOLS)] for i, tag in enumerate(tags)}
    notes: list[str] = []
    blocks: list[Block] = []
    scenarios = [s for s in game.manifest.scenario if any(a.scenario == s.id for _, a in game.reinforcements)]
    for scenario in scenarios:
        by_turn: dict[int, dict[str, list[Arrival]]] = defaultdict(lambda: defaultdict(list))
        for _, arrival in game.reinforcements:
            if arrival.scenario == scenario.id and arrival.unit in game.units_by_id:
                by_turn[arrival.turn][game.units_by_id[arrival.unit].side].append(arrival)
        header = [Cell("Turn", bold=True, fill=HEADER_FILL)]
        header += [Cell(side, bold=True, fill=_side_colour(game, side), colour=_on(_side_colour(game, side)),
                        align="left") for side in sides]
        rows = [header]
        for turn in sorted(by_turn):
            row = [Cell(str(turn), bold=True, fill=HEADER_FILL)]
            for side in sides:
                # One line per entry and tag group, in the order the schedule lists them.
                groups: dict[tuple[str, tuple[str, ...], str], list[Unit]] = defaultdict(list)
                for arrival in by_turn[turn][side]:
                    key = (arrival.entry or "", arrival.tags, arrival.note)
                    groups[key].append(game.units_by_id[arrival.unit])
                lines = []
                for (entry, group_tags, note), units in groups.items():
                    suffix = "".join(symbols[t] for t in group_tags)
                    text = _units_text(game, units, designated, suffix)
                    where = _entry_name(game, entry, names)
                    if note:
                        if note not in notes:
                            notes.append(note)
                        text += f" ({notes.index(note) + 1})"
                    lines.append(f"{where}: {text}" if where else text)
                row.append(Cell("\n".join(lines), align="left", size=BODY_PX - 1))
            rows.append(row)
        if blocks:
            blocks.append(Gap(10))
        # Each side's column gets room in proportion to its longest line (in characters, a fair proxy).
        weights = {c: float(max(20, *(len(line) for row in rows[1:] for line in row[c].text.split("\n"))))
                   for c in range(1, len(sides) + 1)}
        blocks += [Heading(scenario.name), Table(rows, wrap=weights, min_wrap_px=260, max_wrap_px=600)]
    legend = []
    for tag in tags:
        legend.append(f"{symbols[tag]} {_humane(tag)}")
    if legend:
        blocks += [Gap(4), Paragraph("Marks: " + "; ".join(legend) + ".", size=SMALL_PX + 1)]
    if notes:
        blocks.append(Paragraph("  ".join(f"({i}) {note}." if not note.endswith(".") else f"({i}) {note}"
                                          for i, note in enumerate(notes, 1)), size=SMALL_PX + 1))
    footer = _footer(*(a.source for _, a in game.reinforcements))
    return Sheet("Reinforcement Schedule", game.manifest.title, blocks, footer)


def _section_order(source: str) -> tuple[int, ...]:
    """Sort key of a source: rule sections in number order, the rest after them."""
    return _section_key(source) if all(part.isdigit() for part in source.split(".")) else (999,)


def _replacement_sheet(game: Game) -> Sheet:
    """Replacement points: per scenario a grid of turns against side and kind."""
    blocks: list[Block] = []
    scenarios = [s for s in game.manifest.scenario if any(r.scenario == s.id for _, r in game.replacements)]
    for scenario in scenarios:
        records = [r for _, r in game.replacements if r.scenario == scenario.id]
        turns = list(range(scenario.first_turn, scenario.last_turn + 1))
        # One row per side, kind and source: rates from two sections (Omaha's campaign, 14.0 and
        # 11.2.5 added by 14.0 g) are shown apart, each as its section gives it, never summed.
        keys: list[tuple[str, str, str]] = []
        for side in game.manifest.sides:
            keys += sorted({(r.side, r.kind, r.source) for r in records if r.side == side},
                           key=lambda k: (k[1], _section_order(k[2])))
        several = len({r.source for r in records}) > 1
        amounts: dict[tuple[str, str, str, int], int] = defaultdict(int)
        for r in records:
            amounts[(r.side, r.kind, r.source, r.turn)] += r.amount
        # Long scenarios split into chunks so the grid stays within the chart width.
        parts = ceil(len(turns) / 26)
        chunk = ceil(len(turns) / parts)
        if blocks:
            blocks.append(Gap(10))
        blocks.append(Heading(scenario.name))
        for start in range(0, len(turns), chunk):
            part = turns[start:start + chunk]
            rows = [[Cell("Turn", bold=True, fill=HEADER_FILL, align="left")]
                    + [Cell(str(t), bold=True, fill=HEADER_FILL) for t in part]]
            for side, kind, source in keys:
                fill = _mix(_side_colour(game, side), PAPER, 0.55)
                label = f"{side} {_humane(kind)}" + (f" ({_source(source)})" if several else "")
                rows.append([Cell(label, bold=True, fill=fill, align="left")]
                            + [Cell(str(amounts[(side, kind, source, t)]) if (side, kind, source, t) in amounts
                                    else "", fill=None if (side, kind, source, t) in amounts else EMPTY_FILL)
                               for t in part])
            if start:
                blocks.append(Gap(6))
            blocks.append(Table(rows, min_column_px=44))
        absent = [side for side in game.manifest.sides if not any(r.side == side for r in records)]
        if absent:
            blocks.append(Paragraph(f"{', '.join(absent)}: no replacements in this scenario.", size=SMALL_PX + 1))
    notes = sorted({r.note for _, r in game.replacements if r.note})
    for note in notes:
        blocks.append(Paragraph(note, size=SMALL_PX + 1))
    return Sheet("Replacement Points", game.manifest.title, blocks, _footer(*(r.source for _, r in game.replacements)))


def _chart_sheet(game: Game, chart: Chart) -> Sheet:
    """Any printed chart kept as rows: header from its columns, cells with ids shown by name."""
    names = _names(game)
    header = [Cell(_humane(c).upper(), bold=True, fill=HEADER_FILL, size=SMALL_PX) for c in chart.columns]
    rows = [header]
    for row in chart.rows:
        rows.append([Cell(names.get(value, _humane(value)) if value else "—", colour=INK if value else MUTED)
                     for value in row])
    blocks: list[Block] = [Table(rows, min_column_px=70)]
    if chart.note:
        blocks += [Gap(4), Paragraph(chart.note, size=BODY_PX - 1)]
    return Sheet(chart.name, game.manifest.title, blocks, _footer(chart.source))


def _turn_sheet(game: Game, track: Track) -> Sheet:
    """Turn record track: a space per turn, reinforcement turns marked by side, scenario ends captioned."""
    arriving: dict[int, set[str]] = defaultdict(set)
    for _, arrival in game.reinforcements:
        unit = game.units_by_id.get(arrival.unit)
        if unit is not None:
            arriving[arrival.turn].add(unit.side)
    ends: dict[int, list[str]] = defaultdict(list)
    for scenario in game.manifest.scenario:
        if scenario.last_turn < track.last or len(game.manifest.scenario) > 1:
            ends[scenario.last_turn].append(scenario.name)
    spaces = []
    for turn in range(track.first, track.last + 1):
        marks = tuple((side[0], _side_colour(game, side)) for side in game.manifest.sides if side in arriving[turn])
        caption = "\n".join(f"end: {_short(name)}" for name in ends.get(turn, []))
        spaces.append(Space(str(turn), PAPER, marks, caption, END_OUTLINE if caption else INK))
    legend = "  ".join(f"{side[0]} = {side} reinforcements arrive" for side in game.manifest.sides
                       if any(side in sides for sides in arriving.values()))
    blocks: list[Block] = [TrackRow(tuple(spaces), space_px=62, number_px=22)]
    if legend:
        blocks.append(Paragraph(legend, size=SMALL_PX + 1))
    if track.note:
        blocks.append(Paragraph(track.note, size=SMALL_PX + 1))
    for scenario in game.manifest.scenario:
        blocks.append(Paragraph(f"{scenario.name}: turns {scenario.first_turn}–{scenario.last_turn}, "
                                f"{scenario.first_player} player first.", size=SMALL_PX + 1))
    return Sheet(track.name, game.manifest.title, blocks, _footer(track.source))


def _short(name: str) -> str:
    """A scenario name without its parenthesis, for a caption under a small space."""
    return name.split(" (")[0]


def _supply_sheet(game: Game, tracks: list[Track]) -> Sheet:
    """Every supply track: numbered spaces in the side's colour."""
    blocks: list[Block] = []
    for track in tracks:
        colour = _side_colour(game, track.side) if track.side else HEADER_FILL
        fill = _mix(colour, PAPER, 0.45)
        spaces = tuple(Space(str(n), fill) for n in range(track.first, track.last + 1))
        if blocks:
            blocks.append(Gap(8))
        blocks += [Heading(track.name + (f" ({_source(track.source)})" if track.source else "")),
                   TrackRow(spaces, space_px=46, number_px=16)]
        if track.note:
            blocks.append(Paragraph(track.note, size=SMALL_PX + 1))
    return Sheet("Supply Tracks", game.manifest.title, blocks, _footer(*(t.source for t in tracks)))


def _sequence_lines(items: Sequence[SequenceItem], prefix: str, depth: int, players: tuple[str | None, str | None]
                    ) -> list[tuple[int, str, str, str]]:
    """Outline lines of nested sequence items, numbered 1., 1.1, ..."""
    first, second = players
    who = {"both": "", "first": first or "first player", "second": second or "second player",
           "each": "each player in turn"}
    lines = []
    for i, item in enumerate(items, 1):
        number = f"{prefix}{i}"
        once = "once, before the first turn" if item.before_first_turn else ""
        aside = " · ".join(part for part in (once, who[item.player], _source(item.source)) if part)
        lines.append((depth, number + ("." if depth == 0 else ""), item.name, aside))
        lines += _sequence_lines(item.items, number + ".", depth + 1, players)
    return lines


def _sequence_sheet(game: Game) -> Sheet:
    """Sequence of play as a numbered outline."""
    lines = _sequence_lines(game.manifest.sequence, "", 0, _first_players(game))
    blocks: list[Block] = [Outline(tuple(lines))]
    return Sheet("Sequence of Play", game.manifest.title, blocks, _footer(*(s.source for s in game.manifest.sequence)))


def chart_sheets(game: Game) -> dict[str, Sheet]:
    """Every chart the data supports, by chart id, in a fixed order."""
    out: dict[str, Sheet] = {}
    if game.crt is not None:
        out["crt"] = _crt_sheet(game, game.crt)
    if game.terrain:
        out["terrain"] = _terrain_sheet(game)
    if game.reinforcements:
        out["reinforcements"] = _reinforcement_sheet(game)
    if game.replacements:
        out["replacements"] = _replacement_sheet(game)
    turn_tracks = [t for t in game.manifest.track if t.kind == "turn"]
    if turn_tracks:
        out["turn_track"] = _turn_sheet(game, turn_tracks[0])
    supply = [t for t in game.manifest.track if t.kind == "supply"]
    if supply:
        out["supply_tracks"] = _supply_sheet(game, supply)
    if game.manifest.sequence:
        out["sequence"] = _sequence_sheet(game)
    for chart in game.charts.chart:
        out[f"chart-{chart.id}"] = _chart_sheet(game, chart)
    return out


def render_charts(game: Game, scale: float = 1.0) -> dict[str, Image.Image]:
    """Every chart of a game as an image, keyed by a stable chart id."""
    pen = Pen(scale)
    _length.cache_clear()  # measured afresh for each game's charts (and each build)
    return {chart_id: sheet.render(pen) for chart_id, sheet in chart_sheets(game).items()}


def png_bytes(image: Image.Image) -> bytes:
    """PNG bytes with no metadata, so equal pictures give equal files."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def write_charts(game: Game, out_dir: Path, scale: float = 1.0) -> list[Path]:
    """Write `<game>-<chart id>.png` for every chart, atomically; the paths written."""
    paths = []
    for chart_id, image in render_charts(game, scale).items():
        path = out_dir / f"{game.id}-{chart_id}.png"
        write_atomically(path, png_bytes(image))
        paths.append(path)
    return paths


__all__ = ["render_charts", "write_charts", "png_bytes", "chart_sheets"]
