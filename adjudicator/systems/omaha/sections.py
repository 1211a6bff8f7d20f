"""D-Day: Omaha Beach's exclusive rules (10.0-15.0; titles in our own words), cited as `omaha`;
the series' sections (3.0-9.0) stay the series' (`fire-and-movement`)."""

from __future__ import annotations

SECTIONS: dict[str, str] = {
    "10.1": "Scenario boundary",
    "10.2": "Scenario length and first player",
    "11.0": "Scenario set-up",
    "11.1": "German details",
    "11.1.2": "German reinforcements",
    "11.1.3": "German replacements (none)",
    "11.1.4": "German support fire markers",
    "11.2": "Allied details",
    "11.2.1": "Amphibious landings",
    "11.2.3": "Beach assaults (Pointe du Hoc, the beach landing hexes)",
    "11.2.4": "Allied reinforcements (and beach stacks)",
    "11.2.5": "Allied replacements",
    "11.2.6": "Allied support fire markers",
    "11.2.7": "Allied naval gunfire support",
    "12.0": "Supply (Omaha)",
    "13.0": "Victory conditions",
    "14.0": "Campaign game",
    "14.0b": "Campaign game: where the Allies land",
    "14.0g": "Campaign game: replacements",
    "14.1": "Weather",
    "14.2": "Length of the campaign game",
    "14.3": "Campaign victory conditions",
    "15.0": "Optional German AA/Flak",
}

RESTS_ON: dict[str, tuple[str, ...]] = {
    "10.1": ("movement",), "11.0": ("setup",), "11.1.2": ("arrival",), "11.2.1": ("arrival",),
    "11.2.4": ("arrival", "stacking"), "12.0": ("supply",), "13.0": ("victory",), "14.0b": ("arrival",),
    "14.3": ("victory",), "11.1.4": ("markers",), "11.2.6": ("markers",), "11.2.7": ("markers",),
}
"""The kinds of data each exclusive section's judgement reads (adjudicator.basis)."""

CHECKED = ("10.1", "10.2", "11.0", "11.1", "11.2", "12.0", "13.0", "14.0", "14.1", "14.2", "14.3", "15.0")
"""Omaha's sections this version checks completely; docs/rules-coverage.md lists the others."""
