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


def test_omaha_optional_rules_are_layers_the_headers_switch_on() -> None:
    """14.1 and 15.0 put layers on Omaha's registry and hooks when the headers name them; without them the rules
    are Omaha's own."""
    from adjudicator.systems.omaha.optional import BASE

    assert OMAHA.layered(frozenset()) == (OMAHA.registry, BASE)
    registry, hooks = OMAHA.layered(frozenset({"weather", "flak"}))
    roll = {h.name: h for h in registry.handlers}["roll"]
    assert roll.check == OMAHA._check_rolls_in_weather and roll.apply == OMAHA._rolled_in_weather
    assert hooks.weather_owed == OMAHA.weather._weather_owed and hooks.support_value == OMAHA.weather._flak_value
    assert OMAHA.layered(frozenset({"flak"}))[0] is OMAHA.registry


def test_no_series_or_omaha_rule_asks_whether_an_option_is_on() -> None:
    """Only the layering and the set-up read the headers' optional rules."""
    import ast
    from pathlib import Path

    systems = Path(__file__).resolve().parent.parent / "adjudicator" / "systems"
    asking = [f"{path.parent.name}/{path.name}:{node.lineno}"
              for path in sorted([*systems.glob("omaha/*.py"), *systems.glob("fire_and_movement/*.py")])
              if path.name not in ("system.py", "state.py")
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Attribute) and node.attr == "optional"]
    assert asking == []


def test_no_mixin_chain() -> None:
    """House style 18: the series' and Omaha's rule areas are components the system holds, so every class on the
    way from Omaha to the series' base has one parent (a small subclass over named hooks), and each area is held by
    name."""
    assert [len(cls.__bases__) for cls in Omaha.__mro__ if cls.__module__.startswith("adjudicator.systems")] == \
        [1] * len([cls for cls in Omaha.__mro__ if cls.__module__.startswith("adjudicator.systems")])
    series_areas = ("zoc", "sequence", "retreats", "combat_results", "bombardment", "ground", "support", "moves")
    omaha_areas = ("boundary", "setup", "assaults", "pdh", "arrivals", "cups", "supply", "victory", "campaign",
                   "weather")
    assert all(getattr(OMAHA, name).rules is OMAHA for name in (*series_areas, *omaha_areas))
