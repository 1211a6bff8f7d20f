"""What a new user tripped over, round 2 (issue 29): option order, ledger URLs, readable verdicts of games with
receipts, summaries of several logs, logs given out of order."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from adjudicator.dice_ledger import ledger_url, read_ledger
from adjudicator.notation.text import quoted_source
from umpire.cli import main as adjudicate
from wargame.errors import WargameError

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples/pbem/game"
LEDGER = ROOT / "examples/pbem/onslaught-sample.ledger.json"


def run(*args: str) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of `adjudicate ARGS`."""
    result = CliRunner().invoke(adjudicate, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_shared_options_before_the_command() -> None:
    """`adjudicate --data DIR LOG`, `--format json check LOG`, `--data DIR state LOG`: the order git-style tools
    accept gives what the options after the command give."""
    log = str(ROOT / "examples/onslaught/breach-zoc.log")
    assert run("--data", str(ROOT), log)[:2] == run(log, "--data", str(ROOT))[:2]
    code, out, err = run("--format", "json", "check", log)
    assert code == 1 and out.startswith("{"), err
    code, out, err = run("--format=markdown", "--data", str(ROOT), log)
    assert code == 1 and out.startswith("### Umpire verdict"), err
    code, out, err = run("--data", str(ROOT), "state", log, "--at", "3")
    assert code == 0 and out.startswith("Turn 1"), err


def test_a_file_that_is_no_log_gets_a_hint(tmp_path: Path) -> None:
    """`adjudicate game.pbem` says what `adjudicate` reads, not only "No such command"."""
    odd = tmp_path / "game.pbem"
    shutil.copy(ROOT / "examples/onslaught/legal-combat.log", odd)
    code, _, err = run(str(odd))
    assert code == 2 and "neither a command nor a log" in err and ".log" in err and f"check {odd}" in err


@pytest.fixture
def ledger_site(tmp_path: Path) -> Iterator[str]:
    """A web server on loopback with a game's page (HTML) and its ledger at the service's addresses."""
    game = tmp_path / "games" / "club-42"
    game.mkdir(parents=True)
    shutil.copy(LEDGER, game / "ledger.json")
    (tmp_path / "page.html").write_text("<!doctype html><title>club-42</title>", encoding="utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(tmp_path), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_the_games_page_stands_for_its_ledger(ledger_site: str) -> None:
    """`--ledger http://HOST/games/G`, the page the README names, reads the ledger beside it; a web page that is
    no ledger says where the ledger is."""
    assert ledger_url("http://h:8000/games/club-42") == "http://h:8000/games/club-42/ledger.json"
    assert ledger_url("http://h:8000/games/club-42/") == "http://h:8000/games/club-42/ledger.json"
    assert ledger_url("http://h/games/club-42/ledger.json") == "http://h/games/club-42/ledger.json"
    assert read_ledger(f"{ledger_site}/games/club-42").receipts == read_ledger(str(LEDGER)).receipts
    with pytest.raises(WargameError, match=r"a web page, not a ledger file .*/games/GAME/ledger.json"):
        read_ledger(f"{ledger_site}/page.html")
    code, out, err = run("check", str(GAME), "--ledger", f"{ledger_site}/games/club-42")
    assert code == 0, err


def test_receipts_are_elided_in_quoted_lines() -> None:
    """A finding quotes its line with each receipt as `umpire1.…`, the caret still under its column."""
    line = "Roll Allied 3 German 5 receipt umpire1.AAAA_bbbb-0123 receipt umpire1.CCCC"
    assert quoted_source(line, 6) == ["    Roll Allied 3 German 5 receipt umpire1.… receipt umpire1.…",
                                      "         ^"]
    # A column inside the second receipt: the caret under it; one past both: shifted by what was elided.
    shown = quoted_source(line, 1)[0]
    assert quoted_source(line, line.index("CCCC") + 1)[1] == " " * shown.rindex("umpire1.…") + "^"
    assert quoted_source(line + " x", len(line) + 2)[1].index("^") == len(shown) + 1
    code, out, _ = run("check", str(ROOT / "examples/pbem/changed-die"), "--ledger", str(LEDGER))
    assert code == 1 and "receipt umpire1.…" in out
    # The quoted log lines (indented under each finding) are what receipts made long; a message may be long.
    quoted = [line for line in out.splitlines() if line.startswith("    ")]
    assert quoted and max(len(line) for line in quoted) < 300, max(quoted, key=len)


def test_one_game_counts_the_same_entries_in_every_form(tmp_path: Path) -> None:
    """The sample game as one log, as its four exchanges and as its JSON twin: the same count, comments and
    headers not counted as checked."""
    single = ROOT / "examples/onslaught/legal-sample-game.log"
    plays = sum(1 for line in single.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith(("#", "[")))
    twin = tmp_path / "game.json"
    assert run("convert", str(single), "-o", str(twin))[0] == 0
    for given in (single, GAME, twin):
        code, out, err = run(str(given))
        assert code == 0, err
        assert f"{plays} of {plays} entries checked over 4 turn(s)" in out.splitlines()[-1], out.splitlines()[-1]


def test_a_summary_of_several_logs_names_them() -> None:
    """The last line of a chain's verdict names its logs and counts VASSAL steps only where VASSAL logs are."""
    code, out, _ = run(str(GAME))
    last = out.splitlines()[-1]
    assert code == 0 and last.startswith(f"{GAME}/01-turn-1.log to 04-turn-4.log: ")
    assert "VASSAL step" not in last


def test_logs_out_of_order_are_said_to_be() -> None:
    """Exchanges given out of order: the error says so, names the log that comes first or next, and is the
    chain's finding (not the notation's)."""
    first, second, third = (str(GAME / f"0{k}-turn-{k}.log") for k in (1, 2, 3))
    code, out, _ = run(second, first, third)
    assert code == 2 and "[vassal chain]" in out and "notation syntax" not in out
    assert "the logs are out of order" in out and f"{first}, given as log 2, begins the game" in out
    code, out, _ = run(first, third, second)
    assert code == 2 and "[vassal chain]" in out
    assert f"and {second}, given after it, continues {first}: give the logs in the order they were played" in out
    code, out, _ = run(first, third)
    assert code == 2 and "an exchange is missing between them" in out


@pytest.mark.parametrize(("game", "opening", "path", "meant"), [
    ("onslaught", "examples/onslaught/legal-turn1.log:12", "br-inf-01 0720-0712-0722", "0721"),
    ("onslaught", "examples/onslaught/legal-turn1.log:12", "br-inf-01 0720-0712", "0721"),
    ("omaha", "examples/omaha/legal-combat.log:46", "16/1 2319-2128-2217", "2218"),
])
def test_a_mistyped_hex_that_is_another_hex_gets_a_did_you_mean(tmp_path: Path, game: str, opening: str, path: str,
                                                                meant: str) -> None:
    """A path's hex mistyped into another real hex (0712 for 0721) skips; the finding names the hex meant."""
    source, _, lines = opening.partition(":")
    log = tmp_path / "typo.log"
    head = (ROOT / source).read_text(encoding="utf-8").splitlines()[:int(lines)]
    log.write_text("\n".join([*head, path]) + "\n", encoding="utf-8")
    code, out, _ = run(str(log))
    start, typo = path.split()[1].split("-")[:2]
    assert code == 1 and f"skips from {start} to {typo} (did you mean" in out, out
    assert f"'{meant}'" in out.split("skips")[1]


def test_every_skip_names_the_hexes_meant() -> None:
    """The grid's hint: labels next to the hex before (and the hex after, when there is one), one typo away."""
    from wargame.bundled import data_root
    from wargame.game import load_game
    grid = load_game(data_root(None), "onslaught").grid
    assert grid.step_hint("0720", "0712", "0722") == " (did you mean '0721'?)"
    assert "'0721'" in grid.step_hint("0720", "0712")
    assert grid.step_hint("0720", "3333") == ""


def test_the_ledger_server_says_where_it_is_and_how_to_stop_it(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`umpire-ledger serve` prints its address and how to stop it, and warns when the admin token is unset."""
    import uvicorn

    from ledger.cli import main as umpire_ledger
    from ledger_support import write_test_key

    served: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: served.append(kwargs))
    key = write_test_key(tmp_path / "key.pem")
    db = f"sqlite:///{tmp_path / 'ledger.sqlite'}"
    monkeypatch.delenv("UMPIRE_LEDGER_ADMIN_TOKEN", raising=False)
    result = CliRunner().invoke(umpire_ledger, ["serve", "--db", db, "--key", str(key), "--port", "8123"])
    assert result.exit_code == 0 and served, result.output
    assert "at http://127.0.0.1:8123 (a game's page: http://127.0.0.1:8123/games/GAME); stop with Ctrl+C" \
        in result.stdout
    assert "warning: the environment variable UMPIRE_LEDGER_ADMIN_TOKEN is not set" in result.stderr
    monkeypatch.setenv("UMPIRE_LEDGER_ADMIN_TOKEN", "a-long-secret-for-this-test")
    result = CliRunner().invoke(umpire_ledger, ["serve", "--db", db, "--key", str(key), "--host", "0.0.0.0"])
    assert result.exit_code == 0 and "warning" not in result.stderr
    assert "http://0.0.0.0" not in result.stdout and ":8000 (a game's page" in result.stdout


def test_every_ledger_option_is_described() -> None:
    """`umpire-ledger open --key` and every other option of the ledger's commands say what they are."""
    from ledger.cli import main as umpire_ledger
    for name, command in sorted(umpire_ledger.commands.items()):
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"umpire-ledger {name} {param.opts[0]} has no help"


@pytest.mark.parametrize("game_id", ["onslaught", "omaha"])
def test_a_verdicts_pictures_have_readable_hex_numbers(game_id: str) -> None:
    """At the reading scale the hex numbers' digits are at least 9 px high (about 5 px before, at 0.75)."""
    from builder.picture import reading_scale
    from builder.render.board import hex_number_px
    from builder.render.ink import font
    from wargame.bundled import data_root
    from wargame.game import load_game
    game = load_game(data_root(None), game_id)
    size_px = game.map.layout.hex_size_px * reading_scale(game)
    left, top, right, bottom = font(hex_number_px(size_px), condensed=True).getbbox("0123456789", anchor="ls")
    assert bottom - top >= 9


def _purple(path: Path) -> int:
    """How many pixels of a picture are the purple of an `info` mark."""
    from PIL import Image
    with Image.open(path) as image:
        colours = image.convert("RGB").getcolors(1 << 24) or []
        return sum(n for n, (r, g, b) in colours if abs(r - 120) < 30 and abs(g - 40) < 30 and abs(b - 160) < 30)


def test_around_shows_the_radius_asked_with_its_centre_ringed(tmp_path: Path) -> None:
    """`picture --around 0621 --radius 2`: the crop holds the hexes within 2 (and room for a note), not a hex
    more; the centre is ringed; --legend says what the ring is."""
    from PIL import Image

    from builder.picture import reading_scale
    from builder.render.board import board_layout
    from wargame.bundled import data_root
    from wargame.game import load_game
    game = load_game(data_root(None), "onslaught")
    layout = board_layout(game, reading_scale(game))
    log = str(ROOT / "examples/onslaught/breach-result.log")
    widths = {}
    for radius in (1, 2):
        out = tmp_path / f"around-{radius}.png"
        code, _, err = run("picture", log, "--at", "7", "--around", "0621", "--radius", str(radius), "-o", str(out))
        assert code == 0, err
        with Image.open(out) as image:
            widths[radius] = image.width
        centre = game.grid.hex_of("0621")
        xs = [x for h in game.grid.hexes if centre.distance(h) <= radius for x, _ in layout.corners(h)]
        room = 2 * layout.size_px * 0.6  # the note's room on each side (builder.picture._bounds)
        assert widths[radius] <= max(xs) - min(xs) + room + 2
    # One more hex of radius is one and a half hexes wider (a flat-topped column step on each side).
    assert widths[2] - widths[1] == pytest.approx(2 * 0.75 * 2 * layout.size_px, abs=3)
    ringed, plain = tmp_path / "ringed.png", tmp_path / "plain.png"
    assert run("picture", log, "--at", "7", "--around", "0621", "--radius", "1", "--legend", "-o", str(ringed))[0] == 0
    assert run("picture", log, "--at", "7", "--hexes", "0621", "-o", str(plain))[0] == 0
    assert _purple(ringed) > _purple(plain) + 100


def test_the_html_verdict_has_a_legend_and_pictures_at_their_own_size(tmp_path: Path) -> None:
    """Each picture of the HTML verdict has the legend of its marks, and says its size so it is shown at 100%."""
    import re
    page = tmp_path / "report.html"
    code, _, err = run("check", str(ROOT / "examples/onslaught/breach-result.log"), "--format", "html", "-o", str(page))
    assert code == 1, err
    text = page.read_text(encoding="utf-8")
    legend = re.search(r'<ul class="legend">(.*?)</ul>', text)
    assert legend is not None and "red arrows: the attackers" in legend.group(1) and "blue ring" in legend.group(1)
    size = re.search(r'<img [^>]*width="(\d+)" height="(\d+)"', text)
    assert size is not None and int(size.group(1)) >= 400
