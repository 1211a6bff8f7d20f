"""Areas and markers on the board: borders and country names, edge and entry bands, ports, landings, objectives."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from builder.render.board_canvas import (
    RGB, BoardCanvas, Draw, Point, Segment, chain, dash_pieces, draw_dotted, draw_outlined, draw_polyline,
    inset_rings, sides_of, unit_vector, whole_px,
)
from builder.render.board_hexsides import VICTORY
from builder.render.board_terrain import hexes_textured
from builder.render.ink import PAPER, font, text_length
from wargame.game import Game
from wargame.hexes import Hex


LANDING = "#e69f00"
PORT_AREA = "#7b3294"
ENTRY = "#d55e00"
EDGE = "#8a5a9e"
COUNTRY = "#2b2b2b"
ANCHOR = "#1d3f73"


# -- symbols ----------------------------------------------------------------------------
def draw_anchor(draw: Draw, c: Point, s: float, colour: str) -> None:
    """An anchor, about a third of a hex tall."""
    x, y = c
    h = s * 0.34
    w = whole_px(s * 0.04)
    ring = s * 0.05
    halo = whole_px(s * 0.09)
    # A pale halo first, so the anchor reads on city blocks and forest alike.
    for width, ink in ((halo, PAPER), (w, colour)):
        draw.line([(x, y - h / 2 + ring), (x, y + h / 2)], fill=ink, width=width)
        draw.line([(x - h * 0.28, y - h * 0.18), (x + h * 0.28, y - h * 0.18)], fill=ink, width=width)
        draw.arc((x - h * 0.42, y - h * 0.1, x + h * 0.42, y + h / 2), 20, 160, fill=ink, width=width)
        draw.ellipse((x - ring, y - h / 2 - ring, x + ring, y - h / 2 + ring), outline=ink,
                     width=max(1, width - (halo - w) // 2) if ink == PAPER else w)


def draw_badge(draw: Draw, c: Point, r: float, text: str, colour: str, s: float, text_colour: str = "#ffffff") -> None:
    """A filled disc with a short bold text (port values, entry letters)."""
    x, y = c
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=PAPER, width=whole_px(s * 0.025))
    draw.text((x, y), text, fill=text_colour, font=font(whole_px(r * (1.3 if len(text) < 2 else 1.05)), bold=True),
              anchor="mm")


def draw_star(draw: Draw, c: Point, r: float, colour: str, s: float) -> None:
    """A five-pointed star with a pale outline (objectives)."""
    pts = []
    for k in range(10):
        a = math.radians(-90 + 36 * k)
        rad = r if k % 2 == 0 else r * 0.45
        pts.append((c[0] + rad * math.cos(a), c[1] + rad * math.sin(a)))
    draw_outlined(draw, pts, colour, PAPER, whole_px(s * 0.02))


def _area_hexes(game: Game, area_id: str) -> list[Hex]:
    """An area's hexes that are on the map, sorted."""
    return sorted(h for h in game.area_hexes(area_id) if h in game.grid)


def _outer_edges(b: BoardCanvas, hexes: Iterable[Hex]) -> list[Segment]:
    """Sides of these hexes that face off the map."""
    return [b.side_between(h, n) for h, n in sides_of(hexes) if n not in b.game.grid]


def draw_areas(b: BoardCanvas) -> None:
    """Country borders and names, edge and entry bands, port areas and landing hexes."""
    game, s, draw = b.game, b.s, b.draw
    for area in game.areas.area:
        hexes = _area_hexes(game, area.id)
        if not hexes:
            continue
        if area.kind == "country":
            border = [b.side_between(h, n) for h, n in sides_of(hexes) if n in game.grid]
            for line in chain(border):
                draw_polyline(draw, line, PAPER, 0.1 * s)
                for piece in dash_pieces(line, 0.3 * s, 0.12 * s):
                    draw_polyline(draw, piece, COUNTRY, 0.05 * s, caps=False)
            _letter_country(b, area.name, hexes)
        elif area.kind in ("edge", "entry"):
            colour = EDGE if area.kind == "edge" else ENTRY
            for line in chain(_outer_edges(b, hexes)):
                draw_polyline(draw, line, colour, 0.13 * s)
    for kind, hexes in inset_areas(game):
        if not b.reaches(hexes):
            continue  # a window away from the area: its shapes are not worked out
        rings = inset_rings([b.fine.corners(h) for h in hexes], INSETS[kind] * s, s)
        if kind == "port_area":
            for ring in rings:
                draw_dotted(draw, ring, PORT_AREA, 0.035 * s, 0.12 * s)
        else:
            for ring in rings:
                draw_polyline(draw, ring, LANDING, 0.1 * s)


INSETS = {"port_area": 0.13, "landing": 0.055, "beach": 0.055}
"""The areas outlined inside their hexes, and how far inside (in hexes: nested areas both show)."""


