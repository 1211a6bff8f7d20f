"""Issue 28's reproductions for bench/hostile_repro.py: each sets up its inputs in a scratch folder and says
what to run and what must hold afterwards (the user's file kept, the Markdown inert, the message right)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import shutil
import stat
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
XSS = "<img src=x onerror=alert(1)> [click](javascript:alert(1))"


@dataclass
class Run:
    """What one reproduction is: the command (after `python -m`), its streams and environment, and its check."""

    argv: list[str]
    check: Callable[[Outcome], str]
    stdin: str | Path = "null"
    """"null", "yes" (the output of `yes`) or a file to read."""
    stdout: str = "file"
    """"file" (a scratch file), "full" (/dev/full) or "closed"."""
    env: dict[str, str | None] = field(default_factory=dict)
    """Variables set (a value) or removed (None)."""
    timeout_s: float | None = None
    """This row's own timeout, when the fixed code itself takes close to the default (the ledger's deadline)."""
    beside: Callable[[], contextlib.AbstractContextManager[None]] | None = None
    """A FIFO's reader or a server, running while the process does."""


@dataclass
class Outcome:
    """How one process ended and what it cost."""

    code: int | None
    """The exit code; None when killed at the timeout; negative for another signal."""
    wall_s: float
    cpu_s: float
    peak_kib: int
    stdout: str
    stderr: str


class Skipped(Exception):
    """A reproduction that cannot be set up safely here (a device node without root)."""


Setup = Callable[[Path, Path], Run]
CASES: dict[str, tuple[str, Setup]] = {}


def case(name: str, what: str) -> Callable[[Setup], Setup]:
    """Register a reproduction under `name` with the issue's words for it."""
    def register(setup: Setup) -> Setup:
        CASES[name] = (what, setup)
        return setup
    return register


def _sample(checkout: Path, game: str = "onslaught", name: str = "legal-combat.log") -> Path:
    return checkout / "examples" / game / name


def _yes_no(ok: bool, yes: str, no: str) -> str:
    return yes if ok else no


class _Active(HTMLParser):
    """Collects what would run in a browser: a script element, an `on...` handler, a `javascript:` URL."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed", "svg"):
            self.found.append(tag)
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"{tag} {name}")


def _inert(markdown: str) -> bool:
    """Nothing active in the HTML a permissive renderer (raw HTML on, every link allowed) makes of `markdown`."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:  # without a renderer, the raw text must not hold the markup itself
        return not re.search(r"<img|<script|\]\(javascript:", markdown, re.IGNORECASE)
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # a careless forum trusts every link
    parser = _Active()
    parser.feed(md.render(markdown))
    return not parser.found


def _markdown_check(outcome: Outcome) -> str:
    return _yes_no(outcome.code in (1, 2) and _inert(outcome.stdout), "inert", "SCRIPT RUNS")


def _markdown_log(scratch: Path, name: str, text: str) -> Path:
    path = scratch / name
    path.write_text(text, encoding="utf-8")
    return path


@case("md-word", "Markdown: a log word quoted in a syntax error (one word: the unknown command)")
def _md_word(scratch: Path, checkout: Path) -> Run:
    log = _markdown_log(scratch, "word.log", _sample(checkout).read_text(encoding="utf-8")
                        + "Allied: [x](javascript:alert(1))<script>alert(1)</script>\n")
    return Run(["umpire", "check", str(log), "--format", "markdown"], _markdown_check)


@case("md-header", "Markdown: a Scenario header value")
def _md_header(scratch: Path, checkout: Path) -> Run:
    text = _sample(checkout).read_text(encoding="utf-8").replace(
        '[Game "onslaught"]', f'[Game "onslaught"]\n[Scenario "{XSS}"]')
    log = _markdown_log(scratch, "header.log", text)
    return Run(["umpire", "check", str(log), "--format", "markdown"], _markdown_check)


@case("md-name", "Markdown: a file name with a back-tick")
def _md_name(scratch: Path, checkout: Path) -> Run:
    log = scratch / "a`<img src=x onerror=alert(1)>`.log"
    shutil.copy(_sample(checkout, name="breach-zoc.log"), log)
    return Run(["umpire", "check", str(log), "--format", "markdown"], _markdown_check)


