"""`adjudicate check` of a text log loads no VASSAL module beyond the file-type test (start-up time:
the reader and translator are about a fifth of a check's imports; bench/README.md)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from adjudicator.vassal.detect import is_vassal_file

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
from click.testing import CliRunner
from umpire.cli import main
result = CliRunner().invoke(main, ["check", sys.argv[1]])
loaded = sorted(m for m in sys.modules if m.startswith(("adjudicator.vassal.", "wargame.vassal")))
print(result.exit_code, " ".join(loaded))
"""


def _loaded_by_check(log: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(log)], capture_output=True, text=True, check=True,
                          cwd=ROOT, timeout=120)
    return done.stdout.split()


def test_text_log_check_loads_no_vassal_reader() -> None:
    assert _loaded_by_check(ROOT / "examples" / "omaha" / "legal-sample-game.log") == ["0", "adjudicator.vassal.detect"]


def test_vassal_log_check_still_loads_the_reader() -> None:
    loaded = _loaded_by_check(ROOT / "tests" / "data" / "vassal" / "omaha-session.vlog")
    assert "adjudicator.vassal.translate" in loaded and "wargame.vassal.reader" in loaded


def test_a_saved_game_is_told_by_its_content(tmp_path: Path) -> None:
    """A saved game renamed without its suffix is still a VASSAL file; a text log or another zip is not."""
    renamed = tmp_path / "position.bak"
    renamed.write_bytes((ROOT / "tests" / "data" / "vassal" / "omaha-after-moves.vsav").read_bytes())
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("notes.txt", "not a saved game")
    assert is_vassal_file(renamed)
    assert not is_vassal_file(other)
    assert not is_vassal_file(ROOT / "examples" / "omaha" / "legal-sample-game.log")
    assert not is_vassal_file(tmp_path / "missing.log")
