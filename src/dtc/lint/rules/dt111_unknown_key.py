from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.parse import KNOWN_META
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT111", "unknown-key", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Key: value` line at the top of the file that dtc does not know, or a repeated key.

    ## What it finds
    Front-matter keys other than `Title`, `Author`, `Rules` and `Start`, and any key given
    twice (the first one counts).

    ## Why it matters
    A misspelt key (`Strat: 5`) is silently ignored otherwise, and the book starts somewhere
    the author did not intend.

    ## Example
    ```
    Titel: The Drowned Abbey
    ```

    ## Fix
    Spell the key as one of Title, Author, Rules, Start, or remove the line.
    """
    for field in ctx.doc.unknown_meta:
        if field.key.lower() in KNOWN_META:
            yield self.diag(ctx, f"'{field.key}' is given twice; the first one counts", field.span)
        else:
            yield self.diag(
                ctx, f"unknown key '{field.key}' (known: Title, Author, Rules, Start)", field.span
            )
