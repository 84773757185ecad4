"""Re-parse only what changed: the same :class:`~dtc.compiler.model.Document` as :func:`dtc.compiler.parse.parse`,
with each run of entries parsed once and reused while its text is unchanged.

An adventure with an ``Adventure Entries`` header is cut into its front part (everything up to
the header) and *chunks*: each chunk begins at a line that the full parser is certain to read as
an entry head — a head-shaped line whose previous non-comment line is blank — and runs to the
next such line. Whether a line starts an entry depends only on the lines before it inside its
own chunk and on whether the book separates its entries with blank lines (worked out over the
whole book first, and passed to each chunk's parse), and an entry's body only on its own text,
so parsing a chunk on its own (behind a header line) gives the entries the full parse gives,
with line numbers shifted. Chunks are
cached by text; a reused chunk only has its spans moved when lines were added or removed above
it. Files without an entries header are parsed in full (the layout scan then decides where
entries begin, and it needs the whole file). ``tests/test_lsp.py`` checks the equivalence.
"""

from __future__ import annotations

import copy
import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dtc.compiler.model import Choice, Directive, Document, Entry
from dtc.compiler.parse import DIRECTIVE, ENTRIES_HEADER, ENTRY_HEAD, head_layout, parse, separates_with_blank_lines
from dtc.diagnostics import Span

_HEADER = "Adventure Entries\n"
_PROBE = "\n1 X"


@dataclass(slots=True)
class _Chunk:
    """Entries and comment lines of one chunk, with spans for one line offset."""

    delta: int  # line shift applied to the stored spans
    entries: list[Entry]
    directives: list[Directive]
    #: Other document-level lists the chunk's entries added to (such as unreadable stat blocks).
    extras: dict[str, list[Any]]


@dataclass(slots=True)
class Stats:
    chunks: int = 0
    reparsed: int = 0
    full: bool = False


class IncrementalParser:
    """Parses successive versions of one document, reusing unchanged chunks."""

    def __init__(self) -> None:
        self._chunks: dict[str, _Chunk] = {}
        self._front: tuple[str, Document] | None = None
        self.stats = Stats()

    def parse(self, text: str, path: str = "<input>") -> Document:
        lines = text.split("\n")
        header = _entries_header(lines)
        if header is None:
            self._chunks.clear()
            self.stats = Stats(full=True)
            return parse(text, path)
        front = self._parse_front("\n".join(lines[: header + 1]), path)
        if front is None:
            self._chunks.clear()
            self.stats = Stats(full=True)
            return parse(text, path)
        doc = copy.copy(front)
        doc.path = path
        doc.entries = []
        doc.directives = list(front.directives)
        doc.line_count = len(lines)
        chunks: dict[str, _Chunk] = {}
        stats = Stats()
        bounds = _chunk_starts(lines, header + 1)
        blank_separated = separates_with_blank_lines(head_layout(lines, header + 1))
        for n, first in enumerate(bounds):
            last = bounds[n + 1] if n + 1 < len(bounds) else len(lines)
            chunk_text = "\n".join(lines[first:last])
            key = f"{int(blank_separated)}{chunk_text}"  # the book's layout decides its heads
            delta = first - 1  # chunk line 2 (after the header) is document line first + 1
            chunk = chunks.get(key) or self._chunks.get(key)
            if chunk is None:
                parsed = parse(_HEADER + chunk_text, path, blank_separated=blank_separated)
                chunk = _Chunk(0, parsed.entries, parsed.directives, _extras(parsed))
                stats.reparsed += 1
            chunk = _moved(chunk, delta)
            chunks[key] = chunk
            offset = len(doc.entries)
            doc.entries.extend(chunk.entries)
            doc.directives.extend(
                d if d.entry_index is None else dataclasses.replace(d, entry_index=d.entry_index + offset)
                for d in chunk.directives
            )
            for name, items in chunk.extras.items():
                if getattr(doc, name) is getattr(front, name):
                    setattr(doc, name, list(getattr(front, name)))
                getattr(doc, name).extend(items)
            stats.chunks += 1
        self._chunks = chunks
        self.stats = stats
        return doc

    def _parse_front(self, front_text: str, path: str) -> Document | None:
        """The front part, parsed alone; None if the header does not open the entries there."""
        if self._front is not None and self._front[0] == front_text:
            return self._front[1]
        probe = parse(front_text + _PROBE, path)
        if len(probe.entries) != 1 or probe.entries[0].span.line != front_text.count("\n") + 2:
            return None
        probe.entries = []
        self._front = (front_text, probe)
        return probe


def _extras(doc: Document) -> dict[str, list[Any]]:
    """The non-empty document-level lists of a chunk's parse, besides its entries and comments."""
    out: dict[str, list[Any]] = {}
    for f in dataclasses.fields(doc):
        value = getattr(doc, f.name)
        if f.name not in ("entries", "directives") and isinstance(value, list) and value:
            out[f.name] = value
    return out


