"""The shape of the code (issue 14): no import cycle anywhere, rule-system files readable in one sitting,
nothing set on the kernel's `Game`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from import_probe import run_probe

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("wargame", "builder", "adjudicator")
MAX_LINES = 600
"""No file under adjudicator/systems/ is longer: a rule area is read in one sitting."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted module name of a file of the tree."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each module of the packages and the modules of the packages it imports (every import
    statement, those under TYPE_CHECKING or inside functions too: a cycle there is still a cycle)."""
    files = {module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                # `from package import module` imports the module; `from module import name` the module.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            graph[name] |= {t for t in targets if t in files and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle() -> None:
    """No module of wargame, builder or adjudicator imports, directly or not, a module that imports it."""
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    """A planted cycle (through a relative import and a TYPE_CHECKING block) is found, so the test above can fail."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n")
    (package / "c.py").write_text("import pkg.a\nX = 1\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


SYSTEM_PACKAGES = sorted(p.name for p in (ROOT / "adjudicator" / "systems").iterdir() if (p / "__init__.py").exists())


def too_long(folder: Path) -> list[str]:
    """The files of a folder over the limit, with their lengths."""
    return [f"{p.relative_to(ROOT)}: {n} lines" for p in sorted(folder.glob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]


@pytest.mark.parametrize("package", SYSTEM_PACKAGES)
def test_rule_system_files_fit_in_one_sitting(package: str) -> None:
    """No file of a rule system is over 600 lines."""
    assert too_long(ROOT / "adjudicator" / "systems" / package) == []


def test_shared_system_files_fit_in_one_sitting() -> None:
    """The files every system shares (adjudicator/systems/*.py) are under the limit too."""
    assert too_long(ROOT / "adjudicator" / "systems") == []


def test_builder_files_fit_in_one_sitting() -> None:
    """No file of the builder is over 600 lines (issue 25 item 6: the board renderer, the charts' layout engine, the
    counters and the module writer were split)."""
    long_files = {p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "builder").rglob("*.py"))
                  if len(p.read_text(encoding="utf-8").splitlines()) > MAX_LINES}
    assert long_files == set()


def test_nothing_is_set_on_the_game() -> None:
    """No module of the adjudicator sets (or reads back) attributes on the kernel's `Game` object:
    derived tables live in the rule system's own per-game caches (adjudicator/systems/base.py `PerGame`)."""
    pattern = re.compile(r"\b(setattr|getattr)\(\s*(game|state\.game|self\.game)\b")
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "adjudicator").rglob("*.py"))
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1) if pattern.search(line)]
    assert offenders == []


def test_a_per_game_table_is_built_once_and_dies_with_its_game() -> None:
    """`PerGame` builds a game's table on the first request, answers from it after (for two games in turn too),
    and lets it go, the one it answered last included, when its game is gone."""
    import gc
    import weakref
    from dataclasses import replace

    from adjudicator.systems.base import PerGame
    from wargame.bundled import data_root
    from wargame.game import Game, load_game

    built: list[str] = []

    class Table:
        def __init__(self, game: Game) -> None:
            built.append(game.id)

    table = PerGame(Table)
    # Copies: load_game keeps the games it loaded alive for the process (wargame/game.py's LOADED_MAX).
    first, second = replace(load_game(data_root(), "onslaught")), replace(load_game(data_root(), "omaha"))
    a, b = table(first), table(second)
    assert table(first) is a and table(second) is b and table(second) is b and built == ["onslaught", "omaha"]
    gone = weakref.ref(b)
    del b, second
    gc.collect()
    assert gone() is None and table(first) is a and built == ["onslaught", "omaha"]


def test_the_referee_starts_without_shapely_or_numpy() -> None:
    """`adjudicate` loads a game and checks a log without importing shapely or numpy (97 ms of every start:
    wargame/layout.py imports them only where it makes a shape, which the referee never asks for)."""
    code = ("import sys; from adjudicator.cli import main; from adjudicator.systems import SYSTEMS; "
            "from wargame.bundled import data_root; from wargame.game import load_game; "
            "from adjudicator.engine import replay; from adjudicator.notation.text import parse_text; "
            "g = load_game(data_root(), 'onslaught'); replay(g, SYSTEMS['onslaught'], parse_text('Turn 1\\n'), False); "
            "print(sorted(m for m in ('shapely', 'numpy') if m in sys.modules))")
    assert run_probe(code).stdout.strip() == "[]"


