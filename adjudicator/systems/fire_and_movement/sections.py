"""The Fire & Movement system's sections and Omaha Beach's exclusive ones (titles in our own words)."""

from __future__ import annotations

SECTIONS: dict[str, str] = {
    "3.0": "Setting up",
    "4.1": "Sequence of play",
    "5.1": "Movement procedure",
    "5.2": "Movement restrictions",
    "5.3": "Stacking",
    "5.4": "Terrain effects on movement",
    "5.5": "Mobile Movement Phase",
    "6.0": "Zones of control",
    "6.1": "Zones of control and movement",
    "6.2": "Zones of control, retreat and advance",
    "7.1": "Allocation of support fire markers",
    "7.2": "Support fire application",
    "8.0": "Bombardment and ground combat",
    "8.1": "Bombardment",
    "8.2": "Ground combat",
    "8.3": "Retreat",
    "8.4": "Stiff resistance",
    "8.5": "Advance after combat",
    "9.0": "Supply (system)",
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
    "log": "Log structure (not a rule of the game)",
}

CHECKED = ("4.1", "5.1", "5.2", "5.3", "5.4", "5.5", "6.0", "6.1", "6.2", "7.1", "7.2", "8.0", "8.1", "8.2", "8.3",
           "8.4", "8.5", "10.1", "10.2", "11.0", "11.1", "11.2", "12.0", "13.0", "14.0", "14.1", "14.2", "14.3",
           "15.0")
"""Sections this version checks completely; docs/rules-coverage.md lists the others, and the
entries they govern get a note saying they are applied but not checked."""
