"""A typed rule registry: each handler registered for an entry class and a clause, with its check, its apply and
the data it rests on; a variant adds, replaces or removes named handlers of its parent (house style 12, 18).

The registry dispatches on the entry's class, so a handler's check receives exactly the class it was registered
for and mypy checks it; the registry is also what `adjudicate rules` and the coverage tables read."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, Generic, TypeVar

from adjudicator.findings import Finding
from adjudicator.notation.entries import Entry
from wargame.records import frozen

S = TypeVar("S")
E = TypeVar("E", bound=Entry)


@frozen
class Handler(Generic[S, E]):
    """One rule clause's handler for one entry class."""

    name: str
    """Unique within a registry: what a variant names to replace or remove it."""
    entry: type[E]
    clause: str
    """The rule area it judges (its section comes from the game's data or the system's table)."""
    check: Callable[[S, E], list[Finding]] | None = None
    apply: Callable[[S, E], S] | None = None
    rests_on: tuple[str, ...] = ()
    """The kinds of data its judgement reads (adjudicator.basis.TOPICS)."""
    tests: tuple[str, ...] = ()
    """The pytest node ids that exercise it (the coverage table lists them; a test checks they exist)."""

    @property
    def where(self) -> str:
        """`module::function` of the check (else the apply), for the coverage table."""
        fn = self.check or self.apply
        return f"{fn.__module__}::{fn.__qualname__}" if fn is not None else ""


@frozen
class Registry(Generic[S]):
    """Handlers in the order they were registered; checks run in that order, one apply per entry class."""

    handlers: tuple[Handler[S, Entry], ...] = ()
    _by_class: Mapping[type[Entry], tuple[Handler[S, Entry], ...]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        names = [h.name for h in self.handlers]
        if len(names) != len(set(names)):
            raise ValueError(f"handler {next(n for n in names if names.count(n) > 1)!r} registered twice")
        by_class: dict[type[Entry], list[Handler[S, Entry]]] = {}
        for h in self.handlers:
            by_class.setdefault(h.entry, []).append(h)
        for cls, hs in by_class.items():
            if sum(1 for h in hs if h.apply is not None) > 1:
                raise ValueError(f"two handlers apply {cls.__name__}: {', '.join(h.name for h in hs if h.apply)}")
        object.__setattr__(self, "_by_class", {cls: tuple(hs) for cls, hs in by_class.items()})

    # `Handler[S, Any]`: a handler of whichever entry class (Python has no existential type, and a protocol over
    # the handler's check and apply makes mypy solve a handler's entry class as `Never` where it is written
    # inside the call); `for_entry` dispatches on the exact class, so each is given only its own.
    @staticmethod
    def of(*handlers: Handler[S, Any]) -> Registry[S]:
        """A registry of these handlers (each typed by its own entry class when it is made)."""
        return Registry(tuple(handlers))

    def adding(self, *handlers: Handler[S, Any]) -> Registry[S]:
        """A variant with more handlers."""
        return Registry((*self.handlers, *handlers))

    def replacing(self, name: str, handler: Handler[S, Any]) -> Registry[S]:
        """A variant with one named handler replaced."""
        if name not in self.names:
            raise KeyError(f"no handler {name!r} to replace")
        return Registry(tuple(handler if h.name == name else h for h in self.handlers))

    def removing(self, *names: str) -> Registry[S]:
        """A variant without some named handlers."""
        missing = set(names) - set(self.names)
        if missing:
            raise KeyError(f"no handler {sorted(missing)[0]!r} to remove")
        return Registry(tuple(h for h in self.handlers if h.name not in names))

    @property
    def names(self) -> tuple[str, ...]:
        """Every handler's name, in order."""
        return tuple(h.name for h in self.handlers)

    def for_entry(self, entry: Entry) -> tuple[Handler[S, Entry], ...]:
        """The handlers of an entry's class."""
        return self._by_class.get(type(entry), ())

    def check(self, state: S, entry: Entry) -> list[Finding]:
        """Every registered check of the entry's class, in order."""
        out: list[Finding] = []
        for h in self.for_entry(entry):
            if h.check is not None:
                out += h.check(state, entry)
        return out

    def apply(self, state: S, entry: Entry) -> S:
        """The state after the entry (unchanged for a class no handler applies)."""
        for h in self.for_entry(entry):
            if h.apply is not None:
                return h.apply(state, entry)
        return state


__all__ = ["Handler", "Registry"]
