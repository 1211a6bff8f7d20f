"""The Fire & Movement rule system with Omaha Beach's exclusive rules (Decision Games)."""

from adjudicator.systems.fire_and_movement.system import FIRE_AND_MOVEMENT, FireAndMovementState

__all__ = ["FIRE_AND_MOVEMENT", "FireAndMovementState"]
