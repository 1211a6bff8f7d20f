"""Every text on every counter and marker face reads at WCAG's 4.5:1 for small text (1.4.3)."""

from __future__ import annotations

import pytest
from PIL import Image

from builder.render.counters import render_marker, render_unit, side_colours
from builder.render.counters.face import band
from builder.render.counters.units import LEG_BLACK, MOBILE_RED, short_designation
from builder.render.ink import INK, MIN_CONTRAST, PAPER, contrast, readable, rgb
from wargame.bundled import data_root
from wargame.game import Game, load_game

RGB = tuple[int, int, int]


@pytest.fixture(scope="module", params=["onslaught", "omaha"])
def game(request: pytest.FixtureRequest) -> Game:
    """Each bundled game."""
    return load_game(data_root(), str(request.param))


def unit_texts(game: Game) -> list[tuple[str, RGB, RGB]]:
    """(what, text colour, fill) for every text a unit face prints."""
    nations = {n.id: n for n in game.manifest.nationality}
    out: list[tuple[str, RGB, RGB]] = []
    for _, unit in game.units:
        text, fill = rgb(nations[unit.nationality].text_colour), rgb(nations[unit.nationality].background_colour)
        out.append((f"{unit.id} values and symbol", text, fill))
        for under in (fill, band(fill)):  # the designation: on the full face, on the reduced face's band
            out.append((f"{unit.id} designation", readable(text, under), under))
        box = rgb(MOBILE_RED if unit.mobility == "mobile" else LEG_BLACK)
        out.append((f"{unit.id} boxed movement", rgb(PAPER), box))
    return out


def marker_texts(game: Game) -> list[tuple[str, RGB, RGB]]:
    """(what, text colour, fill) for every marker face."""
    out: list[tuple[str, RGB, RGB]] = []
    for marker in game.markers.marker:
        text, fill = side_colours(game, marker.side)
        if marker.kind == "turn":
            text, fill = rgb(INK), rgb(PAPER)
        out.append((marker.id, text, fill))
    for side in game.manifest.sides:
        out.append((f"{side} marker back", *side_colours(game, side)))
    return out


def test_counter_and_marker_text_contrast(game: Game) -> None:
    """Every unit and marker face's text against its fill is at least 4.5:1."""
    low = [(what, round(contrast(text, fill), 2)) for what, text, fill in unit_texts(game) + marker_texts(game)
           if contrast(text, fill) < MIN_CONTRAST]
    assert low == []
    assert MIN_CONTRAST == 4.5


def test_rendered_faces_use_those_colours(game: Game) -> None:
    """The check above is about the colours the faces really print: each face holds its text colour."""
    nations = {n.id: n for n in game.manifest.nationality}
    for _, unit in game.units[:12]:
        face = render_unit(game, unit, "full", 75).convert("RGB")
        colours = {c for _, c in (face.getcolors(75 * 75) or [])}
        assert rgb(nations[unit.nationality].text_colour) in colours, unit.id
    for marker in game.markers.marker[:6]:
        image: Image.Image = render_marker(game, marker, 0, 75).convert("RGB")
        text, _ = side_colours(game, marker.side) if marker.kind != "turn" else (rgb(INK), rgb(PAPER))
        assert text in {c for _, c in (image.getcolors(75 * 75) or [])}, marker.id


def test_onslaught_counters_show_the_division() -> None:
    """Onslaught's counters carry the division they stand for, so a palette is not dozens of '4-5's."""
    game = load_game(data_root(), "onslaught")
    shown = {u.id: short_designation(u) for _, u in game.units}
    assert shown["us-inf-01"] == "1" and shown["de-inf-04"] == "352" and shown["ss-pz-01"] == "12 SS"
    assert shown["de-pz-02"] == "Lehr" and shown["br-arm-03"] == "Gds"
    same = [(u.nationality, u.type, shown[u.id]) for _, u in game.units]
    assert len(same) == len(set(same)), "two counters of one nationality and type look alike"
