from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT302", "prose-reference", Severity.INFO)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An exit written only in prose.

    ## What it finds
    "Return to 17", "go to 17", "skip to 17", "turn to 17", "read entry 17" where the entry
    has no notation exit to 17.

    ## Why it matters
    dtc follows it, but readers skimming for bold choices may miss it, and a prose exit
    carries no difficulty. Fine for "return" and "if you win, go to" moments.

    ## Example
    ```
    21 You find frog stew. Return to 17.
    ```

    ## Fix
    Nothing, if intended; or write it as notation: `Back to the hall (D0, S17).`
    """
    res = ctx.res
    for i, entry in enumerate(ctx.doc.entries):
        if not entry.prose_exits:
            continue
        notation = {res.labels.get(str(t), t) for c in entry.choices for t in (c.success, c.failure) if t is not None}
        for p in entry.prose_exits:
            dangling = res.target_number(p.target) is None  # dangling-reference reports it
            if res.labels.get(str(p.target), p.target) not in notation and not dangling:
                yield self.diag(ctx, f"exit to entry {p.target} is written only in prose ('{p.phrase}')", p.span,
                                res.numbers[i])
