from __future__ import annotations

import re
from collections.abc import Iterator

from dtc.compiler.model import Choice
from dtc.compiler.notation import Parsed, parse_notation
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule

#: The failure outcome written last in a parenthetical, with the separator before it.
_FAILURE = re.compile(r"[,\s\u00a0]*[Ff][\s\u00a0]*(?:[0-9]+|@[A-Za-z][\w-]*)[\s\u00a0]*(?=\)$)")


@rule("DT103", "failure-on-d0", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A difficulty-0 choice that gives a failure entry.

    ## What it finds
    `(D0, S5, F6)`: difficulty 0 means no roll, so the `F` entry can never be read.

    ## Why it matters
    Either the failure entry is unreachable from here, or the author meant a real check and
    wrote the wrong difficulty — both are mistakes a reader will hit.

    ## Example
    ```
    4 A door stands ajar (D0, S5, F6).
    ```

    ## Fix
    Drop the failure, `(D0, S5)`, or give the check a difficulty: `(D1, S5, F6)`. The fix on
    offer drops the failure; it is unsafe (`--unsafe-fixes`, or the editor's quick fix), since
    only the author knows which of the two was meant.
    """
    for number, c in ctx.choices:
        if c.difficulty == 0 and c.failure is not None:
            yield self.diag(
                ctx,
                f"D0 choice {c.text} has a failure entry, which can never be read",
                c.failure_span or c.span,
                number,
                _drop_failure(c),
            )


def _drop_failure(c: Choice) -> Fix | None:
    m = _FAILURE.search(c.text)
    if m is None:
        return None
    fixed = c.text[: m.start()] + c.text[m.end() :]
    parsed = parse_notation(fixed)
    if not isinstance(parsed, Parsed) or parsed.failure is not None:
        return None
    return Fix(f"Drop the failure: {fixed}", (Edit(c.span, fixed),), Applicability.UNSAFE)
