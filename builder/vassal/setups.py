"""Scenario set-ups: the first scenario's stacks and cups in the buildFile, and each scenario's saved game (.vsav)."""

from __future__ import annotations

import math
from collections import defaultdict

from lxml import etree

from builder.vassal.art import Frame
from builder.vassal.build_file import PieceDef, SlotIds, add_slot, el
from builder.vassal.decks import Cup, add_decks, cup_of, draw_pile_attributes
from builder.vassal.maps import BOXES_MAP, HOLDING_BOARD, MAIN_MAP
from builder.vassal.pieces import expanded, starting_face
from wargame.game import Game
from wargame.vassal.encoding import Trait, basic_state, chain
from wargame.vassal.savefile import PlacedPiece, command_tree, save_archive


def add_setup_stacks(main: etree._Element, holding: etree._Element, game: Game, art: Frame, units: dict[str, PieceDef],
                     markers: dict[str, PieceDef], ids: SlotIds) -> None:
    """The first scenario's set-up: a SetupStack per hex and box, a face-down DrawPile per cup."""
    scenario = game.manifest.scenario[0]
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    stacks: dict[tuple[str, str], list[PieceDef]] = defaultdict(list)
    for _, placement in game.setup:
        if placement.scenario != scenario.id:
            continue
        piece = starting_face(game, placement, units.get(placement.piece) or markers[placement.piece])
        kind = "hex" if game.grid.is_label(placement.location) else "box"
        stacks[(kind, placement.location)] += [piece] * placement.count
    for (kind, location), pieces in sorted(stacks.items()):
        if kind == "hex":
            stack = el(main, "module.map.SetupStack", name=f"Set-up {location}", owningBoard=game.map.name,
                       useGridLocation="true", location=location, x="0", y="0")
        elif location in cups:
            # A cup is a face-down deck: a drag draws one marker at random (DrawPile, Deck.drawCards).
            cup = cup_of(game, art.holding, art.counter_px, location, len(pieces))
            pile = el(holding, "module.map.DrawPile", **draw_pile_attributes(cup))
            for piece in pieces:
                add_slot(pile, piece, ids, "widget.CardSlot")
            continue
        else:
            x, y = art.holding.location_of(location) or (0, 0)
            stack = el(holding, "module.map.SetupStack", name=f"Set-up {location}", owningBoard=HOLDING_BOARD,
                       useGridLocation="false", location="", x=str(x), y=str(y))
        for piece in pieces:
            add_slot(stack, piece, ids)


def setup_save(game: Game, scenario_id: str, units: dict[str, PieceDef], markers: dict[str, PieceDef],
               protos: dict[str, list[Trait]], art: Frame, version: str, moduledata: bytes) -> bytes:
    """A .vsav with the scenario's set-up, pieces placed as VASSAL itself would."""
    placed: list[PlacedPiece] = []
    cups = {b.id for b in game.manifest.box if b.kind == "draw_cup"}
    in_cups: dict[str, list[tuple[PieceDef, str]]] = defaultdict(list)
    for n, (_, placement) in enumerate(r for r in game.setup if r[1].scenario == scenario_id):
        piece = starting_face(game, placement, units.get(placement.piece) or markers[placement.piece])
        if placement.location in cups:
            in_cups[placement.location] += [(piece, f"{scenario_id}-{n}-{k}") for k in range(placement.count)]
            continue
        if game.grid.is_label(placement.location):
            cx, cy = art.layout.centre(game.grid.hex_of(placement.location))
            map_name, x, y = MAIN_MAP, math.floor(cx), math.floor(cy)
        else:
            map_name = BOXES_MAP
            x, y = art.holding.location_of(placement.location) or (0, 0)
        for k in range(placement.count):
            traits = expanded(piece.traits, protos)
            gpid = piece.gpids[0] if piece.gpids else ""
            type_text, state_text = chain(traits, basic_state(gpid, map_name, x, y))
            placed.append(PlacedPiece(f"{scenario_id}-{n}-{k}", type_text, state_text, map_name, x, y))
    tree = command_tree(placed, [(MAIN_MAP, game.map.name), (BOXES_MAP, HOLDING_BOARD)])
    # Deck.getState lists its pieces by id: they are added first, on the deck's map and position.
    decks: list[tuple[Cup, list[tuple[str, str, str]]]] = []
    for box_id, cup_pieces in sorted(in_cups.items()):
        cup = cup_of(game, art.holding, art.counter_px, box_id, len(cup_pieces))
        contents = []
        for piece, piece_id in cup_pieces:
            gpid = piece.gpids[0] if piece.gpids else ""
            type_text, state_text = chain(expanded(piece.traits, protos), basic_state(gpid, BOXES_MAP, cup.x, cup.y))
            contents.append((piece_id, type_text, state_text))
        decks.append((cup, contents))
    return save_archive(add_decks(tree, decks), game.manifest.title, version, moduledata, 0)