def inset_areas(game: Game) -> list[tuple[str, list[Hex]]]:
    """The areas outlined inside their hexes, in drawing order: each one's kind and hexes on the map."""
    return [(area.kind, hexes) for area in game.areas.area
            if area.kind in INSETS and (hexes := _area_hexes(game, area.id))]


def _letter_country(b: BoardCanvas, name: str, hexes: Sequence[Hex]) -> None:
    """A country's name in large spaced capitals, translucent, inside its hexes and clear of
    its towns' names when it can be."""
    if not b.reaches(hexes):
        return  # a window away from the country: its name, inside its hexes, cannot show
    text = " ".join(name.upper())
    # As large as fits across the country (up to most of a hex high); none if too small to read.
    xs = [x for h in hexes for x, _ in b.fine.corners(h)]
    x0, x1 = min(xs), max(xs)
    size = b.s * 0.8
    f = font(whole_px(size), bold=True)
    fit = (x1 - x0) * 0.85 / max(1.0, text_length(f, text))
    if fit < 1:
        size *= fit
        if size < b.s * 0.35:
            return
        f = font(whole_px(size), bold=True)
    half_w, half_h = text_length(f, text) / 2, size / 2
    places = [b.centre(b.game.grid.hex_of(p.hex)) for _, p in b.game.places]
    cx = sum(b.centre(h)[0] for h in hexes) / len(hexes)
    cy = sum(b.centre(h)[1] for h in hexes) / len(hexes)
    # The least crowded spot nearest the middle whose box fits in the country: spots are
    # ranked first and only tried in that order (the fit is the slow part).
    places.sort(key=lambda p: p[1])
    rows = [py for _, py in places]
    ranked: list[tuple[int, float, int, Point]] = []
    for k, h in enumerate(hexes):
        x, y = b.centre(h)
        y += b.s * 0.43  # between a hex's name spot and the next hex's number
        # Names of places at most a hex above or below the spot (places sorted by y).
        band = places[bisect.bisect_left(rows, y - b.s * 1.0):bisect.bisect_right(rows, y + b.s * 0.9)]
        crowd = sum(1 for px, py in band
                    if abs(px - x) < half_w + b.s and -b.s * 0.9 < y - py < b.s * 1.0)
        ranked.append((crowd, math.hypot(x - cx, y - cy), k, (x, y)))
    members = set(hexes)
    for _, _, _, (x, y) in sorted(ranked):
        box = (x - half_w, y - half_h, x + half_w, y + half_h)
        # The country's hexes tile it: the box's area inside is the sum over the hexes it
        # reaches (a few dozen, where a union of the whole country took most of the time).
        near = b.fine.pixel_to_hex(x, y)
        reach = math.ceil(half_w / (b.s * 1.5)) + 2
        inside = [b.fine.corners(h) for h in near.spiral(reach) if h in members]
        if _fits(box, inside, 0.97):
            break
    else:
        return

    def paint(mask: Draw, ink: int, origin: Point) -> None:
        mask.text((x - origin[0], y - origin[1]), text, fill=ink, font=f, anchor="mm")
    left, top, right, bottom = b.draw.textbbox((x, y), text, font=f, anchor="mm")
    b.tint(paint, "#3d3a35", 105, (left, top, right, bottom), smooth=True)


def _clipped_area(box: tuple[float, float, float, float], polygon: Sequence[Point]) -> float:
    """The area of a convex polygon (a hex) inside an axis-aligned box: the polygon clipped by each of the box's
    four sides in turn (Sutherland-Hodgman), then the shoelace formula."""
    points = list(polygon)
    for axis, limit, keep_below in ((0, box[0], False), (0, box[2], True), (1, box[1], False), (1, box[3], True)):
        if not points:
            return 0.0
        kept: list[Point] = []
        for k, p in enumerate(points):
            q = points[k - 1]
            p_in = p[axis] <= limit if keep_below else p[axis] >= limit
            q_in = q[axis] <= limit if keep_below else q[axis] >= limit
            if p_in != q_in:
                t = (limit - q[axis]) / (p[axis] - q[axis])
                cut = (limit, q[1] + t * (p[1] - q[1])) if axis == 0 else (q[0] + t * (p[0] - q[0]), limit)
                kept.append(cut)
            if p_in:
                kept.append(p)
        points = kept
    return abs(sum(points[k - 1][0] * p[1] - p[0] * points[k - 1][1] for k, p in enumerate(points))) / 2


FIT_DOUBT = 1e-9
"""How close (relative to the box's area) the area inside may come to the fit's threshold before shapely decides:
the two sums of floats differ far less, so the clipped sum decides as shapely's would everywhere else."""


