"""The sequence of play as the game's data gives it (`[[sequence]]` in game.toml), read in one place.

The referee's engine (is this step next?), the builder's turn tracker and the VASSAL reader all
walk the same list: each step or phase once, or once per side in the first player's order when the
item is each player's (`player = "each"`, e.g. the Fire & Movement player turn, 4.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from wargame.models import GameManifest


@dataclass(frozen=True)
class Slot:
    """One step or phase of a turn, in order: its id, the name a turn tracker shows, whose it is, its section."""

    id: str
    name: str
    side: str | None
    """The side whose player turn it belongs to (None: the step is both players')."""
    source: str


def turn_sequence(manifest: GameManifest) -> tuple[Slot, ...]:
    """The steps or phases a turn runs through, in order."""
    sides = manifest.sides
    first = (manifest.scenario[0].first_player if manifest.scenario else None) or (sides[0] if sides else None)
    order = [first, *[s for s in sides if s != first]]
    out: list[Slot] = []
    for item in manifest.sequence:
        if item.player == "each":
            for side in order:
                if item.items:
                    out += [Slot(sub.id, f"{side} {sub.name}", side, str(sub.source)) for sub in item.items]
                else:
                    out.append(Slot(item.id, f"{side} {item.name}", side, str(item.source)))
        else:
            out.append(Slot(item.id, item.name, None, str(item.source)))
    return tuple(out)


def step_ids(sequence: tuple[Slot, ...]) -> list[str]:
    """The distinct step or phase ids, in order of first appearance."""
    return list(dict.fromkeys(s.id for s in sequence))


def slot_index(sequence: tuple[Slot, ...], step: str | None, side: str | None) -> int | None:
    """The index of a step (of a side's player turn, when it is one side's), None if there is none."""
    if step is None:
        return None
    return next((i for i, s in enumerate(sequence) if s.id == step and (s.side is None or side is None
                                                                          or s.side == side)), None)


def next_slot(sequence: tuple[Slot, ...], step: str | None, side: str | None) -> Slot | None:
    """The step or phase that comes after `step` (the first of the turn after none), None after the last."""
    if step is None:
        return sequence[0] if sequence else None
    index = slot_index(sequence, step, side)
    if index is None or index + 1 >= len(sequence):
        return None
    return sequence[index + 1]
