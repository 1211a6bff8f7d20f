"""Probes of what our code imports, run in an interpreter that imports nothing of its own before them.

A site's `.pth` files run at every start of its interpreter and may import anything: CI's Python imports certifi
through one, and with it tempfile, random, shutil and zipfile. A probe run there could not tell our imports from the
site's, and a test that a command does not import tempfile failed for an import we never made. So the probes start
the interpreter without its site (`-S`) and give it the test process's import path instead: the same packages, found
the same way, and nothing imported before the probe's first line.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _bare_path() -> tuple[str, ...]:
    """The import path an interpreter started without its site has: the standard library's folders."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-S", "-c", "import sys; print('\\n'.join(sys.path[1:]))"],
                          capture_output=True, text=True, check=True, timeout=120, env=env)
    return tuple(done.stdout.splitlines())


def probe_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (this process's environment if none) with PYTHONPATH the project and the folders this process imports
    from beyond the standard library's, in this process's order."""
    bare = set(_bare_path())
    folders = [str(ROOT), *(p for p in sys.path if p and p not in bare and p != str(ROOT))]
    return {**(os.environ if env is None else env), "PYTHONPATH": os.pathsep.join(dict.fromkeys(folders))}


def run_probe(code: str, *args: str, env: Mapping[str, str] | None = None, cwd: Path | str | None = ROOT,
              check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `python -S -c code args...` with probe_environment(env): what it imports is the probe's own doing."""
    return subprocess.run([sys.executable, "-S", "-c", code, *args], capture_output=True, text=True, check=check,
                          cwd=cwd, timeout=timeout, env=probe_environment(env))


@functools.cache
def imported_at_start() -> frozenset[str]:
    """What a probe's interpreter has imported before its first line (the interpreter's own modules)."""
    return frozenset(run_probe("import sys; print(' '.join(sys.modules))").stdout.split())
