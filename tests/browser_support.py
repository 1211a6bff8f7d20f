"""Debian's chromium, headless, for the tests of pages (the ledger page, the HTML verdict)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium_paths() -> tuple[str, str]:
    """Debian's chromium and its driver, installed with apt-get when missing (CI runs as root)."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")) and os.geteuid() == 0:
        # dpkg needs ldconfig and start-stop-daemon on PATH, which a root shell started with a bare PATH lacks.
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive",
               "PATH": os.environ.get("PATH", os.defpath) + ":/usr/local/sbin:/usr/sbin:/sbin"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium", "chromium-driver"], check=True, env=env,
                       capture_output=True)
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser is None or driver is None:
        raise RuntimeError("Debian's chromium and chromium-driver are not installed and cannot be (apt-get as root)")
    return browser, driver


@contextmanager
def headless_chromium(width: int = 1280, height: int = 900) -> Iterator[webdriver.Chrome]:
    """A headless chromium with a fresh profile, fetching nothing but what the test asks for; its console
    messages kept (`get_log("browser")`)."""
    binary, driver = chromium_paths()
    profile = tempfile.mkdtemp(prefix="umpire-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield chrome
    finally:
        chrome.quit()
        shutil.rmtree(profile, ignore_errors=True)
