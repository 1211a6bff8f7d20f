"""The exit statuses of Umpire's command lines (httpie's `ExitStatus`): what a script may rely on."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """0 clean, 1 rule breaches (or a claim, seal or check that does not hold), 2 could not run, 3 internal error."""

    CLEAN = 0
    BREACHES = 1
    COULD_NOT_RUN = 2
    INTERNAL_ERROR = 3
