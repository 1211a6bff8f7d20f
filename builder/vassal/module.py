"""Assemble a playable VASSAL 3.7 module (.vmod) for a game: art, buildFile, set-ups, zip."""

# The module's hex grid is derived from the same `Layout` the board was drawn with, every unit
# is a two-sided piece carrying its unit id as a property (the log reader's stable mapping), and
# the whole archive is deterministic (sorted entries, fixed times, stable ids).

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from builder.render.counters import marker_faces
from builder.vassal.art import PNG_COMPRESS_LEVEL, Art, ModuleArt, draw_art, encode_pngs, module_art
from builder.vassal.build_file import P, SlotIds, el
from builder.vassal.declare import add_toolbar, help_html
from builder.vassal.decks import cup_markers
from builder.vassal.maps import BOXES_MAP, MAIN_MAP, add_holding_map, add_main_map
from builder.vassal.palettes import add_palettes
from builder.vassal.pieces import marker_piece, prototypes, unit_piece
from builder.vassal.setups import add_setup_stacks, setup_save
from wargame.game import Game
from wargame.sequence import turn_sequence
from wargame.vassal.archive import zip_bytes
from wargame.vassal.encoding import add_piece
from wargame.vassal.savefile import markup_escaped

__all__ = ["BOXES_MAP", "MAIN_MAP", "PNG_COMPRESS_LEVEL", "VASSAL_VERSION", "Art", "BuiltModule", "build_module",
           "ModuleArt", "draw_art", "encode_pngs", "write_module"]

VASSAL_VERSION = "3.7.0"


def _turn_levels(game: Game) -> list[str]:
    """The steps or phases a turn runs through, for the turn tracker (4.0 / 4.1), from the game's sequence.

    The opening played once before the first turn (Omaha's set-up and landing, 11.2) is not a level: a
    tracker's list repeats every turn and starts at turn 1, so the players play the opening before they
    first step the tracker (the VASSAL reader reads what comes before as the opening, docs/vassal-logs.md)."""
    return [slot.name for slot in turn_sequence(game.manifest)] or ["Turn"]


def _help_html(game: Game) -> str:
    """The module's help page: provenance notice and how to play with it."""
    m = game.manifest
    rows = "".join(f"<li>{markup_escaped(t.name)}</li>" for t in m.unit_type)
    cups = ("<li>A draw cup is a face-down deck: a drag from it draws one marker at random, which only you see\n"
            "until you reveal it (Mask, Ctrl+M); a marker dropped on a cup goes back into it.</li>\n"
            if any(b.kind == "draw_cup" for b in m.box) else "")
    return f"""<html><head><meta charset="utf-8"><title>{markup_escaped(m.title)}</title></head><body>
<h1>{markup_escaped(m.title)}</h1>
<p>Built by Umpire from the game's data files. <b>Reconstructed data:</b> the rulebook does not give
the map, the counter values, the schedules or (for some games) the combat table; those values are
reconstructed from history and geography and marked <i>reconstructed</i> in the data. See
PROVENANCE.md in the Umpire project for every reconstruction; a player who owns the printed game
can correct any value in one data file and rebuild the module.</p>
<h2>Playing</h2>
<ul><li>Drag counters; moves are reported in the chat with hex labels as printed, and with box
names or track spaces (<i>Turn 3</i>) in the <i>{BOXES_MAP}</i> window.</li>
<li>Ctrl+F flips a unit to its depleted side and back; Ctrl+D deletes a piece.</li>
{cups}<li>The <i>{BOXES_MAP}</i> window holds the boxes and tracks; palettes hold reinforcements by turn,
every unit and every marker.</li>
<li>Each unit carries the property <i>UnitId</i>, which the Umpire referee reads from saved logs.</li></ul>
{help_html(game)}<h2>Unit types</h2><ul>{rows}</ul></body></html>
"""


@dataclass
class BuiltModule:
    """The archive bytes and what went into it (for tests and the benchmark)."""

    data: bytes
    build_file: bytes
    images: dict[str, bytes]


