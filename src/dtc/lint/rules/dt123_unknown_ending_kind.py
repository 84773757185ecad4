from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import get_close_matches

from dtc.compiler.entries import ENDING_BEFORE
from dtc.diagnostics import Diagnostic, Edit, Fix, Severity, Span
from dtc.lint.rules.base import Context, Rule, rule

#: The kinds of ending dtc knows (``THE END (death)``, ``THE END (victory)``).
KINDS = ("death", "victory")
#: Words whose kind is plain: the fix writes the kind for them.
SYNONYMS = {
    **dict.fromkeys(("win", "won", "wins", "winner", "winning", "victorious", "triumph", "success", "successful"),
                    "victory"),
    **dict.fromkeys(("dead", "died", "die", "dies", "killed", "slain", "deaths"), "death"),
}
#: ``THE END (win)``, or ``The End (win).`` as a sentence of its own: one word in parentheses where
#: the kind goes, the sentence ending there.
KIND_LIKE = re.compile(
    r"\b(?P<end>THE[ \t]+END|[Tt]he[ \t]+[Ee]nd)[ \t]*\([ \t]*(?P<word>[A-Za-z]{1,20})[ \t]*\)"
    r"(?=[.!*_]*[ \t]*(?:\n|$))"
)


@rule("DT123", "unknown-ending-kind", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An ending that names a kind dtc does not know.

    ## What it finds
    `THE END (win)`, or `The End (won).` as a sentence of its own: one word in parentheses
    where an ending's kind goes, when the word is neither `death` nor `victory` (any case) and
    is meant as a kind: a word that plainly means one (below), a slip of one (`victroy`), or
    any word in a book that marks another ending with a kind. `THE END (Epilogue)` in a book
    whose endings have no kinds is a heading, not a kind, and is left alone.

    ## Why it matters
    dtc knows two kinds of ending. `THE END (win)` is an ending of no kind, so `dtc play` does
    not end the run `won:`, `dtc simulate` does not count a victory and no-victory (DT215) does
    not see it; `The End (win).` in any case but capitals is not even an ending (the sentence
    form takes only the two kinds), so the entry is a dead end.

    ## Example
    ```
    9 The bell rings out over the valley. THE END (win)
    ```

    ## Fix
    Write `THE END (victory)` or `THE END (death)`. Where the word plainly means one of them
    (`win`, `won`, `victorious`, `success`; `dead`, `died`, `killed`, `slain`), or is one with
    its letters swapped (`victroy`), the fix on offer writes it, and is safe (`dtc lint --fix`).
    """
    lines = ctx.lines
    if lines is None:
        return
    text = lines.text
    # the whole text first: most books have no such ending, and then no entry is read (the
    # language server keeps entries it is not asked for where they were parsed)
    if not any(m.group("word").lower() not in KINDS for m in KIND_LIKE.finditer(text)):
        return
    entries = ctx.doc.entries
    numbers = ctx.res.numbers
    kinds_used = any(e.ending_kind is not None for e in entries)
    for i, entry in enumerate(entries):
        if "(" not in entry.text:
            continue
        lo = lines.offset(entry.span.line, entry.span.column)
        hi = lines.offset(entry.end_line + 1, 1) if entry.end_line < len(lines.starts) else len(text)
        for m in KIND_LIKE.finditer(text, lo, hi):
            word = m.group("word")
            if word.lower() in KINDS or not (kinds_used or _meant_as_kind(word)):
                continue
            capitals = m.group("end").startswith("THE")
            if not capitals and not ENDING_BEFORE.search(text, max(lo, m.start() - 8), m.start()):
                continue  # "the end (really)" inside a sentence: prose
            start, end = lines.position(m.start("word")), lines.position(m.end("word"))
            span = Span(start[0], start[1], end[0], end[1])
            kind = SYNONYMS.get(word.lower()) or next((k for k in KINDS if sorted(k) == sorted(word.lower())), None)
            shown = f"{m.group('end')} ({word})"
            what = ("an ending of no kind" if capitals else
                    "no ending at all (the sentence form takes only these kinds)")
            message = (f"'{shown}' names no kind of ending dtc knows ({', '.join(KINDS)}), so entry "
                       f"{numbers[i]} is {what}: write {m.group('end')} ({kind or 'victory'})"
                       + ("" if kind else f" or {m.group('end')} (death)"))
            fix = None if kind is None else Fix(f"Write ({kind})", (Edit(span, kind),))
            yield self.diag(ctx, message, span, numbers[i], fix)


def _meant_as_kind(word: str) -> bool:
    """A word that means a kind (``win``) or is a slip of one (``victroy``, ``deaht``)."""
    low = word.lower()
    return low in SYNONYMS or bool(get_close_matches(low, KINDS, n=1, cutoff=0.7))
