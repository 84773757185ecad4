from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.rules.base import Context, Rule, rule


@rule("DT118", "roll-ranges", Severity.ERROR)
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
        covered: dict[int, str] = {}
        for b in roll.branches:
            text = str(b.low) if b.low == b.high else f"{b.low}-{b.high}"
            if b.low > b.high:
                yield self.diag(ctx, f"{where}: range {text} runs backwards", b.range_span, number)
                continue
            if b.low < low or b.high > high:
                yield self.diag(ctx, f"{where}: range {text} goes beyond what {roll.dice} can roll ({low}-{high})",
                                b.range_span, number)
            clash = sorted(t for t in range(max(b.low, low), min(b.high, high) + 1) if t in covered)
            if clash:
                shown = str(clash[0]) if len(clash) == 1 else f"{clash[0]}-{clash[-1]}"
                yield self.diag(ctx, f"{where}: range {text} overlaps {covered[clash[0]]} on {shown}",
                                b.range_span, number)
            for t in range(max(b.low, low), min(b.high, high) + 1):
                covered.setdefault(t, text)
        missing = [t for t in range(low, high + 1) if t not in covered]
        if missing and high >= low:
            runs: list[list[int]] = []
            for t in missing:
                if runs and runs[-1][-1] == t - 1:
                    runs[-1].append(t)
                else:
                    runs.append([t])
            shown = ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
            yield self.diag(ctx, f"{where}: no branch for a roll of {shown}", roll.span, number)
