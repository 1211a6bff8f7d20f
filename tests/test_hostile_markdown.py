"""Markdown injection (issue 28): every word a log, a header or a file name gives is inert in
`--format markdown`. Each hostile verdict is rendered by a real CommonMark renderer (raw HTML on, every
link target allowed, as a careless forum would) and the HTML must hold no script, handler or
`javascript:` URL, and no element but those the verdict itself writes."""

from __future__ import annotations

import html
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from adjudicator.markdown_escape import code_block, code_span, link_target, text
from umpire.cli import main as adjudicate

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "onslaught" / "legal-combat.log"
BREACH = ROOT / "examples" / "onslaught" / "breach-zoc.log"

XSS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[click](javascript:alert(1))",
       "![x](javascript:alert(1))", "<javascript:alert(1)>", "`<b onclick=alert(1)>`", "&lt;script&gt;",
       "| </td><svg onload=alert(1)> |", "*[a](javascript:alert(1))*"]
ALLOWED_TAGS = {"h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "strong",
                "em", "ul", "li", "img", "br"}


def render(markdown: str) -> str:
    """The HTML a permissive Markdown renderer makes of `markdown`."""
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # a renderer that trusts every link
    return md.render(markdown)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def assert_inert(markdown: str, images: Path | None = None) -> None:
    """No element but ours, no handler, no link or image but our pictures."""
    parser = _Tags()
    parser.feed(render(markdown))
    for tag, attrs in parser.found:
        assert tag in ALLOWED_TAGS, (tag, attrs, markdown)
        for name, value in attrs:
            assert not name.startswith("on"), (tag, attrs)
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                assert tag == "img" and images is not None and (value or "").startswith(link_target(images.as_posix()))
                assert "javascript:" not in (value or "").lower(), (tag, attrs)


def _check(*args: str) -> str:
    result = CliRunner().invoke(adjudicate, ["check", *args, "--format", "markdown"])
    assert result.exit_code in (0, 1, 2), result.output
    return result.stdout


@pytest.mark.parametrize("word", XSS)
def test_escaped_text_renders_as_itself(word: str) -> None:
    """Each context's escape renders back to the very characters given, no markup."""
    for markdown in (f"a {text(word)} b", f"| h |\n|---|\n| {text(word)} |", f"x {code_span(word)} y",
                     f"| h |\n|---|\n| {code_span(word, in_table=True)} |", "\n".join(code_block([word, "```", word])),
                     f"- {text(word, line_start=True)}", f"#### {text(word)}", f"![{text(word)}](x.png)"):
        assert_inert(markdown, Path("x.png"))
    assert render(text("1. - # > =", line_start=True)).strip() == "<p>1. - # &gt; =</p>"
    assert render(f"- {text('- x', line_start=True)}").strip() == "<ul>\n<li>- x</li>\n</ul>"
    assert render(code_span("a``b`")).strip() == "<p><code>a``b`</code></p>"
    assert link_target("javascript:alert(1)/line-1.png") == "javascript%3Aalert%281%29/line-1.png"


@pytest.mark.parametrize("word", XSS)
def test_hostile_headers_and_words_in_a_verdict(word: str, tmp_path: Path) -> None:
    """Scenario, Game and Optional header values, a syntax error's quoted word and a breach's log words."""
    body = SAMPLE.read_text(encoding="utf-8")
    quoted = word.replace('"', "'")
    logs = {
        "scenario.log": body.replace('[Game "onslaught"]', f'[Game "onslaught"]\n[Scenario "{quoted}"]'),
        "game.log": body.replace('[Game "onslaught"]', f'[Game "{quoted}"]'),
        "optional.log": body.replace('[Game "onslaught"]', f'[Game "onslaught"]\n[Optional "{quoted}"]'),
        "syntax.log": body + f"Allied: {word}\n",
        "unit.log": body + f"Allied: move {word.split()[0]} 0620-0621\n",
    }
    for name, log_text in logs.items():
        path = tmp_path / name
        path.write_text(log_text, encoding="utf-8")
        assert_inert(_check(str(path)))


@pytest.mark.parametrize("name", ["a`b.log", "``x``.log", "<img src=x onerror=alert(1)>.log", "x | y.log",
                                  "[a](javascript:alert(1)).log"])
def test_hostile_file_names(name: str, tmp_path: Path) -> None:
    """A file name in a heading's code span, a chain's table and a combat audit: a back-tick does not end the span."""
    path = tmp_path / name
    shutil.copy(BREACH, path)
    verdict = _check(str(path))
    assert_inert(verdict)
    assert name in html.unescape(render(verdict))
    second = tmp_path / "second.log"
    second.write_text("Turn 2\n", encoding="utf-8")
    assert_inert(_check(str(path), str(second)))
    shutil.copy(SAMPLE, path)
    combat = CliRunner().invoke(adjudicate, ["combat", str(path), "--format", "markdown"])
    assert combat.exit_code in (0, 1), combat.output
    assert_inert(combat.stdout)


@pytest.mark.slow
def test_hostile_names_with_pictures(tmp_path: Path) -> None:
    """`--images`: the heading, the alt text and the link target of each picture are inert too."""
    path = tmp_path / "[a](javascript:alert(1))`<img onerror=alert(1)>.log"
    shutil.copy(BREACH, path)
    images = tmp_path / "javascript:alert(1)"
    verdict = _check(str(path), "--images", str(images))
    assert "![" in verdict
    assert_inert(verdict, images)
    assert list(images.glob("line-*.png"))


def test_a_dice_only_verdict_is_escaped(tmp_path: Path) -> None:
    """A later exchange checked alone against the ledger: a purpose's `*` and `|`, and the file's name, reach its
    Markdown inert (they were written as they came)."""
    from test_ledger_logs import make_ledger
    ledger, tokens = make_ledger(tmp_path, [("Allied", "attack *0319* | <b>0320</b>", "1d6", [4]),
                                            ("German", "[x](javascript:alert(1))", "1d6", [2])])
    (tmp_path / "game.ledger.json").write_bytes(ledger.file_bytes())
    log = tmp_path / "*02* | turn.log"
    log.write_text(f"Turn 2\nStep action\nAllied: attack 0319 with us-inf-01 die 5 receipt {tokens[0]}\n",
                   encoding="utf-8")
    verdict = _check(str(log), "--ledger", str(tmp_path / "game.ledger.json"))
    assert verdict.startswith(f"# Dice of `{log}`")
    assert_inert(verdict)
    shown = html.unescape(render(verdict))
    assert "'attack *0319* | <b>0320</b>'" in shown and "'[x](javascript:alert(1))'" in shown
