"""Code actions: write a stub for a missing entry (DT107), put the commas into notation such as
``(D1 S5 F6)`` (DT101), begin a missing entry's text read as prose with a capital letter (DT118),
and silence a warning for one entry with a suppression comment."""

from __future__ import annotations

import re

from lsprotocol import types

from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lsp.positions import contains, overlaps
from dtc.lsp.workspace import Snapshot
from dtc.model import Choice, Target
from dtc.notation import Parsed, parse_notation
from dtc.parse import ENTRY_HEAD
from dtc.suppress import directive_for

_SPACES = "\t \u00a0\u2000-\u200b\u202f\u205f\u3000"
_TOKENS = re.compile(
    rf"(?P<ability>[^\W\d_]+(?![{_SPACES}]*[0-9@]))|(?P<d>[Dd][{_SPACES}]*[0-9]+)"
    rf"|(?P<s>[Ss][{_SPACES}]*(?:[0-9]+|@[A-Za-z][\w-]*))|(?P<f>[Ff][{_SPACES}]*(?:[0-9]+|@[A-Za-z][\w-]*))"
    rf"|(?P<sep>[,{_SPACES}]+)"
)
STUB = "{number} TODO: write this entry."


def fix_commas(text: str) -> str | None:
    """``(DEX D2 S13 F14)`` -> ``(DEX D2, S13, F14)``; None when commas alone do not fix it."""
    if not (text.startswith("(") and text.endswith(")")):
        return None
    inner = text[1:-1]
    pos = 0
    found: list[tuple[str, str]] = []
    while pos < len(inner):
        m = _TOKENS.match(inner, pos)
        if m is None:
            return None
        kind = m.lastgroup
        assert kind is not None
        if kind != "sep":
            found.append((kind, m.group(0)))
        pos = m.end()
    kinds = [k for k, _ in found]
    if kinds not in (["d", "s"], ["d", "s", "f"], ["ability", "d", "s"], ["ability", "d", "s", "f"]):
        return None
    words = [t for _, t in found]
    head = " ".join(words[:2]) if kinds[0] == "ability" else words[0]
    rest = words[2:] if kinds[0] == "ability" else words[1:]
    fixed = "(" + ", ".join([head, *rest]) + ")"
    return fixed if fixed != text and isinstance(parse_notation(fixed), Parsed) else None


def _insert(snap: Snapshot, line: int, column: int, text: str) -> types.TextEdit:
    pos = snap.lines.to_lsp(line, column)
    return types.TextEdit(types.Range(pos, pos), text)


def _stub_edit(snap: Snapshot, target: Target) -> types.TextEdit:
    """Insert a stub entry in number order (a label at the end of the file)."""
    res, doc = snap.comp.resolved, snap.doc
    stub = STUB.format(number=target)
    after: int | None = None  # index of the entry to insert after
    if isinstance(target, int):
        lower = [(n, i) for i, n in enumerate(res.numbers) if n < target]
        if lower:
            after = max(lower)[1]
        elif doc.entries:
            first = doc.entries[0].span.line
            return _insert(snap, first, 1, f"{stub}\n\n")
    elif doc.entries:
        after = len(doc.entries) - 1
    if after is None:
        last = len(snap.lines.lines)
        return _insert(snap, last, len(snap.lines.line(last)) + 1, f"\n\n{stub}\n")
    end = _last_line(snap, after)
    return _insert(snap, end, len(snap.lines.line(end)) + 1, f"\n\n{stub}")


def _lsp_diag(snap: Snapshot, d: Diagnostic, published: list[types.Diagnostic]) -> list[types.Diagnostic]:
    """The client's copy of a finding, so the action is tied to the squiggle it fixes."""
    rng = snap.lines.range(d.span)
    return [p for p in published if p.code == d.code and p.range == rng]


def _action(title: str, snap: Snapshot, edits: list[types.TextEdit], diags: list[types.Diagnostic],
            preferred: bool = False) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=diags or None,
        is_preferred=preferred or None,
        edit=types.WorkspaceEdit(changes={snap.uri: edits}),
    )


def _last_line(snap: Snapshot, index: int) -> int:
    """The last line of an entry, comment lines after its text included."""
    lines = [snap.doc.entries[index].end_line]
    lines += [d.span.line for d in snap.doc.directives if d.entry_index == index]
    return max(lines)


def _choice_at(snap: Snapshot, d: Diagnostic) -> Choice | None:
    index = snap.entry_at(d.span.line)
    if index is None:
        return None
    for c in snap.doc.entries[index].choices:
        if c.error is not None and contains(c.span, d.span.line, d.span.column):
            return c
    return None


def code_actions(snap: Snapshot, span: Span, published: list[types.Diagnostic]) -> list[types.CodeAction]:
    first, last = (span.line, span.column), (span.end_line, span.end_column)
    actions: list[types.CodeAction] = []
    stubbed: set[str] = set()
    for d in snap.diagnostics:
        if not overlaps(d.span, first, last):
            continue
        if d.code == "DT107":
            target = _dangling_target(snap, d)
            if target is not None and str(target) not in stubbed:
                stubbed.add(str(target))
                actions.append(_action(f"Create entry {target}", snap, [_stub_edit(snap, target)],
                                       _lsp_diag(snap, d, published), preferred=True))
        elif d.code == "DT101":
            c = _choice_at(snap, d)
            fixed = None if c is None else fix_commas(c.text)
            if c is not None and fixed is not None:
                edit = types.TextEdit(snap.lines.range(c.span), fixed)
                actions.append(_action(f"Insert the missing commas: {fixed}", snap, [edit],
                                       _lsp_diag(snap, d, published), preferred=True))
        elif d.code == "DT118":
            capital = _capitalise(snap, d)
            if capital is not None:
                actions.append(_action(f"Start entry {capital[0]} here: '{capital[1]}'", snap, [capital[2]],
                                       _lsp_diag(snap, d, published), preferred=True))
        if d.severity is not Severity.ERROR and d.entry is not None and d.code not in ("DT401", "DT402"):
            index = snap.entry_at(d.span.line)
            if index is not None:
                actions.append(_suppress_action(snap, d, index, published))
    return actions


def _capitalise(snap: Snapshot, d: Diagnostic) -> tuple[str, str, types.TextEdit] | None:
    """(number, the first word capitalised, the edit) for a head read as prose (DT118)."""
    line = snap.lines.line(d.span.line)
    head = ENTRY_HEAD.match(line)
    if head is None or not line[head.end() : head.end() + 1].islower():
        return None
    at = head.end()
    word = line[at:].split(None, 1)[0]
    start = snap.lines.to_lsp(d.span.line, at + 1)
    end = snap.lines.to_lsp(d.span.line, at + 2)
    return head.group(1), word[:1].upper() + word[1:], types.TextEdit(types.Range(start, end), line[at].upper())


def _dangling_target(snap: Snapshot, d: Diagnostic) -> Target | None:
    res = snap.comp.resolved
    for i, exits in enumerate(res.exits):
        for x in exits:
            if res.target_number(x.target) is None and res.exit_span(i, x) == d.span:
                return x.target
    return None


def _suppress_action(snap: Snapshot, d: Diagnostic, index: int, published: list[types.Diagnostic]) -> types.CodeAction:
    end = _last_line(snap, index)
    edit = _insert(snap, end, len(snap.lines.line(end)) + 1, "\n" + directive_for([d.code]))
    return _action(f"Ignore {d.code} ({d.rule}) in entry {snap.number_of(index)}", snap, [edit],
                   _lsp_diag(snap, d, published))
