"""The sequence of play as the game's data gives it (`[[sequence]]` in game.toml), read in one place.

The referee's engine (is this step next? does it allow this entry?), the rule systems' generators,
the builder's turn tracker and the VASSAL reader all walk the same list: each step or phase once, or
once per side in the first player's order when the item is each player's (`player = "each"`, e.g.
the Fire & Movement player turn, 4.1). An item played once before the first turn
(`before_first_turn`, e.g. Omaha's set-up and landing, 11.0-11.2.3) is not part of the turn: it is the
game's opening (`opening_slot`), the step in force before a log's first `Turn` marker.
"""

from __future__ import annotations

from collections.abc import Iterable

from wargame.models import EntryAllowance, GameManifest, Scenario, SequenceItem
from wargame.records import frozen


@frozen
class Slot:
    """One step or phase of a turn, in order: its id, the name a turn tracker shows, whose it is, its section."""

    id: str
    name: str
    side: str | None
    """The side whose player turn it belongs to (None: the step is both players')."""
    source: str
    entries: tuple[EntryAllowance, ...] = ()
    """The entry kinds the step or phase allows, and who may write them (`entries` in game.toml)."""
    title: str = ""
    """The step or phase's own name, without the side whose player turn it is in."""
    opening: bool = False
    """Played once before the first turn (`before_first_turn`), not in every turn."""

    def writer(self, allowed: EntryAllowance) -> str | None:
        """The side an allowance lets write its kind here (None: either side)."""
        if allowed.side == "any":
            return None
        return self.side if allowed.side == "phasing" else allowed.side

    def allows(self, kind: str, side: str | None, unit_types: Iterable[str] = (), how: str | None = None) -> bool:
        """Whether the step or phase allows an entry of this kind (written this way) from this side, acting
        with units of these types (an allowance for some unit types only needs every unit to be of one)."""
        types = tuple(unit_types)
        return any(a.covers(kind, how) and (a.side == "any" or (side is not None and side == self.writer(a)))
                   and (not a.unit_types or (bool(types) and all(t in a.unit_types for t in types)))
                   for a in self.entries)

    def names(self, kind: str, how: str | None = None) -> bool:
        """Whether the step or phase lists an entry of this kind (written this way) among its entries."""
        return any(a.covers(kind, how) for a in self.entries)


def _slot(item: SequenceItem, name: str, side: str | None) -> Slot:
    return Slot(item.id, name, side, str(item.source), tuple(item.entries), item.name, item.before_first_turn)


def opening_slot(manifest: GameManifest) -> Slot | None:
    """The step played once before the first turn (a log's entries before its first `Turn` marker), if the
    game's sequence of play has one."""
    return next((_slot(item, item.name, None) for item in manifest.sequence if item.before_first_turn), None)


def scenario_of(manifest: GameManifest, scenario: str | None = None) -> Scenario | None:
    """The scenario of that id, else the game's first (None: the game has none)."""
    named = next((s for s in manifest.scenario if s.id == scenario), None) if scenario is not None else None
    return named or (manifest.scenario[0] if manifest.scenario else None)


def first_player(manifest: GameManifest, scenario: str | None = None) -> str | None:
    """The side that plays first in a scenario (the first scenario's when none is named; the first side in a game
    without scenarios)."""
    chosen = scenario_of(manifest, scenario)
    sides = manifest.sides
    return (chosen.first_player if chosen is not None else None) or (sides[0] if sides else None)


def turn_sequence(manifest: GameManifest, scenario: str | None = None) -> tuple[Slot, ...]:
    """The steps or phases a turn of a scenario runs through, in order (not the opening before the first turn): a
    player turn's (`player = "each"`) once per side, the scenario's first player's first (the first scenario's
    when none is named)."""
    sides = manifest.sides
    first = first_player(manifest, scenario)
    order = [first, *[s for s in sides if s != first]]
    out: list[Slot] = []
    for item in manifest.sequence:
        if item.before_first_turn:
            continue
        if item.player == "each":
            for side in order:
                if item.items:
                    out += [_slot(sub, f"{side} {sub.name}", side) for sub in item.items]
                else:
                    out.append(_slot(item, f"{side} {item.name}", side))
        else:
            out.append(_slot(item, item.name, None))
    return tuple(out)


