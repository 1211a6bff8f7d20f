"""Who plays which side as the recording goes: by chat name, by password, and the one side played."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.vassal.output import Output
from wargame.game import Game
from wargame.vassal.tracking import PieceEvent, Player, PlayerEvent


@dataclass
class Seats:
    """The sides as the saved position has them; a player's Retire (a side change) updates them."""

    sides: set[str]
    roster: dict[str, Player]
    """Players by password."""
    output: Output
    side_of_name: dict[str, str] = field(default_factory=dict)
    side_of_password: dict[str, str] = field(default_factory=dict)
    recorder: str | None = None
    """The side, when the players seated play one only."""
    played: dict[str, frozenset[str]] = field(default_factory=dict)
    """Every side each player (by password) takes anywhere in the recording: more than one when one player plays
    both sides (a solo or hot-seat game), switching with Retire."""

    def __post_init__(self) -> None:
        self.seat()

    def seat(self) -> None:
        """Who plays which side now: by chat name, by password, and the side when only one is played."""
        players = [p for p in self.roster.values() if p.side in self.sides]
        self.side_of_name = {p.name: p.side for p in players}
        self.side_of_password = {p.password: p.side for p in players}
        recorders = {p.side for p in players}
        self.recorder = next(iter(recorders)) if len(recorders) == 1 else None

    def player_event(self, step: int, event: PlayerEvent) -> None:
        """A player takes or leaves a side (VASSAL's Retire button): later steps are theirs for it."""
        if event.side is None:
            self.roster.pop(event.password, None)
        else:
            self.roster[event.password] = Player(event.password, event.name, event.side)
            self.output.comment(step, f"step {step}: {event.name} plays {event.side} from here")
        self.seat()

    def actor_side(self, event: PieceEvent) -> str | None:
        """The side of the player who moved a counter, if the reader can tell."""
        if event.player_id is not None and event.player_id in self.side_of_password:
            return self.side_of_password[event.player_id]
        return self.recorder

    def sides_played(self, event: PieceEvent) -> frozenset[str]:
        """Every side the player who moved a counter takes anywhere in the recording (none when unknown)."""
        return self.played.get(event.player_id or "", frozenset())


def sided(game: Game, unit: str, actor: str | None) -> tuple[str, bool]:
    """The unit's side, and whether the other side made the move (a decision for the opponent)."""
    side = game.units_by_id[unit].side
    return side, actor is not None and actor != side


def retreat_decided(game: Game, unit: str, actor: str | None, attacking: str, owner_chooses: bool,
                    plays: frozenset[str] = frozenset()) -> tuple[str, bool]:
    """Who decided a retreat, as its entry's `Side:` or `Side>` (docs/log-format.md): the side of the player who
    dragged the counter, else (no player known) the side the rules give the choice to; `>` when that side is not the
    attacking one. `plays`: every side the dragging player takes in the recording; one who plays the side the rules
    give the choice to as well (a solo or hot-seat game) decided for it, whichever seat the drag was made from."""
    owner = game.units_by_id[unit].side
    chooser = owner if owner_chooses else attacking
    decider = chooser if actor is None or chooser in plays else actor
    return decider, decider != attacking
