"""Ruled tables on a chart: cells, terrain swatches, and columns that share the width and wrap their text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from functools import lru_cache
from math import cos, pi, sin
from typing import Literal

from PIL import Image, ImageDraw

from builder.render.charts.layout import BODY_PX, RULE, Pen
from builder.render.ink import INK, PAPER, Font, TextDraw, text_px, wrap
from wargame.records import frozen

Align = Literal["left", "centre", "right"]


@lru_cache(maxsize=4096)
def display(text: str) -> str:
    """Typographic touches only: true minus signs before digits, a spaced dash for a lone '-' (remembered: a table's
    layout asks it of every cell for its natural, least and final widths and its heights)."""
    if text == "-":
        return "–"
    out = []
    for i, ch in enumerate(text):
        is_sign = ch == "-" and i + 1 < len(text) and text[i + 1].isdigit() and (i == 0 or not text[i - 1].isalnum())
        out.append("−" if is_sign else ch)
    return "".join(out)


@lru_cache(maxsize=4096)
def _wrapped(text: str, face: Font, width_px: int) -> tuple[str, ...]:
    """A cell's text shown and wrapped to a width, remembered: a table's rows are measured for its height, then
    again to be drawn."""
    return tuple(wrap(display(text), face, width_px))


@frozen
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


@frozen
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


@frozen
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
        return text_px(display(cell.text), pen.font(cell.size, cell.bold))

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

    def _lines(self, pen: Pen, cell: Cell, width_px: int) -> tuple[str, ...]:
        """A cell's text broken to its column."""
        pad_x, _ = self._pad(pen)
        return _wrapped(cell.text, pen.font(cell.size, cell.bold), width_px - 2 * pad_x)

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
        draw = TextDraw(image)
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
