"""Declarations by a click (issue 8): our modules' piece menus and Declare toolbar, and the reader
that turns the lines they write into entries of the notation.

The module half reads the buildFile back; the reader half feeds it the chat lines VASSAL would
write for those very report formats (`formatted` substitutes `$...$` as VASSAL's
FormattedStringExpression does for a localized report, which ReportState and
ChangePropertyButton are), in log steps built as test_vassal_reader's are.
"""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from adjudicator.notation.entries import Activate, Attack, Bombard, Capture, Comment, Income, StandFast
from adjudicator.notation.text import parse_line, write_entry
from adjudicator.systems.onslaught.sequence import ACTION_TYPES
from adjudicator.vassal.load import translate_file
from adjudicator.vassal.translate import Translation
from builder.vassal.declare import PIECE_KEYS, buttons
from builder.vassal.module import build_module, draw_art
from test_vassal_module import chain_of
from test_vassal_reader import Session, run
from wargame.bundled import data_root, game_ids
from wargame.errors import Place
from wargame.game import Game, load_game
from wargame.vassal.commands import parse_command
from wargame.vassal.declarations import (
    DECLARATION_PROPERTY, PREFIX, UNSET, NotADeclaration, read_declaration,
)
from wargame.vassal.encoding import decode, encode
from wargame.vassal.places import Places
from wargame.vassal.reader import read_recording
from wargame.vassal.tracking import track

P = "VASSAL.build."


class Module:
    """A module built once per game: its buildFile, help page and set-up saves."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.data = build_module(game, "0.0.test", draw_art(game)).data
        self.zip = zipfile.ZipFile(io.BytesIO(self.data))
        self.root = etree.fromstring(self.zip.read("buildFile.xml"))
        self.help = self.zip.read("help.html").decode("utf-8")


@pytest.fixture(scope="module", params=game_ids(data_root()))
def module(request: pytest.FixtureRequest) -> Module:
    """Each bundled game's module."""
    return Module(load_game(data_root(), request.param))


def formatted(text: str, properties: dict[str, str]) -> str:
    """A FormattedString as VASSAL evaluates it for a report: `$name$` is the property's value,
    nothing if it has none (FormattedStringExpression.evaluate, localized)."""
    tokens = decode(text, "$")
    out = []
    for k, token in enumerate(tokens):
        is_property = k % 2 == 1 and k < len(tokens) - 1
        out.append(properties.get(token, "") if is_property else token)
    return "".join(out)


def reports(traits: list[tuple[str, str]]) -> dict[str, str]:
    """Report Action formats of a trait chain, by the key that fires them."""
    out = {}
    for type_text, _ in traits:
        if type_text.startswith("report;"):
            fields = decode(type_text[len("report;"):], ";")
            out[decode(fields[0], ",")[0]] = fields[1]
    return out


def menus(traits: list[tuple[str, str]]) -> dict[str, str]:
    """Trigger Action menu commands of a trait chain: key -> menu text."""
    out = {}
    for type_text, _ in traits:
        if type_text.startswith("macro;"):
            fields = decode(type_text[len("macro;"):], ";")
            assert fields[5] == "" and fields[6] == "false", "the trigger fires nothing and does not loop"
            out[fields[2]] = fields[1]
    return out


# -- the module -------------------------------------------------------------------------------------
def test_every_unit_prototype_carries_the_declarations(module: Module) -> None:
    """Each unit type's prototype has a menu command and its Report Action for every declaration
    word of the game's rule system, with the exact line format; every unit uses such a prototype."""
    game = module.game
    words = game.manifest.declare.declarations().unit_words
    prototypes = {d.get("name"): chain_of(d.text) for d in module.root.iter(P + "module.PrototypeDefinition")}
    for unit_type in game.manifest.unit_type:
        traits = prototypes[f"{game.manifest.id} {unit_type.id}"]
        assert menus(traits) == {PIECE_KEYS[w]: game.manifest.declare.menu_text(w) for w in words}
        formats = reports(traits)
        for word in words:
            assert formats[PIECE_KEYS[word]] == f"[umpire] $PlayerSide$: {word} $UnitId$ at $location$"
    units = [s for s in module.root.iter(P + "widget.PieceSlot") if "UnitId" in (s.text or "")]
    assert len({s.get("entryName") for s in units}) == len(game.units)
    for slot in units:
        names = [t for t, _ in chain_of(slot.text) if t.startswith("prototype;")]
        assert len(names) == 1 and names[0].removeprefix("prototype;") in prototypes


def test_reports_reach_the_chat_as_written(module: Module) -> None:
    """ReportState passes its text through the map's changeFormat and writes '* ' before it: every
    map's changeFormat is `$message$`, so the chat shows '* ' and the report itself."""
    maps = list(module.root.iter(P + "module.Map"))
    assert maps and all(m.get("changeFormat") == "$message$" for m in maps)


def test_keys_do_not_clash(module: Module) -> None:
    """A piece's keys are all different, and none is Ctrl+F (flip) or Ctrl+D (delete)."""
    keys = list(PIECE_KEYS.values())
    assert len(set(keys)) == len(keys) and not {"70,130", "68,130"} & set(keys)


