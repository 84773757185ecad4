"""Resolution and graph facts put together from each chunk's part (the language server).

:class:`_Part` is what :func:`dtc.compiler.compile.resolve` works out for one chunk's entries —
through the same resolver, :func:`dtc.compiler.compile.resolve_exits` — before the "return to
your most recent entry" exits, which depend on the whole book (:func:`_add_returns`).
:class:`_Graph` keeps the entry graph and the searches of what the start reaches and what can
still reach an ending, patched after an entry is deleted or pasted instead of built again.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from operator import itemgetter

from dtc.compiler.compile import Exit, Resolved, resolve_exits, settle_start
from dtc.compiler.model import Entry, Target
from dtc.lint.analysis import Analysis, extend
from dtc.lsp.shifting import shift_any as _shift_any

_target = itemgetter(0)


_Edges = Counter[tuple[int, int]]


class _Graph:
    """The entry graph of one resolution, as :meth:`IncrementalParser.analysis` put it together
    (in a book with no malformed choices): successors and predecessors by
    entry number, the targets that name no entry with the entries naming them, the endings and
    the entries that write a way on. After an entry is deleted or pasted (the other entries'
    exits the same) it is patched (:meth:`patched`) rather than built again: only the entries
    replaced, and those with an exit to a number that went or came, are looked at. The lists
    are never changed in place (an earlier version's facts may still hold them)."""

    def __init__(self, res: Resolved, out: dict[int, list[int]], back: dict[int, list[int]],
                 dangling: dict[object, list[int]], endings: set[int], written: set[int]) -> None:
        self.res = res
        self.out = out
        self.back = back
        self.dangling = dangling
        self.endings = endings
        self.written = written
        #: The facts last handed out for this graph (their reach searches, once made, may be
        #: carried over to the next version's: see :meth:`analysis`).
        self.facts: Analysis | None = None
        #: (the previous version's facts and endings, the entries gone, the edges taken out and
        #: put in) when this graph was patched from it.
        self.since: tuple[Analysis, set[int], set[int], _Edges, _Edges] | None = None

    def analysis(self) -> Analysis:
        """The facts of this graph. When it was patched, what the start reaches and what reaches
        an ending or the entrance are carried over from the previous version's searches when the
        edit provably left them as they were but for what the new edges add (searched from
        there): no edge taken out leaves an entry the start reached (for the first) or joins two
        entries that reached a goal (for the second), no entry that went was reached, no ending
        was lost, the start is the same."""
        facts = Analysis(self.out, self.endings, self.res.start, self.written, self.back)
        self.facts = facts
        if self.since is None:
            return facts
        prev, prev_endings, gone, taken, put = self.since
        self.since = None
        if prev.start != facts.start:
            return facts
        known = prev.__dict__.get("reachable")  # a cached_property, if it was computed
        if known is not None and all(u not in known for u, _ in taken) and known.isdisjoint(gone):
            seeds = {v for u, v in put if u in known and v not in known}
            facts.__dict__["reachable"] = extend(self.out, known, seeds)
        known = prev.__dict__.get("escapable")
        if (known is not None and all(u not in known or v not in known for u, v in taken)
                and known.isdisjoint(gone) and prev_endings <= self.endings):
            seeds = {u for u, v in put if v in known and u not in known}
            seeds.update(n for n in self.endings - prev_endings if n not in known)
            facts.__dict__["escapable"] = extend(self.back, known, seeds)
        return facts

    def patched(self, res: Resolved, at: int, old: int, new: int, flags: list[tuple[bool, bool]],
                rerouted: list[int]) -> _Graph:
        """The graph of ``res``, whose entries ``at .. at + new`` replaced this one's ``at ..
        at + old`` (flags: ending, writes a way on, of each new entry), the others' exits the same
        but the returns of the entries ``rerouted`` (by number)."""
        prev = self.res
        prev_by, prev_exits = prev.by_number, prev.exits
        by_number, exits = res.by_number, res.exits
        out, back, dangling = dict(self.out), dict(self.back), dict(self.dangling)
        endings, written = set(self.endings), set(self.written)
        removed = prev.numbers[at : at + old]
        added = res.numbers[at : at + new]

        taken: _Edges = Counter()
        put: _Edges = Counter()

        def take_out(n: int) -> None:  # n's edges, as the previous version had them
            for t in out.pop(n):
                taken[n, t] += 1
                if t in back:
                    back[t] = [x for x in back[t] if x != n]
            for t in map(_target, prev_exits[prev_by[n]]):
                if t not in prev_by and t in dangling:
                    rest = [x for x in dangling[t] if x != n]
                    if rest:
                        dangling[t] = rest
                    else:
                        del dangling[t]

        def put_in(n: int) -> None:  # n's edges, as this version has them
            succ = [t for t in map(_target, exits[by_number[n]]) if t in by_number]
            out[n] = succ
            for t in succ:
                back[t] = [*back[t], n]
                put[n, t] += 1
            if len(succ) != len(exits[by_number[n]]):
                for t in map(_target, exits[by_number[n]]):
                    if t not in by_number:
                        dangling[t] = [*dangling.get(t, ()), n]

        for n in removed:
            take_out(n)
            endings.discard(n)
            written.discard(n)
        gone = set(removed).difference(added)
        came = set(added).difference(removed)
        touched: set[int] = set(rerouted)
        for n in gone:
            touched.update(back.pop(n))
        for n in came:
            touched.update(dangling.get(n, ()))
            back[n] = []
        touched.difference_update(added)
        for n in touched:
            take_out(n)
        for n in came:
            dangling.pop(n, None)
        for n, (ending, writes) in zip(added, flags, strict=True):
            if ending:
                endings.add(n)
            if writes:
                written.add(n)
        for n in (*touched, *added):
            put_in(n)
        found = _Graph(res, out, back, dangling, endings, written)
        if self.facts is not None:
            found.since = (self.facts, self.endings, gone, taken - put, put - taken)
        return found


def _targets(entry: Entry) -> list[Target]:
    out: list[Target] = []
    for c in entry.choices:
        if c.success is not None:
            out.append(c.success)
        if c.failure is not None:
            out.append(c.failure)
        if c.roll is not None:
            out.extend(b.target for b in c.roll.branches)
    out.extend(p.target for p in entry.prose_exits)
    return out


@dataclass(slots=True, eq=False)
class _Part:
    """What :func:`dtc.compiler.compile.resolve` works out for one chunk's entries, before the
    "return to your most recent entry" exits (which depend on the whole book) are added."""

    numbers: list[int]
    exits: list[list[Exit]]
    malformed: list[int]  # indexes within the chunk
    returning: list[int]  # indexes within the chunk of entries with a dynamic return
    targets: frozenset[Target]
    #: The graph facts the chunk adds (see :func:`dtc.lsp.workspace.graph_key`), free of positions.
    key: tuple[object, ...]
    #: Whether an exit carries a span (else the part is the same wherever the chunk stands).
    spanned: bool = True

    def moved(self, by: int) -> _Part:
        """The same part for the chunk ``by`` lines further down (only exits written in prose
        and random branches carry a span)."""
        exits = [out if all(x.span is None for x in out) else
                 [x if x.span is None else x._replace(span=_shift_any(x.span, by)) for x in out]
                 for out in self.exits]
        return _Part(self.numbers, exits, self.malformed, self.returning, self.targets, self.key, self.spanned)

    @classmethod
    def of(cls, entries: list[Entry], labels: dict[str, int]) -> _Part:
        numbers = [labels[e.number] if isinstance(e.number, str) else e.number for e in entries]
        malformed: list[int] = []
        returning: list[int] = []
        exits, spanned = resolve_exits(entries, labels, malformed, returning)  # as resolve() does
        bad = frozenset(malformed)
        target = _target
        keys = []
        for i, entry in enumerate(entries):
            choices, returns = entry.choices, entry.returns
            keys.append((numbers[i], entry.ending, tuple(map(target, exits[i])),
                         tuple(c.text for c in choices if c.error is not None) if bad and i in bad else (),
                         bool(choices or entry.prose_exits or returns), bool(returns)))
        targets = frozenset([x[0] for out in exits for x in out])
        return cls(numbers, exits, malformed, returning, targets, tuple(keys), spanned)


def _add_returns(res: Resolved, returning: list[int], parts: list[tuple[int, _Part]]) -> None:
    """"Return to your most recent entry": an exit back to each entry that leads in (as in
    :func:`dtc.compiler.compile.resolve`), looking only in the chunks with an exit there."""
    numbers, by_number, doc = res.numbers, res.by_number, res.doc
    targets = {numbers[i] for i in returning}
    preds: dict[int, set[int]] = defaultdict(set)
    for offset, part in parts:
        if part.targets.isdisjoint(targets):
            continue
        for k, out in enumerate(part.exits):
            i = offset + k
            number = numbers[i]
            if by_number[number] != i:
                continue
            for x in out:
                if x.target in targets:
                    preds[x.target].add(number)
    for i in returning:
        extra = [Exit(pred, "return", None, span) for span in doc.entries[i].returns
                 for pred in sorted(preds.get(numbers[i], ())) if pred != numbers[i]]
        if extra:
            res.exits[i] = res.exits[i] + extra


#: The start entry, settled as the compiler settles it (one definition).
_settle_start = settle_start