def build_module(game: Game, version: str, drawn: Art | ModuleArt) -> BuiltModule:
    """The .vmod archive for a game, from its art (drawn, or its PNG bytes kept from an earlier build)."""
    encoded = drawn if isinstance(drawn, ModuleArt) else module_art(drawn)
    art, pngs = encoded.frame, encoded.pngs
    m = game.manifest
    root = etree.Element(P + "GameModule", ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                         description=f"{m.title}: built by Umpire; much of its data is reconstructed (see Help).",
                         name=m.title, nextPieceSlotId="0", version=version)
    el(root, "module.BasicCommandEncoder")
    docs = el(root, "module.Documentation")
    del docs
    roster = el(root, "module.PlayerRoster", buttonKeyStroke="", buttonText="Retire", buttonToolTip="Switch sides")
    # PlayerRoster offers its own <observer>; an "Observer" entry would be a claimable side.
    for side in m.sides:
        entry = etree.SubElement(roster, "entry")
        entry.text = side
    el(root, "module.GlobalOptions", autoReport="Always", centerOnMove="Use Preferences Setting",
       chatterHTMLSupport="Always", hotKeysOnClosedWindows="Never", inventoryForAll="Always",
       nonOwnerUnmaskable="Never", playerIdFormat="$PlayerName$", promptString="Opponents can unmask pieces",
       sendToLocationMoveTrails="Never", storeLeadingZeroIntegersAsStrings="true")

    ids = SlotIds()
    protos = prototypes(game)
    units = {u.id: unit_piece(game, u, art.counter_px) for _, u in sorted(game.units, key=lambda r: r[1].id)}
    masked = cup_markers(game)
    markers = {mk.id: marker_piece(game, mk, marker_faces(mk), art.counter_px, mk.id in masked)
               for mk in sorted(game.markers.marker, key=lambda x: x.id)}

    main = add_main_map(root, game, art.layout, encoded.board_size())
    holding = add_holding_map(root, art.holding)
    add_setup_stacks(main, holding, game, art, units, markers, ids)

    proto_box = el(root, "module.PrototypesContainer")
    for name, traits in protos.items():
        definition = el(proto_box, "module.PrototypeDefinition", name=name, description="")
        definition.text = add_piece(traits, "")
    add_palettes(root, game, units, markers, art.counter_px, ids)

    el(root, "module.DiceButton", name="1d6", text="1d6", tooltip="Roll one die", icon="", hotkey="54,130",
       nDice="1", nSides="6", plus="0", addToTotal="0", reportTotal="false", prompt="false", sortDice="false",
       keepDice="false", keepOption=">", keepCount="1", lockDice="false", lockSides="false", lockPlus="false",
       lockAdd="false", canDisable="false", hideWhenDisabled="false", propertyGate="",
       reportFormat="** $name$ = $result$ *** &lt;$PlayerName$&gt;")
    last_turn = max(s.last_turn for s in m.scenario)
    tracker = el(root, "module.turn.TurnTracker", name="Turn", buttonText="Turn", icon="", hotkey="",
                 nexthotkey="39,130", prevhotkey="37,130", length="-1", lengthStyle="Maximum",
                 tooltip="Turn and phase", turnFormat="Turn $level1$ - $level2$",
                 reportFormat="&lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$")
    level = el(tracker, "module.turn.CounterTurnLevel", property="Turn", start=str(m.scenario[0].first_turn), incr="1",
               loop="false", loopLimit=str(last_turn), turnFormat="$value$")
    phases = ",".join(n.replace(",", " ") for n in _turn_levels(game))
    el(level, "module.turn.ListTurnLevel", property="Phase", list=phases, configFirst="false", configList="false",
       turnFormat="$value$")
    charts = el(root, "module.ChartWindow", name="Charts", text="Charts", tooltip="Charts and tables", icon="",
                hotkey="", description="")
    tabs = el(charts, "widget.TabWidget", entryName="Charts")
    # Tabs in the charts' own order (combat results first), named by each chart's title.
    for chart_id in art.chart_names:
        el(tabs, "widget.Chart", chartName=art.chart_names[chart_id], description="",
           fileName=f"chart-{chart_id}.png")
    el(tabs, "widget.HtmlChart", chartName="Help", description="", fileName="help.html")
    el(root, "module.Inventory", name="Inventory", text="Inventory", tooltip="Where every unit is", icon="",
       hotkey="", include="{UnitId!=\"\"}", groupBy="Side,UnitType", leafFormat="$PieceName$ ($LocationName$)",
       nonLeafFormat="$PropertyValue$", sortFormat="$PieceName$", sorting="alpha", cutRoot="0", cutLeaves="0",
       centerOnPiece="true", forwardKeystroke="true", showMenu="true", drawPieces="true", foldersOnly="false",
       sortPieces="true", zoomOn="false", pieceZoom="0.33", pieceZoom2="0.5", pieceZoom3="0.6", sides="",
       launchFunction="functionHide", refreshHotkey="")
    for scen in m.scenario:
        el(root, "module.PredefinedSetup", name=scen.name, file=f"{scen.id}.vsav", useFile="true",
           isMenu="false", description="")
    add_toolbar(root, game, el)
    el(root, "module.Chatter")
    el(root, "module.KeyNamer")
    root.set("nextPieceSlotId", str(ids.next))

    build_file = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
    # VASSAL looks for GameModule in the first lines when moduledata is missing; keep a newline after the declaration.
    images = dict(pngs)
    moduledata = _metadata(m.title, version, game)
    entries = {"buildFile.xml": build_file, "moduledata": moduledata, "help.html": _help_html(game).encode("utf-8"),
               **images}
    for scen in m.scenario:
        entries[f"{scen.id}.vsav"] = setup_save(game, scen.id, units, markers, protos, art, version, moduledata)
    return BuiltModule(zip_bytes(entries), build_file, images)


def _metadata(name: str, version: str, game: Game) -> bytes:
    """The moduledata entry (fixed date: builds are byte-identical)."""
    root = etree.Element("data", version="1")
    for tag, text in (("version", version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", "0"), ("description", f"{game.manifest.title} (Umpire)"), ("name", name)):
        etree.SubElement(root, tag).text = text
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True))


def write_module(game: Game, out: Path, version: str, scale: float = 1.0,
                 art: Art | ModuleArt | None = None) -> BuiltModule:
    """Build and write `out` atomically, with the art given (builder.vassal.art_cache's, kept between builds)
    or drawn now."""
    from wargame.files import write_atomically

    built = build_module(game, version, draw_art(game, scale) if art is None else art)
    write_atomically(out, built.data)
    return built
