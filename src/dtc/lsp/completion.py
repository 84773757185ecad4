"""Completion: abilities and difficulties at the start of notation, entry numbers after ``S``/``F``
and after "go to", each entry shown with its opening words."""

from __future__ import annotations

import re

from lsprotocol import types

from dtc.compiler.entries import EXIT_VERBS
from dtc.diagnostics import Span
from dtc.lsp.workspace import Snapshot, first_lines

_OPEN = re.compile(r"\(([^()]*)$")
_TAIL_WORD = re.compile(r"[^\W_]*$")
_TAIL_TARGET = re.compile(r"([SsFf]?)[ \t]*([0-9]*)$")
_PROSE = re.compile(
    rf"\b{EXIT_VERBS}\s+(?:entry\s+|section\s+|paragraph\s+)?([0-9]*)$",
    re.I,
)
_DIFFICULTY = re.compile(r"[Dd][ \t]*[0-9]+")

#: Trigger characters: the comma before a target, the space after "to", the opening parenthesis.
TRIGGERS = ["(", ",", " "]


def _edit(snap: Snapshot, line: int, start_col: int, end_col: int, text: str) -> types.TextEdit:
    return types.TextEdit(snap.lines.range(Span(line, start_col, line, end_col)), text)


def _entries(snap: Snapshot, line: int, start_col: int, end_col: int, prefix: str) -> list[types.CompletionItem]:
    res = snap.comp.resolved
    items = []
    for number, i in sorted(res.by_number.items()):
        entry = snap.doc.entries[i]
        label = f"{prefix}{number}"
        items.append(
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind.Reference,
                detail=" ".join(first_lines(entry, limit=1, width=70).split()),
                sort_text=f"{number:09d}",
                filter_text=label,
                text_edit=_edit(snap, line, start_col, end_col, label),
            )
        )
    return items


def _abilities(snap: Snapshot, line: int, start_col: int, end_col: int, inner: str) -> list[types.CompletionItem]:
    items: list[types.CompletionItem] = []
    ruleset = snap.ruleset
    has_ability = bool(re.match(r"\s*[^\W\d_]{2,}\s", inner))
    if ruleset is not None and not has_ability:
        long_names = {canon: alias for alias, canon in ruleset.abilities.items() if alias != canon}
        for name in ruleset.ability_names:
            items.append(
                types.CompletionItem(
                    label=name,
                    kind=types.CompletionItemKind.Variable,
                    detail=long_names.get(name, name).title(),
                    sort_text=f"1{name}",
                    text_edit=_edit(snap, line, start_col, end_col, name),
                )
            )
    difficulties = ruleset.difficulties if ruleset is not None else (0, 1, 2, 3)
    for d in difficulties:
        items.append(
            types.CompletionItem(
                label=f"D{d}",
                kind=types.CompletionItemKind.EnumMember,
                detail="no check" if d == 0 else f"difficulty {d}",
                sort_text=f"0D{d}",
                text_edit=_edit(snap, line, start_col, end_col, f"D{d}"),
            )
        )
    return items


def complete(snap: Snapshot, line: int, column: int) -> types.CompletionList:
    """Items for the caret at 1-based ``line``/``column`` (the caret stands before ``column``)."""
    before = snap.lines.line(line)[: column - 1]
    items: list[types.CompletionItem] = []
    opened = _OPEN.search(before)
    if opened is not None:
        inner = opened.group(1)
        commas = inner.count(",")
        if commas == 0 and not _DIFFICULTY.search(inner):
            word = _TAIL_WORD.search(inner)
            start = column - (len(word.group(0)) if word else 0)
            items = _abilities(snap, line, start, column, inner)
        elif commas in (1, 2):
            tail = _TAIL_TARGET.search(inner)
            start = column - (len(tail.group(0)) if tail else 0)
            items = _entries(snap, line, start, column, "S" if commas == 1 else "F")
    else:
        prose = _PROSE.search(before)
        if prose is not None:
            items = _entries(snap, line, column - len(prose.group(1)), column, "")
    return types.CompletionList(is_incomplete=False, items=items)
