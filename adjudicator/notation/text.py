"""The text notation of move logs: one entry per line, terse like chess notation.

Grammar and examples: docs/log-format.md. Parsing is syntax only; `resolve` then checks every
unit id, hex label and side against the game (with "did you mean"). Both collect every error of
a file before giving up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from adjudicator.notation.entries import (
    MAX_RECEIPT_LENGTH, Action, Activate, ActivationOrder, Advance, Attack, Bombard, Capture, Comment, Declare, Entry,
    Header, Income, Loss, LossHow, MarkersHow, Move, Pass, Place, PlaceHow, Retreat, RollOff, StandFast, StepMarker,
    Strength, SupportMarkers, TurnMarker, entry_data,
)
from adjudicator.notation.syntax_errors import (  # re-exported: the parser's errors and quoting
    ELIDED_RECEIPT as ELIDED_RECEIPT, MAX_LOG_BYTES as MAX_LOG_BYTES, RECEIPT_IN_LINE as RECEIPT_IN_LINE,
    LogSyntaxErrors as LogSyntaxErrors, caret_message as caret_message, elide_receipts as elide_receipts,
    quoted_source as quoted_source,
)
from adjudicator.notation.typography import plain_code
from wargame.errors import LogSyntaxError, Place as ErrorPlace, did_you_mean

HEADER = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:#.*)?$')
SIDE = re.compile(r"^([A-Z][A-Za-z]*)([:>])$")
INT = re.compile(r"^[0-9]{1,4}$")
RESULT = re.compile(r"^(?:[A-Za-z0-9]{1,6}|\([A-Za-z0-9]{1,4}\)|-)$")
RATIO = re.compile(r"^[0-9]{1,3}:[0-9]{1,3}$")
DIFF = re.compile(r"^[+-]?[0-9]{1,3}$")
WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+/-]*$")
RECEIPT = re.compile(r"^umpire1\.[A-Za-z0-9_-]+$")
MARKER = "a support fire marker id (as markers.toml names it)"
OPTIONS: dict[str, tuple[str, ...]] = {
    "attack": ("odds|diff", "die", "reroll", "result", "defender", "support", "receipt"),
    "bombard": ("diff", "die", "reroll", "result", "defender", "support", "receipt"),
    "activate": ("supply", "move-first|attack-first"),
    "action": ("supply",),
    "income": ("decline",),
    "capture": ("points",),
    "declare": ("points",),
    **{how: ("points", "supply") for how in ("reinforce", "paradrop", "pickup", "setup", "delay", "replace")},
}
"""The options of each command, in the order the notation writes them (a hint for one out of order)."""
COMMANDS = ("action", "pass", "activate", "attack", "bombard", "retreat", "advance", "deplete", "eliminate", "remove",
            "stand", "reinforce", "paradrop", "pickup", "setup", "delay", "replace", "income", "capture", "declare",
            "move", "draw", "aside", "lose")


class Token:
    """A word of a line and the 1-based column where it starts."""

    # A plain class, not a frozen record: a log makes one for each of its words (about 2,000 for the sample game),
    # and the record's general __init__ was a third of parsing it. Only the parser holds one.
    __slots__ = ("text", "column")

    def __init__(self, text: str, column: int) -> None:
        self.text = text
        self.column = column


_WORDS = re.compile(r"\S+")


def tokens_of(line: str) -> list[Token]:
    """Whitespace-separated words with their columns (a '#' starts a comment)."""
    out = []
    for m in _WORDS.finditer(line):
        text = m.group()
        if text[0] == "#":  # a word is never empty
            break
        out.append(Token(text, m.start() + 1))
    return out


class _Line:
    """A cursor over one line's tokens that raises placed syntax errors."""

    def __init__(self, tokens: list[Token], line_no: int, file: str, end_column: int) -> None:
        self.tokens, self.i, self.line_no, self.file, self.end = tokens, 0, line_no, file, end_column

    def error(self, message: str, token: Token | None = None) -> LogSyntaxError:
        column = token.column if token else (self.tokens[self.i].column if self.i < len(self.tokens) else self.end)
        return LogSyntaxError(message, ErrorPlace(self.file, self.line_no, column))

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, what: str, pattern: re.Pattern[str] | None = None) -> Token:
        token = self.peek()
        if token is None:
            raise self.error(f"expected {what} at the end of the line")
        if pattern is not None and not pattern.match(token.text):
            raise self.error(f"expected {what}, found {token.text!r}", token)
        self.i += 1
        return token

    def keyword(self, *words: str) -> str | None:
        token = self.peek()
        if token is not None and token.text in words:
            self.i += 1
            return token.text
        return None

    def words_until(self, stops: Sequence[str], what: str = "a unit id") -> list[Token]:
        out = []
        while (token := self.peek()) is not None and token.text not in stops:
            if not WORD.match(token.text) and DIFF.match(token.text) and what != "a unit id":
                raise self.error(f"expected {what}, found {token.text!r}: the log names the markers; their "
                                 "strength comes from the marker's data, not from the log", token)
            out.append(self.take(what, WORD))
        return out

    def int_after(self, word: str) -> int | None:
        if self.keyword(word):
            return int(self.take(f"a number after {word!r}", INT).text)
        return None

    def receipts(self) -> list[str]:
        """`receipt TOKEN`, repeated, at the end of an entry with dice: the ledger's receipts of its dice."""
        out = []
        while self.keyword("receipt"):
            out.append(self.take("a dice receipt (umpire1. and its text, as the ledger gave it)", RECEIPT).text)
        for index, receipt in enumerate(out):
            if len(receipt) > MAX_RECEIPT_LENGTH:
                # Worded and placed as the entries' validation said it when it refused the entry.
                raise LogSyntaxError(f"receipts.{index}: String should have at most {MAX_RECEIPT_LENGTH} characters",
                                     ErrorPlace(self.file, self.line_no, 1))
        return out

    def done(self, options: Sequence[str] = ()) -> None:
        """The entry ends here; a leftover option of the command is one written out of order."""
        token = self.peek()
        if token is not None:
            if token.text in {word for option in options for word in option.split("|")}:
                raise self.error(f"unexpected {token.text!r}: options come in the order "
                                 f"{', '.join(repr(o.replace('|', ' or ')) for o in options)}", token)
            raise self.error(f"unexpected {token.text!r} at the end of the entry", token)


