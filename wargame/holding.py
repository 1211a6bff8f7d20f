"""The off-map board's geometry: where each holding box and track space of a module lies.

Plain arithmetic on game.toml, the set-up and the counter size (no font metrics), so the
builder draws the board and its zones with it and the log reader names a piece's pixel with it:
one layout, never two that could disagree (house style 2). The titles are fitted into the bands
left for them by the builder, which alone has the fonts.
"""

from __future__ import annotations

from collections import Counter

from wargame.game import Game
from wargame.layout import Layout
from wargame.models import Track
from wargame.records import frozen

COUNTER_ACROSS_FLATS = 0.8
"""A counter's side as a share of its hex's width across flats: the counter sits inside the hex,
so the town names and hex numbers around it stay visible."""

BOX_W, BOX_H = 260, 150
"""Least size of a box; a box grows to hold its largest set-up stack."""
BOX_PAD = 10
BOX_COLUMNS = 4
SPACE = 64
"""Least side of a track space; a space grows to hold a counter below its number."""
SPACES_PER_ROW = 15
SPACE_LABEL_H = 18
MARGIN = 16
TITLE_GAP = 4
TITLE_LINE_H = 19
"""Line height of a title at the builder's title size (DejaVu Sans Bold 16 pt: ascent 15, descent 4)."""
BOX_TITLE_LINES = 3
"""A box title may take three lines above its box; a longer one is set smaller."""
STACK_OFFSET_PX = 4
"""How far each piece of an unexpanded stack is drawn from the one below (the module's StackMetrics)."""

Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in board pixels; x1 and y1 are just outside (as java.awt.Polygon counts)."""


def counter_size_px(layout: Layout) -> int:
    """Side in pixels of the counters played on a board drawn with `layout`."""
    return round(COUNTER_ACROSS_FLATS * layout.across_flats_px)


@frozen
class HoldingArea:
    """A box or one space of a track: its location id, the name VASSAL reports and its rectangle."""

    location: str
    name: str
    rect: Rect
    side: str | None
    seat: tuple[int, int]
    """The pixel where pieces placed here sit (a track space's counter leaves its number visible)."""


@frozen
class TitleBand:
    """Where a title goes: its text, left edge, the bottom its last line ends at, width and lines allowed."""

    text: str
    x: int
    bottom: int
    width_px: int
    max_lines: int


@frozen
class HoldingGeometry:
    """The holding board's size, boxes, track spaces and the bands for their titles."""

    size: tuple[int, int]
    boxes: tuple[HoldingArea, ...]
    spaces: tuple[HoldingArea, ...]
    bands: tuple[TitleBand, ...]

    @property
    def areas(self) -> tuple[HoldingArea, ...]:
        """Every box, then every track space."""
        return self.boxes + self.spaces


def space_name(track: Track, value: int) -> str:
    """What VASSAL reports for a track space: 'Turn 3', 'Allied supply 12'."""
    if track.kind == "turn":
        return f"Turn {value}"
    words = track.name.split()
    if len(words) > 1 and words[-1].lower() == "track":
        words = words[:-1]
    return f"{' '.join(words)} {value}"


def largest_stack(game: Game) -> dict[str, int]:
    """The most pieces any scenario sets up in each box."""
    counts: Counter[tuple[str, str]] = Counter()
    for _, placement in game.setup:
        counts[(placement.scenario, placement.location)] += placement.count
    largest: dict[str, int] = {}
    for (_, location), count in counts.items():
        largest[location] = max(count, largest.get(location, 0))
    return largest


def holding_geometry(game: Game, counter_px: int, per_row: int = SPACES_PER_ROW) -> HoldingGeometry:
    """Boxes of game.toml in rows under bands for their titles, then every track as rows of numbered spaces.

    Every box is big enough for the largest stack set up in any box, and every title has a band
    above its own box, so no title runs into another or under a counter.
    """
    boxes = game.manifest.box
    largest = largest_stack(game)
    stack_px = counter_px + (max((largest.get(b.id, 1) for b in boxes), default=1) - 1) * STACK_OFFSET_PX
    box_w = max(BOX_W, stack_px + 2 * BOX_PAD)
    box_h = max(BOX_H, stack_px + 2 * BOX_PAD)
    space = max(SPACE, counter_px + SPACE_LABEL_H + 6)
    width = max(BOX_COLUMNS * box_w + (BOX_COLUMNS - 1) * MARGIN, per_row * space) + 2 * MARGIN
    box_areas: list[HoldingArea] = []
    bands: list[TitleBand] = []
    y = MARGIN
    for row_start in range(0, len(boxes), BOX_COLUMNS):
        row = boxes[row_start:row_start + BOX_COLUMNS]
        box_top = y + BOX_TITLE_LINES * TITLE_LINE_H + TITLE_GAP
        for column, box in enumerate(row):
            x0 = MARGIN + column * (box_w + MARGIN)
            bands.append(TitleBand(box.name, x0 + 4, box_top - TITLE_GAP, box_w - 8, BOX_TITLE_LINES))
            rect = (x0, box_top, x0 + box_w + 1, box_top + box_h + 1)
            # An unexpanded stack climbs up and right from its bottom piece: centre the whole stack.
            climb = (largest.get(box.id, 1) - 1) * STACK_OFFSET_PX
            seat = (x0 + (box_w + 1 - climb) // 2, box_top + (box_h + 1 + climb) // 2)
            box_areas.append(HoldingArea(box.id, box.name, rect, box.side, seat))
        y = box_top + box_h + 1 + MARGIN
    spaces: list[HoldingArea] = []
    for track in game.manifest.track:
        y += TITLE_LINE_H + TITLE_GAP
        bands.append(TitleBand(track.name, MARGIN, y - TITLE_GAP, width - 2 * MARGIN, 1))
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row_index = offset % per_row, offset // per_row
            x0, y0 = MARGIN + column * space, y + row_index * space
            seat = (x0 + space // 2, y0 + SPACE_LABEL_H + (space - SPACE_LABEL_H) // 2)
            spaces.append(HoldingArea(f"{track.id}@{value}", space_name(track, value),
                                      (x0, y0, x0 + space, y0 + space), track.side, seat))
        y += ((track.last - track.first) // per_row + 1) * space + MARGIN
    return HoldingGeometry((width, y), tuple(box_areas), tuple(spaces), tuple(bands))
