"""Set-up (11.0) and the amphibious landing (11.2.1): the German at-start units off the beach, the
assault regiments three a beach landing hex, the Rangers at Pointe du Hoc (11.2.3), and every one of
them placed (or due on GT 2 for want of room) as GT 1 begins."""

from __future__ import annotations

from adjudicator.findings import Finding
from adjudicator.notation.entries import Place, TurnMarker
from adjudicator.systems.omaha.base import Area, BEACH_STACK, OmahaRules, POINTE_DU_HOC
from adjudicator.systems.omaha.state import OmahaState


class SetUp(Area):
    """11.0, 11.2.1."""

    def _check_setup(self, state: OmahaState, entry: Place) -> list[Finding]:
        """11.0, 11.2.1, 11.2.3: the German at-start units off the beach (and off Pointe du Hoc), the
        assault regiments on the beach landing hexes, three a hex, the Rangers at Pointe du Hoc."""
        # 11.0: that set-up placements come before GT 1 is the landing's `entries` in game.toml (the engine's
        # check).
        game = state.game
        box = self.rules._setup_box(state, entry.unit)
        label = entry.hex or ""
        if not game.grid.is_label(label):
            return [self._f("error", "11.0", entry, f"{entry.unit} sets up on a hex of the map, not {label or 'nowhere'}")]
        beach = self.rules._beach(state)
        if box == "german_setup":
            if label in beach or label == POINTE_DU_HOC:
                return [self._f("error", "11.0", entry, f"{entry.unit} sets up on {label}: German units set up off the "
                                                        "Omaha Beach hexes and never on Pointe du Hoc (2417)")]
            return []
        if box in self.rules._assault_boxes(state):
            beach = self.rules._assault_boxes(state)[box]
            if self.rules._unit(state, entry.unit).type == "ranger":
                if label != POINTE_DU_HOC:
                    return [self._f("error", "11.2.3", entry, f"{entry.unit} lands at Pointe du Hoc ({POINTE_DU_HOC}), "
                                                            f"not {label} (11.2.3)")]
                return []
            if label not in beach:
                if self.rules._campaign(state):  # 14.0 b: the assault units land on their own beach
                    return [self._f("error", "14.0b", entry, f"{entry.unit} lands on its designated beach "
                                                            f"({', '.join(sorted(beach))}), not {label} (14.0 b)")]
                return [self._f("error", "11.2.1", entry, f"{entry.unit} lands on a beach landing hex "
                                                        f"({', '.join(sorted(beach))}), not {label} (11.2.1)")]
            here = sum(1 for u, w in state.location.items() if w == label and u != entry.unit)
            if here >= BEACH_STACK:
                return [self._f("error", "11.2.1", entry, f"{label} already holds {here} units; a beach landing hex "
                                                        "takes three (11.2.1)")]
            return []
        return [self._f("error", "11.0", entry, f"{entry.unit} is not set up by a player in this scenario "
                                                f"(it starts in {box or 'no set-up'})")]

    def _check_start(self, state: OmahaState, entry: TurnMarker) -> list[Finding]:
        """11.0, 11.2.1: as GT 1 begins every German at-start unit is on the map, two or more next to
        an Omaha Beach hex, and every assault unit has landed."""
        game = state.game
        omaha = game.areas_by_id.get("omaha_beach")
        beach = [game.grid.hex_of(label) for label in (omaha.hexes if omaha is not None else ())]
        out = []
        german = self._german_at_start(state)
        unplaced = self.unplaced(state)
        if unplaced:
            out.append(self._f("error", "11.0", entry, f"GT 1 begins with {', '.join(unplaced)} still to set up or "
                                                       "land (11.0, 11.2.1)"))
        out += self.rules._check_pdh_done(state, entry)
        landed = sorted(self.rules._landed_hexes(state) - state.assaulted)
        if landed:
            out.append(self._f("error", "11.2.3", entry, f"GT 1 begins before the beach assault of {', '.join(landed)}; "
                                                       "every beach landing hex with Allied units makes one (11.2.3)"))
        placed = {u: h for u in german if (h := self.rules._on_map(state, u)) is not None}
        near = sorted(u for u, h in placed.items() if any(h.is_adjacent(b) for b in beach))
        if placed and len(near) < 2:
            which = f"only {near[0]} does" if near else "none does"
            # A German unit not set up at all (the error above) may be the one meant to stand there: one breach.
            missing = [u for u in german if u in unplaced]
            out.append(self._f("note" if missing else "error", "11.0", entry,
                               "GT 1 begins with fewer than two German at-start units set up next to an Omaha Beach "
                               f"hex ({which}); at least two must be (11.0)"
                               + (f" (with {', '.join(missing)} not set up: one error, above)" if missing else "")))
        return out

    def _german_at_start(self, state: OmahaState) -> list[str]:
        """11.1.1: the German at-start units of the scenario."""
        return [p.piece for _, p in state.game.setup if p.scenario == state.scenario and p.location == "german_setup"]

    def unplaced(self, state: OmahaState) -> list[str]:
        """11.0, 11.2.1: the German at-start and Allied assault units neither on the map nor eliminated (an assault
        unit the beach landing hexes chosen had no room for arrives on GT 2 instead, and is not among them)."""
        game = state.game
        boxes = self.rules._assault_boxes(state)
        assault = [p.piece for _, p in game.setup if p.scenario == state.scenario and p.location in boxes]
        eliminated = {b.id for b in game.manifest.box if b.kind == "eliminated"}
        unplaced = [u for u in (*self._german_at_start(state), *assault) if self.rules._on_map(state, u) is None
                    and state.location.get(u) not in eliminated]
        # 11.2.1: assault units that find no room on the beach landing hexes chosen (on their own
        # beach, 14.0 b) arrive on GT 2.
        return [u for u in unplaced if u not in assault or u == self.rules._ranger(state) or not self._beach_full(state, u)]

    def _beach_full(self, state: OmahaState, unit_id: str) -> bool:
        """11.2.1: whether every beach landing hex the assault chose on the unit's beach holds three units."""
        beach = self.rules._assault_boxes(state).get(self.rules._setup_box(state, unit_id) or "", frozenset())
        # Judged on the landing as the first beach assault began, not after the assaults' losses.
        counts = dict(state.landing) if state.landing is not None else self.rules._landing_counts(state)
        landing = {h: n for h, n in counts.items() if h in beach}
        return bool(landing) and all(n >= BEACH_STACK for n in landing.values())
