from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.systems.dungeon_rules.ruleset import ZONES, zone_key


@rule("DT113", "unknown-zone", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Zones` row or a `Zone:` line names no Dungeon Rules zone type.

    ## What it finds
    The zone of a row of the `Zones` table (`5-9. Perilus`) or of a `Zone:` line inside an
    entry that is none of: quiet, standard, perilous, deep (also "tainted"), lair heart, and the
    lairs by difficulty (minor, standard, major, deadly, mythic lair). Case, spaces and hyphens
    do not matter; "sector" may follow (`Perilous sector`).

    ## Why it matters
    The zone sets how often `dtc play` rolls for encounters and how likely one is; an unknown
    zone is played as a standard sector, which is probably not what you meant.

    ## Example
    ```
    Zones
      1-4. Quiet
      5-9. Perilus
    ```

    ## Fix
    Use one of the zone types `dtc rules dungeon-rules` lists: `5-9. Perilous`.
    """
    known = ", ".join(z.replace("-", " ") for z in ZONES)
    for row in ctx.doc.zones:
        if zone_key(row.text) is None:
            yield self.diag(ctx, f"unknown zone '{row.text}' (zones: {known})", row.text_span)
    for i, entry in enumerate(ctx.doc.entries):
        if entry.zone is not None and zone_key(entry.zone) is None:
            yield self.diag(ctx, f"unknown zone '{entry.zone}' (zones: {known})", entry.zone_span or entry.span,
                            ctx.res.numbers[i])