def _markers(cursor: _Line, command: str) -> list[str]:
    """The markers after `support`, up to the next of the command's option words: one written after them (`defender`
    after the markers) is an option out of order, which the entry's end says with the order to write them in."""
    stops = tuple(word for option in OPTIONS[command] for word in option.split("|") if word != "support")
    return [t.text for t in cursor.words_until(stops, MARKER)]


def _path(token: Token, cursor: _Line) -> list[str]:
    parts = token.text.split("-")
    if any(not p for p in parts):
        raise cursor.error(f"{token.text!r} is not a path of hexes (HEX-HEX-...)", token)
    return parts


def _strategic(cursor: _Line) -> bool:
    """A move's `strategic` before its path; a misspelling of it, followed by the path, is placed at the misspelt
    word (not at the path, which would look like one word too many)."""
    if cursor.keyword("strategic"):
        return True
    token = cursor.peek()
    if token is not None and cursor.i + 1 < len(cursor.tokens) and "-" not in token.text:
        meant = did_you_mean(token.text, ("strategic",))
        if meant:
            raise cursor.error(f"unknown word {token.text!r} before the path{meant}", token)
    return False


def _hexes(token: Token, cursor: _Line) -> list[str]:
    """The hexes an attack is made on: one, or several joined by '+' (an attack on several hexes at once)."""
    parts = token.text.split("+")
    if any(not p for p in parts):
        raise cursor.error(f"{token.text!r} is not a hex or hexes joined by '+' (HEX+HEX)", token)
    return parts


