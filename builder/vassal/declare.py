"""Declarations by a click: piece menu commands and toolbar buttons that write structured chat lines.

What VASSAL cannot know (the action and its supply, which units attack which hex, the claimed
result, a stand) the players declare as they play. Every unit gets menu commands (a Trigger
Action puts the command on the menu, a Report Action on the same key writes the line, naming the
piece's `UnitId` and its `$location$`); the toolbar gets a Declare menu whose buttons set the
module's declaration property (ChangePropertyButton, with a prompt for the supply paid or a list
of the combat table's results) and report the change. The lines' grammar is
`wargame.vassal.declarations`; the log reader reads them back (adjudicator/vassal/translate.py).
Formats checked against VASSAL 3.7.26 (`TriggerAction`, `ReportState`, `DoActionButton`,
`ChangePropertyButton`, `PropertyChangerConfigurer`, `GlobalProperty`, `ToolbarMenu`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lxml import etree

from builder.vassal.traits import menu_command
from wargame.game import Game
from wargame.menus import WINNING
from wargame.records import frozen
from wargame.vassal.declarations import (
    ACTIVATE, ALSO, ATTACKER, BOMBARD, DECLARATION_PROPERTY, DEFENDER, MOVE_FIRST, PREFIX, STAND, SUPPORT, TARGET,
    UNSET,
    Declarations, piece_report, toolbar_report,
)
from wargame.vassal.encoding import Trait, encode, keystroke, report
from wargame.vassal.savefile import markup_escaped

CTRL_SHIFT = 195
CTRL_ALT_SHIFT = 715
"""Ctrl+Alt+Shift (old and new masks): the hidden buttons' keys, which no player presses by chance."""
F1 = 112

PIECE_KEYS = {
    ACTIVATE: keystroke(86, CTRL_SHIFT), ATTACKER: keystroke(65, CTRL_SHIFT), TARGET: keystroke(84, CTRL_SHIFT),
    BOMBARD: keystroke(66, CTRL_SHIFT), STAND: keystroke(83, CTRL_SHIFT), SUPPORT: keystroke(85, CTRL_SHIFT),
    DEFENDER: keystroke(68, CTRL_SHIFT), ALSO: keystroke(72, CTRL_SHIFT), MOVE_FIRST: keystroke(77, CTRL_SHIFT),
}
"""Ctrl+Shift+V, A, T, B, S, U, D, H, M."""


def declarations(game: Game) -> Declarations | None:
    """What the game's players declare from the module (game.toml's `[declare]`, wargame/menus.py); a game whose
    rules allow attacks on several hexes (rules.toml's `[combat] multi_hex`) also offers another hex of an attack
    after its target, and one whose victory rules can end the game drawn a claim of the draw beside the claim of
    victory."""
    found = game.manifest.declare.declarations()
    words = found.unit_words
    if game.rules is not None and game.rules.combat.multi_hex and TARGET in words and ALSO not in words:
        at = words.index(TARGET) + 1
        found = replace(found, unit_words=(*words[:at], ALSO, *words[at:]))
    victory = game.rules.victory if game.rules is not None else None
    claims = found.declares
    if victory is not None and victory.can_end_drawn() and "victory" in claims and "draw" not in claims:
        # The referee reads `declare draw` as it reads `declare victory` (classic 12.0-style victory rules), so the
        # players who may claim a victory may claim the draw the rules give.
        found = replace(found, declares={**claims, "draw": claims["victory"]})
    return found


def piece_traits(game: Game, words: tuple[str, ...], id_property: str) -> list[Trait]:
    """A menu command and its report for each declaration word (outermost first)."""
    out: list[Trait] = []
    for word in words:
        key = PIECE_KEYS[word]
        out.append(menu_command(game.manifest.declare.menu_text(word), key, f"Umpire: {word}"))
        out.append(report(key, piece_report(word, id_property), f"Umpire: report {word}"))
    return out


def unit_traits(game: Game) -> list[Trait]:
    """The declaration traits every unit carries (in its type's prototype)."""
    found = declarations(game)
    return [] if found is None else piece_traits(game, found.unit_words, "UnitId")


def marker_traits(game: Game, kind: str) -> list[Trait]:
    """The declaration traits a marker of `kind` carries (support fire markers in Fire & Movement)."""
    found = declarations(game)
    words = () if found is None else found.marker_words.get(kind, ())
    return piece_traits(game, words, "MarkerId") if words else []


