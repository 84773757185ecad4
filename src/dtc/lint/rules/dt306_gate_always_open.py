from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import cond_text
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT306", "gate-always-open", Severity.INFO, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A condition that holds on every route that reaches its choice.

    ## What it finds
    A gated choice at a reachable entry whose condition is true for every reader who gets
    there: every route arrives holding what it needs (or never holding what `if not` forbids).
    The witness is the shortest route to the choice.

    ## Why it matters
    The gate does nothing. Often intended (a door that only opens from this side), but it may
    be a flag that was meant to be set, or lost, somewhere earlier.

    ## Example
    ```
    1 A key on the floor. [+key] The door (D0, S2, if key).
    2 Through. THE END
    ```

    ## Fix
    Drop the condition, or add the route on which it should fail.
    """
    for number, _, c, (_, may_stay_closed) in ctx.judged_gates():
        if may_stay_closed or c.condition is None:
            continue
        yield self.diag(ctx, f"the condition of '{c.label}' ({cond_text(c.condition)}) holds on every route "
                             f"that reaches entry {number}", c.condition_span or c.span, number,
                        witness=ctx.state.route_to(number))
