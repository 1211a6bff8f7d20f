"""`-o` never destroys what it names (issue 28): a device, FIFO or symlink is written through, an existing
file keeps its mode and its hard links, a file of another kind is kept unless `--force`."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from umpire.cli import main as adjudicate
from wargame.errors import WargameError
from wargame.files import write_atomically

from import_probe import run_probe

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-combat.log"


def _convert(output: Path, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(adjudicate, ["convert", str(SAMPLE), "-o", str(output), *more])
    return result.exit_code, result.output


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    """`-o FIFO`: the reader gets the log, the FIFO stays a FIFO (it was replaced by a regular file)."""
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, out = _convert(fifo)
    reader.join(timeout=30)
    assert code == 0, out
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert b"attack 0621" in got[0]


def test_a_character_device_is_written_through() -> None:
    """`-o /dev/tty...` (a terminal; /dev/null alike) is written, and stays the device it was (a pseudo
    terminal here, so a broken writer cannot replace the machine's /dev/null)."""
    master, slave = os.openpty()
    try:
        name = Path(os.ttyname(slave))
        before = os.stat(name)
        write_atomically(name, "written through")
        assert os.read(master, 100).startswith(b"written through")
        after = os.lstat(name)
        assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    finally:
        os.close(master)
        os.close(slave)


def test_a_socket_is_refused(tmp_path: Path) -> None:
    """What is neither a file, a pipe nor a character device is refused, and kept."""
    path = tmp_path / "s.log"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(WargameError, match="not a file, a pipe or a character device"):
            write_atomically(path, "x")
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_symlink_is_followed_and_kept(tmp_path: Path) -> None:
    """`-o link`: the link stays a link, its target gets the output; a dangling link's target is created in its
    folder, and refused in a folder that does not exist (session 22: a mistyped folder is not made)."""
    target, link = tmp_path / "real.log", tmp_path / "link.log"
    target.write_text("old\n", encoding="utf-8")
    link.symlink_to(target)
    assert _convert(link)[0] == 0
    assert link.is_symlink() and "attack 0621" in target.read_text(encoding="utf-8")
    dangling, missing = tmp_path / "dangling.log", tmp_path / "missing.log"
    dangling.symlink_to(missing)
    assert _convert(dangling)[0] == 0
    assert dangling.is_symlink() and "attack 0621" in missing.read_text(encoding="utf-8")
    astray = tmp_path / "astray.log"
    astray.symlink_to(tmp_path / "sub" / "missing.log")
    code, out = _convert(astray)
    assert code == 2 and f"the folder {tmp_path / 'sub'} does not exist" in out and not (tmp_path / "sub").exists()


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    """A 0600 file stays 0600 (it became 0644), still replaced atomically."""
    out = tmp_path / "private.log"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o600)
    inode = out.stat().st_ino
    assert _convert(out)[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.stat().st_ino != inode


def test_hard_links_are_kept(tmp_path: Path) -> None:
    """A file with another hard link is rewritten in place: both names show the output."""
    out, other = tmp_path / "a.log", tmp_path / "b.log"
    out.write_text("old\n", encoding="utf-8")
    os.link(out, other)
    assert _convert(out)[0] == 0
    assert out.stat().st_ino == other.stat().st_ino
    assert "attack 0621" in other.read_text(encoding="utf-8")


def test_a_vassal_recording_is_not_overwritten_with_text(tmp_path: Path) -> None:
    """`convert LOG -o keep.vlog` over a recording: refused (exit 2), kept; written with --force."""
    keep = tmp_path / "keep.vlog"
    with zipfile.ZipFile(keep, "w") as archive:
        archive.writestr("savedGame", "recording")
    before = keep.read_bytes()
    code, out = _convert(keep)
    assert code == 2 and "adjudicate export" in out and "--force" in out and "Traceback" not in out
    assert keep.read_bytes() == before
    assert _convert(keep, "--force")[0] == 0
    assert "attack 0621" in keep.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["new.vlog", "new.VSAV", "new.vmod"])
def test_convert_does_not_write_text_under_a_vassal_name(tmp_path: Path, name: str) -> None:
    """`convert LOG -o new.vlog`: refused (exit 2), nothing written, `export` named; with --force, text is written."""
    out = tmp_path / name
    code, said = _convert(out)
    assert code == 2 and "adjudicate export" in said and "Traceback" not in said
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert _convert(out, "--force")[0] == 0
    assert "attack 0621" in out.read_text(encoding="utf-8")


