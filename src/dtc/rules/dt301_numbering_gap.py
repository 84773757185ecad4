from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from dtc.diagnostics import Diagnostic, Severity
from dtc.rules.base import Context, Rule, rule


@rule("DT301", "numbering-gap", Severity.INFO)
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
    Renumber (`dtc renumber`), or fill the gap.
    """
    doc = ctx.doc
    numbered = sorted((n, i) for n, i in ctx.res.by_number.items() if isinstance(doc.entries[i].number, int))
    for (a, _), (b, i) in pairwise(numbered):
        if b - a > 1:
            missing = f"{a + 1}" if b - a == 2 else f"{a + 1}–{b - 1}"
            yield self.diag(ctx, f"no entry numbered {missing}", doc.entries[i].span, b)
