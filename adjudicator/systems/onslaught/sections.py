"""Onslaught's numbered sections, as the findings cite them (titles in our own words)."""

from __future__ import annotations

from adjudicator.findings import Finding, SectionTable, Severity
from adjudicator.notation.entries import Entry

SECTIONS: dict[str, str] = {
    "3.0": "Setting up",
    "4.0": "Turn sequence",
    "5.0": "Action step",
    "5.1": "Choosing actions",
    "5.2": "Activating divisions",
    "5.3": "Movement action",
    "5.4": "Combat action",
    "5.5": "Breakthrough action",
    "6.1": "Normal movement",
    "6.2": "Zones of control",
    "6.3": "Stacking",
    "6.4": "Strategic movement",
    "6.5": "Major waterways",
    "7.0": "Combat",
    "7.1": "Combat modifiers",
    "7.2": "Combat effects",
    "7.3": "Retreat",
    "7.4": "Advance after combat",
    "7.5": "Fortifications",
    "8.1": "Supply points",
    "8.2": "Supply tracks",
    "8.3": "Supply lines",
    "8.4": "Supply sources",
    "8.5": "Port areas",
    "8.6": "Supply effects",
    "8.7": "Capturing supply",
    "9.1": "Paratroop box",
    "9.2": "Paradrops",
    "9.3": "Paratroop replacement",
    "10.1": "Reinforcement entry",
    "10.2": "German reinforcements",
    "10.3": "Allied reinforcements",
    "11.1": "Replacement points",
    "11.2": "Replacement eligibility",
    "11.3": "Allied replacements",
    "11.4": "German replacements",
    "12.0": "The Bulge",
    "13.1": "German victory",
    "13.2": "Allied victory",
    "13.3": "Victory points",
    "14.1": "Allied cooperation",
    "14.2": "Free French recruitment",
    "14.3": "Infantry breakthrough",
    "14.4": "Emergency supplies",
    "log": "Log structure (not a rule of the game)",
}

CHECKED = ("3.0", "4.0", "5.0", "5.1", "5.2", "5.3", "5.4", "5.5", "6.1", "6.2", "6.3", "6.4", "6.5", "7.0", "7.1", "7.2",
           "7.3", "7.4", "7.5", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "9.1", "9.2", "9.3", "10.1", "10.2",
           "10.3", "11.1", "11.2", "11.3", "11.4", "12.0", "13.1", "13.2", "13.3", "14.1", "14.2", "14.3", "14.4")
"""Sections this version checks completely (all of them; the optional rules when in force);
docs/rules-coverage.md says how and where."""

RESTS_ON: dict[str, tuple[str, ...]] = {
    "3.0": ("setup",),
    "6.1": ("movement",), "6.2": ("zoc",), "6.3": ("stacking",), "6.4": ("movement", "zoc"), "6.5": ("movement",),
    "7.5": ("terrain",), "9.1": ("zoc",),
    "7.3": ("movement", "zoc", "stacking"), "7.4": ("movement", "zoc"),
    "8.1": ("supply",), "8.2": ("supply",), "8.3": ("supply",), "8.4": ("supply",), "8.5": ("supply",),
    "8.6": ("supply",), "8.7": ("supply",), "14.4": ("supply",),
    "9.2": ("movement",), "10.1": ("arrival",), "10.2": ("arrival",), "10.3": ("arrival",),
    "13.1": ("victory",), "13.2": ("victory",), "13.3": ("victory",),
}
"""The kinds of data each section's judgement reads (adjudicator.basis): movement reads the terrain entered
and the movement allowance, 6.2 the hexes and hexsides around enemy divisions, supply the ports and sources,
reinforcements their schedule and entry areas, victory the areas' values."""

TABLE = SectionTable("onslaught", SECTIONS, rests_on=RESTS_ON)
"""The only door to Onslaught's findings (house style 4)."""


def finding(severity: Severity, section: str, entry: Entry, message: str) -> Finding:
    """A finding on an entry, citing an Onslaught section."""
    return TABLE.finding(severity, section, entry.line, entry.column, message)
