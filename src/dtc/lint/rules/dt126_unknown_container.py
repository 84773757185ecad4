from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping

from dtc.compiler.model import Entry, StateChange
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
    doc = ctx.doc
    known = doc.containers
    for i, number in ctx.first_entries():
        # the entry as parsed (list.__getitem__): its effects are read, not its place, so the
        # language server is not asked to move every entry after an edit; a finding's entry is
        # taken at its place (doc.entries[i])
        if not any(_unknown(ch, known) for ch in _changes(list.__getitem__(doc.entries, i))):
            continue
        for ch in _changes(doc.entries[i]):
            source = ch.change.source if ch.change is not None else None
            if source is None or source in known:
                continue
            close = difflib.get_close_matches(source, list(known), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else (
                "" if known else " (the book has no Containers: line)")
            yield self.diag(ctx, f"no container is called '{source}'{hint}: the reader has nothing to choose from",
                            ch.span, number)


def _changes(entry: Entry) -> list[StateChange]:
    return [*entry.changes, *(x for c in entry.choices for x in c.changes)]


def _unknown(ch: StateChange, known: Mapping[str, object]) -> bool:
    source = ch.change.source if ch.change is not None else None
    return source is not None and source not in known
