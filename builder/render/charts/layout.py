"""The charts' layout engine: sizes, palette, the Pen that scales them, the Block and the Sheet stacking blocks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image

from builder.render.ink import INK, PAPER, Font, TextDraw, font, text_px
from wargame.records import frozen

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


@frozen
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


@frozen
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
        title_need = text_px(self.title, title_face) + text_px(self.game_title, game_face) + pen.px(60)
        natural = max([b.natural_px(pen) for b in self.blocks] + [title_need - 2 * margin])
        inner = min(max(natural, pen.px(MIN_WIDTH_PX) - 2 * margin), pen.px(MAX_WIDTH_PX) - 2 * margin)
        inner = max([inner] + [b.min_px(pen) for b in self.blocks])
        width = inner + 2 * margin
        title_h = pen.px(TITLE_PX * 2.1)
        footer_h = pen.line_px(SMALL_PX) + pen.px(6) if self.footer else 0
        # Each block's height once: a table's is its whole layout, cells measured and wrapped.
        heights = [b.height_px(pen, inner) for b in self.blocks]
        body_h = sum(heights) + gap * max(0, len(self.blocks) - 1)
        height = title_h + margin + body_h + margin + footer_h
        image = Image.new("RGB", (width, height), PAPER)
        draw = TextDraw(image)
        draw.rectangle((0, 0, width - 1, title_h - 1), fill=TITLE_FILL)
        draw.text((margin, title_h // 2), self.title, font=title_face, fill=PAPER, anchor="lm")
        draw.text((width - margin, title_h // 2), self.game_title, font=game_face, fill=PAPER, anchor="rm")
        y = title_h + margin
        for block, block_h in zip(self.blocks, heights):
            block.draw(image, pen, margin, y, inner)
            y += block_h + gap
        if self.footer:
            draw.text((width - margin, height - margin // 2 - footer_h // 2), self.footer, font=pen.font(SMALL_PX),
                      fill=MUTED, anchor="rm")
        draw.rectangle((0, 0, width - 1, height - 1), outline=INK, width=pen.px(2))
        return image
