"""Sealed logs (`adjudicate seal`): a sidecar `LOG.seal` holding, for every entry, the hash of the entry and
of the position after it, chained from the previous exchange's final hash, so an entry rewritten after
sealing is found and named by its line.

The findings cite the `seal` system: what they rest on is the sidecar's hashes (docs/ledger.md, "Seals").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from adjudicator.contract import Position
from adjudicator.findings import Finding, SectionTable
from adjudicator.notation.entries import Entry, entry_data
from wargame.errors import WargameError
from wargame.files import TooLarge, read_capped
from wargame.records import frozen

# Every check imports this module for seal_path; what sealing, reading and comparing seals needs (JSON, the
# receipts' canonical form, difflib, hashlib: OpenSSL's loading is ~1% of a check's instructions) is imported by
# the functions that do it, when a log has a seal.

SEAL_FORMAT = "umpire-seal"
SEAL_VERSION = 1
START = "53ef659368159ddc0a41bace831f8d79354dfeab51cf2e1afe7f029d6ba8cfac"
"""The chain's first link: the SHA-256 of b"umpire-seal-v1", written out (tested) so a check imports no hashlib."""
MAX_SEAL_BYTES = 64 * 2**20
"""A seal is about 250 bytes an entry: 64 MiB holds 250,000 entries, 80 times a long game's (docs/limits.md)."""
SEAL = SectionTable("seal", {
    "entry": "every entry of a sealed log is as it was when sealed",
    "position": "the position after each entry is the sealed one",
    "seal": "the seal is whole: its chain of hashes is its own",
    "previous": "an exchange's seal carries the final hash of the exchange before it",
})


def _sha256(data: bytes) -> str:
    """The SHA-256 of some bytes in hex; hashlib is imported only when a seal is made or read."""
    import hashlib
    return hashlib.sha256(data).hexdigest()


def seal_path(log: Path) -> Path:
    """The sidecar of a log: `LOG.seal` beside it."""
    return log.with_name(log.name + ".seal")


def entry_digest(entry: Entry) -> str:
    """The hash of what an entry says (not where it stands, so moving it by a blank line is no rewrite)."""
    from wargame.receipts import canonical_bytes
    said = {key: value for key, value in entry_data(entry).items() if key not in ("line", "column")}
    return _sha256(canonical_bytes(said))


def position_digest(position: Position) -> str:
    """The hash of the position after an entry, as the engine contract gives it (every unit's place and face,
    the turn and step, the tracks, the markers, the outcome): a rule system's internal state may change its
    shape between versions of Umpire without breaking the seals made before."""
    from wargame.receipts import canonical_bytes
    return _sha256(canonical_bytes({"position": position.as_dict()}))


def _link(previous: str, entry: str, position: str | None) -> str:
    return _sha256(f"{previous}\n{entry}\n{position or '-'}".encode("ascii"))


@frozen
class SealedEntry:
    """One entry's line as sealed, its hash, the position's after it (None past where the replay stopped)."""

    line: int
    entry: str
    position: str | None
    chain: str


@frozen
class Seal:
    """A log's seal: the previous exchange's final hash, every entry's hashes, and the final hash."""

    log: str
    previous: str | None
    entries: tuple[SealedEntry, ...]

    @property
    def final(self) -> str:
        """The hash the next exchange's seal carries."""
        return self.entries[-1].chain if self.entries else (self.previous or START)

    def file_text(self) -> str:
        """The sidecar: JSON, one entry a line, the same bytes for the same log."""
        import json

        head = {"format": SEAL_FORMAT, "version": SEAL_VERSION, "log": self.log, "previous": self.previous,
                "final": self.final}
        rows = [json.dumps({"line": e.line, "entry": e.entry, "position": e.position, "chain": e.chain},
                           sort_keys=True) for e in self.entries]
        return json.dumps(head, sort_keys=True)[:-1] + ', "entries": [\n' + ",\n".join(rows) + "\n]}\n"


def make_seal(log: str, entries: Sequence[Entry], positions: Sequence[str | None], previous: str | None) -> Seal:
    """The seal of a log's entries and the positions after them."""
    chain = previous or START
    sealed = []
    for entry, position in zip(entries, positions, strict=True):
        digest = entry_digest(entry)
        chain = _link(chain, digest, position)
        sealed.append(SealedEntry(entry.line, digest, position, chain))
    return Seal(log, previous, tuple(sealed))


