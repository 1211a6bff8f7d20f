"""Reading VASSAL saved games (.vsav) and logs (.vlog): the zip, the obfuscation, the steps.

Format facts: `../shared/reference/vassal-format.md` 2.1-2.3 (`GameState.saveGame`,
`BasicLogger.write`, `ObfuscatingOutputStream`/`DeobfuscatingInputStream`, `SaveMetaData`),
checked against VASSAL 3.7.26 and the files it wrote in tests/data/vassal.

The reader treats every file as hostile: members are read in memory only and never
extracted, their count and sizes are capped before and while they are inflated, and every
malformed byte ends in a `DataError` naming the file and where in it.
"""

from __future__ import annotations

import io
import lzma
import re
import zipfile
import zlib
from dataclasses import field
from pathlib import Path

from wargame.errors import DataError, Place
from wargame.files import TooLarge, read_capped
from wargame.records import frozen
from wargame.vassal.xmltext import parse_xml
from wargame.vassal.commands import (
    LOG, Command, NullCommand, SaveBoundary, TreeLimits, UndoMarker, command_tree, leaves, parse_leaf,
)

SAVED_GAME = "savedGame"


@frozen
class Limits:
    """What the reader accepts before refusing a file as hostile or absurd."""

    max_file_bytes: int = 64 * 2**20
    max_members: int = 64
    max_saved_game_bytes: int = 64 * 2**20
    """The savedGame member inflated (obfuscated: two hex digits a byte), about 200 times a long real log."""
    max_metadata_bytes: int = 2**20
    tree: TreeLimits = field(default_factory=TreeLimits)


@frozen
class SaveArchive:
    """The members of a .vsav/.vlog that matter: the command text and the metadata."""

    saved_game: str
    savedata: dict[str, str]
    moduledata: dict[str, str]


@frozen
class Step:
    """One step of a log, as VASSAL's "Step forward" replays it: its commands in order."""

    number: int
    commands: tuple[Command, ...]
    where: str

    @property
    def is_undo(self) -> bool:
        """True if the step is an Undo (`UNDO\\ttrue`, the inverse commands, `UNDO\\tfalse`)."""
        return any(isinstance(c, UndoMarker) and c.in_progress for c in self.commands)


@frozen
class Recording:
    """A saved game or log: the position when it was saved (or logging began), then the steps."""

    file: str
    restore: tuple[Command, ...]
    steps: tuple[Step, ...]
    savedata: dict[str, str]
    moduledata: dict[str, str]

    @property
    def is_log(self) -> bool:
        """True for a log (it has steps)."""
        return bool(self.steps)


def _unsafe_name(name: str) -> bool:
    """Whether a member name could point outside a folder it were extracted to."""
    parts = re.split(r"[/\\]", name)
    return (name.startswith(("/", "\\")) or ".." in parts or bool(re.match(r"^[A-Za-z]:", name))
            or "\x00" in name)


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int, file: str) -> bytes:
    """A member's bytes, inflating at most `cap` of them whatever its header claims."""
    place = Place(file, key=info.filename)
    if info.file_size > cap:
        raise DataError(f"member {info.filename!r} would inflate to {info.file_size:,} bytes, more than the "
                        f"{cap:,} accepted: refused", place)
    out = bytearray()
    with archive.open(info) as stream:
        while True:
            chunk = stream.read(min(1 << 16, cap + 1 - len(out)))
            if not chunk:
                break
            out += chunk
            if len(out) > cap:
                raise DataError(f"member {info.filename!r} inflates to more than {cap:,} bytes: refused "
                                "(a zip bomb?)", place)
    return bytes(out)


def _metadata(data: bytes, name: str, file: str) -> dict[str, str]:
    """The flat `<data>` elements of savedata/moduledata (version, VassalVersion, name...)."""
    root = parse_xml(data, name, Place(file, key=name))
    out: dict[str, str] = {}
    for child in root:
        if isinstance(child.tag, str) and len(child) == 0 and child.tag not in out:
            out[child.tag] = (child.text or "").strip()
    return out


def open_archive(path: Path, limits: Limits = Limits()) -> SaveArchive:
    """The members of a saved game or log, read in memory; DataError for anything else."""
    file = str(path)
    try:
        data = read_capped(path, limits.max_file_bytes)  # counted while read: a pipe reports no size
    except TooLarge as e:
        raise DataError(f"{e.found}: at most {limits.max_file_bytes:,} bytes are accepted for a saved game or log",
                        Place(file)) from None
    return read_archive(data, file, limits)


