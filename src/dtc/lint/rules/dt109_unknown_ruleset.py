from __future__ import annotations

from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.rules.base import CONTENT, Context, Rule, rule
from dtc.systems import UnknownRuleset, get_ruleset


@rule("DT109", "unknown-ruleset", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """The `Rules:` key names a ruleset dtc does not know.

    ## What it finds
    A `Rules:` value (or one part of `base + overlay`) that is not a known ruleset name, or a
    base ruleset written where an overlay belongs (`maze-rats + zilch`).

    ## Why it matters
    Abilities, difficulties and the odds all come from the ruleset; without it none of them
    can be checked, so `unknown-ability` and `difficulty-range` stay silent.

    ## Example
    ```
    Rules: death-and-treasures
    ```

    ## Fix
    Use one of the names `dtc rules` lists.
    """
    field = ctx.doc.meta.get("rules")
    if field is None:
        return
    try:
        get_ruleset(field.value)
    except UnknownRuleset as exc:
        yield self.diag(
            ctx,
            exc.message,
            field.span if field else Span.point(1),
        )
