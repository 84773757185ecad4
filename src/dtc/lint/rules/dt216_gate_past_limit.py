from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import Cond, Has, Not
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.state import normal


@rule("DT216", "gate-past-limit", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A condition asks for more of something than the book's `Limits:` line lets a reader hold.

    ## What it finds
    A gate such as `(D0, S30, if 60 gold crowns)` (or `if gold crowns > 50`) in a book whose
    front matter says `Limits: gold crowns 50`. A reader never holds more than the limit: what
    a gain brings past it is lost (see "Writing a published gamebook" in `docs/format.md`), so
    the condition can never hold. Only what the condition needs is judged, not what it asks a
    reader not to hold (`if not 60 gold crowns` is always true, and says nothing wrong).

    ## Why it matters
    The choice is shown to every reader and opens for none: the author meant a lower price, or
    a higher limit.

    ## Example
    ```
    Limits: gold crowns 50

    1 The guildhall's door. Join the guild (D0, S2, if 60 gold crowns); walk on (D0, S3).
    ```

    ## Fix
    Lower the amount the condition asks for, or raise the limit.
    """
    limits = ctx.doc.limits
    if not limits:
        return
    scores = ctx.doc.scores
    for number, c in ctx.choices:
        if c.condition is None or c.error is not None:
            continue
        for atom in _needed(normal(c.condition)):
            limit = limits.get(atom.name)
            if limit is not None and atom.name not in scores and atom.count > limit:
                yield self.diag(ctx, f"choice '{c.label}' needs {atom.count} {atom.name}, but a reader holds at "
                                     f"most {limit} (Limits:)", c.condition_span or c.span, number)


def _needed(cond: Cond, negated: bool = False) -> Iterator[Has]:
    """The counts a condition needs the reader to hold (those not under a `not`)."""
    if isinstance(cond, Has):
        if not negated:
            yield cond
    elif isinstance(cond, Not):
        yield from _needed(cond.arg, not negated)
    else:
        for a in cond.args:
            yield from _needed(a, negated)
