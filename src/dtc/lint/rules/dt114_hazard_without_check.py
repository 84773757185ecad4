from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT114", "hazard-without-check", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A hazard with no check, or a check that names no ability.

    ## What it finds
    A `Hazard:` definition line (with fields after `|`) that has no `Check:` field, or whose
    check gives only a difficulty (`Check: D2`). A line with the name alone places a hazard
    defined elsewhere and is not a definition.

    ## Why it matters
    Dungeon Rules hazards are avoided with a d20 check against an ability; without one the
    reader cannot roll it, and `dtc play` leaves the hazard to the player.

    ## Example
    ```
    Hazard: Rotten Joists | Fail: fall, 2d6 damage | Mitigation: planks
    ```

    ## Fix
    Add the check: `| Check: WIS or AGI D2` (the better ability is rolled; D2 if no difficulty).
    """
    for h in ctx.doc.hazards:
        if h.error is not None:
            continue
        if h.check is None:
            yield self.diag(ctx, f"hazard '{h.name}' has no check (add `| Check: ABILITY Dn`)", h.span, h.entry)
        elif not h.check.abilities:
            yield self.diag(ctx, f"hazard '{h.name}': the check names no ability", h.check.span, h.entry)
