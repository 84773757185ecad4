"""The document's entries as the language server holds them: a list whose entries are moved to
their places only when looked at (:class:`Placed`).
"""

from __future__ import annotations

import sys
import typing
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dtc.compiler.model import Entry
from dtc.lsp.shifting import Ints as _Ints

if TYPE_CHECKING:
    from dtc.lsp.incremental import _Chunk

class Placed(list[Entry]):
    """A document's entries put together from chunks, where some chunks' entries are still at
    their chunk's own places: each such chunk is moved to its place in the document (a copy, see
    :meth:`_Chunk.placed`) when one of its entries is first looked at, so an edit that adds or
    removes lines near the top costs no copy of the entries below it that nothing asks for. To
    every reader it is the list of entries at their places; it is not changed after it is made."""

    __slots__ = ("_firsts", "_pending")

    def __init__(self, entries: list[Entry], pending: dict[int, tuple[_Chunk, int]]) -> None:
        super().__init__(entries)
        #: index of a chunk's first entry -> (the chunk, how many lines further down it stands)
        self._pending = pending
        self._firsts = sorted(pending)

    @classmethod
    def spliced(cls, entries: list[Entry], at: int, count: int, new: list[Entry]) -> list[Entry]:
        """``entries`` with the ``count`` from ``at`` replaced by as many ``new`` ones (the
        chunks there, whole, were replaced), moving nothing that is still to be moved."""
        if not isinstance(entries, Placed) or not entries._pending:
            return entries[:at] + new + entries[at + count :]
        out = list.__getitem__(entries, slice(None))
        out[at : at + count] = new
        return cls(out, {k: v for k, v in entries._pending.items() if not at <= k < at + count})

    def line_of(self, i: int) -> int:
        """The line entry ``i``'s head is on, its chunk moved or not (it is not moved here)."""
        entry = list.__getitem__(self, i)
        if self._pending:
            k = bisect_right(self._firsts, i) - 1
            if k >= 0:
                first = self._firsts[k]
                chunk, delta = self._pending[first]
                if i < first + len(chunk.entries):
                    return entry.span.line + delta - chunk.base
        return entry.span.line

    def with_shifts(self) -> list[tuple[Entry, int]]:
        """Each entry as it is stored, with how many lines further down it stands in the
        document (0 where its chunk has been moved): what reads every entry's lines (the
        outline, folding) adds the shift to each line itself, and no chunk is moved."""
        shifts = [0] * list.__len__(self)
        for first, (chunk, delta) in self._pending.items():
            shifts[first : first + len(chunk.entries)] = [delta - chunk.base] * len(chunk.entries)
        return list(zip(list.__iter__(self), shifts, strict=True))

    def head_lines(self) -> Sequence[int]:
        """The line of each entry's head, file order, read without moving any chunk (to look an
        entry up by line with :func:`bisect.bisect_right`)."""
        return _HeadLines(self)

    def _place(self, i: int) -> None:
        k = bisect_right(self._firsts, i) - 1
        if k < 0:
            return
        first = self._firsts[k]
        chunk, delta = self._pending[first]
        n = len(chunk.entries)
        if i >= first + n:
            return
        list.__setitem__(self, slice(first, first + n), chunk.placed(delta)[0])
        del self._pending[first]
        del self._firsts[k]

    def _place_all(self) -> None:
        for first, (chunk, delta) in self._pending.items():
            list.__setitem__(self, slice(first, first + len(chunk.entries)), chunk.placed(delta)[0])
        self._pending.clear()
        self._firsts.clear()

    @typing.overload
    def __getitem__(self, i: typing.SupportsIndex) -> Entry: ...
    @typing.overload
    def __getitem__(self, i: slice) -> list[Entry]: ...
    def __getitem__(self, i: typing.SupportsIndex | slice) -> Entry | list[Entry]:
        if self._pending:
            if isinstance(i, slice):
                self._place_all()
            else:
                k = i.__index__()
                self._place(k + len(self) if k < 0 else k)
        return list.__getitem__(self, i)

    def __iter__(self) -> typing.Iterator[Entry]:
        if self._pending:
            self._place_all()
        return list.__iter__(self)

    def __reversed__(self) -> typing.Iterator[Entry]:
        if self._pending:
            self._place_all()
        return list.__reversed__(self)

    def __contains__(self, value: object) -> bool:
        if self._pending:
            self._place_all()
        return list.__contains__(self, value)

    def __eq__(self, other: object) -> bool:
        self._place_all()
        if isinstance(other, Placed):
            other._place_all()
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._place_all()
        return list.__repr__(self)

    def __reduce_ex__(self, protocol: typing.SupportsIndex) -> typing.Any:
        self._place_all()
        return list, (list(list.__iter__(self)),)

    def index(self, value: Entry, start: typing.SupportsIndex = 0, stop: typing.SupportsIndex = sys.maxsize) -> int:
        self._place_all()
        return list.index(self, value, start, stop)

    def count(self, value: Entry) -> int:
        self._place_all()
        return list.count(self, value)

    def copy(self) -> list[Entry]:
        self._place_all()
        return list.copy(self)

    def __add__(self, other: list[Entry]) -> list[Entry]:  # type: ignore[override]
        self._place_all()
        return list.__add__(self, other)

    def __radd__(self, other: list[Entry]) -> list[Entry]:
        self._place_all()
        return other + list.__getitem__(self, slice(None))


class _HeadLines(_Ints):
    """The lines of a :class:`Placed` list's entry heads, each read when asked for."""

    __slots__ = ("entries",)

    def __init__(self, entries: Placed) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return list.__len__(self.entries)

    def _at(self, i: int) -> int:
        return self.entries.line_of(i)


