"""Constraints on plain data classes that pydantic honours when it validates them, importing nothing of pydantic.

The loaded game and the log's entries are plain frozen dataclasses, so that a check of a log whose game is kept
between runs never imports pydantic (issue 30, item 1); pydantic validates them only where data are read from
files (`pydantic.TypeAdapter(TheClass)`), reading these markers beside annotated_types' Ge, Gt, Le, MinLen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field, fields
from operator import attrgetter

from wargame.records import Frozen, record
from typing import TYPE_CHECKING, ClassVar, TypeAlias, dataclass_transform

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

FORBID_EXTRA: dict[str, str] = {"extra": "forbid"}
"""A dataclass's `__pydantic_config__`: unknown keys refused (a pydantic ConfigDict is a plain dict)."""


class Pattern:
    """A string that must match `pattern` (and be at most `max_length` long), as pydantic's StringConstraints."""

    __slots__ = ("pattern", "max_length")

    def __init__(self, pattern: str, max_length: int | None = None) -> None:
        self.pattern = pattern
        self.max_length = max_length

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r}, max_length={self.max_length!r})"

    def __get_pydantic_core_schema__(self, source: type, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The string schema pydantic validates with (imported only when a validator is built)."""
        from pydantic_core import core_schema
        return core_schema.str_schema(pattern=self.pattern, max_length=self.max_length)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(Frozen):
    """Base of every data model: each subclass is a frozen dataclass of keyword arguments, unknown keys refused."""

    __pydantic_config__: ClassVar[dict[str, str]] = FORBID_EXTRA
    _field_names: ClassVar[tuple[str, ...]] = ()
    _field_values: ClassVar[Callable[[object], object]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # Made a dataclass here, not by a decorator on each of some sixty classes; keyword-only as pydantic's
        # models were, so that a required field may follow one with a default. Equality, hash and repr are the
        # dataclass's own, written once here: generating them for each class was half of importing the models.
        record(cls)
        cls._field_names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
        cls._field_values = attrgetter(*cls._field_names) if cls._field_names else lambda _: ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = self.__class__._field_values
        return values(self) == values(other)

    def __hash__(self) -> int:
        return hash(self.__class__._field_values(self))

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._field_names)})"


class RefusedAt(ValueError):
    """A model's own check that names the key it refuses: the loader places the error at that key's line."""

    def __init__(self, message: str, *key: str | int) -> None:
        super().__init__(message)
        self.key = key


JsonData: TypeAlias = None | bool | int | float | str | list["JsonData"] | dict[str, "JsonData"]
"""Plain JSON data."""


def record_data(record: Model) -> dict[str, JsonData]:
    """A model as plain JSON data, fields in order (what pydantic's `model_dump(mode="json")` gave)."""
    return {f.name: _as_data(getattr(record, f.name)) for f in fields(record)}  # type: ignore[arg-type]


def _as_data(value: object) -> JsonData:
    """Any value in a model as plain JSON data: nested models as tables, tuples as lists, as JSON writes them."""
    if isinstance(value, Model):
        return record_data(value)
    if isinstance(value, (list, tuple)):
        return [_as_data(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _as_data(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not JSON data")


class _Bound:
    """A bound pydantic checks as annotated_types' own (same errors, same JSON Schema), which a check never imports:
    annotated_types and typing_extensions under it cost about 14 ms of a check's start-up (issue 30, item 1)."""

    __slots__ = ("value",)
    _kind = ""

    def __init__(self, value: float) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Bound) and type(other) is type(self) and other.value == self.value

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.value))

    def __get_pydantic_core_schema__(self, source: type, handler: GetCoreSchemaHandler) -> CoreSchema:
        """annotated_types' constraint of the same name, imported only when a validator is built."""
        from typing import Annotated

        import annotated_types
        return handler(Annotated[source, getattr(annotated_types, type(self).__name__)(self.value)])


class Ge(_Bound):
    """At least `value`."""


class Gt(_Bound):
    """More than `value`."""


class Le(_Bound):
    """At most `value`."""


class MinLen(_Bound):
    """At least `value` items or characters long."""