def _entries_header(lines: list[str]) -> int | None:
    """Index of the first line that is an entries header (as the parser reads it), if any."""
    for i, line in enumerate(lines):
        if len(line) < 40 and ENTRIES_HEADER.fullmatch(line) and not DIRECTIVE.match(line):
            return i
    return None


def _chunk_starts(lines: list[str], first: int) -> list[int]:
    """Line indexes where chunks begin: ``first``, then each head after a blank line."""
    starts = [first]
    prev_blank = True
    for i in range(first, len(lines)):
        line = lines[i]
        if "<!--" in line and DIRECTIVE.match(line):
            continue
        stripped = not line.strip()
        if prev_blank and not stripped and i != first:
            head = ENTRY_HEAD.match(line)
            if head is not None and not line[head.end() :][:1].islower():
                starts.append(i)
        prev_blank = stripped
    return starts


# --- moving spans ----------------------------------------------------------------------------
#
# A line inserted near the top moves every later entry down; copying ~6,000 model objects with a
# generic walker costs more than the budget, so a small copier is generated per model class from
# its type hints (once), like dataclasses generate ``__init__``.

#: Integer fields that hold a line number.
_LINE_FIELDS = frozenset(("end_line", "line"))
_PLAIN_HINTS = frozenset((str, int, bool, float, type(None)))
_Shifter = Callable[[Any, int], Any]
_SHIFTERS: dict[type, _Shifter] = {}
#: A choice's spans are worked out from its own (unshifted) source, then moved; the line starts
#: they were worked out from are then not needed.
_CHOICE_SPANS = {"spans": "_shift_any(o.located(), by)", "starts": "()"}


def _moved(chunk: _Chunk, delta: int) -> _Chunk:
    if delta == chunk.delta:
        return chunk
    by = delta - chunk.delta
    return _Chunk(
        delta,
        [_shift(e, by) for e in chunk.entries],
        [_shift(d, by) for d in chunk.directives],
        {name: _shift_any(items, by) for name, items in chunk.extras.items()},
    )


def _shift(obj: Any, by: int) -> Any:
    """A copy of a model object with every span (and line number) ``by`` lines further down."""
    cls = obj.__class__
    shifter = _SHIFTERS.get(cls)
    if shifter is None:
        shifter = _SHIFTERS[cls] = _make_shifter(cls)
    return shifter(obj, by)


def _span_expr(v: str) -> str:
    return f"_S({v}.line + by, {v}.column, {v}.end_line + by, {v}.end_column)"


def _make_shifter(cls: type) -> _Shifter:
    if cls is Span:
        return lambda s, by: Span(s.line + by, s.column, s.end_line + by, s.end_column)
    if not dataclasses.is_dataclass(cls):
        return lambda o, by: o
    hints = typing.get_type_hints(cls)
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    body = ["def shift(o, by):", "    n = _new(_cls)"]
    for f in dataclasses.fields(cls):
        hint = hints.get(f.name)
        args = typing.get_args(hint)
        value = f"o.{f.name}"
        origin = typing.get_origin(hint)
        if cls is Choice and f.name in _CHOICE_SPANS:  # worked out from the unshifted source, then moved
            expr = _CHOICE_SPANS[f.name]
        elif hint is Span:
            expr = _span_expr(value)
        elif origin is list and args == (Span,):
            expr = f"[{_span_expr('x')} for x in {value}]"
        elif origin is list and args and dataclasses.is_dataclass(args[0]):
            expr = f"[_shift(x, by) for x in {value}]"
        elif args and set(args) == {Span, type(None)}:
            expr = f"None if {value} is None else {_span_expr(value)}"
        elif f.name in _LINE_FIELDS and hint is int:
            expr = f"{value} + by"
        elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
            expr = f"_shift({value}, by)"
        elif hint in _PLAIN_HINTS or (args and set(args) <= _PLAIN_HINTS):
            expr = value
        else:  # anything else: walk it at run time
            expr = f"_shift_any({value}, by)"
        body.append(f"    _set(n, {f.name!r}, {expr})" if frozen else f"    n.{f.name} = {expr}")
    body.append("    return n")
    scope: dict[str, Any] = {"_S": Span, "_new": object.__new__, "_cls": cls, "_shift": _shift,
                             "_set": object.__setattr__, "_shift_any": _shift_any}
    exec("\n".join(body), scope)  # generated from the model class's own fields, nothing else
    shifter: _Shifter = scope["shift"]
    return shifter


def _shift_any(value: Any, by: int) -> Any:
    if isinstance(value, Span):  # a named tuple: check before plain tuples
        return Span(value.line + by, value.column, value.end_line + by, value.end_column)
    if isinstance(value, list):
        return [_shift_any(x, by) for x in value]
    if isinstance(value, tuple):
        return tuple(_shift_any(x, by) for x in value)
    if isinstance(value, dict):
        return {k: _shift_any(v, by) for k, v in value.items()}
    return _shift(value, by)
