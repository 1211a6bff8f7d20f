"""Cross-checks of a classic game's rules.toml against its other data: every name it uses is the game's
(result codes against crt.toml, terrain, phases, areas, places, sides, units, turns), so a designer's slip is
a `validate` error at its file, never a failure at referee time."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from wargame.toml_lines import toml_line
from wargame.errors import DataError, Place, did_you_mean
from wargame.rulebook import TerrainEffect

if TYPE_CHECKING:
    from wargame.gamedata import Game


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

    lines = file.read_text(encoding="utf-8").splitlines() if file.is_file() else []

    def add(message: str, key: str) -> None:
        # The first line naming the key (a table header or `key =`): where a designer looks.
        name = key.split(".")[-1]
        line = next((n for n, text in enumerate(lines, 1) if text.lstrip().startswith((f"{name} ", f"{name}=",
                                                                                          f"[{key}", f"[[{key}"))), None)
        errors.append(DataError(message, Place(file, line, None, key)))

    def known(word: str, vocabulary: Iterable[str], what: str, key: str) -> None:
        vocab = sorted(vocabulary)
        if word not in vocab:
            add(f"unknown {what} {word!r}{did_you_mean(word, vocab)}", key)

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
                      "combat.results")
        for code in codes - set(game.crt.result_codes):
            add(f"result code {code!r} is not one of crt.toml's result_codes", "combat.results")
        if rules.combat.below == "no_effect":
            known(rules.combat.below_result, codes, "result code", "combat.below_result")
        if game.crt.kind == "differential":
            errors.extend(_rising_differentials(game))
    for side in rules.start_reduced:
        known(side, sides, "side", "start_reduced")
    for line, record in game.replacements:
        if record.turn > last:
            errors.append(DataError(f"replacements on turn {record.turn}, past the last turn ({last})",
                                    Place(game.files["replacements"], line, None, "turn")))
    types = {t.id for t in game.manifest.unit_type}
    for condition in rules.condition:
        for unit_type in condition.allowance_by_type:
            known(unit_type, types, "unit type", "allowance_by_type")
        for turn in condition.turns:
            if turn > last:
                add(f"condition {condition.id!r}: turn {turn} is past the last turn ({last})", "turns")
    _turn_records(game, lines, errors, known)
    for phase in rules.movement.phases:
        known(phase.id, phases, "phase of [[sequence]]", "movement.phases")
    if game.manifest.value_names and rules.movement.value not in game.manifest.value_names:
        known(rules.movement.value, game.manifest.value_names, "counter value", "movement.value")
    _terrain(rules.combat.terrain, terrain, known, sides)
    for t in (*rules.zoc.into_hexside, *rules.combat.retreat.prohibited_terrain):
        known(t, terrain, "terrain", "terrain")
    if rules.movement.rail is not None:
        known(rules.movement.rail.feature, terrain, "hexside feature", "feature")
        for side in rules.movement.rail.sides:
            known(side, sides, "side", "sides")
    if rules.replacements is not None:
        for side, ids in (*rules.replacements.places.items(), *rules.replacements.unit_types.items()):
            known(side, sides, "side", "places")
        for side, ids in rules.replacements.places.items():
            for area in ids:
                known(area, areas, "area of areas.toml", "places")
        for side, names in rules.replacements.communication_exempt.items():
            known(side, sides, "side", "communication_exempt")
            for name in names:
                known(name, places, "place of places.csv", "communication_exempt")
        for unit in rules.replacements.from_turn:
            known(unit, game.units_by_id, "unit", "from_turn")
        types = {t.id for t in game.manifest.unit_type}
        for ids in rules.replacements.unit_types.values():
            for unit_type in ids:
                known(unit_type, types, "unit type", "unit_types")
    if rules.supply is not None:
        for side, ids in rules.supply.sources.items():
            known(side, sides, "side", "sources")
            for area in ids:
                known(area, areas, "area of areas.toml", "sources")
    if rules.victory is not None:
        v = rules.victory
        for side in (*v.initial, *([v.initial_others] if v.initial_others else [])):
            known(side, sides, "side", "initial")
        for names in v.initial.values():
            for name in names:
                known(name, places, "place of places.csv (or hex)", "initial")
        known(v.otherwise, [*sides, "draw"], "side (or draw)", "otherwise")
        for name in v.points:
            known(name, places, "place of places.csv (or hex)", "points")
        for c in v.conditions:
            known(c.winner, [*sides, "draw"], "side (or draw)", "winner")
            for name in (*c.controls, *c.also_controls):
                known(name, places, "place of places.csv (or hex)", "controls")
    return errors


def _turn_records(game: Game, lines: list[str], errors: list[DataError],
                  known: Callable[[str, Iterable[str], str, str], None]) -> None:
    """Each `[[turn]]` record: a turn of the game, once a side, for the game's sides and unit types; each error at
    its record's line."""
    rules = game.rules
    assert rules is not None
    file = game.files["rules"]
    last = max((s.last_turn for s in game.manifest.scenario), default=0)
    types = {t.id for t in game.manifest.unit_type}
    text = "\n".join(lines)
    seen: set[tuple[int, str]] = set()
    for index, record in enumerate(rules.turn):
        line = toml_line(text, ("turn", index, "number"))
        if record.number > last:
            errors.append(DataError(f"turn {record.number} is past the last turn ({last})",
                                    Place(file, line, None, f"turn[{index}].number")))
        for side in record.sides:
            known(side, game.manifest.sides, "side", "sides")
        for unit_type in record.allowance_by_type:
            known(unit_type, types, "unit type", "allowance_by_type")
        for side in record.sides or game.manifest.sides:
            if (record.number, side) in seen:
                errors.append(DataError(f"turn {record.number} is given twice for the {side} units",
                                        Place(file, line, None, f"turn[{index}].number")))
            seen.add((record.number, side))


def _terrain(effects: Iterable[TerrainEffect], terrain: set[str],
             known: Callable[[str, Iterable[str], str, str], None], sides: tuple[str, str]) -> None:
    """Each combat terrain effect names a terrain of terrain.toml and the game's sides."""
    for effect in effects:
        known(effect.terrain, terrain, "terrain", "combat.terrain")
        for side in effect.sides:
            known(side, sides, "side", "combat.terrain")


def _rising_differentials(game: Game) -> list[DataError]:
    """A classic differential table's columns are whole numbers (`-2`, `0`, `+3`), each higher than the one before:
    the referee reads the highest column at or below an attack's differential and shifts along them (an odds
    table's columns are checked by its model)."""
    assert game.crt is not None
    file = game.files["crt"]
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


__all__ = ["check_rules"]
