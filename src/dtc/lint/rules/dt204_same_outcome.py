from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT204", "same-outcome", Severity.WARNING, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A check whose success and failure lead to the same entry.

    ## What it finds
    `(DEX D2, S14, F14)`: both outcomes go to one entry.

    ## Why it matters
    The roll decides nothing, yet costs the reader a turn or risk; usually a typo in one
    of the numbers.

    ## Example
    ```
    8 Leap the gap (DEX D2, S14, F14).
    ```

    ## Fix
    Point the failure at its own entry, or make the move `D0` if it cannot fail.
    """
    for number, c in ctx.choices:
        if c.failure is not None and c.success == c.failure:
            yield self.diag(ctx, f"success and failure both lead to entry {c.success}", c.span,
                            number)
