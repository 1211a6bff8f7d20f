"""Fuzz campaign: every parser and whole command of Umpire driven in process with generated inputs.

Each target takes one generated input and runs a parser (or a whole command) on it. Our own
errors (`WargameError` and its kin, exit codes 0/1/2) are the expected outcome of junk; anything
else is a finding: an exception of another type, exit code 3, an input slower than `--slow`
seconds, or one that hits the memory cap (`--memory-gib`, set with RLIMIT_AS so that a blow-up
is a MemoryError here instead of a machine brought to its knees). Findings are written to
`--findings` (the input, and its traceback) and counted by type and place.

The inputs are grammar-aware mutations of real files, seeded and deterministic:
- notation: the example logs' lines, their words swapped for words of the notation (commands,
  unit ids, hex labels, sides, numbers small, huge and malformed), lines duplicated, dropped,
  spliced from another log, characters that matter to a parser inserted (quotes, backslashes,
  brackets, control characters, long runs);
- json: the JSON twins of the example logs, mutated as values (a number as a string or true, huge
  numbers, nested arrays, duplicate keys, missing keys, line breaks in strings) and as text;
- vassal: the recorded .vlog/.vsav files of tests/data/vassal, damaged at three levels: the zip
  (bytes flipped, cut short, members renamed or doubled), the savedata XML (encodings, DOCTYPE)
  and the command text (escapes, quotes, ESC nesting, numbers in M/ and D/ commands), re-obfuscated;
- module: the bundled Onslaught module's buildFile.xml with its HexGrid and numbering attributes
  set to hostile values (huge, tiny, negative, NaN, letters), XML damage and declared encodings;
- data: the bundled games' TOML and CSV files with values of the wrong type, deep nesting, huge
  cells, duplicated tables, damaged syntax, each loaded with its model;
- replay: mutated prefixes of the example logs parsed, resolved and replayed by the engine, and
  what replays converted to JSON and back;
- translate: damaged recordings translated whole, with the game data (the `check` of a .vlog);
- folder: a damaged file in a copy of a game's data folder, loaded whole (`vmodbuild validate`);
- commands: `adjudicate` and `vmodbuild` commands run with CliRunner on damaged inputs, exit code
  in 0/1/2 required.

- combat: `adjudicate combat` on logs whose combats name unknown, foreign or misspelt units, at a
  line or all, and what-ifs of random units at random hexes, exit code in 0/1/2 required;
- sides: an income, capture, roll-off, pass or move of a side the game lacks inserted in an
  example log, replayed whole;
- json-types: one field of a JSON entry (every field of its kind) given a value of every wrong type,
  read and replayed whole.

Run: python bench/fuzz.py [--inputs N | --seconds S] [--target NAME ...] [--seed S] [--findings DIR]
     [--slow SECONDS] [--memory-gib G] [--json]
The campaign's figures are in docs/fuzzing.md; tests/test_fuzz.py runs a short seeded run of each.
"""

from __future__ import annotations

import argparse
import warnings
import contextlib
import hashlib
import io
import json
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
import typing
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.sources import game_of, replay_entries as _replay  # noqa: E402
from adjudicator.engine import resolve  # noqa: E402
from adjudicator.notation.entries import AnyEntry, Entry, field_names  # noqa: E402
from adjudicator.notation.jsonlog import log_data, read_json_log  # noqa: E402
from adjudicator.notation.text import parse_text, write_text_faithfully  # noqa: E402
from adjudicator.vassal.load import translate_file  # noqa: E402
from wargame.bundled import data_root  # noqa: E402
from wargame.datafiles import load_csv, load_toml  # noqa: E402
from wargame.errors import WargameError  # noqa: E402
from wargame.game import Game, load_game  # noqa: E402
from wargame.vassal.buildfile import module_info, open_module  # noqa: E402
from wargame.vassal.reader import read_archive, read_commands  # noqa: E402
from wargame.vassal.savefile import deobfuscate  # noqa: E402

EXAMPLES = ROOT / "examples"
RECORDINGS = ROOT / "tests" / "data" / "vassal"
ESC = "\x1b"

# Characters and words that matter to one parser or another.
SHARP = ["\\", "'", '"', ESC, "\t", "\n", "\r", "\x00", "\x0b", "\x85", "\u2028", "[", "]", "{", "}", "<", ">",
         "&", "/", ";", ",", ":", "=", "#", "-", "+", "@", " ", "é", "\U0001f600", "\ufeff", "$"]
NUMBERS = ["0", "-1", "1", "6", "7", "99", "9999", "2147483647", "2147483648", "-2147483649", "1" + "0" * 30,
           "1" + "0" * 5000, "1e308", "1e-300", "-0", "nan", "inf", "0x10", "1_000", "01", "3.5", ""]
