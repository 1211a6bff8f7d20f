"""The off-map board of a module: holding boxes (eliminated units, cups...) and numbered tracks.

Returns the picture and, for every box and every track space, the pixel where pieces placed
there sit, so the module's set-up stacks and the log reader agree on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from builder.render.style import INK, PAPER, font
from wargame.game import Game

BOX_W, BOX_H = 260, 150
SPACE = 64
MARGIN = 16
TITLE_H = 30


@dataclass(frozen=True)
class HoldingBoard:
    """The board image and where each box and track space is."""

    image: Image.Image
    boxes: dict[str, tuple[int, int]]
    spaces: dict[tuple[str, int], tuple[int, int]]

    def location_of(self, location: str) -> tuple[int, int] | None:
        """Pixel of a box id or a 'track@space' location; None if it is neither."""
        if location in self.boxes:
            return self.boxes[location]
        if "@" in location:
            track, _, space = location.partition("@")
            if space.lstrip("-").isdigit():
                return self.spaces.get((track, int(space)))
        return None

    def name_at(self, x: int, y: int) -> str | None:
        """The box id or 'track@space' whose area holds a pixel (for reading logs)."""
        for box_id, (cx, cy) in self.boxes.items():
            if abs(x - cx) <= BOX_W // 2 and abs(y - cy) <= BOX_H // 2:
                return box_id
        for (track, value), (cx, cy) in self.spaces.items():
            if abs(x - cx) <= SPACE // 2 and abs(y - cy) <= SPACE // 2:
                return f"{track}@{value}"
        return None


def render_holding_board(game: Game, per_row: int = 15) -> HoldingBoard:
    """Draw every box of game.toml and every track as rows of numbered spaces."""
    boxes = game.manifest.box
    tracks = game.manifest.track
    box_columns = 4
    box_rows = (len(boxes) + box_columns - 1) // box_columns
    track_rows = sum((t.last - t.first) // per_row + 1 for t in tracks)
    width = max(box_columns * (BOX_W + MARGIN), per_row * SPACE) + 2 * MARGIN
    height = (MARGIN + box_rows * (BOX_H + MARGIN + TITLE_H) + len(tracks) * (TITLE_H + MARGIN)
              + track_rows * SPACE + MARGIN)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    title_font, label_font = font(16, bold=True), font(15)
    side_colour = {n.side: n.background_colour for n in game.manifest.nationality}
    box_at: dict[str, tuple[int, int]] = {}
    y = MARGIN
    for index, box in enumerate(boxes):
        column, row = index % box_columns, index // box_columns
        x0 = MARGIN + column * (BOX_W + MARGIN)
        y0 = MARGIN + row * (BOX_H + MARGIN + TITLE_H)
        outline = side_colour.get(box.side or "", INK)
        draw.rectangle((x0, y0 + TITLE_H, x0 + BOX_W, y0 + TITLE_H + BOX_H), outline=outline, width=4)
        draw.text((x0 + 4, y0 + TITLE_H - 4), box.name, fill=INK, font=title_font, anchor="ld")
        box_at[box.id] = (x0 + BOX_W // 2, y0 + TITLE_H + BOX_H // 2)
        y = y0 + TITLE_H + BOX_H + MARGIN
    space_at: dict[tuple[str, int], tuple[int, int]] = {}
    for track in tracks:
        y += TITLE_H
        draw.text((MARGIN, y - 6), track.name, fill=INK, font=title_font, anchor="ld")
        outline = side_colour.get(track.side or "", INK)
        for offset, value in enumerate(range(track.first, track.last + 1)):
            column, row = offset % per_row, offset // per_row
            x0, y0 = MARGIN + column * SPACE, y + row * SPACE
            draw.rectangle((x0, y0, x0 + SPACE - 2, y0 + SPACE - 2), outline=outline, width=2)
            draw.text((x0 + 5, y0 + 3), str(value), fill=INK, font=label_font)
            space_at[(track.id, value)] = (x0 + SPACE // 2, y0 + SPACE // 2)
        y += ((track.last - track.first) // per_row + 1) * SPACE + MARGIN
    return HoldingBoard(image, box_at, space_at)
