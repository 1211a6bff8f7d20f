"""The tables consulted in play: the Combat Results Table, the Terrain Effects Chart and the game's printed charts."""

from __future__ import annotations

from builder.render.charts.blocks import Gap, Heading, Paragraph
from builder.render.charts.layout import BODY_PX, EMPTY_FILL, HEADER_FILL, MUTED, SECTION_FILL, SMALL_PX, Block, Sheet
from builder.render.charts.table import Cell, Swatch, Table
from builder.render.charts.words import cited, display_names, humane, number, signed, sources_footer
from builder.render.ink import INK, PAPER
from wargame.game import Game
from wargame.models import TerrainType, is_reconstructed
from wargame.tables import Chart, CombatTable

# Muted tints that tell result codes apart without claiming which is good for whom: the
# data does not say, and the order of codes in a CRT differs from game to game.
RESULT_TINTS = (
    "#f2d4cf", "#f5e3c3", "#efeab8", "#d8e8c4", "#c6e2e6", "#d0d8f2",
    "#e2d2ee", "#f0d2e0", "#d9d3c4", "#ffffff", "#e6c9ab", "#c7d0d6",
)


def _result_tints(crt: CombatTable) -> dict[str, str]:
    """A tint per result code, in the order the data lists them."""
    return {code: RESULT_TINTS[i % len(RESULT_TINTS)] for i, code in enumerate(crt.result_codes)}


def crt_sheet(game: Game, crt: CombatTable) -> Sheet:
    """Combat Results Table: terrain lines (differential CRTs), results grid, key, notes."""
    tints = _result_tints(crt)
    n = len(crt.columns)
    rows: list[list[Cell]] = []
    group_rules: set[int] = set()
    marked: list[str] = []
    if crt.kind == "differential" and crt.line:
        rows.append([Cell("Defender's terrain", bold=True, fill=HEADER_FILL, align="left"),
                     Cell("Combat differential (attack − defence) falling in each column", bold=True,
                          fill=HEADER_FILL, span=n)])
        for crt_line in crt.line:
            name = crt_line.name
            if is_reconstructed(crt_line.source):
                name += " †"
                marked.append(crt_line.name)
            rows.append([Cell(name, bold=True, align="left")]
                        + [Cell(c.replace(",", ", "), fill=None if c else EMPTY_FILL, size=SMALL_PX + 1)
                           for c in crt_line.cells])
        group_rules.add(len(rows))
    die_header = "Die roll"
    column_label = "Odds (attack : defence)" if crt.kind == "odds" else "Column"
    if crt.kind == "odds":
        rows.append([Cell("", fill=HEADER_FILL), Cell(column_label, bold=True, fill=HEADER_FILL, span=n)])
    rows.append([Cell(die_header, bold=True, fill=HEADER_FILL)]
                + [Cell(c, bold=True, fill=HEADER_FILL, size=BODY_PX if crt.kind == "odds" else SMALL_PX)
                   for c in crt.columns])
    group_rules.add(len(rows))
    stated = {(cell.column, cell.die): cell for cell in crt.stated}
    for die, results in zip(crt.die_rolls, crt.results):
        # A result the rulebook states inside a reconstructed table is marked (‡) and cited below.
        rows.append([Cell(str(die), bold=True, fill=HEADER_FILL)]
                    + [Cell(r + (" ‡" if (column, die) in stated else ""), bold=True, fill=tints[r])
                       for column, r in zip(crt.columns, results)])
    grid = Table(rows, group_rules=frozenset(group_rules), min_column_px=56 if crt.kind == "odds" else 62)
    key = Table([[Cell("Result", bold=True, fill=HEADER_FILL), Cell("Meaning", bold=True, fill=HEADER_FILL,
                                                                       align="left")]]
                + [[Cell(code, bold=True, fill=tints[code]), Cell(meaning, align="left", size=BODY_PX - 1)]
                   for code, meaning in crt.result_codes.items()],
                wrap={1: 1}, min_wrap_px=360)
    blocks: list[Block] = [grid, Gap(6), Heading("Results"), key]
    if crt.note:
        blocks += [Gap(4), Heading("Notes"), Paragraph(crt.note, size=BODY_PX - 1)]
    if marked:
        line_notes = " ".join(f"{line.name}: {line.note}" for line in crt.line
                              if is_reconstructed(line.source) and line.note)
        blocks.append(Paragraph(f"† Reconstructed line (not in the rulebook's table). {line_notes}".strip(),
                                size=SMALL_PX, colour=MUTED))
    footer = sources_footer(crt.source)
    if is_reconstructed(crt.source):
        blocks.append(Paragraph("Reconstructed table: the rulebook does not print these results; they are the "
                                "project's reading (PROVENANCE.md).", size=SMALL_PX, colour=MUTED))
        footer = sources_footer(*(cell.source for cell in crt.stated)) if crt.stated else ""
    for cell in crt.stated:
        blocks.append(Paragraph(f"‡ Stated by the rulebook ({cell.source}): {cell.column}, die {cell.die} = "
                                f"{cell.result}.", size=SMALL_PX, colour=MUTED))
    return Sheet(crt.name, game.manifest.title, blocks, footer)


