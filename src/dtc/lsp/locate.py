"""What stands at a position: an entry number, a choice and its targets, a prose exit."""

from __future__ import annotations

from dataclasses import dataclass

from dtc.diagnostics import Span
from dtc.lsp.positions import contains
from dtc.lsp.workspace import Snapshot
from dtc.model import Choice, Target


@dataclass(frozen=True, slots=True)
class Found:
    #: ``head`` (an entry's number), ``success``/``failure`` (a target token in notation),
    #: ``choice`` (elsewhere in a parenthetical), ``prose`` (``go to 17``), ``start`` (``Start:``).
    kind: str
    span: Span
    #: The entry the thing belongs to (for ``head``: that entry).
    index: int | None = None
    target: Target | None = None
    choice: Choice | None = None


def find(snap: Snapshot, line: int, column: int) -> Found | None:
    """The most specific thing at 1-based ``line``/``column``."""
    start = snap.doc.meta.get("start")
    if start is not None and start.span.line == line:
        value = start.value.strip()
        target: Target = int(value) if value.isdigit() else value
        return Found("start", start.span, None, target)
    index = snap.entry_at(line)
    if index is None:
        return None
    entry = snap.doc.entries[index]
    if contains(entry.span, line, column):
        return Found("head", entry.span, index, entry.number)
    for c in entry.choices:
        if not contains(c.span, line, column):
            continue
        if c.success_span is not None and contains(c.success_span, line, column):
            return Found("success", c.success_span, index, c.success, c)
        if c.failure_span is not None and contains(c.failure_span, line, column):
            return Found("failure", c.failure_span, index, c.failure, c)
        return Found("choice", c.span, index, c.success, c)
    for p in entry.prose_exits:
        if contains(p.span, line, column):
            return Found("prose", p.span, index, p.target)
    return None


def referenced_number(snap: Snapshot, found: Found) -> int | None:
    """The entry number a found thing names or is (None when it names no entry)."""
    if found.kind == "head" and found.index is not None:
        return snap.number_of(found.index)
    if found.target is None:
        return None
    return snap.comp.resolved.target_number(found.target)