NOTATION_WORDS = ["Turn", "Step", "Phase", "Roll", "Allied:", "German:", "Allied>", "German>", "action", "pass",
                  "activate", "attack", "with", "odds", "diff", "die", "result", "support", "bombard", "retreat",
                  "advance", "deplete", "eliminate", "remove", "stand", "reinforce", "paradrop", "pickup",
                  "setup", "delay", "replace", "income", "capture", "declare", "move", "draw", "aside", "lose",
                  "strategic", "supply", "points", "full", "reduced", "decline", "movement", "combat", "bogus",
                  "Soviet:", "Soviet>", "claim", "replace", "german_combat", "rail_movement", "panzer_movement", "so-5",
                  "[Game \"onslaught\"]", "[Game \"omaha\"]", "[Game \"moscow\"]", "[Optional \"weather\"]", "# comment", "1:1", "3:1",
                  "+2", "-", "DE", "AE", "(D)", "0101", "9999", "2019-2020", "2019-2019-2019"]


@dataclass
class Outcome:
    """What one target's run found."""

    target: str
    inputs: int = 0
    seconds: float = 0.0
    accepted: int = 0
    refused: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    slowest: float = 0.0
    examples: dict[str, str] = field(default_factory=dict)


class Mutator:
    """Seeded, grammar-aware mutations of text and bytes."""

    def __init__(self, rng: random.Random, words: list[str]) -> None:
        self.rng = rng
        self.words = words

    def sharp(self) -> str:
        """A character that matters, now and then a long run of it."""
        c = self.rng.choice(SHARP)
        roll = self.rng.random()
        return c * self.rng.choice([200, 5_000, 60_000]) if roll < 0.03 else c * self.rng.randint(1, 3)

    def word(self) -> str:
        """A word of the grammar, a number, or a sharp character."""
        roll = self.rng.random()
        if roll < 0.55:
            return self.rng.choice(self.words)
        if roll < 0.85:
            return self.rng.choice(NUMBERS)
        return self.sharp()

    def text(self, source: str, rounds: int | None = None) -> str:
        """`source` with one to a few mutations, line- and word-aware."""
        lines = source.split("\n")
        for _ in range(rounds or self.rng.choice([1, 1, 1, 2, 3, 6])):
            if not lines:
                lines = [""]
            op = self.rng.randrange(11)
            i = self.rng.randrange(len(lines))
            words = lines[i].split(" ")
            j = self.rng.randrange(len(words))
            if op == 0:
                words[j] = self.word()
            elif op == 1:
                words.insert(j, self.word())
            elif op == 2 and len(words) > 1:
                del words[j]
            elif op == 3:
                lines.insert(i, lines[self.rng.randrange(len(lines))])
            elif op == 4 and len(lines) > 1:
                del lines[i]
            elif op == 5:
                k = self.rng.randrange(len(lines))
                lines[i], lines[k] = lines[k], lines[i]
            elif op == 6:
                at = self.rng.randint(0, len(lines[i]))
                lines[i] = lines[i][:at] + self.sharp() + lines[i][at:]
            elif op == 7:
                lines[i] = lines[i][:self.rng.randint(0, len(lines[i]))]
            elif op == 8:
                words[j] = re.sub(r"\d+", lambda _: self.rng.choice(NUMBERS), words[j])
            elif op == 9:
                lines[i:i] = lines[i:i + self.rng.randint(1, 20)] * self.rng.choice([2, 10, 200])
            else:
                words[j] = words[j][::-1] if self.rng.random() < 0.5 else words[j].upper()
            if op in (0, 1, 2, 8, 10):
                lines[i] = " ".join(words)
        return "\n".join(lines)

    def bytes_(self, data: bytes) -> bytes:
        """Blind damage: bytes flipped, cut, duplicated."""
        out = bytearray(data)
        for _ in range(self.rng.choice([1, 2, 4, 16])):
            if not out:
                break
            op = self.rng.randrange(4)
            i = self.rng.randrange(len(out))
            if op == 0:
                out[i] = self.rng.randrange(256)
            elif op == 1:
                del out[i:]
            elif op == 2:
                out[i:i] = out[i:i + self.rng.randint(1, 64)]
            else:
                out[i] ^= 1 << self.rng.randrange(8)
        return bytes(out)


def _compact(entries: list[Entry]) -> str:
    """A log's JSON form on one line (the mutations of text work on lines)."""
    return json.dumps(log_data(entries), separators=(",", ":"), ensure_ascii=False)


# -- corpora --------------------------------------------------------------------------------
def example_logs() -> list[tuple[str, str]]:
    """(game, text) of every example log."""
    return [(p.parent.name, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.rglob("*.log"))]


