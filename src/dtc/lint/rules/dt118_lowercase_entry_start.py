from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from dtc.compiler.model import Target
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity, Span
from dtc.lint.rules.base import Context, Rule, rule

#: How much of the line the message quotes.
_QUOTE_WORDS = 3


@rule("DT118", "lowercase-entry-start", Severity.WARNING)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A missing entry's head, read as prose because its text begins in lower case.

    ## What it finds
    A line such as `2 you walk into the hall.` where entry 2 is missing. An entry's text begins
    with a capital letter (or a digit, a quotation mark, `*`…), so a line whose number is
    followed by a lower-case word is read as prose — part of the entry above it — and the only
    other sign is the missing entry.

    dtc guesses that the line was meant to start entry N only when all of these hold, so that
    prose which happens to begin with a number ("3 rats scurry past") is left alone:

    1. The line is shaped like an entry's head: up to three spaces, the number (or `@label`),
       bold or not, then `.`, `)` or `:` or nothing, a space, and a lower-case letter.
    2. It stands where a head would stand: after a blank line or a comment line, or — in a book
       that does not put a blank line before each entry — after a line that ends a sentence.
    3. No entry has that number (or label).
    4. An exit leads to N, or N fits the numbering at that place: the nearest numbered line
       above it (an entry's head, or another such line) is N−1, or the nearest below is N+1.
       For a label, only an exit to it counts.
    5. And the numbers around it are in order: the nearest numbered line above it, if any, has
       a lower number and the nearest below, if any, a higher one.

    In a book without an `Adventure Entries` header, lines above the first entry are not
    looked at.

    ## Why it matters
    The entry is missing from the book: references to it are broken (DT107), the entry above
    it runs on into its text, and its choices become the choices of the entry above.

    ## Example
    ```
    1 A hall. Go on (D0, S2).

    2 you walk into the hall. THE END
    ```

    ## Fix
    Begin the entry's text with a capital letter: `2 You walk into the hall.` If the line is
    prose after all, reword it so that it does not begin with a bare number, or silence the
    finding for that entry with `<!-- dtc: ignore[lowercase-entry-start] -->`.
    """
    doc = ctx.doc
    if not doc.lowercase_heads:
        return
    res = ctx.res
    led_to: set[Target] = {x.target for exits in res.exits for x in exits if res.target_number(x.target) is None}
    # every numbered line in file order: entry heads and the lines in question
    missing = [(n, span, rest) for n, span, rest in doc.lowercase_heads if res.target_number(n) is None]
    numbered = sorted(
        [(e.span.line, e.number) for e in doc.entries if isinstance(e.number, int)]
        + [(span.line, n) for n, span, _ in missing if isinstance(n, int)]
    )
    lines = [line for line, _ in numbered]
    starts = [e.span.line for e in doc.entries]
    for target, span, rest in missing:  # a line whose number has an entry is prose
        referenced = target in led_to
        if isinstance(target, int):
            k = bisect_left(lines, span.line)
            above = numbered[k - 1][1] if k > 0 else None
            below = numbered[k + 1][1] if k + 1 < len(numbered) else None
            if (above is not None and above >= target) or (below is not None and below <= target):
                continue  # out of order here
            if not referenced and above != target - 1 and below != target + 1:
                continue
        elif not referenced:
            continue
        inside = bisect_left(starts, span.line + 1) - 1  # the entry whose text the line is in
        if inside >= 0:
            where = f"in entry {doc.entries[inside].number}"
            entry = res.numbers[inside]
        else:
            where, entry = "above the first entry", None
        words = rest.split()
        quote = " ".join(words[:_QUOTE_WORDS]) + (" …" if len(words) > _QUOTE_WORDS else "")
        fixed = quote[:1].upper() + quote[1:]
        led = "; an exit leads to it" if referenced else ""
        yield self.diag(
            ctx,
            f"'{target} {quote}' is read as prose {where}, not as entry {target}, because it goes on in lower"
            f" case (there is no entry {target}{led}); write '{target} {fixed}' if it starts entry {target}",
            span,
            entry,
            fix=_capital(target, span, rest),
        )


def _capital(target: object, span: Span, rest: str) -> Fix | None:
    """Begin the line's first word with a capital letter, so that the line starts entry N (unsafe:
    the author may have meant prose after all)."""
    word = rest.split(None, 1)[0] if rest.strip() else ""
    if not word[:1].islower():
        return None
    column = span.end_column - len(word)
    return Fix(f"Start entry {target} here: '{word[:1].upper()}{word[1:]}'",
               (Edit(Span(span.line, column, span.line, column + 1), word[:1].upper()),), Applicability.UNSAFE)