def test_support_markers_carry_the_support_declaration(module: Module) -> None:
    """In Fire & Movement every support fire, naval gunfire and mines marker (in the palette and in
    the set-up's cups) has 'Declare support fire'; no other marker has a declaration."""
    game = module.game
    marker_words = game.manifest.declare.declarations().marker_words
    kinds = {mk.id: mk.kind for mk in game.markers.marker}
    seen = set()
    for slot in module.root.iter(P + "widget.PieceSlot", P + "widget.CardSlot"):
        traits = chain_of(slot.text)
        marker = next((decode(s, ",")[decode(t[5:], ",").index("MarkerId")] for t, s in traits
                       if t.startswith("mark;") and "MarkerId" in decode(t[5:], ",")), None)
        if marker is None:
            continue
        words = marker_words.get(kinds[marker], ())
        assert set(menus(traits).values()) == {game.manifest.declare.menu_text(w) for w in words}
        for word in words:
            assert reports(traits)[PIECE_KEYS[word]] == f"[umpire] $PlayerSide$: {word} $MarkerId$ at $location$"
            seen.add(marker)
    if game.manifest.series_id == "fire-and-movement":
        assert {"us_sf_6", "de_sf_4", "us_naval_7", "de_mines"} <= seen


def test_declaration_traits_decode(module: Module, tmp_path: Path) -> None:
    """Every piece of the set-up saves (prototypes expanded, as VASSAL keeps pieces in play) decodes
    with our reader, every trait known; units carry the declaration traits."""
    for name in module.zip.namelist():
        if not name.endswith(".vsav"):
            continue
        (tmp_path / name).write_bytes(module.zip.read(name))
        pieces = track(read_recording(tmp_path / name)).initial.values()
        assert pieces
        for piece in pieces:
            assert piece.unknown_traits == ()
            if piece.properties.get("UnitId"):
                assert sum(t.id == "macro" for t in piece.traits) == len(
                    module.game.manifest.declare.declarations().unit_words)


def test_the_declare_toolbar(module: Module) -> None:
    """The declaration property, a hidden reset button and one hidden change button per declaration
    (each with its report format and prompt), a DoActionButton per declaration firing the reset then
    its change, and the Declare menu listing them."""
    game = module.game
    found = game.manifest.declare.declarations()
    prop = module.root.find(f"{P}module.properties.GlobalProperties/{P}module.properties.GlobalProperty")
    assert prop is not None and prop.get("name") == DECLARATION_PROPERTY and prop.get("initialValue") == UNSET
    changes = list(prop.iter(P + "module.properties.ChangePropertyButton"))
    assert all(c.get("text") == "" and c.get("icon") == "" for c in changes), "hidden from the toolbar"
    reset, *rest = changes
    assert reset.get("propChanger") == f"P,{UNSET}" and reset.get("reportFormat") == ""
    by_key = {c.get("hotkey"): c for c in rest}
    assert len(by_key) == len(rest) and reset.get("hotkey") not in by_key
    formats = sorted(c.get("reportFormat") for c in rest)
    expected = [f"[umpire] $PlayerSide$: action {a} supply $newValue$" for a in found.actions]
    expected += ["[umpire] $PlayerSide$: pass"] if found.passes else []
    expected += [f"[umpire] $PlayerSide$: declare {what}" for what in found.declares]
    expected += ["[umpire] $PlayerSide$: income reduce $newValue$"] if found.reduces else []
    expected += ["[umpire] $PlayerSide$: income $newValue$"] if found.collects else []
    expected += ["[umpire] $PlayerSide$: capture $newValue$"] if found.captures else []
    expected += ["[umpire] $PlayerSide$: result $newValue$"]
    assert formats == sorted(expected)
    result = next(c for c in rest if "result" in c.get("reportFormat"))
    kind, prompt, values = decode(result.get("propChanger"), ",")
    assert game.crt is not None
    assert kind == "E" and prompt and decode(values, ",") == list(game.crt.result_codes)
    for c in rest:
        if any(word in c.get("reportFormat") for word in ("action", "income", "capture")):
            assert decode(c.get("propChanger"), ",")[0] == "R"
    actions = list(module.root.iter(P + "module.DoActionButton"))
    assert [a.get("text") for a in actions] == [b.text for b in buttons(game)]
    for action in actions:
        keys = decode(action.get("hotkeys"), ",")
        assert action.get("doHotkey") == "true" and action.get("doReport") == "false"
        assert keys[0] == reset.get("hotkey") and keys[1] in by_key and len(keys) == 2
    menu = module.root.find(P + "module.ToolbarMenu")
    assert menu is not None and menu.get("text") == "Declare"
    assert decode(menu.get("menuItems"), ",") == [a.get("text") for a in actions]


def test_onslaught_action_types_are_the_rule_systems() -> None:
    """The Declare menu's action buttons are the Onslaught rule system's action types (5.1)."""
    assert load_game(data_root(), "onslaught").manifest.declare.declarations().actions == ACTION_TYPES


def test_help_explains_every_declaration(module: Module) -> None:
    """The Help page names every menu command and its key, every toolbar button, the result codes,
    and gives an example with the lines the clicks write."""
    game = module.game
    found = game.manifest.declare.declarations()
    text = re.sub(r"<[^>]+>", " ", module.help)
    for word in found.unit_words + tuple(w for ws in found.marker_words.values() for w in ws):
        assert game.manifest.declare.menu_text(word) in text
        assert f"Ctrl+Shift+{chr(int(PIECE_KEYS[word].split(',')[0]))}" in text
        assert f"{PREFIX} {game.manifest.sides[0]}: {word} " in text
    for button in buttons(game):
        assert button.text in text
    assert game.crt is not None
    assert all(code in text for code in game.crt.result_codes)
    assert "Example" in text and "The referee reads:" in text
    assert ("A beach assault before GT 1" in text) == (game.manifest.id == "omaha")


# -- reading what the module writes ---------------------------------------------------------------------
FORMATS: dict[str, dict[str, str]] = {}


