"""Omaha Beach's state: the series' state plus what its exclusive rules (10.0-15.0) keep track of."""

from __future__ import annotations

from dataclasses import field

from adjudicator.contract import Outcome
from adjudicator.systems.fire_and_movement.markers import NONE, Tally
from adjudicator.systems.fire_and_movement.state import FireAndMovementState, PhaseLog
from wargame.hexes import Hex
from wargame.records import frozen


@frozen
class Beyond:
    """The land hexes beyond a scenario's boundary (10.1), with their labels: 10.1 is asked of every hex a
    unit enters, by label."""

    hexes: frozenset[Hex] = frozenset()
    labels: frozenset[str] = frozenset()


@frozen
class OmahaPhaseLog(PhaseLog):
    """The series' record of a phase and what Omaha's rules note in it (house style 19: the engine renews it)."""

    entered: tuple[tuple[str, float], ...] = ()
    """German reinforcements that entered this phase and the MP their first hex cost (11.1.2)."""
    landed: frozenset[str] = frozenset()
    """Allied reinforcements landed this Movement Phase, which move no further in it (11.2.4)."""
    landing_lines: tuple[tuple[str, int], ...] = ()
    """The line each was written on: a log ending inside the phase has them judged there (11.2.4)."""
    supply_losses: frozenset[str] = frozenset()
    """Allied units that took 12.0's loss as this Allied player turn ended (its last phase)."""
    # What happened in the game turn under way: every phase's record keeps it until a game turn begins.
    replaced: tuple[str, ...] = ()
    """The kinds (leg, mobile) of the replacement points used this game turn (11.2.5)."""
    weather_rolls: tuple[str, ...] = ()
    """Sides that have rolled for the markers put aside in inclement weather this game turn (14.1)."""


@frozen
class OmahaState(FireAndMovementState):
    """The series' state and Omaha's own."""

    set_up: bool = False
    """The log writes the set-up (`setup` entries), so GT 1 checks it is complete (11.0, 11.2.1)."""
    beachheads: frozenset[str] | None = None
    """Beach landing hexes with a beachhead marker (11.2.1): the beach hexes the assault landed on,
    less those a German unit has entered since; None until the set-up is known (all beach hexes)."""
    controlled: dict[str, str] = field(default_factory=dict)
    """The side that last entered each hex (13.0: captured locations)."""
    victory: Outcome | None = None
    """An automatic victory (13.0 sudden death, 14.3)."""
    log: OmahaPhaseLog = OmahaPhaseLog()
    """What has happened in the phase under way, Omaha's part included: the engine's, a new one at each marker."""
    lost_markers: Tally = NONE
    """Support fire markers eliminated for good (11.1.4 captures, 11.2.3), a count a marker."""
    withheld: Tally = NONE
    """Markers put aside for this game turn (11.2.3 on a 4, 14.1 in inclement weather), a count a marker."""
    mines_aside: Tally = NONE
    """Achtung Minen markers drawn and kept for a later combat this game turn (11.1.4), a count a marker."""
    owed: tuple[tuple[str, str, str, str], ...] = ()
    """Marker entries the rules call for and the log has not written yet: (how, side, marker or ''
    for any, section), due by the end of the next Support Fire Marker Phase."""
    pointe_du_hoc: int | None = None
    """The die of the Pointe du Hoc assault (11.2.3)."""
    ranger_moved: int = 0
    unlanded: frozenset[str] = frozenset()
    """Units 11.0 reported as neither set up nor landed as GT 1 began: while they stay off the map, what the log does
    with them (moves, attacks from their set-up box) is that one breach's follow-up (house style 16)."""
    late: frozenset[str] = frozenset()
    """Reinforcements reported as not brought on when due and able to arrive (11.1.2, 11.2.4): a lasting
    condition, reported once."""
    ranger_loss: bool = False
    """A loss of the Rangers was written after the Pointe du Hoc roll (11.2.3): a wrong one is its own line's
    error, so GT 1 does not report the loss again (one breach, one error)."""
    """Hexes the Rangers have moved since the Pointe du Hoc roll, up to the end of GT 1 (11.2.3)."""
    weather: str | None = None
    """This game turn's weather once rolled, 'fair' or 'inclement' (14.1)."""
    captured: frozenset[str] = frozenset()
    """11.1.4's places whose capture has already cost the German a marker."""
    assaulted: frozenset[str] = frozenset()
    """Beach landing hexes whose beach assault has been resolved before GT 1 (11.2.3)."""
    landing: tuple[tuple[str, int], ...] | None = None
    """The beach hexes the landing put units on, with how many, as the first beach assault began
    (11.2.1: whether the hexes chosen were full is judged then, not after the assaults' losses)."""
    left_beach: frozenset[str] = frozenset()
    """Units that have left a beach landing hex and never stack again (11.2.1)."""
    restacked: tuple[tuple[str, frozenset[str]], ...] = ()
    """Hexes where a unit that has left a beach landing hex was reported stacked as a phase ended, with their units
    (11.2.1): a lasting condition is one error until it is resolved (or another unit joins it), as 5.3's."""
    wiped_out: frozenset[str] = frozenset()
    """Beach hexes whose beach assault's units were all eliminated before GT 1: their beachhead markers are removed
    for good and the hexes land no reinforcement (11.2.3)."""
    last_turn: int | None = None
    """14.2: the campaign's last game turn, fixed as its GT 17 ends (None before, and in the scenario)."""
    beyond: Beyond = field(default=Beyond(), repr=False, compare=False)
    """The land hexes beyond the scenario boundary, where no unit may be (10.1; none in the campaign)."""
