from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT120", "malformed-effect", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A bracket that opens like an effect (`[+`, `[-`) but does not follow the notation.

    ## What it finds
    Square brackets whose text starts with `+` or `-`, read as effects (`[+stone key]`,
    `[+3 torches, -10 coins]`), that the grammar refuses: a missing name, a stray character, a
    separator other than a comma. The caret points at the offending token.

    ## Why it matters
    The effect is not applied, so every gate that depends on it behaves as if the reader never
    found the thing.

    ## Example
    ```
    4 A purse on the floor. [+50] Back (D0, S1).
    ```

    ## Fix
    Write a name after the amount, `[+50 coins]`, and separate effects with commas.
    """
    for i, number in ctx.first_entries():
        for message, span in ctx.doc.entries[i].effect_errors:
            yield self.diag(ctx, f"malformed effect: {message}", span, number)
