"""The Fire & Movement series (Decision Games): rules 3.0-9.0, one module per rule area; its folios
(Omaha Beach: `adjudicator.systems.omaha`) build on it."""

from adjudicator.systems.fire_and_movement.state import FireAndMovementState
from adjudicator.systems.fire_and_movement.system import FireAndMovement

__all__ = ["FireAndMovement", "FireAndMovementState"]