def _movement(game: Game, t: TerrainType) -> str:
    """Movement effect of a terrain type."""
    parts = []
    if t.prohibited:
        parts.append("Prohibited")
    if t.mp_cost is not None:
        parts.append(f"{number(t.mp_cost)} MP")
    if t.mp_add is not None:
        parts.append(f"+{number(t.mp_add)} MP")
    if t.cancels:
        # A bridge: the features it crosses cost nothing more (terrain.toml's `cancels`).
        parts.append("Cancels " + ", ".join(game.terrain[c].name if c in game.terrain else humane(c)
                                            for c in t.cancels))
    if t.movement_effect:
        parts.append(t.movement_effect)
    return ", ".join(parts) or "—"


def _combat(game: Game, t: TerrainType) -> str:
    """Combat effect of a terrain type: die modifier and/or CRT line."""
    parts = []
    if t.combat_die_modifier is not None:
        parts.append(f"Die {signed(t.combat_die_modifier)}")
    if t.crt_line is not None:
        lines = {line.id: line.name for line in game.crt.line} if game.crt else {}
        parts.append(f"{lines.get(t.crt_line, humane(t.crt_line))} line")
    if t.combat_effect:
        parts.append(t.combat_effect)
    return ", ".join(parts) or "—"


def terrain_sheet(game: Game) -> Sheet:
    """Terrain Effects Chart: hex terrain, then hexside features."""
    header = [Cell("", fill=HEADER_FILL), Cell("Terrain", bold=True, fill=HEADER_FILL, align="left"),
              Cell("Movement", bold=True, fill=HEADER_FILL), Cell("Combat", bold=True, fill=HEADER_FILL),
              Cell("Zones of control", bold=True, fill=HEADER_FILL), Cell("Rule", bold=True, fill=HEADER_FILL),
              Cell("Notes", bold=True, fill=HEADER_FILL, align="left")]
    rows: list[list[Cell]] = [header]
    sections: set[int] = set()
    for kind, heading in (("hex", "Hex terrain"), ("hexside", "Hexside features")):
        types = [t for t in game.terrain.values() if t.kind == kind]
        if not types:
            continue
        sections.add(len(rows))
        rows.append([Cell(heading, bold=True, align="left", fill=SECTION_FILL, colour=PAPER, span=len(header))])
        for t in types:
            rows.append([
                Cell(swatch=Swatch(t.kind, t.colour)),
                Cell(t.name, bold=True, align="left"),
                Cell(_movement(game, t)),
                Cell(_combat(game, t)),
                Cell("Blocks ZOC" if t.blocks_zoc else "—"),
                Cell(cited(t.source), size=SMALL_PX, colour=MUTED),
                Cell(t.note, align="left", size=SMALL_PX),
            ])
    blocks: list[Block] = [Table(rows, wrap={1: 1, 2: 1, 3: 1, 6: 2}, min_wrap_px=150, max_wrap_px=340,
                                 group_rules=frozenset(sections))]
    footer = sources_footer(*(t.source for t in game.terrain.values()))
    return Sheet("Terrain Effects Chart", game.manifest.title, blocks, footer)


def chart_sheet(game: Game, chart: Chart) -> Sheet:
    """Any printed chart kept as rows: header from its columns, cells with ids shown by name."""
    names = display_names(game)
    header = [Cell(humane(c).upper(), bold=True, fill=HEADER_FILL, size=SMALL_PX) for c in chart.columns]
    rows = [header]
    for row in chart.rows:
        rows.append([Cell(names.get(value, humane(value)) if value else "—", colour=INK if value else MUTED)
                     for value in row])
    blocks: list[Block] = [Table(rows, min_column_px=70)]
    if chart.note:
        blocks += [Gap(4), Paragraph(chart.note, size=BODY_PX - 1)]
    return Sheet(chart.name, game.manifest.title, blocks, sources_footer(chart.source))
