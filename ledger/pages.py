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
"""


def ledger_page(game: str, players: Sequence[str], receipts: Sequence[Receipt], public_key: str, key: str) -> str:
    """Every roll of the game in order, with purpose, result and receipt, and the download link."""
    rows = []
    for r in receipts:
        rows.append(
            f'<tr id="roll-{r.seq}"><td class="seq">{r.seq}</td><td class="time">{escape(r.time)}</td>'
            f'<td class="player">{escape(r.player)}</td><td class="purpose">{escape(r.purpose)}</td>'
            f'<td class="dice">{escape(r.dice)}</td>'
            f'<td class="result">{escape(" ".join(str(v) for v in r.result))}</td>'
            f'<td><details><summary>receipt {escape(r.digest()[:12])}</summary>'
            f'<code class="token">{escape(r.token())}</code></details></td></tr>')
    body = "\n".join(rows) if rows else '<tr><td colspan="7">No rolls yet.</td></tr>'
    name = escape(game)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ledger of {name}</title><style>{STYLE}</style></head>
<body>
<h1>Ledger of game {name}</h1>
<p>Players: {escape(", ".join(players))}. Rolls: <span id="count">{len(receipts)}</span>.
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
