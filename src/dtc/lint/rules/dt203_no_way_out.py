from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT203", "no-way-out", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A reachable entry from which neither an ending nor the entrance can ever be reached.

    ## What it finds
    Every entry, reachable from the start, whose every path leads into a trap: a loop with no
    exit, or only into dead ends. The entrance is the start entry (the adventurer leaves the
    way they came). One diagnostic per trapped entry; dead ends themselves are reported by
    `dead-end` instead.

    ## Why it matters
    Once there the reader can only wander until the light runs out. Unlike a dead end, each
    entry of a trap loop looks fine on its own.

    ## Example
    ```
    5 A maze: left (D0, S6) or right (D0, S7).
    6 More maze (D0, S5).
    7 More maze (D0, S6).
    ```

    ## Fix
    Give one entry of the loop an exit back out, or an ending.
    """
    for i, number in ctx.entries_of(ctx.analysis.trapped):
        yield self.diag(
            ctx,
            f"from entry {number} no ending and no way back to the entrance ({ctx.res.start}) can be reached",
            ctx.doc.entries[i].span,
            number,
        )