def test_other_kinds_are_kept(tmp_path: Path) -> None:
    """A PNG over a text log, text over a PNG: refused; the same kind and an empty file are written."""
    log, png = tmp_path / "game.log", tmp_path / "x.png"
    log.write_text("Turn 1\n", encoding="utf-8")
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 20)
    with pytest.raises(WargameError, match="is text, and the output is a PNG picture"):
        write_atomically(log, b"\x89PNG\r\n\x1a\n....")
    with pytest.raises(WargameError, match="is a PNG picture"):
        write_atomically(png, "text")
    write_atomically(log, "Turn 2\n")
    write_atomically(png, b"\x89PNG\r\n\x1a\nnew")
    (tmp_path / "empty").touch()
    write_atomically(tmp_path / "empty", b"PK\x03\x04")
    assert log.read_text(encoding="utf-8") == "Turn 2\n"


def test_dev_stdout_redirected_to_a_file(tmp_path: Path) -> None:
    """`-o /dev/stdout > out`: the output and the message after it both land in the shell's file, in order."""
    out = tmp_path / "out.log"
    with open(out, "wb") as redirected:
        done = subprocess.run([sys.executable, "-m", "umpire", "convert", str(SAMPLE), "-o", "/dev/stdout"],
                              stdout=redirected, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert "attack 0621" in text and text.endswith("/dev/stdout\n")


def test_the_html_verdict_pictures_at_most_max_pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log of many findings drew one picture each (a 40 KB log: 78 s, 197 MB of HTML): past the cap the
    entries are listed without a picture, and the verdict names them."""
    import umpire.report
    monkeypatch.setattr(umpire.report, "MAX_PICTURES", 0)
    out = tmp_path / "report.html"
    log = ROOT / "examples" / "omaha" / "breach-leg-ezoc.log"
    result = CliRunner().invoke(adjudicate, ["check", str(log), "--format", "html", "-o", str(out)])
    assert result.exit_code == 1, result.output
    page = out.read_text(encoding="utf-8")
    assert "data:image/png" not in page
    assert "the first 0 entries with findings on the map are pictured; 1 are not: breach-leg-ezoc.log line 45" in page
    markdown = CliRunner().invoke(adjudicate, ["check", str(log), "--format", "markdown", "--images",
                                               str(tmp_path / "img")])
    assert "![" not in markdown.stdout and "1 are not" in markdown.stdout


def test_no_cache_is_made_in_a_home_that_does_not_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME=/nonexistent: no board cache (it created $HOME/.cache/umpire, the home folder with it)."""
    from builder.picture import cache_dir
    home = tmp_path / "nobody"
    monkeypatch.delenv("UMPIRE_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    assert cache_dir() is None
    home.mkdir()
    assert cache_dir() == home / ".cache" / "umpire"


def test_the_temporary_file_is_made_without_tempfile(tmp_path: Path) -> None:
    """write_atomically makes its temporary file itself: a build imports neither tempfile nor random for it."""
    code = ("import sys\nfrom pathlib import Path\nfrom wargame.files import write_atomically\n"
            "write_atomically(Path(sys.argv[1]), 'x')\nprint('tempfile' in sys.modules, 'random' in sys.modules)\n")
    done = run_probe(code, str(tmp_path / "out.txt"))
    assert done.stdout.split() == ["False", "False"]
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "x"


def test_a_taken_temporary_name_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As tempfile.mkstemp: a name already taken is passed over for another; the file is new, its owner's alone, and
    named as remove_stale_temporaries finds a killed writer's."""
    from wargame import files

    draws = iter([bytes(8), bytes(8), bytes([1] * 8)])
    monkeypatch.setattr(files.os, "urandom", lambda n: next(draws))
    prefix = files._temporary_prefix(tmp_path / "out.txt")
    (tmp_path / f"{prefix}aaaaaaaa.tmp").write_bytes(b"someone else's")
    fd, name = files.create_temporary(tmp_path, prefix)
    os.close(fd)
    assert name == str(tmp_path / f"{prefix}bbbbbbbb.tmp")
    assert stat.S_IMODE(os.stat(name).st_mode) == 0o600 and os.path.getsize(name) == 0
    assert (tmp_path / f"{prefix}aaaaaaaa.tmp").read_bytes() == b"someone else's"
