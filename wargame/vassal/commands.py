"""VASSAL's command strings read back: the ESC-separated command tree and its typed commands.

Format facts: `../shared/reference/vassal-format.md` 2.3, checked against VASSAL 3.7.26's
`GameModule.decode`/`encode` (the tree), `BasicCommandEncoder` (`+/`, `-/`, `D/`, `M/`),
`BasicLogger` (`LOG\\t`, `UNDO\\t`), `Chatter` (`CHAT`), `ChangePropertyCommandEncoder`
(`MutableProperty\\t`), `PlayerRoster` (`PLAYER\\t`, `PYREMOVE\\t`), `TurnTracker` (`TURN`),
`BoardPicker` and `GameState` (`begin_save`/`end_save`). Our own code: nothing is copied.

Every reader here is bounded (depth, count) and refuses malformed text with a `DataError`
placed in the file, never an exception of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from wargame.errors import DataError, Place
from wargame.records import frozen

ESC = "\x1b"
LOG = "LOG\t"
UNDO = "UNDO\t"


def iter_split(text: str, delimiter: str) -> Iterator[str]:
    """Tokens of a SequenceEncoder string exactly as `encoding.decode` reads them, one at a time, in linear time."""
    # A delimiter right after a backslash is escaped (VASSAL's quirk included: any token ending in a
    # backslash): the backslash goes, the delimiter stays in the token. Lazy, so a string of a million
    # delimiters is counted before a million tokens are made.
    if text.count(delimiter) > _MANY_DELIMITERS:
        yield from _iter_split_many(text, delimiter)
        return
    # Few delimiters: found by find() (memchr) and looked behind one by one; a token is cut from the
    # text once, however long its runs of backslashes (searching "\\" + ESC in them is slow).
    pieces: list[str] = []
    start = piece = 0  # start: the token's next slice; piece: the text since the last delimiter
    while (end := text.find(delimiter, piece)) >= 0:
        if end > piece and text[end - 1] == "\\":
            pieces.append(text[start:end - 1])
            start = end
        else:
            pieces.append(text[start:end])
            yield _unquoted("".join(pieces))
            pieces = []
            start = end + len(delimiter)
        piece = end + len(delimiter)
    pieces.append(text[start:])
    yield _unquoted("".join(pieces))


_MANY_DELIMITERS = 1_000_000
"""Past this many delimiters in one string, escaped ones are replaced in C rather than looked at one by one
(15 million escaped delimiters one by one took 29 s)."""


def _iter_split_many(text: str, delimiter: str) -> Iterator[str]:
    """`iter_split` of a string of many delimiters: the escaped ones set aside by one replace in C."""
    escaped = "\\" + delimiter
    aside = next((c for c in _ASIDE if c not in text and c != delimiter), None)
    if aside is None:
        yield from _iter_split_slowly(text, delimiter)
        return
    held = text.replace(escaped, aside)
    start = 0
    while (end := held.find(delimiter, start)) >= 0:
        yield _unquoted(held[start:end].replace(aside, delimiter))
        start = end + len(delimiter)
    yield _unquoted(held[start:].replace(aside, delimiter))


_ASIDE = ("\x00", "\ue000", "\ue001", "\uffff", "\U0010fffd")
"""Characters to hold an escaped delimiter while splitting: one of them is absent from any real text."""


def _iter_split_slowly(text: str, delimiter: str) -> Iterator[str]:
    """`iter_split` for a text that holds every character of _ASIDE (never a real one): a step per piece."""
    current: list[str] = []
    start = 0
    while True:
        end = text.find(delimiter, start)
        piece = text[start:] if end < 0 else text[start:end]
        if current and current[-1].endswith("\\"):
            current[-1] = current[-1][:-1]
            current.append(delimiter)
            current.append(piece)
        else:
            if current:
                yield _unquoted("".join(current))
            current = [piece]
        if end < 0:
            break
        start = end + len(delimiter)
    yield _unquoted("".join(current))


def _unquoted(token: str) -> str:
    return token[1:-1] if len(token) > 1 and token[0] == "'" and token[-1] == "'" else token


def split(text: str, delimiter: str) -> list[str]:
    """Tokens of a SequenceEncoder string exactly as `encoding.decode` reads them, in linear time."""
    return list(iter_split(text, delimiter))


# -- the tree --------------------------------------------------------------------------------
Node = str | list["Node"]
"""A leaf command string, or a compound command's parts in order."""


@frozen
class TreeLimits:
    """How deep and how big a command tree may be before the reader refuses it."""

    max_depth: int = 100
    max_commands: int = 2_000_000
    max_reads: int = 16
    """How many times over the text may be split while going down its nesting: real saves and logs
    read theirs about twice; 100 levels of a 30 MB text read it 100 times (9 to 70 s)."""
    max_steps: int = 100_000
    """Logged steps of one recording: about 50 times a whole campaign's (a turn is a few hundred). Each
    step becomes an entry replayed with its state kept, about 2 KB, so 100,000 are about 200 MB and 5 s;
    the 2,000,000 commands the tree allows were 4 GB (docs/limits.md)."""


