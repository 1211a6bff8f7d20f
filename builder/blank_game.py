"""The blank game's own files: a 16 x 12 clear map, four units and Battle for Moscow's rules renamed to fit."""

from __future__ import annotations

COLUMNS, ROWS = 16, 12
CAPITAL = "0806"
"""The one place: a city near the middle of the map, the victory condition's."""


def map_toml(game_id: str) -> str:
    """map.toml: Battle for Moscow's grid and numbering on a 16 x 12 map of clear hexes."""
    return f"""\
# {game_id}: a blank map to draw on, {COLUMNS} columns x {ROWS} rows of flat-topped hexes numbered XXYY (column then
# row, both from 01). Column 01 is the west edge, row 01 the north edge; the even-numbered columns are
# drawn half a hex lower than the odd ones. Every hex is clear unless hexes.csv says otherwise.
schema_version = 1
name = "{game_id}: a blank map to draw on"
default_terrain = "clear"
north = "up"
source = "reconstructed"

[grid]
orientation = "flat"
columns = {COLUMNS}
rows = {ROWS}
first_column = 1
first_row = 1
shifted = "even"
column_numbers = "ascending"
row_numbers = "ascending"

[grid.label]
column_digits = 2
row_digits = 2
separator = ""
order = "column-row"

[layout]
hex_size_px = 40.0
margin_px = 24.0
"""


HEXES_CSV = f"""\
# schema_version = 1
# Hexes whose terrain is not clear (map.toml's default_terrain), one a line; several terrains of one hex
# are separated by ';'. Terrain ids are those of terrain.toml.
hex,terrain,source,note
{CAPITAL},city,reconstructed,the Capital
"""

HEXSIDES_CSV = """\
# schema_version = 1
# Hexside features (terrain.toml's hexside terrains: river, rail), one hexside a line, written as its
# two hexes (0903-1003). A rail link joins two hexes of a rail line (rail movement, rules.toml 9.0).
hexside,feature,source,note
"""

PLACES_CSV = f"""\
# schema_version = 1
# Named places. A city here is also a hex of the `cities` area (areas.toml) and may be named by
# rules.toml (replacements, victory).
name,hex,kind,source,note
Capital,{CAPITAL},city,reconstructed,held at the end of the last turn it wins the game for the German player
"""


def _column(column: int) -> str:
    """The hexes of one map column, as a TOML list of labels."""
    return ", ".join(f'"{column:02d}{row:02d}"' for row in range(1, ROWS + 1))


AREAS_TOML = f"""\
# Areas of the map named by rules.toml: the two map edges (communication is traced to them, replacements
# appear on them) and the cities (replacements appear in those a side holds).
schema_version = 1

[[area]]
id = "west_edge"
name = "West map edge (German)"
kind = "edge"
side = "German"
hexes = [{_column(1)}]
source = "11.1"

[[area]]
id = "east_edge"
name = "East map edge (Soviet)"
kind = "edge"
side = "Soviet"
hexes = [{_column(COLUMNS)}]
source = "11.1"

[[area]]
id = "cities"
name = "Cities"
kind = "city"
hexes = ["{CAPITAL}"]
source = "1.0"
note = "Add a city's hex here when you add a city to places.csv."
"""

UNITS_CSV = """\
# schema_version = 1
# One line per unit: values per step as on the counter (combat-movement, game.toml's value_names), the
# full face then the reduced one. Four units to replace with your own.
id,name,side,nationality,type,mobility,size,steps,full,reduced,source,reconstructed,note
ge-pz-01,German panzer corps,German,german,panzer,mobile,corps,2,12-6,6-6,reconstructed,,a unit to replace
ge-inf-01,German infantry corps,German,german,infantry,leg,corps,2,8-4,4-4,reconstructed,,a unit to replace
so-inf-01,Soviet army,Soviet,soviet,infantry,leg,army,2,8-4,4-4,reconstructed,,a unit to replace
so-inf-02,Soviet army,Soviet,soviet,infantry,leg,army,2,8-4,4-4,reconstructed,,a unit to replace
"""

SETUP_CSV = """\
# schema_version = 1
# Where each unit and marker of a scenario starts: a hex, a box of the holding board, or a track (turn@1).
scenario,piece,location,source,note
campaign,turn,turn@1,reconstructed,
campaign,ge-pz-01,0305,reconstructed,
campaign,ge-inf-01,0306,reconstructed,
campaign,so-inf-01,0706,reconstructed,
campaign,so-inf-02,1107,reconstructed,
"""

