"""Onslaught's optional rules (14.1-14.4), each in force only when the log's headers say so."""

from __future__ import annotations

import copy


import pytest

from adjudicator.engine import advance
from adjudicator.findings import Finding
from adjudicator.notation.entries import Header
from adjudicator.notation.text import parse_text
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.arrivals import OUT_OF_PLAY
from wargame.bundled import data_root
from wargame.errors import ReplayError
from wargame.game import Game, load_game
from play_support import play as replay
from play_support import when

LANDINGS = {"us-inf-01": "0620", "us-inf-02": "0720", "br-inf-01": "0820"}
FAR_GERMAN = {"de-inf-20": "4930"}
REINFORCEMENT_STEP = "Allied: pass\nGerman: pass\nStep german_reserve\nStep reinforcement\n"
CITY = "2124"
"""A city in France (the `france` area, city terrain)."""


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, turn: int, placed: dict[str, str], text: str, optional: tuple[str, ...] = (),
         supply: tuple[int, int] = (20, 20), state: OnslaughtState | None = None
         ) -> tuple[list[tuple[str, str]], OnslaughtState, list[Finding]]:
    """Replay `Turn N / Step action` and `text` from `placed` with the optional rules named in
    force: (rule, entry) of each error, the final state, every finding."""
    base = state or ONSLAUGHT.initial_state(game, [Header(key="Optional", value=rule) for rule in optional])
    earlier = {row.unit: OUT_OF_PLAY for _, row in game.reinforcements if row.turn < turn}
    start = when(base, location={**earlier, **placed}, turn=turn - 1, step="reinforcement",
                 supply={"Allied": supply[0], "German": supply[1]})
    played = replay(ONSLAUGHT, start, f'[Game "onslaught"]\nTurn {turn}\nStep action\n{text}')
    return played.errors(), played.state, played.findings


def test_unknown_optional_rule_stops_with_a_suggestion(game: Game) -> None:
    """14.0: an optional rule the game lacks cannot be put in force."""
    with pytest.raises(ReplayError, match="did you mean 'allied_cooperation'"):
        ONSLAUGHT.initial_state(game, [Header(key="Optional", value="allied_cooperaton")])


# -- 14.1 Allied cooperation ----------------------------------------------------------------------
def test_mixed_stacks_cost_two(game: Game) -> None:
    """14.1: American or French with Commonwealth costs two points; Polish goes with either."""
    mixed = {**LANDINGS, "br-inf-02": "0620", **FAR_GERMAN}
    text = "Allied: action movement\nAllied: activate 0620 supply 1\n"
    assert play(game, 5, mixed, text, ("allied_cooperation",))[0] == [("14.1", "Allied: activate 0620 supply 1")]
    assert play(game, 5, mixed, text)[0] == []
    assert play(game, 5, mixed, text.replace("supply 1", "supply 2"), ("allied_cooperation",))[0] == []
    polish = {**LANDINGS, "pl-arm-01": "0620", **FAR_GERMAN}
    assert play(game, 5, polish, text, ("allied_cooperation",))[0] == []


def test_no_mixed_armor_in_a_breakthrough(game: Game) -> None:
    """14.1: Commonwealth and American or French armor are activated one after the other."""
    armor = {**LANDINGS, "us-arm-01": "1020", "br-arm-01": "1020", **FAR_GERMAN}
    together = "Allied: action breakthrough\nAllied: activate 1020 us-arm-01 br-arm-01\n"
    assert play(game, 5, armor, together, ("allied_cooperation",))[0] == [("14.1", "Allied: activate 1020 us-arm-01 "
                                                                                   "br-arm-01")]
    apart = "Allied: action breakthrough\nAllied: activate 1020 us-arm-01\nAllied: activate 1020 br-arm-01\n"
    assert play(game, 5, armor, apart, ("allied_cooperation",))[0] == []
    assert play(game, 5, armor, together)[0] == []


