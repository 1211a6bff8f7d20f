"""Frozen dataclasses made without dataclasses' generated code: the same classes, a fraction of the import.

`dataclasses.dataclass` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
`__delattr__` as source text and compiles it. For the 170 classes a check imports that was about a third of its
start-up (issue 30, item 1). Here those methods are written once and read each class's fields from attributes set
when it is made; the classes are dataclasses all the same (`dataclasses.fields`, `replace`, pydantic and pickle read
them as such), and type checkers read `record` and `frozen` as `dataclass` (PEP 681).
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import ClassVar, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)

_Plan = tuple[tuple[str, object, object, bool, bool], ...]
"""Each field: name, default, default factory, whether `__init__` takes it, whether by keyword only."""


def _tuple_of(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The fields' values as a tuple (what a dataclass compares and hashes), whatever their number."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


class Frozen:
    """Base of the frozen, keyword-only dataclasses `record` makes: their `__init__`, and the refusal to change a field
    once made, written once here."""

    __slots__ = ()
    _init_plan: ClassVar[tuple[tuple[str, object, object], ...]] = ()
    _post_init: ClassVar[bool] = False

    def __init__(self, **values: object) -> None:
        setter = object.__setattr__
        for name, default, factory in self._init_plan:
            if name in values:
                value = values.pop(name)
            elif default is not MISSING:
                value = default
            elif factory is not MISSING:
                value = factory()  # type: ignore[operator]  # a field's default_factory
            else:
                raise TypeError(f"{type(self).__qualname__}.__init__() missing 1 required keyword-only argument: "
                                f"{name!r}")
            setter(self, name, value)
        if values:
            raise TypeError(f"{type(self).__qualname__}.__init__() got an unexpected keyword argument "
                            f"{next(iter(values))!r}")
        if self._post_init:
            self.__post_init__()  # type: ignore[attr-defined]  # present where _post_init says so

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


R = TypeVar("R", bound=type[Frozen])


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def record(cls: R) -> R:
    """`cls` made a frozen, keyword-only dataclass without generated code (see `Frozen`); equality, hash and repr
    are left to the class."""
    dataclass(init=False, eq=False, repr=False, kw_only=True)(cls)
    cls._init_plan = tuple((f.name, f.default, f.default_factory) for f in fields(cls) if f.init)  # type: ignore[arg-type]
    cls._post_init = hasattr(cls, "__post_init__")
    if "__init__" not in vars(cls):
        setattr(cls, "__init__", _keyword_init(cls, Frozen.__init__))
    return cls


def _keyword_init(cls: type, general: Callable[..., None]) -> Callable[..., None]:
    """An `__init__` for `cls` that takes its fields by keyword at the speed of a dict copy (what `replace` and a parser
    give), its plain defaults filled from a template and its factories called; any other call (a field by position,
    an unknown or missing one) is left to `general`, which words the error. Fields keep their order in `__dict__`."""
    made = fields(cls)
    if not made or not all(f.init for f in made):
        return general
    template = {f.name: f.default if f.default is not MISSING else None for f in made}
    required = frozenset(f.name for f in made if f.default is MISSING and f.default_factory is MISSING)
    factories = tuple((f.name, f.default_factory) for f in made if f.default_factory is not MISSING)
    count = len(template)
    post_init = hasattr(cls, "__post_init__")

    def __init__(self: object, *args: object, **values: object) -> None:
        if args or not values.keys() >= required:
            general(self, *args, **values)
            return
        filled = template.copy()
        filled.update(values)
        if len(filled) != count:  # an unknown keyword
            general(self, *args, **values)
            return
        for name, factory in factories:
            if name not in values:
                filled[name] = factory()
        self.__dict__.update(filled)
        if post_init:
            self.__post_init__()  # type: ignore[attr-defined]
    return __init__


class _Layout:
    """What the methods below read of one class made by `frozen`: its fields as `dataclass` would use them."""

    __slots__ = ("plan", "positional", "post_init", "shown", "compared", "hashed")

    def __init__(self, cls: type) -> None:
        made = fields(cls)
        self.plan: _Plan = tuple((f.name, f.default, f.default_factory, f.init, f.kw_only is True) for f in made)
        self.positional = sum(1 for f in made if f.init and not f.kw_only)
        self.post_init = hasattr(cls, "__post_init__")
        self.shown = tuple(f.name for f in made if f.repr)
        self.compared = _tuple_of(tuple(f.name for f in made if f.compare))
        self.hashed = _tuple_of(tuple(f.name for f in made if (f.compare if f.hash is None else f.hash)))


def _layout(record: object) -> _Layout:
    return type(record)._frozen  # type: ignore[attr-defined, no-any-return]  # set by `frozen`


def _init(self: object, *args: object, **values: object) -> None:
    """A frozen dataclass's `__init__`: fields by position, then by keyword, then defaults; then `__post_init__`."""
    layout = _layout(self)
    setter = object.__setattr__
    if len(args) > layout.positional:
        raise TypeError(f"{type(self).__qualname__}.__init__() takes {layout.positional + 1} positional arguments "
                        f"but {len(args) + 1} were given")
    given = 0
    for name, default, factory, init, kw_only in layout.plan:
        if init and not kw_only and given < len(args):
            if name in values:
                raise TypeError(f"{type(self).__qualname__}.__init__() got multiple values for argument {name!r}")
            value = args[given]
            given += 1
        elif init and name in values:
            value = values.pop(name)
        elif factory is not MISSING:
            value = factory()  # type: ignore[operator]  # a field's default_factory
        elif not init:
            continue  # a field left out of __init__ reads its default from the class, as a dataclass leaves it
        elif default is not MISSING:
            value = default
        else:
            raise TypeError(f"{type(self).__qualname__}.__init__() missing 1 required argument: {name!r}")
        setter(self, name, value)
    if values:
        raise TypeError(f"{type(self).__qualname__}.__init__() got an unexpected keyword argument "
                        f"{next(iter(values))!r}")
    if layout.post_init:
        self.__post_init__()  # type: ignore[attr-defined]  # present where the layout says so


