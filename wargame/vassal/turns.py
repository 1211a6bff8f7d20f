"""A VASSAL turn tracker's state read back: the value of each level it is at.

Format facts: VASSAL 3.7.26's `TurnTracker.getState` (`SE('|')[current level, each level's
state]`), `CounterTurnLevel.getState` (`SE(';')[value, current sub-level, loop, loop limit,
sub-levels...]`) and `ListTurnLevel.getState` (`SE(';')[index, current sub-level, first,
active flags, sub-levels...]`). Both level kinds keep four fields before their sub-levels.
"""

from __future__ import annotations

import re

from wargame.vassal.commands import split

_INT = re.compile(r"^-?[0-9]{1,9}$")
MAX_LEVELS = 16


def tracker_position(state: str) -> tuple[int, ...] | None:
    """The value (counter) or index (list) of each current level from the top; None if not a tracker state."""
    parts = split(state, "|")
    if not _INT.match(parts[0]):
        return None
    top = int(parts[0])
    if not 0 <= top < len(parts) - 1:
        return None
    values: list[int] = []
    level = parts[1 + top]
    while len(values) < MAX_LEVELS:
        fields = split(level, ";")
        if len(fields) < 2 or not _INT.match(fields[0]) or not _INT.match(fields[1]):
            return None
        values.append(int(fields[0]))
        subs = fields[4:]
        sub = int(fields[1])
        if not subs or not subs[0] and len(subs) == 1:
            return tuple(values)
        if not 0 <= sub < len(subs):
            return tuple(values)
        level = subs[sub]
    return tuple(values)
