"""Moving the model's spans: a copy of an entry (a choice, a finding...) some lines further down.

A line inserted near the top moves every later entry down; the language server copies the
entries it is asked for with every span (and line number) moved, by a copier made once per model
class from its fields' type hints (:func:`shift`). Each field is read as one of a few kinds (plain,
a span, spans, an optional span, a line number, a model object, a list of them, anything else);
the copier reads every field at once and builds the copy through the class's own ``__init__``,
with no code generated here.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from dtc.compiler.model import Choice
from dtc.diagnostics import Span


class Ints(Sequence[int]):
    """A sequence of numbers each worked out when read (:meth:`_at`, given an index in range)."""

    __slots__ = ()

    def _at(self, i: int) -> int:
        raise NotImplementedError

    @typing.overload
    def __getitem__(self, i: int) -> int: ...
    @typing.overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._at(i)



#: Integer fields that hold a line number.
_LINE_FIELDS = frozenset(("end_line", "line"))
_PLAIN_HINTS = frozenset((str, int, bool, float, type(None)))
Shifter = Callable[[Any, int], Any]
_SHIFTERS: dict[type, Shifter] = {}


class LinesAbove(Ints):
    """Line start offsets with ``above`` lines before the first: to :func:`bisect.bisect_right`
    (what :meth:`Choice.located` looks a line up with) the same starts, ``above`` lines further down."""

    __slots__ = ("above", "starts")

    def __init__(self, starts: Sequence[int], above: int) -> None:
        self.starts, self.above = starts, above

    @classmethod
    def of(cls, starts: Sequence[int], by: int) -> Sequence[int]:
        if isinstance(starts, LinesAbove):
            inner: LinesAbove = starts
            starts, by = inner.starts, inner.above + by
        return starts if by == 0 else cls(starts, by)

    def __len__(self) -> int:
        return len(self.starts) + self.above

    def _at(self, i: int) -> int:
        return -1 if i < self.above else self.starts[i - self.above]


def shift(obj: Any, by: int) -> Any:
    """A copy of a model object with every span (and line number) ``by`` lines further down."""
    cls = obj.__class__
    shifter = _SHIFTERS.get(cls)
    if shifter is None:
        shifter = _SHIFTERS[cls] = _make_shifter(cls)
    return shifter(obj, by)


def shift_any(value: Any, by: int) -> Any:
    """``value`` (a span, a model object, or lists, tuples and dicts of them) moved ``by`` lines."""
    if isinstance(value, Span):  # a named tuple: check before plain tuples
        return Span(value.line + by, value.column, value.end_line + by, value.end_column)
    if isinstance(value, list):
        return [shift_any(x, by) for x in value]
    if isinstance(value, tuple):
        return tuple(shift_any(x, by) for x in value)
    if isinstance(value, dict):
        return {k: shift_any(v, by) for k, v in value.items()}
    return shift(value, by)


def _span(s: Span, by: int) -> Span:
    return Span(s.line + by, s.column, s.end_line + by, s.end_column)


def _spans(spans: list[Span], by: int) -> list[Span]:
    return [Span(s.line + by, s.column, s.end_line + by, s.end_column) for s in spans]


def _maybe_span(s: Span | None, by: int) -> Span | None:
    return None if s is None else Span(s.line + by, s.column, s.end_line + by, s.end_column)


def _line(n: int, by: int) -> int:
    return n + by


def _objects(items: list[Any], by: int) -> list[Any]:
    return [shift(x, by) for x in items]


def _field_mover(cls: type, name: str, hint: Any) -> Callable[[Any, int], Any] | None:
    """How a field of this hint moves (None: it is copied as it is)."""
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if hint is Span:
        return _span
    if origin is list and args == (Span,):
        return _spans
    if origin is list and args and dataclasses.is_dataclass(args[0]):
        return _objects
    if args and set(args) == {Span, type(None)}:
        return _maybe_span
    if name in _LINE_FIELDS and hint is int:
        return _line
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return shift
    if hint in _PLAIN_HINTS or (args and set(args) <= _PLAIN_HINTS):
        return None
    return shift_any  # anything else: walked at run time


def _make_shifter(cls: type) -> Shifter:
    if cls is Span:
        return _span
    if not dataclasses.is_dataclass(cls):
        return lambda o, by: o
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    choice = cls is Choice
    own = ("spans", "starts") if choice else ()  # moved by _choice_spans
    moves = tuple((i, m) for i, n in enumerate(names)
                  if (m := _field_mover(cls, n, hints.get(n))) is not None and n not in own)
    values = attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),))
    if all(f.init for f in fields) and not hasattr(cls, "__post_init__"):
        # Built through the class's own __init__ (the one dataclasses writes), from every field's
        # value read at once, the moved ones replaced.
        spans_at = names.index("spans") if choice else -1
        starts_at = names.index("starts") if choice else -1

        def shifter(o: Any, by: int) -> Any:
            vals = list(values(o))
            for i, move in moves:
                vals[i] = move(vals[i], by)
            if choice:
                _choice_spans(vals, spans_at, starts_at, by)
            return cls(*vals)

        return shifter
    new, put = object.__new__, object.__setattr__

    def by_fields(o: Any, by: int) -> Any:
        n = new(cls)
        vals = list(values(o))
        for i, move in moves:
            vals[i] = move(vals[i], by)
        if choice:
            _choice_spans(vals, names.index("spans"), names.index("starts"), by)
        for name, v in zip(names, vals, strict=True):
            put(n, name, v)
        return n

    return by_fields


def _choice_spans(vals: list[Any], spans_at: int, starts_at: int, by: int) -> None:
    """A choice whose spans are known has them moved; one whose spans are still to be worked out
    (when first asked for, from its source) keeps it so, with line starts that count ``by`` more
    lines above its source (:class:`LinesAbove`), so a moved entry costs no span it is not asked for."""
    spans = vals[spans_at]
    if spans is None:
        vals[starts_at] = LinesAbove.of(vals[starts_at], by)
    else:
        vals[spans_at] = shift_any(spans, by)