def vocabulary(games: dict[str, Game]) -> list[str]:
    """The notation's words, and some of every game's unit ids and hex labels."""
    words = list(NOTATION_WORDS)
    for game in games.values():
        words += sorted(game.units_by_id)[:60]
        labels = sorted(game.grid.labels)
        words += labels[:: max(1, len(labels) // 60)]
    return words


def recordings() -> list[bytes]:
    """The recorded VASSAL files."""
    return [p.read_bytes() for p in sorted(RECORDINGS.glob("*.v*"))]


def _zip(members: list[tuple[str, bytes]], compress: bool = True) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED if compress
                                                     else zipfile.ZIP_STORED) as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": members doubled on purpose
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def _obfuscate(raw: bytes, key: int) -> bytes:
    """VASSAL 3.7's `!VCSK` form, fast (bytes.translate and hex, not a loop per byte)."""
    return b"!VCSK" + f"{key:02x}".encode() + raw.translate(bytes(b ^ key for b in range(256))).hex().encode()


_PLAIN: dict[bytes, str] = {}


def _plain(saved: bytes) -> str:
    """A recording's command text, deobfuscated once per recording."""
    if saved not in _PLAIN:
        _PLAIN[saved] = deobfuscate(saved).decode("utf-8", "replace")
    return _PLAIN[saved]


def _members(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(i.filename, archive.read(i)) for i in archive.infolist()]


ENCODINGS = ["UTF-8", "UTF-16", "UTF-7", "x-nonsense", "ISO-8859-1", "utf-32", "ascii", "cp037", ""]


def damaged_recording(m: Mutator, source: bytes) -> bytes:
    """A recording damaged at the zip, the XML or the command level."""
    rng = m.rng
    level = rng.random()
    if level < 0.15:
        return m.bytes_(source)
    members = _members(source)
    if level < 0.3:
        name, data = rng.choice([mb for mb in members if mb[0] != "savedGame"] or members)
        text = data.decode("utf-8", "replace")
        choice = rng.randrange(4)
        if choice == 0:
            text = re.sub(r'encoding="[^"]*"', f'encoding="{rng.choice(ENCODINGS)}"', text, count=1)
        elif choice == 1:
            text = text.replace("<data", '<!DOCTYPE d [<!ENTITY e "x">]><data', 1)
        else:
            text = m.text(text)
        encoded = text.encode("utf-16") if rng.random() < 0.2 else text.encode("utf-8", "surrogatepass")
        members = [(n, encoded if n == name else d) for n, d in members]
    else:
        saved = dict(members)["savedGame"]
        plain = _plain(saved)
        # Commands are ESC-separated: mutate a few of them as words split on the separators VASSAL uses.
        parts = plain.split(ESC)
        for _ in range(rng.choice([1, 2, 5])):
            k = rng.randrange(len(parts))
            roll = rng.random()
            if roll < 0.5:
                pieces = re.split(r"([/\t;,\\])", parts[k])
                idx = rng.randrange(len(pieces))
                pieces[idx] = m.word() if rng.random() < 0.7 else m.sharp()
                parts[k] = "".join(pieces)
            elif roll < 0.7:
                parts[k] = "\\" * rng.randint(1, 120) + ESC + parts[k]
            elif roll < 0.8:
                parts[k] = "'" * rng.randint(1, 150) + parts[k] + "'" * rng.randint(0, 150)
            elif roll < 0.9:
                parts.insert(k, parts[rng.randrange(len(parts))])
            else:
                del parts[k]
        text = ESC.join(parts)
        raw = text.encode("utf-8", "surrogatepass")
        saved = _obfuscate(raw, rng.randrange(256)) if rng.random() < 0.7 else raw
        members = [(n, saved if n == "savedGame" else d) for n, d in members]
    if rng.random() < 0.05:
        members.append(rng.choice(members))
    return _zip(members, compress=rng.random() < 0.2)


HEX_ATTRIBUTES = ["dx", "dy", "x0", "y0", "sideways", "edgesLegal", "snapTo"]
NUMBERING_ATTRIBUTES = ["hType", "vType", "hLeading", "vLeading", "hOff", "vOff", "first", "sep", "stagger",
                        "hDescend", "vDescend", "locationFormat"]
HOSTILE_VALUES = NUMBERS + ["A", "N", "H", "V", "true", "false", "TRUE", "$row$", "$column$$gridLocation$",
                            "$gridLocation$-$gridLocation$", "-", "100000", "999999999", "-999999999", "1e-300"]


def damaged_module(m: Mutator, members: list[tuple[str, bytes]]) -> bytes:
    """A module whose buildFile has hostile grid attributes, damaged XML, or another encoding."""
    rng = m.rng
    build = dict(members)["buildFile.xml"].decode("utf-8")
    roll = rng.random()
    if roll < 0.6:
        for _ in range(rng.choice([1, 2, 3])):
            tag = rng.choice(["HexGrid ", "HexGridNumbering ", "Board ", "Zone ", "Map "])
            attribute = rng.choice(HEX_ATTRIBUTES + NUMBERING_ATTRIBUTES + ["width", "height", "path", "edgeWidth",
                                                                            "image", "list"])
            value = rng.choice(HOSTILE_VALUES).replace('"', "&quot;").replace("<", "&lt;").replace("&", "&amp;")
            at = build.find(tag)
            if at >= 0:
                end = build.find(">", at)
                element = build[at:end]
                if f' {attribute}="' in element:
                    element = re.sub(rf' {attribute}="[^"]*"', f' {attribute}="{value}"', element, count=1)
                else:
                    element += f' {attribute}="{value}"'
                build = build[:at] + element + build[end:]
    elif roll < 0.75:
        build = re.sub(r'encoding="[^"]*"', f'encoding="{rng.choice(ENCODINGS)}"', build, count=1)
    elif roll < 0.8:
        build = build.replace("?>", '?><!DOCTYPE x [<!ENTITY a "b">]>', 1)
    else:
        build = m.text(build)
    data = build.encode("utf-16") if rng.random() < 0.05 else build.encode("utf-8", "surrogatepass")
    out = [(n, data if n == "buildFile.xml" else d) for n, d in members]
    zipped = _zip(out, compress=False)
    return m.bytes_(zipped) if rng.random() < 0.1 else zipped


def module_members() -> list[tuple[str, bytes]]:
    """The bundled Onslaught module's buildFile and moduledata, and its images cut to their headers
    (the reader takes an image's size from its first 24 bytes), built once and cached."""
    cache = Path(tempfile.gettempdir()) / "umpire-fuzz-onslaught-members.zip"
    if not cache.exists():
        from importlib.metadata import version

        from builder.vassal.module import build_module, draw_art

        game = load_game(data_root(None), "onslaught")
        built = build_module(game, version("umpire"), draw_art(game))
        members = _members(built.data)
        build = dict(members)["buildFile.xml"].decode("utf-8")
        boards = set(re.findall(r'<VASSAL\.build\.module\.map\.boardPicker\.Board [^>]*image="([^"]+)"', build))
        # The reader takes sizes from the boards' images only; counter art would only slow the campaign.
        members = [(n, d[:64]) if n.startswith("images/") else (n, d) for n, d in members
                   if not n.startswith("images/") or n[len("images/"):] in boards]
        cache.write_bytes(_zip(members, compress=False))
    return _members(cache.read_bytes())


def data_files(root: Path) -> list[tuple[Path, str]]:
    """(path, text) of every TOML and CSV data file of the bundled games."""
    return [(p, p.read_text(encoding="utf-8")) for p in sorted(root.rglob("*"))
            if p.suffix in (".toml", ".csv") and "geodata" not in p.parts]


def _model_of(path: Path) -> tuple[str, type]:
    from wargame import models, tables
    from wargame.rulebook import RulesFile

    kinds = {"map.toml": models.MapManifest, "terrain.toml": models.TerrainChart, "areas.toml": models.AreasFile,
             "game.toml": models.GameManifest, "markers.toml": models.MarkersFile, "crt.toml": tables.CombatTable,
             "charts.toml": tables.ChartsFile, "parameters.toml": tables.ParametersFile,
             "hexes.csv": models.HexRecord, "hexsides.csv": models.HexsideRecord, "places.csv": models.PlaceRecord,
             "units.csv": models.Unit, "setup.csv": models.Placement, "reinforcements.csv": models.Arrival,
             "replacements.csv": models.ReplacementRecord, "rules.toml": RulesFile}
    model = kinds.get(path.name)
    return ("toml" if path.suffix == ".toml" else "csv", model) if model else ("", type(None))


def window(rng: random.Random, text: str, suffix: str) -> str:
    """A CSV file cut to its comments, header and a window of rows: the same grammar, a tenth of the time."""
    if suffix != ".csv":
        return text
    lines = text.split("\n")
    head = next((i for i, line in enumerate(lines) if line and not line.startswith("#")), 0) + 1
    start = rng.randrange(head, max(head + 1, len(lines) - 40))
    return "\n".join(lines[:head] + lines[start:start + 40])


def damaged_data(m: Mutator, text: str, suffix: str) -> str:
    """A data file with grammar-aware damage: values of another type, nesting, huge cells."""
    rng = m.rng
    text = window(rng, text, suffix)
    roll = rng.random()
    if suffix == ".toml" and roll < 0.35:
        lines = text.split("\n")
        assigned = [i for i, line in enumerate(lines) if re.match(r"^\s*\w+\s*=", line)]
        if assigned:
            i = rng.choice(assigned)
            key = lines[i].split("=", 1)[0]
            value = rng.choice(['"50"', "true", "false", "1e308", "-1", "0", "nan", "inf", "[]", "{}",
                                "[" * 40 + "]" * 40, "[" * 600 + "]" * 600, '"' + "x" * 200_000 + '"',
                                "9" * 30, '"reconstructed"', '"8.2"', "[1, 2, 3]", '"a\\nb"', "2026-01-01"])
            lines[i] = key + "= " + value
        return "\n".join(lines)
    if suffix == ".toml" and roll < 0.45:
        tables = re.findall(r"(?ms)^\[\[\w+\]\].*?(?=^\[|\Z)", text)
        if tables:
            return text + rng.choice(tables) * rng.choice([2, 50, 2000])
    if suffix in (".csv", ".whole-csv") and roll < 0.35:
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        cells = lines[i].split(",")
        cells[rng.randrange(len(cells))] = rng.choice(['"' + "x" * 140_000 + '"', '"', '""', "yes", "-1", "9" * 30,
                                                       "a;b;c", "0101", "nan", ""])
        lines[i] = ",".join(cells)
        return "\n".join(lines)
    return m.text(text)


# -- targets ---------------------------------------------------------------------------------
@dataclass
class Context:
    """What the targets share: the games, the corpora, a scratch folder."""

    rng: random.Random
    mutator: Mutator
    games: dict[str, Game]
    logs: list[tuple[str, str]]
    json_logs: list[str]
    recordings: list[bytes]
    scratch: Path
    module: list[tuple[str, bytes]] | None = None
    data: list[tuple[Path, str]] = field(default_factory=list)
    json_pairs: list[tuple[str, str]] = field(default_factory=list)
    """(game, JSON twin) of the example logs, for the targets that replay what they read."""


Target = Callable[[Context], str]
"""One input: build it, run it; 'accepted' or 'refused' (our error), anything raised is a finding."""


def notation(c: Context) -> str:
    """The text notation's parser."""
    _, text = c.rng.choice(c.logs)
    try:
        parse_text(c.mutator.text(text), "fuzz.log")
    except WargameError:
        return "refused"
    return "accepted"


def json_form(c: Context) -> str:
    """The JSON twin's reader, and the text writer of what it reads."""
    source = c.rng.choice(c.json_logs)
    if c.rng.random() < 0.5:
        text = c.mutator.text(source)
    else:
        doc = json.loads(source)
        entries = doc["entries"]
        entry = c.rng.choice(entries)
        key = c.rng.choice(sorted(entry))
        entry[key] = c.rng.choice(["1", True, None, 10**30, -1, [], {}, "a\nTurn 5", "x y", [[[[1]]]], 1.5,
                                   c.mutator.word()])
        text = json.dumps(doc)
        if c.rng.random() < 0.2:
            text = text.replace('"kind":', '"kind": "turn", "kind":', 1)
    try:
        entries_read = read_json_log(text, "fuzz.json")
        write_text_faithfully(entries_read, "fuzz.json")
    except WargameError:
        return "refused"
    return "accepted"


def vassal(c: Context) -> str:
    """The VASSAL reader: zip, metadata, obfuscation, command tree, typed commands."""
    data = damaged_recording(c.mutator, c.rng.choice(c.recordings))
    try:
        archive = read_archive(data, "fuzz.vlog")
        read_commands(archive.saved_game, "fuzz.vlog")
    except WargameError:
        return "refused"
    return "accepted"


def module(c: Context) -> str:
    """The module reader and its hex naming both ways."""
    assert c.module is not None
    path = c.scratch / "fuzz.vmod"
    path.write_bytes(damaged_module(c.mutator, c.module))
    try:
        info = module_info(open_module(path))
        for map_info in info.maps.values():
            for board in map_info.boards:
                if board.hexes is not None:
                    for x, y in [(0, 0), (c.rng.randint(-10**6, 10**6), c.rng.randint(-10**6, 10**6)),
                                 (2**31 - 1, -(2**31))]:
                        board.hexes.name_at(x, y)
                    for label in ["0101", "2019", "A1", "-1-1", c.mutator.word()]:
                        board.hexes.point_of(label)
    except WargameError:
        return "refused"
    return "accepted"


def data(c: Context) -> str:
    """The TOML and CSV loaders, each file with its model."""
    path, text = c.rng.choice(c.data)
    kind, model = _model_of(path)
    target = c.scratch / path.name
    target.write_text(damaged_data(c.mutator, text, path.suffix), encoding="utf-8", errors="surrogatepass")
    try:
        if kind == "toml":
            load_toml(target, model)
        else:
            _, errors = load_csv(target, model)
            if errors:
                return "refused"
    except WargameError:
        return "refused"
    return "accepted"


def replay(c: Context) -> str:
    """Whole replays: a mutated prefix of an example log parsed, resolved, replayed; what replays
    converted to JSON and read back."""
    game_id, text = c.rng.choice(c.logs)
    lines = text.split("\n")
    start = c.rng.randrange(max(1, len(lines) - 40)) if c.rng.random() < 0.3 else 0
    head = [line for line in lines if line.startswith("[")]
    chunk = "\n".join(head + lines[start:start + c.rng.randint(5, 30)])
    try:
        entries = parse_text(c.mutator.text(chunk), "fuzz.log")
        game = c.games.get(game_id) or game_of(entries, Path("fuzz.log"), None)
        errors = resolve(game, entries, "fuzz.log")
        if errors:
            return "refused"
        _replay(game, entries, Path("fuzz.log"), [])
        read_json_log(_compact(entries), "fuzz.json")
    except WargameError:
        return "refused"
    return "accepted"


def translate(c: Context) -> str:
    """Whole translations of damaged recordings (what `adjudicate check x.vlog` does before the replay)."""
    path = c.scratch / "fuzz.vlog"
    path.write_bytes(damaged_recording(c.mutator, c.rng.choice(c.recordings)))
    try:
        translate_file(path)
    except WargameError:
        return "refused"
    return "accepted"


def folder(c: Context) -> str:
    """A whole game's data folder with one damaged file, loaded and cross-checked."""
    root = c.scratch / "root"
    if not root.exists():
        for name in ("maps", "counters"):
            shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("geodata"))
    path, text = c.rng.choice(c.data)
    relative = path.relative_to(ROOT)
    target = root / relative
    game = relative.parts[1]  # maps/<game>/... or counters/<game>/...: the bundled maps are named after their games
    damaged = damaged_data(c.mutator, text, ".toml" if path.suffix == ".toml" else ".whole-csv")
    target.write_text(damaged, encoding="utf-8", errors="surrogatepass")
    try:
        load_game(root, game)
    except WargameError:
        return "refused"
    finally:
        target.write_text(text, encoding="utf-8")
    return "accepted"


