from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT122", "roll-ranges", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A random branch whose ranges leave a total uncovered, overlap, or fall outside the dice.

    ## What it finds
    A random branch `(roll d6, 1-2 S5, 3-6 S9)` rolls its dice and sums them; each range names
    the totals that lead to its entry. The ranges must cover every total the dice can give
    (1–6 for `d6`, 2–12 for `2d6`) exactly once. One finding per gap, per overlap and per range
    that goes beyond the dice (or runs backwards, `5-3`).

    ## Why it matters
    On an uncovered total the reader has nowhere to go; on an overlap the book says two
    things; a range beyond the dice is never rolled, so its entry may be unreachable.

    ## Example
    ```
    7 The bridge sways (roll d6, 1-2 S5, 4-6 S9).
    ```

    ## Fix
    Make the ranges meet end to end: `(roll d6, 1-3 S5, 4-6 S9)`.
    """
    for number, c in ctx.choices:
        roll = c.roll
        if roll is None:
            continue
        low, high = roll.low, roll.high
        where = f"random branch {c.text}"
        if roll.count < 1 or roll.sides < 1:
            yield self.diag(ctx, f"{where}: {roll.dice} cannot be rolled", roll.span, number)
            continue
        covered: list[tuple[int, int, str]] = []  # disjoint ranges of totals already claimed
        for b in roll.branches:
            text = str(b.low) if b.low == b.high else f"{b.low}-{b.high}"
            if b.low > b.high:
                yield self.diag(ctx, f"{where}: range {text} runs backwards", b.range_span, number)
                continue
            if b.low < low or b.high > high:
                yield self.diag(ctx, f"{where}: range {text} goes beyond what {roll.dice} can roll ({low}-{high})",
                                b.range_span, number)
            lo, hi = max(b.low, low), min(b.high, high)
            clashes = sorted((max(lo, a), min(hi, z), name) for a, z, name in covered if a <= hi and lo <= z)
            if clashes:
                a, z, name = clashes[0]
                shown = str(a) if a == z else f"{a}-{z}"
                yield self.diag(ctx, f"{where}: range {text} overlaps {name} on {shown}", b.range_span, number)
            if lo <= hi:
                covered.append((lo, hi, text))
        gaps: list[str] = []
        at = low
        for a, z, _ in sorted(covered):
            if a > at:
                gaps.append(str(at) if a - 1 == at else f"{at}-{a - 1}")
            at = max(at, z + 1)
        if at <= high:
            gaps.append(str(at) if at == high else f"{at}-{high}")
        if gaps:
            yield self.diag(ctx, f"{where}: no branch for a roll of {', '.join(gaps)}", roll.span, number)
