"""The frozen records (wargame.constraints.Frozen, record): the data models and the log's entries behave as frozen,
keyword-only dataclasses do, and are made without dataclasses compiling code for each class (issue 30, item 1)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import field
from pathlib import Path

import pytest

from adjudicator.notation.entries import Header, Move
from wargame.constraints import Model
from wargame.records import Frozen, record
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
        # Written in wargame/records.py, not compiled from text by dataclasses (its code comes from "<string>").
        assert kind.__init__.__code__.co_filename.endswith("records.py"), kind
        assert (kind.__setattr__, kind.__delattr__) == (Frozen.__setattr__, Frozen.__delattr__), kind


def _twins(body: str) -> tuple[type, type]:
    """The same class made by `@dataclass(frozen=True)` and by `@frozen`."""
    from dataclasses import dataclass as stdlib

    from wargame.records import frozen

    made = []
    for decorator in (stdlib(frozen=True), frozen):
        space: dict[str, object] = {"field": field, "InitVar": dataclasses.InitVar}
        exec(body, space)  # noqa: S102 - the test's own class text
        made.append(decorator(space["C"]))
    return made[0], made[1]


CLASSES = {
    "plain": "class C:\n    a: int\n    b: str = 'x'\n",
    "factory and no-init": ("class C:\n    a: int\n    items: list = field(default_factory=list)\n"
                            "    seen: int = field(default=7, init=False)\n    hidden: int = field(default=0, repr=False, "
                            "compare=False)\n"),
    "one field": "class C:\n    a: float\n",
    "none": "class C:\n    pass\n",
    "keyword-only": "class C:\n    a: int\n    b: int = field(default=2, kw_only=True)\n",
    "own eq": ("class C:\n    a: int\n    def __eq__(self, other):\n        return isinstance(other, C) and "
               "abs(self.a) == abs(other.a)\n"),
    "own hash": "class C:\n    a: int\n    def __hash__(self):\n        return 5\n",
    "post-init": ("class C:\n    a: int\n    def __post_init__(self):\n        if self.a < 0:\n"
                  "            raise ValueError('negative')\n"),
}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_frozen_is_a_frozen_dataclass(name: str) -> None:
    """`@frozen` gives what `@dataclass(frozen=True)` gives: the same fields, repr, equality, hash (the same hash
    values, so a set's order is unchanged), refusals and matching."""
    stdlib, ours = _twins(CLASSES[name])
    assert [(f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(stdlib)] == [
        (f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(ours)]
    assert stdlib.__match_args__ == ours.__match_args__
    calls: list[tuple[tuple[object, ...], dict[str, object]]] = [
        ((), {}), ((1,), {}), ((1, "y"), {}), ((), {"a": 1}), ((-1,), {}), ((1, 2, 3, 4), {}), ((1,), {"a": 1}),
        ((1,), {"b": 3}), ((1.0,), {}), ((float("nan"),), {}), ((1,), {"zz": 1}), ((), {"a": 1, "b": 4}),
        ((), {"a": 1, "zz": 1}), ((), {"b": 3}), ((), {"a": 2, "items": [1]}), ((), {"a": 1, "seen": 2})]
    for args, kwargs in calls:
        outcomes = []
        for kind in (stdlib, ours):
            try:
                made = kind(*args, **kwargs)
            except (TypeError, ValueError) as e:
                outcomes.append(type(e).__name__)
                continue
            twin = kind(*args, **kwargs)
            try:
                hashed: object = hash(made)
            except TypeError as e:  # a list among the fields hashed
                hashed = str(e)
            outcomes.append((repr(made).replace(kind.__qualname__, "C"), made == twin, made != twin, hashed,
                             dict(vars(made))))
            with pytest.raises(dataclasses.FrozenInstanceError):
                made.a = 5
            assert repr(dataclasses.replace(made)) == repr(made)
        assert str(outcomes[0]) == str(outcomes[1]), (args, kwargs)


def test_no_class_of_the_referee_or_kernel_compiles_a_frozen_dataclass() -> None:
    """Every frozen dataclass of adjudicator/, wargame/, builder/ and umpire/ is made by `frozen` or `record`
    (wargame/records.py), so that none compiles methods when a check or a build imports it (issue 30)."""
    root = Path(__file__).resolve().parent.parent
    found = [f"{path.relative_to(root)}:{n}" for folder in ("adjudicator", "wargame", "builder", "umpire")
             for path in sorted((root / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if line.lstrip().startswith("@dataclass(") and "frozen=True" in line]
    assert found == []