def commands(c: Context) -> str:
    """Whole commands with CliRunner on damaged inputs: the exit code must be 0, 1 or 2."""
    from click.testing import CliRunner

    from adjudicator.cli import main as adjudicate
    from builder.cli import main as vmodbuild

    roll = c.rng.random()
    if roll < 0.5:
        game_id, text = c.rng.choice(c.logs)
        log = c.scratch / ("fuzz.json" if roll < 0.1 else "fuzz.log")
        if roll < 0.1:
            log.write_text(c.mutator.text(c.rng.choice(c.json_logs)), encoding="utf-8", errors="surrogatepass")
        else:
            log.write_text(c.mutator.text("\n".join(text.split("\n")[:60])), encoding="utf-8",
                           errors="surrogatepass")
        verb = c.rng.choice(["check", "convert", "state", "combat"])
        args = {"check": ["check", str(log)], "convert": ["convert", str(log), "-o", str(c.scratch / "out.json")],
                "state": ["state", str(log), "--at", c.rng.choice([str(c.rng.randint(1, 60)),
                                                                   c.mutator.word()])],
                "combat": ["combat", str(log)]}[verb]
        result = CliRunner().invoke(adjudicate, args)
    elif roll < 0.8:
        path = c.scratch / "fuzz.vlog"
        path.write_bytes(damaged_recording(c.mutator, c.rng.choice(c.recordings)))
        result = CliRunner().invoke(adjudicate, [c.rng.choice(["check", "state"]), str(path)])
    else:
        game = c.rng.choice(sorted(c.games))
        args = c.rng.choice([["combat", "--game", game, "--attack", f"{c.mutator.word()}@{c.mutator.word()}",
                              "--defend", f"{c.mutator.word()}@{c.mutator.word()}"],
                             ["combat", "--game", c.mutator.word(), "--attack", "a@b", "--defend", "c@d"]])
        result = CliRunner().invoke(adjudicate, args) if c.rng.random() < 0.7 else CliRunner().invoke(
            vmodbuild, ["show", c.mutator.word()])
    if result.exit_code not in (0, 1, 2):
        raise AssertionError(f"exit code {result.exit_code}: {result.output[-300:]}")
    if "Traceback" in result.output:
        raise AssertionError("a traceback reached the user")
    return "refused" if result.exit_code == 2 else "accepted"


