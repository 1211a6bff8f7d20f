"""The engine owns the turn (house style 19, issue 25 item 3): for a system with a `TurnKeeper` the engine alone
moves the turn context at the markers, from the game's sequence of play, and starts a fresh record of each step."""

from __future__ import annotations

import shutil
from dataclasses import fields
from pathlib import Path

import pytest

from adjudicator.contract import TurnContext
from adjudicator.engine import advance, check, replay
from adjudicator.findings import ChainOrderError
from adjudicator.notation.entries import Header, StepMarker, TurnMarker
from adjudicator.notation.text import parse_text
from adjudicator.systems.fire_and_movement.markers import Tally
from adjudicator.sources import open_logs
from adjudicator.systems import system_for
from adjudicator.systems.classic.state import ClassicState, PhaseLog
from adjudicator.systems.fire_and_movement.state import FireAndMovementState
from adjudicator.systems.fire_and_movement.state import evolve as replace_fm
from adjudicator.systems.omaha import OMAHA, OmahaState
from adjudicator.systems.omaha.state import OmahaPhaseLog
from adjudicator.systems.onslaught import ONSLAUGHT, OnslaughtState
from adjudicator.systems.onslaught.state import StepLog, replace
from wargame.bundled import data_root
from wargame.errors import ReplayError
from wargame.game import Game, load_game
from wargame.sequence import TurnOrder, turn_sequence
from play_support import when

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def moscow() -> Game:
    return load_game(data_root(), "moscow")


@pytest.fixture(scope="module")
def omaha() -> Game:
    return load_game(data_root(), "omaha")


@pytest.fixture(scope="module")
def onslaught() -> Game:
    return load_game(data_root(), "onslaught")


def test_the_engine_puts_in_each_phase_with_its_phasing_side(moscow: Game) -> None:
    """The phasing side comes from the data: the scenario's first player's phases, then the second's."""
    system = system_for(moscow)
    order = TurnOrder(moscow.manifest)
    state = advance(system, system.initial_state(moscow, []), TurnMarker(turn=1), order)
    assert system.sequence_point(state) == TurnContext(1)
    state = advance(system, state, StepMarker(step="panzer_movement"), order)
    assert system.sequence_point(state) == TurnContext(1, "panzer_movement", "German")
    state = advance(system, state, StepMarker(step="soviet_replacement"), order)
    assert system.sequence_point(state) == TurnContext(1, "soviet_replacement", "Soviet")


def test_a_new_phase_starts_a_fresh_record(moscow: Game) -> None:
    """What happened in a phase is forgotten at the next marker, by the engine: the system resets nothing."""
    system = system_for(moscow)
    state = when(system.initial_state(moscow, []), turn=1, step="german_combat")
    busy = replace(state, log=PhaseLog(attacked=frozenset({"ger-4"}), defended={"so-3": "0703"},
                                       last_mover="ger-4", spent={"ger-4": 2.0}))
    assert advance(system, busy, StepMarker(step="german_movement")).log == PhaseLog()
    assert advance(system, busy, TurnMarker(turn=2)).log == PhaseLog()


def test_onslaught_steps_start_a_fresh_record_the_step_seeds(onslaught: Game) -> None:
    """The Action Step's passes and roll-offs end with it; the next Action Step's first action is the Allied
    player's (5.0), the Reinforcement Step's points are counted as it begins (11.1)."""
    state = when(ONSLAUGHT.initial_state(onslaught, []), turn=3, step="action", passes=("Allied",), step_over=True,
                 begun=True, entitled="German", bulge_tie="spent", free_moves=frozenset({"de-inf-01"}))
    reserve = advance(ONSLAUGHT, state, StepMarker(step="german_reserve"))
    assert (reserve.at, reserve.log) == (TurnContext(3, "german_reserve"), StepLog())
    reinforcement = advance(ONSLAUGHT, reserve, StepMarker(step="reinforcement"))
    assert reinforcement.log == StepLog(replacement_points={"Allied": 4, "German": 2})
    turn = advance(ONSLAUGHT, reinforcement, TurnMarker(turn=4))
    assert (turn.at, turn.log) == (TurnContext(4), StepLog())
    action = advance(ONSLAUGHT, turn, StepMarker(step="action"))
    assert (action.at, action.log) == (TurnContext(4, "action"), StepLog(entitled="Allied"))


def test_a_systems_apply_alone_never_moves_the_turn(moscow: Game, onslaught: Game) -> None:
    """The turn is the engine's to move; a system's `apply` deals with a marker's game facts only."""
    classic = system_for(moscow)
    for system, game in ((classic, moscow), (ONSLAUGHT, onslaught), (OMAHA, load_game(data_root(), "omaha"))):
        start = system.initial_state(game, [])
        assert system.sequence_point(system.apply(start, TurnMarker(turn=1))) == TurnContext(0)


