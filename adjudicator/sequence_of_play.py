"""The sequence of play as the engine keeps it: the scenario's turn order and the context a marker opens."""

from __future__ import annotations

from adjudicator.contract import RuleSystem, StateT, TurnContext
from adjudicator.notation.entries import StepMarker
from wargame.sequence import Slot, TurnOrder, next_slot, slot_index

__all__ = ["later_context", "order_played", "player_turn_goes_on", "step_context"]


def step_context(order: TurnOrder, at: TurnContext, entry: StepMarker) -> TurnContext:
    """The context a step or phase marker opens: that step, the one after the step under way where several have its
    id (each player's turn), with the side phasing in it, as the sequence of play of the scenario played gives it."""
    sequence = order.sequence
    slot = next_slot(sequence, at.step, at.player_turn)
    if slot is None or slot.id != entry.step:
        index = slot_index(sequence, entry.step, None)
        slot = sequence[index] if index is not None else None
    if slot is None:
        return TurnContext(at.turn, entry.step, at.player_turn)
    return TurnContext(at.turn, entry.step, order.phasing_side(slot))


def order_played(system: RuleSystem[StateT], state: StateT, order: TurnOrder | None) -> TurnOrder:
    """The sequence of play of the scenario a state plays: `order` when it is that scenario's (a replay's, worked
    out once from the log's headers), else worked out for it."""
    scenario = system.turn_keeper.scenario(state) if system.turn_keeper is not None else None
    if order is not None and (scenario is None or order.scenario == scenario):
        return order
    return TurnOrder(system.game_of(state).manifest, scenario)


def player_turn_goes_on(sequence: tuple[Slot, ...], at: TurnContext) -> bool:
    """Whether the step or phase `at` goes on with the player turn of the one before it in the sequence (not the
    first of a side's player turn, nor a step both players share)."""
    index = slot_index(sequence, at.step, at.player_turn)
    return index is not None and index > 0 and sequence[index].side is not None and \
        sequence[index - 1].side == sequence[index].side


def later_context(order: TurnOrder, at: TurnContext, entry: StepMarker) -> TurnContext | None:
    """The context a step or phase marker opens where only a later one may open: the first of its id after the
    one under way (None: none is left in the turn)."""
    sequence = order.sequence
    current = slot_index(sequence, at.step, at.player_turn)
    start = 0 if current is None else current + 1
    slot = next((s for s in sequence[start:] if s.id == entry.step), None)
    return None if slot is None else TurnContext(at.turn, entry.step, order.phasing_side(slot))
