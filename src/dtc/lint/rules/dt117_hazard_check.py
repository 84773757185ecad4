from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import CONTENT, Context, Rule, rule
from dtc.numbers import DIFFICULTY
from dtc.systems import has_overlay
from dtc.systems.dungeon_rules.ruleset import DUNGEON_RULES


@rule("DT117", "hazard-check", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A hazard's check names an ability or a difficulty the rules do not have.

    ## What it finds
    In `Check: PER D2` or `Check: CON D5`, an ability that is neither one of the base ruleset's
    nor one of Dungeon Rules' (STR CON INT WIS AGI LUCK WORLDSWAY), or a difficulty outside the
    ruleset's range (D0–D3 under Death & Treasure with Dungeon Rules).

    ## Why it matters
    Hazards are rolled as a d20 at or under a score; with no such score, or no such difficulty,
    neither the reader nor `dtc play` can roll it.

    ## Example
    ```
    Hazard: Ley Surge | Check: MAGIC D2 | Fail: a wild surge
    ```

    ## Fix
    Use an ability `dtc rules NAME` lists, as in `Check: WORLDSWAY or WIS D2`.
    """
    base = ctx.ruleset
    if base is None:
        return
    ruleset = base if has_overlay(base, DUNGEON_RULES.name) else base.combine(DUNGEON_RULES)
    names = " ".join(ruleset.ability_names)
    for h in ctx.doc.hazards:
        if h.check is None or h.error is not None:
            continue
        for ability in h.check.abilities:
            if ruleset.canonical_ability(ability) is None:
                yield self.diag(ctx, f"hazard '{h.name}': unknown ability '{ability}' (expected one of {names})",
                                h.check.span, h.entry)
        d = h.check.difficulty
        if d is not None and d not in ruleset.difficulties and d <= DIFFICULTY:  # else number-out-of-range
            low, high = min(ruleset.difficulties), max(ruleset.difficulties)
            yield self.diag(ctx, f"hazard '{h.name}': difficulty D{d} is not in {ruleset.title} (D{low}–D{high})",
                            h.check.span, h.entry)
