"""Changes to a test's copy of a game's data files."""

from __future__ import annotations

from pathlib import Path


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in a data file, which must hold it."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