def _fits(box: tuple[float, float, float, float], polygons: Sequence[Sequence[Point]], share: float) -> bool:
    """Whether at least `share` of a box lies inside these convex polygons, which do not overlap (a country's hexes);
    worked out without shapely (and numpy under it, 0.1 s to import: a picture near a country's name may need only
    this), except when the sum falls so near the threshold that rounding could decide it."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    covered = sum(_clipped_area(box, polygon) for polygon in polygons)
    if abs(covered - share * area) > FIT_DOUBT * area:
        return covered >= share * area
    from shapely.geometry import Polygon

    x0, y0, x1, y1 = box
    exact = Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    inside: float = sum(exact.intersection(Polygon(polygon)).area for polygon in polygons)
    return inside >= share * float(exact.area)


def draw_markers(b: BoardCanvas, reserved: list[tuple[float, float, float, float]]) -> None:
    """Ports (anchor and supply value), entry letters and objective stars."""
    game, s, draw = b.game, b.s, b.draw
    for area in game.areas.area:
        hexes = _area_hexes(game, area.id)
        if area.kind == "port":
            # Anchor and value sit right of the centre, clear of a fort symbol in the middle
            # and of the name below it.
            for h in hexes:
                cx, cy = b.centre(h)
                ax, ay = cx + 0.4 * s, cy - 0.12 * s
                draw_anchor(draw, (ax, ay), s, ANCHOR)
                reserved.append((ax - 0.12 * s, ay - 0.22 * s, ax + 0.12 * s, ay + 0.2 * s))
                if area.value is not None:
                    bx = ax + 0.32 * s
                    draw_badge(draw, (bx, ay), 0.19 * s, str(area.value), ANCHOR, s)
                    reserved.append((bx - 0.2 * s, ay - 0.2 * s, bx + 0.2 * s, ay + 0.2 * s))
        elif area.kind == "entry":
            letter = entry_letter(area.id, area.name)
            if letter is None:
                _edge_name(b, area.name, hexes, ENTRY)
                continue
            for h in hexes:
                off = [unit_vector(b.centre(h), b.centre(n)) for n in h.neighbours() if n not in game.grid]
                cx, cy = b.centre(h)
                if off:
                    ux, uy = sum(u[0] for u in off), sum(u[1] for u in off)
                    length = math.hypot(ux, uy) or 1.0
                    cx, cy = cx + ux / length * 0.62 * s, cy + uy / length * 0.62 * s
                draw_badge(draw, (cx, cy), 0.19 * s, letter, ENTRY, s)
                reserved.append((cx - 0.2 * s, cy - 0.2 * s, cx + 0.2 * s, cy + 0.2 * s))
        elif area.kind == "victory" and 0 < len(hexes) <= 24:
            # Small victory areas are objectives worth marking hex by hex; a large one (a
            # whole region) is shown by its line instead.
            for h in hexes:
                cx, cy = b.centre(h)
                draw_star(draw, (cx - 0.45 * s, cy - 0.22 * s), 0.14 * s, VICTORY, s)
                reserved.append((cx - 0.6 * s, cy - 0.37 * s, cx - 0.3 * s, cy - 0.07 * s))
        elif area.kind == "edge":
            _edge_name(b, area.name, hexes, EDGE)
    forts = hexes_textured(game, "fort", every=False)
    for h in sorted(game.grid.hexes):
        if h in forts:
            cx, cy = b.centre(h)
            reserved.append((cx - 0.26 * s, cy - 0.24 * s, cx + 0.26 * s, cy + 0.28 * s))


def entry_letter(area_id: str, name: str) -> str | None:
    """The letter printed on an entry area (the last part of its id or name if one or two
    characters long); None when it has none."""
    for word in (area_id.split("_")[-1], *name.split()[-1:]):
        if len(word) <= 2:
            return word.upper()
    return None


def _edge_name(b: BoardCanvas, name: str, hexes: Sequence[Hex], colour: str) -> None:
    """An edge area's name in the margin beside it, turned to run along the edge."""
    edges = _outer_edges(b, hexes)
    if not edges:
        return
    xs = [p[0] for seg in edges for p in seg]
    ys = [p[1] for seg in edges for p in seg]
    vertical = max(xs) - min(xs) < max(ys) - min(ys)
    f = font(whole_px(b.s * 0.3), bold=True)
    text = name.upper()
    box = b.draw.textbbox((0, 0), text, font=f)
    tw, th = box[2] - box[0], box[3] - box[1]
    stamp = Image.new("L", (round(tw) + 8, round(th) + 8), 0)
    ImageDraw.Draw(stamp).text((4 - box[0], 4 - box[1]), text, fill=255, font=f)
    width, height = b.board_px
    if vertical:
        stamp = stamp.rotate(90 if sum(xs) / len(xs) < width / 2 else -90, expand=True)
        outside = min(xs) < width / 2
        x = (min(xs) - b.s * 0.55) if outside else (max(xs) + b.s * 0.18)
        y = (min(ys) + max(ys)) / 2 - stamp.height / 2
    else:
        outside = min(ys) < height / 2
        x = (min(xs) + max(xs)) / 2 - stamp.width / 2
        y = (min(ys) - b.s * 0.55) if outside else (max(ys) + b.s * 0.18)
    solid = Image.new("RGB", stamp.size, colour)
    b.paste(solid, (round(x), round(y)), stamp)
