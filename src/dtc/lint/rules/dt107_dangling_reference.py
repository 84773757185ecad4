from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate, chain
from operator import itemgetter

from dtc.compiler.compile import Exit
from dtc.compiler.model import Target
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity, Span
from dtc.lint.rules.base import SHAPE, Context, Rule, forgotten_blank_line, rule
from dtc.numbers import ENTRY

_KIND = {"success": "success", "failure": "failure", "prose": "prose"}
_target = itemgetter(0)  # an Exit's target


@rule("DT107", "dangling-reference", Severity.ERROR, reads=SHAPE, quotes_lines=True)
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

    ## Did you mean
    When the number looks like a slip for an entry nothing else leads to and the start does
    not reach — two digits swapped (`S73` for 37), or one digit changed, added or dropped — the
    message asks "did you mean 37?", and the fix on offer writes it (no guess for a number of
    one digit, which is one change from every other). Two swapped digits are
    rarely anything else: that fix is safe (`dtc lint --fix`), and entry 37 is then not also
    reported as unreachable (DT201), since this one finding is about both. Another slip (27 for
    26) may be an entry not yet written: that fix is unsafe, and DT201 still reports the
    entry. Several entries fit: they are all named, and no fix is offered.

    ## Fix
    Point the exit at the entry you meant, or write the missing entry. When the entry is
    there but was read as prose — in a book that puts a blank line before each entry, its
    first line follows a sentence with no blank line between — the message says where it is:
    add the blank line. That fix (unsafe: `dtc lint --fix --unsafe-fixes`, or the editor's
    quick fix) adds the blank line. No fix ever writes an entry for you: what it would say is
    yours to write.
    """
    res = ctx.res
    by_number = res.by_number  # exits hold numbers; a label no entry has stays a string, never a key
    # The targets no entry has, found without a Python step per exit: most books have none.
    flat = list(map(_target, chain.from_iterable(res.exits)))
    missing = set(flat).difference(by_number)
    if not missing:
        return
    near = near_misses(ctx, missing)
    for i in _naming(res.exits, flat, missing):
        out = res.exits[i]
        for x in out:
            if x.target not in by_number and x.kind in _KIND and not too_large(x.target):
                entry = ctx.doc.entries[i]
                span = res.exit_span(i, x) or entry.span
                blank = forgotten_blank_line(ctx, x.target)
                meant = near.get(x.target, []) if not blank else []
                yield self.diag(
                    ctx,
                    f"{_KIND[x.kind]} exit to entry {x.target}, which does not exist" + blank + _did_you_mean(meant),
                    span,
                    res.numbers[i],
                    _retarget(ctx, span, x.target, meant[0]) if len(meant) == 1 else _fix(ctx, x.target),
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
    """A blank line before the entry that was read as prose; else none (a fix never writes an
    entry: its text is the author's). Unsafe: the line may be prose after all."""
    if ctx.lines is None:
        return None
    where = ctx.prose_heads.get(target)
    if where is None:
        return None
    return Fix(f"Insert a blank line before line {where.line}", (Edit.insert(where.line, 1, "\n"),),
               Applicability.UNSAFE)


def _did_you_mean(meant: list[int]) -> str:
    if not meant:
        return ""
    if len(meant) == 1:
        return f"; did you mean {meant[0]}? (nothing leads to entry {meant[0]})"
    return f"; did you mean {' or '.join(map(str, meant))}? (nothing leads to any of them)"


def _retarget(ctx: Context, span: Span, target: Target, meant: int) -> Fix | None:
    """Write ``meant`` for the number ``target`` at the end of the exit's ``span`` (``S73``, ``go
    to 73``). Safe when one entry fits and the slip is two digits swapped, which is rarely
    anything else; unsafe for a digit changed, added or dropped (27 may mean 26, or a 27 not yet
    written)."""
    lines = ctx.lines
    if lines is None:
        return None
    lo, hi = lines.offset(span.line, span.column), lines.offset(span.end_line, span.end_column)
    digits = _DIGITS_AT_END.search(lines.text, lo, hi)
    if digits is None or int(digits.group()) != target:
        return None
    (l1, c1), (l2, c2) = lines.position(digits.start()), lines.position(digits.end())
    safe = Applicability.SAFE if swapped(target, meant) else Applicability.UNSAFE
    return Fix(f"Write {meant} for {target}", (Edit(Span(l1, c1, l2, c2), str(meant)),), safe)


def swapped(target: Target, meant: int) -> bool:
    """Whether ``meant`` is ``target`` with two adjacent digits swapped (73 for 37)."""
    a, b = str(target), str(meant)
    diff = [k for k in range(len(a)) if len(a) == len(b) and a[k] != b[k]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


_DIGITS_AT_END = re.compile(r"[0-9]+$")


def near_misses(ctx: Context, missing: set[Target]) -> dict[Target, list[int]]:
    """For each missing number, the entries it may be a slip for: numbers two swapped adjacent
    digits, or one digit changed, added or dropped, away, whose entry is unreachable from the
    start and led to by no other entry (none, when the start is missing)."""
    numbers = [t for t in missing if isinstance(t, int)]
    analysis = ctx.analysis
    if not numbers or not analysis.start_exists or not analysis.unreachable:
        return {}
    res = ctx.res
    led_to: set[Target] = set()
    for i, out in enumerate(res.exits):
        own = res.numbers[i]
        led_to.update(x.target for x in out if x.target != own)
    alone = {n for n in analysis.unreachable if n not in led_to and n != res.start}
    if not alone:
        return {}
    found: dict[Target, list[int]] = {}
    for target in numbers:
        meant = sorted(n for n in _slips(str(target)) if n in alone)
        if meant:
            found[target] = meant
    return found


def _slips(word: str) -> set[int]:
    """The numbers one slip away from ``word``'s: two adjacent digits swapped, or, in a number
    of two digits or more, one digit changed, added or dropped (no leading zero)."""
    out: set[str] = set()
    digits = "0123456789"
    for k in range(len(word) - 1):
        out.add(word[:k] + word[k + 1] + word[k] + word[k + 2:])
    if len(word) < 2:  # every one-digit number is one change from another: no guess
        return {int(w) for w in out}
    for k in range(len(word)):
        out.update(word[:k] + d + word[k + 1:] for d in digits)
        out.add(word[:k] + word[k + 1:])
    for k in range(len(word) + 1):
        out.update(word[:k] + d + word[k:] for d in digits)
    return {int(w) for w in out if w and w[0] != "0" and w != word}


def too_large(target: object) -> bool:
    """A target past the largest entry number, which number-out-of-range (DT121) reports."""
    return isinstance(target, int) and target > ENTRY
