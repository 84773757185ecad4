from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT305", "unused-possession", Severity.INFO, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A possession or flag that effects give but no condition tests and no effect takes away.

    ## What it finds
    A name gained with `[+...]` that no condition (`if ...`) names and no `[-...]` loses.
    Reported once, at the first effect that gives it. A possession of a container with a limit
    (`Containers:`, `Limits:`) is never reported: it takes room the container's others need.

    ## Why it matters
    Often fine (a trophy, a score), but often a gate that was never written, or one spelt
    differently (`if stone key` against `[+stone-key]`).

    ## Example
    ```
    3 You pick up a lantern. [+lantern] Back (D0, S1).
    ```

    ## Fix
    Test it where it matters (`(D0, S9, if lantern)`), or drop the effect if it means nothing.
    """
    if not ctx.has_state:  # no effect anywhere
        return
    state = ctx.state
    limited = ctx.doc.limited  # in a container with a limit: it takes room another possession needs
    for name, change in state.given.items():
        if name not in state.tested and name not in state.lost and name not in limited:
            yield self.diag(ctx, f"'{name}' is given but never tested by a condition nor lost", change.span)
