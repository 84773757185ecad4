from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT205", "self-loop", Severity.WARNING, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A free (D0) move that leads back to the entry it is in.

    ## What it finds
    `(D0, S12)` inside entry 12.

    ## Why it matters
    Following it changes nothing: the reader rereads the same text. A check that loops back
    on failure (`F12` in entry 12, "try again") is fine and not reported, and so is a move with
    effects (a shop's `(D0, S12, buy 4 coins, +rope)` in entry 12), which changes what is held.

    ## Example
    ```
    12 The corridor bends (D0, S12).
    ```

    ## Fix
    Point the move at the entry it should lead to.
    """
    res = ctx.res
    for number, c in ctx.choices:
        if c.difficulty != 0 or c.success is None or c.changes:
            continue  # (a move with effects, a shop's buy, changes what the reader holds)
        target = res.labels.get(c.success, c.success) if isinstance(c.success, str) else c.success
        if target == number:
            yield self.diag(ctx, f"D0 move leads back to entry {number} itself",
                            c.success_span or c.span, number)
