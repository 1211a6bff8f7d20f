"""Failed logins throttled per player and per client address, in bounded memory (per server process)."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from ledger.store import Refusal


@dataclass(frozen=True)
class Limit:
    """At most `failures` failed logins in any `seconds` seconds."""

    failures: int
    seconds: float


class FailureWindows:
    """The recent failures of each key, for the most recently failing `max_keys` keys only: an attacker who
    varies the key (addresses, player names) evicts the oldest entries and cannot grow the memory."""

    def __init__(self, limit: Limit, max_keys: int, clock: Callable[[], float]) -> None:
        self.limit, self.max_keys, self.clock = limit, max_keys, clock
        self.windows: OrderedDict[tuple[str, ...], deque[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.windows)

    def retry_after(self, key: tuple[str, ...]) -> int | None:
        """Seconds until the key may try again, or None if it may now."""
        window = self.windows.get(key)
        if window is None:
            return None
        now = self.clock()
        while window and window[0] <= now - self.limit.seconds:
            window.popleft()
        if not window:
            del self.windows[key]
            return None
        if len(window) < self.limit.failures:
            return None
        return max(1, int(window[0] + self.limit.seconds - now + 0.999))

    def failed(self, key: tuple[str, ...]) -> None:
        window = self.windows.pop(key, None) or deque(maxlen=self.limit.failures)
        window.append(self.clock())
        self.windows[key] = window  # most recent last
        while len(self.windows) > self.max_keys:
            self.windows.popitem(last=False)


class LoginThrottle:
    """Refuses (429, Retry-After) a player, or a client address, with too many recent failed logins (401s).

    Per player: a token guessed from many addresses; per address: many players tried from one. The player's
    limit is the looser, since anyone may fail logins in a player's name and lock them out for its window."""

    def __init__(self, per_player: Limit = Limit(30, 60), per_address: Limit = Limit(10, 60),
                 max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.players = FailureWindows(per_player, max_keys, clock)
        self.addresses = FailureWindows(per_address, max_keys, clock)

    def check(self, address: str, game: str | None = None, player: str | None = None) -> None:
        """Refusal 429 if the address, or the game's player, has failed too often lately."""
        wait = self.addresses.retry_after((address,))
        if wait is not None:
            raise Refusal(429, f"too many failed logins from {address}; wait", retry_after=wait)
        if game is not None and player is not None:
            wait = self.players.retry_after((game, player))
            if wait is not None:
                raise Refusal(429, f"too many failed logins as {player} of game {game}; wait", retry_after=wait)

    def failed(self, address: str, game: str | None = None, player: str | None = None) -> None:
        """A login failed: count it against the address and the player."""
        self.addresses.failed((address,))
        if game is not None and player is not None:
            self.players.failed((game, player))
