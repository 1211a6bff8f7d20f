"""Where a log of a chain begins and ends (units, markers, turn tracker, by name), and how the two differ: a VASSAL
file's saved and final boards, a text log's replayed end (adjudicator.vassal.chain compares them at each join)."""

from __future__ import annotations

from collections import defaultdict

from adjudicator import contract
from adjudicator.contract import SequencePoint
from adjudicator.vassal.translate import Phase, face_of
from wargame.game import Game
from wargame.records import frozen
from wargame.vassal.encoding import step_suffix
from wargame.vassal.pieces import Piece
from wargame.vassal.places import Places
from wargame.vassal.turns import tracker_position

OUT_OF_PLAY = "out of play"


@frozen
class Position:
    """Where the units and markers are, by name: what one log ends at and the next begins from."""

    units: dict[str, tuple[str, int]]
    """Every unit in play: its hex or box, and the steps its face shows lost (0 full, 1 reduced, 2 or 3 further)."""
    markers: dict[str, tuple[str, ...]] | None
    """Every marker's places (None: not known, as after a text log, whose replay has no markers)."""
    turn: tuple[int, str] | None
    """The turn and the name of its step or phase, as the turn tracker shows them."""


def in_play(game: Game, place: str, kind: str) -> bool:
    """False for a unit no longer (or not yet) in play: off every map, eliminated, out of play."""
    # A deleted counter and one dropped in an Eliminated box are the same to the game (the reader
    # translates both as an elimination), and a rule system keeps eliminated units in the box.
    boxes = {b.id: b.kind for b in game.manifest.box}
    return kind != "none" and boxes.get(place) != "eliminated" and place != contract.OUT_OF_PLAY


def turn_of(turns: dict[str, str], phase_list: list[Phase]) -> tuple[int, str] | None:
    """The first turn tracker's turn and step, as the reader translates them."""
    for tracker_id in sorted(turns):
        position = tracker_position(turns[tracker_id])
        if position is not None and len(position) >= 2 and 0 <= position[1] < len(phase_list):
            return position[0], phase_list[position[1]].name
    return None


def vassal_position(game: Game, places: Places, phase_list: list[Phase], pieces: dict[str, Piece],
                    turns: dict[str, str]) -> Position:
    """The position of a VASSAL board: its units, markers and turn tracker, named as the reader names them."""
    units: dict[str, tuple[str, int]] = {}
    markers: dict[str, list[str]] = defaultdict(list)
    for piece in sorted(pieces.values(), key=lambda p: p.piece_id):
        where = places.locate(piece.map_name, piece.x, piece.y)
        unit, marker = piece.properties.get("UnitId"), piece.properties.get("MarkerId")
        if unit in game.units_by_id:
            if in_play(game, where.name, where.kind):
                units[unit] = (where.name, face_of(piece))
        elif marker in game.markers_by_id and piece.map_name is not None:
            markers[marker].append(where.name)
    return Position(units, {m: tuple(sorted(p)) for m, p in markers.items()}, turn_of(turns, phase_list))


def phase_index(at: SequencePoint, phase_list: list[Phase]) -> int | None:
    """The turn tracker's step for a replayed state's step (Onslaught) or phase and player turn (F&M)."""
    return next((i for i, p in enumerate(phase_list)
                 if p.step == at.step and (not at.player_turn or p.name.startswith(f"{at.player_turn} "))), None)


def replayed_position(game: Game, replayed: contract.Position, phase_list: list[Phase]) -> Position:
    """The position a replay ended at (the contract's `Position` of its last state); markers are not known."""
    units = {u: (where.place, where.face) for u, where in replayed.units.items()
             if u in game.units_by_id and in_play(game, where.place, "box")}
    index = phase_index(replayed.at, phase_list)
    return Position(units, None, None if index is None else (replayed.turn, phase_list[index].name))


def differences(now: Position, before: Position, ended: str) -> list[str]:
    """What differs between a saved position and where the previous file ended (`ended`: "X ended")."""
    out: list[str] = []

    def unit_at(where: tuple[str, int] | None) -> str:
        return OUT_OF_PLAY if where is None else where[0] + step_suffix(where[1] + 1)

    for unit in sorted(set(now.units) | set(before.units)):
        if now.units.get(unit) != before.units.get(unit):
            out.append(f"{unit} is {'' if unit not in now.units else 'at '}{unit_at(now.units.get(unit))}, "
                       f"{ended} with it {'' if unit not in before.units else 'at '}"
                       f"{unit_at(before.units.get(unit))}")
    if now.markers is not None and before.markers is not None:
        for marker in sorted(set(now.markers) | set(before.markers)):
            here, there = now.markers.get(marker, ()), before.markers.get(marker, ())
            if here != there:
                several = len(here) > 1 or len(there) > 1
                out.append(f"marker{'s' if several else ''} {marker} {'are' if several else 'is'} "
                           f"{'at ' + ', '.join(here) if here else 'not on the board'}, {ended} with "
                           f"{'them' if several else 'it'} {'at ' + ', '.join(there) if there else 'off the board'}")
    if now.turn is not None and before.turn is not None and now.turn != before.turn:
        out.append(f"the turn tracker is at turn {now.turn[0]}, {now.turn[1]}; {ended} at turn {before.turn[0]}, "
                   f"{before.turn[1]}")
    return out
