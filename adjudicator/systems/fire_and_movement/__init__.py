"""The Fire & Movement rule system with Omaha Beach's exclusive rules (Decision Games)."""

from adjudicator.systems.fire_and_movement.engine_contract import FIRE_AND_MOVEMENT
from adjudicator.systems.fire_and_movement.system import FireAndMovementState

__all__ = ["FIRE_AND_MOVEMENT", "FireAndMovementState"]