def _sided(cursor: _Line, side: str, by_opponent: bool, base: dict[str, Any]) -> Entry:
    base = {**base, "side": side, "by_opponent": by_opponent}
    word = cursor.take("a command (" + ", ".join(COMMANDS) + ")")
    command = word.text
    if command not in COMMANDS:
        raise cursor.error(f"unknown command {command!r}{did_you_mean(command, COMMANDS)}", word)
    entry: Entry
    if command == "action":
        action = cursor.take("an action type", WORD).text
        entry = Action(**base, action=action, supply=cursor.int_after("supply"))
    elif command == "pass":
        entry = Pass(**base)
    elif command == "activate":
        hex_label = cursor.take("a hex", WORD).text
        units = [t.text for t in cursor.words_until(("supply", "move-first", "attack-first"))]
        supply = cursor.int_after("supply")
        order = cast("ActivationOrder | None", cursor.keyword("move-first", "attack-first"))
        entry = Activate(**base, hex=hex_label, units=units, supply=supply, order=order)
    elif command == "attack":
        hexes = _hexes(cursor.take("the defending hex", WORD), cursor)
        if not cursor.keyword("with"):
            raise cursor.error("expected 'with' and the attacking units")
        attackers = [t.text for t in cursor.words_until(("odds", "diff", "die", "reroll", "result", "defender",
                                                         "support", "receipt"))]
        if not attackers:
            raise cursor.error("expected the attacking units after 'with'")
        odds = None
        if cursor.keyword("odds"):
            odds = cursor.take("odds like 3:1", RATIO).text
        elif cursor.keyword("diff"):
            odds = cursor.take("a differential like +3", DIFF).text
        die = cursor.int_after("die")
        reroll = cursor.int_after("reroll")
        result = cursor.take("a result code (as on the table, e.g. DR, (A), -)", RESULT).text \
            if cursor.keyword("result") else None
        defender = cursor.take("the defending unit's id", WORD).text if cursor.keyword("defender") else None
        support = _markers(cursor, command) if cursor.keyword("support") else []
        entry = Attack(**base, hex=hexes[0], more_hexes=hexes[1:], attackers=attackers, odds=odds, die=die,
                       reroll=reroll, result=result, defender=defender, support=support, receipts=cursor.receipts())
    elif command == "bombard":
        hex_label = cursor.take("the bombarded hex", WORD).text
        odds = cursor.take("a differential like +3", DIFF).text if cursor.keyword("diff") else None
        die = cursor.int_after("die")
        reroll = cursor.int_after("reroll")
        result = cursor.take("a result code (as on the table, e.g. D2, (A), -)", RESULT).text \
            if cursor.keyword("result") else None
        defender = cursor.take("the bombarded unit's id", WORD).text if cursor.keyword("defender") else None
        if not cursor.keyword("support"):
            raise cursor.error("expected 'support' and the support fire markers of the bombardment")
        support = _markers(cursor, command)
        if not support:
            raise cursor.error("expected the support fire markers after 'support'")
        entry = Bombard(**base, hex=hex_label, odds=odds, die=die, reroll=reroll, result=result, defender=defender,
                        support=support, receipts=cursor.receipts())
    elif command in ("retreat", "advance", "move"):
        unit = cursor.take("a unit id", WORD).text
        strategic = command == "move" and _strategic(cursor)
        path = _path(cursor.take("a path of hexes (HEX-HEX-...)", WORD), cursor)
        cls = {"retreat": Retreat, "advance": Advance}.get(command)
        entry = cls(**base, unit=unit, path=path) if cls else Move(**base, unit=unit, path=path, strategic=strategic)
    elif command in ("deplete", "eliminate", "remove"):
        entry = Loss(**base, loss=cast(LossHow, command), unit=cursor.take("a unit id", WORD).text)
    elif command == "stand":
        units = [t.text for t in cursor.words_until(())]
        if not units:
            raise cursor.error("expected the units that stand fast")
        entry = StandFast(**base, units=units)
    elif command in ("reinforce", "paradrop", "pickup", "setup", "delay", "replace"):
        unit = cursor.take("a unit id", WORD).text
        strength = cast("Strength | None", cursor.keyword("full", "reduced")) if command == "replace" else None
        token = cursor.peek()
        hex_label = None
        if token is not None and token.text not in ("supply", "points"):
            hex_label = cursor.take("a hex or box", WORD).text
        entry = Place(**base, how=cast(PlaceHow, command), unit=unit, hex=hex_label, strength=strength,
                      points=cursor.int_after("points"), supply=cursor.int_after("supply"))
    elif command in ("draw", "aside", "lose"):
        markers = [t.text for t in cursor.words_until((), MARKER)]
        if not markers:
            raise cursor.error(f"expected the support fire markers after {command!r}")
        entry = SupportMarkers(**base, how=cast(MarkersHow, command), markers=markers)
    elif command == "income":
        points = int(cursor.take("a number", INT).text) if (t := cursor.peek()) and INT.match(t.text) else None
        declining = cursor.keyword("decline")
        declined = [t.text for t in cursor.words_until(("reduce",), "a supply source declined")] if declining else []
        reduced: dict[str, int] = {}
        if cursor.keyword("reduce"):
            # 8.7: a reduced collection announced per source, as `reduce SOURCE N [SOURCE N...]`.
            while cursor.peek() is not None or not reduced:
                source = cursor.take("a supply source", WORD).text
                reduced[source] = int(cursor.take(f"the points collected from {source}", INT).text)
        entry = Income(**base, points=points, declined=declined, reduced=reduced)
    elif command == "capture":
        hex_label = cursor.take("a hex", WORD).text
        entry = Capture(**base, hex=hex_label, points=cursor.int_after("points"))
    else:
        what = cursor.take("what is declared", WORD).text
        level = None
        claimed: dict[str, int] = {}
        if what == "victory":
            # A claim of victory: its level, then each side's victory points (`points Allied 14 German 9`).
            if (token := cursor.peek()) is not None and token.text != "points":
                level = cursor.take("a level of victory", WORD).text
            if cursor.keyword("points"):
                while cursor.peek() is not None or not claimed:
                    side = cursor.take("a side, e.g. points Allied 14 German 9", WORD).text
                    claimed[side] = int(cursor.take(f"{side}'s victory points", INT).text)
        entry = Declare(**base, what=what, level=level, points=claimed)
    cursor.done(OPTIONS.get(command, ()))
    return entry


