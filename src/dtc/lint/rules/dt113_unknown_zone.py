from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.rules.base import CONTENT, Context, Rule, rule
from dtc.systems.dungeon_rules.ruleset import ZONES, zone_parts


@rule("DT113", "unknown-zone", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Zones` row or a `Zone:` line names no Dungeon Rules zone type or condition.

    ## What it finds
    The zone of a row of the `Zones` table (`5-9. Perilus`) or of a `Zone:` line inside an
    entry that is none of: quiet, standard, perilous, deep (also "tainted"), lair heart, and the
    lairs by difficulty (minor, standard, major, deadly, mythic lair). Case, spaces and hyphens
    do not matter; "sector" may follow (`Perilous sector`). After the zone, comma-separated
    conditions may follow (`Perilous, dim, murky water`): light (bright, dim, dark), air
    (obscured, heavily obscured, dust haze, smoke), water (clear, murky, opaque water), sound
    (dead corridor, cavern, machinery, waterfall), watches (sanctuary bell, ward pulse, patrol
    sweep) and cover
    (half, three-quarters, total cover); a `Zone:` line may name conditions alone (`Zone: dark`).
    Each comma-separated part that is none of these is reported.

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
    for number, text, span in _written(ctx):
        for part in zone_parts(text)[2]:
            message = (f"unknown zone '{part}' (zones: {known}; after a comma, a condition such as dim, dark "
                       "or murky water: dtc rule DT113)")
            yield self.diag(ctx, message, _part_span(span, text, part), number)


def _written(ctx: Context) -> Iterator[tuple[int | None, str, Span]]:
    for row in ctx.doc.zones:
        yield None, row.text, row.text_span
    for i, entry in enumerate(ctx.doc.entries):
        if entry.zone is not None:
            yield ctx.res.numbers[i], entry.zone, entry.zone_span or entry.span


def _part_span(span: Span, text: str, part: str) -> Span:
    """The span of one comma-separated part of a zone written on one line (else the whole)."""
    at = text.find(part)
    if at < 0 or span.end_line != span.line:
        return span
    return span._replace(column=span.column + at, end_column=span.column + at + len(part))
