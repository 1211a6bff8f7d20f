"""The classic series referees a game it has never seen from its data alone: a second, differently shaped game
(locking zones of control, a differential table, stacking by steps, no weather) made in a temporary folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli import adjudicate_file
from classic_support import run, verdict
from adjudicator.notation.entries import Move
from builder.cli import main as vmodbuild
from wargame.game import load_game
from data_edits import edit

ROOT = Path(__file__).resolve().parent.parent

CRT = '''schema_version = 1
kind = "differential"
columns = ["-2", "+0", "+2", "+4"]
die_rolls = [1, 2, 3, 4, 5, 6]
results = [
    ["AL", "DR", "DR", "DE"],
    ["AL", "NE", "DR", "DE"],
    ["AL", "NE", "DR", "DR"],
    ["NE", "NE", "NE", "DR"],
    ["NE", "AL", "NE", "DR"],
    ["AL", "AL", "NE", "NE"],
]
source = "1.0"
[result_codes]
NE = "No effect."
DR = "Defender retreats one hex."
AL = "Attacker loses a step."
DE = "Defender eliminated."
'''

RULES_CHANGES = {
    # Locking zones of control, stacking by steps (two), no mud, a one-hex retreat chosen by its owner.
    'kind = "stop"': 'kind = "lock"',
    'limit = 1\ncount = "units"\nchecked = "end_of_phase"': 'limit = 2\ncount = "steps"\nchecked = "end_of_move"',
    'chooser = "opponent"': 'chooser = "owner"',
    'extend_to_empty = true': 'extend_to_empty = false',
    'below = "no_effect"': 'below = "prohibited"',
}


@pytest.fixture
def other_game(tmp_path: Path) -> Path:
    """A data folder holding `steppe`: Battle for Moscow's map and counters under other rules and another table."""
    for kind in ("maps", "counters"):
        shutil.copytree(ROOT / kind / "moscow", tmp_path / kind / "steppe")
    counters = tmp_path / "counters" / "steppe"
    game = (counters / "game.toml").read_text(encoding="utf-8")
    (counters / "game.toml").write_text(game.replace('id = "moscow"', 'id = "steppe"')
                                        .replace('map = "moscow"', 'map = "steppe"'), encoding="utf-8")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    rules = re.sub(r"\[\[condition\]\].*?(?=\n\[movement\])", "", rules, flags=re.S)
    for old, new in RULES_CHANGES.items():
        assert old in rules, old
        rules = rules.replace(old, new)
    # This table has no DRL or EX: the results it does not print are not the game's.
    rules = re.sub(r'\[\[combat\.results\]\]\ncode = "(DRL|EX)"\n(?:[a-z_]+ = [^\n]*\n)*', "", rules)
    rules = rules.replace('code = "DR"\ndefender_retreat = 2', 'code = "DR"\ndefender_retreat = 1')
    (counters / "rules.toml").write_text(rules, encoding="utf-8")
    (counters / "crt.toml").write_text(CRT, encoding="utf-8")
    return tmp_path


def findings(data: Path, log: str, tmp_path: Path) -> list[tuple[int, str, str]]:
    """(line, severity, rule) of a log of the other game."""
    return verdict(tmp_path, log, data)


HEAD = '[Game "steppe"]\nTurn 1\nPhase german_replacement\nPhase panzer_movement\n'


def test_the_other_game_validates_and_builds(other_game: Path, tmp_path: Path) -> None:
    """The game's data load with the classic vocabulary, and its module builds."""
    game = load_game(other_game, "steppe")
    assert game.rules is not None and game.rules.zoc.kind == "lock"
    out = CliRunner().invoke(vmodbuild, ["build", "steppe", "--data", str(other_game), "--out", str(tmp_path / "d")])
    assert out.exit_code == 0, out.output


def test_locking_zones_of_control(other_game: Path, tmp_path: Path) -> None:
    """A unit in an enemy zone may not leave it by moving (`lock`), where Battle for Moscow lets it."""
    # ge-xli at 0201 is next to the Soviet armies at 0301 and 0302.
    log = HEAD + "ge-xli 0201-0101\n"
    assert findings(other_game, log, tmp_path) == [(5, "error", "5.0")]


