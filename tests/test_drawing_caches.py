"""What counter faces share is drawn once (issue 30 item 2): a face's shapes per nationality, type, size and face
size, and each text's mask per font, text and sub-pixel position; the faces' pixels are those drawn afresh."""

from __future__ import annotations

import pickle

import pytest
from PIL import Image, ImageFont

from builder.render import ink
from builder.render.counters import counter_images, units
from builder.render.counters import markers
from builder.vassal.art import plan_art
from wargame.bundled import data_root
from wargame.game import load_game


def _clear() -> None:
    """Forget every drawing kept: faces, type boxes, fonts and their masks."""
    units._draw_unit.cache_clear()
    units._shapes.cache_clear()
    units._symbol_ink.cache_clear()
    markers._draw_marker.cache_clear()
    ink.font.cache_clear()
    ink.text_length.cache_clear()
    ink.cap_height.cache_clear()


@pytest.mark.parametrize("game_id", ["moscow", "omaha"])
def test_faces_drawn_from_kept_boxes_and_masks_are_the_faces_drawn_afresh(game_id: str) -> None:
    """Each face drawn with nothing kept (caches cleared before it) has the pixels of the same face drawn after
    all the others, from the type boxes and text masks they left."""
    game = load_game(data_root(), game_id)
    size = plan_art(game, 1.0)[0].counter_px
    faces = counter_images(game)
    _clear()
    warm = [draw(size).tobytes() for _, _, draw in faces]
    for (name, _, draw), kept in zip(faces, warm):
        _clear()
        assert draw(size).tobytes() == kept, name
    _clear()


def test_a_games_counters_render_each_distinct_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Onslaught's counters print hundreds of texts, fewer than half of them distinct: FreeType renders each
    distinct one about once, and a face's shapes (colours, type box, edge) are drawn once per nationality, type,
    size and face, not once per face."""
    game = load_game(data_root(), "onslaught")
    size = plan_art(game, 1.0)[0].counter_px
    faces = counter_images(game)
    printed: list[str] = []
    rendered: list[str] = []
    kept_getmask2, real_getmask2 = ink.KeptMasksFont.getmask2, ImageFont.FreeTypeFont.getmask2

    def counted_kept(font: ink.KeptMasksFont, text: str, *args: object, **kwargs: object) -> object:
        printed.append(text)
        return kept_getmask2(font, text, *args, **kwargs)  # type: ignore[arg-type]

    def counted_real(font: ImageFont.FreeTypeFont, text: str, *args: object, **kwargs: object) -> object:
        rendered.append(text)
        return real_getmask2(font, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ink.KeptMasksFont, "getmask2", counted_kept)
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counted_real)
    _clear()
    for _, _, draw in faces:
        draw(size)
    shapes = units._shapes.cache_info()
    _clear()
    assert len(printed) > 600
    assert len(rendered) < len(printed) // 3
    assert shapes.misses < shapes.hits // 4


def test_a_font_that_keeps_masks_pickles_and_renders_as_freetype_does() -> None:
    """The house font is FreeType's (laid out as ink.LAYOUT says), its masks the same; pickled (into a process), it
    keeps none of them, and keeps its layout."""
    face = ink.font(14, bold=True)
    plain = ImageFont.truetype(str(ink.FONTS / "DejaVuSans-Bold.ttf"), 14, layout_engine=ink.LAYOUT)
    for text, start in (("12-4", (0.0, 0.0)), ("12-4", (0.37, 0.5)), ("Vierville", (0.25, 0.0))):
        ours, theirs = face.getmask2(text, "L", start=start), plain.getmask2(text, "L", start=start)
        assert ours[1] == theirs[1]
        assert Image.Image()._new(ours[0]).tobytes() == Image.Image()._new(theirs[0]).tobytes()
    again = pickle.loads(pickle.dumps(face))
    assert isinstance(again, ink.KeptMasksFont) and again.size == 14 and again.layout_engine == ink.LAYOUT
    assert again.getmask2("12-4", "L")[1] == plain.getmask2("12-4", "L")[1]