@frozen
class Button:
    """A toolbar declaration: the button's text and tooltip, the property change it makes and its report."""

    text: str
    tooltip: str
    changer: str
    """PropertyChangerConfigurer's encoding: `P,value`, `R,prompt` or `E,prompt,values`."""
    words: str
    """What the report writes after `SIDE:`."""


def buttons(game: Game) -> list[Button]:
    """The Declare menu's buttons for a game, in menu order."""
    found = declarations(game)
    if found is None:
        return []
    out: list[Button] = []
    for action in found.actions:
        # PropertyPrompt shows the property's value (the reset one, selected): typing replaces it.
        prompt = (f"Supply points the {action} action costs (all its activations), or - to let the referee "
                  "count them")
        out.append(Button(f"{action.capitalize()} action", f"Declare a {action} action and its supply",
                          encode(["R", prompt], ","), f"action {action} supply $newValue$"))
    if found.passes:
        out.append(Button("Pass", "Declare a pass", encode(["P", "pass"], ","), "pass"))
    for what, side in found.declares.items():
        # `winning`: either player may press it, claiming the result for the side they play (or the draw).
        who = f"The {side} player" if side != WINNING else "Either player" if what == "draw" else "The winning player"
        out.append(Button(f"Declare the {what.capitalize()}", f"{who} declares the {what}",
                          encode(["P", f"declare {what}"], ","), f"declare {what}"))
    if found.collects:
        # 8.7: each side's income in the Reinforcement Step, claimed or left to the referee.
        prompt = "Supply points collected this turn (8.7), or - to let the referee count them"
        out.append(Button("Supply income", "Claim the supply points your side collects this turn",
                          encode(["R", prompt], ","), "income $newValue$"))
    if found.captures is not None:
        prompt = "Supply captured (8.7): the enemy supply source's hex, then 'points N' if you claim them, e.g. 0620"
        out.append(Button("Capture supply", f"The {found.captures} player captures supply at an enemy source",
                          encode(["R", prompt], ","), "capture $newValue$"))
    if found.reduces is not None:
        # 8.7: the Allies announce a reduced collection per source; the referee counts the income itself.
        prompt = "Reduced collection (8.7): the supply source's hex and the points collected there, e.g. 0620 2"
        out.append(Button("Reduced collection", f"The {found.reduces} player announces a reduced collection from a "
                                                 "supply source", encode(["R", prompt], ","), "income reduce $newValue$"))
    if game.crt is not None:
        codes = list(game.crt.result_codes)
        prompt = "Result claimed for the last attack declared (from the combat results table)"
        out.append(Button("Claim result", "Claim the result of the last attack declared",
                          encode(["E", prompt, encode(codes, ",")], ","), "result $newValue$"))
    return out


def _hidden_key(n: int) -> str:
    """The n-th hidden button's key: Ctrl+Alt+Shift+F1, F2..."""
    return keystroke(F1 + n, CTRL_ALT_SHIFT)


def add_toolbar(root: etree._Element, game: Game, el: Callable[..., etree._Element]) -> None:
    """The declaration property, its hidden change buttons, and the Declare menu of buttons that fire them."""
    menu = buttons(game)
    if not menu:
        return
    container = el(root, "module.properties.GlobalProperties")
    prop = el(container, "module.properties.GlobalProperty", name=DECLARATION_PROPERTY, initialValue=UNSET,
              description="Umpire declarations", isNumeric="false", min="0", max="100", wrap="false")
    # A change button without text or icon stays off the toolbar (LaunchButton.checkVisibility);
    # its key still fires it. The first resets the property: a button reports only a change.
    reset = _hidden_key(0)
    el(prop, "module.properties.ChangePropertyButton", desc="Umpire: reset", text="", tooltip="", icon="",
       hotkey=reset, reportFormat="", propChanger=encode(["P", UNSET], ","))
    texts: list[str] = []
    for n, button in enumerate(menu, 1):
        key = _hidden_key(n)
        el(prop, "module.properties.ChangePropertyButton", desc=f"Umpire: {button.text}", text="", tooltip="",
           icon="", hotkey=key, reportFormat=toolbar_report(button.words), propChanger=button.changer)
        # DoActionButton fires its keys in order, all in one logged (and undoable) step.
        el(root, "module.DoActionButton", name=button.text, text=button.text, tooltip=button.tooltip, icon="", hotkey="",
           doReport="false", reportFormat="", doSound="false", soundClip="", doHotkey="true",
           hotkeys=encode([reset, key], ","), doLoop="false")
        texts.append(button.text)
    # ToolbarMenu's configure name is its `description` attribute (its legacy name key).
    el(root, "module.ToolbarMenu", description="Declare", text="Declare", tooltip="Declare what VASSAL cannot know (see Help)", icon="",
       hotkey="", menuItems=encode(texts, ","))