def report_format(game_id: str, word: str) -> str:
    """The report format our module writes for a declaration word (read from a built buildFile)."""
    if game_id not in FORMATS:
        game = load_game(data_root(), game_id)
        root = etree.fromstring(zipfile.ZipFile(io.BytesIO(build_module(game, "0.0.test", draw_art(game)).data))
                                .read("buildFile.xml"))
        found: dict[str, str] = {}
        for definition in root.iter(P + "module.PrototypeDefinition", P + "widget.PieceSlot"):
            for type_text, _ in chain_of(definition.text):
                if type_text.startswith("report;") and "[umpire]" in type_text:
                    text = decode(type_text[len("report;"):], ";")[1]
                    found[text.split()[2]] = text
        for change in root.iter(P + "module.properties.ChangePropertyButton"):
            text = change.get("reportFormat")
            if text:
                found[" ".join(text.split()[2:4]).replace(" $newValue$", "")] = text
        FORMATS[game_id] = found
    return FORMATS[game_id][word]


class Clicks(Session):
    """A session whose players click our modules' declarations."""

    def click(self, word: str, piece: str, player: str = "a", *more: str, at: str = "") -> None:
        """A piece menu command on one or more selected counters: for each, the Report Action's
        no-op change (ChangeTracker) and its chat line, in one step. A counter the saved position
        does not follow (a marker in a cup) gets its line alone, `at` the place given."""
        side = self.PLAYERS[player][1]
        commands = []
        for name in (piece, *more):
            key = "UnitId" if name in self.game.units_by_id else "MarkerId"
            where = at or self.location(name)
            text = formatted(report_format(self.GAME, word), {"PlayerSide": side, key: name, "location": where})
            if name in self.pieces and name in self.where:
                state = self.state(name)
                commands.append(encode(["D", self.pieces[name].piece_id, state, state], "/"))
            commands.append(f"CHAT* {text}")
        self.step(*commands)

    def toolbar(self, words: str, answer: str = "", player: str = "a") -> None:
        """A Declare menu button: the property reset, then set (to the prompt's answer), and the report."""
        side = self.PLAYERS[player][1]
        text = formatted(report_format(self.GAME, words), {"PlayerSide": side, "newValue": answer})
        self.step(f"GlobalProperty\t;{DECLARATION_PROPERTY};{UNSET};", f"GlobalProperty\t;{DECLARATION_PROPERTY};"
                  f"{answer or words};", f"CHAT* {text}")

    def location(self, name: str) -> str:
        """VASSAL's name for where a counter lies (the hex label on the main map)."""
        map_name, x, y = self.where[name]
        return Places(self.game).locate(map_name, x, y).name

    def state(self, name: str) -> str:
        """The counter's state string where it lies now."""
        _, state_text = self.type_text[name]
        parts = decode(state_text, "\t")
        chain = []
        while True:
            chain.append(parts[0])
            if len(parts) == 1:
                break
            parts = decode(parts[1], "\t")
        map_name, x, y = self.where[name]
        basic = decode(chain[-1], ";")
        chain[-1] = encode([map_name, x, y, *basic[3:]], ";")
        out = chain[-1]
        for s in reversed(chain[:-1]):
            out = encode([s, out], "\t")
        return out


def body(translation: Translation) -> list[str]:
    """The entries that are not comments, as `line: text`."""
    return [f"{e.line}: {write_entry(e)}" for e in translation.entries if not isinstance(e, Comment)]


def onslaught_attack(result: str) -> Clicks:
    """A combat action declared by clicks: the action and its supply, the 0620 stack activated and
    both its divisions declared attackers together, de-inf-04 the target, the die, the result."""
    s = Clicks()
    s.toolbar("action combat", "1")
    s.click("activate", "us-inf-01", "a", "us-inf-02")
    s.click("attacker", "us-inf-01", "a", "us-inf-02")
    s.click("target", "de-inf-04")
    s.roll("a", 5)
    s.toolbar("result", result)
    return s


def test_an_attack_declared_by_clicks(tmp_path: Path) -> None:
    """The clicks become the action, one activation of the stack, and the attack with its die and
    result; a claimed result the die gives adjudicates clean."""
    vlog = onslaught_attack("DR").write(tmp_path / "attack.vlog")
    translation = translate_file(vlog)
    lines = body(translation)
    assert lines[-3:] == ["1: Allied: action combat supply 1", "2: Allied: activate 0620",
                          "4: Allied: attack 0621 with us-inf-01 us-inf-02 die 5 result DR"]
    assert "3: # step 3: declared: [umpire] Allied: attacker us-inf-01 at 0620" in [
        f"{e.line}: {write_entry(e)}" for e in translation.entries]
    code, out, _ = run("check", str(vlog))
    assert code == 0 and "7.2" in out  # the note that the DR is not carried out, no error


def test_a_claimed_result_the_die_does_not_give(tmp_path: Path) -> None:
    """DE claimed for a die giving DR: the 7.2 error at the target's step (4), citing the chat."""
    vlog = onslaught_attack("DE").write(tmp_path / "wrong.vlog")
    code, out, _ = run("check", str(vlog))
    assert code == 1
    assert re.search(r"step 4: error \[onslaught 7\.2\]: column 2:1 with a modified roll of 4 gives DR, not DE",
                     out), out
    assert "[umpire] Allied: target de-inf-04 at 0621" in out


