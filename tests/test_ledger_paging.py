"""The public ledger page of a long game (issue 27, item 4): paginated, cached per game until the next roll
(by any worker sharing the database), each player's list of rolls, and every text escaped."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    # Starlette's test client asks for a renamed httpx; the one installed is the one it drives.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import ledger.page_cache
from ledger.app import build_app
from ledger.pages import PAGE_SIZE
from ledger.store import RateLimit, Store, open_store
from ledger_support import ADMIN, db_url, fixed_key, postgres
from wargame.receipts import Receipt

__all__ = ["db_url", "postgres"]  # fixtures used by the tests below
PLAYERS = {"Allied": "allied-token-0123456789", "German": "german-token-0123456789"}


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url, fixed_key(), RateLimit(100_000, 60), faces=lambda count, sides: [1] * count)
    opened.open_game("g", PLAYERS)
    yield opened
    opened.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(build_app(store, ADMIN)) as test_client:
        yield test_client


def roll_many(store: Store, count: int, first: int = 1) -> None:
    """`count` rolls, Allied and German by turns, each with its own purpose."""
    for n in range(first, first + count):
        player = "Allied" if n % 2 else "German"
        store.roll("g", player, PLAYERS[player], f"roll {n}", "1d6")


def seqs(page: str) -> list[int]:
    """The roll numbers of a page's rows, in order."""
    return [int(n) for n in re.findall(r'<tr id="roll-(\d+)"', page)]


def link(page: str, ident: str) -> str | None:
    found = re.search(rf'<a id="{ident}" rel="\w+" href="([^"]+)"', page)
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_long_game_is_paginated(store: Store, client: TestClient) -> None:
    """PAGE_SIZE rolls a page at most, the latest page by default, previous and next links between pages; a page
    that does not exist is a 404 and a page number that is not one a 400, with a message, never a 500."""
    roll_many(store, 2 * PAGE_SIZE + 50)
    latest = client.get("/games/g")
    assert latest.status_code == 200
    assert seqs(latest.text) == list(range(2 * PAGE_SIZE + 1, 2 * PAGE_SIZE + 51))
    assert '<span id="count">250</span>' in latest.text and '<span id="pages">3</span>' in latest.text
    assert link(latest.text, "next") is None and link(latest.text, "previous") == "/games/g?page=2"
    first = client.get("/games/g?page=1").text
    assert seqs(first) == list(range(1, PAGE_SIZE + 1))
    assert link(first, "previous") is None and link(first, "next") == "/games/g?page=2"
    middle = client.get(link(first, "next") or "").text
    assert seqs(middle) == list(range(PAGE_SIZE + 1, 2 * PAGE_SIZE + 1))
    assert (link(middle, "previous"), link(middle, "next")) == ("/games/g?page=1", "/games/g?page=3")
    assert client.get("/games/g?page=3").text == latest.text
    for asked, status, said in (("4", 404, "has 3 page(s)"), ("0", 400, "numbered from 1"),
                                ("x", 400, "a page number"), ("99999999999", 400, "a page number")):
        answer = client.get(f"/games/g?page={asked}")
        assert answer.status_code == status and said in answer.text, asked


