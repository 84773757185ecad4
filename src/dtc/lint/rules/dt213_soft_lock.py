from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.lint.state import held_text


@rule("DT213", "soft-lock", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A route that leaves the reader at an entry, not an ending, with every exit closed.

    ## What it finds
    An entry whose every exit is a gated choice, and a real route from the start that arrives
    there holding nothing that opens any of them. The witness is the shortest such route
    (replayed with exact counts), and the message says what the reader holds. An entry with a
    prose exit or "return to your most recent entry" always has a way on and is never a soft
    lock; one with no exits at all is a `dead-end`.

    ## Why it matters
    The reader is stuck with the book still open: the worst kind of dead end, because it
    depends on what they did earlier and is easy to miss in testing.

    ## Example
    ```
    1 A fork. Left (D0, S2) or right (D0, S3).
    2 A key! [+key] On (D0, S3).
    3 A locked gate (D0, S4, if key).
    4 Free. THE END
    ```
    (going right at 1 arrives at 3 without the key)

    ## Fix
    Give the entry an ungated way on (`Otherwise, go back (D0, S1)`), or make sure every route
    there gives what a gate needs.
    """
    state = ctx.state
    if not state.has_state or not state.exact:
        return
    for number, witness, held in state.soft_locks():
        entry = state.places[number].entry
        yield self.diag(ctx, f"a route reaches entry {number} {held_text(held)}, and every exit there is closed",
                        entry.span, number, witness=witness)