class QuotedLine(LogSyntaxError):
    """A line an email reply quotes (it starts with '>'); a run of them is one error."""

    lines: int = 1
    """How many lines in a row the error stands for."""


def quoted_message(first: int, last: int) -> str:
    """What a run of quoted lines is told."""
    lines = f"line {first} is" if first == last else f"lines {first}-{last} are"
    return (f"{lines} quoted from an email (starting with '>'): paste the log without the reply's quoting, or "
            "remove the '>' where a line is this exchange's own")


def parse_line(line: str, line_no: int, file: str = "<log>") -> Entry | None:
    """The entry on one line (None for a blank line); LogSyntaxError if malformed."""
    line = plain_code(line)  # an email program's curly quotes and dashes read as the notation's own
    stripped = line.strip()
    if not stripped:
        return None
    column = len(line) - len(line.lstrip()) + 1
    base: dict[str, Any] = {"line": line_no, "column": column}
    if stripped.startswith("#"):
        return Comment(**base, text=stripped[1:].strip())
    if stripped.startswith(">"):
        # An email reply quotes the message it answers so: what an earlier exchange said is not this one's entry.
        raise QuotedLine(quoted_message(line_no, line_no), ErrorPlace(file, line_no, column))
    if stripped.startswith("["):
        m = HEADER.match(stripped)
        if not m:
            raise LogSyntaxError('expected a header like [Game "onslaught"]', ErrorPlace(file, line_no, column))
        return Header(**base, key=m.group(1), value=re.sub(r'\\([\\"])', r"\1", m.group(2)))
    tokens = tokens_of(line)
    # "At the end of the line" points just after the last word, not after a trailing comment.
    cursor = _Line(tokens, line_no, file, tokens[-1].column + len(tokens[-1].text) if tokens else column)
    first = tokens[0]
    if first.text == "Turn":
        cursor.take("Turn")
        entry: Entry = TurnMarker(**base, turn=int(cursor.take("a turn number", INT).text))
    elif first.text in ("Step", "Phase"):
        cursor.take(first.text)
        entry = StepMarker(**base, step=cursor.take("a step or phase id", WORD).text)
    elif first.text == "Roll":
        cursor.take("Roll")
        rolls: dict[str, int] = {}
        while (token := cursor.peek()) is not None and token.text != "receipt":
            side_token = cursor.take("a side", re.compile(r"^[A-Z][A-Za-z]*$"))
            if side_token.text in rolls:
                raise cursor.error(f"{side_token.text} rolls once in a roll-off", side_token)
            rolls[side_token.text] = int(cursor.take(f"{side_token.text}'s die roll", INT).text)
        if not rolls:
            raise cursor.error("expected each side's die roll, e.g. Roll Allied 5 German 4")
        entry = RollOff(**base, rolls=rolls, receipts=cursor.receipts())
    elif (m := SIDE.match(first.text)) is not None:
        cursor.take("a side")
        entry = _sided(cursor, m.group(1), m.group(2) == ">", base)
    elif re.match(r"^[a-z][A-Za-z]*[:>]$", first.text):
        raise cursor.error(f"a side is written with a capital: {first.text[0].upper() + first.text[1:]!r}", first)
    elif re.match(r"^[A-Z][A-Za-z]*$", first.text) and len(tokens) > 1 and tokens[1].text[:1] in (":", ">") \
            and (tokens[1].text[1:] in COMMANDS or (len(tokens) > 2 and len(tokens[1].text) == 1)):
        mark, command = tokens[1].text[0], tokens[1].text[1:] or tokens[2].text
        raise cursor.error(f"the {mark!r} goes right after the side: write '{first.text}{mark} {command} ...'",
                           tokens[1])
    elif (m := re.match(r"^([A-Z][A-Za-z]*[:>])([a-z]+)$", first.text)) is not None and m.group(2) in COMMANDS:
        raise cursor.error(f"a space after the side: write '{m.group(1)} {m.group(2)} ...'",
                           Token(m.group(2), first.column + len(m.group(1))))
    elif re.match(r"^[A-Z][A-Za-z]*$", first.text) and len(tokens) > 1 and tokens[1].text in COMMANDS:
        raise cursor.error(f"expected ':' (or '>') after the side: write '{first.text}: {tokens[1].text} ...'",
                           Token(first.text, first.column + len(first.text)))
    else:
        # The short form of a move: UNIT [strategic] PATH (the side is the unit's).
        unit = cursor.take("a unit id, a side followed by ':' or '>', or Turn/Step/Phase/Roll", WORD)
        strategic = _strategic(cursor)
        path_token = cursor.take("a path of hexes (HEX-HEX-...) after the unit", WORD)
        entry = Move(**base, unit=unit.text, path=_path(path_token, cursor), strategic=strategic)
    cursor.done()
    return entry


