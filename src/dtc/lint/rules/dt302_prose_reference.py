from __future__ import annotations

import re
from collections.abc import Iterator

from dtc.compiler.read_effects import WIN
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import TARGETS, Context, Rule, rule


@rule("DT302", "prose-reference", Severity.INFO, reads=TARGETS)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An exit written only in prose.

    ## What it finds
    "Return to 17", "go to 17", "skip to 17", "turn to 17", "read entry 17" where the entry
    has no notation exit to 17.

    Silent on the exit of a sentence that opens "If you win" (or succeed, survive, defeat, kill,
    prevail), "If victorious", "When you win" or "On a success": "If you win, go to 31" is the
    form dtc reads a fight's or a check's way on from (docs/format.md), not a choice to write
    in notation.

    ## Why it matters
    dtc follows it, but readers skimming for bold choices may miss it, and a prose exit
    carries no difficulty. Fine for "return" moments.

    ## Example
    ```
    21 You find frog stew. Return to 17.
    ```

    When the sentence makes the exit depend on what the reader has ("If you have the key,
    go to 21"), the message suggests the condition in notation, `(D0, S21, if key)`: dtc does
    not guess conditions from prose, so until then the exit is open to every reader.

    ## Fix
    Nothing, if intended; or write it as notation: `Back to the hall (D0, S17).`, and
    `The Stone Door (D0, S21, if stone key)` for an exit that needs something.
    """
    res = ctx.res
    for i, entry in enumerate(ctx.doc.entries):
        if not entry.prose_exits:
            continue
        notation = {res.labels.get(str(t), t) for c in entry.choices for t in (c.success, c.failure) if t is not None}
        notation |= {res.labels.get(str(b.target), b.target) for c in entry.choices if c.roll for b in c.roll.branches}
        for p in entry.prose_exits:
            if p.fight is not None:
                continue  # ``win S13`` in a stat block: notation, not prose
            dangling = res.target_number(p.target) is None  # dangling-reference reports it
            if res.labels.get(str(p.target), p.target) not in notation and not dangling \
                    and not _on_winning(entry.text, p.phrase):
                yield self.diag(ctx, f"exit to entry {p.target} is written only in prose ('{p.phrase}')"
                                + _condition_hint(entry.text, p.phrase, p.target), p.span, res.numbers[i])


_HAVE = re.compile(
    r"\bif\s+you\s+(?:have|hold|carry|possess|still\s+have)\s+(?:the|a|an|your)\s+"
    r"([A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,3}?)\s*,?\s*$",
    re.I,
)


def _on_winning(text: str, phrase: str) -> bool:
    """Whether ``phrase`` stands in a sentence that opens as "If you win, go to 31" does (the
    compiler's ``WIN``): the way on after a fight or a check, as the docs recommend writing it."""
    at = text.find(phrase)
    if at < 0:
        return False
    start = max(text.rfind(".", 0, at), text.rfind("!", 0, at), text.rfind("?", 0, at), text.rfind("\n", 0, at)) + 1
    return WIN.match(text[start:at]) is not None


def _condition_hint(text: str, phrase: str, target: object) -> str:
    """``; if it depends on what the reader has, write (D0, S21, if key)`` for "If you have
    the key, go to 21"; else nothing."""
    at = text.find(phrase)
    if at < 0:
        return ""
    start = max(text.rfind(".", 0, at), text.rfind("!", 0, at), text.rfind("?", 0, at)) + 1
    m = _HAVE.search(text, start, at)
    if m is None:
        return ""
    name = " ".join(m.group(1).lower().split())
    return f"; if it depends on what the reader has, write it as notation: (D0, S{target}, if {name})"
