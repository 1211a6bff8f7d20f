"""Blocks of a chart besides tables: headings, paragraphs, gaps, numbered outlines and rows of track spaces."""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil

from PIL import Image

from builder.render.charts.layout import BODY_PX, HEADING_PX, MAX_WIDTH_PX, MUTED, RULE, SMALL_PX, Pen
from builder.render.ink import INK, TextDraw, text_colour_on, text_px, wrap
from wargame.records import frozen


@frozen
class Heading:
    """A section heading with a rule under it."""

    text: str

    def natural_px(self, pen: Pen) -> int:
        """The heading's text width."""
        return text_px(self.text, pen.font(HEADING_PX, bold=True))

    def min_px(self, pen: Pen) -> int:
        """Headings do not wrap."""
        return self.natural_px(pen)

    def height_px(self, pen: Pen, width_px: int) -> int:
        """One line and the rule."""
        return pen.line_px(HEADING_PX) + pen.px(6)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Bold text, thin rule."""
        draw = TextDraw(image)
        draw.text((x, y + pen.line_px(HEADING_PX) - pen.px(5)), self.text, font=pen.font(HEADING_PX, bold=True),
                  fill=INK, anchor="ls")
        rule_y = y + pen.line_px(HEADING_PX) + pen.px(2)
        draw.line([(x, rule_y), (x + width_px, rule_y)], fill=INK, width=pen.px(1.5))


@frozen
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
        return len(wrap(self.text, pen.font(self.size, self.bold), width_px)) * pen.line_px(self.size)

    def draw(self, image: Image.Image, pen: Pen, x: int, y: int, width_px: int) -> None:
        """Left-aligned wrapped lines."""
        draw = TextDraw(image)
        face = pen.font(self.size, self.bold)
        step = pen.line_px(self.size)
        for i, line in enumerate(wrap(self.text, face, width_px)):
            draw.text((x, y + i * step + step // 2), line, font=face, fill=self.colour, anchor="lm")


@frozen
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


@frozen
class Space:
    """One space of a track: its number, fill and small marks (tag text on a colour)."""

    label: str
    fill: str
    marks: tuple[tuple[str, str], ...] = ()
    caption: str = ""
    outline: str = INK


@frozen
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
        draw = TextDraw(image)
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
                draw.text((left + size / 2, cy), space.label, font=number, fill=text_colour_on(space.fill), anchor="mm")
                if has_marks:
                    mark_h = pen.px(15)
                    widths = [text_px(text, mark_face) + pen.px(8) for text, _ in space.marks]
                    total = sum(widths) + pen.px(3) * (len(widths) - 1)
                    mx = left + (size - total) / 2
                    my = top + size - mark_h - pen.px(5)
                    for (text, colour), w in zip(space.marks, widths):
                        draw.rounded_rectangle((mx, my, mx + w, my + mark_h), radius=pen.px(4), fill=colour,
                                               outline=INK, width=1)
                        draw.text((mx + w / 2, my + mark_h / 2), text, font=mark_face, fill=text_colour_on(colour),
                                  anchor="mm")
                        mx += w + pen.px(3)
                for k, line in enumerate(space.caption.split("\n") if space.caption else []):
                    # Centred under its space, but kept inside the chart at either end of a row.
                    half = text_px(line, caption_face) / 2
                    cx = min(max(left + size / 2, x + half), x + width_px - half)
                    draw.text((cx, top + size + pen.px(3) + k * pen.line_px(SMALL_PX)), line,
                              font=caption_face, fill=INK, anchor="mt")
            top += size + self._caption_px(pen, row) + pen.px(12)


@frozen
class Outline:
    """A numbered outline: (depth, number, text, aside) lines, the aside right-aligned in grey."""

    lines: tuple[tuple[int, str, str, str], ...]

    def _indent(self, pen: Pen, depth: int) -> int:
        """Left offset of a depth."""
        return depth * pen.px(34)

    def _number_px(self, pen: Pen) -> int:
        """Width kept for numbers."""
        face = pen.font(BODY_PX, bold=True)
        return max((text_px(n, face) for _, n, _, _ in self.lines), default=0) + pen.px(10)

    def natural_px(self, pen: Pen) -> int:
        """The longest line with its aside."""
        body, aside = pen.font(BODY_PX), pen.font(SMALL_PX)
        return max((self._indent(pen, d) + self._number_px(pen) + text_px(t, body) + pen.px(30) + text_px(a, aside)
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
        draw = TextDraw(image)
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
