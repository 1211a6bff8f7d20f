"""Victory (rules.toml's `[victory]`): who controls each place, the conditions read in order at the game's end
(or at any moment), and a side's claim (`declare victory`, or `declare draw` where the rules give one) checked
against them."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.contract import Outcome
from adjudicator.findings import Finding
from adjudicator.notation.entries import Declare
from adjudicator.systems.base import PerGame
from adjudicator.systems.classic.base import finding, rules_of
from adjudicator.systems.classic.state import ClassicState, evolve
from adjudicator.systems.classic.tables import tables
from wargame.game import Game
from wargame.rulebook import VictoryCondition
from wargame.sequence import turn_sequence


def _victory_hexes(game: Game) -> frozenset[str]:
    t = tables(game)
    victory = t.rules.victory
    if victory is None:
        return frozenset()
    names = {n for c in victory.conditions for n in (*c.controls, *c.also_controls)}
    names |= {n for held in victory.initial.values() for n in held}
    names |= {p.name for _, p in game.places} | set(victory.points)
    return frozenset(t.place_hex[n] for n in names if n in t.place_hex)


_VICTORY_HEXES = PerGame(_victory_hexes)
"""A game's victory places, worked out once (every move, retreat and placement asks)."""


def victory_hexes(state: ClassicState) -> frozenset[str]:
    """The hexes of every place a victory condition names."""
    return _VICTORY_HEXES(state.game)


def initial_control(state: ClassicState) -> dict[str, str]:
    """Who controls each victory place at the start: the rules' list, else the side whose units stand there."""
    t = rules_of(state)
    victory = t.rules.victory
    out: dict[str, str] = {}
    if victory is None:
        return out
    if victory.initial_others is not None:
        out.update({label: victory.initial_others for label in victory_hexes(state)})
    for side, names in victory.initial.items():
        for name in names:
            if name in t.place_hex:
                out[t.place_hex[name]] = side
    for label in victory_hexes(state):
        holder = state.side_in(label)
        if holder is not None:
            out[label] = holder
    return out


def entered(state: ClassicState, side: str, labels: Iterable[str]) -> ClassicState:
    """Control of the victory places a side's unit entered (or passed through) passes to that side."""
    places = victory_hexes(state)
    changed = {label: side for label in labels if label in places and state.control.get(label) != side}
    if not changed:
        return state
    return evolve(state, control={**state.control, **changed})


def _holds(state: ClassicState, condition: VictoryCondition) -> bool:
    t = rules_of(state)
    control = state.control
    named = [t.place_hex.get(n, n) for n in condition.controls]
    # A draw is nobody's: its condition counts the places of the side it names.
    side = condition.side or condition.winner
    held = sum(1 for label in named if control.get(label) == side)
    need = len(named) if condition.at_least is None else condition.at_least
    also = all(control.get(t.place_hex.get(n, n)) == side for n in condition.also_controls)
    enough = condition.points_at_least is None or points_of(state, side) >= condition.points_at_least
    return held >= need and also and enough


def points_of(state: ClassicState, side: str) -> int:
    """The victory points of the places a side controls (victory.points)."""
    t = rules_of(state)
    victory = t.rules.victory
    return sum(value for name, value in (victory.points.items() if victory is not None else ())
               if state.control.get(t.place_hex.get(name, name)) == side)


def decided(state: ClassicState, at_end: bool) -> tuple[str, VictoryCondition | None]:
    """The winner (a side or `draw`) and the condition deciding it: the first that holds, in order."""
    victory = rules_of(state).rules.victory
    if victory is None:
        return "draw", None
    for condition in sorted(victory.conditions, key=lambda c: c.order):
        if (at_end or condition.when == "any_time") and condition.winner != "draw" and _holds(state, condition):
            return condition.winner, condition
        if at_end and condition.winner == "draw" and _holds(state, condition):
            return "draw", condition
    return victory.otherwise, None


def is_over(state: ClassicState) -> bool:
    """The last turn's last phase is under way (or over)."""
    t = rules_of(state)
    last = next((s.last_turn for s in state.game.manifest.scenario if s.id == state.scenario), None)
    if last is None or state.at.turn < last or not t.sequence:
        return state.at.turn > (last or 0) > 0
    # The last phase of the scenario played: a player turn's is its second player's (wargame/sequence.py).
    final = turn_sequence(state.game.manifest, state.scenario)[-1]
    at = state.at
    return at.turn > last or (at.step == final.id and (final.side is None or at.player_turn == final.side))


def reason(state: ClassicState, condition: VictoryCondition | None) -> str:
    """What a condition asked, for a message."""
    if condition is None:
        return "no victory condition holds"
    places = ", ".join(condition.controls)
    need = "all of" if condition.at_least is None else f"{condition.at_least} of"
    also = f" and {', '.join(condition.also_controls)}" if condition.also_controls else ""
    said = f"controls {need} {places}{also}" if condition.controls or condition.also_controls else ""
    if condition.points_at_least is not None:
        said = (said + " and " if said else "") + f"holds at least {condition.points_at_least} victory points"
    if condition.side is not None and condition.side != condition.winner and said:
        said = f"{condition.side} {said}"
    return said or "wins"


def _decided_now(state: ClassicState) -> bool:
    """Whether the game is decided before its end: by a condition that holds at any time (it holds now, or it ended
    the game)."""
    if state.outcome is not None and not state.claim_standing:
        return True
    return decided(state, False)[1] is not None


