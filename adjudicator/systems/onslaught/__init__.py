"""The Onslaught rule system (TSR 1987)."""

from adjudicator.systems.onslaught.system import ONSLAUGHT, OnslaughtState

__all__ = ["ONSLAUGHT", "OnslaughtState"]