def test_double_depletion(game: Game) -> None:
    """14.1: an AH on American and Commonwealth attackers depletes the stack with the most American
    strength and another with the most Commonwealth strength; without the rule, one stack."""
    placed = {**LANDINGS, "us-inf-03": "2019", "br-inf-02": "2120", "de-inf-01": "2020", **FAR_GERMAN}
    attack = ("Allied: action combat\nAllied: activate 2019\nAllied: activate 2120\n"
              "Allied: attack 2020 with us-inf-03 br-inf-02 result AH\n")
    one = attack + "Allied: deplete us-inf-03\nRoll Allied 1 German 1\n"
    both = attack + "Allied: deplete us-inf-03\nAllied: deplete br-inf-02\nRoll Allied 1 German 1\n"
    assert play(game, 5, placed, both, ("allied_cooperation",))[0] == []
    assert play(game, 5, placed, one, ("allied_cooperation",))[0] == [("14.1", "Roll Allied 1 German 1")]
    # Without the rule the two equal stacks are one AH: the owner depletes one of them.
    assert play(game, 5, placed, one)[0] == []
    assert play(game, 5, placed, both)[0] == [("7.2", "Allied: deplete br-inf-02")]


def test_double_depletion_after_a_tie(game: Game) -> None:
    """14.1 (ruling): stacks A (0927) and B (0928) tie for the most American strength; the owner depletes either, and
    the second depletion falls on a different stack with the most Commonwealth strength: B (8) after A, C (1026, 4)
    after B. The choice is read from the depletions in any order; a wrong one is one error, citing 14.1."""
    placed = {**LANDINGS, "us-inf-03": "0927", "us-inf-04": "0928", "br-inf-04": "0928", "ca-inf-02": "0928",
              "br-inf-05": "1026", "de-inf-02": "1027", "de-inf-03": "1027", **FAR_GERMAN}
    attack = ("Allied: action combat\nAllied: activate 0927\nAllied: activate 0928 supply 2\nAllied: activate 1026\n"
              "Allied: attack 1027 with us-inf-03 us-inf-04 br-inf-04 ca-inf-02 br-inf-05 result AH\n")
    a = "Allied: deplete us-inf-03\n"
    b = "Allied: deplete us-inf-04\nAllied: deplete br-inf-04\nAllied: deplete ca-inf-02\n"
    c = "Allied: deplete br-inf-05\n"
    end = "Roll Allied 1 German 2\n"
    rule = ("allied_cooperation",)
    for legal in (a + b, b + a, b + c, c + b):
        assert play(game, 5, placed, attack + legal + end, rule)[0] == []
    assert play(game, 5, placed, attack + a + c + end, rule)[0] == [("14.1", c.strip())]
    assert play(game, 5, placed, attack + a + b + c + end, rule)[0] == [("14.1", c.strip())]
    assert play(game, 5, placed, attack + c + a + end, rule)[0] == [("14.1", a.strip())]
    assert play(game, 5, placed, attack + a + end, rule)[0] == [("14.1", end.strip())]
    shown, _, findings = play(game, 5, placed, attack + end, rule)
    assert shown == [("14.1", end.strip())]
    assert "the owner depletes both 0927 (us-inf-03) and 0928 (us-inf-04, br-inf-04, ca-inf-02) or both 0928 " \
           "(us-inf-04, br-inf-04, ca-inf-02) and 1026 (br-inf-05)" in findings[-1].message


# -- 14.2 Free French recruitment -------------------------------------------------------------------
def test_free_french_in_a_french_city(game: Game) -> None:
    """14.2: an asterisked French division may appear in a supplied French city an Allied division
    holds (or last held), more than two movement points from every German division."""
    text = REINFORCEMENT_STEP + f"Allied: reinforce fr-inf-06 {CITY}\n"
    held = {**LANDINGS, "us-inf-03": CITY, **FAR_GERMAN}
    assert play(game, 14, held, text, ("free_french_recruitment",))[0] == []
    assert play(game, 14, held, text)[0] == [("10.3", f"Allied: reinforce fr-inf-06 {CITY}")]
    assert play(game, 14, {**LANDINGS, **FAR_GERMAN}, text, ("free_french_recruitment",))[0] == \
        [("14.2", f"Allied: reinforce fr-inf-06 {CITY}")]
    near = {**held, "de-inf-01": neighbour_two_away(game, CITY)}
    shown, _, findings = play(game, 14, near, text, ("free_french_recruitment",))
    assert shown == [("14.2", f"Allied: reinforce fr-inf-06 {CITY}")]
    # "More than two" movement points: the message says two are too near and three would do, never "within 3".
    assert "2 movement points or less from a German division (3 or more needed)" in \
        next(f.message for f in findings if f.rule == "14.2")
    not_french = REINFORCEMENT_STEP + "Allied: reinforce us-inf-34 2124\n"
    assert ("14.2", "Allied: reinforce us-inf-34 2124") not in play(game, 14, held, not_french,
                                                                    ("free_french_recruitment",))[0]


