"""`vmodbuild geography extract|derive GAME`: the map authoring tool's commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from builder.geography.config import GeographySpec
from builder.geography.derive import derive, write_draft
from builder.geography.extract import run_extract
from builder.geography.fit import fit_grid, write_fit
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


@geography.command(name="fit")
@click.argument("game")
@click.option("--write", is_flag=True, help="Store the fitted placement in geography.toml's [grid].")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None)
def fit_command(game: str, write: bool, data: Path | None) -> None:
    """Fit the grid to the anchors (places the rules put in given hexes); report residuals."""
    try:
        folder, spec, grid = _load(game, data)
        fit = fit_grid(spec, grid)
        if write:
            write_fit(folder / "geography.toml", fit)
    except WargameError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    click.echo(f"hex_across_km = {fit.hex_across_km:.4f} ({fit.hex_across_km / 1.609344:.3f} miles), "
               f"rotation_deg = {fit.rotation_deg:.2f}, first_hex_km = "
               f"[{fit.first_hex_km[0]:.3f}, {fit.first_hex_km[1]:.3f}]")
    warped = " (after the warp)" if spec.grid.warp_radius_km > 0 else ""
    click.echo(f"{'anchor':<28} {'hexes':<16} {'off (hexes)':>11} {'off (km)':>9}  falls in{warped}")
    for r in fit.residuals:
        flag = "" if r.fitted else "  (not fitted)"
        click.echo(f"{r.name:<28} {' '.join(r.hexes):<16} {r.hexes_off:>11.2f} {r.km_off:>9.2f}  "
                   f"{r.falls_in or 'off the map'}{flag}")
