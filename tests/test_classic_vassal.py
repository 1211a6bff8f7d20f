"""The VASSAL module and log reader of classic games shaped unlike Battle for Moscow (temporary data folders, as in
test_classic_shapes.py): an attack on several hexes declared from the module and read back, each written log
exported to VASSAL and read back to the same entries and verdict."""

from __future__ import annotations

import html
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lxml import etree

from adjudicator.cli import main as adjudicate
from adjudicator.engine import Replay, replay
from adjudicator.notation.entries import Advance, Attack, Comment, Entry, Loss, Retreat
from adjudicator.notation.text import write_entry
from adjudicator.sources import game_of, read_log, replay_entries
from adjudicator.systems import system_for
from adjudicator.vassal import export as exporting
from adjudicator.vassal.board import STEP_LAYER
from adjudicator.vassal.load import translate_file
from builder.cli import main as vmodbuild
from builder.render.counters import render_unit
from builder.vassal.declare import PIECE_KEYS
from test_classic_generality import other_game
from test_classic_shapes import several, tiers
from test_vassal_declare import menus
from test_vassal_module import chain_of
from wargame.game import load_game
from wargame.vassal import logfile
from wargame.vassal.buildfile import open_module
from wargame.vassal.commands import split
from wargame.vassal.definitions import read_catalogue

__all__ = ["other_game", "several", "tiers"]  # the fixtures, used by the tests below

P = "VASSAL.build."
MULTI = """[Game "steppe"]
Turn 1
Phase german_replacement
Phase panzer_movement
Phase german_combat
German: attack 0303+0304 with ge-vi ge-lvi die 3 result DR
Soviet> retreat so-19 0303-0402
Soviet> retreat so-16 0304-0403
German: advance ge-vi 0203-0304
Phase german_movement
"""
"""ge-vi (0203) and ge-lvi (0202) attack so-19 (0303) and so-16 (0304) as one: a DR, both retreat, ge-vi advances."""


