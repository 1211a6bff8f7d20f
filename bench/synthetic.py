"""What the synthetic-game generators of bench/adjudicate.py share: a player that writes entries and
follows the position through the rule system's `apply`, the replay of a generated log as
`adjudicate check` does it, the self-check that makes the generators fuzzers, and the profile.

Each game's generator (the Onslaught one in bench/adjudicate.py, the Omaha one in
bench/synthetic_omaha.py) subclasses `SyntheticPlayer` with its sequence of play.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import sys
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

# Run as a script from a checkout: put the project root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.engine import Replay, RuleSystem, advance, replay, resolve  # noqa: E402
from adjudicator.notation.entries import Comment, Entry, Header  # noqa: E402
from adjudicator.notation.text import LogSyntaxErrors, parse_text  # noqa: E402
from adjudicator.systems import system_for  # noqa: E402
from wargame.game import Game  # noqa: E402
from wargame.hexes import Hex  # noqa: E402
from wargame.sequence import TurnOrder  # noqa: E402


def system_of(game: Game) -> RuleSystem[Any]:
    """The rule system a game's data names (the engine's registry)."""
    return system_for(game)


class SyntheticPlayer:
    """Plays one synthetic game: emits entries and follows the position through the rule system's `apply`."""

    def __init__(self, game: Game, seed: int, headers: list[tuple[str, str]]) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.grid = game.grid
        self.system = system_of(game)
        self.sides: tuple[str, ...] = tuple(game.manifest.sides)
        self.entries: list[Entry] = [*(Header(key=k, value=v) for k, v in headers),
                                     Comment(text=f"synthetic game, seed {seed}, by bench/adjudicate.py")]
        self.state: Any = self.system.initial_state(game, [e for e in self.entries if isinstance(e, Header)])
        self.order = TurnOrder(game.manifest)
        """The game's sequence of play, for the engine's turn keeping (`advance`)."""
        """Each hex's neighbours on the map, as asked (the map never changes)."""

    # -- bookkeeping ---------------------------------------------------------------------
    def emit(self, entry: Entry) -> None:
        """Write an entry and apply it to the position."""
        self.entries.append(entry)
        self.state = advance(self.system, self.state, entry, self.order)

    def side_of(self, unit_id: str) -> str:
        """The side a unit belongs to."""
        return self.game.units_by_id[unit_id].side

    def enemy(self, side: str) -> str:
        """The other side."""
        return self.sides[1 - self.sides.index(side)]

    def on_map(self, side: str) -> dict[Hex, list[str]]:
        """The units of a side on the map, by hex (sorted, so the game is reproducible)."""
        out: dict[Hex, list[str]] = {}
        for unit_id, where in sorted(self.state.location.items()):
            if self.grid.is_label(where) and self.side_of(unit_id) == side:
                out.setdefault(self.grid.hex_of(where), []).append(unit_id)
        return out

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The hexes next to `h` on the map (the grid remembers them)."""
        return self.grid.neighbours_on_map(h)

    def distances(self, sources: Iterable[Hex], limit: int = 60) -> dict[Hex, int]:
        """Hex steps from the nearest of `sources` over the map, terrain ignored (for the players' aims)."""
        seen = {h: 0 for h in sources}
        frontier = deque(seen)
        while frontier:
            h = frontier.popleft()
            if seen[h] >= limit:
                continue
            for n in self.neighbours(h):
                if n not in seen:
                    seen[n] = seen[h] + 1
                    frontier.append(n)
        return seen


def replay_text(text: str, game: Game, keep_states: bool = True) -> Replay[Any]:
    """Parse, resolve and replay a text log, as `adjudicate check` does once the game is loaded."""
    entries = parse_text(text, "<generated>")
    errors = resolve(game, entries, "<generated>")
    if errors:
        raise LogSyntaxErrors(errors, text.splitlines())
    return replay(game, system_of(game), entries, keep_states)


def check_clean(text: str, game: Game, shown: int = 10) -> Replay[Any]:
    """Replay a generated log; AssertionError with the first error findings if it is not clean."""
    result = replay_text(text, game)
    errors = [f for f in result.findings if f.severity == "error"]
    if errors or result.stopped is not None:
        source = text.splitlines()
        lines = [f"the generated log is not clean: {len(errors)} error(s)"
                 + (f"; the replay stopped: {result.stopped}" if result.stopped else "")]
        for f in errors[:shown]:
            lines.append(f"<generated>:{f.line}:{f.column}: error [{f.system} {f.rule}]: {f.message}")
            lines.append(f"    {source[f.line - 1]}")
        raise AssertionError("\n".join(lines))
    return result


def profile_replay(text: str, game: Game, top: int = 25) -> str:
    """cProfile of one replay: the functions with the most time of their own, and cumulative."""
    profiler = cProfile.Profile()
    profiler.enable()
    replay_text(text, game)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()
