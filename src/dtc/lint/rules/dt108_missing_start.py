from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT108", "missing-start", Severity.ERROR, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """The start entry does not exist.

    ## What it finds
    A `Start:` key naming an entry the book does not have, or a value that is not an entry
    number or `@label`.

    ## Why it matters
    The reader has nowhere to begin, and reachability cannot be checked at all.

    ## Example
    ```
    Start: 100
    ```

    ## Fix
    Point `Start:` at the first entry, or remove it to start at the lowest-numbered entry.
    """
    res, doc = ctx.res, ctx.doc
    if not doc.entries:
        return
    field = doc.meta.get("start")
    span = field.span if field else Span.point(1)
    if res.start_text is not None and res.start_text.isdigit() and res.start_text.isascii():
        return  # a number past the largest entry number: number-out-of-range (DT121)
    if res.start_text is not None:
        yield self.diag(ctx, f"Start: '{res.start_text}' is not an entry number or @label", span)
    elif res.start is not None and res.start not in res.by_number:
        yield self.diag(ctx, f"start entry {res.start} does not exist", span, res.start)
