"""Applying the fixes diagnostics carry: positions to offsets, overlaps resolved, rounds repeated.

Spans are 1-based lines and characters of the text dtc read (``\\n`` line ends, no BOM). Fixes are
taken in a fixed order — by where their first edit starts, then rule code, then title — and one
whose edits overlap an edit already taken waits for the next round: the book is linted again
after each round, so a finding a fix resolves is not fixed twice, and a fix that no longer
applies is not applied. Rounds stop when nothing more applies, or after :data:`MAX_ROUNDS`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, pairwise

from dtc.diagnostics import Diagnostic, Edit, Fix, Span

#: Fix rounds at most (each: lint, apply what does not overlap, lint again).
MAX_ROUNDS = 10


class Lines:
    """Line starts of a text, to turn (line, column) into offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        at = text.find("\n")
        while at != -1:
            self.starts.append(at + 1)
            at = text.find("\n", at + 1)

    @classmethod
    def of_lines(cls, text: str, lines: list[str]) -> Lines:
        """``Lines(text)`` from ``lines``, which must be ``text.split("\\n")`` (a caller may
        already hold them), without looking at the text again; lines whose lengths do not add
        up to the text's are refused (``Lines(text)`` then)."""
        starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        if starts[-1] != len(text) + 1:  # not the text's lines
            return cls(text)
        starts.pop()
        found = cls.__new__(cls)
        found.text, found.starts = text, starts
        return found

    @property
    def count(self) -> int:
        """Lines in the text (a final line end opens no line of its own)."""
        return len(self.starts) - (1 if self.text.endswith("\n") else 0)

    def length(self, line: int) -> int:
        """Characters on ``line`` (1-based), its line end not counted."""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return end - start

    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based position, clamped to the text."""
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[max(line, 1) - 1]
        return min(start + max(column, 1) - 1, start + self.length(max(line, 1)))

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def end(self) -> tuple[int, int]:
        """The position just past the last character."""
        return self.position(len(self.text))

    def delete_line(self, line: int) -> Edit:
        """An edit that removes ``line`` whole, its line end included."""
        if line < len(self.starts):
            return Edit(Span(line, 1, line + 1, 1), "")
        if line > 1:  # the last line, with no line end after it: take the one before it
            return Edit(Span(line - 1, self.length(line - 1) + 1, line, self.length(line) + 1), "")
        return Edit(Span(1, 1, 1, self.length(1) + 1), "")


def _order(fix: Fix, lines: Lines, code: str) -> tuple[int, str, str]:
    first = min((lines.offset(e.span.line, e.span.column) for e in fix.edits), default=0)
    return first, code, fix.title


def apply_fixes(text: str, found: Iterable[tuple[str, Fix]]) -> tuple[str, int]:
    """Apply the fixes (``(rule code, fix)`` pairs) whose edits overlap no edit taken before them.

    Returns the new text and how many fixes were applied. Two insertions at the same place
    overlap too (which comes first would be a guess), as do identical fixes of two findings.
    """
    lines = Lines(text)
    taken: list[tuple[int, int, str]] = []
    applied = 0
    for _code, fix in sorted(found, key=lambda cf: _order(cf[1], lines, cf[0])):
        edits = [(lines.offset(e.span.line, e.span.column), lines.offset(e.span.end_line, e.span.end_column),
                  e.replacement) for e in fix.edits]
        if any(start > end for start, end, _ in edits) or _overlaps(edits) or any(
                _overlaps([edit, other]) for edit in edits for other in taken):
            continue
        taken.extend(edits)
        applied += 1
    out: list[str] = []
    pos = 0
    for start, end, replacement in sorted(taken, key=lambda t: (t[0], t[1])):
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out), applied


def _overlaps(edits: Sequence[tuple[int, int, str]]) -> bool:
    ordered = sorted(edits, key=lambda t: (t[0], t[1]))
    # Sorted by start: a range that starts before the one before it ends overlaps it, and two
    # that start at one place (two insertions there, say) have no order to keep.
    return any(s2 < e1 or s2 == s1 for (s1, e1, _), (s2, _e2, _) in pairwise(ordered))


@dataclass(slots=True)
class Outcome:
    """What fixing one text came to."""

    text: str
    fixed: int = 0
    remaining: list[Diagnostic] = field(default_factory=list)


def fix_text(text: str, lint: Callable[[str], list[Diagnostic]], *, unsafe: bool = False) -> Outcome:
    """Lint ``text``, apply the fixes allowed (safe ones; unsafe too with ``unsafe``), lint again,
    until nothing more applies; the findings left are those of the final text."""
    found = lint(text)
    outcome = Outcome(text, 0, found)
    for _ in range(MAX_ROUNDS):
        fixes = [(d.code, d.fix) for d in outcome.remaining if d.fix is not None and (unsafe or d.fix.safe)]
        if not fixes:
            break
        new, applied = apply_fixes(outcome.text, fixes)
        if not applied or new == outcome.text:
            break
        outcome.text, outcome.fixed = new, outcome.fixed + applied
        outcome.remaining = lint(new)
    return outcome
