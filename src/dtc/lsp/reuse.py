"""Findings of the whole-book rules kept from one version of a document to the next.

Most edits leave the *shape* of the book alone: what every entry says apart from its prose and
its place (numbers, choices, exits, gates, effects, stat blocks, comment lines, endings). A rule
that reads nothing but the shape finds the same things after such an edit, at places moved by
the lines the edit added or removed. So the language server keeps each such rule's findings,
and after an edit that keeps the shape it moves them instead of running the rule again; the rule
runs again when the shape changed, when a finding (its span, a step of its route, an edit of
its fix) lies in the changed lines, or when the configuration changed.

Which rules read only the shape is each rule's own declaration (``reads`` on its registration,
see :mod:`dtc.lint.rules.base`): ``reads=SHAPE`` rules are kept so; ``reads=CONTENT`` rules are
kept also across an edit that changes the shape but not what they read (:func:`content`); a rule
that declares nothing (``EVERYTHING``: prose text, comment lines, places) runs on every edit.
Rules whose messages quote a line number (``quotes_lines=True``) are kept only while they find
nothing: whether they find anything depends on the shape alone, but what they say depends on
places. Rules kept per stretch of text (``reads=ENTRY`` and ``TARGETS``: the incremental
parser's local rules) are not handled here. ``tests/test_incremental.py`` holds the findings
equal to a fresh lint after random edits, and ``tests/test_rules_read.py`` after each kind of
edit under every rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from dtc import numbers
from dtc.compiler.compile import Resolved
from dtc.compiler.model import Entry
from dtc.diagnostics import Diagnostic, Edit, Span, Step
from dtc.lint.rules import Context, Rule
from dtc.lint.rules.base import CONTENT, SHAPE
from dtc.lsp.incremental import Edited
from dtc.lsp.incremental import without_places as shape

#: (index of the first changed line, 0-based; how many lines it replaced; lines added or removed).
Moved = tuple[int, int, int]


def content(entry: Entry) -> tuple[object, ...] | None:
    """What a ``reads=CONTENT`` rule reads of an entry, without places (None: nothing). Such a rule
    is kept across an edit that changes the shape but none of this, the document-level items, the
    labels or which entries share a number (an entry deleted or pasted)."""
    big = any((c.difficulty is not None and c.difficulty > numbers.DIFFICULTY)
              or (c.success.__class__ is int and c.success > numbers.ENTRY)
              or (c.failure.__class__ is int and c.failure > numbers.ENTRY)
              for c in entry.choices) or any(isinstance(p.target, int) and p.target > numbers.ENTRY
                                             for p in entry.prose_exits)
    if not (big or entry.creatures or entry.mentions or entry.fight_mentions or entry.zone is not None
            or entry.zone_span is not None or entry.hazard_refs or entry.effect_errors):
        return None
    return (entry.number, big, shape(entry.creatures), shape(entry.mentions), shape(entry.fight_mentions),
            entry.zone, entry.zone_span is None, shape(entry.hazard_refs), shape(entry.effect_errors))


class Kept:
    """The kept findings of one document's whole-book rules."""

    def __init__(self) -> None:
        self._key: object = None
        self._found: dict[str, list[Diagnostic]] = {}
        self._res: Resolved | None = None

    def findings(self, ctx: Context, rules: Iterable[Rule], key: object, edited: Edited | None,
                 skip: Iterable[str] = ()) -> dict[str, list[Diagnostic]]:
        """What each of ``rules`` that reads only the shape or the content (but those in
        ``skip``) finds in ``ctx``: kept findings moved by the edit when ``key`` (the
        configuration) is the same as last time and the edit left what the rule reads alone, else
        the rule's run. Returns those rules' findings by code; any other rule is left to run."""
        skipped = frozenset(skip)
        same = edited is not None and key == self._key
        kept = self._found if same else {}
        whole = same and edited is not None and edited.same_shape
        part = whole or (same and edited is not None and self._content_kept(ctx.res, edited))
        out: dict[str, list[Diagnostic]] = {}
        for r in rules:
            code = r.code
            if code in skipped or r.reads not in (SHAPE, CONTENT):
                continue
            found = kept.get(code) if whole or (part and r.reads == CONTENT) else None
            if found:
                assert edited is not None
                found = None if r.quotes_lines else _moved_all(found, edited.moved)
            if found is None:
                found = list(r.run(ctx))
            out[code] = found
        self._key = key
        self._found = out
        self._res = ctx.res
        return out

    def _content_kept(self, res: Resolved, edited: Edited) -> bool:
        """Whether an edit that changed the shape left alone what ``reads=CONTENT`` rules read."""
        before = self._res
        if before is None or not edited.same_extras or before.labels != res.labels:
            return False
        old = [c for c in map(content, edited.removed) if c is not None]
        new = [c for c in map(content, edited.added) if c is not None]
        if old != new:
            return False
        # No entry removed or added shares its number with another (which one counts may change).
        labels = res.labels
        return (all(labels.get(e.number, 0) not in res.by_number if isinstance(e.number, str)
                    else e.number not in res.by_number for e in edited.removed)
                and all(labels.get(e.number, 0) not in before.by_number if isinstance(e.number, str)
                        else e.number not in before.by_number for e in edited.added))

    def clear(self) -> None:
        self._key = None
        self._found = {}
        self._res = None


def _moved_all(found: list[Diagnostic], moved: Moved) -> list[Diagnostic] | None:
    """The findings at their new places; None when one of them lies in the changed lines."""
    first, replaced, shift = moved
    if not shift:
        # Nothing moved: only the changed lines matter.
        for d in found:
            if _touches(d, first, replaced):
                return None
        return found
    out = []
    for d in found:
        m = _move(d, first, replaced, shift)
        if m is None:
            return None
        out.append(m)
    return out


def _touches(d: Diagnostic, first: int, replaced: int) -> bool:
    return any(first < s.end_line and s.line <= first + replaced for s in _spans(d))


def _spans(d: Diagnostic) -> list[Span]:
    spans = [d.span]
    if d.fix is not None:
        spans.extend(e.span for e in d.fix.edits)
    if d.witness:
        spans.extend(s.span for s in d.witness)
    return spans


def _move_span(s: Span, first: int, replaced: int, shift: int) -> Span | None:
    """``s`` in the new text, or None if it touches the changed lines (1-based lines ``first +
    1`` to ``first + replaced``, and for an insertion the line before, whose end may have run on)."""
    if s.end_line <= first:
        return s
    if s.line > first + replaced:
        return Span(s.line + shift, s.column, s.end_line + shift, s.end_column)
    return None


def _move(d: Diagnostic, first: int, replaced: int, shift: int) -> Diagnostic | None:
    span = _move_span(d.span, first, replaced, shift)
    if span is None:
        return None
    changes: dict[str, Any] = {"span": span}
    if d.fix is not None:
        edits = []
        for e in d.fix.edits:
            s = _move_span(e.span, first, replaced, shift)
            if s is None:
                return None
            edits.append(Edit(s, e.replacement))
        changes["fix"] = dataclasses.replace(d.fix, edits=tuple(edits))
    if d.witness:
        steps = []
        for step in d.witness:
            s = _move_span(step.span, first, replaced, shift)
            if s is None:
                return None
            steps.append(Step(step.entry, step.taken, s))
        changes["witness"] = tuple(steps)
    return dataclasses.replace(d, **changes)
