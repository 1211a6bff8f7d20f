"""Counters moved, flipped, added and deleted in VASSAL, as the entries they stand for: a drag from hex to hex a
move (or a retreat or advance of the combat being resolved), a flip a depletion, a drop into an Eliminated box an
elimination, a counter taken from a palette a reinforcement or replacement."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from adjudicator.contract import RuleSystem, how_of, kind_of
from adjudicator.engine import check
from adjudicator.notation.entries import (
    Advance, Attack, Bombard, Comment, Entry, Loss, Move, Place as PlaceEntry, Retreat, Strength,
)
from adjudicator.notation.text import write_entry
from adjudicator.vassal.board import PARKING, Board, face_of
from adjudicator.vassal.combat import Combat
from adjudicator.vassal.expected import DEPLETE, Expectations, Key
from adjudicator.vassal.movement import Follower, Lost, Motion, choose_path
from adjudicator.vassal.output import Output
from adjudicator.vassal.seats import Seats, retreat_decided, sided
from wargame.errors import WargameError
from wargame.game import Game
from wargame.vassal.places import NOWHERE, Location
from wargame.vassal.tracking import PieceEvent

DRAGGED = frozenset({"move", "retreat", "advance"})
"""The kinds of entry a drag from hex to hex writes."""
REACH = 1000
"""How many entries back (comments too) a counter's flip, drag or set-up may be taken back, continued or adjusted:
each is looked for no further, so that its cost does not grow with the log (docs/limits.md)."""


@dataclass
class Counters:
    """Reads the counters' events of a step into entries."""

    game: Game
    system: RuleSystem[object] | None
    follower: Follower[object] | None
    """The game followed through its rule system, so that a drag's path is the one its rules allow."""
    output: Output
    board: Board
    expectations: Expectations
    combat: Combat
    seats: Seats
    placed: dict[str, tuple[Entry, str]] = field(default_factory=dict)
    """By unit: the entry last written for its counter put on a hex from no place (a palette) or taken off the map,
    and the hex (a counter taken off again, or put back, right after takes it back)."""
    setups: dict[str, PlaceEntry] = field(default_factory=dict)
    """By unit: the set-up written for its counter put on the map before the first turn (a drag on re-places it)."""
    drags: dict[str, Move | Retreat | Advance] = field(default_factory=dict)
    """By unit: the entry last written for a drag of its counter (a move, retreat or advance), which a drag back to
    where it began takes back."""
    dragger: frozenset[str] = frozenset()
    """Every side the player who moved the counter being read takes in the recording (Seats.sides_played)."""

    def piece_event(self, step: int, event: PieceEvent) -> None:
        """A counter added, deleted, moved or flipped."""
        piece = event.after or event.before
        assert piece is not None
        unit = self.board.unit_of(piece)
        before, after = self.board.locate(event.before), self.board.locate(event.after)
        if unit is None:
            marker = piece.properties.get("MarkerId")
            name = f"marker {marker}" if marker else f"piece {piece.name!r}"
            if event.before is None:
                self.output.comment(step, f"step {step}: {name} placed at {after}")
            elif event.after is None:
                self.output.comment(step, f"step {step}: {name} removed from {before}")
            elif before.name != after.name:
                self.output.comment(step, f"step {step}: {name} {before} -> {after}")
            elif face_of(event.before) != face_of(event.after):
                self.output.comment(step, f"step {step}: {name} flipped at {after}")
            return
        actor = self.seats.actor_side(event)
        self.dragger = self.seats.sides_played(event)
        face_before, face_after = face_of(event.before), face_of(event.after)
        reduced_after = face_after >= 1
        # A counter on its last face has no step left: its elimination is the loss a `deplete` of it declares (the
        # rulings register reads a `deplete` of a unit's last step as its elimination, in every rule system).
        last_face = event.before is not None and face_before >= self.game.units_by_id[unit].steps - 1
        self.board.put(unit, after)
        origin = self.board.left(unit, NOWHERE if event.before is None else before, after)
        if event.before is None:
            self.relocate(step, unit, NOWHERE, after, reduced_after, actor)
            return
        if origin.name != after.name:
            self.relocate(step, unit, origin, after, reduced_after, actor, last_face)
        elif before.name != after.name:
            self.output.comment(step, f"step {step}: {unit} back at {after}, where it was set aside from: no entry")
        if event.after is not None and face_before != face_after:
            self.flip(step, unit, face_before, face_after, after, actor)

    def silently(self, events: tuple[object, ...]) -> None:
        """Follow the counters of a step that is undone (or undoes), without translating it."""
        for event in events:
            if isinstance(event, PieceEvent):
                piece = event.after or event.before
                assert piece is not None
                unit = self.board.unit_of(piece)
                if unit is not None:
                    after = self.board.locate(event.after)
                    self.board.put(unit, after)
                    self.board.left(unit, self.board.locate(event.before), after)

    def owes_retreat(self, unit: str) -> bool:
        """Whether the rule system says the combat being resolved owes the unit a retreat."""
        model = None if self.system is None else self.system.movement
        if model is None or self.follower is None:
            return False
        followed = self.follower.follow(self.output.entries)
        if isinstance(followed, Lost):
            return False
        try:
            return any(option.unit == unit for option in model.retreat_options(followed.state))
        except WargameError:
            return False

    def route(self, unit: str, start: Location, end: Location, motion: Motion) -> tuple[list[str], str | None]:
        """The path of a drag from start to end hex, and a note if VASSAL did not record it."""
        assert start.hex is not None and end.hex is not None
        if start.hex.distance(end.hex) <= 1:
            return [start.name, end.name], None
        recorded = f"VASSAL recorded only where {unit} ended ({start} -> {end})"
        if self.system is None:
            return [start.name, end.name], (f"{recorded}; no rule system {self.game.manifest.rule_system!r} to "
                                            f"choose a path by: written as {start}-{end}")
        assert self.follower is not None  # made with the system
        chosen = choose_path(self.system, self.follower.follow(self.output.entries), unit, start.hex, end.hex, motion)
        if chosen.path is None:
            return [start.name, end.name], (
                f"{recorded}, and no path joins them by {chosen.rule}; written as {start}-{end} (the rule "
                f"system will say it skips hexes): type the real path in chat, e.g. '{unit} {start}-...-{end}'")
        return list(chosen.path), (f"{recorded}; path supplied by the reader: {chosen.pick} by {chosen.rule}, "
                                   f"{'-'.join(chosen.path)}")

    def drag(self, step: int, unit: str, before: Location, after: Location, actor: str | None) -> None:
        """A drag from hex to hex: a move, or the retreat or advance the combat being resolved calls for."""
        side, by_opponent = sided(self.game, unit, actor)
        if self.expectations.as_declared(step, unit, frozenset({("at", after.name)}), f"{unit} {before} -> {after}"):
            return
        if self.dragged_back(step, unit, after):
            return
        attack = self.combat.open_attack
        motion: Motion = "move"
        if attack is not None and self.game.units_by_id[unit].side != attack.side:
            # While a combat is resolved the defending side's counters move only by retreat: one of the attacked
            # hex, one displaced by a retreat (Fire & Movement 8.3.1), or one the result does not touch (then the
            # rule system says so, e.g. Fire & Movement 8.1.3, rather than calling it a move out of phase).
            motion = "retreat"
        elif attack is not None and unit in attack.acting_units():
            # An attacker's drag is its retreat when the result owes one (Fire & Movement 8.2.4), else its advance.
            motion = "retreat" if self.owes_retreat(unit) else "advance"
        elif attack is not None and self.owes_retreat(unit):
            # An attacking side's unit that is no attacker but that the combat makes retreat, as the rule system
            # says: one displaced by a friendly retreat ending in its hex (Fire & Movement 8.3.1), say.
            motion = "retreat"
        if motion == "move" and unit in self.setups and self.output.before_turns() and \
                self.set_up_again(step, unit, Move(line=step, unit=unit, path=self.route(unit, before, after, motion)[0])):
            return
        probe = {"retreat": Retreat, "advance": Advance, "move": Move}[motion]
        if self.output.held and not self.output.before_first_turn(probe(unit=unit, path=[before.name])):
            self.output.start(step)  # the entry begins the first turn: the path is chosen in it
        path, why = self.route(unit, before, after, motion)
        entry: Move | Retreat | Advance
        if motion == "retreat" and attack is not None:
            # A retreat names who decided it, which the rules judge (some give the choice to the attacker).
            owner_chooses = self.system is None or self.system.engine_checks.retreats
            decider, by_other = retreat_decided(self.game, unit, actor, attack.side or side, owner_chooses,
                                                self.dragger)
            entry = Retreat(line=step, unit=unit, path=path, side=decider, by_opponent=by_other)
        elif motion == "advance":
            entry = Advance(line=step, unit=unit, path=path, side=side, by_opponent=by_opponent)
        else:
            entry = Move(line=step, unit=unit, path=path)
            fought = attack if attack is not None else self.ended_attack(unit, after.name)
            if fought is not None and self.breaks(entry):
                # A drag the rules refuse as a move while a combat is resolved is an advance: an earlier combat's
                # attacker carrying out its result late, after the next attack was declared (Fire & Movement 8.0),
                # when the rules take it so; or any unit entering the hex attacked, whose breach is then the one
                # of its advance (Onslaught 7.4, Fire & Movement 8.5, classic series 8.2: only attackers advance).
                attacked = [fought.hex, *fought.more_hexes] if fought.kind == "attack" else []
                late_path, late_why = self.route(unit, before, after, "advance")
                late = Advance(line=step, unit=unit, path=late_path, side=side, by_opponent=by_opponent)
                if after.name in attacked or not self.breaks(late):
                    entry, why = late, late_why
        if why is not None:
            self.output.comment(step, f"step {step}: {why}")
        last = self.drags.get(unit)
        if last is not None and last.kind == entry.kind and last.path[-1] == entry.path[0] \
                and len(last.path) + len(entry.path) - 1 <= self._joined_limit() and self.since_only_its_stack(last):
            # A counter dragged on again with nothing written between but the drags of the stack it was dragged
            # with is the one move (or retreat, or advance), in legs (players drag a counter or a whole stack hex by
            # hex): one path, as the rules judge a move (Onslaught 6.1's allowance over the action) or a retreat
            # (7.3's two hexes).
            entry = replace(last, path=[*last.path, *entry.path[1:]])
            index = self.output.replace(last, entry)
            self.output.comment(step, f"step {step}: {unit} dragged on from {before} to {after}, the same "
                                      f"{kind_of(entry)} as step {last.line}'s: {'-'.join(entry.path)}")
            why = "; ".join(w for w in (self.output.endpoint.get(index), why) if w) or None
        else:
            index = self.output.emit(entry)
        self.drags[unit] = entry
        self.expectations.moved(unit, index, frozenset({("at", after.name)}))
        if why is not None:
            self.output.endpoint[index] = why

    def ended_attack(self, unit: str, hex_name: str) -> Attack | Bombard | None:
        """The last attack, ended by the next action's roll-off, when the unit is one of its attackers dragged into a
        hex it attacked with nothing but roll-offs and drags written since: its advance written late (Onslaught 7.4,
        as the text log's `advance` after the roll-off is), not a move of the next action."""
        index = self.combat.last_combat
        if index is None or index >= len(self.output.entries):
            return None
        fought = self.output.entries[index].as_combat()
        if fought is None or fought.kind != "attack" or unit not in fought.acting_units() or \
                hex_name not in fought.attacked_hexes():
            return None
        since = self.output.entries[index + 1:]
        if any(not e.is_comment and kind_of(e) not in {*DRAGGED, "rolloff", "loss"} for e in since):
            return None
        return fought

    def dragged_back(self, step: int, unit: str, after: Location) -> bool:
        """Whether the drag puts the counter back where its last drag began, with only counters' drags written
        since: the player took that drag back (as VASSAL's Undo would), so neither is a move. Judged as moves, a
        counter picked up by mistake and put back was a move out of turn, or a unit moving twice in one action."""
        last = self.drags.get(unit)
        if last is None or last.path[0] != after.name:
            return False
        entries = self.output.entries
        index, reach = len(entries) - 1, max(-1, len(entries) - 1 - REACH)
        while index > reach and entries[index] is not last:
            if not entries[index].is_comment and kind_of(entries[index]) not in DRAGGED:
                return False  # something else happened since (a declaration, a die, a loss, a turn marker)
            index -= 1
        if index <= reach:
            return False  # replaced since by a declaration typed for it, or long before
        entries[index] = Comment(line=last.line, text=f"step {last.line}: {write_entry(last)} -- taken back at step "
                                                      f"{step}")
        self.output.endpoint.pop(index, None)
        self.expectations.forget(unit, index)
        self.output.comment(step, f"step {step}: {unit} dragged back to {after}, where its drag of step {last.line} "
                                  "began: taken back, no move")
        del self.drags[unit]
        return True

    def put_back(self, step: int, unit: str, before: Location, after: Location) -> bool:
        """Whether the counter, just put on a hex from a palette, is deleted again, or just deleted, is put back on its
        hex from a palette, nothing written between: the player took the first back (a counter taken by mistake, a
        delete by mistake), so neither is an entry. Judged, a palette misclick was a reinforcement out of its step
        and an elimination no combat calls for."""
        last = self.placed.pop(unit, None)
        if last is None or self.output.last_written() is not last[0]:
            return False
        entry, hex_label = last
        taken_off = kind_of(entry) == "loss"
        if taken_off and not (before.kind == "none" and after.name == hex_label):
            return False
        if not taken_off and not (before.name == hex_label and after.kind == "none"):
            return False
        index = self.output.replace(entry, Comment(line=entry.line, text=f"step {entry.line}: {write_entry(entry)} "
                                                                          f"-- taken back at step {step}"))
        self.expectations.forget(unit, index)
        # The notes on the counter taken back (taken off with no combat, put on reduced) no longer concern an entry.
        self.output.notes[:] = [n for n in self.output.notes
                                if not (n.step == entry.line and n.message.startswith(f"{unit} "))]
        if taken_off or how_of(entry) != "replace":
            self.board.eliminated.discard(unit)  # in play again, or never in play
        else:
            self.board.eliminated.add(unit)  # a replacement taken back: still eliminated
        self.output.comment(step, f"step {step}: {unit} " + ("put back on" if taken_off else
                                                              "taken off") + f" {hex_label}: step {entry.line}'s "
                                  "counter taken back, no entry")
        return True

    def flipped_back(self, step: int, unit: str, faces: int, up: str) -> bool:
        """Whether the counter, flipped down by as many faces with nothing written since that reads its side, is
        flipped back up: a Ctrl+F by mistake taken back, as Undo would, so neither flip is an entry. Between them may
        lie comments (chat), the other flips of the flip's own step (a stack flipped together) and entries that name
        neither the unit nor a unit or hex in or next to its hex, nor end a step or turn (`reads_side`). Judged, the
        first flip was a loss no combat calls for, and the unit stayed reduced for the rest."""
        # The unit's last entries of its own must be the flips: any other since (a move, a placement) names the unit
        # and so reads its side. Found among its own entries, not by looking back through the log to them, which
        # made a long log of flips quadratic.
        records = self.expectations.physical[unit][-faces:]
        entries = self.output.entries
        written = [at for at, *_ in reversed(records)]
        if len(records) < faces or any(keys != DEPLETE for _, keys, *_ in records) or \
                any(at >= len(entries) or not self.is_flip(entries[at], at) or entries[at].named_ids() != [("unit", unit)]
                    for at in written):
            return False  # no flips of its own written last to take back
        if len(entries) - written[-1] > REACH:
            return False  # long after: no Ctrl+F by mistake, and what lies between is not looked through again
        near = self.near(unit)
        others: list[int] = []  # flips of other counters since: of the flip's own step (a stack), or reading nothing
        for k in range(len(entries) - 1, written[-1], -1):
            entry = entries[k]
            if entry.is_comment or k in written:
                continue
            if self.is_flip(entry, k):
                others.append(k)
            elif self.reads_side(entry, unit, near):
                return False  # the flip stands: something since was judged with the unit on its reduced side
        flipped_at = entries[written[-1]].line
        if any(entries[k].line != flipped_at and self.reads_side(entries[k], unit, near) for k in others):
            return False
        for k in written:
            old = entries[k]
            entries[k] = Comment(line=old.line, text=f"step {old.line}: {write_entry(old)} -- taken back at step {step}")
            self.expectations.forget(unit, k)
        self.output.comment(step, f"step {step}: {unit} flipped back to {up}: step {flipped_at}'s flip "
                                  "taken back, no entry")
        return True

    def is_flip(self, entry: Entry, index: int) -> bool:
        """Whether the entry at `index` is a depletion the reader wrote for a counter flipped, nothing typed for it."""
        if kind_of(entry) != "loss" or getattr(entry, "loss", None) != "deplete":
            return False
        return index in self.expectations.flips

    def near(self, unit: str) -> frozenset[str]:
        """The labels of the unit's hex and the hexes next to it (none off the map): where an entry reads its side."""
        where = self.board.where.get(unit)
        if where is None or not where.is_hex:
            return frozenset()
        grid = self.game.grid
        at = grid.hex_of(where.name)
        return frozenset(grid.label_of(h) for h in (at, *grid.neighbours_on_map(at)))

    def reads_side(self, entry: Entry, unit: str, near: frozenset[str]) -> bool:
        """Whether judging the entry may read the unit's side: it ends a step or turn (or is a header or a claim of
        victory), or names the unit, a unit in or next to its hex (a stack-mate, an attacker or defender by it, a
        zone of control it exerts), or such a hex (a move, attack, retreat or placement by or on it)."""
        if entry.as_turn_marker() is not None or entry.as_step_marker() is not None or entry.as_header() is not None \
                or entry.claims_victory():
            return True
        for kind, named in entry.named_ids():
            if kind == "hex" and named in near:
                return True
            if kind == "unit" and (named == unit or (where := self.board.where.get(named)) is not None
                                   and where.name in near):
                return True
        return False

    def set_up_again(self, step: int, unit: str, moved: Move) -> bool:
        """Whether the drag, before the first turn, moves a counter set up in this log on from its set-up hex where
        the rules allow no move, with only set-ups written since (a set-up adjusted before play begins): its set-up
        is re-placed at the new hex. A move the rules allow then (Omaha's Rangers, 11.2.3) stays a move."""
        placed = self.setups.get(unit)
        if placed is None or placed.hex != moved.path[0] or not self.breaks(moved):
            return False
        entries = self.output.entries
        index, reach = len(entries) - 1, max(-1, len(entries) - 1 - REACH)
        while index > reach and entries[index] is not placed:
            entry = entries[index]
            if not entry.is_comment and how_of(entry) != "setup":
                return False  # the set-up is over: a die, a loss, a move (Omaha's Rangers after their roll, 11.2.3)
            index -= 1
        if index <= reach:
            return False  # replaced since by a declaration typed for it, or long before
        again = replace(placed, hex=moved.path[-1])
        index = self.output.replace(placed, again)
        self.setups[unit] = again
        self.expectations.forget(unit, index)
        self.expectations.moved(unit, index, frozenset({("at", moved.path[-1])}))
        self.output.comment(step, f"step {step}: {unit} set up again at {moved.path[-1]} before the first turn: the "
                                  f"set-up of step {placed.line} re-placed, '{write_entry(again)}'")
        return True

    def since_only_its_stack(self, last: Entry) -> bool:
        """Whether everything written since the drag entry `last` is comments and the moves of the counters dragged
        in the same step (a stack dragged whole), as dragged on since."""
        entries = self.output.entries
        for index in range(len(entries) - 1, max(-1, len(entries) - 1 - REACH), -1):
            entry = entries[index]
            if entry is last:
                return True
            if not entry.is_comment and not (kind_of(entry) in DRAGGED and entry.line == last.line
                                             and self.drags.get(str(getattr(entry, "unit", ""))) is entry):
                return False
        return False

    def relocate(self, step: int, unit: str, before: Location, after: Location, reduced: bool,
                 actor: str | None, last_face: bool = False) -> None:
        """A unit's counter changed place: the entry that says so."""
        if before.is_hex and after.is_hex:
            self.drag(step, unit, before, after, actor)
            return
        side, by_opponent = sided(self.game, unit, actor)
        what = f"{unit} {before} -> {after}"
        boxes = self.board.boxes
        box_to = boxes.get(after.name) if after.kind == "box" else None
        box_from = boxes.get(before.name) if before.kind == "box" else None
        keys: set[Key] = {("at", after.name)}
        if box_to is not None:
            keys |= {("eliminate",)} if box_to.kind == "eliminated" else set()
            keys |= {("delay",)} if box_to.kind == "delayed" else set()
            keys |= {("pickup",)} if box_to.kind == "holding" else set()
        if before.is_hex and after.kind == "track":
            keys.add(("pickup",))  # a unit picked up waits on the turn track (Onslaught 9.1)
        if after.kind == "none":
            keys.add(("eliminate",))
        if last_face and before.is_hex and ("eliminate",) in keys:
            keys.add(("deplete",))
        frozen = frozenset(keys)
        physical_entry = self.expectations.physical_entry
        if self.put_back(step, unit, before, after):
            return
        if before.is_hex and (after.kind == "none" or (box_to is not None and box_to.kind == "eliminated")):
            self.board.eliminated.add(unit)
            if self.expectations.as_declared(step, unit, frozen, what):
                return
            loss = Loss(line=step, loss="eliminate", unit=unit, side=side, by_opponent=by_opponent)
            if self.combat.open_attack is None:
                loss = self.taken_off(loss)
            self.expectations.moved(unit, self.output.emit(loss), frozen)
            if after.kind == "none":
                self.placed[unit] = (loss, before.name)
            if self.combat.open_attack is None and loss.loss == "remove":
                self.output.note(step, f"{unit} was taken off the map with no combat being resolved: written "
                                       f"'{write_entry(loss)}', as the rules let it leave play now (an overstack's "
                                       f"excess) and call for no elimination; if it left play for another reason, "
                                       f"type it")
            elif self.combat.open_attack is None:
                # VASSAL shows a counter taken off, not why: with no combat being resolved it may be an
                # overstack's excess removed (Onslaught 6.3) or another loss the rules name otherwise.
                self.output.note(step, f"{unit} was taken off the map with no combat being resolved: written "
                                       f"'{write_entry(loss)}'; if it left play for another reason, type it (e.g. "
                                       f"'{loss.side or side}: remove {unit}' for a unit removed from an overstack)")
            return
        if (before.is_hex or before.kind == "none") and box_to is not None and box_to.kind == "delayed":
            physical_entry(step, unit, frozen, PlaceEntry(line=step, how="delay", unit=unit, side=side,
                                                          by_opponent=by_opponent), what)
            return
        if after.is_hex and self.output.before_turns() and box_from is not None and box_from.kind not in ("eliminated",
                                                                                                 "delayed"):
            # Before the first turn begins, a unit taken from a holding box onto the map is set up.
            set_up = PlaceEntry(line=step, how="setup", unit=unit, hex=after.name, side=side, by_opponent=by_opponent)
            physical_entry(step, unit, frozen, set_up, what)
            if self.output.last_written() is set_up:
                self.setups[unit] = set_up
            return
        if after.is_hex and (before.kind == "none" or box_from is not None and box_from.kind in ("eliminated",
                                                                                                  "delayed")):
            replacing = unit in self.board.eliminated
            self.board.eliminated.discard(unit)
            strength: Strength | None = ("reduced" if reduced else "full") if replacing else None
            if reduced and not replacing:
                self.output.note(step, f"{unit} comes into play on its reduced side")
            entry = PlaceEntry(line=step, how="replace" if replacing else "reinforce", unit=unit, hex=after.name,
                               strength=strength, side=side, by_opponent=by_opponent)
            physical_entry(step, unit, frozen, entry, what)
            if before.kind == "none" and self.output.last_written() is entry:
                self.placed[unit] = (entry, after.name)
            return
        if self.expectations.as_declared(step, unit, frozen, what):
            return
        self.output.comment(step, f"step {step}: {what}")
        if after.kind in PARKING and before.kind not in PARKING:
            self.output.note(step, f"{unit} moved {before} -> {after}, no place of the game: the reader keeps it at "
                                   f"{before} until its counter comes back (a drag from {before} then); if it was a "
                                   f"rules action, type it in chat (e.g. '{side}: pickup {unit}')")
        elif after.is_hex:
            self.output.note(step, f"{unit} moved {before} -> {after}: not translated; if it was a rules action, type "
                                   f"it in chat (e.g. '{side}: reinforce {unit} {after}' or '{side}: paradrop {unit} "
                                   f"{after}')")
        elif before.is_hex or "off-grid" in (before.kind, after.kind) or "map" in (before.kind, after.kind):
            self.output.note(step, f"{unit} moved {before} -> {after}: not translated; if it was a rules action, type "
                                   f"it in chat (e.g. '{side}: pickup {unit}')")

    def taken_off(self, eliminated: Loss) -> Loss:
        """A counter taken off the map with no combat being resolved: its elimination, or its removal when the rule
        system breaks no rule with that (an overstack's excess, Onslaught 6.3) and with the elimination does."""
        removed = Loss(line=eliminated.line, loss="remove", unit=eliminated.unit, side=eliminated.side,
                       by_opponent=eliminated.by_opponent)
        return removed if self.breaks(eliminated) and not self.breaks(removed) else eliminated

    def _joined_limit(self) -> int:
        """The most hexes a move joined from drags may have: twice across the map, more than any move the rules
        allow; a drag past it is a move of its own, so a counter dragged to and fro for ever costs each drag the
        same, not one more hex of path each time (docs/limits.md)."""
        spec = self.game.grid.spec
        return 2 * (spec.columns + spec.rows)

    def breaks(self, entry: Entry) -> bool:
        """Whether the entry is an error in the position the translation has reached, the engine's checks and the
        rule system's, as a replay judges it (False when it cannot tell: no system, or a position not followed)."""
        if self.system is None or self.follower is None:
            return False
        followed = self.follower.follow(self.output.entries)
        if isinstance(followed, Lost) or followed.lost is not None:
            return False
        try:
            return any(f.severity == "error" for f in check(self.system, followed.state, entry))
        except WargameError:
            return False

    def face_in_game(self, unit: str) -> int:
        """The steps the rule system has the unit lost after the entries translated so far (0 if not known)."""
        if self.system is None or self.follower is None:
            return 0
        followed = self.follower.follow(self.output.entries)
        if isinstance(followed, Lost):
            return 0
        where = self.system.position(followed.state).units.get(unit)
        return 0 if where is None else where.face

    def flip(self, step: int, unit: str, face_before: int, face_after: int, where: Location,
             actor: str | None) -> None:
        """A counter flipped: to a face further down a depletion a step (a unit of three or four steps goes down
        one face a step); back up only if declared."""
        steps = self.game.units_by_id[unit].steps
        if steps < 2:
            return
        if max(face_before, face_after) >= steps:
            # Our modules give a counter one Step level a face; a level past them is a damaged file or another
            # module's counter, and the recorded number must not drive the losses written (it may be 2**31).
            shown = max(face_before, face_after) + 1
            self.output.note(step, f"{unit}'s counter is at level {shown if shown < 10**6 else 'past 1,000,000'} "
                                   f"of its Step layer, but {unit} has {steps} steps: read as its last face, "
                                   f"{steps - 1} step(s) lost")
            face_before, face_after = min(face_before, steps - 1), min(face_after, steps - 1)
            if face_before == face_after:
                return
        if face_after > face_before:
            side, by_opponent = sided(self.game, unit, actor)
            for lost in range(face_before + 1, face_after + 1):
                face = "its reduced side" if lost == 1 else f"its face with {lost} steps lost"
                what = f"{unit} flipped to {face} at {where}"
                if self.expectations.as_declared(step, unit, DEPLETE, what):
                    continue
                if lost > 1 and self.face_in_game(unit) >= lost:
                    # The face the game has already (a unit of three or four steps rebuilt with one step).
                    self.output.comment(step, f"step {step}: {what}, the face it has in the game: no entry")
                    continue
                self.expectations.moved(unit, self.output.emit(
                    Loss(line=step, loss="deplete", unit=unit, side=side, by_opponent=by_opponent)),
                    DEPLETE)
            return
        up = "full strength" if face_after == 0 else "its reduced side" if face_after == 1 else \
            f"its face with {face_after} steps lost"
        if self.flipped_back(step, unit, face_before - face_after, up):
            return
        text = f"step {step}: {unit} flipped back to {up} at {where}"
        declared = self.expectations.consume(unit, frozenset({("restore",)}))
        if declared is not None:
            self.output.comment(step, f"{text} (as declared at step {declared[0]}: {declared[1]})")
            return
        self.output.comment(step, text)
        side = self.game.units_by_id[unit].side
        self.output.note(step, f"{unit} flipped back to {up} at {where}: not translated; type what it was in chat "
                               f"(e.g. '{side}: replace {unit}" + (" full')" if face_after == 0 else "')"))
