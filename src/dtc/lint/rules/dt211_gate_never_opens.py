from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import cond_text
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.lint.state import held_text


@rule("DT211", "gate-never-opens", Severity.ERROR, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A gated choice whose condition is false on every route that reaches it.

    ## What it finds
    A choice with a condition (`(D0, S21, if stone key)`) at an entry a reader can reach, where
    no route from the start arrives holding what the condition needs — the door whose key can
    only be found behind it, or a key lost (`[-stone key]`) on every way there. dtc explores
    every (entry, possessions) state a route can reach (see "State" in `docs/format.md`), so
    the finding is a proof, not a guess; the witness is the shortest route that reaches the
    choice, and the message says what the reader holds there. Conditions that name a
    possession nothing gives are reported by `unknown-possession` instead.

    ## Why it matters
    The choice is shown to every reader and opens for none: a locked door the author meant to
    be opened.

    ## Example
    ```
    1 A hall. The Stone Door (D0, S21, if stone key); the stair (D0, S2).
    2 The crypt: a stone key on a hook. [+stone key] THE END
    21 Behind the door. THE END
    ```

    ## Fix
    Give the reader a route to the key before the door (here: a way back from 2 to 1 instead
    of THE END), or change the condition.
    """
    for number, ci, c, (may_open, _) in ctx.judged_gates():
        if may_open or c.condition is None:
            continue
        found = ctx.state.closed_route(number, ci)
        witness, held = found if found is not None else (None, None)
        where = f"; the shortest arrives {held_text(held)}" if held is not None else ""
        yield self.diag(ctx, f"choice '{c.label}' can never open: no route reaches entry {number} with "
                             f"{cond_text(c.condition)}{where}", c.condition_span or c.span, number,
                        witness=witness)
