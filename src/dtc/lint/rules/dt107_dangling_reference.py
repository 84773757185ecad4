from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate, chain
from operator import itemgetter

from dtc.compiler.compile import Exit
from dtc.compiler.model import Target
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity
from dtc.lint.rules.base import Context, Rule, forgotten_blank_line, rule
from dtc.numbers import ENTRY

#: The entry a fix writes for a missing target.
STUB = "{number} TODO: write this entry."

_KIND = {"success": "success", "failure": "failure", "prose": "prose"}
_target = itemgetter(0)  # an Exit's target


@rule("DT107", "dangling-reference", Severity.ERROR)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An exit to an entry that does not exist.

    ## What it finds
    An `S`/`F` target, or a prose exit such as `go to 40`, naming an entry number (or
    `@label`) that no entry has.

    ## Why it matters
    The reader turns to a page that isn't there; `dtc play` ends the run with
    "cannot continue".

    ## Example
    ```
    3 A trapdoor (D1, S40, F4).
    ```

    ## Fix
    Write the missing entry, or point the exit at the entry you meant. When the entry is
    there but was read as prose — in a book that puts a blank line before each entry, its
    first line follows a sentence with no blank line between — the message says where it is:
    add the blank line. The fix on offer (unsafe: `dtc lint --fix --unsafe-fixes`, or the
    editor's quick fix) adds that blank line, or else writes a stub entry `40 TODO: write this
    entry.` in number order for you to finish.
    """
    res = ctx.res
    by_number = res.by_number  # exits hold numbers; a label no entry has stays a string, never a key
    # The targets no entry has, found without a Python step per exit: most books have none.
    flat = list(map(_target, chain.from_iterable(res.exits)))
    missing = set(flat).difference(by_number)
    if not missing:
        return
    for i in _naming(res.exits, flat, missing):
        out = res.exits[i]
        for x in out:
            if x.target not in by_number and x.kind in _KIND and not too_large(x.target):
                entry = ctx.doc.entries[i]
                yield self.diag(
                    ctx,
                    f"{_KIND[x.kind]} exit to entry {x.target}, which does not exist"
                    + forgotten_blank_line(ctx, x.target),
                    res.exit_span(i, x) or entry.span,
                    res.numbers[i],
                    _fix(ctx, x.target),
                )


def _naming(exits: list[list[Exit]], flat: list[Target], missing: set[Target]) -> list[int]:
    """Indexes of the entries with an exit to one of ``missing`` (``flat``: every exit's target,
    in order), found by searching ``flat`` for each when they are few."""
    if len(missing) > 8:
        return [i for i, out in enumerate(exits) if not missing.isdisjoint(map(_target, out))]
    ends = list(accumulate(map(len, exits)))  # past the last exit of each entry, in ``flat``
    found: set[int] = set()
    for target in missing:
        at = -1
        try:
            while True:
                at = flat.index(target, at + 1)
                found.add(bisect_right(ends, at))
        except ValueError:
            pass
    return sorted(found)


def _fix(ctx: Context, target: Target) -> Fix | None:
    """A blank line before the entry that was read as prose, else a stub entry in number order
    (a label's at the end of the file). Unsafe: the exit may point at the wrong number."""
    lines = ctx.lines
    if lines is None:
        return None
    where = ctx.prose_heads.get(target)
    if where is not None:
        return Fix(f"Insert a blank line before line {where.line}", (Edit.insert(where.line, 1, "\n"),),
                   Applicability.UNSAFE)
    res, doc = ctx.res, ctx.doc
    stub = STUB.format(number=target)
    title = f"Create entry {target}"
    after: int | None = None  # index of the entry to insert after
    if isinstance(target, int):
        numbers = res.numbers
        lower = [n for n in numbers if n < target]
        if lower:  # the last entry of the largest number below the target
            after = len(numbers) - 1 - numbers[::-1].index(max(lower))
        elif doc.entries:
            edit = Edit.insert(doc.entries[0].span.line, 1, f"{stub}\n\n")
            return Fix(title, (edit,), Applicability.UNSAFE)
    elif doc.entries:
        after = len(doc.entries) - 1
    if after is None:
        line, column = lines.end()
        return Fix(title, (Edit.insert(line, column, f"\n\n{stub}\n"),), Applicability.UNSAFE)
    # The entry's last line, comment lines after its text included.
    end = max([doc.entries[after].end_line] + [d.span.line for d in doc.directives if d.entry_index == after])
    return Fix(title, (Edit.insert(end, lines.length(end) + 1, f"\n\n{stub}"),), Applicability.UNSAFE)


def too_large(target: object) -> bool:
    """A target past the largest entry number, which number-out-of-range (DT121) reports."""
    return isinstance(target, int) and target > ENTRY
