"""Deterministic zip archives: sorted entries, fixed timestamps, so two builds are byte-identical."""

from __future__ import annotations

import io
import zipfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def zip_bytes(entries: dict[str, bytes], compress_images: bool = False) -> bytes:
    """A zip of the entries in name order; PNGs stored (already compressed) unless asked."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            stored = name.endswith(".png") and not compress_images
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            archive.writestr(info, entries[name])
    return buffer.getvalue()
