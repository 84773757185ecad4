from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT106", "duplicate-entry", Severity.ERROR, reads=SHAPE, quotes_lines=True)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """Two entries with the same number.

    ## What it finds
    An entry whose number (or `@label`) was already used by an earlier entry. Each later copy
    is reported, pointing back at the first.

    ## Why it matters
    A reader told to turn to that number finds two texts; dtc follows the first, so the
    second is never read.

    ## Example
    ```
    12 A narrow stair.
    12 A collapsed hall.
    ```

    ## Fix
    Renumber one of them and update the references to it.
    """
    doc, res = ctx.doc, ctx.res
    by_number = res.by_number
    if len(by_number) == len(res.numbers):  # every number once
        return
    for i, number in enumerate(res.numbers):
        first = by_number[number]
        if first != i:
            entry = doc.entries[i]
            head = doc.entries[first].span
            yield self.diag(
                ctx, f"entry {entry.number} is already defined at line {head.line}", entry.span, res.numbers[i]
            )
