from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT303", "dynamic-return", Severity.INFO, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An exit back to "your most recent entry".

    ## What it finds
    "Return to your most recent entry" (or previous/last entry). dtc treats it as an exit to
    every entry that leads in, and the message lists them.

    ## Why it matters
    The target depends on the reader's path, so a printed book cannot show a number; check
    the list is what you meant.

    ## Example
    ```
    24 The door won't budge. Return to your most recent entry.
    ```

    ## Fix
    Nothing, if intended; or write one entry per way in with an explicit number.
    """
    res = ctx.res
    for i in ctx.returning:
        entry = ctx.doc.entries[i]
        targets = sorted({x.target for x in res.exits[i] if x.kind == "return"}, key=lambda t: (str(type(t)), t))
        shown = ", ".join(str(t) for t in targets) if targets else "nothing (no entry leads here)"
        for span in entry.returns:
            yield self.diag(ctx, f"returns to the entry the reader came from: {shown}", span, res.numbers[i])
