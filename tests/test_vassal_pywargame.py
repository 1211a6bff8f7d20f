"""A second opinion on our modules: pywargame parses the buildFile and re-encodes every piece.

pywargame is installed for tests only, without its dependencies (README's test command). On
Python 3.11 three of its modules that reading does not need use 3.12-only f-strings; they are
replaced by stubs holding empty classes of the same names before importing it.
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import types
import zipfile
from pathlib import Path
from typing import Any
from xml.dom.minidom import parseString

import pytest

from builder.vassal.module import build_module, draw_art
from wargame.bundled import data_root, game_ids
from wargame.game import load_game

UNREADABLE_ON_311 = ("vassal/traits/sheet.py", "vassal/merger.py", "zuntzu/exporter.py")


def load_pywargame() -> Any:
    """pywargame.vassal, with the modules Python 3.11 cannot compile stubbed."""
    spec = importlib.util.find_spec("pywargame")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("pywargame is not installed (README's test command installs it)")
    package = Path(next(iter(spec.submodule_search_locations)))
    if sys.version_info < (3, 12):
        for relative in UNREADABLE_ON_311:
            name = "pywargame." + relative.removesuffix(".py").replace("/", ".")
            stub = types.ModuleType(name)
            for class_name in re.findall(r"^class (\w+)", (package / relative).read_text(encoding="utf-8"), re.M):
                setattr(stub, class_name, type(class_name, (), {}))
            sys.modules.setdefault(name, stub)
    import pywargame.vassal as vassal

    return vassal


@pytest.mark.parametrize("game_id", game_ids(data_root()))
def test_pywargame_reads_and_reencodes_every_piece(game_id: str) -> None:
    """Every PieceSlot and prototype decodes in pywargame and re-encodes to the same text."""
    vassal = load_pywargame()
    game = load_game(data_root(), game_id)
    data = build_module(game, "0.0.test", draw_art(game)).data
    build_file = zipfile.ZipFile(io.BytesIO(data)).read("buildFile.xml").decode("utf-8")
    module = vassal.BuildFile(parseString(build_file)).getGame()
    slots = module.getAllElements(vassal.PieceSlot, single=False)
    assert len(slots) >= len(game.units)
    for slot in slots:
        text = slot._node.childNodes[0].nodeValue
        traits = slot.getTraits()
        assert type(traits[-1]).__name__ == "BasicTrait"
        assert vassal.PieceSlot.encodeAdd(*traits) == text
    prototypes = module.getAllElements(vassal.Prototype, single=False)
    assert len(prototypes) == len(game.manifest.unit_type) + 1
    for prototype in prototypes:
        text = prototype._node.childNodes[0].nodeValue
        assert vassal.PieceSlot.encodeAdd(*prototype.getTraits()) == text
