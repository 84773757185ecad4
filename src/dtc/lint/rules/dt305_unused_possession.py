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
    (`Containers:`, `Limits:`) is never reported: it takes room the container's others need; nor
    is one a `[-1 item of choice from backpack]` may take.

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
    containers = ctx.doc.containers
    chosen_from = {m for ch in state.all_changes if ch.change is not None and ch.change.source in containers
                   for m in containers[ch.change.source or ""]}  # [-1 item of choice from backpack] may take it
    for name, change in state.given.items():
        if name not in state.tested and name not in state.lost and name not in limited and name not in chosen_from:
            yield self.diag(ctx, f"'{name}' is given but never tested by a condition nor lost", change.span)
