from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT116", "malformed-hazard", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Hazard:` line that does not parse.

    ## What it finds
    A line starting `Hazard:` whose fields the hazard grammar (`grammar/hazard.lark`) refuses: an
    unknown field keyword (`Chek:`), a field without its colon, or a check that is not
    abilities and a difficulty (`Check: D2 CON`). The caret points at the bad part.

    ## Why it matters
    The hazard is dropped from play: entries that place it get nothing to roll.

    ## Example
    ```
    Hazard: Razor Rubble | Chek: AGI D2 | Fail: 1d4 damage
    ```

    ## Fix
    Write the fields as `Check:`, `Fail:`, `Pass:`, `Mitigation:`, `Telltales:` or `Trigger:`,
    separated by `|`; a check is `ABILITY [or ABILITY] [Dn]`.
    """
    for h in ctx.doc.hazards:
        if h.error is not None:
            yield self.diag(ctx, h.error, h.error_span or h.span, h.entry)