EXPLAIN = {
    ACTIVATE: "activates the unit's stack (select the units of the stack that are activated)",
    MOVE_FIRST: "activates the unit's stack for a Breakthrough that moves before it attacks",
    ATTACKER: "adds the unit to the attackers of the next attack",
    TARGET: "declares the attack on the unit's hex by the attackers declared since the last attack",
    ALSO: "adds the unit's hex to the attack just declared (one attack on several hexes, one die)",
    BOMBARD: "declares a bombardment of the unit's hex by the support fire markers declared just before",
    STAND: "the unit stands instead of retreating, and takes its loss",
    SUPPORT: "adds the marker to the attack (or bombardment) being declared, in the order placed",
    DEFENDER: "names the one unit of a stack that the attack (or bombardment) just declared touches",
}


def _shift_key(key: str) -> str:
    """A Ctrl+Shift keystroke as the Help names it."""
    return f"Ctrl+Shift+{chr(int(key.split(',')[0]))}"


def help_html(game: Game) -> str:
    """The Help page's section on declarations: every command, what it writes, an example."""
    found = declarations(game)
    if found is None:
        return ""
    texts = {w: game.manifest.declare.menu_text(w) for w in PIECE_KEYS}
    codes = ", ".join(game.crt.result_codes) if game.crt is not None else ""
    code = next(iter(game.crt.result_codes)) if game.crt is not None else "-"
    (side_a, unit_a, hex_a), (side_b, unit_b, hex_b) = _example_units(game)
    # The attacker's side clicks; a target, a bombarded unit or a unit standing is the other side's.
    on_enemy = (TARGET, ALSO, BOMBARD, STAND, DEFENDER)
    rows = [(texts[w], _shift_key(PIECE_KEYS[w]), EXPLAIN[w],
             f"{PREFIX} {side_a}: {w} {unit_b if w in on_enemy else unit_a} at {hex_b if w in on_enemy else hex_a}")
            for w in found.unit_words]
    for kind, words in found.marker_words.items():
        marker = next(mk.id for mk in sorted(game.markers.marker, key=lambda mk: (mk.side != side_a, mk.id))
                      if mk.kind == kind)
        rows += [(f"{texts[w]} (on a {kind.replace('_', ' ')} marker)", _shift_key(PIECE_KEYS[w]), EXPLAIN[w],
                  f"{PREFIX} {side_a}: {w} {marker} at {hex_b}") for w in words]
    table = "".join(f"<tr><td>{markup_escaped(a)}</td><td>{b}</td><td>{markup_escaped(c)}</td>"
                    f"<td><tt>{markup_escaped(d)}</tt></td></tr>" for a, b, c, d in rows)
    # A claim anyone may press is written with the presser's side, as the examples' other lines are.
    declaring = {f"declare {what}": side for what, side in found.declares.items() if side != WINNING}
    if found.reduces is not None:
        declaring["income reduce $newValue$"] = found.reduces
    if found.captures is not None:
        declaring["capture $newValue$"] = found.captures
    menu = "".join(f"<li><b>{markup_escaped(b.text)}</b> ({markup_escaped(b.tooltip)}): writes "
                   f"<tt>{markup_escaped(PREFIX)} {markup_escaped(declaring.get(b.words, side_a))}: "
                   f"{markup_escaped(_example_words(b, code))}</tt></li>" for b in buttons(game))
    clicks: list[tuple[str, str]] = []
    if found.actions:
        clicks.append(("Declare, Combat action, then 2 in the prompt", f"{PREFIX} {side_a}: action combat supply 2"))
    if ACTIVATE in found.unit_words:
        clicks.append((f"{texts[ACTIVATE]} on {unit_a}", f"{PREFIX} {side_a}: activate {unit_a} at {hex_a}"))
    clicks.append((f"{texts[ATTACKER]} on {unit_a}", f"{PREFIX} {side_a}: attacker {unit_a} at {hex_a}"))
    clicks.append((f"{texts[TARGET]} on {unit_b}", f"{PREFIX} {side_a}: target {unit_b} at {hex_b}"))
    clicks.append(("the 1d6 button", "*** 1d6 = 4 ***"))
    clicks.append((f"Declare, Claim result, then {code}", f"{PREFIX} {side_a}: result {code}"))
    example = "".join(f"<tr><td>{markup_escaped(a)}</td><td><tt>{markup_escaped(b)}</tt></td></tr>" for a, b in clicks)
    reads = f"{side_a}: attack {hex_b} with {unit_a} die 4 result {code}"
    supply = ("In the supply prompt type the points paid, or - to let the referee count them (the field "
              "opens with ? selected: OK without typing declares nothing). " if found.actions else "")
    # Omaha's beach assaults (11.2.3) attack the landed units' own hex.
    several = (f"<li>An attack on several hexes: declare its target, then <i>{markup_escaped(texts[ALSO])}</i> on a "
               "counter of each other hex; one die, and the result in every hex.</li>\n"
               if ALSO in found.unit_words else "")
    beach = ("<li>A beach assault before GT 1: declare the landed units attackers, then "
             f"<i>{markup_escaped(texts[TARGET])}</i> on one of them (the attack on their own hex).</li>\n"
             if "beachhead" in {mk.kind for mk in game.markers.marker} else "")
    return f"""<h2>Declaring for the referee</h2>
<p>VASSAL records where counters go, the dice and the turn track; it cannot know what the rules
make you declare. Declare it with a click as you play: each click writes a line starting with
<tt>{PREFIX}</tt> to the chat, which the Umpire referee (<tt>adjudicate check GAME.vlog</tt>) reads.
The side written is the one you took when you joined the game.</p>
<h3>On a counter: right-click it</h3>
<table border="1" cellpadding="3">
<tr><th>menu command</th><th>key</th><th>what it declares</th><th>the line it writes</th></tr>
{table}</table>
<p>Select several counters first to declare them all with one click (one line each): click a stack
to select all its counters, or drag a box around them, then press the key. The right-click menu of a
stack that is not spread out acts on its top counter only (seen in VASSAL 3.7.26).</p>
<h3>On the toolbar: the Declare menu</h3>
<ul>{menu}</ul>
<p>Result codes: {markup_escaped(codes)}. The result claimed applies to the last attack declared.
{supply}Cancel declares nothing.</p>
<h3>How the referee reads them</h3>
<ol><li>An attack is the attackers declared since the last attack, then its target; the next die
the attacking side rolls is its die, and a result claimed is checked against that die.</li>
{several}<li>Declare first, then move the counters: retreats and advances after an attack are read from
your drags.</li>
<li>Undo right after a click takes the declaration back. A line typed in the chat cannot be
undone: type the correction.</li>
{beach}<li>You may type any of these lines in the chat as shown, or the move log notation itself
(e.g. <tt>{markup_escaped(side_a)}: attack {hex_b} with {unit_a}</tt>).</li></ol>
<h3>Example</h3>
<table border="1" cellpadding="3"><tr><th>click</th><th>the chat shows</th></tr>{example}</table>
<p>The referee reads: <tt>{markup_escaped(reads)}</tt>, and checks the claimed result against the die and
the table (a result the die does not give is an error at the target's step).</p>
"""


