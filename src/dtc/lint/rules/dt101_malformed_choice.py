from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT101", "malformed-choice", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A parenthetical meant as choice notation that does not parse.

    ## What it finds
    A parenthetical holding notation tokens (`S12`, `F7`, or a leading `D2,`) that the notation
    grammar refuses. The caret points at the offending token and the message says what was
    expected there.

    ## Why it matters
    The reader — and `dtc play` — cannot tell what the check is or where it leads. Prose
    parentheticals such as `(1,000 coins)` or `(d4 damage)` are never reported.

    ## Example
    ```
    12 The bridge sways. Cross it (DEX D2 S13 F14).
    ```

    ## Fix
    Write `([ABILITY] D<n>, S<n>[, F<n>])` with commas: `(DEX D2, S13, F14)`.
    """
    for i in ctx.res.malformed:  # the entries that hold such notation
        for c in ctx.doc.entries[i].choices:
            if c.error is not None:
                yield self.diag(ctx, f"malformed choice {c.text}: {c.error}", c.error_span or c.span,
                                ctx.res.numbers[i])
