""""Did you mean": rapidfuzz's edit distance gives our own one's verdicts, and a file of many unknown words costs
one sorting of its vocabulary and one measure per distinct word."""

from __future__ import annotations

import bisect
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import wargame.errors
from builder.cli import main as vmodbuild
from wargame.errors import MAX_COMPARED, Vocabulary, close_words, did_you_mean


def python_distance(a: str, b: str, limit: int) -> int:
    """The pure-Python optimal string alignment the project used before rapidfuzz: the oracle."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        if min(row) > limit:
            return limit + 1
        rows.append(row)
    return min(rows[-1][-1], limit + 1)


def python_did_you_mean(word: str, vocabulary: list[str], limit: int = 3) -> str:
    """The suggestion as the project made it before rapidfuzz: the oracle."""
    choices = sorted(set(vocabulary))
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered and lowered[word.lower()] != word:
        close = [lowered[word.lower()]]
    else:
        allowed = max(2, len(word) // 3)
        fitting = [c for c in choices if abs(len(c) - len(word)) <= allowed]
        if len(fitting) > MAX_COMPARED:
            at = bisect.bisect_left(fitting, word)
            start = min(max(0, at - MAX_COMPARED // 2), len(fitting) - MAX_COMPARED)
            fitting = fitting[start:start + MAX_COMPARED]
        scored = sorted((d, c) for c in fitting if (d := python_distance(word, c, allowed)) <= allowed)
        close = [c for _, c in scored[:limit]]
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)" if close else ""


WORDS = st.text(alphabet="abAB01-_é", max_size=9)


@settings(max_examples=3000, deadline=None)
@given(WORDS, WORDS, st.integers(0, 5))
def test_the_distance_is_the_pure_python_ones(a: str, b: str, limit: int) -> None:
    """Swaps of neighbours count one edit, and a word beyond the limit is not close, as before."""
    expected = python_distance(a, b, limit)
    assert close_words(a, [b], limit) == ([(expected, b)] if expected <= limit else [])


def test_the_distance_counts_a_swap_as_one_edit() -> None:
    """`0712` for `0721` is one edit (a swap), `abc` to `ca` three (optimal string alignment, not Damerau)."""
    assert close_words("0712", ["0721"], 2) == [(1, "0721")]
    assert close_words("abc", ["ca"], 5) == [(3, "ca")]
    assert close_words("abcdef", [""], 2) == []


@settings(max_examples=500, deadline=None)
@given(WORDS, st.lists(WORDS, max_size=40))
def test_suggestions_are_the_pure_python_ones(word: str, vocabulary: list[str]) -> None:
    """The same suggestions, in the same order, as the pure-Python search gave."""
    assert did_you_mean(word, vocabulary) == python_did_you_mean(word, vocabulary)
    assert Vocabulary(vocabulary).suggest(word, 1) == python_did_you_mean(word, vocabulary, 1)


def test_a_large_vocabulary_is_searched_as_before() -> None:
    """Past MAX_COMPARED words, the window nearest the word alphabetically, as before."""
    labels = [f"{c:03d}{r:03d}" for c in range(200) for r in range(200)]
    for word in ("10510", "105107x", "19999", "000000", "x"):
        assert did_you_mean(word, labels) == python_did_you_mean(word, labels)


def test_many_unknown_hexes_sort_the_vocabulary_once(monkeypatch: pytest.MonkeyPatch, data_copy: Path) -> None:
    """3,000 set-up rows at an unknown location: every one reported, the locations' vocabulary prepared once and
    the unknown word measured once (it was sorted and measured for each row: 30,000 rows took 50 s)."""
    path = data_copy / "counters" / "moscow" / "setup.csv"
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    row = next(line for line in lines if line.startswith("campaign,so-"))
    bad = row.split(",")
    bad[2] = "zz9"
    path.write_text("\n".join([*lines, *[",".join(bad)] * 3000]) + "\n", encoding="utf-8")
    prepared, measured = 0, 0
    real_init, real_close = Vocabulary.__init__, wargame.errors.close_words

    def preparing(self: Vocabulary, words: object) -> None:
        nonlocal prepared
        prepared += 1
        real_init(self, words)  # type: ignore[arg-type]

    def measuring(word: str, choices: list[str], most: int) -> list[tuple[int, str]]:
        nonlocal measured
        measured += word == "zz9"
        return real_close(word, choices, most)

    wargame.errors._vocabulary.cache_clear()
    monkeypatch.setattr(Vocabulary, "__init__", preparing)
    monkeypatch.setattr(wargame.errors, "close_words", measuring)
    result = CliRunner().invoke(vmodbuild, ["validate", "moscow", "--data", str(data_copy)])
    assert result.exit_code == 1
    assert result.output.count("'zz9' is neither a hex label") == 3000
    assert measured == 1 and prepared <= 3
