"""Rule systems, registered by hand in one mapping (house style 3)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import RuleSystem
from adjudicator.systems.fire_and_movement import FIRE_AND_MOVEMENT
from adjudicator.systems.onslaught import ONSLAUGHT

SYSTEMS: dict[str, RuleSystem[Any]] = {ONSLAUGHT.name: ONSLAUGHT, FIRE_AND_MOVEMENT.name: FIRE_AND_MOVEMENT}
