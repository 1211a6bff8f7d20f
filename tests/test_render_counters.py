"""Counter art: every face of every unit and marker of both games draws, differs and is named once."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import get_args, get_type_hints

import pytest
from PIL import Image, ImageChops

from builder.render.board import board_layout
from builder.render.counters import (
    counter_size_px,
    image_name,
    marker_faces,
    marker_image_name,
    render_marker,
    render_unit,
    side_colours,
    write_counters,
)
from wargame.bundled import data_root
from wargame.errors import DataError
from wargame.game import Game, load_game
from wargame.models import Marker, UnitType

GAMES = ["onslaught", "omaha", "moscow"]
SIZE_PX = 75


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    """Each bundled game, loaded once for the module."""
    return load_game(data_root(), request.param)


def _differ(a: Image.Image, b: Image.Image) -> bool:
    """True when two images are not pixel-identical."""
    return a.size != b.size or ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


def test_every_unit_face_renders_at_the_requested_size(game: Game) -> None:
    """Both faces of two-step units, the full face of one-step units, square and size_px wide."""
    for _, unit in game.units:
        full = render_unit(game, unit, "full", SIZE_PX)
        assert full.size == (SIZE_PX, SIZE_PX), unit.id
        if unit.steps == 2:
            reduced = render_unit(game, unit, "reduced", SIZE_PX)
            assert reduced.size == (SIZE_PX, SIZE_PX), unit.id
            assert _differ(full, reduced), f"{unit.id}: the reduced face looks like the full face"


def test_one_step_unit_has_no_reduced_face(game: Game) -> None:
    """Asking for the reduced face of a one-step unit is a ValueError naming the unit."""
    one_step = [u for _, u in game.units if u.steps == 1]
    unit = one_step[0] if one_step else dataclasses.replace(game.units[0][1], steps=1, reduced=None)
    with pytest.raises(ValueError, match=unit.id):
        render_unit(game, unit, "reduced")


def test_every_marker_face_renders(game: Game) -> None:
    """Every face of every marker is a square image; supply markers flip to their text."""
    for marker in game.markers.marker:
        faces = [render_marker(game, marker, face, SIZE_PX) for face in range(marker_faces(marker))]
        assert all(image.size == (SIZE_PX, SIZE_PX) for image in faces), marker.id
        if len(faces) == 2:
            assert _differ(faces[0], faces[1]), marker.id
        with pytest.raises(ValueError, match=marker.id):
            render_marker(game, marker, marker_faces(marker))


def test_marker_faces() -> None:
    """Two faces only for supply markers with a flip-side text."""
    supply = Marker(id="s", name="Supply", kind="supply", side="Allied", text="+30", source="8.2")
    assert marker_faces(supply) == 2
    assert marker_faces(dataclasses.replace(supply, text="")) == 1
    assert marker_faces(dataclasses.replace(supply, kind="turn")) == 1


def test_image_names_are_unique_within_a_game(game: Game) -> None:
    """No two faces share a file name, not even on a case-insensitive disk."""
    names = [image_name(u.id, face) for _, u in game.units for face in ("full", "reduced")[:u.steps]]
    names += [marker_image_name(m.id, n) for m in game.markers.marker for n in range(marker_faces(m))]
    assert len({n.casefold() for n in names}) == len(names)
    assert all("/" not in n and "\\" not in n for n in names)


def test_image_name_examples() -> None:
    """Slashes in unit ids become underscores; markers use the module's face<N> names."""
    assert image_name("914/352", "full") == "914_352-full.png"
    assert image_name("us-inf-01", "reduced") == "us-inf-01-reduced.png"
    assert marker_image_name("allied_supply", 1) == "allied_supply-face1.png"


def test_rendering_is_deterministic(game: Game) -> None:
    """The same counter twice gives the same pixels (the cache is not what makes it so)."""
    from builder.render.counters import units

    unit = game.units[-1][1]
    first = render_unit(game, unit, "full").tobytes()
    units._draw_unit.cache_clear()
    assert render_unit(game, unit, "full").tobytes() == first


def test_write_counters(game: Game, tmp_path: Path) -> None:
    """One PNG per face, named by image_name, identical bytes when written again."""
    paths = write_counters(game, tmp_path / "a", size_px=40)
    expected = sum(u.steps for _, u in game.units) + sum(marker_faces(m) for m in game.markers.marker)
    assert len(paths) == len(set(paths)) == expected
    assert all(p.is_file() for p in paths)
    assert paths[0].name == image_name(game.units[0][1].id, "full")
    with Image.open(paths[0]) as image:
        assert image.size == (40, 40)
    again = write_counters(game, tmp_path / "b", size_px=40)
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]
    assert digest == [hashlib.sha256(p.read_bytes()).hexdigest() for p in again]


def test_write_counters_refuses_clashing_names(game: Game, tmp_path: Path) -> None:
    """Two ids that sanitise to one file name are a DataError, not a lost picture."""
    unit = game.units[0][1]
    other_id = unit.id.replace("/", "_") if "/" in unit.id else unit.id.swapcase()
    clash = dataclasses.replace(unit, id=other_id)
    broken = dataclasses.replace(game, units=[*game.units, (0, clash)])
    with pytest.raises(DataError, match="share the image"):
        write_counters(broken, tmp_path)


