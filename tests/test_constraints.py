"""wargame.constraints: markers pydantic honours on plain dataclasses, without importing pydantic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest
from pydantic import TypeAdapter, ValidationError

from wargame.constraints import FORBID_EXTRA, Pattern

from import_probe import run_probe


@dataclass(frozen=True)
class _Named:
    __pydantic_config__ = FORBID_EXTRA
    name: Annotated[str, Pattern(r"^[a-z]+$", max_length=5)]


def test_a_pattern_is_validated_by_pydantic() -> None:
    adapter = TypeAdapter(_Named)
    assert adapter.validate_python({"name": "abc"}) == _Named("abc")
    for bad in ({"name": "ABC"}, {"name": "abcdef"}, {"name": "abc", "other": 1}):
        with pytest.raises(ValidationError):
            adapter.validate_python(bad)


def test_the_markers_import_no_pydantic() -> None:
    code = "import sys, wargame.constraints; print('pydantic' in sys.modules)"
    assert run_probe(code).stdout.strip() == "False"
