from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.labels import words_before
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import ENTRY, Context, Rule, rule


@rule("DT307", "unlabelled-choice", Severity.WARNING, reads=ENTRY)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A choice with no label worth showing, so it is named by its target ("Go on to 14").

    ## What it finds
    A choice whose label (what `dtc play` offers, the web edition's card and the graph's
    arrow show) cannot be read from the text: there is no bold text before the notation, and
    the words before it name nothing — nothing at all (`... the hall. (D0, S2)`), a reference
    (`turn to 17`, `→ 14`), part of a stat block (`Morale 7 | Cutlass d6`) or a fragment
    (`the way you came`, `at least`, `deal with`; see "Choice labels" in `docs/format.md`). dtc
    then calls it `Go on to 14` (a move), `Try for 14` (a check) or `Roll d6` (a random branch).

    ## Why it matters
    A menu of "Go on to 14" and "Go on to 9" tells the reader nothing of where they go; a
    fragment ("came", "runs on") reads as a mistake.

    ## Example
    ```
    18 The foreman's office. Creep past the ghoul (AGI D3, S2, F19), or leave the way you came (D0, S14).
    ```

    ## Fix
    Name the choice in bold, `leave for the **Deep Workings** (D0, S14)`, or end the words
    before the notation on what the reader picks, `go back to the deep workings (D0, S14)`.
    dtc suggests no automatic fix: the words it found name nothing, so bolding them would only
    show the fragment; which words do is the author's call.
    """
    for number, c in ctx.choices:
        if c.error is not None or c.label_found:
            continue
        written = words_before(c.source[c.label_from : c.label_to])
        why = (f"the words before it ('{written}') name nothing a reader picks" if written
               else "nothing before it names it")
        yield self.diag(ctx, f"{why}, so readers see '{c.label}'; name it in bold: **Its Name** {c.text}",
                        c.span, number)