@case("md-alt", "Markdown: a picture's alt text and link with --images")
def _md_alt(scratch: Path, checkout: Path) -> Run:
    log = scratch / "[a](javascript:alert(1))`<img src=x onerror=alert(1)>.log"
    shutil.copy(_sample(checkout, name="breach-zoc.log"), log)
    images = scratch / "javascript:alert(1)"
    return Run(["umpire", "check", str(log), "--format", "markdown", "--images", str(images)], _markdown_check,
               env={"UMPIRE_CACHE": str(scratch / "cache")})


def _convert_onto(scratch: Path, checkout: Path, target: Path, *more: str) -> list[str]:
    return ["umpire", "convert", str(_sample(checkout)), "-o", str(target), *more]


@case("o-device", "`-o` onto a character device (a null device node made in a scratch folder)")
def _o_device(scratch: Path, checkout: Path) -> Run:
    node = scratch / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError as e:  # never a real device instead: the old code would replace it
        raise Skipped("mknod needs root") from e
    return Run(_convert_onto(scratch, checkout, node),
               lambda o: _yes_no(stat.S_ISCHR(os.lstat(node).st_mode), "device kept", "DEVICE REPLACED"))


@case("o-fifo", "`-o` onto a FIFO with a reader")
def _o_fifo(scratch: Path, checkout: Path) -> Run:
    fifo = scratch / "pipe.log"
    os.mkfifo(fifo)
    got = bytearray()

    @contextlib.contextmanager
    def reader() -> Iterator[None]:
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        stop = threading.Event()

        def drain() -> None:
            while not stop.is_set():
                if select.select([fd], [], [], 0.1)[0]:
                    with contextlib.suppress(BlockingIOError):
                        got.extend(os.read(fd, 65536))
        thread = threading.Thread(target=drain, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            with contextlib.suppress(BlockingIOError):
                got.extend(os.read(fd, 1 << 20))
            os.close(fd)

    def check(outcome: Outcome) -> str:
        kept = stat.S_ISFIFO(os.lstat(fifo).st_mode)
        return _yes_no(kept, "FIFO kept" + ("" if b"attack" in got else ", reader got nothing"), "FIFO REPLACED")
    return Run(_convert_onto(scratch, checkout, fifo), check, beside=reader)


@case("o-symlink", "`-o` onto a symlink to a file")
def _o_symlink(scratch: Path, checkout: Path) -> Run:
    target, link = scratch / "real.log", scratch / "link.log"
    target.write_text("old\n", encoding="utf-8")
    link.symlink_to(target)
    return Run(_convert_onto(scratch, checkout, link),
               lambda o: _yes_no(link.is_symlink(), "link kept", "LINK REPLACED"))


@case("o-0600", "`-o` onto a 0600 file")
def _o_private(scratch: Path, checkout: Path) -> Run:
    out = scratch / "private.log"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o600)
    return Run(_convert_onto(scratch, checkout, out), lambda o: (
        f"mode {stat.S_IMODE(out.stat().st_mode):04o}"
        + ("" if stat.S_IMODE(out.stat().st_mode) == 0o600 else " (WIDENED)")))


@case("o-hardlink", "`-o` onto a file with another hard link")
def _o_hardlink(scratch: Path, checkout: Path) -> Run:
    out, other = scratch / "a.log", scratch / "b.log"
    out.write_text("old\n", encoding="utf-8")
    os.link(out, other)
    return Run(_convert_onto(scratch, checkout, out), lambda o: _yes_no(
        out.stat().st_ino == other.stat().st_ino and "attack" in other.read_text(encoding="utf-8"),
        "link kept", "LINK BROKEN"))


@case("o-vlog", "`convert LOG -o keep.vlog` over a VASSAL recording")
def _o_vlog(scratch: Path, checkout: Path) -> Run:
    keep = scratch / "keep.vlog"
    with zipfile.ZipFile(keep, "w") as archive:
        archive.writestr("savedGame", "recording")
    before = keep.read_bytes()
    return Run(_convert_onto(scratch, checkout, keep),
               lambda o: _yes_no(keep.read_bytes() == before, "file kept", "RECORDING OVERWRITTEN"))


def _refused(outcome: Outcome) -> str:
    return _yes_no(outcome.code == 2, "refused", "not refused")


@case("zero-log", "`check /dev/zero`")
def _zero_log(scratch: Path, checkout: Path) -> Run:
    return Run(["umpire", "check", "/dev/zero"], _refused)


@case("yes-stdin", "`yes | adjudicate check -`")
def _yes_stdin(scratch: Path, checkout: Path) -> Run:
    return Run(["umpire", "check", "-"], _refused, stdin="yes")


