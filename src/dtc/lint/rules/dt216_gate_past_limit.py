from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.notation import All, Cond, Has, Not
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.state import normal
from dtc.systems import kit_holdings_of


@rule("DT216", "gate-past-limit", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A condition asks for more of something than the book's `Limits:` line lets a reader hold.

    ## What it finds
    A gate such as `(D0, S30, if 60 gold crowns)` (or `if gold crowns > 50`) in a book whose
    front matter says `Limits: gold crowns 50`. A reader never holds more than the limit: what
    a gain brings past it is lost (see "Writing a published gamebook" in `docs/format.md`), so
    the condition can never hold. Only what the condition needs is judged, not what it asks a
    reader not to hold (`if not 60 gold crowns` is always true, and says nothing wrong).

    With containers (`Containers: weapons: sword, axe` and `Limits: weapons 1`), a condition
    that needs more of a container's possessions together than its limit is reported too:
    `if sword and axe`.

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
    limited = ctx.doc.limited
    for number, c in ctx.choices:
        if c.condition is None or c.error is not None:
            continue
        cond = normal(c.condition)
        for atom in _needed(cond):
            limit = limits.get(atom.name)
            if limit is not None and atom.name not in scores and atom.count > limit:
                yield self.diag(ctx, f"choice '{c.label}' needs {atom.count} {atom.name}, but a reader holds at "
                                     f"most {limit} (Limits:)", c.condition_span or c.span, number)
        if not limited:
            continue
        need: dict[str, dict[str, int]] = {}  # container -> what of it every way to meet the condition needs
        for atom in _together(cond):
            if atom.name in limited and atom.name not in scores:
                held = need.setdefault(limited[atom.name][0], {})
                held[atom.name] = max(held.get(atom.name, 0), atom.count)
        for container, held in sorted(need.items()):
            limit = limits[container]
            kit = kit_holdings_of(ctx.doc.rules, set(ctx.doc.containers[container]))
            if sum(held.values()) > limit and (len(held) > 1 or next(iter(held)) not in limits) and (
                    sum(kit.values()) <= limit):  # (a kit that overfills the container holds more from the start)
                what = " and ".join(f"{k} {n}" for n, k in sorted(held.items()))
                yield self.diag(ctx, f"choice '{c.label}' needs {what}, but the {container} holds at most {limit} "
                                     "(Limits:)", c.condition_span or c.span, number)


def _together(cond: Cond) -> Iterator[Has]:
    """The counts every way of meeting a condition needs at once: the condition itself, or the
    parts of an `and` (an `or`, or anything under a `not`, is left alone)."""
    if isinstance(cond, Has):
        if cond.op in (">=", ">", "="):
            yield Has(cond.name, cond.count + (cond.op == ">"))
    elif isinstance(cond, All):
        for a in cond.args:
            if isinstance(a, (Has, All)):
                yield from _together(a)


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
