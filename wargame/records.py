"""Frozen dataclasses made without dataclasses' generated code: the same classes, a fraction of the import.

`dataclasses.dataclass` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
`__delattr__` as source text and compiles it. For the 170 classes a check imports that was about a third of its
start-up (issue 30, item 1). Here those methods are written once and read each class's fields from attributes set
when it is made; the classes are dataclasses all the same (`dataclasses.fields`, `replace`, pydantic and pickle read
them as such), and type checkers read `record` and `frozen` as `dataclass` (PEP 681).
"""

from __future__ import annotations

import reprlib
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
    return cls


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


def _eq(self: object, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented  # type: ignore[no-any-return]
    values = _layout(self).compared
    return values(self) == values(other)


def _hash(self: object) -> int:
    return hash(_layout(self).hashed(self))


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
    setattr(cls, "_frozen", _Layout(cls))
    for name, method in (("__init__", _init), ("__repr__", _repr), ("__eq__", _eq)):
        if name not in own:
            setattr(cls, name, method)
    # A class that writes __eq__ but not __hash__ has __hash__ set to None by Python: a dataclass replaces that.
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        cls.__hash__ = _hash  # type: ignore[assignment]
    cls.__setattr__ = _setattr  # type: ignore[assignment]
    cls.__delattr__ = _delattr  # type: ignore[assignment]
    return cls