def test_typed_declarations_in_the_same_form(tmp_path: Path) -> None:
    """The same lines typed in chat give the same entries."""
    s = Clicks()
    s.chat("a", "[umpire] Allied: action combat supply 1")
    s.chat("a", "[umpire] Allied: activate us-inf-01 at 0620")
    s.chat("a", "[umpire] Allied: attacker us-inf-01 at 0620")
    s.chat("a", "[umpire] Allied: attacker us-inf-02 at 0620")
    s.chat("a", "[umpire] Allied: target de-inf-04 at 0621")
    s.roll("a", 5)
    s.chat("a", "[umpire] Allied: result DR")
    translation = translate_file(s.write(tmp_path / "typed.vlog"))
    # The activation is of the stack, as "Activate (this stack)" says: us-inf-02 shares 0620 (issue 26 item 6).
    assert body(translation)[-3:] == ["1: Allied: action combat supply 1",
                                      "2: Allied: activate 0620",
                                      "5: Allied: attack 0621 with us-inf-01 us-inf-02 die 5 result DR"]
    assert "3: # step 3: declared by Alice: [umpire] Allied: attacker us-inf-01 at 0620" in [
        f"{e.line}: {write_entry(e)}" for e in translation.entries]


def test_an_undone_click_is_not_counted(tmp_path: Path) -> None:
    """Undo right after 'Declare attacker' takes it back (VASSAL undoes its no-op change): the
    attack has only the attacker left, and an undone action is no action."""
    s = Clicks()
    s.toolbar("action combat", "1")
    s.undo(f"GlobalProperty\t;{DECLARATION_PROPERTY};{UNSET};")
    s.toolbar("action combat", "2")
    s.click("attacker", "us-inf-01")
    s.click("attacker", "us-inf-02")
    state = s.state("us-inf-02")
    s.undo(encode(["D", s.pieces["us-inf-02"].piece_id, state, state], "/"))
    s.click("target", "de-inf-04")
    translation = translate_file(s.write(tmp_path / "undo.vlog"))
    assert translation.undone == {1: 2, 5: 6}
    assert body(translation)[-2:] == ["3: Allied: action combat supply 2", "7: Allied: attack 0621 with us-inf-01"]


def test_a_click_logged_as_real_vassal_logs_it_is_what_undo_takes_back(tmp_path: Path) -> None:
    """VASSAL 3.7.26 logs a piece menu click as its chat line alone (the Report Action's unchanged piece gives null
    commands), and BasicLogger's Undo takes back the latest step with an undo, a chat line's included; the Undos
    after it each take back the step before (tests/data/vassal/omaha-naval.vlog): the drag before the click stays
    a move, the clicked attacker is not counted."""
    s = Clicks()
    s.toolbar("action combat", "1")
    s.drag("us-inf-02", "0520")
    s.step(f"CHAT* [umpire] Allied: attacker us-inf-01 at 0620")
    s.undo("CHAT* UNDO: * [umpire] Allied: attacker us-inf-01 at 0620")
    s.step("CHAT* [umpire] Allied: attacker us-inf-02 at 0520")
    s.step("CHAT* [umpire] Allied: attacker us-inf-01 at 0620")
    s.undo("CHAT* UNDO: * [umpire] Allied: attacker us-inf-01 at 0620")
    s.undo("CHAT* UNDO: * [umpire] Allied: attacker us-inf-02 at 0520")
    translation = translate_file(s.write(tmp_path / "undo.vlog"))
    assert translation.undone == {3: 4, 6: 7, 5: 8}
    assert "2: us-inf-02 0620-0520" in body(translation)


def test_prompts_left_empty_and_the_other_buttons(tmp_path: Path) -> None:
    """A supply answer of '-' (or nothing) leaves the claim to the referee; Pass and the Bulge write their
    entries; the side is the clicking player's."""
    s = Clicks()
    s.toolbar("action movement", "-")
    s.toolbar("action combat", "")
    s.toolbar("pass")
    s.toolbar("declare bulge", player="b")
    translation = translate_file(s.write(tmp_path / "buttons.vlog"))
    assert body(translation)[-4:] == ["1: Allied: action movement", "2: Allied: action combat", "3: Allied: pass",
                                      "4: German: declare bulge"]


def test_a_reduced_collection_declared_from_the_menu(tmp_path: Path) -> None:
    """Onslaught 8.7: the Declare menu's 'Reduced collection' (Allied only, the source and the points in its
    prompt) reads back as the notation's `income reduce SOURCE N`, the same entry a typed line gives; its
    prompt left as it opens declares nothing."""
    assert "Reduced collection" in [b.text for b in buttons(load_game(data_root(), "onslaught"))]
    assert "Reduced collection" not in [b.text for b in buttons(load_game(data_root(), "omaha"))]
    s = Clicks()
    s.toolbar("income reduce", "0620 2")
    s.toolbar("income reduce", "0620 1 0720 0")
    translation = translate_file(s.write(tmp_path / "reduce.vlog"))
    assert body(translation)[-2:] == ["1: Allied: income reduce 0620 2", "2: Allied: income reduce 0620 1 0720 0"]
    (first, second) = [e for e in translation.entries if isinstance(e, Income)]
    assert first == parse_line("Allied: income reduce 0620 2", first.line, "typed")
    assert (first.points, first.reduced, second.reduced) == (None, {"0620": 2}, {"0620": 1, "0720": 0})


def test_supply_income_and_capture_declared_from_the_menu(tmp_path: Path) -> None:
    """Onslaught 8.7: 'Supply income' (either side, the points or '-' in its prompt) reads back as `income N`
    (`income` after '-': the referee counts), 'Capture supply' (German) as `capture HEX [points N]`, the same
    entries typed lines give; Omaha's menu has neither."""
    onslaught_menu = [b.text for b in buttons(load_game(data_root(), "onslaught"))]
    omaha_menu = [b.text for b in buttons(load_game(data_root(), "omaha"))]
    assert {"Supply income", "Capture supply"} <= set(onslaught_menu)
    assert not {"Supply income", "Capture supply"} & set(omaha_menu)
    s = Clicks()
    s.toolbar("income", "12")
    s.toolbar("income", "-")
    s.toolbar("capture", "0620 points 2", player="b")
    s.toolbar("capture", "0620", player="b")
    translation = translate_file(s.write(tmp_path / "income.vlog"))
    assert body(translation)[-4:] == ["1: Allied: income 12", "2: Allied: income", "3: German: capture 0620 points 2",
                                      "4: German: capture 0620"]
    typed = ["Allied: income 12", "Allied: income", "German: capture 0620 points 2", "German: capture 0620"]
    read = [e for e in translation.entries if isinstance(e, (Income, Capture))]
    assert read == [parse_line(line, e.line, "typed") for line, e in zip(typed, read)]


