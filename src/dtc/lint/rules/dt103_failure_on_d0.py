from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT103", "failure-on-d0", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A difficulty-0 choice that gives a failure entry.

    ## What it finds
    `(D0, S5, F6)`: difficulty 0 means no roll, so the `F` entry can never be read.

    ## Why it matters
    Either the failure entry is unreachable from here, or the author meant a real check and
    wrote the wrong difficulty — both are mistakes a reader will hit.

    ## Example
    ```
    4 A door stands ajar (D0, S5, F6).
    ```

    ## Fix
    Drop the failure, `(D0, S5)`, or give the check a difficulty: `(D1, S5, F6)`.
    """
    for number, c in ctx.choices:
        if c.difficulty == 0 and c.failure is not None:
            yield self.diag(
                ctx,
                f"D0 choice {c.text} has a failure entry, which can never be read",
                c.failure_span or c.span,
                number,
            )