def read_seal(path: Path) -> Seal:
    """A sidecar read back; WargameError saying what is wrong with it."""
    import json

    try:
        data = json.loads(read_capped(path, MAX_SEAL_BYTES).decode("utf-8"))
    except TooLarge as e:
        raise WargameError(f"{path}: {e.found}: a seal may have at most {MAX_SEAL_BYTES:,} (docs/limits.md)") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise WargameError(f"{path}: not a seal: {e}") from None
    if not isinstance(data, dict) or data.get("format") != SEAL_FORMAT or data.get("version") != SEAL_VERSION:
        raise WargameError(f"{path}: not a seal (format {SEAL_FORMAT!r}, version {SEAL_VERSION} expected)")
    rows = data.get("entries")
    previous = data.get("previous")
    if not isinstance(rows, list) or not (previous is None or isinstance(previous, str)):
        raise WargameError(f"{path}: a seal needs a list of 'entries' and a 'previous' hash or null")
    entries = []
    for k, row in enumerate(rows, 1):
        if not (isinstance(row, dict) and isinstance(row.get("line"), int) and isinstance(row.get("entry"), str)
                and isinstance(row.get("chain"), str) and (row.get("position") is None
                                                          or isinstance(row.get("position"), str))):
            raise WargameError(f"{path}: entry {k} of the seal is not line, entry, position and chain")
        entries.append(SealedEntry(row["line"], row["entry"], row["position"], row["chain"]))
    seal = Seal(str(data.get("log", "")), previous, tuple(entries))
    if data.get("final") != seal.final:
        raise WargameError(f"{path}: the seal's final hash is not its last entry's: the seal was edited")
    return seal


def seal_findings(entries: Sequence[Entry], positions: Sequence[str | None] | None, seal: Seal) -> list[Finding]:
    """Every entry added, removed or rewritten since the seal, by line; the first position that differs;
    a seal whose own chain does not hold."""
    import difflib

    findings: list[Finding] = []
    chain = seal.previous or START
    for sealed in seal.entries:
        chain = _link(chain, sealed.entry, sealed.position)
        if chain != sealed.chain:
            findings.append(SEAL.finding("error", "seal", sealed.line, 1, f"the seal's hash for line {sealed.line} "
                                         "is not its chain's: the seal itself was edited, so it proves nothing"))
            return findings
    now = [entry_digest(e) for e in entries]
    then = [s.entry for s in seal.entries]
    last_line = entries[-1].line if entries else 0
    position_reported = False
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=then, b=now, autojunk=False).get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                sealed_position = seal.entries[i].position
                # Positions after a changed entry follow from it: the entry's finding stands for them.
                if positions is None or position_reported or sealed_position is None or findings:
                    continue
                if positions[j] != sealed_position:
                    position_reported = True  # positions after it follow from it: one breach, one error
                    findings.append(SEAL.finding(
                        "error", "position", entries[j].line, entries[j].column,
                        "the position after this entry is not the one sealed, though the entry is: an earlier "
                        "exchange or the game data changed since sealing"))
            continue
        sealed_lines = ", ".join(str(seal.entries[i].line) for i in range(i1, i2))
        if tag == "replace":
            for j in range(j1, j2):
                findings.append(SEAL.finding(
                    "error", "entry", entries[j].line, entries[j].column,
                    f"this entry was rewritten after sealing (the sealed entr{'y' if i2 - i1 == 1 else 'ies'} "
                    f"here stood on line{'' if i2 - i1 == 1 else 's'} {sealed_lines})"))
        elif tag == "insert":
            for j in range(j1, j2):
                findings.append(SEAL.finding("error", "entry", entries[j].line, entries[j].column,
                                             "this entry was added after sealing"))
        else:
            line = entries[j1].line if j1 < len(entries) else last_line
            findings.append(SEAL.finding(
                "error", "entry", line, 1,
                f"{i2 - i1} entr{'y' if i2 - i1 == 1 else 'ies'} sealed on line{'' if i2 - i1 == 1 else 's'} "
                f"{sealed_lines} {'was' if i2 - i1 == 1 else 'were'} removed after sealing "
                f"({'before this line' if j1 < len(entries) else 'at the end of the log'})"))
    return findings