def test_a_recruit_is_never_overstacked(game: Game) -> None:
    """14.2 with 10.1: a division recruited in a city is a reinforcement, so a city already holding a full Allied
    stack takes none; 10.1 is the clause broken, once (not again as 6.3 when the step ends)."""
    others = {row.unit: OUT_OF_PLAY for _, row in game.reinforcements if row.turn == 14 and row.unit != "fr-inf-06"}
    full = {**LANDINGS, "us-inf-03": CITY, "us-inf-04": CITY, "us-inf-05": CITY, **FAR_GERMAN, **others}
    text = REINFORCEMENT_STEP + f"Allied: reinforce fr-inf-06 {CITY}\nTurn 15\n"
    assert play(game, 14, full, text, ("free_french_recruitment",))[0] == \
        [("10.1", f"Allied: reinforce fr-inf-06 {CITY}")]


def neighbour_two_away(game: Game, label: str) -> str:
    """A land hex exactly two hexes from `label`."""
    h = game.grid.hex_of(label)
    return next(game.grid.label_of(n) for n in game.grid.hexes if n.distance(h) == 2
                and game.hex_terrain[n] == ("clear",))


def test_two_recruits_a_city_a_turn(game: Game) -> None:
    """14.2: no more than two (the parameter) in one city in one Reinforcement Step."""
    strict = copy.copy(load_game(data_root(), "onslaught"))  # its own: load_game's games are shared in a process
    strict.__dict__["parameter"] = {**strict.parameter, "free_french_per_city": 0}
    held = {**LANDINGS, "us-inf-03": CITY, **FAR_GERMAN}
    text = REINFORCEMENT_STEP + f"Allied: reinforce fr-inf-06 {CITY}\n"
    assert play(strict, 14, held, text, ("free_french_recruitment",))[0] == \
        [("14.2", f"Allied: reinforce fr-inf-06 {CITY}")]


# -- 14.3 Infantry breakthrough -------------------------------------------------------------------
STACK = {**LANDINGS, "us-arm-01": "2019", "us-inf-03": "2019", "de-inf-01": "2020", **FAR_GERMAN}


def test_infantry_joins_an_attack_first_breakthrough(game: Game) -> None:
    """14.3: infantry stacked with the activated armor attacks with it when it attacks first."""
    text = ("Allied: action breakthrough\nAllied: activate 2019 us-arm-01 us-inf-03 attack-first\n"
            "Allied: attack 2020 with us-arm-01 us-inf-03 result DR\nGerman> retreat de-inf-01 2020-2021-2022\n"
            "Allied: advance us-inf-03 2019-2020\n")
    assert play(game, 5, STACK, text, ("infantry_breakthrough",))[0] == []
    assert play(game, 5, STACK, text)[0] == [("5.5", "Allied: activate 2019 us-arm-01 us-inf-03 attack-first")]


def test_infantry_breakthrough_limits(game: Game) -> None:
    """14.3: never when the armor moves first, never without the armor, and infantry never moves."""
    rule = ("infantry_breakthrough",)
    first = "Allied: action breakthrough\nAllied: activate 2019 us-arm-01 us-inf-03 move-first\n"
    attack = "Allied: attack 2020 with us-arm-01 us-inf-03 result -\n"
    assert play(game, 5, STACK, first + attack, rule)[0] == [("14.3", attack.strip())]
    alone = "Allied: action breakthrough\nAllied: activate 2019 us-inf-03\n"
    assert play(game, 5, STACK, alone, rule)[0] == [("14.3", "Allied: activate 2019 us-inf-03")]
    moving = "Allied: action breakthrough\nAllied: activate 2019 us-arm-01 us-inf-03\nus-inf-03 2019-2018\n"
    assert ("14.3", "us-inf-03 2019-2018") in play(game, 5, STACK, moving, rule)[0]
    without_armor = ("Allied: action breakthrough\nAllied: activate 2019 us-arm-01 us-inf-03 attack-first\n"
                     "Allied: attack 2020 with us-inf-03 result -\n")
    assert play(game, 5, STACK, without_armor, rule)[0] == [("14.3", "Allied: attack 2020 with us-inf-03 result -")]


