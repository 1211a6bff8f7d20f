"""The public pages of the ledger's games, paginated and cached per game until the game's next roll.

Each request reads the game's last roll number (one indexed row): a roll by any worker sharing the
database changes it, and the game's cached pages are then dropped. What the reroll marks need (each
roll's player and purpose) is caught up from the rolls since the last view, so a page costs its own
rows, never the whole game, and a roll's row, which never changes, is built once. Called from the server's
thread pool, never on the event loop.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_right
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ledger.pages import PAGE_SIZE, View, page_count, paged_page, roll_row
from ledger.store import Cursor, Store
from wargame.receipts import Receipt, receipt_from_fields

MAX_GAMES = 1024
"""Games whose reroll marks are kept (least recently viewed out; a game dropped is caught up again)."""
MAX_PAGES = 256
"""Rendered pages kept, all games together (a page of 100 rolls is about 80 KB)."""
MAX_ROWS = 20_000
"""Rendered rows kept, all games together (about 0.9 KB each), oldest made first out."""


class NoPage(Exception):
    """A page that does not exist: the HTTP status and what to say."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class _Game:
    """What a game's pages need beyond their own rows, as of roll number `head`."""

    head: int
    players: tuple[str, ...]
    last: tuple[int, str, str] | None = None
    """The number, player and purpose of the game's last roll."""
    rerolled: dict[int, int] = field(default_factory=dict)
    """Each roll that repeats the one before it -> the first roll of its run (ledger.pages.reroll_of)."""
    by_player: dict[str, array[int]] = field(default_factory=dict)
    """Each player's roll numbers in order (8 bytes a roll): a page of a player's list is read by its numbers."""


