from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.lint.rules.dt123_unknown_ending_kind import KIND_LIKE, KINDS


@rule("DT202", "dead-end", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry with no exits that is not an ending.

    ## What it finds
    An entry with no choice notation, no prose exit and no "return to your most recent
    entry", that does not say THE END.

    ## Why it matters
    The reader is left with nothing to do: the book simply stops.

    ## Example
    ```
    22 You find a stone key and 50 coins.
    ```

    When the entry ends with an ending of a kind dtc does not know (`The End (died).`), the
    message says so: that is the mistake, which unknown-ending-kind (DT123) fixes.

    ## Fix
    Give the entry a way on (`Return to 17.` or `(D0, S17)`), or end it with THE END.
    """
    for i, number in ctx.entries_of(ctx.analysis.dead_ends):
        yield self.diag(ctx, f"entry {number} has no exits and is not an ending" + _unknown_kind(ctx, i),
                        ctx.doc.entries[i].span, number)


def _unknown_kind(ctx: Context, index: int) -> str:
    """``; 'The End (died)' is no ending: ...`` when the entry meant to end with a kind dtc does
    not know (unknown-ending-kind says what to write): one mistake, and the two findings say so."""
    found = KIND_LIKE.search(ctx.doc.entries[index].text)
    if found is None or found.group("word").lower() in KINDS:
        return ""
    return (f"; '{found.group('end')} ({found.group('word')})' would end it, but the sentence form takes only "
            f"(death) or (victory) (unknown-ending-kind)")
