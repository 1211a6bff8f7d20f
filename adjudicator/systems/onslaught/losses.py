"""Losses after combat (7.2) and standing fast in fortifications (7.5): what a result asks and what the log did."""

from __future__ import annotations

from adjudicator.findings import Finding, one_error
from adjudicator.notation.entries import Advance, Comment, Entry, Header, Loss, Retreat, StandFast
from adjudicator.systems.onslaught import results
from adjudicator.systems.onslaught.arrivals import OUT_OF_PLAY, box_of, check_arrival_loss
from adjudicator.systems.onslaught.combat import retreat_options_of
from adjudicator.systems.onslaught.results import Effect
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.stacking import check_remove
from adjudicator.systems.onslaught.state import OnslaughtState, on_map, replace, turn_and_step, unit_of


def carries_out(entry: Entry) -> bool:
    """Whether an entry may carry out the combat before it (losses, retreats, standing fast,
    advances) or is a comment; any other entry ends that combat (ruling 7.2: effects come
    right after their attack)."""
    if isinstance(entry, Loss):
        return entry.loss != "remove"
    return isinstance(entry, (Retreat, Advance, StandFast, Comment, Header))


def uncalled(state: OnslaughtState, entry: Entry, section: str, message: str) -> Finding:
    """A result carried out with no combat to call for it: the first since the last attack is the error (7.2: the
    attack left out, most likely), the others after it notes of that one breach."""
    first = state.action_log.uncalled
    if first is None:
        return finding("error", section, entry, f"{turn_and_step(state)}: {message}")
    return finding("note", section, entry, f"{turn_and_step(state)}: {message} (as at line {first}: that error)")


def effect_of(state: OnslaughtState, unit_id: str) -> Effect | None:
    """What the combat under way asks of a division, if it took part."""
    return next((e for e in state.pending if e.unit == unit_id), None)


def track_effect(state: OnslaughtState, unit_id: str, lost: int = 0, retreated: bool = False, short: bool = False,
           stray: bool = False, stood: bool = False) -> OnslaughtState:
    """Record what the log did to a division of the combat under way."""
    pending = tuple(replace(e, lost=e.lost + lost, retreated=e.retreated or retreated, short=e.short or short,
                            stray=e.stray or stray, stood=e.stood or stood) if e.unit == unit_id else e
                    for e in state.pending)
    return replace(state, pending=pending)


def combat_over(state: OnslaughtState, entry: Entry) -> list[Finding]:
    """What the combat under way still owed when another entry ends it (7.2-7.5)."""
    combat = state.combat
    if combat is None:
        return []
    found = results.outstanding(combat, state.pending, lambda: retreat_options_of(state, combat),
                                lambda u: on_map(state, u) is not None)
    # One result left undone is one breach: its first part the error, the others notes; a part that is the other
    # half of a breach already reported (the stack left alone for a wrong one) is a note too.
    return one_error([finding("note" if follows else "error", section, entry, message)
                      for section, message, follows in found], "more of the same result left undone: one error")


def check_loss(state: OnslaughtState, entry: Loss) -> list[Finding]:
    if entry.loss == "remove":
        return check_remove(state, entry)
    verb = "depleted" if entry.loss == "deplete" else "eliminated"
    how = loss_of(state, entry)
    combat = state.combat
    arriving = check_arrival_loss(state, entry) if combat is None else None
    if arriving is not None:
        return arriving
    if on_map(state, entry.unit) is None:
        return [finding("error", "7.2", entry, f"{entry.unit} is not on the map "
                                               f"({state.location.get(entry.unit) or 'not in play'})")]
    if combat is None:
        return [uncalled(state, entry, "7.2", f"no combat result calls for {entry.unit} to be {verb}")]
    effect = effect_of(state, entry.unit)
    if effect is None:
        return [finding("error", "7.2", entry, f"{entry.unit} took no part in {combat.name}; no result calls "
                                               f"for it to be {verb}")]
    # Ruling 7.2: `deplete` of a division already depleted is its elimination, the loss the rules make of it; a
    # note says how it was read, unless the loss itself breaks the result (then that error alone).
    out = [finding("note", "7.2", entry, f"{entry.unit} is already depleted: its further loss is its elimination "
                                         "(read as `eliminate`)")] if how != entry.loss else []
    if combat.result is None:
        return out
    lost = effect.lost + 1 if how == "deplete" else max(effect.lost, effect.steps)
    halving = combat.halving
    wrong = results.halving_problem(combat, state.pending, entry.unit) if not effect.defends else None
    if halving is not None and wrong is not None:
        return [finding("error", halving.rule, entry, f"{combat.verdict}: {wrong}")]
    allowed = results.allowed(effect, lambda: retreat_options_of(state, combat))
    if lost <= allowed:
        return out
    if effect.defends and effect.retreat and not (effect.retreated or effect.stood) and allowed == effect.loss:
        two, _ = retreat_options_of(state, combat)
        message = (f"{entry.unit} can retreat two hexes (to {', '.join(two)}), so {combat.verdict} does not "
                   f"leave it {results.fate(effect.steps, lost)}")
        return [finding("error", "7.3", entry, message)]
    section = "7.5" if effect.stood else "7.2"
    if not effect.defends and effect.loss == 0 and halving is not None:
        first = results.wrongly_halved(combat, state.pending)
        if first is not None and entry.unit in first.units:
            # A stack is depleted as a whole: its first division's entry carried the error (one breach, one error).
            return [finding("note", halving.rule, entry, f"{entry.unit} is of the stack at {first.hex}, depleted in "
                                                         "place of the one the result depletes (reported at its first "
                                                         "division: one error)")]
        section = halving.rule
        stack = results.stack_of(combat, entry.unit)
        where = f" at {stack.hex}" if stack is not None else ""
        message = f"{combat.verdict}: {halving.what}: {results.choices(halving.ways)}, not {entry.unit}{where}"
    elif allowed == 0:
        message = f"{combat.verdict} takes no loss from {entry.unit}"
    else:
        message = (f"{combat.verdict} leaves {entry.unit} {results.fate(effect.steps, allowed)}, not "
                   f"{results.fate(effect.steps, lost)}")
    return [finding("error", section, entry, message)]


