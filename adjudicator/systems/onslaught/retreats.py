"""Retreat (7.3) and advance after combat (7.4)."""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import Advance, Retreat
from adjudicator.systems.onslaught.combat import after_losses, retreat_options_of
from adjudicator.systems.onslaught.losses import effect_of, track_effect, uncalled
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import (
    OnslaughtState, enemy_of, on_map, relocate, replace, unit_of, units_at,
)
from adjudicator.systems.onslaught.supply import mark_control
from adjudicator.systems.onslaught.tables import map_tables
from adjudicator.systems.onslaught.zoc import zone_of_control
from wargame.hexes import Hexside


def retreat_kind(state: OnslaughtState, entry: Retreat) -> str:
    """"full"; "short": one hex because two are impossible, which depletes (7.3); or "stray":
    one hex though two are open. A German division stopping in a fortification is full (7.5)."""
    combat = state.combat
    if combat is None or len(entry.path) != 2 or stops_in_fortification(state, entry.unit, entry.path[-1]):
        return "full"
    two, _ = retreat_options_of(state, combat)
    return "stray" if two else "short"


def stops_in_fortification(state: OnslaughtState, unit_id: str, label: str) -> bool:
    """7.5: a German division can stop retreating as soon as it enters a fortification hex."""
    game = state.game
    return (unit_of(state, unit_id).side == "German" and game.grid.is_label(label)
            and "fortification" in game.hex_terrain.get(game.grid.hex_of(label), ()))


