"""Onslaught's rule registry: each entry class's checks and its application, by the section they judge
(house style 12): what the system dispatches on and what `adjudicate rules onslaught` lists."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import TypeVar

from adjudicator.findings import Finding
from adjudicator.notation.entries import (
    Action, Entry, Activate, Advance, Attack, Capture, Declare, Income, Loss, Move, Pass, Place, Retreat, RollOff,
    StandFast, StepMarker, TurnMarker,
)
from adjudicator.registry import Handler, Registry
from adjudicator.systems.onslaught import (
    activation, arrivals, bulge, combat, losses, movement, retreats, sequence, supply, victory,
)
from adjudicator.systems.onslaught.sections import RESTS_ON
from adjudicator.systems.onslaught.state import OnslaughtState

S = OnslaughtState
E = TypeVar("E", bound=Entry)


def _handler(name: str, entry: type[E], section: str, check: Callable[[S, E], list[Finding]] | None,
             apply: Callable[[S, E], S] | None = None) -> Handler[S, E]:
    """A handler judging one section, resting on the data that section's table names."""
    return Handler(name, entry, section, check, apply, RESTS_ON.get(section, ()))


REGISTRY: Registry[OnslaughtState] = Registry.of(
    _handler("turn", TurnMarker, "4.0", sequence.check_turn, sequence.apply_turn),
    _handler("step", StepMarker, "4.0", sequence.check_step, sequence.apply_step),
    _handler("roll-off", RollOff, "5.0", sequence.check_roll, sequence.apply_roll),
    _handler("action", Action, "5.1", sequence.check_action, sequence.apply_action),
    _handler("pass", Pass, "5.0", sequence.check_action, sequence.apply_pass),
    _handler("activate", Activate, "5.2", activation.check_activate, activation.apply_activate),
    _handler("move", Move, "6.1", movement.check_move, movement.apply_move),
    _handler("move-order", Move, "5.5", activation.check_move_order),
    _handler("attack", Attack, "7.0", combat.check_attack, combat.apply_attack),
    _handler("attack-order", Attack, "5.5", activation.check_attack_order),
    _handler("place", Place, "10.1", arrivals.check_place, arrivals.apply_place),
    _handler("income", Income, "8.1", supply.check_income, supply.apply_income),
    _handler("capture", Capture, "8.7", supply.check_capture, supply.apply_capture),
    _handler("bulge", Declare, "12.0", bulge.check_declare, bulge.apply_declare),
    _handler("victory", Declare, "13.3", victory.check_claim),
    _handler("loss", Loss, "7.2", losses.check_loss, losses.apply_loss_entry),
    _handler("retreat", Retreat, "7.3", retreats.check_retreat, retreats.apply_retreat),
    _handler("advance", Advance, "7.4", retreats.check_advance, retreats.apply_advance),
    _handler("stand-fast", StandFast, "7.5", losses.check_stand, losses.apply_stand),
)
"""Each entry class's handlers, in the order their findings are listed (one apply per class)."""


def _recruitment(registry: Registry[OnslaughtState]) -> Registry[OnslaughtState]:
    """14.2's layer: reinforcements checked with Free French recruitment in French cities."""
    return registry.replacing("place", _handler("place", Place, "10.1", arrivals.check_place_recruiting,
                                                arrivals.apply_place))


LAYERS: Mapping[str, Callable[[Registry[OnslaughtState]], Registry[OnslaughtState]]] = {
    "free_french_recruitment": _recruitment,
}
"""The optional rules' registry layers, by rule id, in the order they are put on; the other optional rules (14.1,
14.3, 14.4) change hooks inside the base handlers (optional.py's `HOOKS`)."""


@cache
def registry_for(optional: frozenset[str]) -> Registry[OnslaughtState]:
    """The registry with the layers of these optional rules put on the base one (once per set of headers)."""
    registry = REGISTRY
    for rule, layer in LAYERS.items():
        if rule in optional:
            registry = layer(registry)
    return registry


def registry_of(state: OnslaughtState) -> Registry[OnslaughtState]:
    """The registry of the optional rules the log's headers put in force."""
    return registry_for(state.optional)


__all__ = ["LAYERS", "REGISTRY", "registry_for", "registry_of"]