def read_archive(data: bytes, file: str, limits: Limits = Limits()) -> SaveArchive:
    """The members of a saved game or log held in memory."""
    if len(data) > limits.max_file_bytes:
        raise DataError(f"{len(data):,} bytes is more than the {limits.max_file_bytes:,} accepted for a saved game or "
                        "log", Place(file))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        with archive:
            infos = archive.infolist()
            if len(infos) > limits.max_members:
                raise DataError(f"{len(infos)} members; a VASSAL save or log has three (refused above "
                                f"{limits.max_members})", Place(file))
            names = [i.filename for i in infos]
            for name in names:
                if _unsafe_name(name):
                    raise DataError(f"member {name[:80]!r} points outside the archive (path traversal): refused; "
                                    "nothing was extracted", Place(file))
            if SAVED_GAME not in names:
                hint = " (this is a VASSAL module, not a saved game or log)" if (
                    "buildFile.xml" in names or "buildFile" in names) else ""
                raise DataError(f"no {SAVED_GAME!r} member: not a VASSAL saved game or log{hint}", Place(file))
            if names.count(SAVED_GAME) > 1:
                raise DataError(f"{names.count(SAVED_GAME)} members named {SAVED_GAME!r}: ambiguous, refused",
                                Place(file))
            saved = _read_member(archive, archive.getinfo(SAVED_GAME), limits.max_saved_game_bytes, file)
            meta: dict[str, dict[str, str]] = {}
            for name in ("savedata", "moduledata"):
                if name in names:
                    meta[name] = _metadata(_read_member(archive, archive.getinfo(name), limits.max_metadata_bytes,
                                                        file), name, file)
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError, NotImplementedError, RuntimeError,
            ValueError, OverflowError) as e:
        # A damaged, truncated, encrypted or exotic zip: whatever zipfile says, as our error (a damaged
        # bzip2 member raises OSError, an LZMA one LZMAError).
        if not data.startswith(b"PK"):
            raise DataError(_not_a_zip(data), Place(file)) from None
        raise DataError(f"not a readable zip archive ({e})", Place(file)) from None
    text = plain_text(saved, file)
    return SaveArchive(text, meta.get("savedata", {}), meta.get("moduledata", {}))


def _not_a_zip(data: bytes) -> str:
    """What a .vlog or .vsav that is no zip at all is, in words a player can act on."""
    said = ("not a VASSAL saved game or log: VASSAL writes those as zip archives (a readable zip archive was "
            "expected), and this file is not one")
    try:
        text = data[:4096].decode("utf-8-sig")
    except UnicodeDecodeError:
        return said
    if text.strip() and all(c.isprintable() or c in "\t\r\n" for c in text):
        # Most likely a log in our text notation or its JSON twin given VASSAL's name (by hand, or by an older convert).
        return said + "; it reads as text: a log in the text notation belongs in a .log file, its JSON twin in .json"
    return said


_HEX = re.compile(rb"^[0-9A-Fa-f]*$")


def plain_text(data: bytes, file: str) -> str:
    """The savedGame text in any of VASSAL's encodings: `!VCSK` (3.7 writes it), `VOBS` (3.8) or plain."""
    place = Place(file, key=SAVED_GAME)
    if data.startswith(b"!VCSK"):
        # `!VCSK`, two hex digits of the key, then two hex digits per byte XOR-ed with it.
        body = data[5:]
        if len(body) % 2:
            body = body[:-1]  # DeobfuscatingInputStream ignores a last odd digit
        if not _HEX.match(body):
            bad = next(i for i, b in enumerate(body) if b not in b"0123456789abcdefABCDEF")
            raise DataError(f"obfuscated text broken at byte {5 + bad}: {bytes([body[bad]])!r} is not a hex digit",
                            place)
        if len(body) < 2:
            raise DataError("obfuscated text without its key", place)
        key = int(body[:2], 16)
        raw = bytes.fromhex(body[2:].decode("ascii")).translate(bytes(b ^ key for b in range(256)))
    elif data.startswith(b"VOBS"):
        if len(data) < 5:
            raise DataError("obfuscated (VOBS) text without its key", place)
        key = data[4]
        raw = data[5:].translate(bytes(b ^ key for b in range(256)))
    else:
        raw = data
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(f"the saved commands are not UTF-8 text (byte {e.start} of the plain text)", place) from None


def read_commands(text: str, file: str, limits: TreeLimits = TreeLimits()) -> tuple[tuple[Command, ...],
                                                                                     tuple[Step, ...]]:
    """The restore commands (the saved position) and the log steps of a savedGame text."""
    restore: list[Command] = []
    steps: list[Step] = []
    for index, part in enumerate(command_tree(text, file, limits), 1):
        where = f"command {index}"
        logged: list[Command] = []
        plain: list[Command] = []
        for k, leaf in enumerate(leaves(part), 1):
            # A log step's command is placed by the step a player sees stepping through the log in VASSAL.
            said = f"step {len(steps) + 1} ({where})" if leaf.startswith(LOG) else where
            is_logged, command = parse_leaf(leaf, Place(file, key=f"{said}, part {k}"))
            (logged if is_logged else plain).append(command)
        if logged and plain:
            raise DataError("malformed log: logged and unlogged commands mixed in one top-level command",
                            Place(file, key=where))
        if logged:
            if all(isinstance(c, NullCommand) for c in logged):
                # VASSAL decodes `LOG\tnull` to nothing, so an all-null entry is no step.
                continue
            number = len(steps) + 1
            if number > limits.max_steps:
                raise DataError(f"more than {limits.max_steps:,} logged steps: refused as too large (docs/limits.md)",
                                Place(file, key=where))
            steps.append(Step(number, tuple(logged), f"step {number} ({where})"))
        else:
            if steps:
                raise DataError("malformed log: a command outside the log after the log began",
                                Place(file, key=where))
            restore.extend(plain)
    return tuple(restore), tuple(steps)


def read_recording(path: Path, limits: Limits = Limits()) -> Recording:
    """A .vsav or .vlog read whole: metadata, the restored position's commands, the steps."""
    archive = open_archive(path, limits)
    restore, steps = read_commands(archive.saved_game, str(path), limits.tree)
    if not any(isinstance(c, SaveBoundary) and c.begin for c in restore):
        raise DataError("no 'begin_save': the savedGame member is not a VASSAL saved position",
                        Place(str(path), key=SAVED_GAME))
    return Recording(str(path), restore, steps, archive.savedata, archive.moduledata)
