"""What the rule system's movement model says a unit may do now (`adjudicate reach`, `adjudicate retreats`) and
the legal retreats drawn beside a retreat a finding is about: text, JSON and picture marks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adjudicator.contract import MovementModel, Reach, RetreatOption, RuleSystem, StateT, kind_of
from adjudicator.engine import Replay
from adjudicator.notation.entries import Entry
from wargame.errors import WargameError, did_you_mean
from wargame.records import frozen
from wargame.scene import Mark


@frozen
class Moment:
    """A replay and the state after a line of it, with how the line is named for people."""

    result: Replay[Any]
    state: Any
    when: str
    """`line 12` (`step 12` of a VASSAL log, `LOG line 12` of a chain), or `the end`."""

    @property
    def model(self) -> MovementModel[Any]:
        """The rule system's movement model; WargameError for a system without one."""
        system: RuleSystem[Any] = self.result.system
        model = system.movement
        if model is None:
            raise WargameError(f"the {system.name} rule system gives no movement model")
        return model


def moment_at(logs: tuple[Path, ...], at_line: tuple[str | None, int] | None, data: Path | None,
              game_id: str | None, module: Path | None) -> Moment:
    """The replay of one log or a chain, and its state after `--at` (the end without it); WargameError for a
    line past the log's end."""
    from adjudicator.log_commands import warn
    from adjudicator.sources import replay_logs
    replayed = replay_logs(logs, data, game_id, module, warn=warn)
    state, when = replayed.state_at(at_line)
    return Moment(replayed.result, state, when)


def unit_place(moment: Moment, unit_id: str) -> str:
    """Where a unit is in the moment's position; WargameError, with the closest ids, for a unit the game lacks."""
    units = moment.result.game.units_by_id
    if unit_id not in units:
        raise WargameError(f"unknown unit {unit_id!r}{did_you_mean(unit_id, units)}")
    where = moment.result.system.position(moment.state).units.get(unit_id)
    return "not in play" if where is None else where.place


def reach_text(moment: Moment, unit_id: str, kind: str, reach: Reach) -> str:
    """The hexes in reach, cheapest first, or why the unit may not move, in lines for a person."""
    where = unit_place(moment, unit_id)
    movement = "strategic movement" if kind == "strategic" else "movement"
    if reach.bars:
        return "\n".join([f"{unit_id} at {where} may not move now ({movement}, after {moment.when}):",
                          *(f"  {bar}" for bar in reach.bars)]) + "\n"
    ordered = sorted(reach.hexes.items(), key=lambda item: (item[1], item[0]))
    lines = [f"{unit_id} at {where} reaches {len(ordered)} hex(es) by {movement} after {moment.when} "
             "(hex, cost):"]
    lines += [f"  {label} {cost:g}" for label, cost in ordered]
    return "\n".join(lines) + "\n"


def reach_json(moment: Moment, unit_id: str, kind: str, reach: Reach) -> dict[str, object]:
    """The JSON form of `adjudicate reach`."""
    return {"unit": unit_id, "hex": unit_place(moment, unit_id), "kind": kind, "at": moment.when, **reach.as_dict()}


def reach_marks(reach: Reach, start: str) -> list[Mark]:
    """The hexes in reach shaded, each with its cost, and the unit's hex ringed."""
    hexes = tuple(sorted(reach.hexes))
    marks = [Mark("shade", hexes, "legal")] if hexes else []
    marks += [Mark("label", (label,), "legal", f"{reach.hexes[label]:g}") for label in hexes]
    return [*marks, Mark("ring", (start,), "info")]


def retreats_text(moment: Moment, options: Sequence[RetreatOption]) -> str:
    """Each retreat owed and its legal paths, in lines for a person."""
    if not options:
        return f"no combat result pending after {moment.when} calls for a retreat\n"
    lines = [f"retreats owed after {moment.when}:"]
    for option in options:
        where = unit_place(moment, option.unit)
        lines.append(f"  {option.unit} from {where}, {option.due} hex(es) due:")
        lines += [f"    {'-'.join(path)}" for path in option.paths]
        if option.shorter:
            lines.append("    no full retreat is open; shorter ones (which cost a step too):")
            lines += [f"    {'-'.join(path)}" for path in option.shorter]
        if not option.paths and not option.shorter:
            lines.append("    no retreat is open (the rules take a step, or the unit, instead)")
    return "\n".join(lines) + "\n"


def retreats_json(moment: Moment, options: Sequence[RetreatOption]) -> dict[str, object]:
    """The JSON form of `adjudicate retreats`."""
    return {"at": moment.when, "retreats": [option.as_dict() for option in options]}


def retreat_marks(moment: Moment, options: Sequence[RetreatOption]) -> list[Mark]:
    """Each legal retreat path (shorter ones in the info tone), and the retreating units' hexes ringed."""
    marks = [Mark("path", path, "legal") for option in options for path in option.paths]
    marks += [Mark("path", path, "info") for option in options for path in option.shorter]
    hexes = sorted({unit_place(moment, option.unit) for option in options})
    return [*marks, Mark("ring", tuple(hexes), "defender")] if hexes else marks


def legal_retreats_beside(system: RuleSystem[StateT], before: StateT, entry: Entry) -> list[Mark]:
    """For a picture of a retreat: the other legal paths of that unit's retreat, in the state before it."""
    model = system.movement
    unit = entry.relocated_unit()
    if kind_of(entry) != "retreat" or unit is None or model is None:
        return []
    taken = entry.path_hexes()
    return [Mark("path", path, "legal") for option in model.retreat_options(before) if option.unit == unit
            for path in (*option.paths, *option.shorter) if path != taken]
