from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import pairwise

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, forgotten_blank_line, rule


@rule("DT301", "numbering-gap", Severity.INFO, reads=SHAPE, quotes_lines=True)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """Numbers missing from the sequence of entries.

    ## What it finds
    A run of numbers between the lowest and highest entry that no entry has, reported once
    per gap at the entry after it.

    ## Why it matters
    In print, a reader who flips past a missing number suspects a misprint; often an entry
    was deleted but the references to it were not.

    ## Example
    ```
    4 ...
    7 ...
    ```
    (5 and 6 are missing).

    ## Fix
    Renumber (`dtc renumber`), or fill the gap. When a missing entry is there but was read as
    prose (a forgotten blank line before it, in a book that puts one before each entry), the
    message says where it is.
    """
    doc = ctx.doc
    swallowed = sorted(n for n in ctx.prose_heads if isinstance(n, int))  # read as prose: see the message
    labelled = set(ctx.res.labels.values())  # numbers given to labels, above every entry number
    numbered = sorted((n, i) for n, i in ctx.res.by_number.items() if n not in labelled) if labelled else (
        sorted(ctx.res.by_number.items()))
    for (a, _), (b, i) in pairwise(numbered):
        if b - a > 1:
            missing = f"{a + 1}" if b - a == 2 else f"{a + 1}–{b - 1}"
            k = bisect_right(swallowed, a)
            hint = forgotten_blank_line(ctx, swallowed[k]) if k < len(swallowed) and swallowed[k] < b else ""
            yield self.diag(ctx, f"no entry numbered {missing}{hint}", doc.entries[i].span, b)