def test_stand_stands_for_the_flip(tmp_path: Path) -> None:
    """'Stand fast' clicked by the Allied player on a German division: German> stand, and the
    flip that follows is that stand's loss, not a second depletion."""
    s = Clicks()
    s.click("stand", "de-inf-04")
    s.flip("de-inf-04", 2)
    translation = translate_file(s.write(tmp_path / "stand.vlog"))
    assert body(translation)[-1:] == ["1: German> stand de-inf-04"]
    assert any(isinstance(e, Comment) and "as declared at step 1" in e.text for e in translation.entries)
    assert [e for e in translation.entries if isinstance(e, StandFast)][0].units == ["de-inf-04"]


def test_bad_declarations_are_notes(tmp_path: Path) -> None:
    """A misspelt word, an unknown unit, a result the table does not have, a result or a target
    with nothing declared before it, attackers never given a target: notes, no entries."""
    s = Clicks()
    s.chat("a", "[umpire] Allied: atacker us-inf-01 at 0620")
    s.chat("a", "[umpire] Allied: attacker us-inf-1 at 0620")
    s.chat("a", "[umpire] Allied: result DX")
    s.chat("a", "[umpire] Allied: result DR")
    s.click("target", "de-inf-04")
    s.click("attacker", "us-inf-01")
    s.chat("a", "[umpire] Allies: pass")
    translation = translate_file(s.write(tmp_path / "bad.vlog"))
    notes: dict[int, str] = {}
    for n in translation.notes:
        notes[n.step] = notes.get(n.step, "") + n.message + "\n"
    assert "did you mean 'attacker'" in notes[1]
    assert "did you mean 'us-inf-01'" in notes[2]
    assert "DX is not a result of the combat table" in notes[3] and "did you mean" in notes[3]
    assert "no attack was declared" in notes[4]
    assert "no attacker was declared" in notes[5]
    assert "declared us-inf-01 for an attack, but no target" in notes[6]
    assert "'Allies' is not a side of onslaught (did you mean 'Allied'?)" in notes[7]
    assert "names no side of onslaught" in notes[7] and "e.g. 'Allied: pass'" in notes[7]
    assert not any(isinstance(e, (Attack, Activate)) for e in translation.entries)


def test_read_declaration() -> None:
    """The grammar: side optional, piece words with their place (which may hold spaces)."""
    d = read_declaration("[umpire] German: stand de-inf-04 at German Eliminated Units")
    assert (d.side, d.word, d.subject, d.where) == ("German", "stand", "de-inf-04", "German Eliminated Units")
    d = read_declaration("[umpire] : result -")
    assert (d.side, d.word, d.subject) == (None, "result", "-")
    with pytest.raises(NotADeclaration, match="expected 'attacker PIECE at PLACE'"):
        read_declaration("[umpire] Allied: attacker")
    with pytest.raises(NotADeclaration):
        read_declaration("[umpire] Allied pass")


def test_global_property_commands_are_read() -> None:
    """GlobalProperty's own command (what the Declare buttons log) is a property change."""
    command = parse_command(f"GlobalProperty\t;{DECLARATION_PROPERTY};3;", Place("x"))
    assert (command.name, command.new) == (DECLARATION_PROPERTY, "3")  # type: ignore[union-attr]


# -- Fire & Movement ----------------------------------------------------------------------------------
class OmahaClicks(Clicks):
    """Clicks on the recorded Omaha saved position (the assault units in their box)."""

    FILE = "omaha-session.vlog"
    GAME = "omaha"


def test_fire_and_movement_attack_with_support_and_a_bombardment(tmp_path: Path) -> None:
    """Attackers, the defender, support markers after it (in their order), the die, the result; a
    bombardment by markers declared before its target; stiff resistance."""
    s = OmahaClicks()
    for unit, label in (("16/1", "2119"), ("116/29", "2119"), ("914/352", "2218"), ("916/352", "2319")):
        s.drag(unit, label, "b" if unit.endswith("352") else "a")
    s.click("attacker", "16/1", "a", "116/29")
    s.click("target", "914/352")
    s.click("support", "us_sf_6", at="2218")
    s.click("support", "de_sf_4", "b", at="2218")
    s.roll("a", 2)
    s.toolbar("result", "D2")
    s.click("support", "us_naval_7", at="2319")
    s.click("bombard", "916/352")
    s.roll("a", 4)
    s.click("stand", "914/352", "b")
    translation = translate_file(s.write(tmp_path / "fm.vlog"))
    attack = [e for e in translation.entries if isinstance(e, Attack)][0]
    assert (attack.hex, attack.attackers, attack.support, attack.die, attack.result) == (
        "2218", ["16/1", "116/29"], ["us_sf_6", "de_sf_4"], 2, "D2")
    bombard = [e for e in translation.entries if isinstance(e, Bombard)][0]
    assert (bombard.side, bombard.hex, bombard.support, bombard.die) == ("Allied", "2319", ["us_naval_7"], 4)
    assert body(translation)[-1].endswith("German: stand 914/352")


