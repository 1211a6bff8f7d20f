"""The frozen records (wargame.constraints.Frozen, record): the data models and the log's entries behave as frozen,
keyword-only dataclasses do, and are made without dataclasses compiling code for each class (issue 30, item 1)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import field

import pytest

from adjudicator.notation.entries import Header, Move
from wargame.constraints import Frozen, Model, record
from wargame.models import LayoutSpec


class Sample(Model):
    """A model with a required field after one with a default, a factory and a check of its own."""

    size: int = 1
    name: str
    tags: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError("size must not be negative")


@record
class Plain(Frozen):
    """A record that is no model."""

    value: int


def test_a_record_is_made_keyword_by_keyword_with_its_defaults() -> None:
    a = Sample(name="a")
    assert (a.size, a.name, a.tags) == (1, "a", [])
    assert Sample(name="b").tags is not a.tags  # a factory's value is made for each record
    assert list(vars(Sample(name="c", size=3))) == ["size", "name", "tags"]  # fields in their order
    assert Plain(value=3).value == 3


def test_a_record_refuses_what_a_dataclass_refuses() -> None:
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'name'"):
        Sample()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        Sample(name="a", colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Sample(2, "a")  # type: ignore[misc]  # keyword-only
    with pytest.raises(ValueError, match="negative"):
        Sample(name="a", size=-1)


def test_a_record_is_frozen() -> None:
    a = Sample(name="a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.name  # type: ignore[misc]
    entry = Header(key="Game", value="onslaught")
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.value = "omaha"  # type: ignore[misc]


def test_a_record_is_still_a_dataclass() -> None:
    a = Sample(name="a", size=2)
    assert dataclasses.is_dataclass(a) and [f.name for f in dataclasses.fields(a)] == ["size", "name", "tags"]
    b = dataclasses.replace(a, name="b")
    assert (b.size, b.name) == (2, "b") and a.name == "a"
    with pytest.raises(ValueError, match="negative"):
        dataclasses.replace(a, size=-5)
    assert pickle.loads(pickle.dumps(a)) == a and copy.copy(a) == a and copy.deepcopy(a) == a
    layout = LayoutSpec(hex_size_px=40.0, margin_px=20.0)
    assert pickle.loads(pickle.dumps(layout)) == layout and hash(layout) == hash(copy.copy(layout))
    move = Move(unit="1", path=["0101", "0102"])
    assert pickle.loads(pickle.dumps(move)) == move


def _subclasses(cls: type) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


def test_the_models_and_entries_compile_no_dataclass_code() -> None:
    """Every data model and every entry kind takes its __init__ and its refusal to change from `Frozen`: none has one
    that dataclasses compiled (that took a third of a check's start-up), as `@dataclass(frozen=True)` would give."""
    import adjudicator.notation.entries
    import wargame.rulebook

    kinds = [k for k in _subclasses(Frozen) if k is not Model]  # the models' base, no dataclass itself
    assert len({k for k in kinds if k.__module__ in ("wargame.models", wargame.rulebook.__name__)}) > 40
    assert len({k for k in kinds if k.__module__ == adjudicator.notation.entries.__name__}) > 20
    for kind in kinds:
        assert dataclasses.is_dataclass(kind), kind
        assert (kind.__init__, kind.__setattr__, kind.__delattr__) == (
            Frozen.__init__, Frozen.__setattr__, Frozen.__delattr__), kind
