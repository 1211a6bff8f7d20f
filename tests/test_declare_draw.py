"""A claim of a draw from the module's Declare menu, where a game's victory rules give one (session 20 left the module
without it: the referee read `declare draw`, but no button wrote it), and the Help page's claim lines."""

from __future__ import annotations

import shutil
from pathlib import Path

from adjudicator.notation.entries import Declare
from adjudicator.notation.text import parse_line
from builder.vassal.declare import buttons, declarations, help_html
from data_edits import edit as edit_file
from wargame.bundled import data_root
from wargame.game import load_game
from wargame.vassal.declarations import read_declaration

RHINE = Path(__file__).resolve().parent / "data" / "rhine"


def test_a_game_whose_rules_give_a_draw_offers_its_claim() -> None:
    """Rhine's 12.0 ends the game drawn with two cities Allied: its Declare menu claims victory or the draw, either
    player pressing it, and the line the button writes reads back as the notation's `declare draw`."""
    game = load_game(RHINE, "rhine")
    assert game.rules is not None and game.rules.victory is not None and game.rules.victory.can_end_drawn()
    found = declarations(game)
    assert found is not None and found.declares == {"victory": "winning", "draw": "winning"}
    draw = next(b for b in buttons(game) if b.words == "declare draw")
    assert (draw.text, draw.tooltip) == ("Declare the Draw", "Either player declares the draw")
    line = read_declaration(f"[umpire] German: {draw.words}")
    assert (line.side, line.word, line.subject) == ("German", "declare", "draw")
    entry = parse_line(f"{line.side}: {line.word} {line.subject}", 1)
    assert isinstance(entry, Declare) and entry.what == "draw"


def test_a_game_without_a_draw_offers_none() -> None:
    """Battle for Moscow's 12.0 has no draw (the Soviet wins unless the German holds Moscow): no draw button."""
    game = load_game(data_root(), "moscow")
    assert game.rules is not None and game.rules.victory is not None and not game.rules.victory.can_end_drawn()
    assert [b.words for b in buttons(game) if b.words.startswith("declare")] == ["declare victory"]


def test_the_draw_is_claimed_by_whoever_claims_victory(tmp_path: Path) -> None:
    """Where the designer gives the victory claim to one side (`[declare] declares`), the draw goes to that side too;
    a designer's own draw entry is kept as written."""
    copy = tmp_path / "rhine"
    shutil.copytree(RHINE, copy)
    manifest = copy / "counters" / "rhine" / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + '\n[declare]\ndeclares = { victory = "Allied" }\n',
                        encoding="utf-8")
    found = declarations(load_game(copy, "rhine"))
    assert found is not None and found.declares == {"victory": "Allied", "draw": "Allied"}
    edit_file(manifest, 'declares = { victory = "Allied" }', 'declares = { victory = "Allied", draw = "German" }')
    found = declarations(load_game(copy, "rhine"))
    assert found is not None and found.declares == {"victory": "Allied", "draw": "German"}
    edit_file(manifest, 'declares = { victory = "Allied", draw = "German" }', "declares = {}")
    found = declarations(load_game(copy, "rhine"))
    assert found is not None and found.declares == {}, "no claim of victory offered, no draw added"


def test_help_shows_a_claim_with_the_side_that_makes_it() -> None:
    """A claim either player may press is written with the presser's side (`$PlayerSide$`), so the Help page's
    example shows a side, never the data's word `winning`."""
    for root, game_id in ((data_root(), "moscow"), (RHINE, "rhine")):
        page = help_html(load_game(root, game_id))
        assert "winning:" not in page
        assert "[umpire] German: declare victory" in page or "[umpire] Allied: declare victory" in page