def test_fire_and_movement_phases_come_from_the_engine(omaha: Game) -> None:
    """4.1: the phasing side is the player turn's in the game's sequence; a player turn's phase named again is
    the next player's; a phase with none of its id left in the turn opens nothing (the context stays)."""
    state = OMAHA.initial_state(omaha, [])
    state = advance(OMAHA, state, TurnMarker(turn=1))
    assert OMAHA.sequence_point(state) == TurnContext(1)
    state = advance(OMAHA, state, StepMarker(step="support_fire_marker"))
    assert OMAHA.sequence_point(state) == TurnContext(1, "support_fire_marker")
    state = advance(OMAHA, state, StepMarker(step="movement"))
    assert OMAHA.sequence_point(state) == TurnContext(1, "movement", "Allied")
    state = advance(OMAHA, state, StepMarker(step="movement"))
    assert OMAHA.sequence_point(state) == TurnContext(1, "movement", "German")
    assert advance(OMAHA, state, StepMarker(step="movement")).at == TurnContext(1, "movement", "German")


def omaha_with_the_german_first_in_its_campaign(data: Path) -> Game:
    """A copy of Omaha whose second scenario, the campaign, has the German player first."""
    toml = data / "counters" / "omaha" / "game.toml"
    head, campaign, tail = toml.read_text().partition('id = "campaign"')
    tail = tail.replace('first_player = "Allied"', 'first_player = "German"', 1)
    toml.write_text(head + campaign + tail)
    return load_game(data, "omaha")


PLAYER_TURN = ("movement", "bombardment", "combat", "mobile_movement", "mobile_combat")


def test_the_turn_is_ordered_for_the_scenario_the_log_plays(data_copy: Path) -> None:
    """4.1, 10.2: whose player turn comes first is the first player of the scenario the log's header names, not the
    game's first scenario's: in a game whose second scenario has the German player first, its log's first Movement
    Phase is the German's, and its phases run in that order without a finding of 4.1."""
    game = omaha_with_the_german_first_in_its_campaign(data_copy)
    phases = ["support_fire_marker", *PLAYER_TURN, *PLAYER_TURN, "game_turn_end"]
    text = '[Game "omaha"]\n[Scenario "campaign"]\nTurn 1\n' + "".join(f"Phase {p}\n" for p in phases)
    result = replay(game, OMAHA, parse_text(text))
    assert [f for f in result.findings if f.rule == "4.1"] == []
    contexts = [OMAHA.sequence_point(state) for state in result.states[4:]]
    assert [c.player_turn for c in contexts] == [None, *["German"] * 5, *["Allied"] * 5, None]
    first = result.state_at(5)  # Phase movement
    assert first.at == TurnContext(1, "movement", "German")
    # The engine asked without the replay's order orders the turn for the state's scenario too.
    assert advance(OMAHA, result.state_at(4), StepMarker(step="movement")).at == first.at
    assert check(OMAHA, first, StepMarker(step="bombardment")) == []
    # The game's first scenario keeps its Allied player first.
    allied = replay(game, OMAHA, parse_text(text.replace('[Scenario "campaign"]\n', "")))
    assert allied.state_at(4).at == TurnContext(1, "movement", "Allied")


SOVIET_FIRST = '''[[scenario]]
id = "soviet_first"
name = "The Soviet player first (one turn)"
first_turn = 1
last_turn = 1
first_player = "Soviet"
source = "3.0"

'''
RECOVERY = '''
[[sequence]]
id = "recovery"
name = "Recovery Phase"
player = "each"
source = "3.0"
'''


def test_a_classic_game_ends_with_the_last_phase_of_the_scenario_played(tmp_path: Path) -> None:
    """The last phase of a classic game is its scenario's: a turn ending with a player turn's phase (`each`) ends with
    the second player's of the scenario played, where the game's first scenario has the other side first."""
    for kind in ("maps", "counters"):
        shutil.copytree(data_root() / kind / "moscow", tmp_path / kind / "moscow")
    toml = tmp_path / "counters" / "moscow" / "game.toml"
    toml.write_text(toml.read_text().replace("# 3.0: eight phases", SOVIET_FIRST + "# 3.0: eight phases", 1) + RECOVERY)
    game = load_game(tmp_path, "moscow")
    phases = [item.id for item in game.manifest.sequence]
    log = '[Game "moscow"]\n[Scenario "soviet_first"]\nTurn 1\n' + "".join(f"Phase {p}\n" for p in phases) + \
        "Phase recovery\n"
    result = replay(game, system_for(game), parse_text(log))
    assert result.final_state.at == TurnContext(1, "recovery", "German")
    assert [f.message for f in result.findings] == ["the game ends in Soviet victory: no victory condition holds"]