REINFORCEMENTS_CSV = """\
# schema_version = 1
# Units that enter during the game: the turn, the unit, its entry hex or area (none yet).
scenario,turn,unit,entry,tags,source,note
"""

REPLACEMENTS_CSV = """\
# schema_version = 1
# Replacement points per replacement phase (rules.toml 11.0): one point rebuilds an eliminated unit on its
# reduced face or flips a reduced unit to full strength. Points not spent in the phase are lost.
scenario,turn,side,kind,amount,source,note
campaign,2,German,steps,1,reconstructed,
campaign,2,Soviet,steps,1,reconstructed,
campaign,4,German,steps,1,reconstructed,
campaign,4,Soviet,steps,2,reconstructed,
"""

CHARTS_TOML = """\
# Printed charts other than the Combat Results Table (crt.toml), drawn into the module.
schema_version = 1

[[chart]]
id = "terrain_effects"
name = "Terrain Effects Chart"
columns = ["terrain", "movement", "combat"]
rows = [
    ["Clear", "1 hex", "No effect"],
    ["Forest", "2 hexes (1 in rail movement)", "Odds one column lower"],
    ["City", "1 hex", "No effect; replacements may be placed here"],
    ["Major city", "1 hex", "Odds one column lower"],
    ["Fortification", "1 hex", "Odds one column lower if the defender is Soviet"],
    ["River hexside", "No effect", "Odds one column lower if every attacker attacks across a river"],
    ["Railroad", "Soviet rail movement only", "No effect"],
]
source = "1.0"

[[chart]]
id = "turn_record"
name = "Turn Record Chart"
columns = ["turn", "weather", "note"]
rows = [
    ["1", "clear", "no German replacement"],
    ["2", "clear", ""],
    ["3", "mud", ""],
    ["4", "mud", ""],
    ["5", "clear", ""],
    ["6", "clear", ""],
    ["7", "clear", "last turn: whoever holds the Capital wins"],
]
source = "10.0"
"""

