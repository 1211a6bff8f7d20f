"""Player-aid charts: every chart of every game renders, from the data, to the same bytes each time."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image

from builder.render.charts import chart_sheets, png_bytes, render_charts, write_charts
from builder.render.charts.blocks import Paragraph
from builder.render.charts.layout import Pen
from builder.render.charts.table import Table
from wargame.bundled import data_root, game_ids
from wargame.game import Game, load_game
from wargame.tables import Chart, ChartsFile

GAMES = game_ids(data_root())


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    """Each bundled game, loaded once."""
    return load_game(data_root(), request.param)


@pytest.fixture(scope="module")
def charts(game: Game) -> dict[str, Image.Image]:
    """Every chart of the game, rendered once for the tests that only look."""
    return render_charts(game)


def _crt_png(game: Game) -> bytes:
    """The CRT chart alone, as PNG bytes."""
    return png_bytes(chart_sheets(game)["crt"].render(Pen()))


def test_every_chart_the_data_supports_is_there(game: Game, charts: dict[str, Image.Image]) -> None:
    """CRT, terrain, sequence, schedules and tracks when the data has them; one image per printed chart."""
    expected = {"terrain"}
    if game.crt is not None:
        expected.add("crt")
    if game.manifest.sequence:
        expected.add("sequence")
    if game.reinforcements:
        expected.add("reinforcements")
    if game.replacements:
        expected.add("replacements")
    if any(t.kind == "turn" for t in game.manifest.track):
        expected.add("turn_track")
    if any(t.kind == "supply" for t in game.manifest.track):
        expected.add("supply_tracks")
    expected |= {f"chart-{c.id}" for c in game.charts.chart}
    assert set(charts) == expected


def test_every_chart_has_a_readable_size(charts: dict[str, Image.Image]) -> None:
    """Wide enough for the title bar, narrow enough for a VASSAL chart window, never a sliver."""
    for chart_id, image in charts.items():
        width, height = image.size
        assert image.mode == "RGB", chart_id
        assert 700 <= width <= 1600, (chart_id, image.size)
        assert 150 <= height <= 3000, (chart_id, image.size)


def test_charts_are_the_same_bytes_every_time(game: Game, charts: dict[str, Image.Image]) -> None:
    """A second render gives identical PNG files (reproducible builds)."""
    again = render_charts(game)
    assert {k: png_bytes(v) for k, v in again.items()} == {k: png_bytes(v) for k, v in charts.items()}


def test_the_crt_is_drawn_from_the_data(game: Game) -> None:
    """Changing one CRT cell in the data changes the chart."""
    assert game.crt is not None
    first = game.crt.results[0][0]
    other = next(code for code in game.crt.result_codes if code != first)
    results = (((other,) + game.crt.results[0][1:]),) + game.crt.results[1:]
    changed = dataclasses.replace(game, crt=dataclasses.replace(game.crt, results=results))
    assert _crt_png(changed) != _crt_png(game)


def test_the_crt_shows_each_terrain_line_and_die_roll(game: Game) -> None:
    """Grid rows: a header (two for odds), a row per terrain line, a header of columns, a row per die roll."""
    assert game.crt is not None
    grid = chart_sheets(game)["crt"].blocks[0]
    assert isinstance(grid, Table)
    headers = 1 + (1 if game.crt.line else 0) + (1 if game.crt.kind == "odds" else 0)
    assert len(grid.rows) == headers + len(game.crt.line) + len(game.crt.die_rolls)


def test_a_reconstructed_crt_says_so(game: Game) -> None:
    """The reconstructed footnote follows the CRT's source, not the game."""
    assert game.crt is not None

    def footnoted(g: Game) -> bool:
        blocks = chart_sheets(g)["crt"].blocks
        return any(isinstance(b, Paragraph) and b.text.startswith("Reconstructed table") for b in blocks)

    as_printed = dataclasses.replace(game, crt=dataclasses.replace(game.crt, source="7.0"))
    as_reconstructed = dataclasses.replace(game, crt=dataclasses.replace(game.crt, source="reconstructed"))
    assert not footnoted(as_printed)
    assert footnoted(as_reconstructed)


def test_a_generic_chart_renders_every_row(game: Game) -> None:
    """A chart kept as rows gets a table row per data row, ids shown by name, and grows with its rows."""
    unit_type = game.manifest.unit_type[0]

    def with_rows(n: int) -> Game:
        chart = Chart(id="probe", name="Probe Chart", columns=("what", "how_many"), source="1.0",
                      rows=tuple((unit_type.id, str(i)) for i in range(n)))
        return dataclasses.replace(game, charts=ChartsFile(schema_version=1, chart=[chart]))

    sheet = chart_sheets(with_rows(7))["chart-probe"]
    table = sheet.blocks[0]
    assert isinstance(table, Table)
    assert len(table.rows) == 1 + 7
    assert [row[1].text for row in table.rows[1:]] == [str(i) for i in range(7)]
    assert table.rows[1][0].text == unit_type.name
    heights = [chart_sheets(with_rows(n))["chart-probe"].render(Pen()).height for n in (3, 4, 5)]
    assert heights[1] - heights[0] == heights[2] - heights[1] > 0


def test_write_charts_names_files_by_game_and_chart(game: Game, tmp_path: Path) -> None:
    """One `<game>-<chart id>.png` per chart, nothing else left behind."""
    paths = write_charts(game, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)
    assert {p.name for p in paths} == {f"{game.id}-{key}.png" for key in chart_sheets(game)}
    with Image.open(paths[0]) as image:
        assert image.format == "PNG"


def test_remembered_layout_draws_what_measuring_afresh_draws(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table's cells shown and wrapped are remembered by text, font and width, across tables, charts, games and
    scales: every chart drawn with those memories (at two scales, after other games' charts) is the chart drawn
    measuring every cell afresh, byte for byte; a text in two fonts wraps in each its own way."""
    import builder.render.charts.table as table_module
    from builder.render.ink import font, text_length, wrap

    for other in GAMES:
        render_charts(load_game(data_root(), other), 1.25)
    kept = {scale: {k: png_bytes(v) for k, v in render_charts(game, scale).items()} for scale in (1.0, 1.25)}
    display, remembered = table_module.display.__wrapped__, table_module._wrapped
    monkeypatch.setattr(table_module, "display", display)
    monkeypatch.setattr(table_module, "_wrapped", lambda text, face, width_px: tuple(wrap(display(text), face,
                                                                                         width_px)))
    text_length.cache_clear()
    for scale, pngs in kept.items():
        assert {k: png_bytes(v) for k, v in render_charts(game, scale).items()} == pngs
    text = "Attacker eliminated, defender retreats two hexes"
    assert remembered(text, font(16, bold=True), 200) == tuple(wrap(text, font(16, bold=True), 200))
    assert remembered(text, font(16), 200) == tuple(wrap(text, font(16), 200))
    assert remembered(text, font(16), 200) != remembered(text, font(16), 120)