class PageCache:
    """The pages of a store's games: the game's rolls or one player's, PAGE_SIZE to a page."""

    def __init__(self, store: Store, public_key: str, key: str) -> None:
        self.store, self.public_key, self.key = store, public_key, key
        self.lock = threading.Lock()
        self.games: OrderedDict[str, _Game] = OrderedDict()
        self.pages: OrderedDict[tuple[str, str | None, int, int], str] = OrderedDict()
        self.rows: OrderedDict[tuple[str, int], str] = OrderedDict()

    def page(self, game: str, player: str | None, number: int | None) -> str:
        """Page `number` (default: the latest) of the game's rolls, or of `player`'s; NoPage if there is none."""
        if number is not None and number < 1:
            raise NoPage(400, f"page {number}: pages are numbered from 1")
        # One read transaction for all a view reads: on PostgreSQL each transaction is a pooled connection's
        # check and BEGIN/COMMIT round trips, each a wait for the database's process on a loaded host.
        with self.store.transaction(write=False) as cursor:
            head = self._head(cursor, game)
            if head is None:
                raise NoPage(404, f"No game {game!r} here.")
            # Another request may have caught up further than this transaction sees: its extra rolls are left out.
            state = self._caught_up(cursor, game, head)
            if player is not None and player not in state.players:
                raise NoPage(404, f"No player {player!r} in game {game!r}.")
            # The latest page, asked for without a number, is kept as page 0 as well.
            if (cached := self._cached((game, player, number or 0, head))) is not None:
                return cached
            if player is None:
                view = self._view(game, None, number, head)
                first = (view.number - 1) * PAGE_SIZE + 1
                seqs: Sequence[int] = range(first, min(head, first + PAGE_SIZE - 1) + 1)
            else:
                numbers = state.by_player.get(player, array("q"))
                numbers = numbers[:bisect_right(numbers, head)]
                view = self._view(game, player, number, len(numbers))
                seqs = numbers[(view.number - 1) * PAGE_SIZE:view.number * PAGE_SIZE]
            rows = self._rows(cursor, game, player, seqs, state)
        rerolls = sum(1 for seq in state.rerolled if seq <= head)
        html = paged_page(view, state.players, rows, head, rerolls, self.public_key, self.key)
        with self.lock:
            self.pages[(game, player, view.number, head)] = html
            if number is None:
                self.pages[(game, player, 0, head)] = html
            while len(self.pages) > MAX_PAGES:
                self.pages.popitem(last=False)
        return html

    def _rows(self, cursor: Cursor, game: str, player: str | None, seqs: Sequence[int], state: _Game) -> list[str]:
        """The rows of rolls `seqs` (in order, only `player`'s if given): a roll's row never changes once made, so
        only the rows not kept are read and built (after a roll, the latest page's new rows alone)."""
        with self.lock:
            rows = {seq: self.rows.get((game, seq)) for seq in seqs}
        missing = [seq for seq, row in rows.items() if row is None]
        if missing:
            made = {r.seq: roll_row(r, state.rerolled.get(r.seq))
                    for r in self._receipts(cursor, game, missing[0], missing[-1], player) if r.seq in rows}
            rows.update(made)
            with self.lock:
                self.rows.update(((game, seq), row) for seq, row in made.items())
                while len(self.rows) > MAX_ROWS:
                    self.rows.popitem(last=False)
        return [row for row in rows.values() if row is not None]

    def _view(self, game: str, player: str | None, number: int | None, listed: int) -> View:
        pages = page_count(listed)
        if number is not None and not 1 <= number <= pages:
            whose = f"{player}'s rolls in game {game!r}" if player else f"game {game!r}"
            raise NoPage(404, f"No page {number}: {whose} has {pages} page(s) of {PAGE_SIZE} rolls.")
        return View(game, player, number or pages, pages, listed)

    def _cached(self, key: tuple[str, str | None, int, int]) -> str | None:
        with self.lock:
            html = self.pages.get(key)
            if html is not None:
                self.pages.move_to_end(key)
            return html

    def _caught_up(self, cursor: Cursor, game: str, head: int) -> _Game:
        """The game's state as of roll `head`: the rolls since the last view added, its stale pages dropped."""
        with self.lock:
            state = self.games.get(game)
            if state is not None and state.head >= head:
                self.games.move_to_end(game)
                return state
        # Outside the lock: a cold game reads every roll's purpose once (0.2-0.3 s for 10,000 rolls here, loaded).
        if state is None:
            names = cursor.execute(self.store.sql("SELECT name FROM players WHERE game = ? ORDER BY name"), (game,))
            state = _Game(0, tuple(str(r[0]) for r in names.fetchall()))
        runs = self._rolls_after(cursor, game, state.head, head)
        last, rerolled = state.last, dict(state.rerolled)
        # Copied, not extended in place: a request rendering from the older state keeps a consistent list.
        by_player = {name: array("q", numbers) for name, numbers in state.by_player.items()}
        for seq, player, purpose in runs:
            if last is not None and (player, purpose) == last[1:]:
                rerolled[seq] = rerolled.get(last[0], last[0])
            last = (seq, player, purpose)
            by_player.setdefault(player, array("q")).append(seq)
        fresh = _Game(head, state.players, last, rerolled, by_player)
        with self.lock:
            current = self.games.get(game)
            if current is None or current.head < head:
                self.games[game] = current = fresh
            self.games.move_to_end(game)
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
            for key in [k for k in self.pages if k[0] == game and k[3] < current.head]:
                del self.pages[key]
            return current

    def _head(self, cursor: Cursor, game: str) -> int | None:
        """The game's last roll number (0 before its first roll); None if there is no such game."""
        row = cursor.execute(self.store.sql("SELECT last_seq FROM games WHERE id = ?"), (game,)).fetchone()
        return None if row is None else int(row[0])

    def _rolls_after(self, cursor: Cursor, game: str, after: int, upto: int) -> list[tuple[int, str, str]]:
        """(number, player, purpose) of the game's rolls numbered after `after` up to `upto`, in order."""
        rows = cursor.execute(self.store.sql("SELECT seq, player, body FROM receipts WHERE game = ? AND seq > ? "
                                             "AND seq <= ? ORDER BY seq"), (game, after, upto)).fetchall()
        return [(int(r[0]), str(r[1]), str(json.loads(str(r[2]))["purpose"])) for r in rows]

    def _receipts(self, cursor: Cursor, game: str, first: int, last: int, player: str | None) -> list[Receipt]:
        """The game's receipts numbered `first` to `last` (only `player`'s, if given), in order."""
        mine = " AND player = ?" if player is not None else ""
        rows = cursor.execute(self.store.sql(f"SELECT body FROM receipts WHERE game = ? AND seq >= ? AND seq <= ?"
                                             f"{mine} ORDER BY seq"),
                              (game, first, last, *([player] if player is not None else []))).fetchall()
        return [receipt_from_fields(json.loads(str(r[0]))) for r in rows]