def command_tree(text: str, file: str, limits: TreeLimits = TreeLimits()) -> list[Node]:
    """The top-level parts of a saved command string, decoded as `GameModule.decode` does."""
    # A string that splits into itself is a leaf command; anything else is split again. The work
    # is a stack of parts not yet split, each dropped once split, so the text is held about once
    # however deep it nests (a recursive reader kept a copy of it per level: 100 levels of a 30 MB
    # text). Every part pending ends in at least one leaf, so pending parts count as commands.
    top: list[Node] = []
    count = 0
    # (part, depth, the parent's place, its number there, the list it goes into); places are
    # spelt out only for an error, not kept per pending part.
    work: list[tuple[str, int, str, int, list[Node]]] = []

    def place(parent: str, number: int) -> Place:
        return Place(file, key=f"{parent}.{number}" if parent else f"command {number}")

    budget = limits.max_reads * len(text) + 2**20
    read = 0

    def tokens_of(part: str, parent: str, number: int) -> list[str]:
        nonlocal read
        read += len(part)
        if read > budget:
            raise DataError(f"commands nested so that their text would be read more than {limits.max_reads} times "
                            "over: refused as malformed", place(parent, number))
        tokens: list[str] = []
        for token in iter_split(part, ESC):
            tokens.append(token)
            if count + len(work) + len(tokens) > limits.max_commands:
                raise DataError(f"more than {limits.max_commands:,} commands: refused as too large",
                                place(parent, number))
        return tokens

    def push(tokens: list[str], depth: int, parent: str, into: list[Node]) -> None:
        # Last first, so that parts are taken, and appended to `into`, in order.
        for i in range(len(tokens), 0, -1):
            work.append((tokens[i - 1], depth, parent, i, into))

    push(tokens_of(text, "", 1), 1, "", top)
    while work:
        part, depth, parent, number, into = work.pop()
        if ESC not in part and _unquoted(part) is part:
            tokens = [part]  # the common leaf, without splitting
        else:
            tokens = tokens_of(part, parent, number)
        if len(tokens) == 1 and tokens[0] == part:
            count += 1
            into.append(part)
            continue
        where = place(parent, number).key or ""
        if depth >= limits.max_depth:
            raise DataError(f"commands nested more than {limits.max_depth} deep: refused as malformed",
                            Place(file, key=where))
        del part
        if len(tokens) == 1:
            # Only quotes or one escape level were removed: the same command, one level down.
            work.append((tokens[0], depth + 1, parent, number, into))
            continue
        children: list[Node] = []
        into.append(children)
        push(tokens, depth + 1, where, children)
    return top


def leaves(tree: Node) -> list[str]:
    """The leaf commands of a (sub)tree in order, depth first."""
    out: list[str] = []
    stack: list[Node] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(item))
    return out


# -- typed commands --------------------------------------------------------------------------
@frozen
class NullCommand:
    """A command with no effect (VASSAL writes `""` or, inside a log, `LOG\\tnull`)."""


@frozen
class SaveBoundary:
    """`begin_save` / `end_save` around a saved position (`GameState` SetupCommand)."""

    begin: bool


@frozen
class AddPiece:
    """`+/id/TYPE/STATE`: a piece (or a stack, TYPE `stack`) comes into play."""

    piece_id: str | None
    type_text: str
    state_text: str

    @property
    def is_stack(self) -> bool:
        """True for a Stack (a pile of pieces), not a piece."""
        return self.type_text == "stack"


@frozen
class RemovePiece:
    """`-/id`: a piece leaves play (deleted)."""

    piece_id: str


@frozen
class ChangePiece:
    """`D/id/NEW/OLD`: a piece's whole state chain changes (flip, properties, position)."""

    piece_id: str
    new_state: str
    old_state: str | None


@frozen
class MovePiece:
    """`M/...`: a piece or stack moves to a map position (`map_name` None: off every map)."""

    piece_id: str | None
    map_name: str | None
    x: int
    y: int
    under_id: str | None
    old_map_name: str | None
    old_x: int
    old_y: int
    old_under_id: str | None
    player_id: str | None


@frozen
class Chat:
    """`CHAT...`: a line in the chat window, as VASSAL's HTML text."""

    html: str


GLOBAL_PROPERTY = "GlobalProperty\t"
"""A module's GlobalProperty (`GlobalProperty.COMMAND_PREFIX`), e.g. our modules' declaration property."""


@frozen
class SetProperty:
    """`MutableProperty\\t...` or `GlobalProperty\\t;...`: a global property changes (dice buttons set several)."""

    name: str
    old: str
    new: str
    container: str


@frozen
class AddPlayer:
    """`PLAYER\\t...`: a player (password, name) takes a side."""

    password: str
    name: str
    side: str


@frozen
class RemovePlayer:
    """`PYREMOVE\\t...`: a player leaves a side."""

    password: str


@frozen
class SetTurn:
    """`TURN<id>\\t<state>`: a turn tracker's whole state."""

    tracker_id: str
    state: str


@frozen
class SetBoards:
    """`<map>BoardPicker\\t...`: the boards of a map."""

    map_name: str
    boards: str


