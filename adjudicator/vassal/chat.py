"""What VASSAL writes to the chat, read: dice, players' lines, move reports, and text fit for a comment."""

from __future__ import annotations

import html
import re
import unicodedata

from wargame.vassal.tracking import ChatEvent, StepEvents

DICE = re.compile(r"^\*+\s*(?P<name>[^=]+?)\s*=\s*(?P<result>[0-9]+(?:\s*,\s*[0-9]+)*)\s*\*+\s*"
                  r"(?:<(?P<player>[^<>]*)>)?\s*$")
# A dice receipt of the ledger pasted into the chat, alone on its line, `Receipt` before it or not.
RECEIPT_LINE = re.compile(r"^(?:Receipt:?\s+)?(umpire1\.[A-Za-z0-9_-]+)$")
PLAYER_CHAT = re.compile(r"^<(?P<name>[^<>]*)> - (?P<text>.*)$", re.S)
MOVE_REPORT = re.compile(r"^\*\s*(?P<pieces>.+?) moves (?P<before>.+?) -> (?P<after>.+?)\s*\*$")
"""Our modules' moveToFormat, `$pieceName$ moves $previousLocation$ -> $location$ *`, as VASSAL reports it."""
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
MAX_NUMBER = 9999
"""The largest turn or die the notation writes (four digits)."""


def one_line(text: str, limit: int = 300) -> str:
    """Text fit for a comment: no line breaks or control characters, at most `limit` characters."""
    cleaned = "".join(" " if c in LINE_BREAKS or unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 3] + "..."


def chat_text(html_text: str) -> str:
    """A chat line as a person reads it: markup dropped, then entities decoded."""
    # VASSAL writes a player's name as &lt;Name&gt;, so it survives the dropping of markup.
    return html.unescape(re.sub(r"<[^<>]{0,200}>", "", html_text))


def describe(step: StepEvents) -> str:
    """What a person saw in VASSAL's chat for a step, or what it did if nothing was said."""
    texts = []
    for event in step.events:
        if isinstance(event, ChatEvent):
            text = one_line(chat_text(event.html))
            dice = DICE.match(text)
            said = PLAYER_CHAT.match(text)
            if dice is not None:
                texts.append(f"{dice.group('player') or 'someone'} rolls {dice.group('name')} = "
                             f"{dice.group('result')}")
            elif said is not None:
                texts.append(f"{said.group('name')}: {said.group('text')}")
            else:
                texts.append(text.strip("* ").strip())
    texts = [t for t in texts if t]
    if texts:
        return " / ".join(texts)
    kinds = sorted({type(e).__name__ for e in step.events})
    return "no visible effect" if not kinds else "changes " + ", ".join(
        {"PieceEvent": "counters", "PropertyEvent": "properties", "TurnEvent": "the turn tracker"}.get(k, k)
        for k in kinds)


def automatic_reports(step: StepEvents) -> list[str]:
    """The step's automatic reports (VASSAL's `* ... *` lines other than dice), as a comment shows them."""
    return [one_line(chat_text(e.html)).strip("* ").strip() for e in step.events
            if isinstance(e, ChatEvent) and chat_text(e.html).startswith("*") and not DICE.match(chat_text(e.html))]