@case("zero-vlog", "a `.vlog` that is a symlink to /dev/zero")
def _zero_vlog(scratch: Path, checkout: Path) -> Run:
    link = scratch / "z.vlog"
    link.symlink_to("/dev/zero")
    return Run(["umpire", "check", str(link)], _refused)


@case("zero-module", "`check REC.vlog --module /dev/zero`")
def _zero_module(scratch: Path, checkout: Path) -> Run:
    recording = checkout / "tests" / "data" / "vassal" / "onslaught-zoc.vlog"
    return Run(["umpire", "check", str(recording), "--module", "/dev/zero"], _refused)


@case("zero-data", "a game's `map.toml` that is a symlink to /dev/zero (`check --data`)")
def _zero_data(scratch: Path, checkout: Path) -> Run:
    data = scratch / "data"
    for name in ("maps", "counters"):
        shutil.copytree(checkout / name, data / name)
    (data / "maps" / "onslaught" / "map.toml").unlink()
    (data / "maps" / "onslaught" / "map.toml").symlink_to("/dev/zero")
    return Run(["umpire", "check", str(_sample(checkout)), "--data", str(data)], _refused)


@case("zero-seal", "`seal --verify` of a log whose `.seal` is /dev/zero")
def _zero_seal(scratch: Path, checkout: Path) -> Run:
    log = scratch / "g.log"
    shutil.copy(_sample(checkout), log)
    (scratch / "g.log.seal").symlink_to("/dev/zero")
    return Run(["umpire", "seal", "--verify", str(log)], _refused)


