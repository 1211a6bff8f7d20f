"""`vmodbuild geography extract|derive GAME`: the map authoring tool's commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from builder.geography.config import GeographySpec
from builder.geography.derive import derive, write_draft
from builder.geography.extract import run_extract
from builder.geography.plane import GeoPlane
from wargame.bundled import data_root, game_dir
from wargame.datafiles import load_toml
from wargame.errors import WargameError
from wargame.grid import Grid
from wargame.models import GameManifest, MapManifest


def _load(game: str, data: Path | None) -> tuple[Path, GeographySpec, Grid]:
    root = data_root(data)
    manifest = load_toml(game_dir(root, game) / "game.toml", GameManifest)
    folder = root / "maps" / manifest.map
    map_manifest = load_toml(folder / "map.toml", MapManifest)
    return folder, load_toml(folder / "geography.toml", GeographySpec), Grid(map_manifest.grid)


@click.group()
def geography() -> None:
    """Derive a map from real geography (authoring; needs the `geodata` extra to extract)."""


@geography.command()
@click.argument("game")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None)
def extract(game: str, data: Path | None) -> None:
    """Read the large data packages and write the small extracts into maps/GAME/geodata/."""
    try:
        folder, spec, grid = _load(game, data)
        plane = GeoPlane(spec, grid)
        corners = [plane.lonlat(x, y) for h in grid.hexes if grid.is_edge(h)
                   for x, y in plane.layout.corners(h)]
        for line in run_extract(spec, corners, folder / "geodata"):
            click.echo(line)
    except WargameError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)


@geography.command(name="derive")
@click.argument("game")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None)
def derive_command(game: str, data: Path | None) -> None:
    """Lay the grid over the extracts and authored layers; write the map's data files."""
    try:
        folder, spec, grid = _load(game, data)
        draft = derive(spec, grid, folder / "geodata", game)
        write_draft(draft, grid, folder, game)
    except WargameError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    for line in draft.report:
        click.echo(line)
