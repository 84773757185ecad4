from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT201", "unreachable-entry", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry that cannot be reached from the start.

    ## What it finds
    Entries no path of exits (notation, prose or return) leads to from the start entry.
    Silent when the start itself is missing (`missing-start` reports that).

    ## Why it matters
    Text no reader will ever see: usually an exit that points at the wrong number.

    ## Example
    ```
    1 A door (D0, S2).
    2 A hall. THE END
    3 A secret room nobody finds. Return to 1.
    ```

    ## Fix
    Add an exit into the entry from where the reader should find it, or delete it.
    """
    if not ctx.analysis.start_exists:
        return
    for i, number in ctx.entries_of(ctx.analysis.unreachable):
        yield self.diag(ctx, f"entry {number} cannot be reached from the start ({ctx.res.start})",
                        ctx.doc.entries[i].span, number)