NAMED = {"onslaught", "omaha", "moscow", "German", "Allied", "Soviet", "fire-and-movement", "fire_and_movement"}
"""The bundled games, their series and their sides: what only adjudicator/systems/ and the data may name."""
NAMING_ALLOWED = {("builder/scaffold.py", "moscow")}
"""The blank template is derived from a bundled game by design (builder/scaffold.py's BLANK_SOURCE)."""


def test_nothing_outside_the_rule_systems_names_a_game_or_a_side() -> None:
    """No string of the code outside adjudicator/systems/ is a game's, a series' or a side's name (issue 25): what
    differs between games comes from their data (game.toml's [declare] and [counter]) or their rule system.
    Messages may still show an example (`[Game "onslaught"]`): only a name standing alone is a decision."""
    import ast

    found = []
    for package in ("wargame", "builder", "adjudicator", "umpire", "ledger"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("adjudicator/systems/"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMED
                        and (relative, node.value) not in NAMING_ALLOWED):
                    found.append(f"{relative}:{node.lineno}: {node.value!r}")
    assert found == []


GAME_FREE = ("adjudicator/vassal",)
"""Folders whose code names no particular game, side or rule system (issue 25 item 3): what differs comes from the
game's data or its rule system object. Docstrings and comments may cite a game's rule (`Omaha 11.2.3`)."""


def game_words() -> list[str]:
    """Every bundled game's id, sides, rule system and series, the words no game-free code may use."""
    from wargame.bundled import data_root, game_ids
    from wargame.game import load_game

    words: set[str] = set()
    for game_id in game_ids(data_root()):
        manifest = load_game(data_root(), game_id).manifest
        words |= {game_id, *manifest.sides, manifest.rule_system, manifest.series_id}
    return sorted(words)


def names_a_game(folder: Path, words: list[str]) -> list[str]:
    """The string literals (docstrings aside) and names of a folder's code that contain one of the words."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])", re.IGNORECASE)
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        docstrings = {id(n.value) for n in ast.walk(tree)
                      if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value
            elif isinstance(node, ast.Name):
                text = node.id
            elif isinstance(node, ast.Attribute):
                text = node.attr
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                text = node.name
            else:
                continue
            if pattern.search(text.replace("_", " ")):
                found.append(f"{path.relative_to(folder)}:{getattr(node, 'lineno', 0)}: {text[:80]!r}")
    return found


@pytest.mark.parametrize("folder", GAME_FREE)
def test_game_free_code_names_no_game(folder: str) -> None:
    """Nothing in the VASSAL reader names a particular game, side or rule system (no `rule_system == "omaha"`, no
    "German"): not in a comparison, a message, or a name."""
    assert names_a_game(ROOT / folder, game_words()) == []


def test_the_game_name_guard_finds_a_name(tmp_path: Path) -> None:
    """A planted comparison with a game's id and a side in a message are found; the same words in a docstring
    and a comment are not, so the test above can fail and does not forbid citing a rule."""
    folder = tmp_path / "pkg" / "reader"
    folder.mkdir(parents=True)
    (folder / "a.py").write_text('"""Omaha 11.2.3: the beach."""\n# German units\n'
                                 'def f(system: str) -> str:\n    """As Onslaught 9.1 says."""\n'
                                 '    if system == "omaha":\n        return "the German player"\n    return ""\n')
    found = names_a_game(folder, ["German", "omaha"])
    assert [f.rsplit(": ", 1)[1] for f in found] == ["'omaha'", "'the German player'"]


def test_no_production_file_is_over_the_limit() -> None:
    """No file of the shipped packages is over 600 lines (issue 25 item 6: the translator, the board renderer,
    the charts, the counters, the module writer and the CLI were split)."""
    long_files = [f"{p.relative_to(ROOT).as_posix()} ({n})" for package in ("wargame", "builder", "adjudicator",
                                                                          "umpire", "ledger")
                  for p in sorted((ROOT / package).rglob("*.py"))
                  if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert long_files == []
