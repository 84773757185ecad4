from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import cond_names
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule


@rule("DT119", "unknown-possession", Severity.ERROR, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A condition names a possession or flag that no effect ever gives.

    ## What it finds
    A choice's condition (`if stone key`, `if not alarm`, `if 10 coins`) names something no
    `[+...]` effect anywhere in the book gives and no fresh adventurer of the book's rules carries
    (a Death & Treasure book may ask `if rope`: the standard kit holds one). Names are compared
    without regard to case or spacing; when a given name is close, the message suggests it
    ("did you mean").

    ## Why it matters
    It is a typo or a forgotten `[+...]`: `if` on such a name never holds, `if not` always does,
    so the choice is closed (or open) for every reader, whatever the author meant.

    ## Example
    ```
    3 A key on a hook. [+stone key] Back to the hall (D0, S1).
    9 The Stone Door (D0, S21, if stone kye).
    ```

    ## Fix
    Spell the name as the effect does, or add the effect (`[+stone kye]`) where the reader
    should gain it.
    """
    if not ctx.has_state:  # no condition anywhere
        return
    given = ctx.state.given
    if not any(c.condition is not None for _, c in ctx.choices):
        return
    known = sorted(given)
    for number, c in ctx.choices:
        if c.condition is None:
            continue
        for name in dict.fromkeys(cond_names(c.condition, ctx.state.scores)):
            if name in given or name in ctx.state.held:
                continue
            import difflib  # here: only a near miss needs it

            close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
            hint = f" (did you mean '{close[0]}'?)" if close else " (give it with an effect such as [+" + name + "])"
            yield self.diag(ctx, f"condition names '{name}', which no effect in the book gives{hint}",
                            c.condition_span or c.span, number)