def test_a_beach_assault_with_a_wrong_result(tmp_path: Path) -> None:
    """Omaha's beach assault (11.2.3) declared by clicks: the landed units attackers, Declare
    defender on one of them (their own hex), the die, a result the beach line does not give: the
    8.2 error at the target's step, a right claim none."""
    verdicts = {}
    for claim in ("-", "De"):
        s = OmahaClicks()
        for unit, label in (("914/352", "2117"), ("915/352", "2021"), ("916/352", "2022"), ("16/1", "2319"),
                            ("18/1", "2319")):
            s.drag(unit, label, "b" if unit.endswith("352") else "a")
        s.click("attacker", "16/1", "a", "18/1")
        s.click("target", "16/1")
        s.roll("a", 6)
        s.toolbar("result", claim)
        vlog = s.write(tmp_path / f"beach-{claim}.vlog")
        # Before GT 1 (11.2.3), though VASSAL's turn tracker shows GT 1 already: Turn 1 comes after it.
        assert body(translate_file(vlog))[-3:] == [f"7: Allied: attack 2319 with 16/1 18/1 die 6 result {claim}",
                                                   "9: Turn 1", "9: Step support_fire_marker"]
        assert not any("unit of the attacking side" in n.message for n in translate_file(vlog).notes)
        verdicts[claim] = run("check", str(vlog))[1]
    # The beach assault's own table line (11.2.3, on 8.2's table): cited as 11.2.3.
    wrong = [line for line in verdicts["De"].splitlines() if "error [omaha 11.2.3]: differential" in line]
    assert len(wrong) == 1 and wrong[0].startswith(f"{tmp_path / 'beach-De.vlog'}: step 7:"), verdicts["De"]
    assert "gives -, not De" in wrong[0]
    assert "gives -, not" not in verdicts["-"]


def test_a_ground_combat_with_a_wrong_result(tmp_path: Path) -> None:
    """GT 2's Combat Phase (the turn tracker moved there; on GT 1 the landed units do not attack,
    11.2.1): 16/1 attacks 914/352 by clicks with a support marker; a result the die does not give is
    the 8.2 error at the target's step, the result the table gives is none."""
    def play(claim: str) -> str:
        s = OmahaClicks()
        for unit, label in (("914/352", "2218"), ("915/352", "2021"), ("916/352", "2022"), ("16/1", "2319")):
            s.drag(unit, label, "b" if unit.endswith("352") else "a")
        s.tracker(2, 3)
        s.click("attacker", "16/1")
        s.click("target", "914/352")
        s.click("support", "us_sf_6", at="2218")
        s.roll("a", 4)
        s.toolbar("result", claim)
        vlog = s.write(tmp_path / f"combat-{claim.strip('()')}.vlog")
        assert "7: Allied: attack 2218 with 16/1 die 4 result " + claim + " support us_sf_6" in body(translate_file(vlog))
        return run("check", str(vlog))[1]

    out = play("Ae")
    wrong = re.search(r"^(\S+): step (\d+): error \[fire-and-movement 8\.2\.1d\]: differential \S+ on the \w+ line "
                      r"\(column \w+\) with a 4 gives (\S+), not Ae$", out, re.M)
    assert wrong is not None and wrong.group(2) == "7", out
    right = wrong.group(3)
    assert right != "Ae"
    assert f"gives {right}, not" not in play(right)


def test_a_turn_declared_by_clicks_replays_clean(tmp_path: Path) -> None:
    """Rule 4.1's opening played with clicks instead of typing (as test_vassal_reader's typed turn):
    the Movement actions and their supply, activations, Pass, a German reserve activation; the
    counters dragged; it adjudicates clean."""
    s = Clicks()
    s.toolbar("action movement", "2")
    s.click("activate", "us-inf-01", "a", "us-inf-02")
    s.drag("us-inf-01", "0520")
    s.chat("a", "us-inf-02 0620-0520-0420")
    s.drag("us-inf-02", "0420")
    s.click("activate", "br-inf-01")
    s.drag("br-inf-01", "0620")
    s.roll("a", 3)
    s.roll("b", 5)
    s.toolbar("action movement", "1", player="b")
    s.click("activate", "de-inf-24", "b")
    s.drag("de-inf-24", "3203", "b")
    s.roll("a", 6)
    s.roll("b", 2)
    s.toolbar("pass")
    s.roll("a", 4)
    s.roll("b", 4)
    s.tracker(1, 1)
    s.click("activate", "de-inf-23", "b")
    s.chat("b", "de-inf-23 strategic 3103-3203-3303-3403-3503")
    s.drag("de-inf-23", "3503", "b")
    s.tracker(1, 2)
    for unit, label in (("us-arm-01", "0620"), ("us-inf-03", "0620"), ("us-inf-04", "0720"), ("br-arm-01", "0720"),
                        ("br-inf-04", "0820")):
        s.add(unit, label)
    for unit in ("us-inf-05", "us-inf-06", "us-inf-07", "us-inf-08"):
        s.chat("a", f"Allied: delay {unit}")
    s.chat("b", "German: income 8")
    s.chat("a", "Allied: income 12")
    vlog = s.write(tmp_path / "clicked-turn.vlog")
    lines = body(translate_file(vlog))
    assert "1: Allied: action movement supply 2" in lines and "2: Allied: activate 0620" in lines
    assert "10: German: action movement supply 1" in lines and "11: German: activate 3201" in lines
    assert "15: Allied: pass" in lines and "19: German: activate 3103" in lines
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


WORD = st.sampled_from(["[umpire]", "Allied:", "German:", ":", "attacker", "target", "activate", "stand", "support",
                        "bombard", "result", "action", "combat", "supply", "pass", "declare", "bulge", "at", "us-inf-01",
                        "de-inf-04", "0620", "0621", "DR", "-", "3", "", " ", "$", "\\", "Allied", "9999", "x" * 40])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(WORD, min_size=1, max_size=9).map(" ".join), min_size=1, max_size=12),
       st.lists(st.booleans(), min_size=12, max_size=12))
