"""Work that must grow with a log's length, not with its square: each test counts the work one entry, finding or
move costs, so it fails on the scan that made it quadratic (no timings: bench/adjudicate.py and docs/limits.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from adjudicator.engine import replay
from adjudicator.notation.entries import Comment, Entry
from adjudicator.notation.text import parse_text
from adjudicator.systems import system_for
from adjudicator.systems.fire_and_movement import markers as pools
from adjudicator.vassal.export import Exporter
from wargame.bundled import data_root
from wargame.game import Game, load_game
from wargame.vassal.commands import AddPiece, MovePiece, RemovePiece
from wargame.vassal.tracking import _Board


@dataclass
class _Line:
    """An entry's line, counting how often it is read."""

    value: int
    reads: list[int]

    @property
    def line(self) -> int:
        self.reads[0] += 1
        return self.value


def _last_on_or_before(lines: list[int], line: int) -> int:
    """The index of the last entry on or before `line` (0 when none is), as the export has always placed a finding."""
    index = 0
    for k, at in enumerate(lines):
        if at <= line:
            index = k
    return index


def test_the_export_places_each_finding_without_reading_every_entry() -> None:
    """A finding goes with the last entry on or before its line, out-of-order lines too, and placing 2,000 findings
    among 2,000 entries reads each entry's line a few times, not once per finding (8,000 findings' export spent
    13 s placing them)."""
    reads = [0]
    lines = [1, 2, 5, 5, 4, 9, 12, 12, 20] + [21 + k for k in range(1991)]
    entries = [_Line(n, reads) for n in lines]
    wanted = [0, 1, 3, 4, 5, 11, 12, 19, 20, 2500] + [30 + k for k in range(1990)]
    findings = [SimpleNamespace(line=n, column=1) for n in wanted]
    placed = Exporter.findings_by_entry(SimpleNamespace(result=SimpleNamespace(entries=entries,  # type: ignore[arg-type]
                                                                               findings=findings)))
    assert {f.line: k for k, found in placed.items() for f in found} == \
        {n: _last_on_or_before(lines, n) for n in wanted}
    assert reads[0] <= 4 * len(entries)


class _CountedStacks(dict[str, tuple[str | None, int, int, tuple[str, ...]]]):
    """The reader's stacks, counting the looks at all of them."""

    scans = 0

    def items(self):  # type: ignore[no-untyped-def, override]
        _CountedStacks.scans += 1
        return super().items()

    def __iter__(self):  # type: ignore[no-untyped-def]
        _CountedStacks.scans += 1
        return super().__iter__()


def test_a_piece_moved_alone_leaves_only_its_own_stacks() -> None:
    """A piece moved out of its stacks leaves each of them, and only them, without a look at every stack: VASSAL
    keeps an emptied stack's id, so a long recording has thousands, and a scan of them all made each move cost more
    than the last."""
    board = _Board("test.vlog")
    board.stacks = _CountedStacks()
    for piece in ("p1", "p2", "p3"):
        board.apply(AddPiece(piece, f"piece;;;a.png;{piece}", "Main Map;10;10"), 1, "1")
    board.apply(AddPiece("s1", "stack", "Main Map;10;10;p1;p2"), 1, "1")
    board.apply(AddPiece("s2", "stack", "Main Map;10;10;p2;p3"), 1, "1")
    for k in range(500):
        board.apply(AddPiece(f"e{k}", "stack", "Main Map;90;90"), 2, "2")

    def move(piece: str, x: int) -> None:
        board.apply(MovePiece(piece, "Main Map", x, x, None, "Main Map", 10, 10, None, None), 3, "3")

    move("p2", 50)
    assert board.stacks["s1"][3] == ("p1",) and board.stacks["s2"][3] == ("p3",)
    board.apply(AddPiece("s1", "stack", "Main Map;10;10;p1;p3"), 4, "4")
    board.apply(RemovePiece("s2"), 4, "4")
    move("p3", 60)
    move("p1", 70)
    assert board.stacks["s1"][3] == () and "s2" not in board.stacks
    assert _CountedStacks.scans == 0


def test_a_chain_given_file_by_file_reads_each_header_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay given its entries in parts (`more`: a chain's files after a text log) looks for contradicting
    headers in each part once, not in every entry so far each time (a long chain re-read itself once a file), and
    still finds a later file's contradicting `[Scenario]`."""
    game = load_game(data_root(), "moscow")
    system = system_for(game)
    first = parse_text('[Game "moscow"]\n[Scenario "campaign"]\n# first file\n')
    parts: list[list[Entry]] = [[replace(e, line=e.line + 10 * k) for e in parse_text("# a\n# b\n# c\n")]
                                for k in range(1, 60)]
    parts[-1].insert(0, parse_text('[Scenario "another"]\n')[0])
    parts[-1][0] = replace(parts[-1][0], line=590)
    asked = [0]
    as_header = Comment.as_header

    def counted(self: Comment) -> object:
        asked[0] += 1
        return as_header(self)

    monkeypatch.setattr(Comment, "as_header", counted)
    given = iter(parts)
    result = replay(game, system, first, False, more=lambda state: next(given, []))
    comments = 1 + 3 * len(parts)
    assert [f.line for f in result.findings if f.rule == "log"] == [590]
    assert asked[0] <= 4 * comments


def test_omahas_marker_pools_count_markers_not_their_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile log repeating one attack with the same markers (one error each time) keeps a count a marker in the
    state, so each entry's pool (7.1, 7.2, 11.1.4, 11.2.6) is worked out from counts the size of the game's markers,
    not from a list of every use so far (4,000 repeats took 10.5 s of CPU, now 2.9 s, with the same verdicts)."""
    game = load_game(data_root(), "omaha")
    system = system_for(game)
    example = (Path(__file__).resolve().parent.parent / "examples" / "omaha" / "breach-displacement.log")
    lines = example.read_text(encoding="utf-8").splitlines()
    to_combat = "\n".join(lines[:max(k for k, line in enumerate(lines) if line == "Phase combat") + 1])
    repeats = 300
    attack = "Allied: attack 2217 with 26/1 diff +3 die 6 result A1 support us_sf_3 de_sf_4 us_sf_2\n"
    handed = [0]
    in_cups = pools.in_cups

    def counted(game: Game, side: str, lost: pools.Markers, withheld: pools.Markers, out: pools.Markers,
                *args: object, **kwargs: object) -> object:
        handed[0] += sum(len(list(m)) for m in (lost, withheld, out))
        return in_cups(game, side, lost, withheld, out, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pools, "in_cups", counted)
    result = replay(game, system, parse_text(f"{to_combat}\n{attack * repeats}Phase mobile_movement\n"), False)
    # Each copy is the combat under way written again: one error (8.2), not carried out, its markers not used twice.
    assert sum(1 for f in result.findings if f.severity == "error" and f.rule == "8.2") >= repeats - 3
    state = result.states[-1]
    assert len(state.markers_used) <= len(game.markers.marker)  # type: ignore[attr-defined]
    assert handed[0] <= 3 * len(game.markers.marker) * repeats
