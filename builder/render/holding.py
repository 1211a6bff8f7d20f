"""The off-map board of a module: holding boxes (eliminated units, cups...) and numbered tracks.

The layout is computed once, as rectangles: the picture is drawn from it, and the module turns
the same rectangles into VASSAL zones (so the chat names the box a piece moved to) and places
set-up stacks at their seats, so the module, the picture and the log reader agree. Boxes and
spaces are plain arithmetic on game.toml, the set-up and the counter size (no font metrics), in
wargame/holding.py, which the log reader lays the board out with too; titles are fitted here into
the fixed bands left for them.
"""

from __future__ import annotations

import math

from PIL import Image

from builder.render.ink import INK, PAPER, TextDraw, font, text_length, wrap_words
from wargame.game import Game
from wargame.holding import (
    BOX_COLUMNS, BOX_H, BOX_PAD, BOX_TITLE_LINES, BOX_W, MARGIN, SPACE, SPACE_LABEL_H, STACK_OFFSET_PX, TITLE_GAP,
    TITLE_LINE_H, HoldingArea, HoldingGeometry, Rect, holding_geometry, space_name,
)
from wargame.models import Track
from wargame.records import frozen

TITLE_PT = 16
"""Titles are set at this size when they fit (wargame.holding's TITLE_LINE_H is its line height)."""
SPACE_LABEL_PT = 15
SPACE_BONUS_PT = 11
BONUS_INK = "#77706a"
"""The value of a supply space under a flipped marker, printed small and grey beside the number."""


@frozen
class HoldingTitle:
    """A printed title: its lines, where they start, their baselines and the rectangle their ink covers."""

    lines: tuple[str, ...]
    x: int
    baselines: tuple[int, ...]
    rect: Rect
    size_pt: int


@frozen
class HoldingLayout:
    """Where everything of the holding board goes: its geometry (size, boxes, track spaces) and the titles."""

    geometry: HoldingGeometry
    titles: tuple[HoldingTitle, ...]

    @property
    def size(self) -> tuple[int, int]:
        """The board's size in pixels."""
        return self.geometry.size

    @property
    def boxes(self) -> tuple[HoldingArea, ...]:
        """Every box."""
        return self.geometry.boxes

    @property
    def spaces(self) -> tuple[HoldingArea, ...]:
        """Every track space."""
        return self.geometry.spaces

    @property
    def areas(self) -> tuple[HoldingArea, ...]:
        """Every box, then every track space."""
        return self.geometry.areas

    def location_of(self, location: str) -> tuple[int, int] | None:
        """Pixel of a box id or a 'track@space' location; None if it is neither."""
        for area in self.areas:
            if area.location == location:
                return area.seat
        return None


@frozen
class HoldingBoard:
    """The board image and its layout."""

    image: Image.Image
    layout: HoldingLayout

    def location_of(self, location: str) -> tuple[int, int] | None:
        """Pixel of a box id or a 'track@space' location; None if it is neither."""
        return self.layout.location_of(location)

    def name_at(self, x: int, y: int) -> str | None:
        """The box id or 'track@space' whose area holds a pixel (for reading logs)."""
        for area in self.layout.areas:
            x0, y0, x1, y1 = area.rect
            if x0 <= x < x1 and y0 <= y < y1:
                return area.location
        return None


def flip_bonus(game: Game, track: Track) -> int | None:
    """What a supply marker's flip side adds on this track (8.2: Allied +30, German +20), if any."""
    if track.kind != "supply":
        return None
    for marker in game.markers.marker:
        if marker.kind == "supply" and marker.side == track.side and marker.text.lstrip("+").isdigit():
            return int(marker.text.lstrip("+"))
    return None


def _title(text: str, x: int, bottom: int, width_px: int, max_lines: int) -> HoldingTitle:
    """A title fitted into width_px and max_lines, its last line's ink ending at `bottom`."""
    size_pt = TITLE_PT
    while True:
        title_font = font(size_pt, bold=True)
        # A longer word keeps its own line; a title of no words is one empty line.
        lines = tuple(wrap_words(text, title_font, width_px)) or ("",)
        fits = len(lines) <= max_lines and all(text_length(title_font, line) <= width_px for line in lines)
        if fits or size_pt <= 8:
            break
        size_pt -= 1
    ascent, descent = title_font.getmetrics()
    step = ascent + descent
    top = bottom - len(lines) * step
    baselines = tuple(top + ascent + i * step for i in range(len(lines)))
    ink = max(math.ceil(text_length(title_font, line)) for line in lines)
    return HoldingTitle(lines, x, baselines, (x, top, x + ink, bottom), size_pt)


def holding_layout(game: Game, counter_px: int, per_row: int = 15) -> HoldingLayout:
    """The board's geometry (wargame.holding, which the log reader reads with) and each title fitted into its band."""
    geometry = holding_geometry(game, counter_px, per_row)
    titles = tuple(_title(b.text, b.x, b.bottom, b.width_px, b.max_lines) for b in geometry.bands)
    return HoldingLayout(geometry, titles)


def render_holding_board(game: Game, counter_px: int, per_row: int = 15) -> HoldingBoard:
    """Draw the holding board's layout: framed boxes, numbered track spaces and their titles."""
    layout = holding_layout(game, counter_px, per_row)
    image = Image.new("RGB", layout.size, PAPER)
    draw = TextDraw(image)
    label_font = font(SPACE_LABEL_PT)
    side_colour = {n.side: n.background_colour for n in game.manifest.nationality}
    for box in layout.boxes:
        x0, y0, x1, y1 = box.rect
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=side_colour.get(box.side or "", INK), width=4)
    bonus_font = font(SPACE_BONUS_PT)
    bonuses = {t.id: flip_bonus(game, t) for t in game.manifest.track}
    for space in layout.spaces:
        x0, y0, x1, y1 = space.rect
        draw.rectangle((x0, y0, x1 - 2, y1 - 2), outline=side_colour.get(space.side or "", INK), width=2)
        track_id, _, value = space.location.rpartition("@")
        draw.text((x0 + 5, y0 + 3), value, fill=INK, font=label_font)
        bonus = bonuses.get(track_id)
        if bonus is not None:
            # 8.2: the same space counts `bonus` more under a flipped marker; print that value small.
            draw.text((x1 - 7, y0 + 5), str(int(value) + bonus), fill=BONUS_INK, font=bonus_font, anchor="ra")
    for title in layout.titles:
        for line, baseline in zip(title.lines, title.baselines):
            draw.text((title.x, baseline), line, fill=INK, font=font(title.size_pt, bold=True), anchor="ls")
    return HoldingBoard(image, layout)


__all__ = [
    "BOX_COLUMNS", "BOX_H", "BOX_PAD", "BOX_TITLE_LINES", "BOX_W", "MARGIN", "SPACE", "SPACE_LABEL_H",
    "STACK_OFFSET_PX", "TITLE_GAP", "TITLE_LINE_H", "HoldingArea", "HoldingBoard", "HoldingLayout", "HoldingTitle",
    "Rect", "flip_bonus", "holding_layout", "render_holding_board", "space_name",
]
