from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT202", "dead-end", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry with no exits that is not an ending.

    ## What it finds
    An entry with no choice notation, no prose exit and no "return to your most recent
    entry", that does not say THE END.

    ## Why it matters
    The reader is left with nothing to do: the book simply stops.

    ## Example
    ```
    22 You find a stone key and 50 coins.
    ```

    ## Fix
    Give the entry a way on (`Return to 17.` or `(D0, S17)`), or end it with THE END.
    """
    for i, number in ctx.entries_of(ctx.analysis.dead_ends):
        yield self.diag(ctx, f"entry {number} has no exits and is not an ending", ctx.doc.entries[i].span,
                        number)
