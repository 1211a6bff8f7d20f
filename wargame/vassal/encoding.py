"""VASSAL's SequenceEncoder and the piece-definition strings built with it.

Format facts: `../shared/reference/vassal-format.md` 1.5 (checked against VASSAL 3.7.26's
`SequenceEncoder`, `BasicPiece`, `Decorator`, `Embellishment`, `Marker`, `ReportState`,
`Delete`, `UsePrototype`, `BasicCommandEncoder`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from wargame.records import frozen


def encode(tokens: Iterable[str | int | float | bool | None], delimiter: str) -> str:
    """Join tokens the way VASSAL's SequenceEncoder does (delimiter escaped with a backslash)."""
    # Joined once at the end: adding each token to the string so far copied it again for every token, and a
    # set-up's command joins thousands.
    out: list[str] = []
    for token in tokens:
        if isinstance(token, bool):
            text = "true" if token else "false"
        else:
            text = "" if token is None else str(token)
        escaped = text.replace(delimiter, "\\" + delimiter)
        # SequenceEncoder.append: a token ending in a backslash (which would escape the next
        # delimiter), or wrapped in quotes, is quoted to survive decoding.
        if text and (text[-1] == "\\" or (text[0] == "'" and text[-1] == "'")):
            escaped = "'" + escaped + "'"
        out.append(escaped)
    return delimiter.join(out)


def decode(text: str, delimiter: str) -> list[str]:
    """Split a string the way VASSAL's SequenceEncoder.Decoder does, quirks included."""
    tokens: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == delimiter:
            if current and current[-1] == "\\":
                # An escaped delimiter: drop the backslash, keep the delimiter.
                current[-1] = delimiter
            else:
                tokens.append("".join(current))
                current = []
        else:
            current.append(c)
        i += 1
    tokens.append("".join(current))
    return [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in tokens]


def keystroke(key_code: int, modifiers: int = 0) -> str:
    """A NamedKeyStroke as VASSAL writes it: 'keyCode,modifiers'."""
    return f"{key_code},{modifiers}"


CTRL = 130
CTRL_F = keystroke(70, CTRL)
CTRL_D = keystroke(68, CTRL)


@frozen
class Trait:
    """One decorator of a piece: its type string and its state string."""

    type: str
    state: str = ""


def basic_piece(name: str, image: str = "") -> Trait:
    """The innermost BasicPiece: name and image (state filled in by `piece_state`)."""
    return Trait("piece;" + encode(["", "", image, name], ";"), "")


def layer_two_sided(images: Sequence[str], level_names: Sequence[str], name: str = "Step") -> Trait:
    """An always-active Layer (emb2, version 1) that Ctrl+F cycles through its images."""
    fields: list[str | int | float | bool | None] = [
        "", 0, "", "Flip", 0, "", "", 0, "", "", "", 1, False, 0, 0,
        encode(images, ","), encode(level_names, ","), True, name, "", "", False, "", 1, 1, True, "",
        CTRL_F, "", "", 1.0, "", True,
    ]
    return Trait("emb2;" + encode(fields, ";"), "1")


def step_suffix(level: int) -> str:
    """What a unit's name says of its face, by its Step layer's level: nothing on the full face (level 1), then
    ` (reduced)`, then ` (N steps lost)` on each face below the reduced one (units of three or four steps)."""
    return "" if level <= 1 else " (reduced)" if level == 2 else f" ({level - 1} steps lost)"


def step_level_names(steps: int) -> list[str]:
    """The Step layer's level names of a unit of `steps` steps (Embellishment: a leading '+' makes a suffix)."""
    return ["", *(f"+{step_suffix(level)}" for level in range(2, steps + 1))]


def properties(values: dict[str, str]) -> Trait:
    """A Marker trait: fixed piece properties (for filters, the inventory and log readers)."""
    keys = sorted(values)
    return Trait("mark;" + encode(keys, ","), encode([values[k] for k in keys], ","))


def report(key: str, text: str, description: str = "") -> Trait:
    """A ReportState trait that writes `text` (a FormattedString) to the chat when `key` reaches the piece."""
    # ReportState.mySetType: keys (a ','-list of keystrokes), format, cycle keys, cycle formats,
    # description, noSuppress. VASSAL writes '* ' and the map's changeFormat ($message$) around it.
    return Trait("report;" + encode([encode([key], ","), text, "", "", description, False], ";"), "-1")


def report_flip(text: str) -> Trait:
    """A ReportState trait that writes a chat line when Ctrl+F flips the piece."""
    return report(CTRL_F, text)


def delete() -> Trait:
    """A Delete trait on Ctrl+D."""
    return Trait("delete;" + encode(["Delete", CTRL_D, ""], ";"), "")


def use_prototype(name: str) -> Trait:
    """A UsePrototype trait."""
    return Trait("prototype;" + name, "")


def chain(traits: Sequence[Trait], state_of_basic: str) -> tuple[str, str]:
    """TYPE and STATE strings of a decorator chain (outermost first, BasicPiece last)."""
    type_text = traits[-1].type
    state_text = state_of_basic
    for trait in reversed(traits[:-1]):
        type_text = encode([trait.type, type_text], "\t")
        state_text = encode([trait.state, state_text], "\t")
    return type_text, state_text


def basic_state(gpid: str, map_name: str = "null", x: int = 0, y: int = 0) -> str:
    """BasicPiece state: map, position and the slot's gpid, with no extra properties."""
    return encode([map_name, x, y, gpid, 0], ";")


def add_piece(traits: Sequence[Trait], gpid: str, piece_id: str = "null", map_name: str = "null",
              x: int = 0, y: int = 0) -> str:
    """An AddPiece command: '+/' id '/' TYPE '/' STATE."""
    type_text, state_text = chain(traits, basic_state(gpid, map_name, x, y))
    return "+/" + encode([piece_id, type_text, state_text], "/")
