from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.systems.dungeon_rules.ruleset import zone_parts


@rule("DT209", "zone-overlap", Severity.WARNING, reads=SHAPE, quotes_lines=True)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """Two rows of the `Zones` table give the same entry different zones, or a row covers no entry.

    ## What it finds
    A row whose range overlaps an earlier row's with another zone type (`1-6. Quiet` then
    `5-9. Perilous`: entries 5 and 6), or a row whose range holds no entry of the book (a
    reversed range such as `9-5.` included). A `Zone:` line inside an entry overrides the table
    on purpose and is not reported.

    ## Why it matters
    The first matching row wins, so the later row silently loses those entries; a row that
    covers nothing was probably meant for entries that were renumbered.

    ## Example
    ```
    Zones
      1-6. Quiet
      5-9. Perilous
    ```

    ## Fix
    Make the ranges meet without overlapping (`1-4. Quiet`, `5-9. Perilous`).
    """
    numbers = set(ctx.res.numbers)
    for n, row in enumerate(ctx.doc.zones):
        if not any(row.low <= x <= row.high for x in numbers):
            yield self.diag(ctx, f"zone row {row.low}-{row.high} covers no entry", row.span)
            continue
        for earlier in ctx.doc.zones[:n]:
            low, high = max(row.low, earlier.low), min(row.high, earlier.high)
            shared = sorted(x for x in numbers if low <= x <= high)
            if shared and zone_parts(earlier.text)[:2] != zone_parts(row.text)[:2]:
                where = f"entry {shared[0]} is" if len(shared) == 1 else f"entries {shared[0]}–{shared[-1]} are"
                yield self.diag(ctx, f"{where} already {earlier.text} (line {earlier.span.line}); "
                                     f"this row's {row.text} does not apply", row.span)
                break
