"""The public ledger page of a game: plain server-rendered HTML, no script, no build step."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from wargame.receipts import Receipt

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
td.time, td.dice { white-space: nowrap; }
th { background: #eee; } td.result { font-weight: bold; font-size: 1.1em; }
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


def ledger_page(game: str, players: Sequence[str], receipts: Sequence[Receipt], public_key: str, key: str) -> str:
    """Every roll of the game in order, with purpose, result and receipt, and the download link."""
    rows = []
    rerolled = reroll_of(receipts)
    for r in receipts:
        reroll = r.seq in rerolled
        mark = (f'<span class="reroll-of">reroll of #{rerolled[r.seq]} (the same player and purpose, right after '
                'it)</span>' if reroll else "")
        kind = ' class="reroll"' if reroll else ""
        rows.append(
            f'<tr id="roll-{r.seq}"{kind}><td class="seq" data-label="#">{r.seq}</td>'
            f'<td class="time" data-label="Time (UTC)">{escape(r.time)}</td>'
            f'<td class="player" data-label="Player">{escape(r.player)}</td>'
            f'<td class="purpose" data-label="Purpose">{escape(r.purpose)}{mark}</td>'
            f'<td class="dice" data-label="Dice">{escape(r.dice)}</td>'
            f'<td class="result" data-label="Result">{escape(" ".join(str(v) for v in r.result))}</td>'
            f'<td><details><summary>receipt {escape(r.digest()[:12])}</summary>'
            f'<code class="token">{escape(r.token())}</code></details></td></tr>')
    rerolls = f', of which <span id="rerolls">{len(rerolled)}</span> reroll(s), marked' if rerolled else ""
    body = "\n".join(rows) if rows else '<tr><td colspan="7">No rolls yet.</td></tr>'
    name = escape(game)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ledger of {name}</title><style>{STYLE}</style></head>
<body>
<h1>Ledger of game {name}</h1>
<p>Players: {escape(", ".join(players))}. Rolls: <span id="count">{len(receipts)}</span>{rerolls}.
Every receipt is signed with the server's Ed25519 key <code>{escape(key)}</code>
(<a href="/public-key">public key</a>: <code id="public-key">{escape(public_key)}</code>)
and chained to the one before it.</p>
<p><a id="download" href="/games/{name}/ledger.json" download>Download the whole ledger</a>
(check a log against it: <code>adjudicate check LOG --ledger {name}.ledger.json</code>).</p>
<table id="rolls"><thead><tr><th>#</th><th>Time (UTC)</th><th>Player</th><th>Purpose</th><th>Dice</th>
<th>Result</th><th>Receipt</th></tr></thead>
<tbody>
{body}
</tbody></table>
</body></html>
"""
