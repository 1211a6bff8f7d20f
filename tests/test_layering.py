"""Imports run one way: wargame <- builder, wargame <- adjudicator, wargame <- ledger, and umpire (the
commands that need both judging and drawing) above builder and adjudicator (house style 1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "wargame": {"builder", "adjudicator", "ledger", "umpire"},
    "builder": {"adjudicator", "ledger", "umpire"},
    # The adjudicator verifies receipts with wargame.receipts, never by importing the server.
    "adjudicator": {"builder", "ledger", "umpire"},
    "ledger": {"builder", "adjudicator", "umpire"},
}


def imported_packages(path: Path) -> set[str]:
    """Top-level packages a module imports (absolute imports only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_forbidden_imports(package: str) -> None:
    """No module of a package imports a package it must not depend on."""
    offenders = []
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_packages(path) & FORBIDDEN[package]
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(bad))}")
    assert offenders == []


def test_checker_catches_a_forbidden_edge(tmp_path: Path) -> None:
    """The import walker sees both import forms, so the test above can fail."""
    module = tmp_path / "m.py"
    module.write_text("import builder.cli\nfrom adjudicator import cli\nfrom . import local\n")
    assert imported_packages(module) == {"builder", "adjudicator"}
