"""The Fire & Movement series' sections (rules 3.0-9.0; titles in our own words). A folio's
exclusive rules (10.0 on) are in its own table (Omaha: `omaha/sections.py`)."""

from __future__ import annotations

SECTIONS: dict[str, str] = {
    "3.0": "Setting up",
    "4.1": "Sequence of play",
    "5.1": "Movement procedure",
    "5.2": "Movement restrictions",
    "5.2c": "No hex entered without the MP to pay for it",
    "5.2d": "No hex entered that an enemy unit holds",
    "5.2e": "No prohibited hex or hexside",
    "5.2f": "No exit from the map",
    "5.3": "Stacking",
    "5.4": "Terrain effects on movement",
    "5.5": "Mobile Movement Phase",
    "6.0": "Zones of control",
    "6.1": "Zones of control and movement",
    "6.2": "Zones of control, retreat and advance",
    "7.1": "Allocation of support fire markers (each side its own pool)",
    "7.2": "Support fire application",
    "8.0": "Bombardment and ground combat",
    "8.1": "Bombardment",
    "8.1.1": "Bombardment range",
    "8.1.2": "Bombardment procedure",
    "8.1.3": "Bombardment results",
    "8.1.4": "Bombardment terrain effects (the hex's, not its hexsides)",
    "8.1.5": "Bombardment retreat",
    "8.2": "Ground combat",
    "8.2.1a": "Combat procedure: the attackers and the enemy unit attacked",
    "8.2.1b": "Combat procedure: support fire markers, in turn, two a side",
    "8.2.1d": "Combat procedure: differential, line and result",
    "8.2.2": "Terrain effects on combat",
    "8.2.3": "Fortifications",
    "8.2.4": "Combat resolution",
    "8.3": "Retreat",
    "8.3.1": "Displacement",
    "8.4": "Stiff resistance",
    "8.5": "Advance after combat",
    "9.0": "Supply (series: none)",
    "log": "Log structure (not a rule of the game)",
}

RESTS_ON: dict[str, tuple[str, ...]] = {
    "3.0": ("setup",),
    "5.1": ("movement",), "5.2": ("movement",), "5.2c": ("movement",), "5.2e": ("movement",), "5.2f": ("movement",),
    "5.4": ("movement",), "5.5": ("movement",), "5.3": ("stacking",),
    "8.1.1": ("markers",), "6.0": ("zoc",), "6.1": ("movement", "zoc"), "6.2": ("zoc",),
    "8.3": ("movement", "zoc", "stacking"), "8.3.1": ("movement", "zoc", "stacking"), "8.5": ("movement", "zoc"),
}
"""The kinds of data each series section's judgement reads (adjudicator.basis): terrain costs and movement
allowances, the units' ZOC and the terrain around them, stacking limits."""

CHECKED = ("4.1", "5.1", "5.2", "5.3", "5.4", "5.5", "6.0", "6.1", "6.2", "7.1", "7.2", "8.0", "8.1", "8.2", "8.3",
           "8.4", "8.5")
"""Series sections this version checks completely; docs/rules-coverage.md lists the others."""
