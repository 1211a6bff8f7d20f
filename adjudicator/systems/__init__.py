"""Rule systems, registered by hand in one mapping (house style 3). The Fire & Movement series
(`fire_and_movement`) is played through its folios: Omaha Beach (`omaha`). The classic series (`classic`)
referees any game of the common family from its data: its system is made for each game (`system_for`).

A system's package is imported when a log of its game first asks for it: a check of an Onslaught log
does not pay for loading Omaha's rules (each system's modules take about a tenth of a second to import)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.engine import RuleSystem
from wargame.errors import WargameError, did_you_mean
from wargame.game import Game

if TYPE_CHECKING:
    from adjudicator.coverage import Row

REGISTERED: dict[str, tuple[str, str]] = {
    "onslaught": ("adjudicator.systems.onslaught", "ONSLAUGHT"),
    "omaha": ("adjudicator.systems.omaha", "OMAHA"),
}
"""Each rule system's name (a game's `rule_system`), with the module and the name of its instance."""


class Registry(Mapping[str, RuleSystem[object]]):
    """The rule systems by name, each imported on its first request (a `RuleSystem[object]`: its states are opaque
    to whoever finds it here, who only hands them back to it)."""

    def __init__(self, registered: Mapping[str, tuple[str, str]]) -> None:
        self._registered = dict(registered)
        self._loaded: dict[str, RuleSystem[object]] = {}

    def __getitem__(self, name: str) -> RuleSystem[object]:
        system = self._loaded.get(name)
        if system is None:
            module, attribute = self._registered[name]
            system = self._loaded[name] = getattr(importlib.import_module(module), attribute)
        return system

    def __iter__(self) -> Iterator[str]:
        return iter(self._registered)

    def __len__(self) -> int:
        return len(self._registered)

    def __contains__(self, name: object) -> bool:
        return name in self._registered


SYSTEMS: Mapping[str, RuleSystem[object]] = Registry(REGISTERED)


PER_GAME: dict[str, tuple[str, str]] = {
    "classic": ("adjudicator.systems.classic", "for_game"),
}
"""Series whose rule system is made for each game from its data, with the module and the name of the maker."""


def coverage_for(game: Game, examples: Path | None) -> list[Row]:
    """What a game's rule system checks, section by section (`adjudicate rules GAME`): each system's coverage
    module beside its rules."""
    name = game.manifest.rule_system
    module = (REGISTERED.get(name) or PER_GAME.get(name) or (None, ""))[0]
    if module is None:
        raise WargameError(f"the rule system {name!r} of {game.id} is not implemented"
                           f"{did_you_mean(name, system_names())} (rule systems: {', '.join(system_names())})")
    rows: list[Row] = importlib.import_module(f"{module}.coverage").rows_for(game, examples)
    return rows


def system_names() -> list[str]:
    """Every rule system a game may name."""
    return sorted([*REGISTERED, *PER_GAME])


def system_for(game: Game) -> RuleSystem[object]:
    """The rule system that referees a game (WargameError for one Umpire does not have)."""
    name = game.manifest.rule_system
    if name in PER_GAME:
        module, attribute = PER_GAME[name]
        maker = getattr(importlib.import_module(module), attribute)
        system: RuleSystem[object] = maker(game)
        return system
    if name not in SYSTEMS:
        raise WargameError(f"the rule system {name!r} of {game.id} is not implemented"
                           f"{did_you_mean(name, system_names())} (rule systems: {', '.join(system_names())})")
    return SYSTEMS[name]
