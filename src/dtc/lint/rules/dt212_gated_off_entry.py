from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT212", "gated-off-entry", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry that routes reach only through gates that never open.

    ## What it finds
    An entry that a route would reach if every gated choice were open, but that no real route
    reaches: every way in passes a condition that is false whenever a reader gets there. (An
    entry no route reaches even with every gate open is `unreachable-entry`.)

    ## Why it matters
    Text no reader will see, hidden behind a door that never opens; usually the same mistake
    `gate-never-opens` reports at the door, seen from the other side.

    ## Example
    ```
    1 A hall. The Stone Door (D0, S21, if stone key). Or leave (D0, S2).
    2 Outside. THE END
    21 The treasury. THE END
    ```

    ## Fix
    Give the reader what the gate needs somewhere on a route before it, or another way in.
    """
    state = ctx.state
    if not state.has_state:
        return
    gated_off = state.open_reached - state.reached_numbers
    for i, number in ctx.first_entries():
        if number in gated_off:
            yield self.diag(ctx, f"entry {number} is reached only through gates that never open",
                            ctx.doc.entries[i].span, number)