def test_stacking_by_steps_at_the_end_of_each_move(other_game: Path, tmp_path: Path) -> None:
    """Two steps a hex, checked as each move ends: a full two-step unit joining another is over the limit."""
    log = HEAD + "ge-xlviii 0309-0308\nge-xlvii 0310-0309-0308\n"
    assert findings(other_game, log, tmp_path) == [(6, "error", "6.0")]


def test_a_differential_table(other_game: Path, tmp_path: Path) -> None:
    """12 + 9 against a reduced 4: +17, read on the +4 column; die 1 gives DE there, so DR is a wrong claim."""
    log = HEAD + "Phase german_combat\nGerman: attack 0302 with ge-xli ge-lvi die 1 result DR\n" \
        "Soviet> retreat so-30 0302-0402\n"
    assert findings(other_game, log, tmp_path) == [(6, "error", "7.0")]
    ok = HEAD + "Phase german_combat\nGerman: attack 0302 with ge-xli ge-lvi die 1 result DE\n" \
        "Soviet> eliminate so-30\n"
    assert findings(other_game, ok, tmp_path) == []


def test_a_retreat_chosen_by_its_owner(other_game: Path, tmp_path: Path) -> None:
    """The owner retreats its unit one hex here (Battle for Moscow: the attacker, two hexes)."""
    base = HEAD + "Phase german_combat\nGerman: attack 0302 with ge-xli die 3 result DR\n"
    assert findings(other_game, base + "Soviet> retreat so-30 0302-0402\n", tmp_path) == []
    assert findings(other_game, base + "German: retreat so-30 0302-0402\n", tmp_path) == [(7, "error", "log")]
    assert findings(other_game, base + "Soviet> retreat so-30 0302-0402-0502\n", tmp_path) == [(7, "error", "8.1")]


def test_odds_below_the_table_are_refused(other_game: Path, tmp_path: Path) -> None:
    """Below the first column the attack is not allowed here (`below = "prohibited"`)."""
    # ge-xlii (4) at 0107 has no Soviet neighbour; ge-vi (5) at 0203 attacks so-16 (4) at 0304: +1, on +0.
    fine = HEAD + "Phase german_combat\nGerman: attack 0304 with ge-vi die 4 result NE\n"
    assert findings(other_game, fine, tmp_path) == []
    # The same attack on a table whose first column is +2: +1 is below it, so the attack is refused.
    crt = other_game / "counters" / "steppe" / "crt.toml"
    crt.write_text(crt.read_text(encoding="utf-8").replace('["-2", "+0", "+2", "+4"]', '["+2", "+4", "+6", "+8"]'),
                   encoding="utf-8")
    below = HEAD + "Phase german_combat\nGerman: attack 0304 with ge-vi die 4\n"
    refused = [f for f in run(tmp_path, below, other_game).findings if f.severity != "note"]
    assert [(f.line, f.severity, f.rule) for f in refused] == [(6, "error", "7.0")]
    assert "below" in refused[0].message, refused[0].message


