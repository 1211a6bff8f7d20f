"""`vmodbuild`: check, show and build the bundled games' data and modules; each command's module (builder.commands,
builder.geography.commands) is imported on first use, so `vmodbuild --help` imports none (bench/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from wargame.internal_errors import exit_2_on_interrupt, exit_3_on_internal_errors
from wargame.lazy_group import LazyCommand, LazyGroup


class _Group(LazyGroup):
    """vmodbuild's commands, each imported on first use (`geography`'s numpy and shapely stay out of every other
    command's start-up); an internal error exits 3 (wargame.internal_errors)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with exit_3_on_internal_errors("vmodbuild"):
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with exit_2_on_interrupt("vmodbuild"):
            return super().invoke(ctx)


COMMANDS: Mapping[str, LazyCommand] = {
    "build": LazyCommand("builder.commands:build", None, "Build playable VASSAL 3.7 modules: dist/<game>.vmod."),
    "geography": LazyCommand("builder.geography.commands:geography", "Derive a map from real geography (authoring)."),
    "new": LazyCommand("builder.new_command:new", "Start a new game's data folder from a bundled game or a blank map."),
    "preview": LazyCommand("builder.commands:preview", None, "Write a quick PNG of a game's map data to look at."),
    "render": LazyCommand("builder.commands:render", "Write the module's art as PNGs: board, holding board, counters, "
                                                     "charts."),
    "show": LazyCommand("builder.commands:show", "Describe a game's loaded data (--json: canonical JSON for other "
                                                 "tools)."),
    "validate": LazyCommand("builder.commands:validate", "Load and cross-check a game's data, every problem listed "
                                                         "(every game without GAME)."),
}
"""vmodbuild's commands: where each is defined and its line in --help."""


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]}, lazy=COMMANDS)
@click.version_option(package_name="umpire")
def main() -> None:
    """Build VASSAL modules for hex-and-counter wargames from their data."""