def entry_places(sequence: tuple[Slot, ...]) -> dict[str, tuple[EntryAllowance, ...]]:
    """Every entry kind some step or phase names, with each allowance of it in turn order: such a kind
    belongs to those steps and phases only."""
    out: dict[str, list[EntryAllowance]] = {}
    for slot in sequence:
        for allowed in slot.entries:
            out.setdefault(allowed.kind, []).append(allowed)
    return {kind: tuple(allowed) for kind, allowed in out.items()}


def slot_at(sequence: tuple[Slot, ...], opening: Slot | None, turn: int, step: str | None,
            side: str | None) -> Slot | None:
    """The step or phase under way: the opening before the first turn's first step, else the turn's step
    (of a side's player turn, when it is one side's); None between a `Turn` marker and its first step."""
    if turn == 0 and step is None:
        return opening
    index = slot_index(sequence, step, side)
    return None if index is None else sequence[index]


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


def phasing_side(manifest: GameManifest, slot: Slot, scenario: str | None = None) -> str | None:
    """Whose step or phase a slot is: its side (a player turn's), else the scenario's first or second player's
    for an item the data gives to one (`player = "first"`), else None (both players')."""
    if slot.side is not None:
        return slot.side
    item = next((i for i in manifest.sequence if i.id == slot.id), None)
    if item is None or item.player not in ("first", "second"):
        return None
    first = first_player(manifest, scenario)
    return first if item.player == "first" else next(s for s in manifest.sides if s != first)


class TurnOrder:
    """The sequence of play of the scenario a log plays as a referee asks it about every entry: the turn's steps or
    phases in that scenario's order of players, the opening, the entry kinds each names, and what each lets be
    written there, worked out once.

    Its answers depend on the game's data and the scenario alone (the step, the side, the kind, the unit types), so
    each is remembered: a replay asks the same few questions thousands of times."""

    def __init__(self, manifest: GameManifest, scenario: str | None = None) -> None:
        chosen = scenario_of(manifest, scenario)
        self.scenario = chosen.id if chosen is not None else None
        """The scenario's id (the game's first when none was named; None for a game without scenarios)."""
        self.manifest = manifest
        self.sequence = turn_sequence(manifest, self.scenario)
        self.opening = opening_slot(manifest)
        self.places = entry_places(self.sequence)
        self.steps = step_ids(self.sequence)
        self.section = next((str(item.source) for item in manifest.sequence if not item.before_first_turn),
                            self.sequence[0].source if self.sequence else manifest.source)
        """The sequence of play's own section, which the order of the turn's steps cites: its first table's (a player
        turn's phases cite the sections of what is done in them)."""
        self._governed: dict[tuple[str, str | None], bool] = {}
        self._slots: dict[tuple[int, str | None, str | None], Slot | None] = {}
        self._allows: dict[tuple[str, str | None, bool, str, str | None, tuple[str, ...], str | None], bool] = {}

    def governs(self, kind: str, how: str | None) -> bool:
        """Whether some step or phase of the turn, or the opening, names this kind of entry written this way
        (then only those allow it)."""
        key = (kind, how)
        known = self._governed.get(key)
        if known is None:
            known = any(a.covers(kind, how) for a in self.places.get(kind, ())) or (
                self.opening is not None and self.opening.names(kind, how))
            self._governed[key] = known
        return known

    def phasing_side(self, slot: Slot) -> str | None:
        """Whose step or phase a slot is in the scenario (`phasing_side` of the module)."""
        return phasing_side(self.manifest, slot, self.scenario)

    def slot_at(self, turn: int, step: str | None, side: str | None) -> Slot | None:
        """The step or phase under way (`slot_at` of the module), remembered."""
        key = (0 if turn == 0 else 1, step, side)
        if key not in self._slots:
            self._slots[key] = slot_at(self.sequence, self.opening, turn, step, side)
        return self._slots[key]

    def allows(self, slot: Slot, kind: str, side: str | None, unit_types: tuple[str, ...],
               how: str | None) -> bool:
        """`Slot.allows`, remembered."""
        key = (slot.id, slot.side, slot.opening, kind, side, unit_types, how)
        known = self._allows.get(key)
        if known is None:
            known = self._allows[key] = slot.allows(kind, side, unit_types, how)
        return known
