"""Completion: abilities and difficulties at the start of notation, entry numbers after ``S``/``F``
and after "go to", each entry shown with its opening words; possession and flag names in a
condition (``if st|``, ``and not |``) and in effects (``[+|``, ``[-10 |``)."""

from __future__ import annotations

import re

from lsprotocol import types

from dtc.compiler.entries import EXIT_VERBS
from dtc.diagnostics import Span
from dtc.lsp.workspace import Snapshot, first_lines, unmoved

_OPEN = re.compile(r"\(([^()]*)$")
_TAIL_WORD = re.compile(r"[^\W_]*$")
_TAIL_TARGET = re.compile(r"([SsFf]?)[ \t]*([0-9]*)$")
_PROSE = re.compile(
    rf"\b{EXIT_VERBS}\s+(?:entry\s+|section\s+|paragraph\s+)?([0-9]*)$",
    re.I,
)
_DIFFICULTY = re.compile(r"[Dd][ \t]*[0-9]+")
#: The caret after ``if``/``and``/``or``/``not`` (and a count) in a condition: a name is wanted.
#: What may stand between an effect's sign and its name: a count, dice (``1d10*3``), ``all``, ``once``.
_AMOUNT = r"(?:(?:[0-9]*[dD][0-9]+(?:[ \t]*[*×x][ \t]*[0-9]+)?|[0-9]+|all)[ \t]+)?(?:once[ \t]+)?"
_CONDITION_NAME = re.compile(r",[^,]*\bif\b(?:.*\b(?:and|or|not)\b)?[ \t]+(?:[0-9]+[ \t]+)?([\w'’ -]*)$", re.I)
#: The caret inside an effect after its sign (and count): ``[+st``, ``[+stone key, -10 co``.
_EFFECT_NAME = re.compile(r"\[(?:[ \t]*may\b)?(?:[^\[\]]*,)?[ \t]*[+-][ \t]*(?:" + _AMOUNT + r")?([\w'’ -]*)$", re.I)
#: An effect or a price inside a choice's notation: ``(D0, S37, -3 gold cr``, ``(D0, S4, buy 4 go``.
_CHOICE_EFFECT = re.compile(r",[ \t]*(?:buy[ \t]+(?:[0-9]+[ \t]+)?|[+-][ \t]*(?:" + _AMOUNT + r")?)([\w'’ -]*)$", re.I)

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
                detail="no check" if d == 0 else _difficulty_words(snap, d),
                sort_text=f"0D{d}",
                text_edit=_edit(snap, line, start_col, end_col, f"D{d}"),
            )
        )
    return items


def _difficulty_words(snap: Snapshot, difficulty: int) -> str:
    """``difficulty 2: roll 2d6 and add the ability's bonus: 10 or more succeeds``: the game system's
    own words for the roll (roll-high or roll-under), never another system's."""
    from dtc.lsp.hover import roll_words

    ruleset = snap.ruleset
    words = roll_words(ruleset, None, difficulty, "the ability") if ruleset is not None else ""
    return f"difficulty {difficulty}: {words}" if words else f"difficulty {difficulty}"


def _possessions(snap: Snapshot, line: int, start_col: int, end_col: int,
                 loss: bool = False) -> list[types.CompletionItem]:
    """Every possession or flag the book gives or tests, with where it is first given; in a loss,
    the book's containers too (``-all backpack``, ``-1 item of choice from backpack``)."""
    found: dict[str, str] = {}
    if loss:
        for box, members in snap.doc.containers.items():
            found.setdefault(box, f"a container: {', '.join(members)}")
            found.setdefault(f"item of choice from {box}", f"one of what the {box} holds, the reader's choice")
    for name, _ in snap.doc.start_with:
        found.setdefault(name, "held from the start (Start with:)")
    for entry in unmoved(snap.doc.entries):  # no position is read: no entry need be moved
        for ch in [*entry.changes, *(x for c in entry.choices for x in c.changes)]:
            if ch.amount > 0:
                found.setdefault(ch.name, f"given in entry {entry.number}")
    scores = snap.doc.scores
    for entry in unmoved(snap.doc.entries):
        for c in entry.choices:
            if c.condition is not None:
                from dtc.compiler.notation import cond_names

                for name in cond_names(c.condition, scores):
                    found.setdefault(name, "tested, never given")
    return [
        types.CompletionItem(label=name, kind=types.CompletionItemKind.Value, detail=detail, sort_text=name,
                             text_edit=_edit(snap, line, start_col, end_col, name))
        for name, detail in sorted(found.items())
    ]


def complete(snap: Snapshot, line: int, column: int) -> types.CompletionList:
    """Items for the caret at 1-based ``line``/``column`` (the caret stands before ``column``)."""
    before = snap.lines.line(line)[: column - 1]
    items: list[types.CompletionItem] = []
    opened = _OPEN.search(before)
    condition = _CONDITION_NAME.search(opened.group(0)) if opened is not None else None
    effect = _EFFECT_NAME.search(before) if "[" in before else None
    if effect is None and condition is None and opened is not None and opened.group(1).count(",") >= 2:
        effect = _CHOICE_EFFECT.search(opened.group(0))  # ``(D0, S37, -3 gold cr``
    if condition is not None or effect is not None:
        name = (condition or effect)
        assert name is not None
        part = name.group(0)[: len(name.group(0)) - len(name.group(1))].rsplit(",", 1)[-1]
        items = _possessions(snap, line, column - len(name.group(1)), column, condition is None and "-" in part)
    elif opened is not None:
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
