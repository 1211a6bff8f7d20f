"""D-Day: Omaha Beach, a folio of the Fire & Movement series: the series' rules with its exclusive
rules (10.0-15.0), one module per rule area."""

from adjudicator.systems.omaha.state import OmahaState
from adjudicator.systems.omaha.system import OMAHA, Omaha

__all__ = ["OMAHA", "Omaha", "OmahaState"]