def test_a_roll_shows_on_the_next_view(store: Store, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page is built once per roll, and a roll's row once: viewed again without a roll, nothing is built; after
    a roll, the page shows it (on the game's page and in the player's list) and only its row is new."""
    roll_many(store, PAGE_SIZE + 5)
    built: list[int] = []
    row = ledger.page_cache.roll_row

    def counted(receipt: Receipt, reroll_of: int | None) -> str:
        built.append(receipt.seq)
        return row(receipt, reroll_of)

    before = client.get("/games/g").text
    monkeypatch.setattr(ledger.page_cache, "roll_row", counted)
    assert client.get("/games/g").text == before and client.get("/games/g?page=2").text == before and built == []
    answer = client.post("/games/g/rolls", json={"player": "German", "purpose": "the new roll", "dice": "2d6"},
                         headers={"Authorization": f"Bearer {PLAYERS['German']}"})
    assert answer.status_code == 201
    after = client.get("/games/g").text
    assert seqs(after)[-1] == PAGE_SIZE + 6 and "the new roll" in after and answer.json()["token"] in after
    assert '<span id="count">106</span>' in after and built == [PAGE_SIZE + 6]
    assert "the new roll" in client.get("/games/g/players/German").text


def test_a_roll_by_another_worker_shows_too(db_url: str) -> None:
    """Two servers on one database (`serve --workers 2`): a roll taken by one shows on the other's page."""
    stores = [open_store(db_url, fixed_key(), RateLimit(100_000, 60)) for _ in range(2)]
    try:
        stores[0].open_game("g", PLAYERS)
        with TestClient(build_app(stores[0], ADMIN)) as one, TestClient(build_app(stores[1], ADMIN)) as two:
            assert seqs(one.get("/games/g").text) == []
            assert two.post("/games/g/rolls", json={"player": "Allied", "purpose": "by worker two", "dice": "1d6"},
                            headers={"Authorization": f"Bearer {PLAYERS['Allied']}"}).status_code == 201
            page = one.get("/games/g").text
            assert seqs(page) == [1] and "by worker two" in page
    finally:
        for opened in stores:
            opened.close()


def test_each_players_list(store: Store, client: TestClient) -> None:
    """`/games/GAME/players/PLAYER`: that player's rolls only, paginated, linked from the game's page; an unknown
    player is a 404."""
    roll_many(store, 2 * PAGE_SIZE + 10)
    game = client.get("/games/g").text
    assert '<a href="/games/g/players/Allied">Allied</a>' in game
    latest = client.get("/games/g/players/Allied").text
    allied = list(range(1, 2 * PAGE_SIZE + 11, 2))
    assert seqs(latest) == allied[PAGE_SIZE:] and '<span id="listed">105</span>' in latest
    assert "Rolls of Allied in game g" in latest and '<span id="count">210</span>' in latest
    assert link(latest, "previous") == "/games/g/players/Allied?page=1"
    assert seqs(client.get("/games/g/players/Allied?page=1").text) == allied[:PAGE_SIZE]
    german = list(range(2, 2 * PAGE_SIZE + 11, 2))
    assert seqs(client.get("/games/g/players/German").text) == german[PAGE_SIZE:]
    assert seqs(client.get("/games/g/players/German?page=1").text) == german[:PAGE_SIZE]
    assert client.get("/games/g/players/German?page=3").status_code == 404
    assert client.get("/games/g/players/Soviet").status_code == 404
    assert client.get("/games/h/players/Allied").status_code == 404


def test_rerolls_are_marked_across_pages_and_lists(store: Store, client: TestClient) -> None:
    """A reroll just after a page's end is marked with the roll it repeats, on the next page and in the player's
    list, and counted in every page's header."""
    roll_many(store, PAGE_SIZE - 1)
    store.roll("g", "Allied", PLAYERS["Allied"], "attack on 0320", "1d6")
    store.roll("g", "Allied", PLAYERS["Allied"], "attack on 0320", "1d6")
    store.roll("g", "Allied", PLAYERS["Allied"], "attack on 0320", "1d6")
    page = client.get("/games/g").text
    assert seqs(page) == [PAGE_SIZE + 1, PAGE_SIZE + 2]
    assert f'<tr id="roll-{PAGE_SIZE + 2}" class="reroll">' in page and f"reroll of #{PAGE_SIZE}" in page
    assert '<span id="rerolls">2</span>' in page
    assert '<span id="rerolls">2</span>' in client.get("/games/g?page=1").text
    assert f"reroll of #{PAGE_SIZE}" in client.get("/games/g/players/Allied").text


def test_text_on_the_pages_is_escaped(store: Store, client: TestClient) -> None:
    """Markup in a purpose is shown, never run, on the game's page and in the player's list; a player or page
    asked for with markup in its name is refused with the markup escaped."""
    store.roll("g", "German", PLAYERS["German"], '<script>alert(1)</script> & "x" <b>', "1d6")
    for path in ("/games/g", "/games/g/players/German", "/games/g?page=1"):
        text = client.get(path).text
        assert "<script>alert" not in text and "<b>" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &lt;b&gt;" in text
    for path in ("/games/g/players/%3Cscript%3Ex", "/games/g?page=%3Cscript%3E"):
        answer = client.get(path)
        assert answer.status_code in (400, 404) and "<script>" not in answer.text and "&lt;script&gt;" in answer.text
