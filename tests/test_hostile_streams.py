"""Size caps counted while reading (issue 28): a pipe or a device reports a size of 0, so every reader
(logs, standard input, data files, --module, .vlog/.vsav, .seal files, key files) stops at its cap
however much it is fed. Each case runs in a child process with 1.5 GB of address space and a minute:
before the fix each read /dev/zero until the kernel or the limit stopped it."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-combat.log"
VLOG = ROOT / "tests" / "data" / "vassal" / "onslaught-zoc.vlog"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))


def _bounded(args: list[str], stdin: object = subprocess.DEVNULL, cwd: Path | None = None) -> tuple[int, str]:
    """Exit code and output of `python ARGS` under the memory cap, with the time it took checked."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, *args], stdin=stdin, capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert time.monotonic() - started < 60
    return done.returncode, done.stdout + done.stderr


def _adjudicate(*args: str, stdin: object = subprocess.DEVNULL) -> tuple[int, str]:
    return _bounded(["-m", "umpire", *args], stdin=stdin)


def test_a_log_from_dev_zero() -> None:
    """`check /dev/zero`: exit 2 naming the cap (was 10 GB in 41 s)."""
    code, out = _adjudicate("check", "/dev/zero")
    assert code == 2 and "more than 4,194,304 bytes: a text or JSON log may have at most 4,194,304" in out


def test_standard_input_without_end() -> None:
    """`yes | adjudicate check -`: exit 2 naming the cap."""
    with open("/dev/zero", "rb") as zero:
        code, out = _adjudicate("check", "-", stdin=zero)
    assert code == 2 and "standard input: more than 67,108,864 bytes" in out and "Traceback" not in out


def test_a_recording_from_dev_zero(tmp_path: Path) -> None:
    """A .vlog that is /dev/zero (a symlink): the 64 MiB cap, counted."""
    link = tmp_path / "z.vlog"
    link.symlink_to("/dev/zero")
    code, out = _adjudicate("check", str(link))
    assert code == 2 and "at most 67,108,864 bytes are accepted for a saved game or log" in out


def test_a_module_from_dev_zero(tmp_path: Path) -> None:
    """`--module /dev/zero` (zipfile read it whole looking for its end): refused, it is not a file."""
    code, out = _adjudicate("export", str(SAMPLE), "--module", "/dev/zero", "-o", str(tmp_path / "x.vlog"))
    assert code == 2 and "not a regular file: a module is a zip archive" in out
    code, out = _adjudicate("check", str(VLOG), "--module", "/dev/zero")
    assert code == 2 and "not a regular file" in out


def test_a_seal_from_dev_zero(tmp_path: Path) -> None:
    """A .seal that is /dev/zero: its own 64 MiB cap."""
    log = tmp_path / "g.log"
    log.write_bytes(SAMPLE.read_bytes())
    (tmp_path / "g.log.seal").symlink_to("/dev/zero")
    code, out = _adjudicate("seal", "--verify", str(log))
    assert code == 2 and "a seal may have at most 67,108,864" in out


def test_a_data_file_and_a_key_from_dev_zero(tmp_path: Path) -> None:
    """A TOML data file and the ledger's key file that are /dev/zero: DataError / KeyFileError at the cap."""
    (tmp_path / "map.toml").symlink_to("/dev/zero")
    (tmp_path / "key.pem").symlink_to("/dev/zero")
    code = ("import sys\nfrom pathlib import Path\nfrom wargame.datafiles import load_toml\n"
            "from wargame.models import MapManifest\nfrom wargame.errors import WargameError\n"
            "from ledger.keys import load_private_key\n"
            f"for run in (lambda: load_toml(Path({str(tmp_path / 'map.toml')!r}), MapManifest),\n"
            f"            lambda: load_private_key(Path({str(tmp_path / 'key.pem')!r}))):\n"
            "    try:\n        run()\n    except WargameError as e:\n        print(e)\n")
    status, out = _bounded(["-c", code])
    assert status == 0, out
    assert "more than 4,194,304 bytes: a data file may have at most 4,194,304" in out
    assert "more than 65,536 bytes: a PEM key file has at most 65,536" in out


def test_a_regular_file_past_the_cap_gives_its_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A regular file still says how large it is."""
    from wargame.files import TooLarge, read_capped
    path = tmp_path / "big"
    path.write_bytes(b"x" * 1000)
    with pytest.raises(TooLarge, match="1,000 bytes"):
        read_capped(path, 100)
    assert read_capped(path, 1000) == b"x" * 1000


def test_a_recording_of_too_many_steps() -> None:
    """A 53 KB .vlog of 10^6 chat commands took 143 s and 1.37 GB (2 KB a step replayed): steps are capped."""
    from wargame.errors import DataError
    from wargame.vassal.commands import TreeLimits
    from wargame.vassal.reader import read_commands
    text = "begin_save\x1bend_save" + "\x1bLOG\tCHAT<Tester> - hi" * 4
    assert len(read_commands(text, "x.vlog", TreeLimits(max_steps=4))[1]) == 4
    with pytest.raises(DataError, match="more than 3 logged steps: refused as too large"):
        read_commands(text, "x.vlog", TreeLimits(max_steps=3))
    assert TreeLimits().max_steps == 100_000


@pytest.mark.parametrize("text", [("\\" * 200 + "\x1b") * 30_000, "\\" * 6_000_000 + "\x1bx"],
                         ids=["runs before each ESC", "one long run"])
def test_a_text_nested_deep_is_not_split_100_times_over(text: str) -> None:
    """Runs of backslashes before an ESC nest a text 100 deep: it was split at every level (9 to 70 s for
    30 MB). The reading stops once the text has been read 16 times over (real files: about twice)."""
    from wargame.errors import DataError
    from wargame.vassal.commands import command_tree
    with pytest.raises(DataError, match="read more than 16 times over"):
        command_tree("begin_save\x1bend_save\x1bLOG\t" + text, "x.vlog")


def test_many_escaped_delimiters_are_joined_in_one_pass() -> None:
    """15 million escaped ESCs took 29 s, joined one by one from a list of three items each (8.7 bytes of
    memory a character here): now one replace, the token held once."""
    import tracemalloc

    from wargame.vassal.commands import iter_split
    text = "LOG\t" + "\\\x1b" * 3_000_000
    tracemalloc.start()
    try:
        first = next(iter_split(text, "\x1b"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert first == "LOG\t" + "\x1b" * 3_000_000
    assert peak < 2 * len(text)


def test_splitting_agrees_with_the_decoder() -> None:
    """The fast splits (few delimiters, many, and the fallback) give VASSAL's decoder's tokens."""
    import random

    from wargame.vassal import commands
    from wargame.vassal.encoding import decode
    rng = random.Random(28)
    for _ in range(5_000):
        text = "".join(rng.choice(["\\", "\x1b", "a", "'", "/", "\x00", "\ue000"]) for _ in range(rng.randint(0, 14)))
        for delimiter in ("\x1b", "/"):
            expected = decode(text, delimiter)
            assert commands.split(text, delimiter) == expected
            assert list(commands._iter_split_many(text, delimiter)) == expected
            assert list(commands._iter_split_slowly(text, delimiter)) == expected
