"""What every counter face shares: the supersampled canvas, its die-cut edge and band colours, the faces' file names."""

from __future__ import annotations

from typing import Literal

from PIL import Image, ImageChops, ImageDraw

from builder.render.ink import RGB, mix, relative_luminance
from wargame.models import Unit

Rect = tuple[float, float, float, float]
Face = Literal["full", "reduced", "further1", "further2"]
"""A unit's face: full, reduced, then each face below the reduced one of a unit of three or four steps."""

SUPERSAMPLE = 3
"""Counters are drawn this many times larger, then reduced by averaging each square of 3x3 pixels (antialiasing,
as the board's shapes are); 3 looks as 4 did at 100%, in a quarter less time."""


def image_name(piece_id: str, face: str) -> str:
    """File name of one face of a unit ("full", "reduced") or marker ("face0"...): '/' becomes '_'."""
    # Ids may hold '/', never a path separator in a file or archive name. Ids that differ
    # only by '/' against '_' (or by case) would share a name: write_counters refuses them.
    return f"{piece_id.replace('/', '_')}-{face}.png"


def unit_faces(unit: Unit) -> tuple[Face, ...]:
    """Every face of a unit, strongest first: full, reduced, then its further reduced faces (units.csv)."""
    further: tuple[Face, ...] = ("further1", "further2")
    return ("full",) if unit.reduced is None else ("full", "reduced", *further[:len(unit.further_reduced)])


def face_values(unit: Unit, face: Face) -> tuple[int, ...]:
    """The values a unit's face prints."""
    if face == "full":
        return unit.full
    if face == "reduced" and unit.reduced is not None:
        return unit.reduced
    further = {"further1": 0, "further2": 1}.get(face)
    if further is None or further >= len(unit.further_reduced):
        raise ValueError(f"unit {unit.id} has no {face} face (its faces: {', '.join(unit_faces(unit))})")
    return unit.further_reduced[further]


def marker_image_name(marker_id: str, face: int) -> str:
    """File name of one face of a marker (the module builder's "face<N>" naming)."""
    return image_name(marker_id, f"face{face}")


def edge(background: RGB) -> RGB:
    """The die-cut edge line: the background darkened (lightened on black)."""
    if relative_luminance(background) < 0.05:
        return mix(background, (255, 255, 255), 0.35)
    return mix(background, (0, 0, 0), 0.45)


def band(background: RGB) -> RGB:
    """The lighter band across the top of a reduced face."""
    return mix(background, (255, 255, 255), 0.7)


def finish(canvas: Image.Image, size_px: int) -> Image.Image:
    """The supersampled canvas reduced to the counter size, each pixel the mean of the square it covers."""
    # A box filter, not LANCZOS: at 100% the faces look the same (a mean difference of 2.6 levels, edges a
    # shade softer, bench/README.md), and its 18 taps each way were two thirds of a face's cost.
    if canvas.size != (size_px * SUPERSAMPLE,) * 2:
        raise ValueError(f"a face of {size_px} px is drawn on a canvas of {size_px * SUPERSAMPLE}, not {canvas.size}")
    return canvas.reduce(SUPERSAMPLE)


def paint(canvas: Image.Image, colour: RGB, mask: Image.Image) -> None:
    """Lay a colour through a greyscale mask (255 = full colour)."""
    canvas.paste(colour, (0, 0, *canvas.size), mask)


def clip(mask: Image.Image, rect: Rect) -> Image.Image:
    """The mask with everything outside a rectangle removed."""
    keep = Image.new("L", mask.size, 0)
    ImageDraw.Draw(keep).rectangle(rect, fill=255)
    return ImageChops.multiply(mask, keep)