@case("big-seal", "`seal --verify` of a 150 MB `.seal` file")
def _big_seal(scratch: Path, checkout: Path) -> Run:
    log = scratch / "g.log"
    shutil.copy(_sample(checkout), log)
    line = b'{"line": 1, "entry": "' + b"0" * 64 + b'", "state": "' + b"0" * 64 + b'"}\n'
    with open(scratch / "g.log.seal", "wb") as seal:
        for _ in range(150_000_000 // (len(line) * 10_000) + 1):
            seal.write(line * 10_000)
    return Run(["umpire", "seal", "--verify", str(log)], lambda o: _yes_no(
        o.code == 2 and "at most 67,108,864" in o.stdout + o.stderr, "refused at the cap", "read whole"))


@case("html-pictures", "`check --format html` of a log of 300 entries with findings on the map")
def _html_pictures(scratch: Path, checkout: Path) -> Run:
    lines = _sample(checkout, "omaha", "breach-leg-ezoc.log").read_text(encoding="utf-8").splitlines()
    cut = next(i for i, row in enumerate(lines) if "# expect: error" in row)
    # The unit moves back and forth through enemy ZOC: every second line is a breach on the map.
    moves = ["16/1 2319-2218-2217-2216", "16/1 2216-2217-2218-2319"] * 150
    log = scratch / "many.log"
    log.write_text("\n".join([*lines[:cut], *moves]) + "\n", encoding="utf-8")
    page = scratch / "verdict.html"
    return Run(["umpire", "check", str(log), "--format", "html", "-o", str(page)], lambda o: (
        f"{page.stat().st_size / 2**20:.1f} MB of HTML" if page.exists() else "no page"),
        env={"UMPIRE_CACHE": str(scratch / "cache")})


def _vlog_of(savedgame_text: str, path: Path) -> Path:
    """A .vlog of the recorded session's members with `savedgame_text` obfuscated as its savedGame."""
    sys.path.insert(0, str(ROOT))
    from wargame.vassal.savefile import obfuscate
    recorded = ROOT / "tests" / "data" / "vassal" / "onslaught-session.vlog"
    with zipfile.ZipFile(recorded) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", obfuscate(savedgame_text))
        for name in ("savedata", "moduledata"):
            archive.writestr(name, source.read(name))
    return path


@case("chat-vlog", "a `.vlog` of 10^6 chat commands")
def _chat_vlog(scratch: Path, checkout: Path) -> Run:
    sys.path.insert(0, str(ROOT / "bench"))
    from vlog_memory import chat_vlog
    path = scratch / "chat.vlog"
    path.write_bytes(chat_vlog(1_000_000))
    return Run(["umpire", "check", str(path)], lambda o: f"{path.stat().st_size / 1000:.0f} KB file, {_refused(o)}")


@case("backslash-vlog", "a `.vlog` whose savedGame is 60 MB of backslashes (15 million escaped ESCs, obfuscated)")
def _backslash_vlog(scratch: Path, checkout: Path) -> Run:
    path = _vlog_of("begin_save\x1bend_save\x1bLOG\t" + "\\\x1b" * 15_000_000, scratch / "slashes.vlog")
    return Run(["umpire", "check", str(path)], _refused)


def _no_internal_error(outcome: Outcome) -> str:
    return _yes_no(outcome.code == 2 and "internal error" not in outcome.stderr + outcome.stdout, "user error",
                   "INTERNAL ERROR" if outcome.code == 3 else "-")


def _replaced(scratch: Path, checkout: Path, game: str, old: str, new: str, name: str = "legal-combat.log") -> Path:
    text = _sample(checkout, game, name).read_text(encoding="utf-8")
    assert old in text, (game, old)
    path = scratch / f"{game}.log"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@case("combat-unknown-onslaught", "`combat` of an Onslaught log with an unknown attacker")
def _combat_onslaught(scratch: Path, checkout: Path) -> Run:
    log = _replaced(scratch, checkout, "onslaught", "with us-inf-01 us-inf-02", "with us-inf-01 us-inf-99")
    return Run(["umpire", "combat", str(log)], _no_internal_error)


@case("combat-unknown-omaha", "`combat` of an Omaha log with an unknown attacker")
def _combat_omaha(scratch: Path, checkout: Path) -> Run:
    log = _replaced(scratch, checkout, "omaha", "attack 2319 with 16/1 18/1", "attack 2319 with 16/1 99/9")
    return Run(["umpire", "combat", str(log)], _no_internal_error)


@case("income-martian", "`Martian: income 5`, a side the game lacks")
def _income(scratch: Path, checkout: Path) -> Run:
    log = scratch / "side.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nMartian: income 5\n', encoding="utf-8")
    return Run(["umpire", "check", str(log)], _no_internal_error)


@case("capture-martian", "`Martian: capture 0620`, a side the game lacks")
def _capture(scratch: Path, checkout: Path) -> Run:
    log = scratch / "side.log"
    log.write_text('[Game "onslaught"]\nTurn 1\nStep action\nMartian: capture 0620\n', encoding="utf-8")
    return Run(["umpire", "check", str(log)], _no_internal_error)


@case("rolloff-empty", 'a JSON `rolloff` with `"rolls": {}`')
def _rolloff(scratch: Path, checkout: Path) -> Run:
    twin = scratch / "c.json"
    subprocess.run([sys.executable, "-m", "umpire", "convert", str(_sample(checkout)), "-o", str(twin)], check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(checkout)})
    doc = json.loads(twin.read_text(encoding="utf-8"))
    for entry in doc["entries"]:
        if entry["kind"] == "rolloff":
            entry["rolls"] = {}
    twin.write_text(json.dumps(doc), encoding="utf-8")
    return Run(["umpire", "check", str(twin)], _no_internal_error)


@case("stdout-full", "`check` with standard output on a full disk (/dev/full)")
def _stdout_full(scratch: Path, checkout: Path) -> Run:
    return Run(["umpire", "check", str(_sample(checkout))], _no_internal_error, stdout="full")


@case("picture-quarter", "`picture --scale 0.25` of an Omaha log")
def _picture(scratch: Path, checkout: Path) -> Run:
    out = scratch / "small.png"
    return Run(["umpire", "picture", str(_sample(checkout, "omaha")), "--scale", "0.25", "-o", str(out)],
               lambda o: _yes_no(out.exists() and out.stat().st_size > 0, "drawn", "no picture"),
               env={"UMPIRE_CACHE": ""})


