"""Onslaught 7.0, session 21: an attack the rules refuse is its one error. One fault of several divisions (a stack not
activated, a stack attacking again, none of them next to the hex) is one finding naming them all, and a refused attack
owes nothing: its result may be carried out or set aside (ruling 7.0, as the classic series' 7.0)."""

from __future__ import annotations

import pytest

from adjudicator.notation.entries import Header
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from play_support import Played, play as replay
from play_support import position
from wargame.bundled import data_root
from wargame.game import Game, load_game

HEAD = '[Game "onslaught"]\nTurn 1\nStep action\n'
END = "Roll Allied 2 German 3\n"
REFUSED = {
    "nobody adjacent": "Allied: action combat supply 1\nAllied: activate 0820 supply 1\n"
                       "Allied: attack 0922 with br-inf-02 br-inf-03 die 6\n",
    "movement action": "Allied: action movement supply 1\nAllied: activate 0820 supply 1\n"
                       "Allied: attack 0821 with br-inf-02 br-inf-03 odds 2:1 die 6\n",
    "not activated": "Allied: action combat supply 1\nAllied: activate 0620 supply 1\n"
                     "Allied: attack 0821 with br-inf-02 br-inf-03 odds 2:1 die 6\n",
}
"""Attacks from the campaign set-up that the rules refuse: 0820 is two hexes from 0922 (7.0); an attack in a Movement
action (5.3); a stack attacking without its activation (5.4). Each die 6 gives a result (HH at 0922, DH at 0821)."""
CARRIED_OUT = {
    "nobody adjacent": "Allied: deplete br-inf-02\nAllied: deplete br-inf-03\nGerman> deplete de-pz-01\n"
                       "German> retreat de-pz-01 0922-1022-1122\n",
    "movement action": "German> deplete de-inf-05\nGerman> retreat de-inf-05 0821-0822-0823\n",
    "not activated": "German> deplete de-inf-05\nGerman> retreat de-inf-05 0821-0822-0823\n",
}


@pytest.fixture(scope="module")
def game() -> Game:
    """The bundled Onslaught data."""
    return load_game(data_root(), "onslaught")


def play(game: Game, text: str) -> Played[OnslaughtState]:
    """Replay `text` after HEAD from the campaign set-up."""
    return replay(ONSLAUGHT, position(ONSLAUGHT, game), HEAD + text)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_refused_attack_owes_nothing(game: Game, case: str) -> None:
    """Ruling 7.0: the attack's one error, and nothing owed of its result when the action goes on."""
    played = play(game, REFUSED[case] + END)
    assert [text for _, text in played.errors()] == [REFUSED[case].splitlines()[-1]]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_refused_attacks_result_may_be_carried_out(game: Game, case: str) -> None:
    """Ruling 7.0: the players may have resolved the attack as written; carrying its result out is no second error."""
    played = play(game, REFUSED[case] + CARRIED_OUT[case] + END)
    assert [text for _, text in played.errors()] == [REFUSED[case].splitlines()[-1]]


def test_one_fault_of_a_stack_is_one_finding(game: Game) -> None:
    """5.4 (7.0 likewise): two divisions attacking without their activation are one error naming both."""
    played = play(game, REFUSED["not activated"] + END)
    errors = [f.message for f in played.findings if f.severity == "error"]
    assert errors == ["br-inf-02, br-inf-03 attack without being activated in this action"]


BREAKTHROUGH = ('[Game "onslaught"]\n[Optional "infantry_breakthrough"]\nTurn 1\nStep action\n'
                "Allied: action breakthrough supply 2\nAllied: activate 2019 supply 2\nus-arm-01 2019-1919-2019\n"
                "Allied: attack 2020 with us-arm-01 us-inf-01 die 5\n")
"""The armor moves out of the German zone and back, then attacks with the infantry of its stack, which 14.3 lets
join only an attack made before moving: 10 against 4 (2:1, die 5: HH) as written, the armor's 6 against 4 (1:1, DR)."""


@pytest.mark.parametrize(("carried_out", "owed"), [("", ["7.2"]), ("German> retreat de-inf-01 2020-2021-2022\n", [])])
def test_a_refused_division_adds_nothing_to_the_result_owed(game: Game, carried_out: str, owed: list[str]) -> None:
    """Ruling 7.0 beyond 7.0's adjacency: the infantry 14.3 refuses adds no strength, so the armor's own result (DR)
    is owed: carried out, the attack's 14.3 is the one error; left undone, the DR is owed, not the claim's HH."""
    headers = [Header(key="Optional", value="infantry_breakthrough")]
    placed = {"us-arm-01": "2019", "us-inf-01": "2019", "de-inf-01": "2020"}
    state = position(ONSLAUGHT, game, headers, placed=placed, over_setup=False)
    played = replay(ONSLAUGHT, state, BREAKTHROUGH + carried_out + END)
    assert [rule for rule, _ in played.errors()] == ["14.3", *owed]
    if owed:
        assert "the result DR" in next(f.message for f in played.findings if f.rule == "7.2" and f.severity == "error")


@pytest.mark.parametrize("case", ["nobody adjacent", "not activated"])
def test_the_divisions_of_a_refused_attack_may_then_attack_lawfully(game: Game, case: str) -> None:
    """Ruling 7.0: refused, they did not attack; their lawful attack after it is no "already attacked" error."""
    lawful = ("Allied: activate 0820 supply 1\n" if case == "not activated" else "") + \
        "Allied: attack 0821 with br-inf-02 br-inf-03 odds 2:1 die 1 result AH\n" \
        "Allied: deplete br-inf-02\nAllied: deplete br-inf-03\n"
    head = REFUSED[case].replace("supply 1\n", "supply 2\n", 1) if case == "not activated" else REFUSED[case]
    played = play(game, head + lawful + END)
    assert [text for _, text in played.errors()] == [REFUSED[case].splitlines()[-1]]
