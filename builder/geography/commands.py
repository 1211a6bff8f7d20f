"""`vmodbuild geography extract|derive GAME`: the map authoring tool's commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from wargame.bundled import data_root, game_dir, is_checkout
from wargame.errors import WargameError

# The tool's modules (numpy, shapely, the data models) are imported by the command run, not by `--help`.
if TYPE_CHECKING:
    from builder.geography.config import GeographySpec
    from wargame.grid import Grid


DATA_HELP = ("Folder holding maps/ and counters/ (default: $UMPIRE_DATA, else the bundled games); the tool writes into "
             "its maps/GAME/.")


def _writable_root(game: str, data: Path | None) -> Path:
    """The data root the tool may write into: a --data folder, $UMPIRE_DATA or a checkout, never an installed package."""
    root = data_root(data)
    if data is None and not is_checkout(root):
        raise WargameError(f"the bundled games of an installed Umpire ({root}) are not rewritten: copy the game "
                           f"with `vmodbuild new {game} --from {game} --data DIR` and give the tool --data DIR")
    return root


def _load(game: str, data: Path | None, writing: bool = True) -> tuple[Path, GeographySpec, Grid]:
    from builder.geography.config import GeographySpec
    from wargame.datafiles import load_toml
    from wargame.grid import Grid
    from wargame.models import GameManifest, MapManifest
    root = _writable_root(game, data) if writing else data_root(data)
    manifest = load_toml(game_dir(root, game) / "game.toml", GameManifest)
    folder = root / "maps" / manifest.map
    map_manifest = load_toml(folder / "map.toml", MapManifest)
    return folder, load_toml(folder / "geography.toml", GeographySpec), Grid(map_manifest.grid)


@click.group(short_help="Derive a map from real geography (authoring).")
def geography() -> None:
    """Derive a map from real geography (authoring; `extract` needs the `geodata` extra)."""


@geography.command(short_help="Write small extracts of the geodata packages into maps/GAME/geodata/.")
@click.argument("game")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None, help=DATA_HELP)
def extract(game: str, data: Path | None) -> None:
    """Read the large data packages and write the small extracts into maps/GAME/geodata/."""
    from builder.geography.extract import run_extract
    from builder.geography.plane import GeoPlane
    try:
        folder, spec, grid = _load(game, data)
        plane = GeoPlane(spec, grid)
        corners = [plane.lonlat(x, y) for h in grid.hexes if grid.is_edge(h)
                   for x, y in plane.layout.corners(h)]
        for line in run_extract(spec, corners, folder / "geodata"):
            click.echo(line)
        click.echo(f"written into {folder / 'geodata'}")
    except WargameError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)


@geography.command(name="derive", short_help="Lay the grid over the extracts; write the map's data files.")
@click.argument("game")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None, help=DATA_HELP)
def derive_command(game: str, data: Path | None) -> None:
    """Lay the grid over the extracts and authored layers; write the map's data files."""
    from builder.geography.derive import derive, write_draft
    try:
        folder, spec, grid = _load(game, data)
        draft = derive(spec, grid, folder / "geodata", game)
        write_draft(draft, grid, folder, game)
    except WargameError as e:
        click.echo(f"Error: {e}", err=True)
        sys.exit(2)
    for line in draft.report:
        click.echo(line)
    click.echo(f"written into {folder}: hexes.csv, hexsides.csv, places.csv, areas.toml")


@geography.command(name="fit", short_help="Fit the grid to the anchors; report residuals (--write: store it).")
@click.argument("game")
@click.option("--write", is_flag=True, help="Store the fitted placement in geography.toml's [grid].")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False, exists=True), default=None, help=DATA_HELP)
def fit_command(game: str, write: bool, data: Path | None) -> None:
    """Fit the grid to the anchors (places the rules put in given hexes); report residuals."""
    from builder.geography.fit import fit_grid, write_fit
    try:
        folder, spec, grid = _load(game, data, writing=write)
        fit = fit_grid(spec, grid)
        if write:
            write_fit(folder / "geography.toml", fit)
            click.echo(f"written into {folder / 'geography.toml'}")
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
