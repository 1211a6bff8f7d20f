"""Set-up (3.0): the scenario's positions and the Allied regrouping of the landing-hex divisions."""

from __future__ import annotations

from collections import Counter

from adjudicator.findings import Finding
from adjudicator.notation.entries import Place, TurnMarker
from adjudicator.systems.onslaught.sections import finding
from adjudicator.systems.onslaught.state import OnslaughtState
from wargame.errors import did_you_mean


def landing_setup(state: OnslaughtState) -> dict[str, str]:
    """The Allied divisions the scenario sets up on the landing hexes, and where (3.0)."""
    landing = set(state.game.areas_by_id["landing_hexes"].hexes)
    return {p.piece: p.location for _, p in state.game.setup
            if p.scenario == state.scenario and p.location in landing and p.piece in state.game.units_by_id}


def check_setup(state: OnslaughtState, entry: Place) -> list[Finding]:
    """3.0: before turn 1 the Allied player groups the landing-hex divisions as he likes."""
    out = []
    if state.at.turn != 0:
        out.append(finding("error", "3.0", entry, "set-up placements come before the first 'Turn' marker"))
    grouped = landing_setup(state)
    if entry.unit not in grouped:
        out.append(finding("error", "3.0", entry, f"{entry.unit} is not one of the Allied divisions on the landing "
                                                  f"hexes ({', '.join(sorted(grouped))}); the others set up where "
                                                  "the map shows"))
    landing = sorted(state.game.areas_by_id["landing_hexes"].hexes)
    if entry.hex not in landing:
        out.append(finding("error", "3.0", entry, f"{entry.hex or 'no hex'} is not a landing hex "
                                                  f"({', '.join(landing)}){did_you_mean(entry.hex or '', landing)}"))
    return out


def check_grouping(state: OnslaughtState, entry: TurnMarker) -> list[Finding]:
    """3.0: two divisions on each landing hex as turn 1 begins."""
    counts = Counter(state.location.get(u) for u in landing_setup(state))
    wrong = [f"{label} holds {counts.get(label, 0)}" for label in sorted(state.game.areas_by_id["landing_hexes"].hexes)
             if counts.get(label, 0) != 2]
    # One grouping, one breach: every landing hex off its two is named in a single finding.
    return [finding("error", "3.0", entry, f"landing hex {', '.join(wrong)} of the landing divisions; each holds "
                                           "two")] if wrong else []
