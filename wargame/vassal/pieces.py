"""Pieces read back from VASSAL: the trait chain of a piece's type and state, its properties,
its layers and where it lies.

Format facts: `../shared/reference/vassal-format.md` 1.5 (`Decorator.getType`/`getState`:
parallel tab-separated chains, outermost trait first, BasicPiece last; `BasicPiece` state;
`Marker` properties; `Embellishment` levels), checked against VASSAL 3.7.26's sources.
"""

from __future__ import annotations

import re
from dataclasses import field

from wargame.errors import DataError, Place
from wargame.records import frozen
from wargame.vassal.commands import split

MAX_TRAITS = 500
"""More traits than any real piece has (VASSAL modules rarely pass a few dozen)."""

WHOLE = re.compile(r"^-?[0-9]{1,9}$")
TRAIT_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,63}(?:;|$)")

# Trait ids of VASSAL 3.7.26 (`BasicCommandEncoder.decoratorFactories` and each trait's `ID`);
# others are kept as unknown, as VASSAL itself does (it reads them as a `mark;` and warns).
KNOWN_TRAITS = frozenset({
    "immob", "emb", "emb2", "hide", "obs", "label", "table", "propertysheet", "rotate", "pivot", "nonRect",
    "nonRect2", "mark", "locmsg", "restrict", "placemark", "replace", "report", "markmoved", "footprint", "return",
    "sendto", "prototype", "clone", "delete", "submenu", "menuSeparator", "translate", "AreaOfEffect", "globalkey",
    "macro", "PROP", "calcProp", "setprop", "setpieceprop", "hideCmd", "playSound", "button", "globalhotkey",
    "deselect", "mat", "matPiece", "basicName", "border", "attach", "locCommand", "cmt", "piece",
})


@frozen
class Trait:
    """One trait of a piece: its id (`mark`, `emb2`...), type text and state text."""

    id: str
    type_text: str
    state_text: str


@frozen
class Layer:
    """A Layer (`emb2;`) trait: its name, level names and current level (1-based)."""

    name: str
    level_names: tuple[str, ...]
    level: int
    active: bool


@frozen
class Piece:
    """A piece as VASSAL saved it: traits, the innermost BasicPiece's name and position."""

    piece_id: str
    name: str
    traits: tuple[Trait, ...]
    map_name: str | None
    x: int
    y: int
    gpid: str
    properties: dict[str, str] = field(default_factory=dict)
    """Marker trait properties (`UnitId`, `Side`...) and BasicPiece's persistent ones, outer wins."""
    unknown_traits: tuple[str, ...] = ()

    def layer(self, name: str | None = None) -> Layer | None:
        """The Layer called `name` (or the first Layer), if the piece has one."""
        for trait in self.traits:
            if trait.id == "emb2":
                found = _layer(trait)
                if found is not None and (name is None or found.name == name):
                    return found
        return None


def _chain(text: str, what: str, place: Place) -> list[str]:
    """The tokens of a tab-separated Decorator chain, outermost first."""
    out: list[str] = []
    rest = text
    while True:
        tokens = split(rest, "\t")
        out.append(tokens[0])
        if len(tokens) == 1:
            return out
        if len(tokens) > 2:
            raise DataError(f"malformed piece {what}: a trait's {what} holds an unescaped tab ({len(tokens)} "
                            f"tab-separated parts): expected two, the trait's own {what} then the inner traits' "
                            "with their tabs escaped", place)
        if len(out) >= MAX_TRAITS:
            raise DataError(f"malformed piece {what}: more than {MAX_TRAITS} traits: expected at most {MAX_TRAITS} "
                            "(no real piece has so many)", place)
        rest = tokens[1]


def _layer(trait: Trait) -> Layer | None:
    fields = split(trait.type_text[len("emb2;"):], ";")
    if len(fields) < 19:
        return None
    names = tuple(split(fields[16], ",")) if fields[16] else ()
    value = trait.state_text.strip()
    try:
        level = int(value) if value else 1
    except ValueError:
        return None
    return Layer(fields[18], names, abs(level), level > 0)


def read_piece(piece_id: str, type_text: str, state_text: str, place: Place) -> Piece:
    """A piece from its type and state chains; DataError if they do not fit together."""
    return _assemble(piece_id, _chain(type_text, "type", place), _chain(state_text, "state", place), place)


def with_state(piece: Piece, state_text: str, place: Place) -> Piece:
    """The same piece with a new state chain (a `D/` change)."""
    return _assemble(piece.piece_id, [t.type_text for t in piece.traits], _chain(state_text, "state", place), place)


def _assemble(piece_id: str, types: list[str], states: list[str], place: Place) -> Piece:
    if len(states) < len(types):
        # Decorator.setState reads one state per trait: a missing one is an error in VASSAL too.
        raise DataError(f"malformed piece state: {len(types)} traits but {len(states)} states: expected one state "
                        "per trait", place)
    traits: list[Trait] = []
    unknown: list[str] = []
    for type_part, state_part in zip(types, states):
        m = TRAIT_ID.match(type_part)
        if m is None:
            raise DataError(f"malformed piece type: trait {type_part[:40]!r} has no id: expected it to begin with "
                            "one, a name and ';' (like 'mark;')", place)
        trait_id = m.group().rstrip(";")
        if trait_id not in KNOWN_TRAITS:
            unknown.append(trait_id)
        traits.append(Trait(trait_id, type_part, state_part))
    basic = traits[-1]
    if basic.id != "piece":
        raise DataError(f"unsupported piece: the innermost trait is {basic.id!r}, not a basic piece ('piece;')",
                        place)
    name_fields = split(basic.type_text[len("piece;"):], ";")
    name = name_fields[3] if len(name_fields) > 3 else ""
    map_name, x, y, gpid, extra = _basic_state(basic.state_text, place)
    props = dict(extra)
    # Outer traits win over inner ones, as VASSAL's getProperty asks from the outside in.
    for trait in reversed(traits[:-1]):
        if trait.id == "mark":
            keys = split(trait.type_text[len("mark;"):], ",")
            values = split(trait.state_text, ",")
            for i, key in enumerate(keys):
                if key:
                    props[key] = values[i] if i < len(values) else ""
    return Piece(piece_id, name, tuple(traits), map_name, x, y, gpid, props, tuple(unknown))


def _basic_state(text: str, place: Place) -> tuple[str | None, int, int, str, list[tuple[str, str]]]:
    """BasicPiece state: map, x, y, gpid, then the persistent properties (count, key, value...)."""
    tokens = split(text, ";")
    map_name = None if tokens[0] in ("null", "") else tokens[0]
    position = tokens[1:3]
    if not all(WHOLE.match(p) for p in position if p):
        raise DataError(f"malformed piece state: position {';'.join(position)[:40]!r} is not two whole numbers: "
                        "expected the map's name, then x;y in whole pixels (like 'Main Map;120;340')", place)
    x = int(position[0]) if position and position[0] else 0
    y = int(position[1]) if len(position) > 1 and position[1] else 0
    gpid = tokens[3] if len(tokens) > 3 else ""
    extra: list[tuple[str, str]] = []
    if len(tokens) > 4 and tokens[4]:
        if not (tokens[4].isascii() and tokens[4].isdigit()):
            raise DataError(f"malformed piece state: property count {tokens[4][:20]!r} is not a whole number: "
                            "expected how many key;value pairs follow (like '2')", place)
        count = min(int(tokens[4]), (len(tokens) - 5) // 2)
        extra = [(tokens[5 + 2 * i], tokens[6 + 2 * i]) for i in range(count)]
    return map_name, x, y, gpid, extra