# -- 14.4 Emergency supplies ------------------------------------------------------------------------
def test_emergency_supplies_on_the_last_turn(game: Game) -> None:
    """14.4: on turn 20 the winner of a roll with no points gets 3 (Allied) or 2 (German) for that
    action, which are lost when it ends; the step does not end for want of supply."""
    rule = ("emergency_supplies",)
    placed = {**LANDINGS, **FAR_GERMAN}
    won = ("Allied: pass\nRoll Allied 5 German 2\nAllied: action movement supply 1\nAllied: activate 0620 supply 1\n"
           "us-inf-01 0620-0520\n")
    shown, state, _ = play(game, 20, placed, won, rule, supply=(0, 0))
    assert shown == [] and state.supply["Allied"] == 2 and state.emergency == "Allied"
    after = advance(ONSLAUGHT, state, parse_text('[Game "onslaught"]\nRoll Allied 1 German 3\n')[-1])
    assert after.supply["Allied"] == 0 and after.emergency is None
    assert play(game, 20, placed, won, supply=(0, 0))[0][0] == ("5.0", "Roll Allied 5 German 2")
    assert play(game, 19, placed, won, rule, supply=(0, 0))[0][0] == ("5.0", "Roll Allied 5 German 2")
    german = "Allied: pass\nRoll Allied 1 German 6\nGerman: action movement\nGerman: activate 4930\n" \
             "Roll Allied 1 German 6\n"
    shown, state, _ = play(game, 20, placed, german, rule, supply=(0, 0))
    assert shown == [] and state.supply["German"] == 0
    # The Allied first action is not won by a roll: no emergency points for it.
    first = "Allied: action movement\nAllied: activate 0620\n"
    assert play(game, 20, placed, first, rule, supply=(0, 0))[0] == [("5.2", "Allied: activate 0620")]


# -- the optional rules as layers ------------------------------------------------------------------
def test_the_optional_rules_are_layers_the_headers_switch_on(game: Game) -> None:
    """House style 12, 18: each optional rule is a layer of hooks (optional.py) or of registry handlers (rules.py)
    put on the base rules by the log's headers; without a header the base rules' own are in force."""
    from adjudicator.systems.onslaught import optional, rules

    assert optional.hooks_for(frozenset()) == optional.BASE
    assert rules.registry_for(frozenset()) is rules.REGISTRY
    every = frozenset(r.id for r in game.manifest.optional_rule)
    assert every == set(optional.HOOKS) | set(rules.LAYERS)
    hooks = optional.hooks_for(every)
    assert hooks.stack_cost is optional.mixed_stack_cost and hooks.emergency_turn is optional.emergency_turn
    assert hooks.joins_breakthrough is optional.joins_breakthrough
    place = {h.name: h for h in rules.registry_for(every).handlers}["place"]
    assert place.check is not None and place.check.__name__ == "check_place_recruiting"
    state = ONSLAUGHT.initial_state(game, [Header(key="Optional", value="infantry_breakthrough")])
    assert optional.in_force(state) == optional.hooks_for(frozenset({"infantry_breakthrough"}))


def test_no_rule_asks_whether_an_option_is_on() -> None:
    """The base rules call the hooks in force; only the layering reads the headers' optional rules (and the set-up,
    which records them)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "adjudicator" / "systems" / "onslaught"
    readers = {"optional.py", "rules.py", "system.py", "state.py"}
    asking = [f"{path.name}:{node.lineno}" for path in sorted(package.glob("*.py")) if path.name not in readers
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Attribute) and node.attr == "optional"]
    assert asking == []


def test_a_mixed_breakthrough_stack_costs_the_breakthrough_price(game: Game) -> None:
    """Ruling 14.1 / 5.5 (audit 18, R2): British armor with US infantry joining it (14.3) is activated for a Breakthrough
    action at 5.5's two points, not doubled to four."""
    placed = {"br-arm-01": "2019", "us-inf-01": "2019", "de-inf-01": "2020"}
    text = ("Allied: action breakthrough supply 2\nAllied: activate 2019 supply 2 attack-first\n"
            "Allied: attack 2020 with br-arm-01 us-inf-01 die 3\n")
    both = ("allied_cooperation", "infantry_breakthrough")
    assert play(game, 5, placed, text, both)[0] == []
    doubled = text.replace("supply 2", "supply 4")
    assert play(game, 5, placed, doubled, both)[0] == [("5.5", "Allied: activate 2019 supply 4 attack-first")]
