from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.frontmatter import limits, start_with
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT125", "malformed-holdings", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Start with:` or `Limits:` line dtc cannot read.

    ## What it finds
    The front matter's `Start with:` line (what the reader holds on the first page: names, each
    with an optional count before it, separated by commas) or `Limits:` line (a name and the
    most a reader can hold of it, each part separated by commas) that does not follow the
    grammar (`grammar/notation.lark`, rules `start_with` and `limits`): `Limits: coins fifty`,
    `Start with: 20`, an empty line. See "Writing a published gamebook" in `docs/format.md`.

    ## Why it matters
    A line dtc cannot read gives nothing: the reader starts without what the book meant them
    to carry, or holds any amount.

    ## Example
    ```
    Title: The Ferry
    Limits: coins fifty
    ```

    ## Fix
    Write counts as digits, after the name in `Limits:` (`coins 50`) and before it in
    `Start with:` (`20 gold crowns`).
    """
    for key, read in (("start with", start_with), ("limits", limits)):
        field = ctx.doc.meta.get(key)
        if field is None:
            continue
        for _, _, error in read(field.value):
            if error is not None:
                yield self.diag(ctx, f"{field.key}: {error[0]}", field.span)