def parse_text(text: str, file: str = "<log>") -> list[Entry]:
    """Every entry of a text log; LogSyntaxErrors listing every malformed line."""
    entries, errors = parse_text_partly(text, file)
    if errors:
        raise LogSyntaxErrors(errors, text.splitlines())
    return entries


def parse_text_partly(text: str, file: str = "<log>") -> tuple[list[Entry], list[LogSyntaxError]]:
    """Every well-formed entry of a text log and every malformed line's error (the replay stops at the first)."""
    entries: list[Entry] = []
    errors: list[LogSyntaxError] = []
    for line_no, line in enumerate(text.splitlines(), 1):
        try:
            entry = parse_line(line, line_no, file)
        except QuotedLine as e:
            # A quoted reply quotes every line: the run is one error, at its first line.
            last = errors[-1] if errors else None
            if isinstance(last, QuotedLine) and last.place is not None and last.place.line is not None \
                    and last.place.line + last.lines == line_no:
                last.lines += 1
                last.message = quoted_message(last.place.line, line_no)
            else:
                errors.append(e)
            continue
        except LogSyntaxError as e:
            errors.append(e)
            continue
        if entry is not None:
            entries.append(entry)
    return entries, errors


def _path_text(path: Sequence[str]) -> str:
    return "-".join(path)


