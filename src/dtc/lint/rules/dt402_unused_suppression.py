from __future__ import annotations

from collections.abc import Iterable, Iterator

from dtc.diagnostics import Diagnostic, Edit, Fix, Severity
from dtc.lint.rules.base import Context, Rule, rule
from dtc.lint.suppressions import Suppression, Unused, directive_for, scope_text


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
    Delete the comment, or the rule's name from its list. `dtc lint --fix` does it (safe: the
    comment silences nothing): it deletes a comment none of whose rules found anything, and
    else writes it again without the unused ones, keeping its reason.
    """
    return iter(())


def report(self: Rule, ctx: Context, unused: Iterable[Unused]) -> Iterator[Diagnostic]:
    """The findings for suppressions that :func:`dtc.lint.suppressions.apply` found unused."""
    from dtc.lint.rules import RULES

    unused = list(unused)
    idle: dict[int, set[str]] = {}  # line of a suppression -> its unused codes
    for u in unused:
        idle.setdefault(u.suppression.directive.span.line, set()).add(u.code)
    for u in unused:
        index = u.suppression.entry_index
        name = RULES[u.code].name
        yield self.diag(
            ctx,
            f"unused suppression: no {name} ({u.code}) finding in {scope_text(u.suppression, ctx.res)}",
            u.suppression.directive.span,
            None if index is None else ctx.res.numbers[index],
            _fix(ctx, u.suppression, idle[u.suppression.directive.span.line]),
        )


def _fix(ctx: Context, s: Suppression, idle: set[str]) -> Fix | None:
    """Every finding of one comment gets the same fix: drop all of its unused rules at once."""
    if ctx.lines is None:
        return None
    keep = [c for c in s.codes if c not in idle]
    if not keep:
        return Fix("Delete the unused suppression", (ctx.lines.delete_line(s.directive.span.line),))
    text = s.directive.text
    close = text.find("]")
    reason = text[close + 1 : -3].strip() if close != -1 and text.endswith("-->") else ""
    return Fix(f"Remove {', '.join(sorted(idle))} from the suppression",
               (Edit(s.directive.span, directive_for(keep, reason)),))
