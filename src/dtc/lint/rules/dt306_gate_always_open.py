from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import cond_names, cond_text
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT306", "gate-always-open", Severity.INFO)
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
    state = ctx.state
    if not state.has_state:
        return
    given = state.given
    for i, number in ctx.first_entries():
        for ci, c in enumerate(ctx.doc.entries[i].choices):
            if c.condition is None or c.error is not None:
                continue
            if any(name not in given for name in cond_names(c.condition)):
                continue
            facts = state.gate(number, ci)
            if facts is None or facts[1]:
                continue
            yield self.diag(ctx, f"the condition of '{c.label}' ({cond_text(c.condition)}) holds on every route "
                                 f"that reaches entry {number}", c.condition_span or c.span, number,
                            witness=state.route_to(number))
