from __future__ import annotations

import re
from collections.abc import Iterator

from dtc import numbers
from dtc.compiler.compile import creature_index, match_creature
from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.rules.base import CONTENT, Context, Rule, rule

_DICE = re.compile(r"([0-9]*)[dD]([0-9]+)(?:[+-]([0-9]+))?")


@rule("DT121", "number-out-of-range", Severity.ERROR, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A number larger than dtc reads in its place.

    ## What it finds
    An entry number in a target (`S12`, `go to 12`), a `Start:` or a `Zones` row above
    9,999,999; a difficulty above D99; a creature's HP above 9,999, or its morale or another
    stat-block number above 999; an encounter-table row above 999; a count above 999 of a
    creature that has a stat block (other counted names may be things, and are not read);
    dice of more than 100 dice, 1,000 sides, or a modifier above 1,000. The caret points at
    the number (for a stat block, at the block).

    ## Why it matters
    No book needs such a number, and a mistyped one (a pasted run of digits) would otherwise
    make every command compute with it. dtc reads each of these numbers as one more than its
    bound, whatever its length, so every command still runs; the bounds are listed in
    `docs/reliability.md`.

    ## Example
    ```
    4 The drop is sheer (DEX D100, S5, F6).
    ```

    ## Fix
    Write the number you meant: `(DEX D2, S5, F6)`.
    """
    doc = ctx.doc
    index = creature_index(doc) if any(len(g.count) > 3 for e in doc.entries for g in e.mentions) else {}
    top_d, top_n = numbers.DIFFICULTY, numbers.ENTRY
    for number, c in ctx.choices:  # a book's hundreds of thousands: plain comparisons, spans only when due
        d, s, f = c.difficulty, c.success, c.failure
        if d is not None and d > top_d:
            yield self.diag(ctx, _message("difficulty", top_d, "D"), c.difficulty_span or c.span, number)
        if s.__class__ is int and s > top_n:
            yield self.diag(ctx, _message("entry number", top_n), c.success_span or c.span, number)
        if f.__class__ is int and f > top_n:
            yield self.diag(ctx, _message("entry number", top_n), c.failure_span or c.span, number)
    for i, entry in enumerate(doc.entries):
        owner = ctx.res.numbers[i]
        for p in entry.prose_exits:
            if isinstance(p.target, int) and numbers.too_large(p.target, numbers.ENTRY):
                yield self.diag(ctx, _message("entry number", numbers.ENTRY), p.span, owner)
        for group in entry.mentions:
            # Three characters hold no count or dice past their bounds; a name with no stat
            # block may count a thing, not creatures.
            if len(group.count) > 3 and match_creature(group.name, index) is not None:
                yield from _count(self, ctx, group.count, group.span, owner)
    start = doc.meta.get("start")
    if start is not None:
        value = start.value.strip()
        if value.isdigit() and value.isascii() and numbers.too_large(numbers.bounded(value, numbers.ENTRY),
                                                                     numbers.ENTRY):
            yield self.diag(ctx, _message("entry number", numbers.ENTRY), start.span)
    for row in doc.zones:
        if numbers.too_large(max(row.low, row.high), numbers.ENTRY):
            yield self.diag(ctx, _message("entry number", numbers.ENTRY), row.span)
    for enc in doc.encounters:
        if numbers.too_large(max(enc.low, enc.high), numbers.ROLL):
            yield self.diag(ctx, _message("encounter roll", numbers.ROLL), enc.span)
        for group in enc.groups:
            yield from _count(self, ctx, group.count, group.span, None)
    for h in doc.hazards:
        if h.check is not None and numbers.too_large(h.check.difficulty, numbers.DIFFICULTY):
            yield self.diag(ctx, _message("difficulty", numbers.DIFFICULTY, "D"), h.check.span, h.entry)
    for creature in doc.all_creatures():
        where = f"{creature.name}'s "
        if numbers.too_large(creature.hp, numbers.HP):
            yield self.diag(ctx, _message(where + "HP", numbers.HP), creature.span, creature.entry)
        if numbers.too_large(creature.morale, numbers.STAT):
            yield self.diag(ctx, _message(where + "morale", numbers.STAT), creature.span, creature.entry)
        for stat, amount in creature.stats.items():
            if numbers.too_large(amount, numbers.STAT):
                yield self.diag(ctx, _message(where + stat, numbers.STAT), creature.span, creature.entry)
        for attack in creature.attacks:
            problem = _dice_problem(attack.damage)
            if problem:
                yield self.diag(ctx, f"{where}{attack.name}: {problem}", creature.span, creature.entry)


def _message(what: str, bound: int, prefix: str = "") -> str:
    return f"{what} is larger than {prefix}{bound:,}, the largest dtc reads here"


def _count(self: Rule, ctx: Context, count: str, span: Span, owner: int | None) -> Iterator[Diagnostic]:
    if count.isdigit():
        if numbers.too_large(numbers.bounded(count, numbers.COUNT), numbers.COUNT):
            yield self.diag(ctx, _message("count of creatures", numbers.COUNT), span, owner)
        return
    problem = _dice_problem(count)
    if problem:
        yield self.diag(ctx, problem, span, owner)


def _dice_problem(text: str) -> str | None:
    """What is out of range in a dice expression such as ``2d6+1``, or None."""
    m = _DICE.fullmatch(text.replace(" ", ""))
    if m is None:
        return None
    if numbers.too_large(numbers.bounded(m.group(1) or "1", numbers.DICE), numbers.DICE):
        return f"dice of more than {numbers.DICE:,} dice, the most dtc rolls at once"
    if numbers.too_large(numbers.bounded(m.group(2), numbers.SIDES), numbers.SIDES):
        return f"dice of more than {numbers.SIDES:,} sides, the most dtc reads"
    if m.group(3) and numbers.too_large(numbers.bounded(m.group(3), numbers.MODIFIER), numbers.MODIFIER):
        return _message("dice modifier", numbers.MODIFIER)
    return None