@pytest.mark.parametrize("symbol", get_args(get_type_hints(UnitType)["symbol"]))
def test_every_symbol_draws_something_of_its_own(symbol: str) -> None:
    """Each NATO symbol the data may name draws, and differs from plain infantry."""
    game = load_game(data_root(), "onslaught")
    types = [UnitType(id="plain", name="plain", symbol="infantry", source="2.3"),
             UnitType(id="probe", name="probe", symbol=symbol, source="2.3")]
    probe_game = dataclasses.replace(game, manifest=dataclasses.replace(game.manifest, unit_type=types))
    unit = game.units[0][1]
    plain = render_unit(probe_game, dataclasses.replace(unit, type="plain"), "full")
    probe = render_unit(probe_game, dataclasses.replace(unit, type="probe"), "full")
    assert (symbol == "infantry") != _differ(plain, probe)


def test_side_colours_follow_the_most_common_nationality() -> None:
    """Onslaught's Allied markers wear US colours (most Allied divisions are American)."""
    game = load_game(data_root(), "onslaught")
    us = next(n for n in game.manifest.nationality if n.id == "us")
    assert side_colours(game, "Allied") == (
        tuple(int(us.text_colour[i:i + 2], 16) for i in (1, 3, 5)),
        tuple(int(us.background_colour[i:i + 2], 16) for i in (1, 3, 5)),
    )


@pytest.mark.parametrize(("game_id", "size_px"), [("onslaught", 50), ("omaha", 55)])
def test_counters_are_sized_to_sit_inside_a_hex(game_id: str, size_px: int) -> None:
    """Counters are 0.8 of the hex's width across flats (Onslaught: 62.4 px, Omaha: 69.3 px), at any scale."""
    game = load_game(data_root(), game_id)
    assert counter_size_px(board_layout(game)) == size_px
    assert counter_size_px(board_layout(game, 2.0)) in (2 * size_px - 1, 2 * size_px, 2 * size_px + 1)


def test_a_units_texts_are_printed_at_the_size_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit face's designation and values are printed at the face's own size (FreeType antialiases them), not at
    the supersampled size its shapes are drawn at and reduced from (three times the work for the same look)."""
    from builder.render import ink
    from builder.render.counters import units

    game = load_game(data_root(), "moscow")
    unit = game.units[0][1]
    sizes: list[float] = []
    real = ink.KeptMasksFont.getmask2

    def counted(font: ink.KeptMasksFont, text: str, *args: object, **kwargs: object) -> object:
        sizes.append(font.size)
        return real(font, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ink.KeptMasksFont, "getmask2", counted)
    units._draw_unit.cache_clear()
    units._shapes.cache_clear()
    units._symbol_ink.cache_clear()
    render_unit(game, unit, "full", 69)
    units._draw_unit.cache_clear()
    assert sizes and max(sizes[-2:]) <= round(69 * 0.3)


def test_a_counter_prints_its_designation_column_where_given() -> None:
    """Battle for Moscow's counters print the corps' numeral and the army's number ("IX", "1S") from units.csv's
    `designation`, not the unit's id ("ge-ix"): the same pixels as a unit whose id were that designation."""
    from builder.render.counters.units import printed_designation

    moscow = load_game(data_root(), "moscow")
    units = {unit.id: unit for _, unit in moscow.units}
    assert printed_designation(units["ge-ix"], False) == "IX"
    assert printed_designation(units["so-1s"], False) == "1S"
    assert printed_designation(units["so-16"], False) == "16"
    ix = units["ge-ix"]
    as_id = dataclasses.replace(ix, id="IX", designation="")
    assert not _differ(render_unit(moscow, ix, "full", SIZE_PX), render_unit(moscow, as_id, "full", SIZE_PX))
    by_id = dataclasses.replace(ix, designation="")
    assert _differ(render_unit(moscow, ix, "full", SIZE_PX), render_unit(moscow, by_id, "full", SIZE_PX))


def test_corps_and_armies_carry_their_size_marks() -> None:
    """A corps is marked XXX and an army XXXX above the symbol (Battle for Moscow's counters), each drawn apart from
    a division's XX."""
    from builder.render.counters.symbols import SIZE_GLYPHS

    assert (SIZE_GLYPHS["corps"], SIZE_GLYPHS["army"], SIZE_GLYPHS["division"]) == ("XXX", "XXXX", "XX")
    moscow = load_game(data_root(), "moscow")
    units = {unit.id: unit for _, unit in moscow.units}
    assert {units["ge-ix"].size, units["so-16"].size} == {"corps", "army"}
    corps = render_unit(moscow, units["ge-ix"], "full", SIZE_PX)
    assert _differ(corps, render_unit(moscow, dataclasses.replace(units["ge-ix"], size="division"), "full", SIZE_PX))