RULES_TOML = """\
# The rules as data (classic rule system): every number and choice the referee reads, each citing a
# section of your rulebook (listed first). Derived from Battle for Moscow's (counters/moscow/rules.toml in
# Umpire, with every key explained in docs/designing-a-game.md, "The rules as data").
schema_version = 1
source = "1.0"

[[section]]
id = "1.0"
title = "Game equipment: map, counters, terrain effects chart"
[[section]]
id = "2.0"
title = "Setting up"
[[section]]
id = "3.0"
title = "Sequence of play"
[[section]]
id = "4.0"
title = "Movement (panzer movement included)"
[[section]]
id = "5.0"
title = "Zones of control"
[[section]]
id = "6.0"
title = "Stacking"
[[section]]
id = "7.0"
title = "Combat: odds and terrain"
[[section]]
id = "8.0"
title = "Combat results"
[[section]]
id = "8.1"
title = "Retreats"
[[section]]
id = "8.2"
title = "Advance after combat"
[[section]]
id = "9.0"
title = "Rail movement"
[[section]]
id = "10.0"
title = "Mud"
[[section]]
id = "11.0"
title = "Replacements"
[[section]]
id = "11.1"
title = "Communication"
[[section]]
id = "12.0"
title = "Victory"

# 10.0: turns 3 and 4 are mud: one hex a movement phase (rail movement excepted), attackers halved.
[[condition]]
id = "mud"
name = "Mud"
turns = [3, 4]
max_hexes = 1
attack_factor = 0.5
exempt_movement = ["rail"]
source = "10.0"

# 4.0: a unit's movement value is its allowance in each phase it may move in (game.toml's [[sequence]]).
[movement]
value = "movement"
source = "4.0"

# 9.0: the Soviet Rail Movement Phase moves units along rail links (hexsides.csv's `rail`) only.
[[movement.phases]]
id = "rail_movement"
movement = "rail"
source = "9.0"

[movement.rail]
feature = "rail"
sides = ["Soviet"]
start_on_rail = true
uses_allowance = true
enemy_zoc = "stop"
source = "9.0"

# 5.0: entering an enemy zone of control ends a unit's move; a unit may leave one at the start of a move.
[zoc]
kind = "stop"
source = "5.0"

# 6.0: one unit a hex at the end of each phase; units pass through friendly units.
[stacking]
limit = 1
count = "units"
checked = "end_of_phase"
source = "6.0"

# 7.0: attacks on one adjacent hex, each unit and hex once a phase; odds rounded down; below 1:1 no effect.
[combat]
adjacent = true
attack_once = true
defend_once = true
must_attack = false
rounding = "down"
below = "no_effect"
below_result = "NE"
shift_before_cap = true
die_faces = 6
source = "7.0"

# 7.0: each terrain effect shifts the odds one column left (terrain.toml's ids); they add up.
[[combat.terrain]]
terrain = "forest"
shift = -1
source = "7.0"
[[combat.terrain]]
terrain = "moscow"
shift = -1
source = "7.0"
[[combat.terrain]]
terrain = "fortification"
shift = -1
sides = ["Soviet"]
source = "7.0"
[[combat.terrain]]
terrain = "river"
shift = -1
when = "every_attacker_across"
source = "7.0"

# 8.0: what each result code of crt.toml does.
[[combat.results]]
code = "NE"
source = "8.0"
[[combat.results]]
code = "DR"
defender_retreat = 2
source = "8.0"
[[combat.results]]
code = "DRL"
defender_steps = 1
defender_retreat = 2
source = "8.0"
[[combat.results]]
code = "AL"
attacker_steps = 1
source = "8.0"
[[combat.results]]
code = "DE"
defender_eliminated = true
source = "8.0"
[[combat.results]]
code = "EX"
defender_steps = 1
defender_retreat = 2
exchange = true
source = "8.0"

# 8.1: the attacking player retreats the defender two hexes, each farther from its hex, never into an
# enemy unit or zone of control; a unit that cannot is eliminated.
[combat.retreat]
chooser = "opponent"
enemy_zoc = "prohibited"
through_friendly = true
extend_to_empty = true
blocked = "eliminated"
away = true
source = "8.1"

# 8.2: one attacking unit may move into the hex the defender left, no farther.
[combat.advance]
units = 1
hexes = 1
source = "8.2"

# 11.0: a point of replacements.csv rebuilds an eliminated unit at reduced strength on an empty hex of
# the side's map edge or of a city it holds, in communication; or flips a reduced unit in communication.
[replacements]
kind = "steps"
rebuild = "reduced"
restore = true
places = { German = ["west_edge", "cities"], Soviet = ["east_edge", "cities"] }
in_communication = true
communication_exempt = {}
places_controlled = true
not_in_enemy_zoc = false
# true: a rebuilt unit appears only in a hex holding no unit (a unit there breaks this section); false, the
# default: the stacking limit alone governs its hex (with one unit a hex the two agree).
empty_hex = false
unit_types = {}
from_turn = {}
once_per_phase = true
source = "11.0"

# 11.1: communication is a line of hexes of any length to the side's own map edge, through no enemy unit
# and no enemy zone of control.
[supply]
sources = { German = ["west_edge"], Soviet = ["east_edge"] }
enemy_units = "blocked"
enemy_zoc = "blocked"
source = "11.1"

# 12.0: a city belongs to the side whose unit last entered it; the Soviet side holds them all at the
# start. The German player wins if he holds the Capital at the end of the last turn.
[victory]
control = "last_entered"
initial = {}
initial_others = "Soviet"
otherwise = "Soviet"
source = "12.0"

[[victory.conditions]]
winner = "German"
controls = ["Capital"]
when = "end"
source = "12.0"
"""


def sample_log(game_id: str) -> str:
    """A short game the referee checks clean: one turn with a move, an attack, a retreat and an advance."""
    return f"""\
# A sample game of {game_id}, refereed clean by `adjudicate --data DIR` (rules.toml's sections cited).
[Game "{game_id}"]
[German "Player One"]
[Soviet "Player Two"]

Turn 1
# 3.0: every phase marker of game.toml's [[sequence]] is written, even when nothing happens.
Phase german_replacement
Phase panzer_movement
# 4.0: only panzers move now. 0605 is next to so-inf-01: entering its zone ends the move (5.0).
ge-pz-01 0305-0405-0505-0605
Phase german_combat
# 7.0: 12 against 8 is 1:1 in the clear; a 1 on 1:1 is DR (crt.toml).
German: attack 0706 with ge-pz-01 odds 1:1 die 1 result DR
# 8.1: the attacking player retreats the defender two hexes, each farther away.
German: retreat so-inf-01 0706-0806-0906
# 8.2: one attacker may enter the emptied hex.
German: advance ge-pz-01 0605-0706
Phase german_movement
ge-inf-01 0306-0406-0506
Phase soviet_replacement
Phase rail_movement
Phase soviet_combat
Phase soviet_movement
# 5.0: the Capital is next to ge-pz-01: so-inf-01 stops there.
so-inf-01 0906-0806
so-inf-02 1107-1007-0907
"""
