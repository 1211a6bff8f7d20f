"""The off-map board of a module: holding boxes (eliminated units, cups...) and numbered tracks.

The layout is computed once, as rectangles: the picture is drawn from it, and the module turns
the same rectangles into VASSAL zones (so the chat names the box a piece moved to) and places
set-up stacks at their seats, so the module, the picture and the log reader agree. Boxes and
spaces are plain arithmetic on game.toml, the set-up and the counter size (no font metrics), so
a reader of saved games can lay them out again without drawing anything; titles are fitted into
the fixed bands left for them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from PIL import Image, ImageDraw

from builder.render.style import INK, PAPER, font
from wargame.game import Game
from wargame.models import Track

BOX_W, BOX_H = 260, 150
"""Least size of a box; a box grows to hold its largest set-up stack."""
BOX_PAD = 10
BOX_COLUMNS = 4
SPACE = 64
"""Least side of a track space; a space grows to hold a counter below its number."""
SPACE_LABEL_H = 18
MARGIN = 16
TITLE_GAP = 4
TITLE_PT = 16
TITLE_LINE_H = 19
"""Line height of a title at TITLE_PT (DejaVu Sans Bold: ascent 15, descent 4)."""
BOX_TITLE_LINES = 3
"""A box title may take three lines above its box; a longer one is set smaller."""
SPACE_LABEL_PT = 15
SPACE_BONUS_PT = 11
BONUS_INK = "#77706a"
"""The value of a supply space under a flipped marker, printed small and grey beside the number."""
STACK_OFFSET_PX = 4
"""How far each piece of an unexpanded stack is drawn from the one below (the module's StackMetrics)."""

Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in board pixels; x1 and y1 are just outside (as java.awt.Polygon counts)."""


@dataclass(frozen=True)
class HoldingArea:
    """A box or one space of a track: its location id, the name VASSAL reports and its rectangle."""

    location: str
    name: str
    rect: Rect
    side: str | None
    seat: tuple[int, int]
    """The pixel where pieces placed here sit (a track space's counter leaves its number visible)."""


@dataclass(frozen=True)
class HoldingTitle:
    """A printed title: its lines, where they start, their baselines and the rectangle their ink covers."""

    lines: tuple[str, ...]
    x: int
    baselines: tuple[int, ...]
    rect: Rect
    size_pt: int


@dataclass(frozen=True)
class HoldingLayout:
    """Where everything of the holding board goes: size, boxes, track spaces and titles."""

    size: tuple[int, int]
    boxes: tuple[HoldingArea, ...]
    spaces: tuple[HoldingArea, ...]
    titles: tuple[HoldingTitle, ...]

    @property
    def areas(self) -> tuple[HoldingArea, ...]:
        """Every box, then every track space."""
        return self.boxes + self.spaces


@dataclass(frozen=True)
class HoldingBoard:
    """The board image and its layout."""

    image: Image.Image
    layout: HoldingLayout

    def location_of(self, location: str) -> tuple[int, int] | None:
        """Pixel of a box id or a 'track@space' location; None if it is neither."""
        for area in self.layout.areas:
            if area.location == location:
                return area.seat
        return None

    def name_at(self, x: int, y: int) -> str | None:
        """The box id or 'track@space' whose area holds a pixel (for reading logs)."""
        for area in self.layout.areas:
            x0, y0, x1, y1 = area.rect
            if x0 <= x < x1 and y0 <= y < y1:
                return area.location
        return None


def space_name(track: Track, value: int) -> str:
    """What VASSAL reports for a track space: 'Turn 3', 'Allied supply 12'."""
    if track.kind == "turn":
        return f"Turn {value}"
    words = track.name.split()
    if len(words) > 1 and words[-1].lower() == "track":
        words = words[:-1]
    return f"{' '.join(words)} {value}"


def flip_bonus(game: Game, track: Track) -> int | None:
    """What a supply marker's flip side adds on this track (8.2: Allied +30, German +20), if any."""
    if track.kind != "supply":
        return None
    for marker in game.markers.marker:
        if marker.kind == "supply" and marker.side == track.side and marker.text.lstrip("+").isdigit():
            return int(marker.text.lstrip("+"))
    return None


def _wrap(text: str, width_px: int, size_pt: int) -> tuple[str, ...]:
    """A title broken into lines no wider than width_px (a longer word keeps its own line)."""
    title_font = font(size_pt, bold=True)
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and title_font.getlength(trial) <= width_px:
            lines[-1] = trial
        else:
            lines.append(word)
    return tuple(lines) or ("",)


def _title(text: str, x: int, bottom: int, width_px: int, max_lines: int) -> HoldingTitle:
    """A title fitted into width_px and max_lines, its last line's ink ending at `bottom`."""
    size_pt = TITLE_PT
    while True:
        title_font = font(size_pt, bold=True)
        lines = _wrap(text, width_px, size_pt)
        fits = len(lines) <= max_lines and all(title_font.getlength(line) <= width_px for line in lines)
        if fits or size_pt <= 8:
            break
        size_pt -= 1
    ascent, descent = title_font.getmetrics()
    step = ascent + descent
    top = bottom - len(lines) * step
    baselines = tuple(top + ascent + i * step for i in range(len(lines)))
    ink = max(math.ceil(title_font.getlength(line)) for line in lines)
    return HoldingTitle(lines, x, baselines, (x, top, x + ink, bottom), size_pt)


def _largest_stack(game: Game) -> dict[str, int]:
    """The most pieces any scenario sets up in each box."""
    counts: Counter[tuple[str, str]] = Counter()
    for _, placement in game.setup:
        counts[(placement.scenario, placement.location)] += placement.count
    largest: dict[str, int] = {}
    for (_, location), count in counts.items():
        largest[location] = max(count, largest.get(location, 0))
    return largest


def holding_layout(game: Game, counter_px: int, per_row: int = 15) -> HoldingLayout:
    """Boxes of game.toml in rows under bands for their titles, then every track as rows of numbered spaces.

    Every box is big enough for the largest stack set up in any box, and every title is fitted
    into the band above its own box, so no title runs into another or under a counter.
    """
    boxes = game.manifest.box
    largest = _largest_stack(game)
    stack_px = counter_px + (max((largest.get(b.id, 1) for b in boxes), default=1) - 1) * STACK_OFFSET_PX
    box_w = max(BOX_W, stack_px + 2 * BOX_PAD)
    box_h = max(BOX_H, stack_px + 2 * BOX_PAD)
    space = max(SPACE, counter_px + SPACE_LABEL_H + 6)
    width = max(BOX_COLUMNS * box_w + (BOX_COLUMNS - 1) * MARGIN, per_row * space) + 2 * MARGIN
    box_areas: list[HoldingArea] = []
    titles: list[HoldingTitle] = []
    y = MARGIN
    for row_start in range(0, len(boxes), BOX_COLUMNS):
        row = boxes[row_start:row_start + BOX_COLUMNS]
        box_top = y + BOX_TITLE_LINES * TITLE_LINE_H + TITLE_GAP
        for column, box in enumerate(row):
            x0 = MARGIN + column * (box_w + MARGIN)
            titles.append(_title(box.name, x0 + 4, box_top - TITLE_GAP, box_w - 8, BOX_TITLE_LINES))
            rect = (x0, box_top, x0 + box_w + 1, box_top + box_h + 1)
            # An unexpanded stack climbs up and right from its bottom piece: centre the whole stack.
            climb = (largest.get(box.id, 1) - 1) * STACK_OFFSET_PX
            seat = (x0 + (box_w + 1 - climb) // 2, box_top + (box_h + 1 + climb) // 2)
            box_areas.append(HoldingArea(box.id, box.name, rect, box.side, seat))
        y = box_top + box_h + 1 + MARGIN
    spaces: list[HoldingArea] = []
    for track in game.manifest.track:
        y += TITLE_LINE_H + TITLE_GAP
        titles.append(_title(track.name, MARGIN, y - TITLE_GAP, width - 2 * MARGIN, 1))
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row_index = offset % per_row, offset // per_row
            x0, y0 = MARGIN + column * space, y + row_index * space
            seat = (x0 + space // 2, y0 + SPACE_LABEL_H + (space - SPACE_LABEL_H) // 2)
            spaces.append(HoldingArea(f"{track.id}@{value}", space_name(track, value),
                                      (x0, y0, x0 + space, y0 + space), track.side, seat))
        y += ((track.last - track.first) // per_row + 1) * space + MARGIN
    return HoldingLayout((width, y), tuple(box_areas), tuple(spaces), tuple(titles))


def render_holding_board(game: Game, counter_px: int, per_row: int = 15) -> HoldingBoard:
    """Draw the holding board's layout: framed boxes, numbered track spaces and their titles."""
    layout = holding_layout(game, counter_px, per_row)
    image = Image.new("RGB", layout.size, PAPER)
    draw = ImageDraw.Draw(image)
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
