"""The data files' TOML reader (tomli below 2.4, compiled; TOML 1.0) reads as the standard library's tomllib reads:
the same values and, for a broken file, the same message with its line and column, which the loader places the error
by. (tomli 2.4 reads TOML 1.1: inline tables with a trailing comma, `\\x` and `\\e` escapes; these tests fail on it.)"""

from __future__ import annotations

import random
import sys
import tomllib
from pathlib import Path

import pytest
import tomli

ROOT = Path(__file__).resolve().parents[1]

BROKEN = ["a = 1\nb = ", 'a = "x', "[a]\nb=1\n[a]\n", "a = 1\na = 2", "a = [1,2", "a = {b=1",
          "x = 1979-05-27T07:32:00Z\ny = 0x", "a = tru", "= 1", "a.b = 1\na = 2", 'a = """x', "a = 'x\n", "a = 1 2",
          "[[a]]\n[a]", "a = 1_", "c = 1e",
          "\x00", 'a = "\\q"', "a = 0o8", "[a.b]\n[a]\nb = 1", "a = [1,]\nb = [,]", "a = {b = 1,}", "a = 1979-13-01",
          "a = 07:61:00", "a = 1.", "a = .5", 'a = "\\uD800"', "a\n= 1", "[a\n]", "a = +0x1"]
"""Broken documents of every kind the parser refuses."""


def _read(reader: object, text: str) -> tuple[str, object]:
    try:
        return "read", reader.loads(text)  # type: ignore[attr-defined]  # tomllib and tomli alike
    except (tomllib.TOMLDecodeError, tomli.TOMLDecodeError) as e:
        return "refused", str(e)
    except ValueError as e:  # int() of thousands of digits
        return "ValueError", str(e)


def _bundled() -> list[Path]:
    return sorted(p for p in [*ROOT.glob("maps/*/*.toml"), *ROOT.glob("counters/*/*.toml")])


@pytest.mark.parametrize("path", _bundled(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_bundled_file_and_its_damaged_copies_read_alike(path: Path) -> None:
    """Each bundled TOML file, and 60 copies with one character put in somewhere: the same values or the same
    message."""
    text = path.read_text(encoding="utf-8")
    assert _read(tomli, text) == _read(tomllib, text)
    rng = random.Random(path.name)
    for _ in range(60):
        at = rng.randrange(len(text) + 1)
        put = rng.choice(['"', "[", "]", "=", "\n", "{", "}", ",", "#", "x", ".", "'", "\\"])
        damaged = text[:at] + put + text[at:]
        assert _read(tomli, damaged) == _read(tomllib, damaged), damaged[max(0, at - 40):at + 40]


@pytest.mark.parametrize("text", BROKEN)
def test_a_broken_document_is_refused_in_the_same_words(text: str) -> None:
    assert _read(tomli, text) == _read(tomllib, text)
    assert _read(tomli, text)[0] == "refused"


def test_a_number_of_thousands_of_digits_is_refused_alike() -> None:
    """Both turn digits into int(): beyond the interpreter's limit both raise ValueError, which the loader words."""
    text = "a = " + "9" * (sys.get_int_max_str_digits() + 1)
    assert _read(tomli, text)[0] == _read(tomllib, text)[0] == "ValueError"