class _Dripping(BaseHTTPRequestHandler):
    """A server that answers one byte every 0.1 s, for ever: no single read ever times out."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Length", str(10**9))
        self.end_headers()
        with contextlib.suppress(OSError):
            while True:
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)

    def log_message(self, *_: object) -> None:
        pass


@case("ledger-drip", "`check --ledger URL` of a server that drips a byte every 0.1 s")
def _ledger(scratch: Path, checkout: Path) -> Run:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Dripping)
    server.daemon_threads = True

    @contextlib.contextmanager
    def serving() -> Iterator[None]:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield
        finally:
            server.shutdown()
            server.server_close()
    url = f"http://127.0.0.1:{server.server_address[1]}/ledger"
    # The fixed code gives up at its 60 s download deadline: a timeout past it tells that from a hang.
    return Run(["umpire", "check", str(_sample(checkout)), "--ledger", url], _refused, beside=serving,
               timeout_s=120)


def _game_folder(scratch: Path, checkout: Path, make: Callable[[Path], None]) -> Run:
    folder = scratch / "game"
    folder.mkdir()
    shutil.copy(_sample(checkout), folder / "01-start.log")
    make(folder / "02-next.log")
    return Run(["umpire", "check", str(folder)], lambda o: _yes_no(
        o.code == 2 and "02-next.log" in o.stdout + o.stderr, "named, exit 2", "SKIPPED SILENTLY"))


@case("folder-fifo", "a FIFO named like an exchange in a game folder")
def _folder_fifo(scratch: Path, checkout: Path) -> Run:
    return _game_folder(scratch, checkout, os.mkfifo)


@case("folder-dir", "a folder named like an exchange in a game folder")
def _folder_dir(scratch: Path, checkout: Path) -> Run:
    return _game_folder(scratch, checkout, Path.mkdir)


@case("folder-dangling", "a dangling symlink named like an exchange in a game folder")
def _folder_dangling(scratch: Path, checkout: Path) -> Run:
    return _game_folder(scratch, checkout, lambda odd: odd.symlink_to("nowhere"))


@case("utf16-exchange", "a game folder whose exchange 02 is UTF-16")
def _utf16(scratch: Path, checkout: Path) -> Run:
    folder = scratch / "game"
    folder.mkdir()
    shutil.copy(_sample(checkout), folder / "01-start.log")
    (folder / "02-next.log").write_bytes("Turn 2\n".encode("utf-16"))
    return Run(["umpire", "check", str(folder)], lambda o: _yes_no(
        "01-start.log:1:1" not in o.stdout + o.stderr and "02-next.log:1:1" in o.stdout + o.stderr, "02 named",
        "BLAMED ON 01"))


@case("stdout-closed", "`check` with standard output closed (`>&-`)")
def _stdout_closed(scratch: Path, checkout: Path) -> Run:
    return Run(["umpire", "check", str(_sample(checkout))], lambda o: _yes_no(
        o.code == 2, "exit 2, said why", "SILENT"), stdout="closed")


@case("home-missing", "`picture` with HOME a folder that does not exist")
def _home(scratch: Path, checkout: Path) -> Run:
    home = scratch / "nobody"
    out = scratch / "p.png"
    return Run(["umpire", "picture", str(_sample(checkout)), "-o", str(out)],
               lambda o: _yes_no(not home.exists(), "no home made", "HOME CREATED"),
               env={"HOME": str(home), "UMPIRE_CACHE": None, "XDG_CACHE_HOME": None})


def _steps(recording: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from wargame.vassal.reader import read_recording
    return len(read_recording(recording).steps)


@case("export-backslash", "`export` of a log with a comment line ending in a backslash")
def _export(scratch: Path, checkout: Path) -> Run:
    module = _module(scratch, checkout)
    text = _sample(checkout).read_text(encoding="utf-8")
    plain, slashed = scratch / "plain.log", scratch / "slashed.log"
    plain.write_text(text + "# a note\n", encoding="utf-8")
    slashed.write_text(text + "# a note \\\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "umpire", "export", str(plain), "--module", str(module), "-o",
                    str(scratch / "plain.vlog")], check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(checkout)})
    expected = _steps(scratch / "plain.vlog")
    out = scratch / "slashed.vlog"

    def check(outcome: Outcome) -> str:
        got = _steps(out) if out.exists() else 0
        return _yes_no(got == expected, f"{got} steps of {expected}", f"{got} STEPS OF {expected}")
    return Run(["umpire", "export", str(slashed), "--module", str(module), "-o", str(out)], check)


MODULES: dict[Path, Path] = {}
"""The Onslaught module given by --module, or built once per checkout into the run's scratch."""


def _module(scratch: Path, checkout: Path) -> Path:
    if checkout not in MODULES:
        out = scratch / "dist"
        subprocess.run([sys.executable, "-m", "builder", "build", "onslaught", "--out", str(out)], check=True,
                       capture_output=True, env={**os.environ, "PYTHONPATH": str(checkout), "UMPIRE_CACHE": ""})
        MODULES[checkout] = out / "onslaught.vmod"
    return MODULES[checkout]
