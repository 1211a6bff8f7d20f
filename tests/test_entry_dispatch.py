"""The engine asks an entry what it is (its kind's own methods) and never tests its class (issue 25 items 1 and 3):
an `isinstance` on an entry class, a `type(...) is` one or a `case Move(...)` is a dispatch chain growing back."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from adjudicator.notation import entries

ROOT = Path(__file__).resolve().parent.parent
ENTRY_CLASSES = frozenset(name for name, value in vars(entries).items()
                          if inspect.isclass(value) and issubclass(value, entries.Entry))
SCOPE = ("adjudicator/*.py", "adjudicator/notation/*.py", "adjudicator/vassal/*.py", "umpire/*.py")
"""Everything outside the rule systems that reads entries (a rule system's handlers are registered per class)."""
STILL_TESTING: dict[str, tuple[int, str]] = {
    "adjudicator/vassal/clicks.py": (2, "the reader amends the stand or activation it wrote last by a copy of its fields"),
    "umpire/scenes.py": (3, "the units a picture's supply marks follow, by kind (not the units the entry acts with)"),
}
"""The files that still test entry classes, how often at most, and why; every other file, the engine first, none."""
FILES = sorted(str(path.relative_to(ROOT)) for pattern in SCOPE for path in ROOT.glob(pattern))


def _entry_names(tree: ast.Module) -> set[str]:
    """The names a module binds to entry classes: imported (under any alias), or a module-level tuple of them."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "adjudicator.notation.entries":
            names |= {alias.asname or alias.name for alias in node.names if alias.name in ENTRY_CLASSES}
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        if isinstance(value, ast.Tuple) and any(isinstance(e, ast.Name) and e.id in names for e in value.elts):
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _named(node: ast.expr | None, names: set[str]) -> bool:
    """Whether an expression names one of the entry classes (itself, an attribute `entries.Move`, or in a tuple)."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr in ENTRY_CLASSES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_named(e, names) for e in node.elts)
    if isinstance(node, ast.BinOp):  # isinstance(x, A | B)
        return _named(node.left, names) or _named(node.right, names)
    return False


def class_dispatch(source: str, file: str = "<source>") -> list[str]:
    """`file:line` of every test of an entry class in a module's code."""
    tree = ast.parse(source, filename=file)
    names = _entry_names(tree)
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("isinstance", "issubclass") and len(node.args) == 2 and _named(node.args[1], names):
            found.append(node.lineno)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) and \
                isinstance(node.left.func, ast.Name) and node.left.func.id == "type" and \
                any(_named(c, names) for c in node.comparators):
            found.append(node.lineno)
        elif isinstance(node, ast.MatchClass) and _named(node.cls, names):
            found.append(node.cls.lineno)
    return [f"{file}:{line}" for line in sorted(found)]


def test_the_engine_asks_the_entry() -> None:
    """The engine tests no entry class: each kind answers for itself (issue 25)."""
    assert "adjudicator/engine.py" in FILES and "adjudicator/engine.py" not in STILL_TESTING
    assert class_dispatch((ROOT / "adjudicator/engine.py").read_text(encoding="utf-8"), "adjudicator/engine.py") == []


@pytest.mark.parametrize("file", FILES)
def test_no_dispatch_on_entry_classes(file: str) -> None:
    """No file outside the rule systems tests an entry class, but those listed, no more often than listed."""
    found = class_dispatch((ROOT / file).read_text(encoding="utf-8"), file)
    allowed = STILL_TESTING.get(file, (0, ""))[0]
    assert len(found) <= allowed, found


def test_the_dispatch_guard_finds_a_class_test() -> None:
    """The guard sees an isinstance on an entry class under an alias or in a tuple, a `type() is` and a `case`."""
    source = '''
from adjudicator.notation.entries import Attack, Entry, Move as Moving, Retreat
from adjudicator.notation import entries
RELOCATING = (Moving, Retreat)

def f(entry: Entry, n: object) -> int:
    if isinstance(entry, Moving):
        return 1
    if isinstance(entry, RELOCATING) or isinstance(n, int):
        return 2
    if type(entry) is Attack or isinstance(entry, entries.Bombard | None):
        return 3
    match entry:
        case Retreat(unit=u):
            return 4
    return 0
'''
    assert class_dispatch(source) == ["<source>:7", "<source>:9", "<source>:11", "<source>:11", "<source>:14"]