def check_retreat(state: OnslaughtState, entry: Retreat) -> list[Finding]:
    game = state.game
    unit = unit_of(state, entry.unit)
    where = state.location.get(entry.unit)
    if on_map(state, entry.unit) is None:
        return [finding("error", "7.3", entry, f"{entry.unit} is not on the map ({where or 'not in play'})")]
    if entry.path[0] != where:
        return [finding("error", "7.3", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
    combat = state.combat
    if combat is None:
        return [uncalled(state, entry, "7.2", f"no combat result calls for {entry.unit} to retreat")]
    effect = effect_of(state, entry.unit)
    if effect is None or not effect.defends:
        return [finding("error", "7.2", entry, f"{entry.unit} did not defend in {combat.name}; only the "
                                               "defending divisions retreat")]
    if combat.result is not None and not effect.retreat:
        return [finding("error", "7.2", entry, f"{combat.verdict} calls for no retreat of {entry.unit}")]
    if effect.retreated:
        return [finding("error", "7.3", entry, f"{entry.unit} has already retreated from {combat.hex}")]
    if effect.stood:
        return [finding("error", "7.5", entry, f"{entry.unit} stood its ground in {combat.hex}; it does not also "
                                               "retreat")]
    off = [label for label in entry.path if not game.grid.is_label(label)]
    if off:
        return [finding("error", "7.3", entry, f"{entry.unit} retreats to {off[0]}, off the map: no rule allows "
                                               "a division to retreat off the map")]
    out: list[Finding] = []
    tables = map_tables(game)
    # Ruling 7.2 / 7.3: the result's losses come with it; attackers it eliminates bar no retreat, written first or not.
    state = after_losses(state)
    enemy = enemy_of(state, unit.side)
    enemy_zoc = zone_of_control(state, enemy)
    friendly = {on_map(state, u) for u in state.location
                if u != entry.unit and unit_of(state, u).side == unit.side}
    hexes = [game.grid.hex_of(label) for label in entry.path]
    for k, ((la, a), (lb, b)) in enumerate(zip(zip(entry.path, hexes), zip(entry.path[1:], hexes[1:])), start=1):
        if not a.is_adjacent(b):
            hint = game.grid.step_hint(la, lb, entry.path[k + 1] if k + 1 < len(entry.path) else None)
            return out + [finding("error", "7.3", entry, f"{entry.unit} skips from {la} to {lb}{hint}; a retreat "
                                                         "moves from hex to adjacent hex")]
        if b not in tables.passable or Hexside.between(a, b) in tables.impassable_sides:
            out.append(finding("error", "7.3", entry, f"{entry.unit} retreats from {la} into {lb}, which no "
                                                      "division may enter from there"))
        elif units_at(state, lb, enemy):
            # 7.3: a hex enemy divisions hold is in their zone of control and no friendly division is in it; the
            # message names what bars it.
            out.append(finding("error", "7.3", entry, f"{entry.unit} retreats into {lb}, which enemy divisions hold"))
        elif b in enemy_zoc and b not in friendly:
            # 7.3: never into enemy ZOC unless a friendly division already occupies the hex.
            out.append(finding("error", "7.3", entry, f"{entry.unit} retreats into an enemy zone of control at "
                                                      f"{lb}, where no {unit.side} division stands"))
    entered = len(hexes) - 1
    start, end = hexes[0], hexes[-1]
    if entered == 0:
        out.append(finding("error", "7.3", entry, f"{entry.unit} does not leave {entry.path[0]}; a retreat is two "
                                                  "hexes"))
    elif entered > 2:
        out.append(finding("error", "7.3", entry, f"{entry.unit} retreats {entered} hexes; a retreat is two "
                                                  "hexes"))
    elif entered == 2 and end.distance(start) != 2:
        away = f"{end.distance(start)} hex{'es' if end.distance(start) != 1 else ''}"
        out.append(finding("error", "7.3", entry, f"{entry.unit} ends its retreat {away} from {entry.path[0]}; a "
                                                  "division ends up two hexes away from the hex where it was "
                                                  "attacked"))
    elif entered == 1 and not stops_in_fortification(state, entry.unit, entry.path[-1]):
        two, _ = retreat_options_of(state, combat)
        if two:
            out.append(finding("error", "7.3", entry, f"{entry.unit} retreats one hex though it can retreat two "
                                                      f"(to {', '.join(two)})"))
    # 7.3: a retreating division cannot end its retreat next to any enemy division that attacked it.
    beside = [u for u in combat.attackers if (h := on_map(state, u)) is not None and end.is_adjacent(h)]
    if entered and beside:
        out.append(finding("error", "7.3", entry, f"{entry.unit} ends its retreat at {entry.path[-1]}, next to "
                                                  f"{beside[0]} at {state.location[beside[0]]}, which attacked it"))
    return out


def check_advance(state: OnslaughtState, entry: Advance) -> list[Finding]:
    game = state.game
    unit = unit_of(state, entry.unit)
    combat = state.combat
    if combat is None:
        return [uncalled(state, entry, "7.4", f"{entry.unit} advances, but no combat has just been resolved; an "
                                              "advance comes right after its combat")]
    if entry.unit not in combat.attackers:
        return [finding("error", "7.4", entry, f"{entry.unit} did not take part in {combat.name}; divisions "
                                               "that did not participate in the attack cannot advance")]
    if entry.unit in combat.advanced:
        return [finding("error", "7.4", entry, f"{entry.unit} has already advanced after {combat.name}")]
    where = state.location.get(entry.unit)
    if entry.path[0] != where:
        return [finding("error", "7.4", entry, f"{entry.unit} is in {where}, not {entry.path[0]}")]
    left = units_at(state, combat.hex, enemy_of(state, unit.side))
    if left:
        return [finding("error", "7.4", entry, f"{combat.hex} is not empty ({', '.join(left)}); attacking "
                                               "divisions advance only when the defender's hex is left empty")]
    if len(entry.path) < 2 or entry.path[1] != combat.hex:
        return [finding("error", "7.4", entry, f"{entry.unit} advances into {combat.hex}, the vacated hex, "
                                               "first")]
    armor = unit.type == "armor"
    if not armor and len(entry.path) > 2:
        return [finding("error", "7.4", entry, f"{entry.unit} is not armor: it advances into the vacated hex "
                                               f"{combat.hex} and no further")]
    if len(entry.path) > 3:
        return [finding("error", "7.4", entry, f"armor advances into the vacated hex and one hex further; "
                                               f"{entry.unit} enters {len(entry.path) - 1}")]
    if len(entry.path) == 3:
        # 7.4: one additional hex in any direction; ZOC and major waterways have no effect.
        tables = map_tables(game)
        if not game.grid.is_label(entry.path[2]):
            return [finding("error", "7.4", entry, f"{entry.path[2]} is not a hex of the map")]
        a, b = game.grid.hex_of(entry.path[1]), game.grid.hex_of(entry.path[2])
        if not a.is_adjacent(b):
            hint = game.grid.step_hint(entry.path[1], entry.path[2])
            return [finding("error", "7.4", entry, f"{entry.unit} skips from {entry.path[1]} to {entry.path[2]}{hint}")]
        if b not in tables.passable or Hexside.between(a, b) in tables.impassable_sides:
            return [finding("error", "7.4", entry, f"{entry.unit} advances into {entry.path[2]}, which no division "
                                                   f"may enter from {entry.path[1]}")]
        if units_at(state, entry.path[2], enemy_of(state, unit.side)):
            return [finding("error", "7.4", entry, f"{entry.unit} advances into {entry.path[2]}, which enemy "
                                                   "divisions hold")]
    return []


def apply_retreat(state: OnslaughtState, entry: Retreat) -> OnslaughtState:
    """A defender retreats (7.3), a short retreat depleting it; control follows it (8.1)."""
    kind = retreat_kind(state, entry)
    state = track_effect(state, entry.unit, retreated=True, short=kind == "short", stray=kind == "stray")
    state = mark_control(state, entry.unit, entry.path[1:])
    return relocate(state, entry.unit, entry.path[-1],
                    action_log=replace(state.action_log, retreated=state.action_log.retreated | {entry.unit}))


def apply_advance(state: OnslaughtState, entry: Advance) -> OnslaughtState:
    """An attacker advances into the vacated hex (7.4); control follows it (8.1)."""
    if state.combat is not None:
        state = replace(state, combat=replace(state.combat, advanced=state.combat.advanced | {entry.unit}))
    state = mark_control(state, entry.unit, entry.path[1:])
    return relocate(state, entry.unit, entry.path[-1])