def test_a_scenarios_turn_order_runs_its_first_players_turn_first(data_copy: Path) -> None:
    """The turn's slots for a scenario: a player turn's phases once per side, the scenario's first player first (its
    last phase the second player's); the game's first scenario's when none or an unknown one is named."""
    manifest = omaha_with_the_german_first_in_its_campaign(data_copy).manifest
    sides = [slot.side for slot in turn_sequence(manifest, "campaign") if slot.side is not None]
    assert sides == ["German"] * 5 + ["Allied"] * 5
    assert [slot.side for slot in turn_sequence(manifest) if slot.side is not None] == ["Allied"] * 5 + ["German"] * 5
    assert (TurnOrder(manifest, "campaign").scenario, TurnOrder(manifest).scenario) == ("campaign", "beach_to_bocage")


@pytest.mark.parametrize("game_id", ["onslaught", "omaha", "moscow"])
def test_every_system_reads_the_scenario_played_alike(game_id: str) -> None:
    """The scenario a log plays is one answer for the engine and every system: a misspelt one is refused with the
    game's scenarios and a suggestion."""
    game = load_game(data_root(), game_id)
    with pytest.raises(ReplayError, match=r"unknown scenario 'campain' \(did you mean 'campaign'\?\) \(scenarios: "):
        system_for(game).initial_state(game, [Header(key="Scenario", value="campain")])


def test_a_new_phase_starts_a_fresh_fire_and_movement_record(omaha: Game) -> None:
    """Attacks, defences and markers drawn in a phase are the engine's record of it, renewed at each marker."""
    state = when(OMAHA.initial_state(omaha, []), turn=2, step="combat", player_turn="Allied")
    busy = replace_fm(state, log=OmahaPhaseLog(attacked=frozenset({"16/1"}), defended=frozenset({"914/352"}),
                                               drawn=(("Allied", "us_air_4"),)))
    assert advance(OMAHA, busy, StepMarker(step="mobile_movement")).log == OmahaPhaseLog()
    turn_over = when(busy, step="game_turn_end", player_turn=None)
    assert advance(OMAHA, turn_over, TurnMarker(turn=3)).log == OmahaPhaseLog()


def test_a_phase_keeps_what_happened_in_its_player_turn(omaha: Game) -> None:
    """4.1, 5.5, 8.1, 8.5: units moved, advanced or displaced and markers that bombarded count for the whole player
    turn: the engine carries them into the next phase's record, and starts afresh as a player turn begins."""
    state = when(OMAHA.initial_state(omaha, []), turn=2, step="movement", player_turn="Allied")
    busy = replace_fm(state, log=OmahaPhaseLog(attacked=frozenset({"16/1"}), moved=frozenset({"18/1"}),
                                               moved_in_movement=frozenset({"CCA/2"}), advanced=frozenset({"26/1"}),
                                               displaced=frozenset({"115/29"}), bombarded=("2117",),
                                               attacked_in_combat=frozenset({"CCB/2"})))
    bombardment = advance(OMAHA, busy, StepMarker(step="bombardment"))
    assert bombardment.log == replace_fm(busy.log, attacked=frozenset())
    german = advance(OMAHA, when(bombardment, step="mobile_combat"), StepMarker(step="movement"))
    assert german.at == TurnContext(2, "movement", "German") and german.log == OmahaPhaseLog()


def test_omaha_judges_a_phase_over_in_its_own_record(omaha: Game) -> None:
    """11.1.4: Achtung Minen drawn in a phase and not placed are kept for a later combat of the game turn: read
    from the phase's record as it ends, before the engine renews it."""
    state = when(OMAHA.initial_state(omaha, []), turn=2, step="combat", player_turn="German")
    drawn = replace_fm(state, log=OmahaPhaseLog(drawn=(("German", "de_mines"), ("German", "de_sf_4"))))
    after = advance(OMAHA, drawn, StepMarker(step="mobile_movement"))
    assert after.mines_aside == Tally.of("de_mines") and after.log == OmahaPhaseLog()


def test_omahas_phase_record_is_the_series_and_its_own(omaha: Game) -> None:
    """11.1.2, 11.2.4, 12.0: reinforcements entered or landed and supply losses taken in a phase are Omaha's part
    of the phase's record, which the engine renews whole."""
    state = when(OMAHA.initial_state(omaha, []), turn=2, step="movement", player_turn="Allied")
    busy = replace_fm(state, log=OmahaPhaseLog(attacked=frozenset({"16/1"}), landed=frozenset({"CCA/2"}),
                                               entered=(("9/3", 2.0),), supply_losses=frozenset({"18/1"})))
    assert advance(OMAHA, busy, StepMarker(step="bombardment")).log == OmahaPhaseLog()


