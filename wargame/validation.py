"""Validating what a data file gives against its model without pydantic, for data that is certainly valid.

Building pydantic's validators costs a cold load more than reading the files (issue 30, item 1: importing pydantic
41 ms, a TypeAdapter per model about 6 ms, each worked out from the dataclass's annotations). A checker made here
from the same annotations accepts a value only when it is sure pydantic would accept it and give the same result;
anything else (a wrong type, a broken constraint, an unusual but valid spelling such as `+3` for a number) is
`Declined`, and the loader asks pydantic, which decides and words the error. So the result and every message are
pydantic's own; this module only spares building pydantic for files that load cleanly. `tests/test_validation.py`
compares the two over damaged data files.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Annotated, Literal, TypeVar

from wargame.constraints import FORBID_EXTRA, Ge, Gt, Le, MinLen, Model, Pattern

M = TypeVar("M")
Checker = Callable[[object], object]

_BIGGEST_INT = 2**63 - 1
"""pydantic's integers are 64-bit in its fast path; a larger one is left to it."""
_EXACT_FLOAT_INT = 2**53
"""An integer read as a number: above this, float() rounds, and whether pydantic rounds alike is left to it."""
_PLAIN_INT = re.compile(r"0|-?[1-9][0-9]{0,17}")
_PLAIN_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?")


class Declined(Exception):
    """Not certainly valid: pydantic decides, and words the error if there is one."""


def validated(model: type[M], data: object, *, strict: bool) -> M | None:
    """`data` as `model`, exactly as pydantic's TypeAdapter would give it (`strict`: JSON's types as they are; else
    Python's lax reading of a CSV row's text), or None where only pydantic can say."""
    return validator(model, strict=strict)(data)


def validator(model: type[M], *, strict: bool) -> Callable[[object], M | None]:
    """`validated` for one model and mode, made once: what a CSV file's loader calls row by row."""
    check = _checker(model, strict)

    def validate(data: object) -> M | None:
        try:
            return check(data)  # type: ignore[return-value]  # the model's checker returns the model
        except Declined:
            return None
    return validate


_CHECKERS: dict[tuple[object, bool], Checker] = {}


def _checker(annotation: object, strict: bool) -> Checker:
    """The checker of a type annotation, made once per annotation and mode."""
    key = (annotation, strict)
    known = _CHECKERS.get(key)
    if known is None:
        if isinstance(annotation, type) and issubclass(annotation, Model):
            # Filled in before the fields are made, so a model that contains itself finds its own checker.
            holder: list[Checker] = []
            _CHECKERS[key] = lambda value: holder[0](value)
            holder.append(_model_checker(annotation, strict))
            known = _CHECKERS[key] = holder[0]
        else:
            known = _CHECKERS[key] = _make(annotation, strict)
    return known


def _decline(value: object) -> object:
    raise Declined


