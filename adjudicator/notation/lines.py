"""A log's lines as its findings quote them, held sparsely: a JSON log or a chain of logs may name line 999,999,999,
and a list of every line up to it would hold them all (15 GB, a chain's lines once did)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import overload


class SparseLines(Sequence[str]):
    """`length` lines, line N (1-based) being `line_at(N)` ("" where no text is known): a Sequence of the text's
    lines, as a list of them would be indexed."""

    def __init__(self, line_at: Callable[[int], str], length: int) -> None:
        self._line_at, self._length = line_at, length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if not -self._length <= index < self._length:
            raise IndexError(index)
        return self._line_at(index % self._length + 1)
