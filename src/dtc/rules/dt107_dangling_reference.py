from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.numbers import ENTRY
from dtc.rules.base import Context, Rule, forgotten_blank_line, rule

_KIND = {"success": "success", "failure": "failure", "prose": "prose"}


@rule("DT107", "dangling-reference", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An exit to an entry that does not exist.

    ## What it finds
    An `S`/`F` target, or a prose exit such as `go to 40`, naming an entry number (or
    `@label`) that no entry has.

    ## Why it matters
    The reader turns to a page that isn't there; `dtc play` ends the run with
    "cannot continue".

    ## Example
    ```
    3 A trapdoor (D1, S40, F4).
    ```

    ## Fix
    Write the missing entry, or point the exit at the entry you meant. When the entry is
    there but was read as prose — in a book that puts a blank line before each entry, its
    first line follows a sentence with no blank line between — the message says where it is:
    add the blank line.
    """
    res = ctx.res
    by_number = res.by_number  # exits hold numbers; a label no entry has stays a string, never a key
    for i, entry in enumerate(ctx.doc.entries):
        for x in res.exits[i]:
            if x.target not in by_number and x.kind in _KIND and not too_large(x.target):
                yield self.diag(
                    ctx,
                    f"{_KIND[x.kind]} exit to entry {x.target}, which does not exist"
                    + forgotten_blank_line(ctx, x.target),
                    res.exit_span(i, x) or entry.span,
                    res.numbers[i],
                )


def too_large(target: object) -> bool:
    """A target past the largest entry number, which number-out-of-range (DT121) reports."""
    return isinstance(target, int) and target > ENTRY