def test_the_classic_package_names_no_game() -> None:
    """No module of the classic series names a bundled game or side."""
    words = re.compile(r"\b(moscow|onslaught|omaha|German|Soviet|Allied)\b", re.I)
    for path in sorted((ROOT / "adjudicator" / "systems" / "classic").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not words.search(text), f"{path.name}: {words.search(text)}"


@pytest.fixture
def sparse(other_game: Path) -> Path:
    """The other game with a few units only, a road, a die modifier for forest, an attacker's retreat (AR) on
    the table and compulsory attacks: ge-vi at 0603 next to so-16 in the forest at 0703 (no river between),
    ge-xxvii at 0302 on the road down column 03."""
    counters = other_game / "counters" / "steppe"
    maps = other_game / "maps" / "steppe"
    head = "scenario,piece,location,source,note\n"
    rows = ["campaign,turn,turn@1,2.0,", "campaign,ge-vi,0603,2.0,", "campaign,so-16,0703,2.0,",
            "campaign,ge-xxvii,0302,2.0,"]
    (counters / "setup.csv").write_text("# schema_version = 1\n" + head + "\n".join(rows) + "\n", encoding="utf-8")
    crt = (counters / "crt.toml").read_text(encoding="utf-8")
    crt = crt.replace('["AL", "AL", "NE", "NE"],', '["AL", "AR", "NE", "NE"],')
    crt = crt.replace('AL = "Attacker loses a step."', 'AL = "Attacker loses a step."\nAR = "Attacker retreats a hex."')
    (counters / "crt.toml").write_text(crt, encoding="utf-8")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    rules = rules.replace('terrain = "forest"\nshift = -1', 'terrain = "forest"\nshift = 0\ndie_modifier = 1')
    rules = rules.replace("must_attack = false", "must_attack = true")
    rules = rules.replace('[[combat.results]]\ncode = "NE"', '[[combat.results]]\ncode = "AR"\nattacker_retreat = 1\n'
                          'source = "8.0"\n\n[[combat.results]]\ncode = "NE"')
    (counters / "rules.toml").write_text(rules, encoding="utf-8")
    terrain = (maps / "terrain.toml").read_text(encoding="utf-8")
    terrain += ('\n[[terrain]]\nid = "road"\nname = "Road"\nkind = "hexside"\nmp_cost = 0.5\ncolour = "#8b5a2b"\n'
                'source = "1.0"\n')
    (maps / "terrain.toml").write_text(terrain, encoding="utf-8")
    with (maps / "hexsides.csv").open("a", encoding="utf-8") as out:
        for a, b in (("0302", "0303"), ("0303", "0304"), ("0304", "0305"), ("0305", "0306"), ("0306", "0307")):
            out.write(f"{a}-{b},road,reconstructed,\n")
    return other_game


def test_a_road_costs_its_own_rate(sparse: Path, tmp_path: Path) -> None:
    """A step along a road (a hexside feature with an mp_cost) costs the road's half point, whatever the hex."""
    base = HEAD + "Phase german_combat\nGerman: attack 0703 with ge-vi die 1 result NE\nPhase german_movement\n"
    assert findings(sparse, base + "ge-xxvii 0302-0303-0304-0305-0306-0307\n", tmp_path) == []
    off = base + "ge-xxvii 0302-0303-0304-0305-0306-0307-0308\n"
    assert findings(sparse, off, tmp_path) == [(8, "error", "4.0")]


def test_a_die_modifier_and_an_attackers_retreat(sparse: Path, tmp_path: Path) -> None:
    """5 against 4 is +1, read on +0; the forest adds one to the die, so a 5 reads the 6 row: AR, the attacker
    retreating one hex (its owner choosing, never into the enemy's zone)."""
    attack = HEAD + "Phase german_combat\nGerman: attack 0703 with ge-vi die 5 result AR\n"
    assert findings(sparse, attack + "German: retreat ge-vi 0603-0604\n", tmp_path) == []
    assert findings(sparse, attack + "German: retreat ge-vi 0603-0602\n", tmp_path) == [(7, "error", "8.1")]
    assert findings(sparse, attack + "Phase german_movement\n", tmp_path) == [(7, "error", "8.1")]
    wrong = HEAD + "Phase german_combat\nGerman: attack 0703 with ge-vi die 5 result AL\nGerman: deplete ge-vi\n"
    assert findings(sparse, wrong, tmp_path)[0] == (6, "error", "7.0")


def test_compulsory_attacks(sparse: Path, tmp_path: Path) -> None:
    """With must_attack, a combat phase that ends with ge-vi next to so-16 and no attack is one error."""
    log = HEAD + "Phase german_combat\nPhase german_movement\n"
    assert findings(sparse, log, tmp_path) == [(6, "error", "7.0")]
    fought = HEAD + "Phase german_combat\nGerman: attack 0703 with ge-vi die 1 result NE\nPhase german_movement\n"
    assert findings(sparse, fought, tmp_path) == []


def test_compulsory_attacks_in_a_combat_phase_left_unwritten(sparse: Path, tmp_path: Path) -> None:
    """A marker may pass over a phase in which nothing was done; with must_attack a combat phase passed over with
    ge-vi next to so-16 is that marker's one error (it went unjudged); a turn's end passing over both sides' combat
    phases is one error for each."""
    log = HEAD + "Phase german_movement\n"
    assert findings(sparse, log, tmp_path) == [(5, "error", "7.0")]
    assert "german_combat phase passes unwritten" in run_messages(sparse, log, tmp_path)[0]
    assert findings(sparse, HEAD + "Turn 2\n", tmp_path) == [(5, "error", "7.0")] * 2
    said = run_messages(sparse, HEAD + "Turn 2\n", tmp_path)
    assert "german_combat" in said[0] and "ge-vi did not attack" in said[0] and "soviet_combat" in said[1]


@pytest.fixture
def wider(sparse: Path) -> Path:
    """The sparse game with strategic movement (twice the allowance, three hexes from the enemy), units cut off
    from their sources halved (movement, attack and defence), snow on turn 2 (infantry allowance 1), victory
    points (the German needs 3, Moscow being worth 3), and attacks no longer compulsory. ge-xli is cut off in the south-east corner (1410), next
    to so-30 at 1409, so-29 at 1309 closing its other side."""
    counters = sparse / "counters" / "steppe"
    with (counters / "setup.csv").open("a", encoding="utf-8") as out:
        out.write("campaign,ge-xli,1410,2.0,\ncampaign,so-30,1409,2.0,\ncampaign,so-29,1309,2.0,\n")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    rules = rules.replace('[zoc]', '[movement.strategic]\nfactor = 2.0\nkeep_away = 3\nsource = "4.0"\n\n[zoc]', 1)
    rules = rules.replace('enemy_zoc = "blocked"\nsource = "11.1"', 'enemy_zoc = "blocked"\ncut_off_movement = 0.5\n'
                          'cut_off_attack = 0.5\ncut_off_defence = 0.5\nsource = "11.1"')
    rules = rules.replace('[movement]', '[[condition]]\nid = "snow"\nname = "Snow"\nturns = [2]\n'
                          'allowance_by_type = { infantry = 1 }\nsource = "10.0"\n\n[movement]', 1)
    rules = rules.replace('otherwise = "Soviet"', 'otherwise = "Soviet"\npoints = { Moscow = 3, Tula = 1 }')
    rules = rules.replace('controls = ["Moscow"]', 'points_at_least = 3')
    rules = rules.replace("must_attack = true", "must_attack = false")
    (counters / "rules.toml").write_text(rules, encoding="utf-8")
    return sparse


def test_strategic_movement(wider: Path, tmp_path: Path) -> None:
    """A strategic move: twice the allowance (ge-xxvii's 4 is 8: forest 0308 and six clear hexes), more than
    three hexes from every enemy unit all the way."""
    base = HEAD + "Phase german_combat\nPhase german_movement\n"
    far = base + "ge-xxvii strategic 0302-0202-0102-0103-0104-0105-0106\n"
    assert findings(wider, far, tmp_path) == []
    too_far = base + "ge-xxvii strategic 0302-0202-0102-0103-0104-0105-0106-0107-0108-0109\n"
    assert findings(wider, too_far, tmp_path) == [(7, "error", "4.0")]
    near = base + "ge-vi strategic 0603-0503\n"
    assert findings(wider, near, tmp_path) == [(7, "error", "4.0")]
    assert "keeps more than 3 away" in run_messages(wider, near, tmp_path)[0]


def test_a_cut_off_unit_is_halved(wider: Path, tmp_path: Path) -> None:
    """ge-xli (12) traces no line to the west edge: it attacks at 6, so against so-30's 4 in the clear the
    differential is +2, not +8 (its claim of +4 is wrong)."""
    log = HEAD + "Phase german_combat\nGerman: attack 1409 with ge-xli diff +4 die 4\n"
    assert findings(wider, log, tmp_path) == [(6, "error", "7.0")]
    assert "(cut off)" in run_messages(wider, log, tmp_path)[0]


def test_a_condition_gives_a_unit_type_its_allowance(wider: Path, tmp_path: Path) -> None:
    """Snow on turn 2: infantry move one hex a phase, whatever their counters say; panzers keep theirs."""
    turn_2 = HEAD.replace("Turn 1", "Turn 1\nTurn 2", 1)
    assert findings(wider, turn_2 + "Phase german_combat\nPhase german_movement\nge-xxvii 0302-0402-0502\n",
                    tmp_path) == [(8, "error", "10.0")]


def test_victory_points(wider: Path, tmp_path: Path) -> None:
    """At the end, the German needs 3 points; Moscow (3) is Soviet, so the Soviet wins and a German claim is wrong."""
    turns = "".join(f"Turn {t}\n" for t in range(1, 8))
    log = '[Game "steppe"]\n' + turns + "Phase soviet_movement\nGerman: declare victory\n"
    assert findings(wider, log, tmp_path) == [(10, "error", "12.0")]


def run_messages(data: Path, log: str, tmp_path: Path) -> list[str]:
    """The messages of the errors of a log of the other game."""
    path = tmp_path / "messages.log"
    path.write_text(log, encoding="utf-8")
    result, _ = adjudicate_file(path, data)
    return [f.message for f in result.findings if f.severity == "error"]


def test_a_variant_changes_named_handlers_of_its_parent(tmp_path: Path) -> None:
    """A variant is the classic registry with a handler replaced, added or removed (no subclass): here a game
    where declaring victory is not allowed at all, and moves are unchecked; two handlers for one entry class
    cannot both apply, and a name not in the registry cannot be replaced or removed."""
    from adjudicator.engine import replay
    from adjudicator.findings import Finding
    from adjudicator.notation.entries import Declare
    from adjudicator.notation.text import parse_text
    from adjudicator.registry import Handler, Registry
    from adjudicator.systems.classic import REGISTRY, Classic, ClassicState

    def no_claims(state: ClassicState, entry: Declare) -> list[Finding]:
        return [Classic(state.game).table.finding("error", "12.0", entry.line, entry.column, "no claims here")]

    variant = REGISTRY.replacing("declare", Handler("declare", Declare, "victory", no_claims))
    variant = variant.removing("move").adding(Handler("move-free", Move, "movement", apply=REGISTRY.for_entry(
        Move(unit="x", path=["0101"]))[0].apply))
    assert "move" not in variant.names and "move-free" in variant.names and len(REGISTRY.names) == len(variant.names)
    game = load_game(ROOT, "moscow")
    log = parse_text('[Game "moscow"]\nTurn 1\nPhase german_movement\nge-xxvii 0103-0102-0101-0102-0101-0102\n'
                     "Phase soviet_movement\nSoviet: declare victory\n")
    found = [(f.line, f.rule, f.message) for f in replay(game, Classic(game, variant), log).findings
             if f.severity == "error"]
    assert found == [(6, "12.0", "no claims here")]
    plain = [(f.line, f.rule) for f in replay(game, Classic(game), log).findings if f.severity == "error"]
    assert (4, "4.0") in plain and (6, "12.0") in plain
    with pytest.raises(ValueError):
        REGISTRY.adding(Handler("move-twice", Move, "movement", apply=lambda s, e: s))
    with pytest.raises(KeyError):
        REGISTRY.replacing("no-such", Handler("x", Declare, "victory"))
    with pytest.raises(KeyError):
        REGISTRY.removing("no-such")
    assert isinstance(REGISTRY, Registry)


def test_a_claim_of_victory_points_is_counted(wider: Path, tmp_path: Path) -> None:
    """12.0: the points a claim writes are the referee's count of the places each side controls (Moscow 3, Tula 1,
    Soviet); a level is refused, this game has none (issue 26)."""
    turns = "".join(f"Turn {t}\n" for t in range(1, 8))
    log = '[Game "steppe"]\n' + turns + "Phase soviet_movement\nSoviet: declare victory points German 0 Soviet 4\n"
    assert findings(wider, log, tmp_path) == []
    assert findings(wider, log.replace("Soviet 4", "Soviet 5"), tmp_path) == [(10, "error", "12.0")]
    assert findings(wider, log.replace("victory points", "victory decisive points"), tmp_path) == \
        [(10, "error", "12.0")]


def test_a_victory_at_any_time_ends_the_game(sparse: Path, tmp_path: Path) -> None:
    """12.0 read as a condition holding at any time (`when = "any_time"`): the German wins the moment his panzer
    enters Moscow; a claim of it is accepted, anything else after it is play after the end."""
    counters = sparse / "counters" / "steppe"
    with (counters / "setup.csv").open("a", encoding="utf-8") as out:
        out.write("campaign,ge-xli,1003,2.0,\n")
    rules = (counters / "rules.toml").read_text(encoding="utf-8")
    assert 'when = "end"' in rules
    (counters / "rules.toml").write_text(rules.replace('when = "end"', 'when = "any_time"'), encoding="utf-8")
    # A claim may be made in any phase where the game may end (here the Panzer Movement Phase).
    game = (counters / "game.toml").read_text(encoding="utf-8")
    panzers = 'unit_types = ["panzer"]\nsource = "4.0"\n'
    assert panzers in game
    (counters / "game.toml").write_text(game.replace(panzers, panzers + '\n[[sequence.entries]]\nkind = "declare"\n'
                                                     'side = "any"\nsource = "12.0"\n', 1), encoding="utf-8")
    log = HEAD + "ge-xli 1003-1103\nGerman: declare victory\nPhase german_combat\n"
    assert findings(sparse, log, tmp_path) == [(7, "error", "12.0")]
    assert "ended at line 5 with the German player's automatic victory" in run_messages(sparse, log, tmp_path)[0]
    wrong = HEAD + "ge-xli 1003-1103\nSoviet: declare victory\n"
    assert findings(sparse, wrong, tmp_path) == [(6, "error", "12.0")]


def test_the_supply_line_drawn_is_the_line_judged(other_game: Path) -> None:
    """11.1: the movement model's line of communication (what the pictures draw) is the line the checks trace: with
    forest closed to lines, no unit's line enters a forest hex, each step is to the next hex, and it ends on a
    source; a unit has a line exactly when it is in communication."""
    from adjudicator.engine import replay
    from adjudicator.notation.text import parse_text
    from adjudicator.systems import system_for
    from adjudicator.systems.classic.base import in_communication, rules_of

    edit(other_game / "counters" / "steppe" / "rules.toml", 'enemy_zoc = "blocked"\nsource = "11.1"',
         'enemy_zoc = "blocked"\nprohibited_terrain = ["forest"]\nsource = "11.1"')
    game = load_game(other_game, "steppe")
    system = system_for(game)
    state = replay(game, system, parse_text('[Game "steppe"]\nTurn 1\n')).final_state
    grid, t = game.grid, rules_of(state)
    forest = {h for h, kinds in game.hex_terrain.items() if any(game.terrain[k].id == "forest" for k in kinds
                                                                 if k in game.terrain)}
    lines = 0
    for unit, where in sorted(state.location.items()):
        if not grid.is_label(where):
            continue
        side = game.units_by_id[unit].side
        line = system.movement.supply_line(state, unit)
        assert (line is not None) == in_communication(state, where, side), unit
        if line is None:
            continue
        hexes = [grid.hex_of(label) for label in line]
        assert line[0] == where and line[-1] in t.area_hexes(t.rules.supply.sources[side]), (unit, line)
        assert all(a.is_adjacent(b) for a, b in zip(hexes, hexes[1:])), (unit, line)
        assert not forest & set(hexes[1:]), (unit, line)
        lines += 1
    assert lines > 20


@pytest.mark.parametrize("below", ["prohibited", "no_effect"])
def test_compulsory_attacks_are_judged_as_one_arrangement(sparse: Path, tmp_path: Path, below: str) -> None:
    """7.0 `must_attack` (rulings register): ge-vi alone is next to so-16 (0703) and so-30 (0604), and attacks once;
    attacking either meets all it could, so neither hex left is a breach (hex by hex, the other hex was an error).
    Idle, it is one error naming both; with ge-xxvii next to 0604 too both hexes are owed, and one left is an error.
    The same whether the odds forbid some attacks (a search) or none (a bipartite matching)."""
    edit(sparse / "counters" / "steppe" / "rules.toml", 'below = "prohibited"', f'below = "{below}"')
    with (sparse / "counters" / "steppe" / "setup.csv").open("a", encoding="utf-8") as out:
        out.write("campaign,so-30,0604,2.0,\n")
    combat = HEAD + "Phase german_combat\n{}Phase german_movement\n"
    for hex_, die in (("0703", 1), ("0604", 4)):
        log = combat.format(f"German: attack {hex_} with ge-vi die {die} result NE\n")
        assert findings(sparse, log, tmp_path) == [], run_messages(sparse, log, tmp_path)
    idle = combat.format("")
    assert findings(sparse, idle, tmp_path) == [(6, "error", "7.0")]
    assert "ge-vi did not attack; the enemy units in 0604, 0703 were not attacked" in run_messages(sparse, idle,
                                                                                                    tmp_path)[0]
    edit(sparse / "counters" / "steppe" / "setup.csv", "campaign,ge-xxvii,0302", "campaign,ge-xxvii,0505")
    one = combat.format("German: attack 0703 with ge-vi die 1 result NE\n")
    assert findings(sparse, one, tmp_path) == [(7, "error", "7.0")]
    said = run_messages(sparse, one, tmp_path)[0]
    assert "ge-xxvii did not attack; the enemy units in 0604 were not attacked" in said, said


def across_the_river(sparse: Path) -> None:
    """ge-vi (5, at 0603) and ge-xxvii (6, at 0604) next to so-16 (4, at 0704), ge-xxvii across the river, which
    shifts five columns left when any attacker is across it: ge-vi alone is +1, both together below the table."""
    counters = sparse / "counters" / "steppe"
    edit(counters / "setup.csv", "campaign,ge-xxvii,0302", "campaign,ge-xxvii,0604")
    edit(counters / "setup.csv", "campaign,so-16,0703", "campaign,so-16,0704")
    edit(counters / "rules.toml", 'terrain = "river"\nshift = -1\nwhen = "every_attacker_across"',
         'terrain = "river"\nshift = -5\nwhen = "any_attacker_across"')


def test_a_compulsory_attack_one_unit_could_make_is_owed(sparse: Path, tmp_path: Path) -> None:
    """7.0 `must_attack` with `below = "prohibited"` (rulings register): with a river that shifts five columns left
    when any attacker is across it, ge-vi (5, at 0603) alone against so-16 (4, at 0704) is +1, lawful, but with
    ge-xxvii (6, at 0604, across the river) +7 (+6 past the table) falls below it. Neither attacking is one error naming ge-vi and
    0704, not ge-xxvii, which could attack only unlawfully (hex by hex, the attack of both being below the table, the
    breach was missed); ge-vi alone attacking meets it all."""
    across_the_river(sparse)
    idle = HEAD + "Phase german_combat\nPhase german_movement\n"
    assert findings(sparse, idle, tmp_path) == [(6, "error", "7.0")]
    said = run_messages(sparse, idle, tmp_path)[0]
    assert said.endswith("ge-vi did not attack; the enemy units in 0704 were not attacked"), said
    fought = HEAD + "Phase german_combat\nGerman: attack 0704 with ge-vi die 1 result NE\nPhase german_movement\n"
    assert findings(sparse, fought, tmp_path) == [], run_messages(sparse, fought, tmp_path)


@pytest.mark.parametrize("bound", ["SEARCH_BUDGET", "LARGEST_ELEMENT"])
def test_compulsory_attacks_past_the_search_budget_are_judged_hex_by_hex(sparse: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          bound: str) -> None:
    """The search for an arrangement is bounded (a hostile log's cost): past its budget, or in an element of more
    units than it works out (a hostile set-up's recursion), an element is judged hex by hex, as before session 23,
    the same every run. With no budget at all, the river case above misses ge-vi's attack (the attack of both units
    on 0704 being below the table)."""
    from adjudicator.systems.classic import compulsory

    across_the_river(sparse)
    monkeypatch.setattr(compulsory, bound, 0)
    assert findings(sparse, HEAD + "Phase german_combat\nPhase german_movement\n", tmp_path) == []