@reprlib.recursive_repr()
def _repr(self: object) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _layout(self).shown)
    return f"{type(self).__qualname__}({shown})"


def _tuple_equality(values: Callable[[object], tuple[object, ...]]) -> Callable[[object, object], bool]:
    """A dataclass's `__eq__` up to Python 3.12, for two records of the very same class: the compared fields as
    tuples."""
    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)
    return __eq__


def _fieldwise_equality(values: Callable[[object], tuple[object, ...]]) -> Callable[[object, object], bool]:
    """A dataclass's `__eq__` from Python 3.13: field by field, the first unequal answer given (so a NaN field is
    unequal even to itself), a record equal to itself."""
    def __eq__(self: object, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        answer: object = True
        for mine, theirs in zip(values(self), values(other)):
            answer = mine == theirs
            if not answer:
                break
        return answer  # type: ignore[return-value]  # what `a == b and c == d` gives
    return __eq__


_equality = _fieldwise_equality if sys.version_info >= (3, 13) else _tuple_equality


def _hashing(values: Callable[[object], tuple[object, ...]]) -> Callable[[object], int]:
    """A dataclass's `__hash__`: the hash of the hashed fields' tuple (the same value, so a set's order is too)."""
    def __hash__(self: object) -> int:
        return hash(values(self))
    return __hash__


def _positional_init(cls: type, layout: _Layout) -> Callable[..., None]:
    """An `__init__` for `cls` that takes every field by position or every one by keyword at the speed of a dict
    copy, any other call left to `_init`."""
    names = tuple(name for name, _, _, init, kw_only in layout.plan if init and not kw_only)
    keyword = _keyword_init(cls, _init)
    if keyword is _init or len(names) != len(layout.plan):
        return keyword
    count = len(names)
    post_init = layout.post_init

    def __init__(self: object, *args: object, **values: object) -> None:
        if len(args) == count and not values:
            self.__dict__.update(zip(names, args))
            if post_init:
                self.__post_init__()  # type: ignore[attr-defined]
            return
        keyword(self, *args, **values)
    return __init__


def _setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: T) -> T:
    """`@dataclass(frozen=True)` without generated code: fields by position or keyword, equality, hash and repr over
    the fields as a dataclass has them, and no change once made. A method the class writes itself is kept, as
    `dataclass` keeps it."""
    dataclass(init=False, eq=False, repr=False)(cls)
    own = vars(cls)
    for name in ("__setattr__", "__delattr__"):
        if name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    # What a dataclass of these options writes for itself; each set only where the class has none of its own.
    layout = _Layout(cls)
    setattr(cls, "_frozen", layout)
    if "__init__" not in own:
        setattr(cls, "__init__", _positional_init(cls, layout))
    if "__repr__" not in own:
        setattr(cls, "__repr__", _repr)
    if "__eq__" not in own:
        setattr(cls, "__eq__", _equality(layout.compared))
    # A class that writes __eq__ but not __hash__ has __hash__ set to None by Python: a dataclass replaces that.
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        setattr(cls, "__hash__", _hashing(layout.hashed))
    cls.__setattr__ = _setattr  # type: ignore[assignment]
    cls.__delattr__ = _delattr  # type: ignore[assignment]
    return cls