def check_declare(state: ClassicState, entry: Declare) -> list[Finding]:
    """`Side: declare victory` (or `declare draw`, where the rules give one): a claim of a condition that holds at any
    time is judged when made; a claim of one counted at the game's end is refused before the last phase, and made in
    it is judged at the end (`judge_claims`): the play of that phase may follow it."""
    victory = rules_of(state).rules.victory
    section = victory.source if victory is not None else rules_of(state).rules.movement.source
    if entry.what not in ("victory", "draw"):
        return [finding(state, "error", "log", entry, f"'declare {entry.what}' is not a declaration of this game; "
                        "write 'declare victory'" + (" or 'declare draw'" if has_draw(state) else ""))]
    if victory is None:
        return [finding(state, "error", section, entry, "this game has no victory conditions to claim")]
    if entry.what == "draw" and not has_draw(state):
        # The claim is the game's result misread: no condition of the victory rules ends the game drawn.
        return [finding(state, "error", section, entry, "this game has no draw: no victory condition gives one, and "
                        f"when none holds the {victory.otherwise} player wins")]
    now = _decided_now(state)
    if not now and not is_over(state):
        return [finding(state, "error", section, entry, f"the game is not over (turn {state.at.turn}); no condition "
                        "that decides it before the end holds")]
    if entry.level is not None:
        return [finding(state, "error", section, entry, f"this game's victory has no levels: write 'declare victory', "
                        f"not '{entry.level}'")]
    if entry.points and not victory.points:
        return [finding(state, "error", section, entry, "this game counts no victory points")]
    # A condition counted at the game's end is judged there, on the position the last phase ends in (12.0).
    return judged(state, entry, at_end=False) if now else []


def has_draw(state: ClassicState) -> bool:
    """Whether the victory rules can end the game drawn (a condition's winner, or the result when none holds)."""
    victory = rules_of(state).rules.victory
    return victory is not None and victory.can_end_drawn()


def judged(state: ClassicState, entry: Declare, at_end: bool) -> list[Finding]:
    """A claim's victory points and winner against the referee's count: now (a condition holding at any time) or
    at the game's end."""
    victory = rules_of(state).rules.victory
    if victory is None:
        return []
    section = victory.source
    when = "at the game's end " if at_end else ""
    sides = list(state.game.manifest.sides)
    counted = {s: points_of(state, s) for s in sides}
    # A game counting no points has refused the claim's points already (`check_declare`): its winner is judged.
    if victory.points and any(counted.get(s) != n for s, n in entry.points.items()):
        return [finding(state, "error", section, entry, f"the victory points {when}are " + " ".join(
            f"{s} {n}" for s, n in counted.items()) + ", not " + " ".join(f"{s} {n}" for s, n in entry.points.items())
            + " (" + ", ".join(f"{name} {value}" for name, value in sorted(victory.points.items())) + ")")]
    winner, condition = decided(state, at_end)
    side = entry.side or "?"
    draw = entry.what == "draw"
    if winner != ("draw" if draw else side):
        names = {p.hex: p.name for _, p in state.game.places}
        held = ", ".join(f"{names[label] + ' ' if label in names and names[label] != label else ''}{label} "
                         f"{state.control.get(label, 'nobody')}" for label in sorted(victory_hexes(state)))
        return [finding(state, "error", condition.source if condition is not None else section, entry,
                        f"{side} claims {'a draw' if draw else 'victory'}, but {when}the result is "
                        f"{'a draw' if winner == 'draw' else winner + ' victory'} ({reason(state, condition)}; "
                        f"control: {held})")]
    return []


def judge_claims(state: ClassicState) -> list[Finding]:
    """The claims made in the last phase, judged on the position the game ends in."""
    return [f for claim in state.claims for f in judged(state, claim, at_end=True)]


def apply_declare(state: ClassicState, entry: Declare) -> ClassicState:
    """A claim of victory recorded: a condition holding at any time decides the game now; a claim of one counted at
    the game's end, made in the last phase, stands as the position does until the game ends."""
    if entry.what not in ("victory", "draw"):
        return state  # not a claim of the game's result: refused as such (`check_declare`), never judged as one
    if entry.what == "draw" and not has_draw(state):
        return state
    winner, condition = decided(state, False)
    if condition is not None:
        # A condition holding at any time decides a side's win now: a claim of it (never of a draw) ends the game.
        if entry.what == "draw" or entry.side != winner or (state.outcome is not None and not state.claim_standing):
            return state
        return evolve(state, outcome=Outcome(winner, condition.source, entry.line, reason(state, condition)),
                      claim_standing=False)
    if not is_over(state) or rules_of(state).rules.victory is None:
        return state
    return standing(evolve(state, claims=(*state.claims, entry)))


def standing(state: ClassicState) -> ClassicState:
    """The state with the result its claims of a victory counted at the game's end give on the position as it
    stands: the first claim that holds, else none (the last phase's play may follow a claim, so this is asked again
    after each entry)."""
    victory = rules_of(state).rules.victory
    if victory is None or not state.claims or (state.outcome is not None and not state.claim_standing):
        return state
    holds = next((c for c in state.claims if not judged(state, c, at_end=True)), None)
    if holds is None:
        return evolve(state, outcome=None, claim_standing=False) if state.claim_standing else state
    winner, condition = decided(state, True)
    outcome = Outcome(winner, condition.source if condition is not None else victory.source, holds.line,
                      reason(state, condition))
    return state if outcome == state.outcome else evolve(state, outcome=outcome, claim_standing=True)


def any_time(state: ClassicState, line: int) -> ClassicState:
    """The state decided when a condition that holds at any moment holds now (an automatic victory)."""
    if (state.outcome is not None and not state.claim_standing) or not rules_of(state).any_time_victory:
        return state
    winner, condition = decided(state, False)
    if condition is None or condition.when != "any_time":
        return state
    return evolve(state, outcome=Outcome(winner, condition.source, line, reason(state, condition)),
                  claim_standing=False)