def build(data: Path, out: Path) -> Path:
    """The game's module, built."""
    result = CliRunner().invoke(vmodbuild, ["build", "steppe", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "steppe.vmod"


def unit_menus(module: Path, prototype: str = "steppe infantry") -> dict[str, str]:
    """The menu commands of a unit type's prototype: key -> text."""
    with zipfile.ZipFile(module) as archive:
        root = etree.fromstring(archive.read("buildFile.xml"))
    found = {d.get("name"): chain_of(d.text) for d in root.iter(P + "module.PrototypeDefinition")}
    return menus(found[prototype])


def entries_of(log: Path, data: Path) -> Replay[Any]:
    """A text log's replay."""
    entries, source = read_log(log)
    return replay_entries(game_of(entries, log, data), entries, log, source)


def body(entries: list[Entry]) -> list[str]:
    """The entries that are not comments or headers the VASSAL reader adds, in the notation."""
    return [write_entry(e) for e in entries if not isinstance(e, Comment) and not write_entry(e).startswith(
        "[Scenario")]


def verdict(result: Replay[Any]) -> list[tuple[str, str, str]]:
    """Every finding of a replay, without its line."""
    return sorted((f.severity, f.rule, f.message) for f in result.findings)


def round_trip(data: Path, log_text: str, tmp_path: Path) -> tuple[Replay[Any], Replay[Any], list[Entry]]:
    """A text log exported to VASSAL with the game's module and read back: both replays, and the translation."""
    log = tmp_path / "game.log"
    log.write_text(log_text, encoding="utf-8")
    module = build(data, tmp_path / "dist")
    out = tmp_path / "game.vlog"
    result = CliRunner().invoke(adjudicate, ["export", str(log), "--data", str(data), "--module", str(module),
                                             "-o", str(out)])
    assert result.exit_code == 0, result.output
    translation = translate_file(out, module_path=module, data=data)
    assert [n.message for n in translation.notes] == []
    again = replay(translation.game, system_for(translation.game), translation.entries)
    return entries_of(log, data), again, list(translation.entries)


def test_a_game_allowing_attacks_on_several_hexes_offers_another_hex(
        several: Path, tmp_path: Path, built_module: Callable[[str], Path]) -> None:
    """With `multi_hex = true` every unit's menu has the command adding its hex to the attack just declared; a
    game refusing such attacks (Battle for Moscow, `multi_hex = false`) does not offer it."""
    also = PIECE_KEYS["also"]
    assert unit_menus(build(several, tmp_path / "several"))[also] == "Also attack this hex (the same attack)"
    assert also not in unit_menus(built_module("moscow"), "moscow infantry")


def test_an_attack_on_two_hexes_exported_and_read_back(several: Path, tmp_path: Path) -> None:
    """The log's attack on 0303+0304 goes to VASSAL and comes back as the same entries and the same verdict."""
    text, again, entries = round_trip(several, MULTI, tmp_path)
    assert body(entries) == body(list(text.entries))
    assert "German: attack 0303+0304 with ge-vi ge-lvi die 3 result DR" in body(entries)
    assert verdict(again) == verdict(text) == []


CLICKS = ["attacker ge-vi at 0203", "attacker ge-lvi at 0202", "target so-19 at 0303", "also so-16 at 0304",
          "also so-16 at 0304"]
"""The declarations of the attack on 0303+0304 as the module's menus write them (the last a second click on the
same hex, which adds nothing)."""


def test_an_attack_on_two_hexes_declared_by_clicks(several: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack's step clicked instead of typed (attackers, target, the other hex, the die, the result) is read
    back as the one attack `attack 0303+0304`; the retreats dragged from either hex are retreats."""
    step = exporting.Exporter.step

    def clicked(self: exporting.Exporter, *args: Any) -> list[str]:
        commands = step(self, *args)
        if isinstance(args[3], Attack):
            lines = [f"* [umpire] German: {words}" for words in CLICKS]
            lines += ["*** 1d6 = 3 ***", "* [umpire] German: result DR"]
            commands[0:1] = [logfile.chat(html.escape(line, quote=False)) for line in lines]
        elif isinstance(args[3], (Retreat, Advance)):
            del commands[0]  # only dragged: the reader tells a retreat from a move by the attack's hexes
        return commands

    monkeypatch.setattr(exporting.Exporter, "step", clicked)
    text, again, entries = round_trip(several, MULTI, tmp_path)
    # A retreat dragged by no player of a side (the export's) is the decision of the side the rules give it: in this
    # game its owner's, who is not the attacker (`Soviet>`).
    assert body(entries) == body(list(text.entries))
    assert verdict(again) == verdict(text) == []


def test_another_hex_without_an_attack_is_noted(several: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`also` with no attack declared before it is not translated, and the reader says why."""
    step = exporting.Exporter.step

    def clicked(self: exporting.Exporter, *args: Any) -> list[str]:
        commands = step(self, *args)
        if isinstance(args[3], Attack):
            commands.insert(0, logfile.chat(html.escape("* [umpire] German: also so-16 at 0304", quote=False)))
        return commands

    monkeypatch.setattr(exporting.Exporter, "step", clicked)
    log = tmp_path / "game.log"
    log.write_text(MULTI, encoding="utf-8")
    module = build(several, tmp_path / "dist")
    out = tmp_path / "game.vlog"
    assert CliRunner().invoke(adjudicate, ["export", str(log), "--data", str(several), "--module", str(module),
                                           "-o", str(out)]).exit_code == 0
    notes = [n.message for n in translate_file(out, module_path=module, data=several).notes]
    assert len(notes) == 1 and "another hex of an attack, but no attack was declared" in notes[0]


def test_validate_refuses_the_command_where_the_rules_refuse_it(other_game: Path) -> None:
    """[declare] offering `also` in a game with `multi_hex = false`: a validate error at game.toml's line."""
    manifest = other_game / "counters" / "steppe" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert "[declare]" not in text
    manifest.write_text(text + '\n[declare]\nunit = ["attacker", "target", "also"]\n', encoding="utf-8")
    result = CliRunner().invoke(vmodbuild, ["validate", "steppe", "--data", str(other_game)])
    assert result.exit_code == 1
    line = len(text.splitlines()) + 3
    assert f"game.toml:{line} [declare.unit]: [declare] offers 'also'" in result.output, result.output


# -- units of three and four steps ------------------------------------------------------------------------------
def test_a_unit_of_four_steps_carries_every_face(tiers: Path, tmp_path: Path) -> None:
    """ge-xli (four steps: 12-6, 9-6, 6-6, 3-6) is one piece whose Step layer has a level a face, full first, each
    level's image in the module; a two-step unit keeps its two levels."""
    module = build(tiers, tmp_path / "dist")
    catalogue = read_catalogue(open_module(module))
    with zipfile.ZipFile(module) as archive:
        names = set(archive.namelist())
    for unit, faces in (("ge-xli", ("full", "reduced", "further1", "further2")), ("so-5", ("full", "reduced",
                                                                                         "further1")),
                        ("ge-vi", ("full", "reduced"))):
        definition = catalogue.units[unit]
        index = definition.layer(STEP_LAYER)
        assert index is not None
        fields = split(definition.types[index][len("emb2;"):], ";")
        images = split(fields[15], ",")
        assert images == [f"{unit}-{face}.png" for face in faces]
        assert all(f"images/{image}" in names for image in images)
        assert split(fields[16], ",") == ["", "+ (reduced)", "+ (2 steps lost)", "+ (3 steps lost)"][:len(faces)]
    assert catalogue.units["ge-xli"].properties["Further"] == "6-6;3-6"


def test_the_faces_are_drawn_with_their_values(tiers: Path) -> None:
    """Each further face prints its own values (the render of 3-6 differs from 6-6's)."""
    game = load_game(tiers, "steppe")
    unit = game.units_by_id["ge-xli"]
    pictures = [render_unit(game, unit, face, 60).tobytes() for face in ("full", "reduced", "further1", "further2")]
    assert len(set(pictures)) == 4


LOSSES = """[Game "steppe"]
Turn 1
Phase german_replacement
Phase panzer_movement
Phase german_combat
German: attack 0302 with ge-xli ge-lvi die 6 result D2
Soviet> deplete so-30
Soviet> deplete so-30
Phase german_movement
"""
"""so-30 (four steps, set up reduced) loses two steps to a D2, one face at a time."""


def rebuilt(turns: int) -> str:
    """so-5 (three steps, set up eliminated) rebuilt with one step, then restored a step a turn."""
    phases = "Phase german_combat\nPhase german_movement\nPhase soviet_replacement\n"
    turn = "Turn {n}\nPhase german_replacement\nPhase panzer_movement\n" + phases
    lines = ['[Game "steppe"]', turn.format(n=1) + "Soviet: replace so-5 reduced 1401"]
    lines += [turn.format(n=n) + "Soviet: replace so-5" + (" full" if n == 3 else "") for n in range(2, turns + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("log", [LOSSES, rebuilt(3)], ids=["losses", "rebuilt"])
def test_faces_exported_and_read_back(tiers: Path, tmp_path: Path, log: str) -> None:
    """Every face change goes to VASSAL as a change of the Step layer's level and comes back as the loss (or the
    replacement) it is: the same entries and the same verdict."""
    text, again, entries = round_trip(tiers, log, tmp_path)
    assert body(entries) == body(list(text.entries))
    assert verdict(again) == verdict(text) == []


def test_face_changes_alone_are_read_as_losses(tiers: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The depletions only flipped in VASSAL, not typed: each step down the Step layer is one `deplete`; a unit
    rebuilt reduced and flipped to the face the rules give it (one step left) adds no loss."""
    step = exporting.Exporter.step

    def flipped(self: exporting.Exporter, *args: Any) -> list[str]:
        commands = step(self, *args)
        if isinstance(args[3], Loss):
            del commands[0]  # only the counter flipped
        return commands

    monkeypatch.setattr(exporting.Exporter, "step", flipped)
    text, again, entries = round_trip(tiers, LOSSES, tmp_path)
    # A flip by no player of a side (the export's) is written as its owner's.
    assert body(entries) == [e.replace("Soviet>", "Soviet:") for e in body(list(text.entries))]
    assert verdict(again) == verdict(text) == []


def test_a_picture_shows_the_face_a_unit_of_several_steps_has_reached(tiers: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A position's picture (and so the HTML verdict's) puts a unit of three or four steps on the face its lost
    steps show, as the module does: so-30, set up reduced, then two steps down, on its last face."""
    import builder.picture as picture_module
    from umpire.scenes import scene_of

    log = tmp_path / "game.log"
    log.write_text(LOSSES, encoding="utf-8")
    text = entries_of(log, tiers)
    scene = scene_of(text.system.position(text.final_state))
    faces = {c.piece: c.face for stack in scene.stacks for c in stack.counters}
    assert (faces["so-30"], faces["ge-xli"]) == ("further2", "full")
    drawn: dict[str, str] = {}
    real = picture_module._counter_image

    def recorded(game: Any, counter: Any, size_px: int) -> Any:
        drawn[counter.piece] = counter.face
        return real(game, counter, size_px)

    monkeypatch.setattr(picture_module, "_counter_image", recorded)
    picture_module.draw_scene(text.game, scene, None)
    assert drawn["so-30"] == "further2"
    unit = text.game.units_by_id["so-30"]
    assert render_unit(text.game, unit, "further2", 40).tobytes() != render_unit(text.game, unit, "reduced", 40).tobytes()