def write_entry(entry: Entry) -> str:
    """The text form of an entry (the inverse of parse_line, up to spacing and comments)."""
    prefix = f"{entry.side}{'>' if entry.by_opponent else ':'} " if entry.side else ""

    def opt(word: str, value: object) -> str:
        return f" {word} {value}" if value is not None else ""

    def receipts(e: Entry) -> str:
        return "".join(f" receipt {token}" for token in getattr(e, "receipts", []))

    writers: dict[type[Entry], Callable[[Any], str]] = {
        Header: lambda e: '[' + e.key + ' "' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"]',
        Comment: lambda e: f"# {e.text}",
        TurnMarker: lambda e: f"Turn {e.turn}",
        StepMarker: lambda e: f"Step {e.step}",
        RollOff: lambda e: "Roll " + " ".join(f"{s} {r}" for s, r in e.rolls.items()) + receipts(e),
        Action: lambda e: f"{prefix}action {e.action}{opt('supply', e.supply)}",
        Pass: lambda e: f"{prefix}pass",
        Activate: lambda e: f"{prefix}activate {' '.join([e.hex, *e.units])}{opt('supply', e.supply)}"
                            + (f" {e.order}" if e.order else ""),
        Attack: lambda e: (f"{prefix}attack {'+'.join(e.defending_hexes())} with {' '.join(e.attackers)}"
                           + (f" {'odds' if e.odds and ':' in e.odds else 'diff'} {e.odds}" if e.odds else "")
                           + opt("die", e.die) + opt("reroll", e.reroll) + opt("result", e.result)
                           + opt("defender", e.defender) + (" support " + " ".join(e.support) if e.support else "")
                           + receipts(e)),
        Bombard: lambda e: (f"{prefix}bombard {e.hex}" + (f" diff {e.odds}" if e.odds else "") + opt("die", e.die)
                            + opt("reroll", e.reroll) + opt("result", e.result) + opt("defender", e.defender)
                            + " support " + " ".join(e.support) + receipts(e)),
        Move: lambda e: (f"{prefix}move " if prefix else "") + f"{e.unit}{' strategic' if e.strategic else ''} "
                        f"{_path_text(e.path)}",
        Retreat: lambda e: f"{prefix}retreat {e.unit} {_path_text(e.path)}",
        Advance: lambda e: f"{prefix}advance {e.unit} {_path_text(e.path)}",
        Loss: lambda e: f"{prefix}{e.loss} {e.unit}",
        StandFast: lambda e: f"{prefix}stand {' '.join(e.units)}",
        Place: lambda e: (f"{prefix}{e.how} {e.unit}" + (f" {e.strength}" if e.strength else "")
                          + (f" {e.hex}" if e.hex else "") + opt("points", e.points) + opt("supply", e.supply)),
        SupportMarkers: lambda e: f"{prefix}{e.how} {' '.join(e.markers)}",
        Income: lambda e: f"{prefix}income" + (f" {e.points}" if e.points is not None else "")
                          + (" decline " + " ".join(e.declined) if e.declined else "")
                          + (" reduce " + " ".join(f"{k} {v}" for k, v in e.reduced.items()) if e.reduced else ""),
        Capture: lambda e: f"{prefix}capture {e.hex}{opt('points', e.points)}",
        Declare: lambda e: (f"{prefix}declare {e.what}" + (f" {e.level}" if e.level else "")
                            + (" points " + " ".join(f"{k} {v}" for k, v in e.points.items()) if e.points else "")),
    }
    return writers[type(entry)](entry)


def write_text(entries: Sequence[Entry]) -> str:
    """A whole log in the text notation."""
    return "".join(write_entry(e) + "\n" for e in entries)


def _same_entry(a: Entry, b: Entry) -> bool:
    """Equal but for where they stand in their files."""
    return type(a) is type(b) and _placeless(entry_data(a)) == _placeless(entry_data(b))


def _placeless(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key not in ("line", "column")}


def write_text_faithfully(entries: Sequence[Entry], file: str = "<log>") -> str:
    """The text notation of entries (from the JSON form, say) that reads back as the same entries;
    LogSyntaxErrors naming every entry the notation cannot write as it is (a line break in a value,
    a word with a space, a number too long), rather than a text that says something else."""
    errors: list[LogSyntaxError] = []
    lines: list[str] = []
    for index, entry in enumerate(entries):
        where = ErrorPlace(file, entry.line or None, None, f"entries[{index}]")
        line = write_entry(entry)
        if len(line.splitlines()) > 1 or line != line.strip("\r\n"):
            errors.append(LogSyntaxError(f"a {getattr(entry, 'kind', 'entry')} entry whose text holds a "
                                         "line break cannot be written as one line of the text notation", where))
            continue
        try:
            again = parse_line(line, index + 1, file)
        except LogSyntaxError as e:
            errors.append(LogSyntaxError(f"written as {line[:80]!r}, which the text notation cannot read: {e.message}",
                                         where))
            continue
        if again is None or not _same_entry(entry, again):
            errors.append(LogSyntaxError(f"written as {line[:80]!r}, which the text notation reads as another entry",
                                         where))
            continue
        lines.append(line + "\n")
    if errors:
        raise LogSyntaxErrors(errors)
    return "".join(lines)


def iter_units_and_hexes(entry: Entry) -> Iterator[tuple[str, str]]:
    """('unit' | 'hex', value) of every id an entry names, for resolution against the game (each kind lists its own)."""
    return iter(entry.named_ids())
