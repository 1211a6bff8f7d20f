"""The classic series: any hex-and-counter game of the common family refereed from its data alone
(rules.toml, terrain.toml, crt.toml and the schedules); its package names no game."""

from adjudicator.systems.classic.state import ClassicState
from adjudicator.systems.classic.system import REGISTRY, Classic, for_game

__all__ = ["REGISTRY", "Classic", "ClassicState", "for_game"]
