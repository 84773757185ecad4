from __future__ import annotations

import re
from collections.abc import Iterator

from dtc.compiler.model import Choice
from dtc.compiler.notation import Parsed, parse_notation
from dtc.diagnostics import Diagnostic, Edit, Fix, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule

_SPACES = "\t \u00a0\u2000-\u200b\u202f\u205f\u3000"
_TOKENS = re.compile(
    rf"(?P<ability>[^\W\d_]+(?![{_SPACES}]*[0-9@]))|(?P<d>[Dd][{_SPACES}]*[0-9]+)"
    rf"|(?P<s>[Ss][{_SPACES}]*(?:[0-9]+|@[A-Za-z][\w-]*))|(?P<f>[Ff][{_SPACES}]*(?:[0-9]+|@[A-Za-z][\w-]*))"
    rf"|(?P<sep>[,{_SPACES}]+)"
)


def fix_commas(text: str) -> str | None:
    """``(DEX D2 S13 F14)`` -> ``(DEX D2, S13, F14)``; None when commas alone do not fix it."""
    if not (text.startswith("(") and text.endswith(")")):
        return None
    inner = text[1:-1]
    pos = 0
    found: list[tuple[str, str]] = []
    while pos < len(inner):
        m = _TOKENS.match(inner, pos)
        if m is None:
            return None
        kind = m.lastgroup
        assert kind is not None
        if kind != "sep":
            found.append((kind, m.group(0)))
        pos = m.end()
    kinds = [k for k, _ in found]
    if kinds not in (["d", "s"], ["d", "s", "f"], ["ability", "d", "s"], ["ability", "d", "s", "f"]):
        return None
    words = [t for _, t in found]
    head = " ".join(words[:2]) if kinds[0] == "ability" else words[0]
    rest = words[2:] if kinds[0] == "ability" else words[1:]
    fixed = "(" + ", ".join([head, *rest]) + ")"
    return fixed if fixed != text and isinstance(parse_notation(fixed), Parsed) else None


def _fix(c: Choice) -> Fix | None:
    """Commas put in, when that is all the notation lacks: safe, the tokens stay as written."""
    fixed = fix_commas(c.text)
    if fixed is None:
        return None
    return Fix(f"Insert the missing commas: {fixed}", (Edit(c.span, fixed),))


@rule("DT101", "malformed-choice", Severity.ERROR, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A parenthetical meant as choice notation that does not parse.

    ## What it finds
    A parenthetical holding notation tokens (`S12`, `F7`, or a leading `D2,`) that the notation
    grammar refuses. The caret points at the offending token and the message says what was
    expected there.

    ## Why it matters
    The reader — and `dtc play` — cannot tell what the check is or where it leads. Prose
    parentheticals such as `(1,000 coins)` or `(d4 damage)` are never reported.

    ## Example
    ```
    12 The bridge sways. Cross it (DEX D2 S13 F14).
    ```

    ## Fix
    Write `([ABILITY] D<n>, S<n>[, F<n>])` with commas: `(DEX D2, S13, F14)`. When commas are
    all it lacks, `dtc lint --fix` (and the editor's quick fix) puts them in.
    """
    for i in ctx.res.malformed:  # the entries that hold such notation
        for c in ctx.doc.entries[i].choices:
            if c.error is not None:
                yield self.diag(ctx, f"malformed choice {c.text}: {c.error}", c.error_span or c.span,
                                ctx.res.numbers[i], _fix(c))
