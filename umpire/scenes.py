"""A judged position as a `Scene` the builder can draw, and what a finding marks on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.contract import Position, RuleSystem, StateT
from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import Activate, Advance, Attack, Bombard, Entry, Loss, Move, Retreat
from wargame.game import Game
from wargame.grid import Grid
from wargame.scene import FACES, WORDS, Counter, Mark, Scene, Tone, TrackValue, stacks_in


def marker_pieces(game: Game) -> dict[str, str]:
    """The marker counter that shows each kind of hex marker (`beachhead` -> its marker's id), the
    first of the game's markers of the kind (a position marks hexes by kind, not by counter)."""
    out: dict[str, str] = {}
    for marker in game.markers.marker:
        out.setdefault(marker.kind, marker.id)
    return out


def scene_of(position: Position, marks: Sequence[Mark] = (), caption: str = "",
             markers: Mapping[str, str] | None = None,
             placed: Mapping[str, Sequence[str]] | None = None) -> Scene:
    """Every unit of a judged position in its hex or box, on the face its steps lost show, with the
    position's hex markers (a beachhead) on top of each stack when `markers` says which counter shows
    each kind, and the marker counters `placed` on hexes for this picture (an attack's support fire)."""
    places: dict[str, list[Counter]] = {}
    # A hex's markers go under its units, so the units (what a dispute is about) stay readable on top.
    for kind, hexes in sorted((position.marked_hexes or {}).items()):
        piece = (markers or {}).get(kind)
        if piece is None:
            continue
        for label in sorted(hexes):
            places.setdefault(label, []).append(Counter(piece, marker=True))
    for unit, at in sorted(position.units.items()):
        places.setdefault(at.place, []).append(Counter(unit, FACES[min(at.face, len(FACES) - 1)]))
    for label, pieces in sorted((placed or {}).items()):
        places.setdefault(label, []).extend(Counter(piece, marker=True) for piece in pieces)
    tracks = (TrackValue("turn", None, position.turn),
              *(TrackValue(kind, side, value) for kind, values in sorted(position.tracks.items())
                for side, value in sorted(values.items())))
    return Scene(stacks_in(places), tuple(marks), caption, tracks)


def placed_by(entry: Entry) -> dict[str, list[str]]:
    """The marker counters an entry puts on the map for its picture: an attack's or a bombardment's
    support fire markers on the hex it targets (Fire & Movement 8.1, 8.2.1 b)."""
    combat = entry.as_combat()
    return {combat.hex: list(combat.support)} if combat is not None and combat.support else {}


def _claims(entry: Attack | Bombard) -> str:
    """The claims written on an attack or bombardment, as a note's text."""
    parts = []
    if entry.odds:
        parts.append(("odds " if ":" in entry.odds else "diff ") + entry.odds)
    if entry.die is not None:
        parts.append(f"die {entry.die}")
    if entry.result:
        parts.append(f"result {entry.result}")
    return "claimed:\n" + "\n".join(parts) if parts else entry.kind


def marks_for(entry: Entry, before: Mapping[str, str], findings: Sequence[Finding]) -> list[Mark]:
    """What a picture of an entry marks: the path moved, attackers' arrows, the hex concerned.

    Drawn in red when a finding on the entry is an error, green otherwise; positions are those
    before the entry (each unit's hex or box), so the attackers and the moving unit stand where they were.
    """
    tone: Tone = "breach" if any(f.severity == "error" for f in findings) else "legal"
    at = before
    if entry.relocated_unit() is not None:
        return [Mark("path", entry.path_hexes(), tone)]
    combat, attack = entry.as_combat(), entry.as_attack()
    if attack is not None:
        sources = sorted({at[u] for u in attack.attackers if u in at and at[u] != attack.hex})
        return [Mark("arrow", (*sources, attack.hex), "attacker"), Mark("ring", (attack.hex,), "defender"),
                Mark("note", (attack.hex, *sources), tone, _claims(attack))]
    if combat is not None:  # a bombardment: support fire alone
        return [Mark("ring", (combat.hex,), "defender"), Mark("note", (combat.hex,), tone, _claims(combat))]
    # An activation, a capture or a placement: the hex it names; a loss or a stand: the hexes of its units.
    named = [value for kind, value in entry.named_ids() if kind == "hex"]
    if named:
        return [Mark("ring", (named[0],), tone)]
    effects = entry.counter_effects()
    standing = [u for u, effect in effects if effect == ("stand",)]
    if standing:
        return [Mark("ring", tuple(sorted({at[u] for u in standing if u in at})), tone)]
    lost = [at[u] for u, effect in effects if effect in (("deplete",), ("eliminate",)) and u in at]
    return [Mark("ring", (lost[0],), tone)] if lost else []


def mentioned(findings: Sequence[Finding], before: Mapping[str, str], grid: Grid) -> list[Mark]:
    """For a finding whose entry draws nothing (a step marker, a roll-off closing a combat): the hexes
    its message names, and the hexes of the units it names, ringed."""
    tone: Tone = "breach" if any(f.severity == "error" for f in findings) else "legal"
    hexes: set[str] = set()
    for f in findings:
        for word in WORDS.findall(f.message):
            word = word.rstrip(".")
            for part in (word, *word.split("-")):
                if part in before and grid.is_label(before[part]):
                    hexes.add(before[part])
                elif grid.is_label(part):
                    hexes.add(part)
    return [Mark("ring", tuple(sorted(hexes)), tone)] if hexes else []


ZOC_REACH = 1
"""How far from a path's hexes the enemy zones of control are shaded: the hexes a move entered or
could have stepped into, what the zone of control rules judge."""


def _about(table: SectionTable, findings: Sequence[Finding], words: tuple[str, ...]) -> bool:
    """Whether a finding cites a section whose title (in the system's own table) speaks of one of `words`."""
    for f in findings:
        title = table.sections.get(f.rule, table.sections.get(f.rule.split(".")[0] + ".0", "")).lower()
        if any(w in title for w in words):
            return True
    return False


def _units_of(entry: Entry, findings: Sequence[Finding], before: Mapping[str, str]) -> list[str]:
    """The units an entry is about, else those its findings name (in the order named)."""
    if isinstance(entry, (Move, Retreat, Advance, Loss)):
        return [entry.unit]
    if isinstance(entry, Activate):
        return sorted(u for u, at in before.items() if at == entry.hex)
    if isinstance(entry, Attack):
        return list(entry.attackers)
    named = [w.rstrip(".") for f in findings for w in WORDS.findall(f.message)]
    return list(dict.fromkeys(w for w in named if w in before))


def context_marks(system: RuleSystem[StateT], state: StateT, entry: Entry, findings: Sequence[Finding],
                  before: Mapping[str, str]) -> list[Mark]:
    """What the rule system's movement model adds to a finding's picture (issue 17): the enemy zones of
    control shaded around a move, retreat or advance; for a finding on supply, the supply line each unit
    concerned traces (or its hex ringed, in red, when it traces none)."""
    model = system.movement
    if model is None:
        return []
    game = system.game_of(state)
    grid = game.grid
    units = game.units_by_id
    out: list[Mark] = []
    relocated = entry.relocated_unit()
    if relocated is not None and relocated in units:
        side = units[relocated].side
        path = [grid.hex_of(label) for label in entry.path_hexes() if grid.is_label(label)]
        near = set(path)
        for _ in range(ZOC_REACH):
            near |= {n for h in near for n in grid.neighbours_on_map(h)}
        zone: set[str] = set()
        for enemy in (s for s in game.manifest.sides if s != side):
            zone |= {label for label in model.zones_of_control(state, enemy)
                     if grid.is_label(label) and grid.hex_of(label) in near}
        if zone:
            out.append(Mark("shade", tuple(sorted(zone)), "info"))
    if _about(system.table, findings, ("supply",)):
        for unit in _units_of(entry, findings, before):
            if unit not in before or not grid.is_label(before[unit]):
                continue
            line = model.supply_line(state, unit)
            if line is None:
                out.append(Mark("ring", (before[unit],), "breach"))
            elif len(line) > 1:
                out.append(Mark("path", tuple(line), "info"))
    return out


TONE_NAMES: dict[Tone, str] = {"breach": "red", "legal": "green", "attacker": "red", "defender": "blue",
                               "info": "purple"}
"""The colour each tone is drawn in (builder.picture.TONES), as a legend names it."""
MEANINGS: dict[tuple[str, Tone], str] = {
    ("path", "breach"): "path: the move, retreat or advance that breaks a rule, hex by hex from 0",
    ("path", "legal"): "path: a legal move, retreat or advance, hex by hex from 0",
    ("path", "info"): "path: a supply line traced, or a shorter retreat",
    ("shade", "info"): "shading: enemy zones of control near the path",
    ("shade", "legal"): "shading: the hexes in reach",
    ("arrow", "attacker"): "arrows: the attackers, toward the hex they attack",
    ("ring", "defender"): "ring: the hex attacked (the defenders)",
    ("ring", "breach"): "ring: where a rule is broken (a unit out of supply, a hex wrongly used)",
    ("ring", "legal"): "ring: the hex the entry concerns",
    ("ring", "info"): "ring: the hex asked about (the centre, the unit's hex)",
    ("note", "breach"): "box: the log's claims, which do not hold",
    ("note", "legal"): "box: the log's claims",
    ("label", "legal"): "numbers: the movement points it costs to reach each hex",
}
"""What each kind of mark means in each tone (umpire.scenes and umpire.movement make them)."""


def legend(marks: Sequence[Mark]) -> list[tuple[Tone, str]]:
    """Each kind of mark a picture shows, once, with its colour and meaning (`red path: ...`), in drawing order."""
    out: list[tuple[Tone, str]] = []
    for mark in marks:
        meaning = MEANINGS.get((mark.kind, mark.tone), f"{mark.kind}: marked")
        line = (mark.tone, f"{TONE_NAMES[mark.tone]} {meaning}")
        if line not in out:
            out.append(line)
    return out
