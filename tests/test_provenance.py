"""PROVENANCE.md's counts table matches the data it describes."""

from __future__ import annotations

import re
from pathlib import Path

from wargame.bundled import data_root, game_ids
from wargame.describe import provenance_counts
from wargame.game import load_game

ROOT = Path(__file__).resolve().parent.parent
# A TOML `source = "reconstructed..."` or a CSV cell `reconstructed...`.
SOURCE_RECONSTRUCTED = re.compile(r'source\s*=\s*"reconstructed|(?:^|,)reconstructed(?::[a-z-]+)?(?:,|$)', re.M)


def test_counts_table_matches_data() -> None:
    """Each game's row of the counts table equals what the loaded data say."""
    text = (ROOT / "PROVENANCE.md").read_text(encoding="utf-8")
    root = data_root()
    for game_id in game_ids(root):
        m = re.search(rf"^\| {game_id} \| (\d+) \| (\d+) \|$", text, re.MULTILINE)
        assert m, f"no counts row for {game_id}"
        assert (int(m.group(1)), int(m.group(2))) == provenance_counts(load_game(root, game_id))


def test_every_reconstructed_file_is_explained() -> None:
    """Every data file holding a reconstructed value is named in PROVENANCE.md."""
    text = (ROOT / "PROVENANCE.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "maps").rglob("*")) + sorted((ROOT / "counters").rglob("*")):
        if path.is_file() and SOURCE_RECONSTRUCTED.search(path.read_text(encoding="utf-8")):
            assert f"`{path.relative_to(ROOT)}`" in text, f"{path.relative_to(ROOT)} is not explained"
