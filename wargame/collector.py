"""Python's cyclic garbage collector kept off what a command holds for its whole run: the modules it imports, the
game it loads, the replay it judges. Those live until the command ends, and each collection while it draws (and the
one as the process shuts down) walked all of them again for nothing (issue 30: 3% of a cold build's main process,
40M instructions of a verdict with pictures)."""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

_FREEZE_AT_EXIT = False
"""Whether the freeze before the shutdown collection is registered already (once a process)."""


@contextmanager
def collector_off() -> Iterator[None]:
    """No collection while what a command keeps for its run is made (imports, the game loaded): none of it is
    garbage; the collector as it was after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def out_of_sight() -> Iterator[None]:
    """Everything alive now left out of the collections made inside, and given back after, so a process that goes on
    (a test, a service calling the command) collects it as usual; and, once a process, a freeze registered before the
    collection Python runs as it shuts down (atexit's callbacks run before it; every output is closed by then)."""
    global _FREEZE_AT_EXIT
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if not _FREEZE_AT_EXIT:
            _FREEZE_AT_EXIT = True
            atexit.register(gc.freeze)


__all__ = ["collector_off", "out_of_sight"]
