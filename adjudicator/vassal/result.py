"""What a translation gives: entries with notes and step descriptions, what it hands the next log of the
game, and the turn tracker's steps it reads turns by."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.notation.entries import Attack, Bombard, Entry
from adjudicator.vassal.movement import Followed, Lost
from wargame.game import Game
from wargame.records import frozen
from wargame.sequence import turn_sequence
from wargame.vassal.buildfile import ModuleInfo

MAX_DIFFERENCES = 40


@frozen
class Phase:
    """One level of our modules' turn tracker: the sequence step and the name it shows."""

    step: str
    name: str


def phases(game: Game) -> list[Phase]:
    """Our modules' turn-tracker steps in order: the game's sequence of play (wargame/sequence.py), without the
    opening played before the first turn, which has no tracker step: a recording's moves before its first turn
    step are the opening's entries, written with no step marker as in a text log."""
    return [Phase(slot.id, slot.name) for slot in turn_sequence(game.manifest)]


def module_phases(game: Game, module: ModuleInfo) -> tuple[list[Phase], str | None]:
    """The module's turn-tracker steps matched to the game's by name (else the game's, and a note)."""
    ours = phases(game)
    if not module.turn_names:
        return ours, None
    by_name = {p.name.lower(): p for p in ours}
    unknown = [n for n in module.turn_names if n.lower() not in by_name]
    if unknown:
        return ours, (f"the module's turn tracker lists steps {game.id} does not have ({', '.join(unknown)}); the "
                      "game's own list of steps is used")
    return [by_name[n.lower()] for n in module.turn_names], None


@frozen
class Note:
    """Something a person should know about the translation of one step (0: the saved position)."""

    step: int
    message: str


@frozen
class Carry:
    """What the translation of one log hands the next log of the same game (docs/vassal-logs.md, chains)."""

    scenario: str
    turn_at: tuple[int, int] | None
    """The turn and the index of the step in the turn tracker's list."""
    tracker_id: str | None
    eliminated: frozenset[str]
    """Units eliminated, so that bringing one back is a replacement, not a reinforcement."""
    open_attack: Attack | Bombard | None
    """An attack or bombardment declared last, so that the defender's drag in the next log is its retreat."""
    last_roll: tuple[str, int] | None
    """A die one side rolled last, so that the other side's die in the next log makes the roll-off."""
    game_state: Callable[[], Followed[object] | Lost | None] | None = None
    """The rule system's state where the log ended (worked out when asked), for the next log's paths."""
    optional: frozenset[str] = frozenset()
    """The optional rules typed in chat (`[Optional "..."]`) so far, which decide what the next log's dice are."""
    tracker_at: tuple[int, int] | None = None
    """Where the turn tracker itself stood when the log ended (typed markers may have gone further)."""


@dataclass
class Translation:
    """Entries in the notation, each with its VASSAL step as its line, and what to know about them."""

    game: Game
    file: str
    scenario: str
    entries: list[Entry]
    notes: list[Note]
    steps: dict[int, str]
    """A one-line description of every step, by number."""
    endpoint_moves: dict[int, str] = field(default_factory=dict)
    """Entries (by index) whose path VASSAL did not record, and how the reader chose it."""
    undone: dict[int, int] = field(default_factory=dict)
    """Steps undone (by the step that undid them)."""
    carry: Carry | None = None
    """Where the translation ended, for the next log of the game."""
    saved_differences: tuple[str, ...] = ()
    """How the saved position differs from the scenario's set-up the replay starts from (units, markers on tracks)."""
    remarks: dict[int, str] = field(default_factory=dict)
    """What the verdict says under the findings of a step (by step): what the reader wrote there and why."""
