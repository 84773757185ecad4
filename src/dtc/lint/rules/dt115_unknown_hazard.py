from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT115", "unknown-hazard", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry places a hazard that is defined nowhere.

    ## What it finds
    A `Hazard: Name` line inside an entry (the name alone, no fields) whose name matches no
    hazard definition line in the file. Case does not matter.

    ## Why it matters
    The reader does not know what the hazard does or how to avoid it, and `dtc play` skips it.

    ## Example
    ```
    7 The floor is furred with grey silt.
    Hazard: Sour Gass
    ```
    with the definition spelt `Hazard: Sour Gas | Check: CON D2 | ...`.

    ## Fix
    Correct the name, or define the hazard (before the entries, or in full in this entry).
    """
    defined = {h.name.lower() for h in ctx.doc.hazards if h.name}
    for i, entry in enumerate(ctx.doc.entries):
        for name, span in entry.hazard_refs:
            if name.lower() not in defined:
                shown = f"'{name}'" if name else "a hazard with no name"
                yield self.diag(ctx, f"entry places {shown}, which no Hazard line defines", span, ctx.res.numbers[i])
