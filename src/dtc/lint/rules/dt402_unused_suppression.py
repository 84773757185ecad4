from __future__ import annotations

from collections.abc import Iterable, Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.suppressions import Unused, scope_text


@rule("DT402", "unused-suppression", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A suppression comment that silences no finding.

    ## What it finds
    A rule named in `<!-- dtc: ignore[...] -->` that reported nothing where the comment applies:
    in its entry (a comment inside an entry), or anywhere in the file (a comment above the first
    entry). Rules that were not run (`--select`, `--ignore`, configuration) are not judged.
    This rule is reported by `dtc lint` after every other rule has run.

    ## Why it matters
    The problem was fixed but the comment stayed; left in place it will silently hide the next,
    unrelated problem of that kind in the entry.

    ## Example
    ```
    21 You find frog stew. Return to 17.
    <!-- dtc: ignore[dead-end] -->
    ```

    ## Fix
    Delete the comment, or the rule's name from its list.
    """
    return iter(())


def report(self: Rule, ctx: Context, unused: Iterable[Unused]) -> Iterator[Diagnostic]:
    """The findings for suppressions that :func:`dtc.lint.suppressions.apply` found unused."""
    from dtc.lint.rules import RULES

    for u in unused:
        index = u.suppression.entry_index
        name = RULES[u.code].name
        yield self.diag(
            ctx,
            f"unused suppression: no {name} ({u.code}) finding in {scope_text(u.suppression, ctx.res)}",
            u.suppression.directive.span,
            None if index is None else ctx.res.numbers[index],
        )