def test_any_declaration_line_reads_or_is_a_note(lines: list[str], as_report: list[bool]) -> None:
    """Random lines in declaration form, as reports or typed, never stop the translation: each is
    an entry, a comment or a note, and the translation writes back as a text log."""
    s = Clicks()
    for line, report in zip(lines, as_report):
        if report:
            s.step(f"CHAT* {line}")
        else:
            s.chat("a", line)
    with tempfile.TemporaryDirectory() as folder:
        translation = translate_file(s.write(Path(folder) / "fuzz.vlog"))
    for entry in translation.entries:
        write_entry(entry)
    for line in lines:
        try:
            read_declaration(line)
        except NotADeclaration as e:
            assert str(e)


def test_a_typed_attack_after_clicks_drops_the_waiting_attackers(tmp_path: Path) -> None:
    """Attackers clicked, then the whole attack typed in the notation: the typed attack counts, with
    the next die and a claimed result; the clicked attackers are noted and forgotten."""
    s = Clicks()
    s.click("attacker", "us-inf-01")
    s.chat("a", "Allied: attack 0621 with us-inf-01 us-inf-02")
    s.roll("a", 5)
    s.toolbar("result", "DR")
    s.click("target", "de-inf-04")
    translation = translate_file(s.write(tmp_path / "mixed.vlog"))
    assert [write_entry(e) for e in translation.entries if isinstance(e, Attack)] == [
        "Allied: attack 0621 with us-inf-01 us-inf-02 die 5 result DR"]
    messages = [n.message for n in translation.notes]
    assert any("declared us-inf-01 for an attack, but no target was declared before 'Allied: attack 0621" in m
               for m in messages)
    assert any("no attacker was declared since the last attack" in m for m in messages)


def test_omaha_weather_dice_are_rolls(tmp_path: Path) -> None:
    """With [Optional "weather"] typed in chat, from GT 2 (weather_first_turn) the German die in the
    Support Fire Marker Phase is the weather roll, and after a 6 (inclement) each side's next die is
    its roll for the markers put aside (14.1); other dice stay comments."""
    s = OmahaClicks()
    s.chat("a", '[Optional "weather"]')
    s.tracker(1, 0)
    s.tracker(1, 1)
    s.roll("b", 6)              # GT 1, Movement Phase: no weather die
    s.tracker(2, 0)
    s.roll("b", 6)
    s.roll("a", 3)
    s.roll("b", 2)
    s.roll("a", 5)              # both have rolled for the markers aside
    s.tracker(3, 0)
    s.roll("b", 4)
    s.roll("a", 1)              # fair weather: no roll for markers
    lines = [line for line in body(translate_file(s.write(tmp_path / "weather.vlog"))) if "Roll" in line]
    assert lines == ["6: Roll German 6", "7: Roll Allied 3", "8: Roll German 2", "11: Roll German 4"], lines


def test_the_defender_of_a_stack_declared_by_a_click(tmp_path: Path) -> None:
    """Omaha 11.2.4 / 11.2.3: 'Defends its stack' on a unit of the attacked stack names the attack's
    (or bombardment's) `defender`; with no combat declared before it, a note."""
    s = OmahaClicks()
    for unit, label in (("16/1", "2319"), ("18/1", "2319"), ("914/352", "2218")):
        s.drag(unit, label, "b" if unit.endswith("352") else "a")
    s.click("defender", "18/1", "a")
    s.click("attacker", "914/352", "b")
    s.click("target", "16/1", "b")
    s.roll("b", 3)
    s.click("defender", "18/1", "a")
    translation = translate_file(s.write(tmp_path / "defender.vlog"))
    (attack,) = [e for e in translation.entries if isinstance(e, Attack)]
    assert (attack.hex, attack.defender) == ("2319", "18/1")
    assert any("a defender, but no attack or bombardment was declared" in n.message for n in translation.notes)


def test_the_declarations_are_the_games_data(tmp_path: Path) -> None:
    """game.toml's `[declare]` is what a module offers, checked like the rest of the data: a side it names must be
    one of the game's sides (with a suggestion), a menu text for a command nobody offers is refused, and a game
    without the table gets attacker and target on its units and a claim of victory (issue 25: no code names a game
    or a side for them)."""
    import shutil

    from wargame.errors import DataErrors

    for kind in ("maps", "counters"):
        shutil.copytree(data_root() / kind / "onslaught", tmp_path / kind / "onslaught")
    manifest = tmp_path / "counters" / "onslaught" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('captures = "German"', 'captures = "Germans"'), encoding="utf-8")
    with pytest.raises(DataErrors) as refused:
        load_game(tmp_path, "onslaught")
    assert "'Germans' is not one of the sides" in str(refused.value) and "did you mean 'German'" in str(refused.value)
    manifest.write_text(text.replace('stand = "Stand fast', 'bombard = "Stand fast'), encoding="utf-8")
    with pytest.raises(DataErrors) as refused:
        load_game(tmp_path, "onslaught")
    assert "menu text for 'bombard', which no unit or marker offers" in str(refused.value)
    start = text.index("[declare]")
    manifest.write_text(text[:start], encoding="utf-8")
    plain = load_game(tmp_path, "onslaught").manifest.declare
    assert plain.unit == ("attacker", "target") and plain.declares == {"victory": "winning"}
    assert plain.menu_text("attacker") == "Declare attacker"


