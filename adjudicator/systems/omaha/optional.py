"""Omaha's optional rules, 14.1 (weather; the campaign game's rules put it in force too) and 15.0 (German AA/Flak), as
layers switched on by the log's headers: each replaces named handlers of Omaha's registry and named hooks of its
rules (system.py's `LAYERS`), so no rule asks whether an option is on (house style 12, 18)."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry
from adjudicator.systems.omaha.state import OmahaState
from wargame.hexes import Hex
from wargame.models import Marker
from wargame.records import frozen


def _no_weather(state: OmahaState, entry: Entry) -> list[Finding]:
    return []


def _printed_value(state: OmahaState, marker: Marker, applied: int, target: Hex) -> int:
    return applied


@frozen
class OptionalHooks:
    """What Omaha's optional rules change inside its rules, by name: the rules' own without a layer."""

    weather_owed: Callable[[OmahaState, Entry], list[Finding]] = _no_weather
    """Errors as the Support Fire Marker Phase ends for weather not rolled (14.1's layer)."""
    support_value: Callable[[OmahaState, Marker, int, Hex], int] = _printed_value
    """A support fire marker's value on a combat (15.0's layer halves aircraft near flak)."""


BASE = OptionalHooks()
"""The hooks with no optional rule in force."""