def _example_units(game: Game) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """(side, unit, hex) of an attacker and a defender for the examples, from the first scenario's set-up.

    A side with no unit on a hex at the start (Omaha's units start in boxes) gets a hex next to
    the other side's, or the map's middle hex.
    """
    scenario = game.manifest.scenario[0].id
    sides = game.manifest.sides
    where: dict[str, tuple[str, str]] = {}
    for _, p in game.setup:
        unit = game.units_by_id.get(p.piece)
        if p.scenario == scenario and unit is not None and game.grid.is_label(p.location):
            where.setdefault(unit.side, (unit.id, p.location))
    first = {s: next(u.id for _, u in game.units if u.side == s) for s in sides}
    labels = game.grid.labels
    anchor = next((label for _, label in where.values()), labels[len(labels) // 2])
    beside = game.grid.label_of(game.grid.neighbours_on_map(game.grid.hex_of(anchor))[0])
    a = where.get(sides[0], (first[sides[0]], beside if sides[-1] in where else anchor))
    b = where.get(sides[-1], (first[sides[-1]], beside if a[1] == anchor else anchor))
    return (sides[0], *a), (sides[-1], *b)


def _example_words(button: Button, code: str) -> str:
    """What a button writes, with an example answer to its prompt."""
    return (button.words.replace("supply $newValue$", "supply 3").replace("result $newValue$", f"result {code}")
            .replace("reduce $newValue$", "reduce 0620 2").replace("income $newValue$", "income 12")
            .replace("capture $newValue$", "capture 0620"))
