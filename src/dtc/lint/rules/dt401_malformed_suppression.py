from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.suppressions import malformed


@rule("DT401", "malformed-suppression", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `<!-- dtc: ... -->` comment that dtc cannot read, so it suppresses nothing.

    ## What it finds
    A comment line beginning `<!-- dtc` that is not `<!-- dtc: ignore[RULE, ...] -->`: an
    unknown directive (`ignroe`), a missing bracket or `-->`, an empty list, a rule code or name
    that does not exist, or an attempt to silence DT401/DT402 themselves inline.

    ## Why it matters
    The author meant to silence a finding and believes it is handled; instead the comment is
    ignored, and the finding it aimed at is still reported — or a real problem hides behind a
    typo that looks deliberate.

    ## Example
    ```
    22 You find a stone key and 50 coins.
    <!-- dtc: ignore[dead-ends] -->
    ```

    ## Fix
    Name existing rules by code or name, inside brackets: `<!-- dtc: ignore[dead-end] -->`
    (`dtc rule --list` lists them). Silence DT401/DT402 with `ignore` in the configuration.
    """
    for bad in malformed(ctx.doc):
        index = bad.directive.entry_index
        yield self.diag(ctx, f"malformed suppression: {bad.message}", bad.directive.span,
                        None if index is None else ctx.res.numbers[index])