@frozen
class UndoMarker:
    """`UNDO\\ttrue` ... `UNDO\\tfalse` around the inverse of an undone command (`BasicLogger.undo`)."""

    in_progress: bool


@frozen
class OtherCommand:
    """A command of an encoder this reader does not interpret (kept, never an error)."""

    text: str


Command = (NullCommand | SaveBoundary | AddPiece | RemovePiece | ChangePiece | MovePiece | Chat | SetProperty
           | AddPlayer | RemovePlayer | SetTurn | SetBoards | UndoMarker | OtherCommand)


def _unwrap_null(token: str) -> str | None:
    return None if token == "null" else token


def _int(token: str, what: str, place: Place) -> int:
    # Integer.parseInt: an optional sign and decimal digits only, within Java's int range.
    text = token[1:] if token[:1] in "+-" else token
    if not text.isascii() or not text.isdigit():
        raise DataError(f"{what} {token[:40]!r} is not a whole number", place)
    if len(text) > 10 or not -(2**31) <= int(token) < 2**31:
        raise DataError(f"{what} {token[:40]!r} is out of range: VASSAL writes a whole number from -2147483648 to "
                        "2147483647 (a Java int)", place)
    return int(token)


def _fields(text: str, count: int, what: str, place: Place) -> list[str]:
    tokens = split(text, "/")
    if len(tokens) < count:
        raise DataError(f"malformed {what} command: {count} fields expected, found {len(tokens)}", place)
    # VASSAL reads the fields it needs and ignores any more.
    return tokens[:count]


def parse_command(text: str, place: Place) -> Command:
    """The typed command of one leaf string (without its `LOG\\t` wrapper)."""
    if text in ("", "null"):
        return NullCommand()
    if text in ("begin_save", "end_save"):
        return SaveBoundary(text == "begin_save")
    if text.startswith("+/"):
        piece_id, type_text, state_text = _fields(text[2:], 3, "add-piece (+/)", place)
        if not type_text:
            raise DataError("malformed add-piece (+/) command: the piece type is empty", place)
        return AddPiece(_unwrap_null(piece_id), type_text, state_text)
    if text.startswith("-/"):
        if not text[2:]:
            raise DataError("malformed remove-piece (-/) command: no piece id", place)
        return RemovePiece(text[2:])
    if text.startswith("D/"):
        tokens = split(text[2:], "/")
        if len(tokens) < 2 or not tokens[0]:
            raise DataError("malformed change-piece (D/) command: a piece id and a new state are expected", place)
        return ChangePiece(tokens[0], tokens[1], tokens[2] if len(tokens) > 2 else None)
    if text.startswith("M/"):
        f = _fields(text[2:], 9, "move-piece (M/)", place)
        tokens = split(text[2:], "/")
        player = tokens[9] if len(tokens) > 9 else None
        return MovePiece(_unwrap_null(f[0]), _unwrap_null(f[1]), _int(f[2], "x", place), _int(f[3], "y", place),
                         _unwrap_null(f[4]), _unwrap_null(f[5]), _int(f[6], "old x", place),
                         _int(f[7], "old y", place), _unwrap_null(f[8]), player)
    if text.startswith("CHAT"):
        return Chat(text[4:])
    if text.startswith("MutableProperty\t"):
        tokens = split(text[len("MutableProperty\t"):], "\t")
        tokens += [""] * (4 - len(tokens))
        return SetProperty(tokens[0], tokens[1], tokens[2], tokens[3])
    if text.startswith(GLOBAL_PROPERTY):
        # GlobalProperty.encode: SequenceEncoder(prefix, ';') of the property's name, its new value
        # and its container (empty for the module's own); the command does not carry the old value.
        tokens = split(text[len(GLOBAL_PROPERTY):], ";")[1:]
        tokens += [""] * (3 - len(tokens))
        return SetProperty(tokens[0], "", tokens[1], tokens[2])
    if text.startswith("PLAYER\t"):
        tokens = split(text[len("PLAYER\t"):], "\t")
        tokens += [""] * (3 - len(tokens))
        return AddPlayer(tokens[0], tokens[1], tokens[2])
    if text.startswith("PYREMOVE\t"):
        return RemovePlayer(text[len("PYREMOVE\t"):])
    if text.startswith(UNDO):
        return UndoMarker(text[len(UNDO):] == "true")
    if text.startswith("TURN") and "\t" in text:
        tracker, _, state = text[4:].partition("\t")
        return SetTurn(tracker, state)
    head, tab, rest = text.partition("\t")
    if tab and head.endswith("BoardPicker"):
        return SetBoards(head[:-len("BoardPicker")], rest)
    return OtherCommand(text)


def parse_leaf(text: str, place: Place) -> tuple[bool, Command]:
    """(logged, command) of a leaf: `LOG\\t` marks one part of a logged step."""
    if text.startswith(LOG):
        inner = text[len(LOG):]
        if inner.startswith(LOG):
            raise DataError("malformed log entry: a LOG command inside a LOG command", place)
        return True, parse_command(inner, place)
    return False, parse_command(text, place)
