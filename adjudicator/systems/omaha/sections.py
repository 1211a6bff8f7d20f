"""D-Day: Omaha Beach's exclusive rules (10.0-15.0; titles in our own words), cited as `omaha`;
the series' sections (3.0-9.0) stay the series' (`fire-and-movement`)."""

from __future__ import annotations

SECTIONS: dict[str, str] = {
    "10.1": "Scenario boundary",
    "10.2": "Scenario length and first player",
    "11.0": "Scenario set-up",
    "11.1": "German details",
    "11.2": "Allied details",
    "12.0": "Supply (Omaha)",
    "13.0": "Victory conditions",
    "14.0": "Campaign game",
    "14.1": "Weather",
    "14.2": "Length of the campaign game",
    "14.3": "Campaign victory conditions",
    "15.0": "Optional German AA/Flak",
}

CHECKED = ("10.1", "10.2", "11.0", "11.1", "11.2", "12.0", "13.0", "14.0", "14.1", "14.2", "14.3", "15.0")
"""Omaha's sections this version checks completely; docs/rules-coverage.md lists the others."""
