"""The off-map board of a module: holding boxes (eliminated units, cups...) and numbered tracks.

The layout is computed once, as rectangles: the picture is drawn from it, and the module turns
the same rectangles into VASSAL zones (so the chat names the box a piece moved to) and places
set-up stacks at their centres, so the module, the picture and the log reader agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from builder.render.style import INK, PAPER, font
from wargame.game import Game
from wargame.models import Track

BOX_W, BOX_H = 260, 150
SPACE = 64
MARGIN = 16
TITLE_H = 30
TITLE_PT = 16
SPACE_LABEL_PT = 15

Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in board pixels; x1 and y1 are just outside (as java.awt.Polygon counts)."""


@dataclass(frozen=True)
class HoldingArea:
    """A box or one space of a track: its location id, the name VASSAL reports and its rectangle."""

    location: str
    name: str
    rect: Rect
    side: str | None

    @property
    def centre(self) -> tuple[int, int]:
        """The pixel where pieces placed here sit."""
        x0, y0, x1, y1 = self.rect
        return (x0 + x1) // 2, (y0 + y1) // 2


@dataclass(frozen=True)
class HoldingTitle:
    """A printed title: its text and the left end of its baseline."""

    text: str
    x: int
    y: int


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
                return area.centre
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


def holding_layout(game: Game, per_row: int = 15) -> HoldingLayout:
    """Boxes of game.toml in rows of four, then every track as rows of numbered spaces."""
    boxes = game.manifest.box
    tracks = game.manifest.track
    box_columns = 4
    box_rows = (len(boxes) + box_columns - 1) // box_columns
    track_rows = sum((t.last - t.first) // per_row + 1 for t in tracks)
    width = max(box_columns * (BOX_W + MARGIN), per_row * SPACE) + 2 * MARGIN
    height = (MARGIN + box_rows * (BOX_H + MARGIN + TITLE_H) + len(tracks) * (TITLE_H + MARGIN)
              + track_rows * SPACE + MARGIN)
    box_areas: list[HoldingArea] = []
    titles: list[HoldingTitle] = []
    y = MARGIN
    for index, box in enumerate(boxes):
        column, row = index % box_columns, index // box_columns
        x0 = MARGIN + column * (BOX_W + MARGIN)
        y0 = MARGIN + row * (BOX_H + MARGIN + TITLE_H)
        titles.append(HoldingTitle(box.name, x0 + 4, y0 + TITLE_H - 4))
        box_areas.append(HoldingArea(box.id, box.name, (x0, y0 + TITLE_H, x0 + BOX_W + 1, y0 + TITLE_H + BOX_H + 1),
                                     box.side))
        y = y0 + TITLE_H + BOX_H + MARGIN
    spaces: list[HoldingArea] = []
    for track in tracks:
        y += TITLE_H
        titles.append(HoldingTitle(track.name, MARGIN, y - 6))
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row = offset % per_row, offset // per_row
            x0, y0 = MARGIN + column * SPACE, y + row * SPACE
            spaces.append(HoldingArea(f"{track.id}@{value}", space_name(track, value),
                                      (x0, y0, x0 + SPACE, y0 + SPACE), track.side))
        y += ((track.last - track.first) // per_row + 1) * SPACE + MARGIN
    return HoldingLayout((width, height), tuple(box_areas), tuple(spaces), tuple(titles))


def render_holding_board(game: Game, per_row: int = 15) -> HoldingBoard:
    """Draw the holding board's layout: framed boxes, numbered track spaces and their titles."""
    layout = holding_layout(game, per_row)
    image = Image.new("RGB", layout.size, PAPER)
    draw = ImageDraw.Draw(image)
    title_font, label_font = font(TITLE_PT, bold=True), font(SPACE_LABEL_PT)
    side_colour = {n.side: n.background_colour for n in game.manifest.nationality}
    for box in layout.boxes:
        x0, y0, x1, y1 = box.rect
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=side_colour.get(box.side or "", INK), width=4)
    for space in layout.spaces:
        x0, y0, x1, y1 = space.rect
        draw.rectangle((x0, y0, x1 - 2, y1 - 2), outline=side_colour.get(space.side or "", INK), width=2)
        draw.text((x0 + 5, y0 + 3), space.location.rpartition("@")[2], fill=INK, font=label_font)
    for title in layout.titles:
        draw.text((title.x, title.y), title.text, fill=INK, font=title_font, anchor="ld")
    return HoldingBoard(image, layout)
