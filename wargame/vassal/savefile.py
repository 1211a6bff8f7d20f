"""VASSAL saved games (.vsav) and the command tree they hold (vassal-format.md 2.1-2.3)."""

from __future__ import annotations

import hashlib

from wargame.records import frozen
from wargame.vassal.archive import zip_bytes
from wargame.vassal.encoding import encode

ESC = "\x1b"


def markup_escaped(text: str, quote: bool = True) -> str:
    """html.escape's text (&, <, > and, with `quote`, both quotes as character references), without importing html
    and its table of 2,231 entities (9 million instructions of every build, which escapes a few names)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&#x27;") if quote else text


@frozen
class PlacedPiece:
    """A piece in a saved position: its id, type and state chains, and where it lies."""

    piece_id: str
    type_text: str
    state_text: str
    map_name: str
    x: int
    y: int


def command_tree(pieces: list[PlacedPiece], board_pickers: list[tuple[str, str]],
                 turn_tracker_state: str | None = None, tracker_id: str = "") -> str:
    """The restore command of a save: begin_save, pieces and stacks, boards, end_save."""
    return encode(restore_commands(pieces, board_pickers, turn_tracker_state, tracker_id), ESC)


def restore_commands(pieces: list[PlacedPiece], board_pickers: list[tuple[str, str]],
                     turn_tracker_state: str | None = None, tracker_id: str = "") -> list[str]:
    """The top-level commands of a save's restore command, a log's steps going after them."""
    adds = [""]
    stacks: dict[tuple[str, int, int], list[str]] = {}
    for piece in pieces:
        adds.append("+/" + encode([piece.piece_id, piece.type_text, piece.state_text], "/"))
        stacks.setdefault((piece.map_name, piece.x, piece.y), []).append(piece.piece_id)
    for index, ((map_name, x, y), ids) in enumerate(sorted(stacks.items())):
        stack_state = encode([map_name, x, y, *ids, "@@1"], ";")
        adds.append("+/" + encode([f"s{index}", "stack", stack_state], "/"))
    commands = ["begin_save", "", encode(adds, ESC)]
    for map_name, board in board_pickers:
        commands.append(f"{map_name}BoardPicker\t{board}\t0\t0")
    # Without this, VASSAL would place the at-start stacks again on top of the saved ones.
    commands.append("SETUP_STACK\t")
    if turn_tracker_state is not None:
        commands.append(f"TURN{tracker_id}\t{turn_tracker_state}")
    commands.append("end_save")
    return commands


def obfuscate(text: str) -> bytes:
    """VASSAL 3.7's '!VCSK' form with a key derived from the content (deterministic)."""
    data = text.encode("utf-8")
    key = hashlib.sha256(data).digest()[0]
    # Each byte xored with the key by one C call (a Python loop over a set-up's 100 KB took 0.03 s of a build).
    xored = data.translate(bytes(b ^ key for b in range(256)))
    return b"!VCSK" + f"{key:02x}".encode() + xored.hex().encode()


def deobfuscate(data: bytes) -> bytes:
    """Plain bytes of a savedGame entry in any of VASSAL's encodings."""
    if data.startswith(b"!VCSK"):
        key = int(data[5:7], 16)
        hexes = data[7:]
        return bytes(int(hexes[i:i + 2], 16) ^ key for i in range(0, len(hexes) - 1, 2))
    if data.startswith(b"VOBS") and len(data) > 4:
        key = data[4]
        return bytes(b ^ key for b in data[5:])
    return data


def save_archive(tree: str, module_name: str, module_version: str, moduledata: bytes, date_ms: int,
                 description: str | None = None) -> bytes:
    """A .vsav (or .vlog) zip: savedGame, savedata, moduledata; `description`: the save's comment."""
    text = markup_escaped(f"{module_name} set-up" if description is None else description, quote=False)
    savedata = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">'
        f"<version>{markup_escaped(module_version, quote=False)}</version><extra1/><extra2/>"
        f"<VassalVersion>3.7.0</VassalVersion><dateSaved>{date_ms}</dateSaved><description>{text}</description>"
        "</data>\n"
    ).encode("utf-8")
    return zip_bytes({"savedGame": obfuscate(tree), "savedata": savedata, "moduledata": moduledata})
