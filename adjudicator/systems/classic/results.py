"""Combat results carried out: step losses (and an exchange's strength), retreats and advances after combat, and
what a result still owes when the log moves on (one error a result left undone)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from adjudicator.contract import AdvanceOption, RetreatOption
from adjudicator.findings import Finding, Severity, one_error
from adjudicator.notation.entries import Advance, Entry, Loss, Retreat
from adjudicator.systems.classic.base import (
    Role, eliminated_box, enemy_of, finding, noted_overstack, off_the_map, rules_of, stack_count, steps_left,
    strength_lost, unit_of, zone_of,
)
from adjudicator.systems.classic.victory import entered
from adjudicator.systems.classic.state import ClassicState, Pending, evolve, relocate
from wargame.hexes import Hex, Hexside


def carries_out(entry: Entry) -> bool:
    """Whether an entry is part of carrying out a combat result (a loss, retreat or advance)."""
    return isinstance(entry, (Loss, Retreat, Advance))


def owed(state: ClassicState, entry: Entry | None, line: int = 0) -> list[Finding]:
    """What the pending result still owes when the log moves on: one result left undone is one breach, its first part
    the error and each other unit's or obligation's a note (the rulings register: one reading in every system)."""
    return one_error(_owed(state, entry, line), "more of the same result left undone: one error")


def _owed(state: ClassicState, entry: Entry | None, line: int = 0) -> list[Finding]:
    """`owed` worked out: each unit's and obligation's part."""
    p = state.pending
    if p is None or p.refused:
        # An attack the rules refused owes nothing (its one error is at the attack): one breach, one error.
        return []
    if p.alternative is not None:
        # After a wrong result claim (its one error is on the attack) what is owed is the table's (nothing
        # when the players carried it out instead of their claim), never the claim's.
        claim = owed(evolve(state, pending=replace(p, alternative=None)), entry, line)
        return owed(evolve(state, pending=p.alternative), entry, line) if claim else []
    section = rules_of(state).results[p.code].source
    out: list[Finding] = []
    on = f"the {p.code} on {p.named()} (line {p.line})"
    grid = state.game.grid
    # A loss written for a unit that owed none (its error given there) is the step losses left owed: one breach.
    losses: Severity = "note" if p.misdirected else "error"
    why = f" (not a breach of its own: the loss on line {p.misdirected} went to a unit that owed none)" \
        if p.misdirected else ""
    # A defender's loss left owed after an advance into its hex (its one error given there) is that mistake.
    owing: Severity = "note" if p.loss_excuse else losses
    because = f" (not a breach of its own: {p.loss_excuse})" if p.loss_excuse and not p.misdirected else why
    for u, n in sorted(p.defender_steps.items()):
        # Owed wherever the unit stands: a retreat written before the loss does not carry the loss out.
        if n > 0 and grid.is_label(state.location.get(u, "")):
            out.append(finding(state, owing, section, entry, f"{u} still owes {n} step loss(es) from {on}{because}",
                               line))
    # A retreat left owed after the entry that took its place (its one error given there) is that mistake, and is
    # judged on the position without an attacker that advanced before the defenders left.
    retreats: Severity = "note" if p.retreat_excuse else "error"
    excuse = f" (not a breach of its own: {p.retreat_excuse})" if p.retreat_excuse else ""
    judged = _without_early_advances(state, p)
    for u, n in sorted(p.attacker_retreats.items()):
        if n > 0 and state.location.get(u) == p.began.get(u):
            retreat = rules_of(state).rules.combat.retreat
            blocked = not _retreat_paths(judged, u, n, p)
            out.append(finding(state, retreats, retreat.source, entry,
                               f"attacker {u} has no legal retreat of {n} hex(es) after {on}: it is eliminated "
                               f"(write 'eliminate {u}')" if blocked and retreat.blocked == "eliminated" else
                               f"attacker {u} did not retreat {n} hex(es) after {on}{excuse}", line))
    for u, n in sorted(p.retreats.items()):
        if n > 0 and state.location.get(u) == p.began.get(u) and p.defender_steps.get(u, 0) == 0:
            retreat = rules_of(state).rules.combat.retreat
            blocked = not _retreat_paths(judged, u, n, p)
            out.append(finding(state, retreats, retreat.source, entry,
                               f"{u} has no legal retreat of {n} hex(es) after {on}: it is eliminated (write "
                               f"'eliminate {u}')" if blocked and retreat.blocked == "eliminated" else
                               f"{u} did not retreat {n} hex(es) after {on}{excuse}", line))
    if p.attacker_steps > 0:
        out.append(finding(state, losses, section, entry, f"the attackers ({', '.join(p.attackers)}) still owe "
                           f"{p.attacker_steps} step loss(es) from {on}{why}", line))
    if p.attacker_strength > 0:
        out.append(finding(state, losses, section, entry, f"the attackers ({', '.join(p.attackers)}) lost "
                           f"{float(p.defender_lost - p.attacker_strength):g} printed strength of the "
                           f"{float(p.defender_lost):g} at least that the {p.code} on {p.named()} (line {p.line}) costs "
                           f"them{why}", line))
    return out


def has_no_combat(state: ClassicState, entry: Entry) -> bool:
    """Whether an entry carries out a result for a unit of no combat being carried out (none resolved, or the unit
    took no part in it)."""
    p = state.pending
    unit = entry.unit if isinstance(entry, (Loss, Retreat, Advance)) else None
    if unit is None:
        return False
    if p is None:
        return True
    return unit not in p.attackers if isinstance(entry, Advance) else unit not in (*p.attackers, *p.defenders)


def unretreated(state: ClassicState) -> dict[str, str]:
    """The units the pending result still makes retreat (where they stood when it was resolved) as the log moves on,
    each with what it owed (for a message)."""
    p = state.pending
    if p is None or p.refused:
        return {}
    if p.alternative is not None and owed(evolve(state, pending=replace(p, alternative=None)), None):
        # After a wrong claim what is owed is the table's result (`owed`).
        p = p.alternative
    on = f"the {p.code} on {p.named()} (line {p.line})"
    due = (*p.retreats.items(), *p.attacker_retreats.items())
    return {u: f"{u} owed a retreat after {on}, never written" for u, n in due
            if n > 0 and state.location.get(u) == p.began.get(u) and p.defender_steps.get(u, 0) == 0}


def retreat_ends(state: ClassicState) -> dict[str, frozenset[str]]:
    """Where each unit the pending result still makes retreat (`unretreated`) could lawfully have retreated to."""
    p = state.pending
    if p is None or p.refused:
        return {}
    if p.alternative is not None and owed(evolve(state, pending=replace(p, alternative=None)), None):
        p = p.alternative
    judged = _without_early_advances(state, p)
    due = {**p.attacker_retreats, **p.retreats}
    return {u: frozenset(path[-1] for path in _retreat_paths(judged, u, due[u], p)) for u in unretreated(state)}


def losses_as_owed(state: ClassicState) -> ClassicState:
    """The position with the defenders' step losses the pending result still owes taken, as the log moves on with them
    never written (their one error given): the faces and the eliminated box the table gives, which the players go on
    from (no choice is left open, as a retreat's path or the attackers' choice of units is)."""
    p = state.pending
    if p is None or p.refused:
        return state
    if p.alternative is not None and owed(evolve(state, pending=replace(p, alternative=None)), None):
        p = p.alternative
    gone: dict[str, str] = {}
    reduced = set(state.reduced)
    further = dict(state.further)
    for u, n in sorted(p.defender_steps.items()):
        left = steps_left(state, u)
        if state.hex_of(u) is None or n <= 0 or left <= 0:
            continue
        further.pop(u, None)
        if n >= left:
            gone[u] = eliminated_box(state, unit_of(state, u).side)
            reduced.discard(u)
            continue
        face, more = _face_after(u in state.reduced, state.further.get(u, 0), n)
        if face:
            reduced.add(u)
        if more:
            further[u] = more
    if not gone and reduced == state.reduced and further == state.further:
        return state
    return relocate(state, gone, frozenset(reduced), further=further)


def _without_early_advances(state: ClassicState, p: Pending) -> ClassicState:
    """The position a retreat is judged on: an attacker that advanced into the combat's hex while its defenders were
    still there (the advance's one error) counted where it stood when the combat was resolved."""
    back = {u: p.began[u] for u in p.advanced if u in p.began and state.location.get(u) in p.defended()
            and any(v in p.defenders for v in state.units_in(state.location[u]))}
    return relocate(state, back) if back else state


def _owes_nothing(p: Pending, unit_id: str) -> bool:
    """Whether a unit owes no loss from a combat (and no retreat, which a blocked one turns into an elimination)."""
    if unit_id in p.defenders:
        return p.defender_steps.get(unit_id, 0) == 0 and p.retreats.get(unit_id, 0) == 0
    if unit_id in p.attackers:
        return p.attacker_steps == 0 and p.attacker_strength == 0 and p.attacker_retreats.get(unit_id, 0) == 0
    return True


def check_loss(state: ClassicState, entry: Loss) -> list[Finding]:
    """A step lost (or a unit eliminated) as the pending result owes, by the side that owes it."""
    t = rules_of(state)
    p = state.pending
    # Losses are the results' (8.0-style): with none being carried out, the section every result cites (the combat
    # section where the results cite several).
    cited = {r.source for r in t.rules.combat.results}
    section = t.results[p.code].source if p is not None else cited.pop() if len(cited) == 1 else \
        t.rules.combat.source
    if entry.loss == "remove":
        return [finding(state, "error", section, entry, f"'remove' is not a loss of this game; write deplete or "
                        f"eliminate {entry.unit}")]
    left = steps_left(state, entry.unit)
    where = state.location.get(entry.unit)
    if where is None or not state.game.grid.is_label(where):
        return [finding(state, "error", section, entry, f"{entry.unit} is not on the map; it has no step to lose")]
    if p is None:
        return [finding(state, "error", section, entry, f"no combat result makes {entry.unit} lose a step here")]
    # A unit's last step lost is the unit eliminated (a one-step unit, or one on its last face): `deplete` then
    # reads as `eliminate`, as a tournament director reads "it loses its only step".
    loss = "eliminate" if entry.loss == "eliminate" or left == 1 else "deplete"
    taking = left if loss == "eliminate" else 1
    # Read so, lawful or not, and said in a note where lawful (the rulings register: one reading in every system).
    lawful = [finding(state, "note", section, entry, f"{entry.unit} has one step left, so 'deplete' is read as its "
                      "elimination, the loss of its last step; 'eliminate' says so outright")] \
        if entry.loss == "deplete" and left == 1 else []
    if entry.unit in p.defenders:
        due = p.defender_steps.get(entry.unit, 0)
        if due == 0 and p.retreats.get(entry.unit, 0) > 0:
            blocked = _retreat_paths(state, entry.unit, p.retreats[entry.unit], p)
            if loss == "eliminate" and not blocked:
                return lawful
            if blocked:
                return [finding(state, "error", t.rules.combat.retreat.source, entry, f"{entry.unit} can retreat "
                                f"(e.g. {'-'.join(blocked[0])}); it is not eliminated instead")]
        if taking > due:
            return [finding(state, "error", section, entry, f"the {p.code} on {p.named()} (line {p.line}) costs "
                            f"{entry.unit} {due} step(s), not {taking}")]
        return lawful
    if entry.unit in p.attackers:
        due_retreat = p.attacker_retreats.get(entry.unit, 0)
        if due_retreat > 0 and state.location.get(entry.unit) == p.began.get(entry.unit) and \
                p.attacker_steps == 0 and p.attacker_strength == 0:
            # An attacker the result makes retreat, as a defender: eliminated only when no retreat is open.
            paths = _retreat_paths(state, entry.unit, due_retreat, p)
            if loss == "eliminate" and not paths and t.rules.combat.retreat.blocked == "eliminated":
                return lawful
            if paths:
                return [finding(state, "error", t.rules.combat.retreat.source, entry, f"{entry.unit} can retreat "
                                f"(e.g. {'-'.join(paths[0])}); it is not eliminated instead")]
        if p.attacker_strength > 0:
            # An exchange (the result's section): the attacker picks the steps, a step at a time, while the defender's
            # loss is not yet matched; "at least" lets only the step that matches it pay more than is owed.
            enough = next(n for n in range(1, taking + 1)
                          if n == taking or strength_lost(state, entry.unit, n, "attack") >= p.attacker_strength)
            if enough < taking:
                return [finding(state, "error", section, entry, f"the attackers owe {float(p.attacker_strength):g} "
                                f"more printed strength for the {p.code} on {p.named()} (line {p.line}): {enough} "
                                f"step(s) of {entry.unit} pay it, not {taking}; a step is lost only while the "
                                "defender's loss is not matched")]
            return lawful
        if taking > p.attacker_steps:
            return [finding(state, "error", section, entry, f"the {p.code} on {p.named()} (line {p.line}) costs the "
                            f"attackers {p.attacker_steps} step(s) more, not {taking}")]
        return lawful
    return [finding(state, "error", section, entry, f"{entry.unit} took no part in the combat on {p.named()} "
                    f"(line {p.line}); only its units lose steps from it")]


def apply_loss(state: ClassicState, entry: Loss) -> ClassicState:
    """The unit flipped to its reduced face, or eliminated; what the result owes reduced."""
    unit = unit_of(state, entry.unit)
    left = steps_left(state, entry.unit)
    p = state.pending
    taken = left if entry.loss == "eliminate" else 1
    role: Role = "attack" if p is not None and entry.unit in p.attackers else "defence"
    value = strength_lost(state, entry.unit, taken, role)
    further = {u: n for u, n in state.further.items() if u != entry.unit}
    if entry.loss == "eliminate" or left == 1:
        after = relocate(state, {entry.unit: eliminated_box(state, unit.side)}, state.reduced - {entry.unit},
                         further=further)
    elif entry.unit in state.reduced:
        # A unit of three or four steps turns to its next face below the reduced one.
        after = evolve(state, further={**further, entry.unit: state.further.get(entry.unit, 0) + 1})
    else:
        after = evolve(state, reduced=state.reduced | {entry.unit})
    if p is None:
        return after
    if (entry.loss == "eliminate" or left == 1) and (entry.unit in p.defenders or entry.unit in p.attackers) and \
            any(f.severity == "error" for f in check_loss(state, entry)):
        # Eliminated against the result (its one error given at the loss): a retreat or advance written for it after
        # carries the result out from where it stood, on the face the result left it (one mistake, one error).
        face = _face_after(entry.unit in state.reduced, state.further.get(entry.unit, 0), _steps_owed(state, p, entry))
        p = _with_alternative(p, eliminated_against={**p.eliminated_against, entry.unit: (entry.line, *face)})
    if not p.misdirected and _owes_nothing(p, entry.unit):
        # The loss went to a unit that owed none (its error given at it): remembered, in the table's branch too.
        alternative = evolve(p.alternative, misdirected=entry.line) if p.alternative is not None else None
        p = evolve(p, misdirected=entry.line, alternative=alternative)
    if entry.unit in p.defenders:
        due = dict(p.defender_steps)
        due[entry.unit] = max(due.get(entry.unit, 0) - taken, 0)
        p = evolve(p, defender_steps=due)
    elif entry.unit in p.attackers:
        p = evolve(p, attacker_steps=max(p.attacker_steps - taken, 0),
                    attacker_strength=max(p.attacker_strength - value, Fraction(0)))
    return evolve(after, pending=p)


def _retreat_paths(state: ClassicState, unit_id: str, hexes: int, p: Pending) -> list[tuple[str, ...]]:
    """Every legal retreat of the full length for a unit (labels, its hex first)."""
    t = rules_of(state)
    rules = t.rules.combat.retreat
    grid = state.game.grid
    start = state.hex_of(unit_id)
    if start is None:
        return []
    side = unit_of(state, unit_id).side
    enemy = enemy_of(state, side)
    zoc = zone_of(state, enemy) if rules.enemy_zoc == "prohibited" else frozenset()
    out: list[tuple[str, ...]] = []

    def walk(path: list[Hex]) -> None:
        if len(path) - 1 == hexes:
            out.append(tuple(grid.label_of(h) for h in path))
            return
        here = path[-1]
        for n in grid.neighbours_on_map(here):
            if n in path or not _open(state, n, side, zoc, here):
                continue
            if rules.away and n.distance(start) <= here.distance(start):
                continue
            walk([*path, n])
    walk([start])
    if rules.extend_to_empty:
        longer: list[tuple[str, ...]] = []
        for path in out:
            longer += _extended(state, path, side, zoc)
        return longer
    limit = t.rules.stacking.limit
    return [path for path in out if stack_count(state, [*[u for u in state.units_in(path[-1])
                                                          if u != unit_id], unit_id]) <= limit]


def _extended(state: ClassicState, path: tuple[str, ...], side: str, zoc: frozenset[Hex]) -> list[tuple[str, ...]]:
    """A retreat ending on friendly units carried on, away from its start, to each first empty hex."""
    if not state.units_in(path[-1]):
        return [path]
    grid = state.game.grid
    start, here = grid.hex_of(path[0]), grid.hex_of(path[-1])
    out: list[tuple[str, ...]] = []
    for n in grid.neighbours_on_map(here):
        label = grid.label_of(n)
        if label in path or n.distance(start) <= here.distance(start) or not _open(state, n, side, zoc, here):
            continue
        out += _extended(state, (*path, label), side, zoc)
    return out


def _open(state: ClassicState, h: Hex, side: str, zoc: frozenset[Hex], before: Hex) -> bool:
    """Whether a retreat may enter a hex: on the map, no enemy unit, not prohibited, not an enemy zone."""
    t = rules_of(state)
    rules = t.rules.combat.retreat
    label = state.game.grid.label_of(h)
    holder = state.side_in(label)
    if holder is not None and holder != side:
        return False
    if holder == side and not rules.through_friendly:
        return False
    if t.hex_cost.get(h) is None or t.side_add.get(Hexside.between(before, h), 0) is None:
        return False
    if any(x in rules.prohibited_terrain for x in state.game.hex_terrain.get(h, ())):
        return False
    return h not in zoc


def check_retreat(state: ClassicState, entry: Retreat) -> list[Finding]:
    """A retreat the pending result owes: its full length, hex by hex away from the combat, into no enemy unit,
    prohibited terrain or enemy zone, ending within the stacking limit."""
    t = rules_of(state)
    rules = t.rules.combat.retreat
    section = rules.source
    p = state.pending
    # A defender's retreat, or an attacker's where the result makes the attackers retreat (chosen by their owner).
    due = 0 if p is None else p.retreats.get(entry.unit, 0) or p.attacker_retreats.get(entry.unit, 0)
    attacker = p is not None and not p.retreats.get(entry.unit, 0) and bool(p.attacker_retreats.get(entry.unit, 0))
    if p is None or due == 0:
        others = sorted(u for u, n in (*p.retreats.items(), *p.attacker_retreats.items()) if n > 0) if p else []
        owing = f"; the {p.code} on {p.named()} (line {p.line}) makes {', '.join(others)} retreat" \
            if p is not None and others else ""
        return [finding(state, "error", section, entry, f"no combat result makes {entry.unit} retreat here{owing}")]
    restored = _restored(state, entry.unit)
    if restored is not None:
        return _as_found(restored[0], restored[1], section, entry, check_retreat(restored[0], entry))
    where = state.location.get(entry.unit)
    if entry.path[0] != where:
        return [finding(state, "error", section, entry, f"{entry.unit} is in {where}, not {entry.path[0]}; a "
                        "retreat starts from the unit's hex")]
    off = off_the_map(state, entry.unit, entry.path, "retreats")
    if off is not None:
        # 8.1: a retreat runs on the map; a unit with no retreat on it suffers what the rules give (`blocked`).
        none = not _retreat_paths(state, entry.unit, due, p)
        fate = (f"; {entry.unit} has no legal retreat on the map, so it is eliminated: write 'eliminate "
                f"{entry.unit}'" if none and rules.blocked == "eliminated" else "; a retreat stays on the map")
        return [finding(state, "error", section, entry, off + fate)]
    grid = state.game.grid
    side = unit_of(state, entry.unit).side
    zoc = zone_of(state, enemy_of(state, side)) if rules.enemy_zoc == "prohibited" else frozenset()
    hexes = [grid.hex_of(x) for x in entry.path]
    start = hexes[0]
    for i, (a, b) in enumerate(zip(hexes, hexes[1:])):
        la, lb = entry.path[i], entry.path[i + 1]
        if not a.is_adjacent(b):
            return [finding(state, "error", section, entry, f"{entry.unit}'s retreat skips from {la} to {lb}")]
        if b in hexes[:i + 1] or (rules.away and b.distance(start) <= a.distance(start)):
            return [finding(state, "error", section, entry, f"{entry.unit}'s retreat to {lb} does not take it "
                            f"farther from {entry.path[0]}; each hex of a retreat is farther away")]
        if not _open(state, b, side, zoc, a):
            why = "an enemy zone of control" if b in zoc else "enemy units or terrain it may not enter"
            return [finding(state, "error", section, entry, f"{entry.unit} may not retreat into {lb}: {why}")]
    length = len(entry.path) - 1
    if rules.chooser == "opponent" and not attacker and entry.side == side:
        # `Side:` and `Side>` alike name the side that decided (docs/log-format.md; the VASSAL reader writes the side
        # of the player who dragged the counter): the defender's own choice, either way.
        enemy = enemy_of(state, side)
        return [finding(state, "error", section, entry, f"the {enemy} player chooses where {entry.unit} retreats, not "
                        f"{side} ('{side}{'>' if entry.by_opponent else ':'}' records the {side} player's decision; "
                        f"the attacker's is written '{enemy}: retreat')")]
    if rules.extend_to_empty and length >= due:
        crowded = [x for x in entry.path[due:] if state.units_in(x)]
        if state.units_in(entry.path[-1]):
            return [finding(state, "error", section, entry, f"{entry.unit}'s retreat ends in {entry.path[-1]} with "
                            f"{', '.join(state.units_in(entry.path[-1]))}; a retreat goes on to an empty hex")]
        if length > due and len(crowded) < length - due:
            return [finding(state, "error", section, entry, f"{entry.unit} retreated {length} hex(es); the result "
                            f"makes it retreat {due}, farther only past friendly units to an empty hex")]
        length = due
    if length != due:
        paths = _retreat_paths(state, entry.unit, due, p)
        if length < due and not paths:
            return [finding(state, "error", section, entry, f"{entry.unit} cannot retreat the {due} hex(es) it "
                            f"owes; it is eliminated ({rules.blocked}), not retreated {length}")]
        return [finding(state, "error", section, entry, f"{entry.unit} retreated {length} hex(es); the result "
                        f"makes it retreat {due}")]
    limit = t.rules.stacking.limit
    there = [u for u in state.units_in(entry.path[-1]) if u != entry.unit]
    if stack_count(state, [*there, entry.unit]) > limit:
        return [finding(state, "error", t.rules.stacking.source, entry, f"{entry.unit}'s retreat ends in "
                        f"{entry.path[-1]} with {', '.join(there)}, over the stacking limit of {limit}")]
    return []


def apply_retreat(state: ClassicState, entry: Retreat) -> ClassicState:
    """The unit at its retreat's end; the retreat no longer owed."""
    restored = _restored(state, entry.unit)
    if restored is not None:
        # The result carried out after all: the unit retreats from where it stood, on its face then.
        state = restored[0]
    p = state.pending
    after = relocate(state, {entry.unit: entry.path[-1]})
    if p is not None and not p.retreat_excuse and not (p.retreats.get(entry.unit) or
                                                         p.attacker_retreats.get(entry.unit)):
        # The retreat went to a unit that owed none (its one error given at it): the retreat owed is that mistake.
        p = _excused(p, f"the retreat on line {entry.line} was written for {entry.unit}, which owed none")
    if p is not None:
        p = evolve(p, retreats={**p.retreats, entry.unit: 0},
                    attacker_retreats={**p.attacker_retreats, entry.unit: 0} if entry.unit in p.attacker_retreats
                    else p.attacker_retreats)
        after = evolve(after, pending=p)
    return noted_overstack(entered(after, unit_of(state, entry.unit).side, entry.path[1:]), entry.path[-1])


def check_advance(state: ClassicState, entry: Advance) -> list[Finding]:
    """An advance after combat: an attacker of the combat just resolved, into the hex its defenders left
    (and no farther than the rules allow), while the result lets attackers advance."""
    t = rules_of(state)
    rules = t.rules.combat.advance
    section = rules.source
    p = state.pending
    if p is None:
        return [finding(state, "error", section, entry, f"no combat has just been resolved; {entry.unit} cannot "
                        "advance")]
    if entry.unit not in p.attackers:
        # An attacker of an earlier battle: its advance was due at once, before the next battle was resolved.
        late = " (its battle came before, and an advance follows its own battle at once)" \
            if entry.unit in state.log.attacked else ""
        return [finding(state, "error", section, entry, f"{entry.unit} did not attack {p.named()}, the combat "
                        f"just resolved; only its attackers advance{late}")]
    if p.advances_left <= 0 or rules.units == 0:
        return [finding(state, "error", section, entry, f"no more units may advance into {p.named()} (at most "
                        f"{rules.units})")]
    into = entry.path[1] if len(entry.path) > 1 and entry.path[1] in p.defended() else p.hex
    if state.units_in(into) and state.side_in(into) != unit_of(state, entry.unit).side:
        return [finding(state, "error", section, entry, f"{into} still holds {', '.join(state.units_in(into))}; "
                        "attackers advance only into a hex left empty")]
    restored = _restored(state, entry.unit)
    if restored is not None:
        return _as_found(restored[0], restored[1], section, entry, check_advance(restored[0], entry))
    if entry.path[0] != state.location.get(entry.unit):
        return [finding(state, "error", section, entry, f"{entry.unit} is in {state.location.get(entry.unit)}, "
                        f"not {entry.path[0]}")]
    if len(entry.path) < 2 or entry.path[1] not in p.defended() or len(entry.path) - 1 > rules.hexes:
        return [finding(state, "error", section, entry, f"an advance enters {' or '.join(p.defended())} first and "
                        f"goes at most {rules.hexes} hex(es); {entry.unit} went {'-'.join(entry.path)}")]
    return []


def apply_advance(state: ClassicState, entry: Advance) -> ClassicState:
    """The attacker in the hex it advanced to."""
    restored = _restored(state, entry.unit)
    if restored is not None:
        # The advance the result allowed after all: from where the attacker stood, on its face then.
        state = restored[0]
    p = state.pending
    after = relocate(state, {entry.unit: entry.path[-1]})
    if p is not None:
        if not p.retreat_excuse and any(u in p.defenders for u in state.units_in(entry.path[-1])):
            # An advance into the hex its defenders still hold (its one error given at it) took the place of their
            # retreat, or of the losses that empty it.
            p = _excused(p, f"the advance on line {entry.line} went into {entry.path[-1]} before it")
            p = _with_alternative(p, loss_excuse=p.retreat_excuse)
        # An advance by a unit of another combat (its one error given) spends none of this one's advances.
        spent = 1 if entry.unit in p.attackers else 0
        after = evolve(after, pending=evolve(p, advances_left=p.advances_left - spent,
                                               advanced=p.advanced | {entry.unit}))
    return entered(after, unit_of(state, entry.unit).side, entry.path[1:])


def _steps_owed(state: ClassicState, p: Pending, entry: Loss) -> int:
    """The steps of a loss's unit the pending result takes (fewer than it has: the loss that eliminated it was more
    than owed)."""
    left = steps_left(state, entry.unit)
    if entry.unit in p.defenders:
        return min(p.defender_steps.get(entry.unit, 0), left - 1)
    if p.attacker_strength > 0:
        # An exchange: the steps that match the defender's loss.
        return next((n for n in range(1, left) if strength_lost(state, entry.unit, n, "attack") >= p.attacker_strength),
                    left - 1)
    return min(p.attacker_steps, left - 1)


def _face_after(reduced: bool, further: int, steps: int) -> tuple[bool, int]:
    """A unit's face (reduced, steps past the reduced face) after losing some steps short of its last."""
    if steps == 0:
        return reduced, further
    return True, further + steps - (0 if reduced else 1)


def _with_alternative(p: Pending, **changes: object) -> Pending:
    """A pending result with some fields changed, in the table's branch too."""
    alternative = evolve(p.alternative, **changes) if p.alternative is not None else None
    return evolve(p, alternative=alternative, **changes)


def _restored(state: ClassicState, unit_id: str) -> tuple[ClassicState, int] | None:
    """The position with a unit eliminated against the pending result back where the result found it, on its face
    then, and the line of that loss (None: the unit was not so eliminated, or is on the map again)."""
    p = state.pending
    if p is None or unit_id not in p.eliminated_against or state.hex_of(unit_id) is not None:
        return None
    line, reduced, further = p.eliminated_against[unit_id]
    faces = {u: n for u, n in state.further.items() if u != unit_id} | ({unit_id: further} if further else {})
    back = relocate(state, {unit_id: p.began[unit_id]},
                    state.reduced | {unit_id} if reduced else state.reduced - {unit_id}, further=faces)
    return back, line


def _as_found(back: ClassicState, line: int, section: str, entry: Retreat | Advance,
              own: list[Finding]) -> list[Finding]:
    """A retreat or advance written for a unit eliminated against the result, judged from where the result found it
    (`own`): its own breach, else a note that it is read so."""
    return own or [finding(back, "note", section, entry, f"{entry.unit} was eliminated on line {line} against the "
                           f"result (its one error there); its {entry.kind} is read from {back.location[entry.unit]}, "
                           "where the result found it")]


def _excused(p: Pending, why: str) -> Pending:
    """A result whose retreats left owed are no breach of their own, and why (in the table's branch too)."""
    alternative = evolve(p.alternative, retreat_excuse=why) if p.alternative is not None else None
    return evolve(p, retreat_excuse=why, alternative=alternative)


def retreat_options(state: ClassicState) -> list[RetreatOption]:
    """The retreats the pending result still owes, with every legal path."""
    p = state.pending
    if p is None:
        return []
    return [RetreatOption(u, n, tuple(_retreat_paths(state, u, n, p)))
            for u, n in sorted(p.retreats.items()) if n > 0 and state.location.get(u) == p.began.get(u)] + \
        [RetreatOption(u, n, tuple(_retreat_paths(state, u, n, p)))
         for u, n in sorted(p.attacker_retreats.items()) if n > 0 and state.location.get(u) == p.began.get(u)]


def advance_options(state: ClassicState) -> list[AdvanceOption]:
    """The advances open now: each attacker into each attacked hex left empty."""
    p = state.pending
    if p is None or p.advances_left <= 0:
        return []
    empty = [label for label in p.defended() if not state.units_in(label)]
    if not empty:
        return []
    return [AdvanceOption(u, tuple((state.location[u], label) for label in empty)) for u in p.attackers
            if u not in p.advanced and state.hex_of(u) is not None]
