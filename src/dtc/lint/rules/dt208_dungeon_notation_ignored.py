from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule
from dtc.systems import has_overlay
from dtc.systems.dungeon_rules.ruleset import DUNGEON_RULES


@rule("DT208", "dungeon-notation-ignored", Severity.WARNING, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """Zones or hazards in a book whose ruleset has no Dungeon Rules overlay.

    ## What it finds
    A `Zones` table, a `Zone:` line or a `Hazard:` line in a book whose `Rules:` does not add
    `dungeon-rules` (`Rules: death-and-treasure + dungeon-rules`). Reported once, at the first
    such line.

    ## Why it matters
    Only the Dungeon Rules overlay gives zones and hazards a meaning: without it `dtc play`
    ignores them, and the reader may too.

    ## Example
    ```
    Rules: maze-rats

    Zones
      1-9. Perilous
    ```

    ## Fix
    Add the overlay (`Rules: maze-rats + dungeon-rules`), or remove the zones and hazards.
    """
    if ctx.ruleset is None or has_overlay(ctx.ruleset, DUNGEON_RULES.name):
        return
    spans = [z.span for z in ctx.doc.zones] + [h.span for h in ctx.doc.hazards]
    spans += [e.zone_span for e in ctx.doc.entries if e.zone_span is not None]
    spans += [s for e in ctx.doc.entries for _, s in e.hazard_refs]
    if spans:
        yield self.diag(ctx, f"zones and hazards need the Dungeon Rules overlay: write `Rules: "
                             f"{ctx.ruleset.name} + dungeon-rules`, or they are ignored", min(spans))
