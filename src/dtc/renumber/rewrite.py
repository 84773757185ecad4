"""Give an adventure's entries new numbers and rewrite every reference to them in the source.

Every place the parser records a reference is rewritten: entry heads (``Entry.span``), the S
and F targets of choice notation (``success_span``/``failure_span``, keeping the letter and
spacing as written), prose exits (``ProseExit.span``) and the ``Start:`` field. Edits are
applied from the end of the file backwards so the recorded offsets stay valid, and the result
is compiled again and compared with the original graph (:func:`difference`) before anything
is written.

Numbers come from :func:`plan_numbers`: in file order, or shuffled so that a check's two
outcomes are at least ``gap`` apart (:mod:`dtc.renumber.shuffle`). A :class:`NumberMap` from an earlier
run pins the numbers it lists, so a book's published numbers survive later edits.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dtc.compiler.api import Compilation, compile_text
from dtc.compiler.entries import LineIndex
from dtc.compiler.model import Target
from dtc.compiler.parse import META
from dtc.numbers import ENTRY, bounded
from dtc.renumber.check import difference
from dtc.renumber.shuffle import Infeasible, spread

MAP_FORMAT = "dtc-number-map"
_TOKEN_TAIL = re.compile(r"(?:[0-9]+|@[A-Za-z][A-Za-z0-9_-]*)$")
_LETTER = re.compile(r"[SsFf][ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]*")


#: Maps a target as written to the entry key it names (None: it names no entry).
Resolver = Callable[[Target], Target | None]


class RenumberError(ValueError):
    """The source cannot be renumbered safely; the message says why (one line per problem)."""


@dataclass(slots=True)
class NumberMap:
    """What an earlier run assigned: labels' numbers, and the numbers that are published."""

    labels: dict[str, int] = field(default_factory=dict)
    numbers: set[int] = field(default_factory=set)
    last_run: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> str:
        def dump(value: object) -> str:
            return json.dumps(value, ensure_ascii=False)

        lines = [
            f'  "format": {dump(MAP_FORMAT)}',
            '  "version": 1',
            f'  "numbers": {dump(sorted(self.numbers))}',
            f'  "labels": {dump(dict(sorted(self.labels.items())))}',
            f'  "last_run": {dump(self.last_run)}',
        ]
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> NumberMap:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RenumberError(f"{where}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
        except ValueError:  # a number of more than 4,300 digits
            raise RenumberError(f"{where}: a number too long to be an entry number") from None
        except RecursionError:
            raise RenumberError(f"{where}: nested too deeply to be a number map") from None
        if not isinstance(data, dict) or data.get("format") != MAP_FORMAT:
            raise RenumberError(f"{where}: not a dtc number map (no \"format\": \"{MAP_FORMAT}\")")
        numbers, labels = data.get("numbers", []), data.get("labels", {})
        if not isinstance(numbers, list) or not all(_is_number(n) for n in numbers):
            raise RenumberError(f"{where}: \"numbers\" must be a list of entry numbers")
        if not isinstance(labels, dict) or not all(
            isinstance(k, str) and k.startswith("@") and _is_number(v) for k, v in labels.items()
        ):
            raise RenumberError(f"{where}: \"labels\" must map \"@label\" to an entry number")
        return cls(dict(labels), set(numbers))


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= ENTRY


@dataclass(slots=True)
class Options:
    shuffle: bool = False
    seed: int | None = None
    gap: int = 3
    keep: tuple[int, ...] = ()
    previous: NumberMap | None = None


@dataclass(slots=True)
class Result:
    text: str
    #: Entry key as written (number or ``"@label"``) -> its new number.
    numbers: dict[Target, int]
    number_map: NumberMap
    seed: int | None
    warnings: list[str] = field(default_factory=list)

    @property
    def moved(self) -> int:
        return sum(1 for key, n in self.numbers.items() if key != n)


def renumber(text: str, path: str, options: Options) -> Result:
    """Renumber the source ``text``; raise :class:`RenumberError` when it is not safe to."""
    before = compile_text(text, path)
    resolve_target = _target_resolver(before, options.previous)
    _refuse_unsafe(before, resolve_target, path)
    rng_seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 31)
    numbers, warnings = plan_numbers(before, resolve_target, options, random.Random(rng_seed))
    new_text = rewrite(before, numbers, resolve_target)
    after = compile_text(new_text, path)
    by_old: dict[Target, int] = {
        before.resolved.numbers[i]: numbers[e.number] for i, e in enumerate(before.doc.entries)
    }
    for label in options.previous.labels if options.previous else ():
        key = resolve_target(label)
        if key is not None:
            by_old.setdefault(label, numbers[key])
    # The check compares structure, text modulo numbers and creatures, never the effects read
    # from the prose (which follow from the text): the graphs are built without them.
    problem = difference(before.graph(effects=False), after.graph(effects=False), by_old)
    if problem is not None:
        raise RenumberError(f"{path}: renumbering would change the adventure ({problem}); nothing written")
    labels = dict(options.previous.labels) if options.previous else {}
    labels.update({k: n for k, n in numbers.items() if isinstance(k, str)})
    published = set(numbers.values())
    new_map = NumberMap(
        {k: n for k, n in labels.items() if n in published},
        published,
        {str(k): n for k, n in numbers.items() if k != n},
    )
    return Result(new_text, numbers, new_map, rng_seed if options.shuffle else None, warnings)


