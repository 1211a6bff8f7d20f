"""The classic series' leftovers of session 21 and its audit in session 22, on Battle for Moscow: the clause a
breach cites (a rebuilt unit's empty hex is the replacements' own), and one breach, one error (one fault shared by
several units of an attack)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from classic_support import line_of, run, upto, verdict
from data_edits import edit

ROOT = Path(__file__).resolve().parent.parent


def errors(tmp_path: Path, log: str, data: Path | None = None) -> list[str]:
    """The messages of a log's errors."""
    return [f.message for f in run(tmp_path, log, data).findings if f.severity == "error"]


def test_a_rebuilt_unit_in_an_occupied_city_breaks_the_replacements_empty_hex(tmp_path: Path) -> None:
    """11.0 (`[replacements] empty_hex`): a rebuilt army appears in an empty hex of the east edge or an empty Soviet
    city; placed in Bryansk (0509), where so-3 stands, it breaks that clause, not stacking (6.0), and the phase's end
    does not report the hex again. Without the key the stacking limit governs the hex, and 6.0 is cited."""
    log = upto(1, "soviet_replacement") + "Soviet: replace so-5 reduced 0509\nPhase rail_movement\n"
    assert verdict(tmp_path, log) == [(line_of(log, "so-5"), "error", "11.0")]
    assert errors(tmp_path, log) == ["so-5 may not be placed in 0509, where so-3 is: a rebuilt unit appears in an "
                                     "empty hex"]
    data = tmp_path / "data"
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / "moscow", data / kind / "moscow")
    edit(data / "counters" / "moscow" / "rules.toml", "empty_hex = true\n", "")
    assert verdict(tmp_path, log, data) == [(line_of(log, "so-5"), "error", "6.0")]