def _make(annotation: object, strict: bool) -> Checker:
    """A checker for one annotation; one that declines everything for a type it does not know."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Annotated:
        return _constrained(_checker(args[0], strict), args[1:])
    if annotation is str:
        return _string
    if annotation is bool:
        return _boolean
    if annotation is int:
        return _integer if strict else _integer_or_text
    if annotation is float:
        return _number if strict else _number_or_text
    if annotation is type(None):
        return _none
    if origin is Literal:
        return _literal(args)
    if origin in (typing.Union, types.UnionType):
        return _union(args, strict)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(_checker(args[0], strict), tuple, strict)
        return _fixed_tuple(tuple(_checker(a, strict) for a in args), strict)
    if origin is list:
        return _sequence(_checker(args[0], strict), list, strict)
    if origin is dict:
        return _mapping(_checker(args[0], strict), _checker(args[1], strict))
    return _decline


def _string(value: object) -> object:
    if type(value) is not str:
        raise Declined
    return value


def _boolean(value: object) -> object:
    if type(value) is not bool:
        raise Declined
    return value


def _integer(value: object) -> object:
    if type(value) is not int or not -_BIGGEST_INT <= value <= _BIGGEST_INT:
        raise Declined
    return value


def _integer_or_text(value: object) -> object:
    # A CSV cell reaches pydantic as text; only the plain spelling of a whole number is read here.
    if type(value) is str and _PLAIN_INT.fullmatch(value):
        return int(value)
    return _integer(value)


def _number(value: object) -> object:
    if type(value) is float and math.isfinite(value):
        return value
    if type(value) is int and -_EXACT_FLOAT_INT <= value <= _EXACT_FLOAT_INT:
        return float(value)  # pydantic's strict float takes a JSON integer as a float
    raise Declined


def _number_or_text(value: object) -> object:
    if type(value) is str and _PLAIN_DECIMAL.fullmatch(value):
        return float(value)
    return _number(value)


def _none(value: object) -> object:
    if value is not None:
        raise Declined
    return None


def _literal(allowed: tuple[object, ...]) -> Checker:
    # `True == 1`, so the type is compared too: pydantic's Literal[1] refuses true.
    def check(value: object) -> object:
        for choice in allowed:
            if type(value) is type(choice) and value == choice:
                return choice
        raise Declined
    return check


_SCALARS: dict[object, Checker] = {str: _string, bool: _boolean, int: _integer, float: _number}


def _union(members: tuple[object, ...], strict: bool) -> Checker:
    """`X | None`, or a union of the plain scalars (a parameter's value), each value matched by its exact type; any
    other union is left to pydantic's smart mode."""
    others = tuple(m for m in members if m is not type(None))
    nullable = len(others) < len(members)
    if len(others) == 1:
        inner = _checker(others[0], strict)

        def optional(value: object) -> object:
            return None if value is None and nullable else inner(value)
        return optional
    if strict and all(m in _SCALARS for m in others):
        by_type = {m: _SCALARS[m] for m in others}

        def scalar(value: object) -> object:
            if value is None and nullable:
                return None
            check = by_type.get(type(value))
            if check is None:
                raise Declined
            return check(value)
        return scalar
    return _decline


def _sequence(item: Checker, kind: type[tuple[object, ...]] | type[list[object]], strict: bool) -> Checker:
    # JSON gives arrays as lists; a CSV cell of several values was split into a tuple.
    accepted = (list,) if strict else (list, tuple)

    def check(value: object) -> object:
        if type(value) not in accepted:
            raise Declined
        return kind([item(v) for v in value])  # type: ignore[attr-defined]  # a list or tuple, tested above
    return check


def _fixed_tuple(items: tuple[Checker, ...], strict: bool) -> Checker:
    accepted = (list,) if strict else (list, tuple)

    def check(value: object) -> object:
        if type(value) not in accepted or len(value) != len(items):  # type: ignore[arg-type]  # a list or tuple
            raise Declined
        return tuple([c(v) for c, v in zip(items, value)])  # type: ignore[call-overload]  # a list or tuple
    return check


def _mapping(key: Checker, item: Checker) -> Checker:
    def check(value: object) -> object:
        if type(value) is not dict:
            raise Declined
        return {key(k): item(v) for k, v in value.items()}
    return check


def _constrained(inner: Checker, markers: tuple[object, ...]) -> Checker:
    """A checker with the constraints pydantic reads from `Annotated` (wargame.constraints' markers only)."""
    tests: list[Callable[[object], bool]] = []
    for marker in markers:
        if isinstance(marker, Pattern):
            tests.append(_matcher(marker.pattern, marker.max_length))
        elif isinstance(marker, (Ge, Gt, Le)):
            tests.append(functools.partial(_within, _COMPARISONS[type(marker)], marker.value))
        elif isinstance(marker, MinLen):
            tests.append(functools.partial(_long_enough, int(marker.value)))
        else:
            return _decline

    if len(tests) == 1:
        # One constraint (nearly every field): no loop, and a pattern on text answered in the same call.
        only = tests[0]
        if inner is _string and len(markers) == 1 and isinstance(markers[0], Pattern):
            def text_of_pattern(value: object) -> object:
                if type(value) is not str or not only(value):
                    raise Declined
                return value
            return text_of_pattern

        def checked_once(value: object) -> object:
            result = inner(value)
            if not only(result):
                raise Declined
            return result
        return checked_once

    def check(value: object) -> object:
        result = inner(value)
        for test in tests:
            if not test(result):
                raise Declined
        return result
    return check


_COMPARISONS: dict[type, Callable[[float, float], bool]] = {Ge: operator.ge, Gt: operator.gt, Le: operator.le}


def _matcher(pattern: str, longest: int | None) -> Callable[[object], bool]:
    """Whether a string is of a pattern's form, each string's answer remembered (a data file repeats its sources and
    identifiers: Onslaught's rows test 6,000 strings, a few hundred distinct)."""
    search = re.compile(pattern).search
    known: dict[str, bool] = {}

    def matches(value: object) -> bool:
        text = typing.cast(str, value)
        answer = known.get(text)
        if answer is None:
            # A line break is left to pydantic: Python's `$` matches before a final one, the Rust engine's does not.
            answer = ("\n" not in text and "\r" not in text and (longest is None or len(text) <= longest)
                      and search(text) is not None)
            if len(known) < _REMEMBERED:
                known[text] = answer
        return answer
    return matches


_REMEMBERED = 4096
"""How many strings' answers a pattern keeps: bounded whatever the file."""


def _within(compare: Callable[[float, float], bool], bound: float, value: object) -> bool:
    return compare(typing.cast(float, value), bound)


def _long_enough(shortest: int, value: object) -> bool:
    return len(typing.cast(str, value)) >= shortest


_EVALUATED: dict[tuple[str, str], object] = {}


def field_annotations(model: type) -> dict[str, object]:
    """A model's field annotations evaluated, constraints kept: as `typing.get_type_hints(include_extras=True)`, each
    written annotation evaluated once per module (a third of the cost of making every checker went to typing's
    general machinery)."""
    # Each field's annotation is read in the module of the class that declares it (a base may be elsewhere).
    declared_in = {name: cls.__module__ for cls in reversed(model.__mro__)
                   for name in vars(cls).get("__annotations__", {})}
    found: dict[str, object] = {}
    for f in dataclasses.fields(model):
        written = f.type
        if not isinstance(written, str):
            found[f.name] = written
            continue
        key = (declared_in[f.name], written)
        if key not in _EVALUATED:
            try:
                _EVALUATED[key] = eval(written, vars(sys.modules[key[0]]))  # noqa: S307 - the package's own annotations
            except NameError:
                return typing.get_type_hints(model, include_extras=True)
        found[f.name] = _EVALUATED[key]
    return found


def field_checkers(model: type, *, strict: bool) -> tuple[dict[str, Checker], frozenset[str]] | None:
    """The checker of each field a model's `__init__` takes, and the fields it requires; None for a model that is
    never vouched for here (pydantic decides all of it). A checker raises Declined where only pydantic can say."""
    if not (isinstance(model, type) and issubclass(model, Model)) or \
            getattr(model, "__pydantic_config__", None) != FORBID_EXTRA:
        return None
    hints = field_annotations(model)
    fields = {f.name: f for f in dataclasses.fields(model) if f.init}  # type: ignore[arg-type]
    required = frozenset(name for name, f in fields.items()
                         if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    return {name: _checker(hints[name], strict) for name in fields}, required


def _model_checker(model: type[Model], strict: bool) -> Checker:
    """A table as the model: every key one of its fields, every required one given, each value checked, and the
    model made (its own `__post_init__` checks run; one that refuses is left to pydantic to word)."""
    found = field_checkers(model, strict=strict)
    if found is None:
        return _decline
    checks, required = found

    def check(value: object) -> object:
        if type(value) is not dict:
            raise Declined
        if not required <= value.keys():
            raise Declined
        values = {}
        for name, item in value.items():
            field_check = checks.get(name)
            if field_check is None:
                raise Declined
            values[name] = field_check(item)
        try:
            return model(**values)
        except Exception:  # noqa: BLE001 - any refusal by the model's own checks is pydantic's to word
            raise Declined from None
    return check