def test_a_combat_left_undone_is_the_phases_record_the_engine_forgets() -> None:
    """8.0: a combat whose result was left undone when the next attack was declared is judged against its late
    carrying out in the same phase only: it is the phase's record, forgotten by the engine at the next marker (the
    system's own apply of the marker leaves it)."""
    replayed = open_logs((EXAMPLES / "omaha" / "breach-combat-order.log",), None).replay()
    undone = replayed.state_at(55).log.undone  # line 55 declares the next attack before 2117's result is done
    assert undone is not None and undone.hex == "2117"
    assert replayed.state_at(56).log.undone is not None  # the retreat carried out late, still in the phase
    last = replayed.state_at(58)
    marker = StepMarker(step="mobile_movement")
    assert OMAHA.apply(last, marker).log.undone is not None
    assert advance(OMAHA, last, marker).log.undone is None
    assert replayed.state_at(59).log.undone is None


def test_omahas_record_keeps_what_happened_in_the_game_turn(omaha: Game) -> None:
    """11.2.5, 14.1: the replacement points used and the sides that rolled for the markers put aside count for the
    whole game turn: the engine carries them into every phase's record of the turn and forgets them as the next
    game turn begins (the system resets nothing)."""
    state = when(OMAHA.initial_state(omaha, []), turn=2, step="support_fire_marker", player_turn=None)
    busy = replace_fm(state, log=OmahaPhaseLog(attacked=frozenset({"16/1"}), replaced=("leg",),
                                               weather_rolls=("Allied",)))
    movement = advance(OMAHA, busy, StepMarker(step="movement"))
    assert movement.log == OmahaPhaseLog(replaced=("leg",), weather_rolls=("Allied",))
    german = advance(OMAHA, when(movement, step="mobile_combat"), StepMarker(step="movement"))
    assert german.log == movement.log
    assert OMAHA.apply(when(german, step="game_turn_end", player_turn=None), TurnMarker(turn=3)).log == german.log
    assert advance(OMAHA, when(german, step="game_turn_end", player_turn=None), TurnMarker(turn=3)).log == \
        OmahaPhaseLog()


def test_a_replacement_point_used_in_an_earlier_phase_is_spent() -> None:
    """11.2.5: GT 2's one leg replacement point used in the Support Fire Marker Phase is spent in its Movement
    Phase too."""
    lines = (EXAMPLES / "omaha" / "breach-replacements.log").read_text().splitlines()[:40]
    assert lines[-1] == "Phase support_fire_marker"
    text = "\n".join([*lines, "Allied: replace 16/1", "Phase movement", "Allied: replace 18/1", ""])
    result = replay(load_game(data_root(), "omaha"), OMAHA, parse_text(text))
    assert [(f.line, f.rule) for f in result.findings if f.severity == "error"] == [(43, "11.2.5")]


@pytest.mark.parametrize("state", [ClassicState, OnslaughtState, FireAndMovementState, OmahaState])
def test_a_kept_systems_state_holds_no_turn_of_its_own(state: type) -> None:
    """Turn, step, phase and player turn are the engine's context (`at`); per-step scratch is in its record."""
    names = {f.name for f in fields(state)}
    assert "at" in names and "log" in names
    assert not names & {"turn", "step", "phase", "player", "first_player", "entitled", "passes", "step_over", "begun",
                        "bulge_tie", "reserve_stacks", "replacement_points", "arrival_phase", "placed_now",
                        "free_moves", "attacked", "defended", "drawn", "entered", "landed", "supply_losses", "moved",
                        "moved_in_movement", "attacked_in_combat", "advanced", "displaced", "bombarded",
                        "undone", "replaced", "weather_rolls"}


def test_onslaught_states_refuse_a_field_they_lack(onslaught: Game) -> None:
    """A field left behind by a rename (`turn=`) is refused, never set beside the state's own and never read."""
    with pytest.raises(TypeError, match="'turn'"):
        replace(ONSLAUGHT.initial_state(onslaught, []), turn=3)


def test_a_chains_join_is_judged_in_the_turn_its_last_log_ended() -> None:
    """A later exchange beginning with its `Turn` marker is checked against the turn the one before ended on, not
    the turn its own marker opens (the chain checks the join before the engine moves the turn)."""
    game = EXAMPLES / "pbem" / "game"
    with pytest.raises(ChainOrderError, match="begins turn 3 .* ended on turn 1: an exchange is missing"):
        open_logs((game / "01-turn-1.log", game / "03-turn-3.log"), None).replay(False)