# Hostile and careless input, round 2 (issue 28): the command that audits combats, sides a game
# lacks, and the JSON form's every field given every wrong type, each replayed whole.
WRONG_VALUES: list[object] = ["1", "", "x y", "a\nTurn 5", True, False, None, 0, -1, 10**30, 1.5, float("nan"), [],
                              {}, [[[[1]]]], {"a": 1}, ["0101"], [1, 2], "\u202e", "Martian"]
"""A value of each JSON type (and of each kind a field of one type may still refuse)."""


ENTRY_FIELDS: dict[str, list[str]] = {
    str(getattr(kind, "kind")): sorted(field_names(kind))
    for kind in typing.get_args(typing.get_args(AnyEntry)[0])}
"""Every field of each kind of entry, those a log leaves out included."""


def combat_audits(c: Context) -> str:
    """`adjudicate combat` on example logs whose combats name unknown, foreign or misspelt units and
    hexes, at a line or all of them, and what-ifs of the game's own units at random hexes."""
    from click.testing import CliRunner

    from adjudicator.cli import main as adjudicate

    game_id, text = c.rng.choice([(g, t) for g, t in c.logs if g in c.games and (" attack " in t or "bombard" in t)])
    game = c.games[game_id]
    units = sorted(game.units_by_id)
    lines = text.split("\n")
    combats = [i for i, line in enumerate(lines) if " attack " in line or " bombard " in line]
    if c.rng.random() < 0.7 and combats:
        i = c.rng.choice(combats)
        words = lines[i].split(" ")
        j = c.rng.randrange(len(words))
        words[j] = c.rng.choice([c.mutator.word(), c.rng.choice(units), "us-inf-99", "99/9", words[j] + "x",
                                 c.rng.choice(sorted(c.games[c.rng.choice([g for g in sorted(c.games) if g != game_id])]
                                                     .units_by_id))])
        lines[i] = " ".join(words)
        log = c.scratch / "fuzz-combat.log"
        log.write_text(c.mutator.text("\n".join(lines)) if c.rng.random() < 0.3 else "\n".join(lines),
                       encoding="utf-8", errors="surrogatepass")
        args = ["combat", str(log)]
        if c.rng.random() < 0.5:
            args += ["--at", str(c.rng.choice([i + 1, c.rng.randint(1, len(lines) + 3)]))]
            if c.rng.random() < 0.3:
                args += ["--die", str(c.rng.randint(1, 6))]
        if c.rng.random() < 0.3:
            args += ["--format", c.rng.choice(["json", "markdown"])]
    else:
        labels = sorted(game.grid.labels)

        def placed() -> str:
            return f"{c.rng.choice(units + [c.mutator.word()])}@{c.rng.choice(labels + [c.mutator.word()])}"
        args = ["combat", "--game", game_id, *sum((["--attack", placed()] for _ in range(c.rng.randint(1, 3))), []),
                *sum((["--defend", placed()] for _ in range(c.rng.randint(1, 2))), [])]
        if c.rng.random() < 0.5:
            args += ["--die", str(c.rng.randint(1, 6))]
    result = CliRunner().invoke(adjudicate, args)
    if result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
        raise AssertionError(f"exit code {result.exit_code}: {result.output[-300:]}")
    return "refused" if result.exit_code == 2 else "accepted"


