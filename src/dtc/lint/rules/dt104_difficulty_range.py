from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule
from dtc.numbers import DIFFICULTY


@rule("DT104", "difficulty-range", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A difficulty the adventure's ruleset does not have.

    ## What it finds
    A `D<n>` outside the ruleset's range — Death & Treasure has D0 to D3.

    ## Why it matters
    The rules say nothing about how to resolve it, so the reader (and `dtc play`) cannot.

    ## Example
    ```
    9 The wall is sheer (STR D5, S10, F11).
    ```

    ## Fix
    Use a difficulty the ruleset defines (`dtc rules NAME` lists them): `(STR D3, S10, F11)`.
    """
    ruleset = ctx.ruleset
    if ruleset is None:
        return
    allowed = ruleset.difficulties
    shown = f"D{min(allowed)}–D{max(allowed)}" if allowed else "none"
    for number, c in ctx.choices:
        if c.difficulty is not None and c.difficulty not in allowed and c.difficulty <= DIFFICULTY:  # else DT121
            yield self.diag(
                ctx,
                f"difficulty D{c.difficulty} is not in {ruleset.title} ({shown})",
                c.difficulty_span or c.span,
                number,
            )
