from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT110", "no-entries", Severity.ERROR, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """The file has no entries at all.

    ## What it finds
    An empty file, or one in which no line begins with an entry number.

    ## Why it matters
    There is no adventure to check, compile or play — usually the wrong file, or entries
    written in a form dtc does not recognise (for example `Entry 1:`).

    ## Example
    ```
    The Sunken Vault
    Adventure Entries
    One: You stand at the gate.
    ```

    ## Fix
    Begin each entry on a new line with its number: `1 You stand at the gate.`
    """
    if ctx.doc.entries:
        return
    empty = ctx.doc.line_count <= 1 and not ctx.doc.title
    message = "the file is empty" if empty else "no entries found (an entry begins a line with its number)"
    yield self.diag(ctx, message, Span.point(1))
