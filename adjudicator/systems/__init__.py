"""Rule systems, registered by hand in one mapping (house style 3). The Fire & Movement series
(`fire_and_movement`) is played through its folios: Omaha Beach (`omaha`)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import RuleSystem
from adjudicator.systems.omaha import OMAHA
from adjudicator.systems.onslaught import ONSLAUGHT

SYSTEMS: dict[str, RuleSystem[Any]] = {ONSLAUGHT.name: ONSLAUGHT, OMAHA.name: OMAHA}
