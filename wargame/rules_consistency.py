"""Cross-checks of a classic game's rules.toml against its other data: every name it uses is the game's
(result codes against crt.toml, terrain, phases, areas, places, sides, units, turns), so a designer's slip is
a `validate` error at its file, never a failure at referee time."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from wargame.errors import DataError, Place, did_you_mean

if TYPE_CHECKING:
    from wargame.gamedata import Game
    from wargame.toml_lines import TomlLines


def check_rules(game: Game) -> list[DataError]:
    """Every name rules.toml uses that the game's data does not have."""
    rules = game.rules
    if rules is None:
        file = game.files.get("rules", game.root / "counters" / game.id / "rules.toml")
        # A rules.toml that is there but did not load has its own errors already: not "missing" as well.
        if game.manifest.rule_system == "classic" and not file.is_file():
            return [DataError("a game on the classic rule system needs counters/GAME/rules.toml (its rules as data; "
                              "docs/designing-a-game.md)", Place(file))]
        return []
    file = game.files["rules"]
    errors: list[DataError] = []
    indexed: list[TomlLines | None] = []  # rules.toml's keys, indexed at the first problem

    def add(message: str, *at: str | int) -> None:
        """A problem at the line of a key path of rules.toml."""
        if not indexed:
            from wargame.toml_lines import TomlLines

            try:
                indexed.append(TomlLines(file.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                indexed.append(None)
        lines = indexed[0]
        key = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in at).lstrip(".")
        errors.append(DataError(message, Place(file, lines.line_of(at) if lines else None, None, key or None)))

    def known(word: str, vocabulary: Collection[str], what: str, *at: str | int) -> None:
        # Asked of every name rules.toml uses: a membership test, the vocabulary sorted only for a suggestion.
        if word not in vocabulary:
            add(f"unknown {what} {word!r}{did_you_mean(word, vocabulary)}", *at)

    sides = game.manifest.sides
    terrain = set(game.terrain)
    areas = set(game.areas_by_id)
    places = {p.name for _, p in game.places} | set(game.grid.labels)
    phases = {i.id for item in game.manifest.sequence for i in (item, *item.items)}
    last = max((s.last_turn for s in game.manifest.scenario), default=0)
    codes = {r.code for r in rules.combat.results}
    if game.crt is not None:
        for row in game.crt.results:
            for cell in row:
                known(cell, codes, "result code (crt.toml's, not in rules.toml's [[combat.results]])",
                      "combat", "results")
        for k, result in enumerate(rules.combat.results):
            if result.code not in game.crt.result_codes:
                add(f"result code {result.code!r} is not one of crt.toml's result_codes", "combat", "results", k,
                    "code")
        if rules.combat.below == "no_effect":
            known(rules.combat.below_result, codes, "result code", "combat", "below_result")
        if game.crt.kind == "differential":
            errors.extend(_rising_differentials(game))
    for side in rules.start_reduced:
        known(side, sides, "side", "start_reduced")
    for line, record in game.replacements:
        if record.turn > last:
            errors.append(DataError(f"replacements on turn {record.turn}, past the last turn ({last})",
                                    Place(game.files["replacements"], line, None, "turn")))
    types = {t.id for t in game.manifest.unit_type}
    for i, condition in enumerate(rules.condition):
        for unit_type in condition.allowance_by_type:
            known(unit_type, types, "unit type", "condition", i, "allowance_by_type", unit_type)
        for turn in condition.turns:
            if turn > last:
                add(f"condition {condition.id!r}: turn {turn} is past the last turn ({last})", "condition", i, "turns")
    _turn_records(game, add, known)
    for k, phase in enumerate(rules.movement.phases):
        known(phase.id, phases, "phase of [[sequence]]", "movement", "phases", k, "id")
    if game.manifest.value_names and rules.movement.value not in game.manifest.value_names:
        known(rules.movement.value, game.manifest.value_names, "counter value", "movement", "value")
    _strength_values(game, add, known)
    errors.extend(_setup_stacks(game))
    for k, effect in enumerate(rules.combat.terrain):
        known(effect.terrain, terrain, "terrain", "combat", "terrain", k, "terrain")
        for side in effect.sides:
            known(side, sides, "side", "combat", "terrain", k, "sides")
        for other in effect.unless:
            known(other, terrain, "terrain", "combat", "terrain", k, "unless")
    for t in rules.zoc.into_hexside:
        known(t, terrain, "terrain", "zoc", "into_hexside")
    for t in rules.zoc.unless:
        known(t, terrain, "terrain", "zoc", "unless")
    for t in rules.combat.retreat.prohibited_terrain:
        known(t, terrain, "terrain", "combat", "retreat", "prohibited_terrain")
    if rules.movement.rail is not None:
        known(rules.movement.rail.feature, terrain, "hexside feature", "movement", "rail", "feature")
        for side in rules.movement.rail.sides:
            known(side, sides, "side", "movement", "rail", "sides")
    if rules.replacements is not None:
        r = rules.replacements
        for table, by_side in (("places", r.places), ("unit_types", r.unit_types)):
            for side in by_side:
                known(side, sides, "side", "replacements", table, side)
        for side, ids in r.places.items():
            for area in ids:
                known(area, areas, "area of areas.toml", "replacements", "places", side)
        for side, names in r.communication_exempt.items():
            known(side, sides, "side", "replacements", "communication_exempt", side)
            for name in names:
                known(name, places, "place of places.csv", "replacements", "communication_exempt", side)
        for unit in r.from_turn:
            known(unit, game.units_by_id, "unit", "replacements", "from_turn", unit)
        for side, ids in r.unit_types.items():
            for unit_type in ids:
                known(unit_type, types, "unit type", "replacements", "unit_types", side)
    if rules.supply is not None:
        for side, ids in rules.supply.sources.items():
            known(side, sides, "side", "supply", "sources", side)
            for area in ids:
                known(area, areas, "area of areas.toml", "supply", "sources", side)
    if rules.victory is not None:
        v = rules.victory
        for side in v.initial:
            known(side, sides, "side", "victory", "initial", side)
        if v.initial_others:
            known(v.initial_others, sides, "side", "victory", "initial_others")
        for side, names in v.initial.items():
            for name in names:
                known(name, places, "place of places.csv (or hex)", "victory", "initial", side)
        known(v.otherwise, [*sides, "draw"], "side (or draw)", "victory", "otherwise")
        for name in v.points:
            known(name, places, "place of places.csv (or hex)", "victory", "points", name)
        for k, c in enumerate(v.conditions):
            known(c.winner, [*sides, "draw"], "side (or draw)", "victory", "conditions", k, "winner")
            if c.side is not None:
                known(c.side, sides, "side", "victory", "conditions", k, "side")
            elif c.winner == "draw" and (c.controls or c.also_controls or c.points_at_least is not None):
                add("a draw's condition naming places or points says whose they are (side = one of "
                    f"{', '.join(sides)})", "victory", "conditions", k)
            for field, names in (("controls", c.controls), ("also_controls", c.also_controls)):
                for name in names:
                    known(name, places, "place of places.csv (or hex)", "victory", "conditions", k, field)
    return errors


def _turn_records(game: Game, add: Callable[..., None], known: Callable[..., None]) -> None:
    """Each `[[turn]]` record: a turn of the game, once a side, for the game's sides and unit types; each error at
    its record's line."""
    rules = game.rules
    assert rules is not None
    last = max((s.last_turn for s in game.manifest.scenario), default=0)
    types = {t.id for t in game.manifest.unit_type}
    seen: set[tuple[int, str]] = set()
    for index, record in enumerate(rules.turn):
        if record.number > last:
            add(f"turn {record.number} is past the last turn ({last})", "turn", index, "number")
        for side in record.sides:
            known(side, game.manifest.sides, "side", "turn", index, "sides")
        for unit_type in record.allowance_by_type:
            known(unit_type, types, "unit type", "turn", index, "allowance_by_type", unit_type)
        for side in record.sides or game.manifest.sides:
            if (record.number, side) in seen:
                add(f"turn {record.number} is given twice for the {side} units", "turn", index, "number")
            seen.add((record.number, side))


def _rising_differentials(game: Game) -> list[DataError]:
    """A classic differential table's columns are whole numbers (`-2`, `0`, `+3`), each higher than the one before:
    the referee reads the highest column at or below an attack's differential and shifts along them (an odds
    table's columns are checked by its model)."""
    assert game.crt is not None
    file = game.files["crt"]
    from wargame.toml_lines import toml_line  # here: only a table in question is indexed

    try:
        line = toml_line(file.read_text(encoding="utf-8"), ("columns",))
    except (OSError, UnicodeDecodeError):
        line = None
    values: list[int] = []
    for column in game.crt.columns:
        signed = column.replace("\u2212", "-")
        digits = signed[1:] if signed.startswith(("+", "-")) else signed  # one sign at most
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
            return [DataError(f"differential column {column!r} is not a whole number (e.g. '-2', '0', '+3'): a "
                              "classic differential table's columns are the differences they read",
                              Place(file, line, None, "columns"))]
        values.append(int(signed))
    for before, after, label in zip(values, values[1:], game.crt.columns[1:]):
        if after <= before:
            return [DataError(f"differential column {label!r} is not higher than the one before it: the columns rise "
                              "from left to right", Place(file, line, None, "columns"))]
    return []


def _setup_stacks(game: Game) -> list[DataError]:
    """Each scenario's set-up within the stacking limit (a set-up hex over it is the data's error, not a log's), one
    error a hex at the row that puts it over."""
    rules = game.rules
    assert rules is not None
    stacking = rules.stacking
    units = game.units_by_id
    count: dict[tuple[str, str, str], int] = {}
    errors: list[DataError] = []
    for line, p in game.setup:
        unit = units.get(p.piece)
        if unit is None or not game.grid.is_label(p.location):
            continue
        # A unit counts one, or its steps on the face it sets up on (one fewer for a side starting reduced).
        worth = 1 if stacking.count == "units" else max(unit.steps - (unit.side in rules.start_reduced), 1)
        key = (p.scenario, p.location, unit.side)
        before = count.get(key, 0)
        count[key] = before + worth
        if before <= stacking.limit < count[key]:
            errors.append(DataError(f"scenario {p.scenario!r} sets up {count[key]} {stacking.count} of the "
                                    f"{unit.side} side in {p.location}, over the stacking limit of {stacking.limit} "
                                    f"(rules.toml [stacking], {stacking.source})",
                                    Place(game.files["setup"], line, None, "location")))
    return errors


def _strength_values(game: Game, add: Callable[..., None], known: Callable[..., None]) -> None:
    """The counter values combat reads are the game's, and named when a counter prints more than one besides the
    movement allowance (an attack and a defence strength: which is which is the designer's to say)."""
    rules = game.rules
    names = game.manifest.value_names
    if rules is None or not names:
        return
    combat = rules.combat
    for key in ("attack_value", "defence_value"):
        value = getattr(combat, key)
        if value is not None:
            known(value, names, "counter value", "combat", key)
    others = [n for n in names if n != rules.movement.value]
    if len(others) > 1 and (combat.attack_value is None or combat.defence_value is None):
        add(f"game.toml's value_names has {len(others)} values besides the movement allowance "
            f"({', '.join(others)}): say which a unit attacks with and which it defends with "
            f"([combat] attack_value and defence_value)", "combat")


def data_warnings(game: Game) -> list[DataError]:
    """What a classic game's data say that is lawful but likely not meant (`vmodbuild validate` prints it and does
    not fail): a hexside feature with a road's `mp_cost` found only where another feature costs or bars the
    crossing, the way a bridge was written before `cancels` (its step then costs the `mp_cost` whatever the hex)."""
    if game.manifest.rule_system != "classic":
        return []  # `cancels` and the road's reading of `mp_cost` are the classic series' (other systems read theirs)
    terrain = game.terrain
    sides: dict[str, list[frozenset[str]]] = {}
    for features in game.hexside_features.values():
        for f in features:
            sides.setdefault(f, []).append(features)
    out: list[DataError] = []
    lines: list[TomlLines | None] = []
    file = game.files["terrain"]
    for i, t in enumerate(terrain.values()):
        if t.kind != "hexside" or t.mp_cost is None or t.cancels or not sides.get(t.id):
            continue
        crossed = {f for features in sides[t.id] for f in features if f != t.id and f in terrain
                   and (terrain[f].mp_add or terrain[f].prohibited)}
        if not crossed or not all(features & crossed for features in sides[t.id]):
            continue
        if not lines:
            from wargame.toml_lines import TomlLines

            try:
                lines.append(TomlLines(file.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                lines.append(None)
        line = lines[0].line_of(("terrain", i, "mp_cost")) if lines[0] else None
        names = ", ".join(repr(f) for f in sorted(crossed))
        cancels = ", ".join(f'"{f}"' for f in sorted(crossed))
        out.append(DataError(
            f"hexside feature {t.id!r} has mp_cost {t.mp_cost:g}, a road's cost: a step along it costs {t.mp_cost:g} "
            f"whatever the hex entered, and it lies only on hexsides with {names}. A bridge that lets a step cost the "
            f"hex entered is written without mp_cost (did you mean `cancels = [{cancels}]`?)",
            Place(file, line, None, f"terrain.{t.id}.mp_cost")))
    return out


__all__ = ["check_rules", "data_warnings"]

