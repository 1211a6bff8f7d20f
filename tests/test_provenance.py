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
        if path.is_file() and SOURCE_RECONSTRUCTED.search(_values(path)):
            assert f"`{path.relative_to(ROOT)}`" in text, f"{path.relative_to(ROOT)} is not explained"


def _values(path: Path) -> str:
    """A data file's text without a CSV's header row (its `reconstructed` column's name is not a value)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".csv":
        header = next((i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), None)
        if header is not None:
            del lines[header]
    return "\n".join(lines)


def test_a_csv_header_is_not_a_reconstructed_value(tmp_path: Path) -> None:
    """A units.csv whose only 'reconstructed' is its column's name holds no reconstructed value; a cell does."""
    plain = tmp_path / "units.csv"
    plain.write_text("# schema_version = 1\nid,source,reconstructed,note\nu1,1.0,,\n", encoding="utf-8")
    assert not SOURCE_RECONSTRUCTED.search(_values(plain))
    plain.write_text("# schema_version = 1\nid,source,reconstructed,note\nu1,reconstructed,,\n", encoding="utf-8")
    assert SOURCE_RECONSTRUCTED.search(_values(plain))
