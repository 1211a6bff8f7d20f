"""The module's palettes: reinforcements by scenario, side and turn; every unit; every marker."""

from __future__ import annotations

from collections import Counter, defaultdict

from lxml import etree

from builder.vassal.build_file import PieceDef, SlotIds, add_slot, el
from wargame.game import Game

DOCKED_PALETTE_PX = 500
"""Least width of the palette docked into the main window (PieceWindow defaultWidth)."""
DOCKED_PALETTE_MAX_PX = 800
TURN_LIST_PX = 110
"""Room for the list of turns beside one turn's reinforcements (ListWidget), and a margin."""
UNIT_COLUMNS = 10
MARKER_COLUMNS = 8


def add_palettes(root: etree._Element, game: Game, units: dict[str, PieceDef], markers: dict[str, PieceDef],
                 counter_px: int, ids: SlotIds) -> None:
    """The three PieceWindows, the reinforcements' first: it docks into the main window."""
    m = game.manifest
    # The first visible PieceWindow docks into the main window (PieceWindow.addTo/dockMe); with
    # defaultWidth 0 its split pane opens as a sliver. It is as tall as the chat (Map docks the map
    # below the chat's preferred height), so it is made wide enough for two rows of the largest turn.
    per_turn = Counter((a.scenario, a.turn, game.units_by_id[a.unit].side) for _, a in game.reinforcements)
    wanted_columns = (max(per_turn.values(), default=1) + 1) // 2
    docked_px = min(max(wanted_columns * counter_px + TURN_LIST_PX, DOCKED_PALETTE_PX), DOCKED_PALETTE_MAX_PX)
    window = el(root, "module.PieceWindow", name="Reinforcements", text="Reinforcements",
                tooltip="Reinforcements by turn", icon="", hotkey="", hidden="false", scale="1.0",
                defaultWidth=str(docked_px))
    tabs = el(window, "widget.TabWidget", entryName="Reinforcements")
    # ListWidget: a turn's counters left of the divider, the list of turns right of it.
    turn_panel_px = docked_px - TURN_LIST_PX
    turn_columns = max(1, turn_panel_px // counter_px)
    for scen in m.scenario:
        for side in m.sides:
            arrivals = sorted((a.turn, a.unit) for _, a in game.reinforcements
                              if a.scenario == scen.id and game.units_by_id[a.unit].side == side)
            if not arrivals:
                continue
            panel = el(tabs, "widget.ListWidget", entryName=f"{side} ({scen.name})", divider=str(turn_panel_px),
                       height="0", width="0", scale="1.0")
            by_turn: dict[int, list[str]] = defaultdict(list)
            for turn, unit_id in arrivals:
                by_turn[turn].append(unit_id)
            for turn, unit_ids in sorted(by_turn.items()):
                # PanelWidget.getLayout: only fixed="true" gives a grid of nColumns; otherwise one row.
                group = el(panel, "widget.PanelWidget", entryName=f"Turn {turn}", fixed="true",
                           nColumns=str(turn_columns), vert="false", scale="1.0")
                for unit_id in unit_ids:
                    add_slot(group, units[unit_id], ids)
    window = el(root, "module.PieceWindow", name="Units", text="Units", tooltip="Every unit", icon="",
                hotkey="", hidden="false", scale="1.0", defaultWidth=str(DOCKED_PALETTE_PX))
    tabs = el(window, "widget.TabWidget", entryName="Units")
    for side in m.sides:
        panel = el(tabs, "widget.PanelWidget", entryName=side, fixed="true", nColumns=str(UNIT_COLUMNS),
                   vert="false", scale="1.0")
        for unit_id, piece in units.items():
            if game.units_by_id[unit_id].side == side:
                add_slot(panel, piece, ids)
    window = el(root, "module.PieceWindow", name="Markers", text="Markers", tooltip="Every marker", icon="",
                hotkey="", hidden="false", scale="1.0", defaultWidth=str(DOCKED_PALETTE_PX))
    panel = el(window, "widget.PanelWidget", entryName="Markers", fixed="true", nColumns=str(MARKER_COLUMNS),
               vert="false", scale="1.0")
    for piece in markers.values():
        add_slot(panel, piece, ids)
