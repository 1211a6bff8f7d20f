"""The public ledger page in a real headless browser (Debian's chromium, driven by Selenium and chromium-driver)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from browser_support import headless_chromium
from ledger_support import LedgerProcess, write_test_key
from wargame.receipts import ledger_from_bytes

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = os.environ.get("UMPIRE_LEDGER_SCREENSHOT")  # where to keep the screenshot to look at, if set


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    """A headless chromium for the module's tests."""
    with headless_chromium() as chrome:
        yield chrome


@pytest.mark.slow
def test_the_ledger_page_in_chromium(browser: webdriver.Chrome, tmp_path: Path) -> None:
    """Every roll in order with purpose, result and receipt; markup in a purpose is shown, not run; the
    download link gives the ledger file."""
    server = LedgerProcess(f"sqlite:///{tmp_path / 'ledger.sqlite'}", write_test_key(tmp_path / "key.pem"))
    server.start()
    try:
        tokens = {"Allied": "alice-token-0123456789", "German": "bernd-token-0123456789"}
        server.open_game("club-42", tokens)
        purposes = [("Allied", "turn 1 roll-off", "1d6"), ("German", "turn 1 roll-off", "1d6"),
                    ("Allied", "turn 1 attack on 0320", "2d6"), ("German", "<b>bold</b> & <script>x=1</script>", "1d6")]
        receipts = []
        for player, purpose, dice in purposes:
            answer = httpx.post(f"{server.url}/games/club-42/rolls", json={"player": player, "purpose": purpose,
                                                                           "dice": dice},
                                headers={"Authorization": f"Bearer {tokens[player]}"}, timeout=10)
            assert answer.status_code == 201, answer.text
            receipts.append(answer.json())
        browser.get(f"{server.url}/games/club-42")
        assert browser.title == "Ledger of club-42"
        assert browser.find_element(By.TAG_NAME, "h1").text == "Ledger of game club-42"
        rows = browser.find_elements(By.CSS_SELECTOR, "#rolls tbody tr")
        assert [r.find_element(By.CLASS_NAME, "seq").text for r in rows] == ["1", "2", "3", "4"]
        assert [r.find_element(By.CLASS_NAME, "purpose").text for r in rows] == [p for _, p, _ in purposes]
        assert [r.find_element(By.CLASS_NAME, "player").text for r in rows] == [p for p, _, _ in purposes]
        assert [r.find_element(By.CLASS_NAME, "result").text for r in rows] == [
            " ".join(map(str, answer["receipt"]["result"])) for answer in receipts]
        assert browser.find_elements(By.CSS_SELECTOR, "#rolls b, #rolls script") == []
        assert browser.find_element(By.ID, "count").text == "4"
        # The receipt behind its summary: the same token the roll's answer gave.
        rows[2].find_element(By.TAG_NAME, "summary").click()
        assert rows[2].find_element(By.CLASS_NAME, "token").text == receipts[2]["token"]
        link = browser.find_element(By.ID, "download").get_attribute("href")
        assert link == f"{server.url}/games/club-42/ledger.json"
        ledger = ledger_from_bytes(httpx.get(link, timeout=10).content)
        assert [r.token() for r in ledger.receipts] == [a["token"] for a in receipts]
        shot = tmp_path / "ledger-page.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
        if SCREENSHOT:
            shutil.copyfile(shot, SCREENSHOT)
    finally:
        server.stop()


def _hidden_reroll_page(tmp_path: Path) -> Path:
    """The public page of the example ledger holding a hidden reroll, as the server renders it."""
    from ledger.pages import ledger_page
    ledger = ledger_from_bytes((ROOT / "examples/pbem/hidden-reroll/onslaught-sample.ledger.json").read_bytes())
    page = tmp_path / "ledger.html"
    page.write_text(ledger_page(ledger.game, ["Allied", "German"], ledger.receipts, ledger.public_key, "key-id"),
                    encoding="utf-8")
    return page


def test_a_reroll_is_marked_on_the_page(tmp_path: Path) -> None:
    """The same player rolling again at once for the same purpose is marked, with the roll it repeats; a turn's
    roll-offs (the same purpose, the other player's roll between) are not."""
    from ledger.pages import reroll_of
    ledger = ledger_from_bytes((ROOT / "examples/pbem/hidden-reroll/onslaught-sample.ledger.json").read_bytes())
    assert reroll_of(ledger.receipts) == {14: 13}
    clean = ledger_from_bytes((ROOT / "examples/pbem/onslaught-sample.ledger.json").read_bytes())
    assert reroll_of(clean.receipts) == {}
    html = _hidden_reroll_page(tmp_path).read_text(encoding="utf-8")
    assert '<tr id="roll-14" class="reroll">' in html and "reroll of #13" in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1200])
def test_the_ledger_page_fits_a_phone(tmp_path: Path, width: int) -> None:
    """At 390 px (a phone) and 1200 px: no sideways scrolling, no console error, the reroll marked in view."""
    page = _hidden_reroll_page(tmp_path)
    with headless_chromium(width, 844) as chrome:
        chrome.get(page.as_uri())
        assert chrome.execute_script("return document.documentElement.scrollWidth") <= \
            chrome.execute_script("return window.innerWidth")
        assert [m for m in chrome.get_log("browser") if m["level"] == "SEVERE"] == []
        row = chrome.find_element(By.ID, "roll-14")
        assert "reroll of #13" in row.text and row.is_displayed()
        shot = tmp_path / "ledger-page.png"
        assert chrome.save_screenshot(str(shot))
        if SCREENSHOT:
            shutil.copyfile(shot, SCREENSHOT.replace(".png", f"-{width}.png"))