def test_the_data_vocabulary_of_declarations_is_the_readers() -> None:
    """game.toml's `[declare]` offers exactly the piece commands the reader knows, each with a menu text."""
    import typing

    from wargame.menus import MENU_TEXT, PieceWord
    from wargame.vassal.declarations import PIECE_WORDS

    assert set(typing.get_args(PieceWord)) == set(PIECE_WORDS) == set(MENU_TEXT)


def test_a_breakthrough_stack_activated_to_move_first_from_the_menu(tmp_path: Path) -> None:
    """Onslaught 5.5: a Breakthrough stack moves then attacks, or attacks then moves, as declared. The module had
    no command for `move-first` (only typing it), so a game played with clicks could not declare it. Played as
    examples/onslaught/breach-breakthrough-sequence.log: the 0620 armor activated with "Activate to move first"
    (both counters selected: one activation), then attacking and moving after it, the one 5.5 error of the text
    log at the move."""
    from types import SimpleNamespace

    s = Clicks()
    s.toolbar("action movement", "1")
    s.click("activate", "us-inf-01", "a", "us-inf-02")
    s.drag("us-inf-01", "0520")
    s.drag("us-inf-02", "0520")
    s.roll("a", 2)
    s.roll("b", 2)
    s.tracker(1, 1)
    s.tracker(1, 2)
    for unit, label in (("us-arm-01", "0620"), ("br-arm-01", "0620"), ("us-inf-03", "0620"), ("us-inf-04", "0720"),
                        ("br-inf-04", "0820")):
        s.add(unit, label)              # from the palette: a new piece, followed from here as the unit
        props, rest = decode(s.type_text["us-inf-01"][1], "\t")
        s.type_text[unit] = (s.type_text["us-inf-01"][0], encode([props.replace("us-inf-01", unit), rest], "\t"))
        s.pieces[unit] = SimpleNamespace(piece_id=f"new-{s.new_ids}")  # type: ignore[assignment]
        s.where[unit] = ("Main Map", *s.pixel(label))
    for unit in ("us-inf-05", "us-inf-06", "us-inf-07", "us-inf-08"):
        s.chat("a", f"Allied: delay {unit}")
    s.toolbar("income", "8", "b")
    s.toolbar("income", "12")
    s.tracker(2, 0)
    s.toolbar("action breakthrough", "2")
    s.click("move-first", "us-arm-01", "a", "br-arm-01")
    s.click("attacker", "us-arm-01", "a", "br-arm-01")
    s.click("target", "de-inf-04")
    s.roll("a", 6)
    s.toolbar("result", "DH")
    s.flip("de-inf-04", 2)
    s.drag("de-inf-04", "0623", "b")
    s.chat("a", "us-arm-01 0620-0621")   # a move, typed (dragged alone, an attacker's drag is its advance, 7.4)
    s.drag("us-arm-01", "0621")
    vlog = s.write(tmp_path / "breakthrough.vlog")
    activations = [write_entry(e) for e in translate_file(vlog).entries if isinstance(e, Activate)]
    assert activations == ["Allied: activate 0620", "Allied: activate 0620 move-first"], activations
    code, out, _ = run("check", str(vlog))
    errors = [line for line in out.splitlines() if " error [" in line]
    assert code == 1 and len(errors) == 1 and "error [onslaught 5.5]: the stack moves after attacking" in errors[0], out


def test_a_die_rolled_before_the_target_is_clicked_is_the_attack_s(tmp_path: Path) -> None:
    """Players roll as soon as the attackers are declared, then click the target. The reader left that die as a die
    of nothing and gave the attack the next die, the first of the roll-off that follows (Onslaught 5.0): the 3, so
    AH, and the defender's retreat carried out for the real 5 (DR) read as a 7.2 error, the roll-off lost. The die
    rolled between the attackers and their target is the attack's (a note says so)."""
    s = Clicks()
    s.toolbar("action combat", "1")
    s.click("activate", "us-inf-01", "a", "us-inf-02")
    s.click("attacker", "us-inf-01", "a", "us-inf-02")
    s.roll("a", 5)                                # step 4: before the target
    s.click("target", "de-inf-04")
    s.drag("de-inf-04", "0623", "b")              # DR carried out
    s.roll("a", 3)
    s.roll("b", 4)                                # the next action's roll-off
    vlog = s.write(tmp_path / "early.vlog")
    translation = translate_file(vlog)
    assert "5: Allied: attack 0621 with us-inf-01 us-inf-02 die 5" in body(translation)
    assert "8: Roll Allied 3 German 4" in body(translation)
    assert any("rolled 5 at step 4" in n.message for n in translation.notes), translation.notes
    code, out, _ = run("check", str(vlog))
    assert code == 0, out


def test_copies_of_a_support_marker_each_count(tmp_path: Path) -> None:
    """Omaha's four naval gunfire markers share their id (us_naval_7, count 4): each clicked is another counter, so
    three clicked are three markers (8.2.1 b allows two); a marker the game has one of, clicked twice, is one."""
    s = OmahaClicks()
    s.drag("26/1", "2318")
    for _ in range(3):
        s.step("CHAT* [umpire] Allied: support us_naval_7 at 2318")
    s.step("CHAT* [umpire] Allied: support us_sf_5 at 2318")
    s.step("CHAT* [umpire] Allied: support us_sf_5 at 2318")
    s.step("CHAT* [umpire] Allied: attacker 26/1 at 2318")
    s.step("CHAT* [umpire] Allied: target 26/1 at 2318")
    translation = translate_file(s.write(tmp_path / "copies.vlog"))
    (attack,) = [e for e in translation.entries if isinstance(e, Attack)]
    assert attack.support == ["us_naval_7", "us_naval_7", "us_naval_7", "us_sf_5"]
