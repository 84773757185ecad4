from __future__ import annotations

import difflib
from collections.abc import Iterator

from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT126", "unknown-container", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A loss of the reader's choice from a container the book does not define.

    ## What it finds
    `[-1 item of choice from backpack]` (in an entry's text or on a choice) where the front
    matter's `Containers:` line names no `backpack` (or there is no such line). The reader would
    choose among nothing, so nothing is lost. When a container's name is close, the message
    suggests it ("did you mean"). See "Writing a published gamebook" in `docs/format.md`.

    ## Why it matters
    The loss the entry describes never happens: every engine finds nothing to choose from.

    ## Example
    ```
    Containers: pack: rope, meal

    4 A thief slits your bag. [-1 item of choice from backpack] Run (D0, S5).
    ```

    ## Fix
    Name the container as the `Containers:` line does (`from pack`), or add it there
    (`Containers: backpack: rope, meal`).
    """
    known = ctx.doc.containers
    for i, number in ctx.first_entries():
        entry = ctx.doc.entries[i]
        for ch in [*entry.changes, *(x for c in entry.choices for x in c.changes)]:
            source = ch.change.source if ch.change is not None else None
            if source is None or source in known:
                continue
            close = difflib.get_close_matches(source, list(known), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else (
                "" if known else " (the book has no Containers: line)")
            yield self.diag(ctx, f"no container is called '{source}'{hint}: the reader has nothing to choose from",
                            ch.span, number)