def check_stand(state: OnslaughtState, entry: StandFast) -> list[Finding]:
    combat = state.combat
    if combat is None:
        return [uncalled(state, entry, "7.5", "no combat result to stand against")]
    out: list[Finding] = []
    game = state.game
    fortified = "fortification" in game.hex_terrain.get(game.grid.hex_of(combat.hex), ())
    if not fortified:
        out.append(finding("error", "7.5", entry, f"{combat.hex} is not a fortification hex; only its defenders "
                                                  "may stand instead of retreating"))
    if combat.result is not None and combat.result != "DR":
        out.append(finding("error", "7.5", entry, f"divisions in a fortification stand against a DR result, not "
                                                  f"{combat.result} ({combat.name})"))
    for unit_id in dict.fromkeys(entry.units):
        effect = effect_of(state, unit_id)
        if effect is None or not effect.defends:
            out.append(finding("error", "7.5", entry, f"{unit_id} did not defend in {combat.name}"))
        elif unit_of(state, unit_id).side != "German":
            out.append(finding("error", "7.5", entry, f"{unit_id} is not German; only German divisions stand in "
                                                      "fortifications"))
        elif effect.stood or effect.retreated or state.location.get(unit_id) != combat.hex:
            out.append(finding("error", "7.5", entry, f"{unit_id} has already stood or left {combat.hex}"))
    if len(entry.units) != len(set(entry.units)):
        out.append(finding("error", "7.5", entry, "a division is named twice"))
    return out


def apply_loss(state: OnslaughtState, unit_id: str, loss: str) -> OnslaughtState:
    """A division depleted, or eliminated (or removed) to its side's Eliminated Units box;
    an eliminated paratroop division leaves play for good (9.3)."""
    if loss == "deplete":
        return replace(state, depleted=state.depleted | {unit_id})
    unit = unit_of(state, unit_id)
    box = OUT_OF_PLAY if unit.type == "paratroop" else box_of(state.game, "eliminated", unit.side)
    return replace(state, location={**state.location, unit_id: box}, depleted=state.depleted - {unit_id})


def apply_stand(state: OnslaughtState, entry: StandFast) -> OnslaughtState:
    """7.5: standing fast implies the depletion (an already depleted division is eliminated)."""
    for unit_id in dict.fromkeys(entry.units):
        state = track_effect(state, unit_id, stood=True, lost=1)
        state = apply_loss(state, unit_id, "eliminate" if unit_id in state.depleted else "deplete")
    return state


def loss_of(state: OnslaughtState, entry: Loss) -> str:
    """The loss an entry makes: `deplete` of a division already depleted on the map is its elimination (ruling 7.2:
    the notation's two words name the same loss there)."""
    if entry.loss == "deplete" and entry.unit in state.depleted and on_map(state, entry.unit) is not None:
        return "eliminate"
    return entry.loss


def written_again(state: OnslaughtState, entry: Loss) -> bool:
    """Whether a `deplete` repeats the depletion this combat has already given the division (a stand's, 7.5, or
    an earlier `deplete`), its result calling for no more: the same loss written twice, its one error, which changes
    nothing on the map (read as the elimination it would be, the division's later retreat or move would be refused
    too: one breach, several errors)."""
    effect = effect_of(state, entry.unit)
    return loss_of(state, entry) != entry.loss and effect is not None and effect.lost > 0 and \
        any(f.severity == "error" for f in check_loss(state, entry))


def apply_loss_entry(state: OnslaughtState, entry: Loss) -> OnslaughtState:
    """A loss as the log writes it (7.2, 6.3 removals; 10.2: a reinforcement no entry hex can supply)."""
    if written_again(state, entry):
        return state
    how = loss_of(state, entry)
    if how == "eliminate" and state.location.get(entry.unit) is None:
        # 10.2: a reinforcement no entry hex can supply leaves play for good.
        return replace(state, location={**state.location, entry.unit: OUT_OF_PLAY})
    if how != "remove":
        effect = effect_of(state, entry.unit)
        if effect is not None:
            lost = effect.lost + 1 if how == "deplete" else max(effect.lost, effect.steps)
            state = track_effect(state, entry.unit, lost=lost - effect.lost)
    return apply_loss(state, entry.unit, how)
