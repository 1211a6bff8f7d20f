"""`vmodbuild preview`: a quick PNG of a map's data (terrain, hexsides, labels, places, areas).

Not the module's art (issue 5 renders that): a plain picture for checking the data by eye,
drawn with the module's own layout so it lines up with everything else.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PIL import Image, ImageDraw

from builder.render.board_hexsides import side_style
from builder.render.board_terrain import OVERLAY_TEXTURES, hex_style
from builder.render.ink import font
from builder.render.png import png_bytes
from wargame.files import write_atomically
from wargame.game import Game
from wargame.hexes import Hex, Hexside

SIDE_STYLE: dict[str, tuple[str, int]] = {
    "major_waterway": ("#123c8c", 7),
    "river": ("#2f7fd0", 4),
    "stream": ("#6fb2e8", 3),
    "canal": ("#2fa0b0", 3),
    "ditch": ("#7a8b5a", 3),
    "sea_side": ("#7fc0ee", 5),
    "fortified": ("#8b1a1a", 5),
    "road": ("#b5651d", 3),
    "trail": ("#9c8a6a", 2),
    "bridge": ("#444444", 5),
}
AREA_STYLE: dict[str, str] = {
    "landing": "#e8b800",
    "beach": "#e8b800",
    "port_area": "#8e44ad",
    "entry": "#d35400",
    "victory": "#c0392b",
    "boundary": "#c0392b",
}


def _outline(game: Game, hexes: set[Hex]) -> Iterable[Hexside]:
    """The hexsides on the border of a set of hexes."""
    for h in sorted(hexes):
        for n in h.neighbours():
            if n not in hexes:
                yield Hexside.between(h, n)


def render_preview(game: Game) -> Image.Image:
    """The map's data drawn on one image."""
    layout, grid = game.layout, game.grid
    width, height = game.board_size
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    colours = {t.id: t.colour or "#ffffff" for t in game.terrain.values()}
    size = layout.size_px
    # A terrain built on a hex (a fortification, a fortress: the module's overlay textures) is marked over the
    # colour of the hex's ground, whatever its id.
    built = {t for t in game.terrain if hex_style(game, t).texture in OVERLAY_TEXTURES}
    for h in grid.hexes:
        terrain = game.hex_terrain[h]
        fill = colours.get(next((t for t in terrain if t not in built), terrain[0]), "#ffffff")
        draw.polygon(layout.corners(h), fill=fill, outline="#9a9a9a")
        if built & set(terrain):
            cx, cy = layout.centre(h)
            r = size * 0.22
            draw.rectangle((cx - r, cy - r, cx + r, cy + r), outline="#222222", width=3)
    for side, features in game.hexside_features.items():
        segment = list(layout.hexside_segment(side).coords)
        # In the board's drawing order (a bridge, a road over the river it crosses), the wider first among equals.
        for feature in sorted(features, key=lambda f: (side_style(game, f).order, -SIDE_STYLE.get(f, ("", 2))[1])):
            colour, line_width = SIDE_STYLE.get(feature, ("#000000", 2))
            draw.line(segment, fill=colour, width=line_width)
    label_font = font(max(7, int(size * 0.26)))
    for h in grid.hexes:
        cx, cy = layout.centre(h)
        draw.text((cx, cy - size * 0.62), grid.label_of(h), fill="#555555", font=label_font, anchor="mm")
    for area in game.areas.area:
        outline_colour = AREA_STYLE.get(area.kind)
        if outline_colour is None:
            continue
        for side in _outline(game, set(game.area_hexes(area.id))):
            draw.line(list(layout.hexside_segment(side).coords), fill=outline_colour, width=4)
    for line_def in game.areas.line:
        colour = AREA_STYLE.get(line_def.kind, "#000000")
        for text in line_def.hexsides:
            draw.line(list(layout.hexside_segment(grid.parse_hexside(text)).coords), fill=colour, width=6)
        for a, b in zip(line_def.hexes, line_def.hexes[1:]):
            draw.line([layout.centre(grid.hex_of(a)), layout.centre(grid.hex_of(b))], fill=colour, width=4)
    name_font = font(max(9, int(size * 0.34)), bold=True)
    placed: set[tuple[str, Hex]] = set()
    for _, place in game.places:
        h = grid.hex_of(place.hex)
        if (place.name, h) in placed:
            continue
        placed.add((place.name, h))
        cx, cy = layout.centre(h)
        draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill="#000000")
        draw.text((cx, cy + size * 0.38), place.name, fill="#000000", font=name_font, anchor="mm",
                  stroke_width=2, stroke_fill="#ffffff")
    for area in game.areas.area:
        if area.kind == "port" and area.value is not None:
            for label in area.hexes:
                cx, cy = layout.centre(grid.hex_of(label))
                draw.text((cx + size * 0.45, cy - size * 0.15), str(area.value), fill="#8e44ad", font=name_font,
                          anchor="mm", stroke_width=2, stroke_fill="#ffffff")
        if area.kind == "entry":
            for label in area.hexes:
                cx, cy = layout.centre(grid.hex_of(label))
                draw.text((cx, cy), area.id.split("_")[-1].upper(), fill="#d35400", font=name_font, anchor="mm")
    draw.text((12, 8), f"{game.manifest.title}: data preview", fill="#000000", font=font(int(size * 0.6), True),
              stroke_width=3, stroke_fill="#ffffff")
    return image


def write_preview(game: Game, out_dir: Path) -> Path:
    """Write `<game>-map.png` into out_dir; its path."""
    path = out_dir / f"{game.id}-map.png"
    write_atomically(path, png_bytes(render_preview(game)))
    return path
