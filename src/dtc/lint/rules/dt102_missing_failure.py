from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT102", "missing-failure", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A check (difficulty 1 or more) with no failure entry.

    ## What it finds
    A choice such as `(DEX D2, S13)` whose difficulty calls for a roll but which gives no
    `F` entry.

    ## Why it matters
    A reader who fails the roll has nowhere to go: the book stops dead at the worst moment.

    ## Example
    ```
    12 The bridge sways. Cross it (DEX D2, S13).
    ```

    ## Fix
    Add the failure entry, `(DEX D2, S13, F14)`, or make the move free with `D0`.
    """
    for number, c in ctx.choices:
        if c.difficulty and c.failure is None and c.error is None:
            yield self.diag(
                ctx, f"D{c.difficulty} check {c.text} has no failure entry (F<n>)", c.span, number
            )
