from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.frontmatter import chosen, containers, limits, start_with
from dtc.diagnostics import Diagnostic, Severity
from dtc.lint.rules.base import Context, Rule, rule


@rule("DT125", "malformed-holdings", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Start with:`, `Limits:` or `Containers:` line dtc cannot read.

    ## What it finds
    The front matter's `Start with:` line (what the reader holds on the first page: names, each
    with an optional count before it, separated by commas), `Limits:` line (a name and the
    most a reader can hold of it, each part separated by commas, `(choose)` after a container's)
    or `Containers:` line (a container's name, a colon and the possessions it holds, separated
    by commas; containers separated by semicolons) that does not follow the grammar
    (`grammar/notation.lark`, rules `start_with`, `limits` and `containers`): `Limits: coins
    fifty`, `Start with: 20`, an empty line, a possession put in two containers, or `(choose)`
    after a name that is no container. See "Writing a published gamebook" in `docs/format.md`.

    ## Why it matters
    A line dtc cannot read gives nothing: the reader starts without what the book meant them
    to carry, or holds any amount. `(choose)` lets the reader choose which of a container's
    possessions to drop; a name alone has nothing to choose among.

    ## Example
    ```
    Title: The Ferry
    Limits: coins fifty
    ```

    ## Fix
    Write counts as digits, after the name in `Limits:` (`coins 50`) and before it in
    `Start with:` (`20 gold crowns`); name each possession in one container only
    (`Containers: backpack: rope, meal; weapons: sword`); write `(choose)` only after a container.
    """
    meta = ctx.doc.meta
    for key, read in (("start with", start_with), ("limits", limits)):
        field = meta.get(key)
        if field is None:
            continue
        for _, _, error in read(field.value):
            if error is not None:
                yield self.diag(ctx, f"{field.key}: {error[0]}", field.span)
    field = meta.get("containers")
    if field is not None:
        for _, _, error in containers(field.value):
            if error is not None:
                yield self.diag(ctx, f"{field.key}: {error[0]}", field.span)
    field = meta.get("limits")
    if field is not None:
        known = ctx.doc.containers
        for name in sorted(chosen(field.value) - set(known)):
            yield self.diag(ctx, f"{field.key}: '(choose)' after {name}, which is no container: name it in a "
                                 "Containers: line, or remove '(choose)' (a gain past its limit is lost)", field.span)
