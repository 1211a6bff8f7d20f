"""PNG bytes as the builder writes every image: no metadata and a given zlib level, so equal pictures give equal
files, through Pillow's PNG plugin alone."""

from __future__ import annotations

import io

from PIL import Image


def png_bytes(image: Image.Image, compress_level: int = 6) -> bytes:
    """An image as PNG bytes at a zlib level (6, Pillow's default), without metadata (the same bytes on every run)."""
    buffer = io.BytesIO()
    # Named, not given a format: Pillow then loads its PNG plugin alone, where `format="PNG"` first loads the BMP,
    # GIF, JPEG and PPM plugins too (and subprocess under JPEG). The same bytes.
    buffer.name = "image.png"
    image.save(buffer, optimize=False, compress_level=compress_level)
    return buffer.getvalue()


__all__ = ["png_bytes"]
