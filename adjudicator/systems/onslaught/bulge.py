"""The Battle of the Bulge (12.0): the German counteroffensive's declaration."""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import Declare
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import OnslaughtState, replace, turn_and_step
from adjudicator.systems.onslaught.supply import capped, gained
from adjudicator.systems.onslaught.victory import apply_claim
from wargame.errors import did_you_mean


def check_declare(state: OnslaughtState, entry: Declare) -> list[Finding]:
    if entry.what == "victory":
        return []  # a claim of victory: victory.check_claim
    if entry.what != "bulge":
        return [finding("error", "log", entry, f"Onslaught knows two declarations, 'bulge' and 'victory', not "
                                               f"{entry.what!r}{did_you_mean(entry.what, ['bulge', 'victory'])}")]
    if entry.level is not None or entry.points:
        return [finding("error", "log", entry, "a level and victory points belong to 'declare victory', not to "
                                               "'declare bulge'")]
    out = []
    first, last = int(state.game.parameter["bulge_first_turn"]), int(state.game.parameter["bulge_last_turn"])
    if entry.side != "German":
        out.append(finding("error", "12.0", entry, "only the German player launches the counteroffensive"))
    if state.bulge_turn is not None:
        out.append(finding("error", "12.0", entry, f"the counteroffensive was already launched on turn "
                                                   f"{state.bulge_turn}; there is only one"))
    if not first <= state.at.turn <= last:
        out.append(finding("error", "12.0", entry, f"turn {state.at.turn}: the counteroffensive may be launched on "
                                                   f"turns {first}-{last} only"))
    # 12.0: announced before the Allied player's first action of the turn.
    if not (state.at.step is None or (state.at.step == "action" and not state.log.begun)):
        out.append(finding("error", "12.0", entry, f"{turn_and_step(state)}: the counteroffensive is announced "
                                                   "before the turn's first action"))
    # 8.2's cap holds for the counteroffensive's points too: what it takes is said, as for an income.
    total = state.supply.get("German", 0) + int(state.game.parameter["bulge_supply"])
    limited = capped(total, "German", state.game)
    if limited < total:
        out.append(finding("note", "8.2", entry, f"German reaches {total} supply points; {total - limited} above the "
                                                 f"limit of {limited} are lost"))
    return out


def apply_declare(state: OnslaughtState, entry: Declare) -> OnslaughtState:
    """12.0 adds the points at once (8.2's cap holds); in the Action Step the German acts first. (The one apply of a
    declaration: a claim of victory the Reinforcement Step's end decides is kept for then, 13.2 / 13.3.)"""
    if entry.what == "victory":
        return apply_claim(state, entry)
    if entry.what != "bulge" or not entry.side:
        return state
    state = gained(state, entry.side, int(state.game.parameter["bulge_supply"]))
    state = replace(state, bulge_turn=state.at.turn)
    if state.at.step != "action" or state.log.begun:
        return state  # 12.0: a declaration after the turn's first action (its error) takes no action from its winner
    return replace(state, log=replace(state.log, entitled="German"))