def foreign_sides(c: Context) -> str:
    """Example logs with an income, capture, roll-off, pass or move of a side the game lacks (or the other
    game's side, or a mutated word) inserted anywhere, replayed whole without the resolver's pre-check."""
    game_id, text = c.rng.choice([(g, t) for g, t in c.logs if g in c.games])
    game = c.games[game_id]
    own = list(game.manifest.sides)
    side = c.rng.choice(["Martian", "allied", "GERMAN", "US", "Axis", "", c.mutator.word(), *own])
    other = c.rng.choice(own + ["Martian"])
    hexes = sorted(game.grid.labels)
    line = c.rng.choice([f"{side}: income {c.rng.choice(['5', '0', '99'])}",
                         f"{side}: capture {c.rng.choice(hexes)}", f"{side}: capture {c.rng.choice(hexes)} points 2",
                         f"Roll {side} {c.rng.randint(1, 6)} {other} {c.rng.randint(1, 6)}",
                         f"Roll {side} {c.rng.randint(1, 6)}", f"{side}: pass", f"{side}> pass",
                         f"{side}: move {c.rng.choice(sorted(game.units_by_id))} {c.rng.choice(hexes)}"])
    lines = text.split("\n")
    lines.insert(c.rng.randint(0, len(lines)), line)
    try:
        entries = parse_text("\n".join(lines), "fuzz.log")
        _replay(game, entries, Path("fuzz.log"), lines)
    except WargameError:
        return "refused"
    return "accepted"


