from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT105", "unknown-ability", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An ability the adventure's ruleset does not have.

    ## What it finds
    The word before the difficulty in `(DEXT D2, S5, F6)` is not one of the ruleset's
    abilities or their spellings (Death & Treasure: STR DEX CON WIS INT CHA, or the full
    names). Case does not matter.

    ## Why it matters
    The reader does not know which score to roll against, and `dtc play` cannot roll it.

    ## Example
    ```
    7 The lock is fiddly (AGI D1, S8, F9).
    ```

    ## Fix
    Use one of the ruleset's abilities (`dtc rules NAME` lists them), or set `Rules:` to the
    ruleset whose ability you meant.
    """
    ruleset = ctx.ruleset
    if ruleset is None:
        return
    names = " ".join(ruleset.ability_names)
    known: dict[str, bool] = {}  # a book writes a handful of spellings thousands of times
    for number, c in ctx.choices:
        if c.ability is None:
            continue
        ok = known.get(c.ability)
        if ok is None:
            ok = known[c.ability] = ruleset.canonical_ability(c.ability) is not None
        if not ok:
            yield self.diag(
                ctx,
                f"unknown ability '{c.ability}' for {ruleset.title} (expected one of {names})",
                c.ability_span or c.span,
                number,
            )
