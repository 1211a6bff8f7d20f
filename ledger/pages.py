"""The public ledger page of a game: plain server-rendered HTML, no script, no build step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from wargame.receipts import Receipt

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
td.time, td.dice { white-space: nowrap; }
th { background: #eee; } td.result { font-weight: bold; font-size: 1.1em; }
nav.pages { margin: 0.6em 0; } nav.pages a { margin-left: 0.5em; }
code { font-size: 0.8em; word-break: break-all; } details summary { cursor: pointer; color: #555; }
tr.reroll td { background: #fff3cd; } .reroll-of { display: block; font-weight: bold; color: #8a5a00; }
/* A phone (390 px): each roll a block of labelled lines, nothing wider than the screen. */
@media (max-width: 40em) {
  body { margin: 0.8em; }
  #rolls thead { display: none; }
  #rolls, #rolls tbody, #rolls tr, #rolls td { display: block; width: auto; }
  #rolls tr { border-bottom: 2px solid #999; padding: 0.3em 0; }
  #rolls td { border: none; padding: 0.1em 0.3em; white-space: normal; overflow-wrap: anywhere; }
  #rolls td[data-label]::before { content: attr(data-label) ": "; font-weight: normal; color: #555; }
}
"""


def reroll_of(receipts: Sequence[Receipt]) -> dict[int, int]:
    """Each roll that rerolls the one before it (its number -> the first of the run): the same player rolling
    again for the same purpose with no roll between. Purposes recur (a turn's roll-offs), but always with the
    other player's roll between; a roll made again at once is how a player tries for a better result."""
    out: dict[int, int] = {}
    for before, r in zip(receipts, receipts[1:]):
        if (r.player, r.purpose) == (before.player, before.purpose):
            out[r.seq] = out.get(before.seq, before.seq)
    return out


PAGE_SIZE = 100
"""Rolls on one page of a game's ledger or of a player's list: a long game's page stays small and fast."""


@dataclass(frozen=True)
class View:
    """One page of a game's rolls, or of one player's: which, and how many pages there are."""

    game: str
    player: str | None
    number: int
    """1-based; page N holds the (N-1)*PAGE_SIZE+1-th to the N*PAGE_SIZE-th roll listed."""
    pages: int
    listed: int
    """The rolls listed on all its pages (the game's, or the player's)."""

    def href(self, number: int) -> str:
        """The address of another page of the same list."""
        base = f"/games/{quote(self.game)}" + (f"/players/{quote(self.player)}" if self.player else "")
        return f"{base}?page={number}"


def page_count(listed: int) -> int:
    """Pages of a list of `listed` rolls (one, empty, when there are none)."""
    return max(1, -(-listed // PAGE_SIZE))


def roll_row(r: Receipt, reroll_of: int | None) -> str:
    """One roll as a table row; `reroll_of` the first roll of the run it repeats, if it does."""
    mark = (f'<span class="reroll-of">reroll of #{reroll_of} (the same player and purpose, right after '
            'it)</span>' if reroll_of is not None else "")
    kind = ' class="reroll"' if reroll_of is not None else ""
    player = f'<a href="/games/{quote(r.game)}/players/{quote(r.player)}">{escape(r.player)}</a>'
    return (f'<tr id="roll-{r.seq}"{kind}><td class="seq" data-label="#">{r.seq}</td>'
            f'<td class="time" data-label="Time (UTC)">{escape(r.time)}</td>'
            f'<td class="player" data-label="Player">{player}</td>'
            f'<td class="purpose" data-label="Purpose">{escape(r.purpose)}{mark}</td>'
            f'<td class="dice" data-label="Dice">{escape(r.dice)}</td>'
            f'<td class="result" data-label="Result">{escape(" ".join(str(v) for v in r.result))}</td>'
            f'<td><details><summary>receipt {escape(r.digest()[:12])}</summary>'
            f'<code class="token">{escape(r.token())}</code></details></td></tr>')


def _navigation(view: View) -> str:
    """Links to the first, previous, next and latest pages, where there are such pages."""
    if view.pages == 1:
        return ""
    links = [f'Page <span id="page">{view.number}</span> of <span id="pages">{view.pages}</span>:']
    for rel, number, label in (("first", 1, "first"), ("prev", view.number - 1, "previous"),
                               ("next", view.number + 1, "next"), ("last", view.pages, "latest")):
        if 1 <= number <= view.pages and number != view.number:
            ident = "previous" if rel == "prev" else rel
            links.append(f'<a id="{ident}" rel="{rel}" href="{escape(view.href(number))}">{label}</a>')
    return f'<nav class="pages">{" ".join(links)}</nav>'


def ledger_page(game: str, players: Sequence[str], receipts: Sequence[Receipt], public_key: str, key: str) -> str:
    """Every roll of the game in order on one page (a file to keep; the server pages its lists)."""
    rerolled = reroll_of(receipts)
    view = View(game, None, 1, 1, len(receipts))
    return paged_page(view, players, [roll_row(r, rerolled.get(r.seq)) for r in receipts], len(receipts),
                      len(rerolled), public_key, key)


def paged_page(view: View, players: Sequence[str], rows: Sequence[str], rolls: int, rerolls: int, public_key: str,
               key: str) -> str:
    """A page of a game's rolls (or of one player's): its rows, the game's counts, links to the other pages."""
    game = view.game
    name = escape(game)
    marked = f', of which <span id="rerolls">{rerolls}</span> reroll(s), marked' if rerolls else ""
    body = "\n".join(rows) if rows else '<tr><td colspan="7">No rolls yet.</td></tr>'
    nav = _navigation(view)
    if view.player is None:
        title, heading, whose = f"Ledger of {name}", f"Ledger of game {name}", ""
    else:
        who = escape(view.player)
        title, heading = f"Rolls of {who} in {name}", f"Rolls of {who} in game {name}"
        whose = (f'<p>{who}\'s rolls: <span id="listed">{view.listed}</span>. '
                 f'<a id="whole" href="/games/{escape(quote(game))}">The whole ledger of the game</a>.</p>')
    lists = ", ".join(f'<a href="/games/{escape(quote(game))}/players/{escape(quote(p))}">{escape(p)}</a>'
                      for p in players)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{STYLE}</style></head>
<body>
<h1>{heading}</h1>
<p>Players (each one's rolls): {lists}. Rolls: <span id="count">{rolls}</span>{marked}.
Every receipt is signed with the server's Ed25519 key <code>{escape(key)}</code>
(<a href="/public-key">public key</a>: <code id="public-key">{escape(public_key)}</code>)
and chained to the one before it.</p>
{whose}<p><a id="download" href="/games/{escape(quote(game))}/ledger.json" download>Download the whole ledger</a>
(check a log against it: <code>adjudicate check LOG --ledger {name}.ledger.json</code>).</p>
{nav}
<table id="rolls"><thead><tr><th>#</th><th>Time (UTC)</th><th>Player</th><th>Purpose</th><th>Dice</th>
<th>Result</th><th>Receipt</th></tr></thead>
<tbody>
{body}
</tbody></table>
{nav}
</body></html>
"""