def _target_resolver(comp: Compilation, previous: NumberMap | None) -> Resolver:
    keys = {e.number for e in comp.doc.entries}

    def resolve(target: Target) -> Target | None:
        """The entry key a written target names: itself, or a mapped label's number."""
        if target in keys:
            return target
        if isinstance(target, str) and previous is not None and previous.labels.get(target) in keys:
            return previous.labels[target]
        return None

    return resolve


def _refuse_unsafe(comp: Compilation, resolve: Resolver, path: str) -> None:
    doc = comp.doc
    problems: list[str] = []
    if not doc.entries:
        raise RenumberError(f"{path}: no entries to renumber")
    seen: set[Target] = set()
    for entry in doc.entries:
        where = f"{path}:{entry.span.line}:{entry.span.column}"
        if entry.number in seen:
            problems.append(f"{where}: entry {entry.number} appears twice; give one of them another number")
        seen.add(entry.number)
        for c in entry.choices:
            if c.error is not None:
                bad = c.error_span or c.span
                problems.append(f"{path}:{bad.line}:{bad.column}: choice notation does not parse ({c.error})")
            branches = [(b.target, b.span, "S") for b in c.roll.branches] if c.roll is not None else []
            for target, span, letter in ((c.success, c.success_span, "S"), (c.failure, c.failure_span, "F"),
                                         *branches):
                if target is not None and span is not None and resolve(target) is None:
                    problems.append(f"{path}:{span.line}:{span.column}: {letter}{target} names no entry")
        for p in entry.prose_exits:
            if resolve(p.target) is None:
                problems.append(f"{path}:{p.span.line}:{p.span.column}: '{p.phrase}' names no entry")
    start = doc.meta.get("start")
    if start is not None:
        value = start.value.strip()
        named = re.fullmatch(r"[0-9]+|@[A-Za-z][A-Za-z0-9_-]*", value)
        if named and resolve(bounded(value, ENTRY) if value.isdigit() else value) is None:
            problems.append(f"{path}:{start.span.line}:1: Start: {value} names no entry")
    if problems:
        shown = problems[:20] + ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])
        raise RenumberError("\n".join([*shown, "fix these first (see `dtc lint`); nothing written"]))


def _start_key(comp: Compilation) -> Target | None:
    """The key of the entry the reader starts at (None when the start names no entry)."""
    res = comp.resolved
    if res.start is None or res.start not in res.by_number:
        return None
    return comp.doc.entries[res.by_number[res.start]].number


def plan_numbers(
    comp: Compilation, resolve: Resolver, options: Options, rng: random.Random
) -> tuple[dict[Target, int], list[str]]:
    """Decide every entry's new number: (entry key -> number, warnings).

    Kept numbers (``--keep``, and what the previous map lists) stay. When shuffling, the start
    entry gets the lowest free number; in a book without ``Start:`` the start is the lowest
    number, so it must stay the lowest of all.
    """
    keys: list[Target] = [e.number for e in comp.doc.entries]
    fixed = _pinned(keys, options)
    free = [k for k in keys if k not in fixed]
    used = set(fixed.values())
    top = max([len(keys), *used])
    pool = [n for n in range(1, top + 1) if n not in used]
    start = _start_key(comp)
    if start in free and pool and (options.shuffle or "start" not in comp.doc.meta):
        fixed[start] = pool.pop(0)
        free.remove(start)
    lowest = min([*pool, *fixed.values()])
    if start is not None and "start" not in comp.doc.meta and fixed.get(start) != lowest:
        raise RenumberError(
            f"{comp.path}: the start entry {start} is the lowest number only while it stays so; "
            f"add 'Start: {start}' to the front matter, or keep it lowest"
        )
    if not options.shuffle:
        numbers = dict(fixed)
        numbers.update(zip(free, pool, strict=False))
        return numbers, []
    pairs, warnings = _outcome_pairs(comp, resolve, fixed, options.gap)
    try:
        numbers = spread(free, pool, fixed, pairs, options.gap, rng)
    except Infeasible as exc:
        prev = options.previous
        hint = "; run with --fresh to renumber every entry" if prev is not None and prev.numbers else ""
        raise RenumberError(f"{comp.path}: {exc}{hint}") from None
    numbers.update(fixed)
    return numbers, warnings


