"""The combat being declared: attackers and support clicked for the next target, the attack or bombardment
whose die or result is still to come, and a die waiting for the other side's."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.notation.entries import Attack, Bombard
from adjudicator.vassal.output import Output


@dataclass
class Combat:
    """What the declarations of a combat leave waiting for the next ones."""

    output: Output
    pending_die: int | None = None
    """The entry (index) declared without its die, which takes the next roll of its side."""
    open_attack: Attack | Bombard | None = None
    """The attack or bombardment declared last, so that the drag of a unit in its hex is its retreat (a bombardment's
    results make units retreat too, Fire & Movement 8.1)."""
    last_combat: int | None = None
    """The entry (index) of the last attack or bombardment declared, for the result claimed next."""
    attackers: list[tuple[str, int]] = field(default_factory=list)
    """Units declared attackers (with their step) since the last attack declared."""
    supports: list[str] = field(default_factory=list)
    """Support fire markers declared since the last attack or bombardment declared."""
    last_roll: tuple[str, int] | None = None
    """A die one side rolled last, so that the other side's die makes a roll-off."""
    early_die: tuple[int, int, str] | None = None
    """A die the attackers' side rolled after declaring them and before their target (its step, value and who
    rolled it): the die of the attack the target declares."""

    def drop_attackers(self, step: int, why: str) -> None:
        """Attackers declared without a target: noted, and forgotten."""
        if self.attackers or self.supports:
            named = " ".join([u for u, _ in self.attackers] + self.supports)
            self.output.note(self.attackers[0][1] if self.attackers else step,
                             f"declared {named} for an attack, but no target was declared before {why}: not translated")
        self.attackers, self.supports, self.early_die = [], [], None
