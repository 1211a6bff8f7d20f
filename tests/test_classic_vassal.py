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
from adjudicator.notation.entries import Advance, Attack, Comment, Entry, Retreat
from adjudicator.notation.text import write_entry
from adjudicator.sources import game_of, read_log, replay_entries
from adjudicator.systems import system_for
from adjudicator.vassal import export as exporting
from adjudicator.vassal.load import translate_file
from builder.cli import main as vmodbuild
from builder.vassal.declare import PIECE_KEYS
from test_classic_generality import other_game
from test_classic_shapes import several
from test_vassal_declare import menus
from test_vassal_module import chain_of
from wargame.vassal import logfile

__all__ = ["other_game", "several"]  # the fixtures, used by the tests below

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
    # A drag by no player of a side (the export's) is written as its owner's.
    assert body(entries) == [e.replace("Soviet>", "Soviet:") for e in body(list(text.entries))]
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
