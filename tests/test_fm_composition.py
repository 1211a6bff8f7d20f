"""A folio is the Fire & Movement series' registry with its own handlers put in by name (house style 12, 18): Omaha
replaces or adds named handlers of the series' registry instead of overriding the series' handler methods."""

from __future__ import annotations

import inspect

from adjudicator.systems.fire_and_movement.system import FireAndMovement
from adjudicator.systems.fire_and_movement.state import FireAndMovementState
from adjudicator.systems.omaha.system import OMAHA, Omaha


def handler_functions(system: FireAndMovement[FireAndMovementState]) -> set[str]:
    """The names of the methods a system's registry calls."""
    return {fn.__name__ for h in system.registry.handlers for fn in (h.check, h.apply) if fn is not None}


def test_omaha_is_the_series_registry_with_its_handlers_put_in_by_name() -> None:
    """Omaha's registry lists the series' handlers in the series' order, then its own additions."""
    series = FireAndMovement[FireAndMovementState]()
    assert OMAHA.registry.names == (*series.registry.names, "victory-claim")
    assert set(OMAHA.series) == set(series.registry.names)


def test_no_omaha_class_overrides_a_series_handler() -> None:
    """What Omaha changes in a series handler is a handler of its own in its registry, never a method of the
    same name further down the class chain (whose super() call the registry cannot see)."""
    series = handler_functions(FireAndMovement[FireAndMovementState]())
    overriding = sorted(f"{cls.__name__}.{name}" for cls in Omaha.__mro__ if cls.__module__.startswith(
        "adjudicator.systems.omaha") for name, value in vars(cls).items() if name in series and inspect.isfunction(value))
    assert overriding == []
