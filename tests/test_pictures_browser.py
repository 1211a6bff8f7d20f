"""The HTML verdict in a real headless browser (Debian's chromium): it loads with no console error,
every picture loads, and it reads on a phone-sized window."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from selenium.webdriver.common.by import By

from browser_support import headless_chromium
from umpire.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT = os.environ.get("UMPIRE_REPORT_SCREENSHOT")  # where to keep the screenshot to look at, if set


@pytest.mark.slow
def test_html_verdict_in_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two findings' sections with their pictures, all loaded, no console error, no sideways scrolling
    on a 390-pixel-wide window (a phone)."""
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    report = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["check", str(ROOT / "examples" / "omaha" / "breach-leg-ezoc.log"),
                                       "--format", "html", "-o", str(report)])
    assert result.exit_code == 1, result.output
    with headless_chromium(390, 844) as browser:
        browser.get(report.as_uri())
        assert browser.title.startswith("Umpire verdict: breach-leg-ezoc.log")
        sections = browser.find_elements(By.CSS_SELECTOR, "section")
        assert [s.get_attribute("id") for s in sections] == ["line-45"]
        assert "[fire-and-movement 6.1]" in sections[0].text
        images = browser.find_elements(By.TAG_NAME, "img")
        assert images and all(browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth",
                                                     image) > 100 for image in images)
        errors = [m for m in browser.get_log("browser") if m["level"] == "SEVERE"]
        assert errors == []
        page_width = browser.execute_script("return document.documentElement.scrollWidth")
        window_width = browser.execute_script("return window.innerWidth")
        assert page_width <= window_width
        shot = tmp_path / "report.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
        if SCREENSHOT:
            shutil.copyfile(shot, SCREENSHOT)


@pytest.mark.slow
def test_html_verdict_pictures_at_100_percent_on_a_wide_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 1200 px each picture is shown at its own size (its hex numbers readable, builder.picture.reading_scale),
    with its legend; no sideways scrolling, no console error."""
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    report = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["check", str(ROOT / "examples" / "onslaught" / "breach-result.log"),
                                       "--format", "html", "-o", str(report)])
    assert result.exit_code == 1, result.output
    with headless_chromium(1200, 900) as browser:
        browser.get(report.as_uri())
        images = browser.find_elements(By.TAG_NAME, "img")
        assert images
        for image in images:
            shown, natural = browser.execute_script(
                "return [arguments[0].clientWidth, arguments[0].naturalWidth]", image)
            assert shown == natural and natural >= 400
        assert "red arrows" in browser.find_element(By.CSS_SELECTOR, ".legend").text
        assert [m for m in browser.get_log("browser") if m["level"] == "SEVERE"] == []
        assert browser.execute_script("return document.documentElement.scrollWidth") <= \
            browser.execute_script("return window.innerWidth")
