from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT304", "adjacent-outcomes", Severity.INFO, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A check whose success and failure entries are consecutive numbers.

    ## What it finds
    `(D1, S5, F6)`: the two outcomes sit next to each other.

    ## Why it matters
    In print they share a page or spread, so a reader sees the outcome before rolling.
    `dtc renumber --shuffle` spreads them apart.

    ## Example
    ```
    2 A grid of squares (D1, S5, F6).
    ```

    ## Fix
    Move one outcome to a distant number, or let `dtc renumber --shuffle` do it.
    """
    for number, c in ctx.choices:
        if isinstance(c.success, int) and isinstance(c.failure, int) and abs(c.success - c.failure) == 1:
            yield self.diag(ctx, f"outcomes S{c.success} and F{c.failure} are adjacent numbers", c.span,
                            number)
