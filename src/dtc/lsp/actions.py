"""Code actions: every fix a finding carries (built by its rule, see :class:`dtc.diagnostics.Fix`),
and, for a warning or note inside an entry, a suppression comment that silences it there."""

from __future__ import annotations

from lsprotocol import types

from dtc.diagnostics import Diagnostic, Edit, Severity, Span
from dtc.lint.suppressions import directive_for
from dtc.lsp.positions import overlaps
from dtc.lsp.workspace import Snapshot


def _insert(snap: Snapshot, line: int, column: int, text: str) -> types.TextEdit:
    pos = snap.lines.to_lsp(line, column)
    return types.TextEdit(types.Range(pos, pos), text)


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


def _text_edit(snap: Snapshot, edit: Edit) -> types.TextEdit:
    return types.TextEdit(snap.lines.range(edit.span), edit.replacement)


def code_actions(snap: Snapshot, span: Span, published: list[types.Diagnostic]) -> list[types.CodeAction]:
    first, last = (span.line, span.column), (span.end_line, span.end_column)
    actions: list[types.CodeAction] = []
    offered: set[object] = set()  # one action for the same edits (two exits to one missing entry)
    for d in snap.diagnostics:
        if not overlaps(d.span, first, last):
            continue
        if d.fix is not None and d.fix.edits not in offered:
            offered.add(d.fix.edits)
            actions.append(_action(d.fix.title, snap, [_text_edit(snap, e) for e in d.fix.edits],
                                   _lsp_diag(snap, d, published), preferred=True))
        if d.severity is not Severity.ERROR and d.entry is not None and d.code not in ("DT401", "DT402"):
            index = snap.entry_at(d.span.line)
            if index is not None:
                actions.append(_suppress_action(snap, d, index, published))
    return actions


def _suppress_action(snap: Snapshot, d: Diagnostic, index: int, published: list[types.Diagnostic]) -> types.CodeAction:
    end = _last_line(snap, index)
    edit = _insert(snap, end, len(snap.lines.line(end)) + 1, "\n" + directive_for([d.code]))
    return _action(f"Ignore {d.code} ({d.rule}) in entry {snap.number_of(index)}", snap, [edit],
                   _lsp_diag(snap, d, published))