def _pinned(keys: list[Target], options: Options) -> dict[Target, int]:
    """Entries whose numbers may not change: ``--keep``, then the previous map's numbers."""
    fixed: dict[Target, int] = {}
    for n in options.keep:
        if n not in keys:
            raise RenumberError(f"--keep {n}: no entry is numbered {n}")
        fixed[n] = n
    prev = options.previous
    if prev is None:
        return fixed
    for k in keys:
        if isinstance(k, int) and k in prev.numbers:
            fixed.setdefault(k, k)
    used = set(fixed.values())
    for k in keys:
        label_number = prev.labels.get(k) if isinstance(k, str) else None
        if label_number is not None and label_number not in used and label_number not in keys:
            fixed[k] = label_number
            used.add(label_number)
    return fixed


def _outcome_pairs(
    comp: Compilation, resolve: Resolver, fixed: dict[Target, int], gap: int
) -> tuple[list[tuple[Target, Target]], list[str]]:
    pairs: list[tuple[Target, Target]] = []
    warnings: list[str] = []
    for entry in comp.doc.entries:
        for c in entry.choices:
            if c.success is None or c.failure is None:
                continue
            s, f = resolve(c.success), resolve(c.failure)
            if s is None or f is None or s == f:
                continue
            if s in fixed and f in fixed and abs(fixed[s] - fixed[f]) < gap:
                warnings.append(
                    f"{comp.path}:{c.span.line}:{c.span.column}: S and F are kept at "
                    f"{fixed[s]} and {fixed[f]}, closer than {gap}"
                )
            pairs.append((s, f))
    return pairs, warnings


def rewrite(comp: Compilation, numbers: dict[Target, int], resolve: Resolver) -> str:
    """The source with every recorded reference replaced, edited from the end backwards."""
    text = comp.text
    index = LineIndex(text)

    def offset(line: int, column: int) -> int:
        return index.starts[line - 1] + column - 1

    edits: list[tuple[int, int, str]] = []

    def replace_tail(start: int, end: int, target: Target) -> None:
        """Replace the target token that ends the text between ``start`` and ``end``."""
        key = resolve(target)
        tail = _TOKEN_TAIL.search(text, start, end)
        if key is None or tail is None:
            return
        edits.append((tail.start(), tail.end(), str(numbers[key])))

    for entry in comp.doc.entries:
        head = entry.span
        new_head = str(numbers[entry.number])
        edits.append((offset(head.line, head.column), offset(head.end_line, head.end_column), new_head))
        for c in entry.choices:
            branches = [(b.target, b.span) for b in c.roll.branches] if c.roll is not None else []
            for target, tspan in ((c.success, c.success_span), (c.failure, c.failure_span), *branches):
                if target is None or tspan is None:
                    continue
                start, end = offset(tspan.line, tspan.column), offset(tspan.end_line, tspan.end_column)
                letter = _LETTER.match(text, start, end)
                if letter is not None:
                    replace_tail(letter.end(), end, target)
        for p in entry.prose_exits:
            where = p.span
            replace_tail(offset(where.line, where.column), offset(where.end_line, where.end_column), p.target)
    start_field = comp.doc.meta.get("start")
    if start_field is not None:
        line_start = index.starts[start_field.span.line - 1]
        line_end = text.find("\n", line_start)
        m = META.fullmatch(text, line_start, len(text) if line_end == -1 else line_end)
        value = start_field.value.strip()
        if m is not None and re.fullmatch(r"[0-9]+|@[A-Za-z][A-Za-z0-9_-]*", value):
            replace_tail(m.start(2), m.end(2), bounded(value, ENTRY) if value.isdigit() else value)
    pieces: list[str] = []
    pos = len(text)
    for start, end, new in sorted(edits, reverse=True):
        if end > pos:
            continue  # overlapping edit: never produced by the parser's spans
        pieces += (text[end:pos], new)
        pos = start
    pieces.append(text[:pos])
    return "".join(reversed(pieces))
