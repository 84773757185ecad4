from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT215", "no-victory", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A book whose endings have kinds, but where no victory can be reached.

    ## What it finds
    A book that marks some ending `THE END (death)` or `THE END (victory)`, where no entry is a
    victory, or no route from the start reaches one (every way there is closed by a gate, or
    no way leads there at all).

    ## Why it matters
    Once endings say what they are, a book with no reachable victory cannot be won.

    ## Example
    ```
    1 Two doors (D0, S2) (D0, S3).
    2 A pit. THE END (death)
    3 A wall of fire. THE END (death)
    ```

    ## Fix
    Mark the ending that wins `THE END (victory)`, or open a route to it.
    """
    if not ctx.has_state:  # no ending kind anywhere
        return
    entries = ctx.doc.entries
    kinds = [(i, number) for i, number in ctx.first_entries() if entries[i].ending_kind is not None]
    if not kinds:
        return
    victories = [(i, n) for i, n in kinds if entries[i].ending_kind == "victory"]
    if not victories:
        i, number = min(kinds, key=lambda k: entries[k[0]].span)
        yield self.diag(ctx, "endings have kinds, but none is a victory (THE END (victory))", entries[i].span, number)
        return
    if not ctx.analysis.start_exists:
        return
    state = ctx.state
    if any(n in state.reached_numbers for _, n in victories):
        return
    i, number = min(victories, key=lambda k: entries[k[0]].span)
    yield self.diag(ctx, f"no route from the start reaches a victory (entry {number} is one)", entries[i].span, number)
