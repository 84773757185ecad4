from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT210", "unused-hazard", Severity.WARNING, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A hazard defined before the entries that no entry places.

    ## What it finds
    A `Hazard:` definition line above the entries whose name no `Hazard: Name` line inside an
    entry uses. A definition written inside an entry places itself and is always used.

    ## Why it matters
    The hazard never happens: either it was cut and its line forgotten, or the entry meant to
    place it spells the name differently.

    ## Example
    ```
    Hazard: Fast Current | Check: STR or AGI D2 | Fail: swept away, 1d6 damage
    ```
    with no entry saying `Hazard: Fast Current`.

    ## Fix
    Place it in the entry where it belongs (`Hazard: Fast Current` on a line of its own), or
    delete it.
    """
    placed = {name.lower() for e in ctx.doc.entries for name, _ in e.hazard_refs}
    for h in ctx.doc.hazards:
        if h.entry is None and h.error is None and h.name and h.name.lower() not in placed:
            yield self.diag(ctx, f"hazard '{h.name}' is not placed in any entry", h.span)