def json_types(c: Context) -> str:
    """The JSON form: one field of one entry (every field of its kind, given or not) set to a value of
    every wrong type, read and replayed whole."""
    game_id, source = c.rng.choice([(g, j) for g, j in c.json_pairs if g in c.games])
    doc = json.loads(source)
    entries = doc["entries"]
    for _ in range(c.rng.choice([1, 1, 2, 3])):
        entry = c.rng.choice(entries)
        fields = ENTRY_FIELDS.get(str(entry.get("kind")), sorted(entry))
        key = c.rng.choice(fields + ["bogus"])
        entry[key] = c.rng.choice([*WRONG_VALUES, c.mutator.word()])
    text = json.dumps(doc)
    try:
        read = read_json_log(text, "fuzz.json")
        write_text_faithfully(read, "fuzz.json")
        _replay(c.games[game_id], read, Path("fuzz.json"), [])
    except WargameError:
        return "refused"
    return "accepted"


TARGETS: dict[str, Target] = {"notation": notation, "json": json_form, "vassal": vassal, "module": module,
                              "data": data, "replay": replay, "translate": translate, "folder": folder,
                              "commands": commands, "combat": combat_audits, "sides": foreign_sides,
                              "json-types": json_types}
PARSERS = ["notation", "json", "vassal", "module", "data", "replay", "sides", "json-types"]
"""The targets run at the full --inputs; the whole-command targets below run at a tenth or less."""
WHOLE = {"translate": 10, "folder": 50, "commands": 50, "combat": 50}
"""Divisor of --inputs for the whole-command targets (each input loads a game or runs a command)."""


def context(seed: int, scratch: Path, needs_module: bool) -> Context:
    """Corpora and games, loaded once."""
    rng = random.Random(seed)
    root = data_root(None)
    games = {g: load_game(root, g) for g in ("onslaught", "omaha", "moscow")}
    logs = example_logs()
    json_pairs = []
    for game_id, text in logs:
        try:
            json_pairs.append((game_id, _compact(parse_text(text))))
        except WargameError:
            pass
    ctx = Context(rng, Mutator(rng, vocabulary(games)), games, logs, [j for _, j in json_pairs], recordings(),
                  scratch, json_pairs=json_pairs)
    ctx.data = data_files(ROOT / "maps") + data_files(ROOT / "counters")
    ctx.data = [(p, t) for p, t in ctx.data if _model_of(p)[0]]
    if needs_module:
        ctx.module = module_members()
    return ctx


class Hang(Exception):
    """An input ran past the hang limit."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """SIGALRM after `seconds`: an unbounded loop becomes a finding instead of a stuck campaign."""
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _where(error: BaseException) -> str:
    """The innermost frame of our code in a traceback: file:line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if str(ROOT) in (f.filename or "")
              and "/bench/" not in f.filename]
    frame = frames[-1] if frames else None
    return f"{Path(frame.filename).relative_to(ROOT)}:{frame.lineno}" if frame else "?"


