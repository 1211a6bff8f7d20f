"""The module's pieces: the prototypes, and each unit and marker as a definition of traits."""

from __future__ import annotations

from builder.render.counters import marker_image_name, unit_faces
from builder.vassal.art import unit_image
from builder.vassal.build_file import PieceDef
from builder.vassal.declare import marker_traits, unit_traits
from builder.vassal.decks import mask_image
from builder.vassal.traits import mask
from wargame.game import Game
from wargame.models import Marker, Placement, Unit
from wargame.vassal.encoding import (
    Trait, basic_piece, delete, layer_two_sided, properties, report_flip, step_level_names, use_prototype,
)


def unit_prototype_name(game: Game, unit: Unit) -> str:
    """The prototype of a unit's type (traits shared by every unit of the type)."""
    return f"{game.manifest.id} {unit.type}"


def prototypes(game: Game) -> dict[str, list[Trait]]:
    """Prototype traits by name: one per unit type, one for markers."""
    names = {t.id: t.name for t in game.manifest.unit_type}
    out: dict[str, list[Trait]] = {}
    for type_id in sorted(names):
        out[f"{game.manifest.id} {type_id}"] = [
            properties({"Type": names[type_id], "Game": game.manifest.id}),
            *unit_traits(game),
            report_flip("$oldPieceName$ flipped to $newPieceName$ at $location$ *"),
            delete(),
            basic_piece(""),
        ]
    out[f"{game.manifest.id} marker"] = [properties({"Game": game.manifest.id}), delete(), basic_piece("")]
    return out


def starting_face(game: Game, placement: Placement, piece: PieceDef) -> PieceDef:
    """The piece as set up: a two-step unit of a side whose rules set it up reduced (rules.toml's start_reduced)
    shows its reduced face (the layer's second level), sharing the definition's slots."""
    unit = game.units_by_id.get(placement.piece)
    if unit is None or unit.steps < 2 or game.rules is None or unit.side not in game.rules.start_reduced \
            or not game.grid.is_label(placement.location):
        return piece
    return PieceDef(piece.name, [Trait(t.type, "2") if t.type.startswith("emb2;") else t for t in piece.traits],
                    piece.slot_px, piece.gpids)


def unit_piece(game: Game, unit: Unit, size_px: int) -> PieceDef:
    """A unit as a piece: properties, its type's prototype, the two-sided layer."""
    values = "-".join(map(str, unit.full))
    props = {
        "UnitId": unit.id, "Side": unit.side, "Nationality": unit.nationality, "UnitType": unit.type,
        "Mobility": unit.mobility, "Size": unit.size, "Steps": str(unit.steps), "Values": values,
        "Reduced": "-".join(map(str, unit.reduced)) if unit.reduced else "", "ZOC": "yes" if unit.zoc else "no",
    }
    if unit.further_reduced:
        props["Further"] = ";".join("-".join(map(str, face)) for face in unit.further_reduced)
    traits = [properties(props), use_prototype(unit_prototype_name(game, unit))]
    if unit.steps >= 2:
        # One level a face, full first: Ctrl+F flips to the next face down, a step lost (3- and 4-step units too).
        faces = unit_faces(unit)
        traits.append(layer_two_sided([unit_image(unit.id, f) for f in faces], step_level_names(len(faces))))
        traits.append(basic_piece(unit.id, ""))
    else:
        traits.append(basic_piece(unit.id, unit_image(unit.id, "full")))
    return PieceDef(unit.id, traits, size_px)


def marker_piece(game: Game, marker: Marker, faces: int, size_px: int, masked: bool = False) -> PieceDef:
    """A marker as a piece (two-sided when it has a flip side; masked when it is drawn from a cup)."""
    props = {"MarkerId": marker.id, "Kind": marker.kind, "Side": marker.side or "",
             "Value": "" if marker.value is None else str(marker.value)}
    traits = [properties(props), *marker_traits(game, marker.kind), use_prototype(f"{game.manifest.id} marker")]
    if masked:
        # Outermost, so a face-down deck (Properties.OBSCURED_BY) hides every face of the marker.
        traits.insert(0, mask(mask_image(marker.side or ""), f"{marker.side or 'A'} marker (face down)"))
    if faces > 1:
        # 8.2: a supply marker flips to its +30/+20 side above the track's last space; say so in the chat.
        traits.insert(1, report_flip("$oldPieceName$ flipped to $newPieceName$ at $location$ *"))
        # Embellishment.getName splits a level name at '+' (SequenceEncoder): "+x" is a suffix, and
        # a '+' of the text itself ("+30") must be escaped, or the name reads "Allied supply (".
        texts = [(marker.text or str(f + 1)).replace("+", "\\+") for f in range(1, faces)]
        suffixes = [f"+ ({text})" for text in texts]
        traits.append(layer_two_sided([marker_image_name(marker.id, f) for f in range(faces)], ["", *suffixes]))
        traits.append(basic_piece(marker.name, ""))
    else:
        traits.append(basic_piece(marker.name, marker_image_name(marker.id, 0)))
    return PieceDef(marker.name, traits, size_px)


def expanded(traits: list[Trait], protos: dict[str, list[Trait]]) -> list[Trait]:
    """Traits with prototypes replaced by their own traits, as VASSAL keeps pieces in play."""
    out: list[Trait] = []
    for trait in traits:
        if trait.type.startswith("prototype;"):
            out += protos[trait.type.removeprefix("prototype;")][:-1]
        else:
            out.append(trait)
    return out
