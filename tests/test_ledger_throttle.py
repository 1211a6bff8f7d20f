"""Failed logins throttled (issue 27, item 4): per client address and per player, 429 with Retry-After, the
right token let in again once the window has passed, and bounded memory whatever an attacker varies."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from ledger.app import build_app
from ledger.store import RateLimit, Store, open_store
from ledger.throttle import Limit, LoginThrottle
from ledger_support import ADMIN, db_url, fixed_key, postgres

__all__ = ["db_url", "postgres"]  # fixtures used by the tests below
ALLIED, GERMAN = "allied-token-0123456789", "german-token-0123456789"


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url, fixed_key(), RateLimit(1000, 60))
    opened.open_game("g", {"Allied": ALLIED, "German": GERMAN})
    yield opened
    opened.close()


def roll(client: TestClient, token: str, player: str = "Allied") -> int:
    answer = client.post("/games/g/rolls", json={"player": player, "purpose": "p", "dice": "1d6"},
                         headers={"Authorization": f"Bearer {token}"})
    if answer.status_code == 429:
        assert int(answer.headers["retry-after"]) >= 1 and "too many failed logins" in answer.json()["error"]
    return answer.status_code


def test_failed_logins_from_one_address_are_throttled(store: Store) -> None:
    """Ten wrong tokens from one address: the eleventh try is 429, the right token too, until the minute passes."""
    clock = Clock()
    throttle = LoginThrottle(per_player=Limit(30, 60), per_address=Limit(10, 60), clock=clock)
    with TestClient(build_app(store, ADMIN, throttle=throttle)) as client:
        assert [roll(client, "wrong-token-0123456789-" + str(k)) for k in range(10)] == [401] * 10
        assert roll(client, "wrong-token-0123456789-x") == 429
        assert roll(client, ALLIED) == 429
        assert client.post("/games", json={"game": "h", "players": {"A": ALLIED}},
                           headers={"Authorization": f"Bearer {ADMIN}"}).status_code == 429
        clock.now += 61
        assert roll(client, ALLIED) == 201


def test_failed_logins_as_one_player_are_throttled_from_any_address(store: Store) -> None:
    """Guesses at one player's token spread over many addresses stop at the player's limit; the other player
    rolls on."""
    clock = Clock()
    throttle = LoginThrottle(per_player=Limit(5, 60), per_address=Limit(10, 60), clock=clock)
    for k in range(5):
        throttle.failed(f"10.0.0.{k}", "g", "German")
    with TestClient(build_app(store, ADMIN, throttle=throttle)) as client:
        assert roll(client, GERMAN, "German") == 429
        assert roll(client, ALLIED) == 201
        clock.now += 61
        assert roll(client, GERMAN, "German") == 201


def test_bad_admin_tokens_are_throttled(store: Store) -> None:
    """Guessing the admin token from one address stops after ten tries."""
    throttle = LoginThrottle(per_address=Limit(10, 60), clock=Clock())
    with TestClient(build_app(store, ADMIN, throttle=throttle)) as client:
        codes = [client.post("/games", json={"game": f"h{k}", "players": {"A": ALLIED}},
                             headers={"Authorization": f"Bearer guess-{k:020d}"}).status_code for k in range(11)]
    assert codes == [401] * 10 + [429]


def test_the_throttle_memory_is_bounded() -> None:
    """Twenty thousand distinct addresses and players keep at most max_keys entries of each, each window at most the
    limit's length."""
    throttle = LoginThrottle(per_player=Limit(3, 60), per_address=Limit(3, 60), max_keys=1000, clock=Clock())
    for k in range(20_000):
        throttle.failed(f"addr-{k}", "g", f"p{k % 5000}")
    throttle.failed("addr-19999", "g", "p1")
    assert len(throttle.addresses) == 1000 and len(throttle.players) == 1000
    assert max(len(w) for w in throttle.players.windows.values()) <= 3
