"""VASSAL's commands written out, and a log (.vlog) put together from a saved position and steps:
the writing side of `wargame.vassal.commands`.

Format facts: `../shared/reference/vassal-format.md` 2.1-2.3, checked against VASSAL 3.7.26's
`BasicCommandEncoder` (`+/`, `-/`, `D/`, `M/`), `Chatter` (`CHAT`), `TurnTracker` (`TURN`),
`BasicLogger` (each logged command `LOG\\t` + its text; the commands of one step grouped in one
top-level entry after the saved position) and the files VASSAL wrote in tests/data/vassal.
"""

from __future__ import annotations

from collections.abc import Sequence

from wargame.vassal.commands import ESC, LOG
from wargame.vassal.encoding import encode


def add_piece(piece_id: str, type_text: str, state_text: str) -> str:
    """`+/id/TYPE/STATE`: a piece (or a stack, TYPE `stack`) comes into play."""
    return "+/" + encode([piece_id, type_text, state_text], "/")


def add_stack(stack_id: str, map_name: str, x: int, y: int, piece_ids: Sequence[str]) -> str:
    """A Stack of pieces at a map position (`Stack.getState`: map, x, y, ids, `@@` layer)."""
    return add_piece(stack_id, "stack", encode([map_name, x, y, *piece_ids, "@@1"], ";"))


def remove_piece(piece_id: str) -> str:
    """`-/id`: a piece leaves play."""
    return "-/" + piece_id


def change_piece(piece_id: str, new_state: str, old_state: str) -> str:
    """`D/id/NEW/OLD`: a piece's whole state chain changes."""
    return "D/" + encode([piece_id, new_state, old_state], "/")


def move_piece(piece_id: str, map_name: str, x: int, y: int, under_id: str | None, old_map: str | None,
               old_x: int, old_y: int, old_under_id: str | None, player_id: str) -> str:
    """`M/...`: a piece moves to a map position, onto the piece `under_id` (its stack) or alone."""
    return "M/" + encode([piece_id, map_name, x, y, under_id or "null", old_map or "null", old_x, old_y,
                          old_under_id or "null", player_id], "/")


def chat(html_text: str) -> str:
    """`CHAT` + a line of the chat window (HTML: escape the text before)."""
    return "CHAT" + html_text


def set_turn(tracker_id: str, state: str) -> str:
    """`TURN<id>\\t<state>`: a turn tracker's whole state."""
    return f"TURN{tracker_id}\t{state}"


def logged_step(commands: Sequence[str]) -> str:
    """One step of a log (one press of "Step forward"): its commands, each `LOG\\t` + the command."""
    return encode([LOG + command for command in commands], ESC)


def log_text(restore: Sequence[str], steps: Sequence[Sequence[str]]) -> str:
    """A log's savedGame text: the saved position's top-level commands, then one entry per step."""
    return encode([*restore, *(logged_step(step) for step in steps if step)], ESC)