def run(name: str, inputs: int, seed: int, findings: Path | None = None, slow: float = 5.0,
        hang: int = 120, ctx: Context | None = None, progress: int = 2_000, seconds: float | None = None) -> Outcome:
    """`inputs` generated inputs through one target (with `seconds`, as many as that time allows, `inputs`
    at most); what it found."""
    target = TARGETS[name]
    outcome = Outcome(name)
    with tempfile.TemporaryDirectory(prefix="umpire-fuzz-") as scratch:
        c = ctx or context(seed, Path(scratch), name in ("module",))
        c.scratch = Path(scratch)
        if name == "module" and c.module is None:
            c.module = module_members()
        c.rng.seed(f"{seed}-{name}")
        started = time.perf_counter()
        for n in range(inputs):
            if seconds is not None and time.perf_counter() - started >= seconds:
                break
            state = c.rng.getstate()
            began = time.process_time()  # CPU time: the machine may be shared, a slow input is our cost
            try:
                with time_limit(hang):
                    verdict = target(c)
                if verdict == "accepted":
                    outcome.accepted += 1
                else:
                    outcome.refused += 1
            except (Exception, RecursionError) as e:  # a finding: anything but our own errors
                key = f"{type(e).__name__} at {_where(e)}"
                outcome.findings[key] += 1
                if key not in outcome.examples:
                    outcome.examples[key] = f"input {n}: {str(e)[:300]}"
                    if findings is not None:
                        _keep(findings, name, n, seed, state, e)
            elapsed = time.process_time() - began
            outcome.slowest = max(outcome.slowest, elapsed)
            if elapsed > slow:
                key = f"slow (> {slow:g} s)"
                outcome.findings[key] += 1
                outcome.examples.setdefault(key, f"input {n}: {elapsed:.1f} s")
            outcome.inputs += 1
            if outcome.inputs % progress == 0:
                print(f"  {name}: {outcome.inputs:,} inputs, {time.perf_counter() - started:.0f} s, accepted "
                      f"{outcome.accepted:,}, refused {outcome.refused:,}, slowest {outcome.slowest:.2f} s, findings "
                      f"{dict(outcome.findings)} {list(outcome.examples.values())[:3]}", file=sys.stderr, flush=True)
        outcome.seconds = time.perf_counter() - started
    return outcome


def _keep(findings: Path, name: str, n: int, seed: int, state: object, error: BaseException) -> None:
    """Write a finding's traceback and how to regenerate its input (the generator's state)."""
    findings.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(f"{name}{n}{seed}".encode()).hexdigest()[:12]
    (findings / f"{name}-{digest}.txt").write_text(
        f"target {name}, seed {seed}, input {n}\n" + "".join(traceback.format_exception(error)), encoding="utf-8")


def _limit_memory(gib: float) -> None:
    import resource

    cap = int(gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; exit 1 if anything was found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=None,
                        help="Inputs per parser (whole commands: fewer); default 1000, or unbounded with --seconds.")
    parser.add_argument("--seconds", type=float, default=None, help="Time per target: as many inputs as it allows.")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), help="Only these (repeat).")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--findings", type=Path, default=Path(tempfile.gettempdir()) / "umpire-fuzz-findings")
    parser.add_argument("--slow", type=float, default=5.0, help="An input taking more CPU seconds is a finding.")
    parser.add_argument("--memory-gib", type=float, default=3.0, help="Address-space cap (RLIMIT_AS).")
    parser.add_argument("--json", action="store_true", help="Figures as JSON.")
    args = parser.parse_args(argv)
    _limit_memory(args.memory_gib)
    names = args.target or list(TARGETS)
    results = []
    inputs = args.inputs if args.inputs is not None else (10**12 if args.seconds is not None else 1000)
    for name in names:
        count = inputs // WHOLE.get(name, 1) or 1
        outcome = run(name, count, args.seed, args.findings, args.slow, seconds=args.seconds)
        results.append(outcome)
        found = sum(outcome.findings.values())
        print(f"{name:10} {outcome.inputs:>8,} inputs {outcome.seconds:>9.1f} s  accepted {outcome.accepted:>7,}  "
              f"refused {outcome.refused:>7,}  findings {found:>5,}  slowest {outcome.slowest:.2f} s", flush=True)
        for key, count_found in outcome.findings.most_common():
            print(f"    {count_found:>6,} x {key}: {outcome.examples.get(key, '')}", flush=True)
    if args.json:
        print(json.dumps([{"target": o.target, "inputs": o.inputs, "seconds": round(o.seconds, 1),
                           "accepted": o.accepted, "refused": o.refused, "findings": dict(o.findings),
                           "slowest": round(o.slowest, 2)} for o in results], indent=2))
    print(f"peak memory {peak_rss_mib():.0f} MiB; findings (tracebacks) in {args.findings}")
    return 1 if any(o.findings for o in results) else 0


def peak_rss_mib() -> float:
    """The process's peak resident memory."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    sys.exit(main())
