from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from operator import itemgetter

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import SHAPE, Context, Rule, rule
from dtc.lint.rules.dt107_dangling_reference import near_misses, swapped


@rule("DT201", "unreachable-entry", Severity.WARNING, reads=SHAPE)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry that cannot be reached from the start.

    ## What it finds
    Entries no path of exits (notation, prose or return) leads to from the start entry.
    Silent when the start itself is missing (`missing-start` reports that).

    ## Why it matters
    Text no reader will ever see: usually an exit that points at the wrong number.

    ## Example
    ```
    1 A door (D0, S2).
    2 A hall. THE END
    3 A secret room nobody finds. Return to 1.
    ```

    Silent on an entry that a dangling exit seems to have meant with two digits swapped (`S73`
    where 37 is the entry nothing leads to): dangling-reference (DT107) reports that slip once,
    "did you mean 37?", and its safe fix reaches the entry.

    ## Fix
    Add an exit into the entry from where the reader should find it, or delete it.
    """
    if not ctx.analysis.start_exists:
        return
    unreachable = ctx.analysis.unreachable
    if not unreachable:
        return
    for i, number in ctx.entries_of(unreachable - _meant(ctx)):
        yield self.diag(ctx, f"entry {number} cannot be reached from the start ({ctx.res.start})",
                        ctx.doc.entries[i].span, number)


def _meant(ctx: Context) -> set[int]:
    """The entries one dangling exit seems to mean with two digits swapped, alone (see
    dangling-reference)."""
    by_number = ctx.res.by_number
    missing = set(map(itemgetter(0), chain.from_iterable(ctx.res.exits))).difference(by_number)
    if not missing:
        return set()
    return {meant[0] for target, meant in near_misses(ctx, missing).items()
            if len(meant) == 1 and swapped(target, meant[0])}
