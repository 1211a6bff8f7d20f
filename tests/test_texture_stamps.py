"""Texture marks drawn once per variant and stamped on the board's hexes (issue 30 item 2, sixth pass): the pixels of
drawing them there, nothing cut off, and no two hexes side by side alike."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from builder.render.board import SUPERSAMPLE, board_layout
from builder.render.board_canvas import hex_corners
from builder.render.board_terrain import (
    HEX_STYLES, PHASED_TEXTURES, STAMP_VARIANTS, TEXTURES, Stamp, draw_terrain, hatch_phase, hatch_step, stamp_canvas,
    stamp_variant, texture_stamp,
)
from builder.render.window import ShiftedDraw
from wargame.bundled import data_root, game_ids
from wargame.hexes import Hex
from wargame.layout import ORIENTATIONS, OrientationMatrix

STAMPED = sorted(TEXTURES)
FILLS = sorted({style.fill for style in HEX_STYLES.values()})


def variants(name: str, s: float) -> range:
    """A texture's stamps at a size: its variants, or a phased texture's phases."""
    return range(hatch_step(s)) if name in PHASED_TEXTURES else range(STAMP_VARIANTS)


def test_the_hatch_is_stamped_by_its_phase() -> None:
    """The hatch runs in phase from hex to hex (its lines x + y = k * step, step whole pixels), so its stamp is chosen
    by where the hex's centre falls, not by the hex."""
    assert PHASED_TEXTURES == {"hatch"}
    assert hatch_step(72.0) == 12 and isinstance(hatch_step(57.3), int)
    assert {hatch_phase(72.0, (x, 500 - x)) for x in range(100)} == {hatch_phase(72.0, (0, 500))}
    assert len({hatch_phase(72.0, (x, 0)) for x in range(100)}) == 12


@given(st.integers(-200, 200), st.integers(-200, 200))
def test_no_two_neighbours_carry_the_same_marks(q: int, r: int) -> None:
    """A hex's variant differs from each of its six neighbours', and theirs from each other's."""
    flower = [Hex(q, r), *Hex(q, r).neighbours()]
    assert len({stamp_variant(h) for h in flower}) == STAMP_VARIANTS == 7


@pytest.mark.parametrize("orientation", sorted(ORIENTATIONS))
@pytest.mark.parametrize("name", STAMPED)
def test_every_stamp_keeps_its_marks_clear_of_its_edge(orientation: str, name: str) -> None:
    """Nothing a texture draws reaches its stamp's edge (it would be cut off there), in either orientation, at every
    bundled game's canvas size and at the sizes of larger scales, in every ground colour and variant."""
    matrix = ORIENTATIONS[orientation]  # type: ignore[index]
    sizes = sorted({SUPERSAMPLE * board_layout_size(game_id) for game_id in game_ids(data_root())} | {30.0, 160.0})
    for s in sizes:
        for fill in FILLS:
            for variant in variants(name, s):
                canvas, half = stamp_canvas(name, fill, s, matrix, variant)
                box = canvas.getchannel("A").getbbox()
                assert box is not None, f"{name} drew nothing"
                assert box[0] > 0 and box[1] > 0 and box[2] < 2 * half and box[3] < 2 * half, (name, s, fill, variant)


def board_layout_size(game_id: str) -> float:
    """A bundled game's hex circumradius on its final board."""
    from wargame.game import load_game

    return board_layout(load_game(data_root(), game_id)).size_px


@pytest.mark.parametrize("name", STAMPED)
def test_a_stamp_paints_what_drawing_its_marks_there_paints(name: str) -> None:
    """A hex stamped with a variant's marks has the pixels of its marks drawn at its centre on the board's drawing
    (an even-width line toward +x+y), on its fill: the stamp's colours and mask lose nothing, and the hatch's stamp
    puts its lines on the board's own."""
    import random
    import zlib

    s, matrix, fill = 80.0, ORIENTATIONS["flat"], HEX_STYLES["mixed"].fill
    centre = (120, 110)
    drawn = Image.new("RGB", (240, 220), "white")
    draw = ShiftedDraw(drawn, even_forward=True)
    draw.polygon(hex_corners(centre, s, matrix), fill=fill)
    stamped = drawn.copy()
    for variant in (0, 4):
        if name in PHASED_TEXTURES:  # the board's lines x + y = k * step, stamped by their phase at this centre
            TEXTURES[name](draw, centre, s, matrix, random.Random(0), fill)
            variant = hatch_phase(s, centre)
        else:
            TEXTURES[name](draw, centre, s, matrix, random.Random(variant * 31 + zlib.crc32(name.encode())), fill)
        stamp = texture_stamp(name, fill, s, matrix, variant)
        stamped.paste(stamp.marks, (centre[0] - stamp.centre[0], centre[1] - stamp.centre[1]), stamp.mask)
        assert ImageChops.difference(drawn, stamped).getbbox() is None, (name, variant)


def test_the_board_stamps_each_hex_with_its_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each textured hex of a board is stamped with its own variant at its centre rounded to the canvas's pixel."""
    from builder.render import board as board_module
    from builder.render import board_terrain
    from wargame.game import load_game

    game = load_game(data_root(), "moscow")
    stamped: list[tuple[str, int, tuple[int, int]]] = []

    def spy(name: str, fill: str, s: float, matrix: OrientationMatrix, variant: int) -> Stamp:
        stamp = texture_stamp(name, fill, s, matrix, variant)
        stamped.append((name, variant, stamp.centre))
        return stamp

    monkeypatch.setattr(board_terrain, "texture_stamp", spy)
    monkeypatch.setattr(board_module, "_draw_layers", lambda b, frame: draw_terrain(b, "ground"))
    board_module.render_board(game)
    textured = [h for h in sorted(game.grid.hexes)
                if any(HEX_STYLES.get(t) and HEX_STYLES[t].texture == "trees" for t in game.hex_terrain[h])]
    assert textured
    trees = [(variant, centre) for name, variant, centre in stamped if name == "trees"]
    assert [variant for variant, _ in trees] == [stamp_variant(h) for h in textured]



def test_stamps_paste_through_a_bilevel_mask_and_one_colour_alone() -> None:
    """A stamp's mask is of mode "1" (copied through, not blended: a seventh of the time, the same pixels since marks
    are opaque), and marks of one colour keep that colour alone (a quarter of the memory): a mixed texture keeps its
    pixels."""
    matrix = ORIENTATIONS["flat"]
    for name in STAMPED:
        assert texture_stamp(name, HEX_STYLES["mixed"].fill, 80.0, matrix, 0).mask.mode == "1"
    assert isinstance(texture_stamp("stipple", HEX_STYLES["broken"].fill, 80.0, matrix, 0).marks, tuple)
    assert isinstance(texture_stamp("hatch", HEX_STYLES["neutral"].fill, 80.0, matrix, 0).marks, tuple)
    assert isinstance(texture_stamp("trees", HEX_STYLES["forest"].fill, 80.0, matrix, 0).marks, Image.Image)
