"""Graph analyses over a resolved adventure: reachability and ways out.

Lint needs two facts about the entry graph — what the start reaches, and what can still reach
an ending or the entrance — and both are one breadth-first search over adjacency lists. They
are computed here rather than with networkx because importing networkx alone takes 0.15–0.3 s,
more than half of the budget for linting a 400-entry book; ``dtc graph`` (ranks, shortest paths,
longest paths) still uses it, and ``tests/test_analysis.py`` checks these searches against
``networkx.descendants`` and ``networkx.ancestors`` on random graphs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cached_property
from itertools import chain, repeat
from operator import itemgetter

from dtc.compiler.compile import Resolved

#: Targets still legible inside notation that does not parse: followed for reachability only, so
#: one malformed choice is reported once rather than again as every entry behind it.
_SALVAGE = re.compile(r"(?<![\w@])[SsFf][ \t\u00a0]*([0-9]+)(?![0-9])")

Adjacency = Mapping[int, Iterable[int]]


def search(adjacency: Adjacency, sources: Iterable[int]) -> set[int]:
    """Every node reachable from ``sources`` (the sources included), breadth first.

    Each round is set operations over the whole frontier, so the loop runs once per level of
    the graph rather than once per edge.
    """
    seen = set(sources)
    frontier: set[int] = seen
    get = adjacency.get
    while frontier:
        frontier = set(chain.from_iterable(map(get, frontier, repeat(())))) - seen
        seen |= frontier
    return seen


def reverse(adjacency: Adjacency) -> dict[int, list[int]]:
    """The same graph with every edge turned around."""
    back: dict[int, list[int]] = {n: [] for n in adjacency}
    for node, succs in adjacency.items():
        for succ in succs:
            into = back.get(succ)
            if into is None:
                back[succ] = [node]
            else:
                into.append(node)
    return back


class Analysis:
    """Lazily computed facts about the entry graph.

    Nodes are entry numbers (the first entry of a duplicated number stands for it); edges are
    exits to entries that exist.
    """

    def __init__(self, res: Resolved) -> None:
        self.res = res

    @cached_property
    def successors(self) -> dict[int, list[int]]:
        """Entry number -> the entry numbers its exits lead to (duplicates possible)."""
        res = self.res
        by_number = res.by_number
        entries = res.doc.entries
        exits = res.exits
        out: dict[int, list[int]] = {}
        # Exits hold entry numbers (labels already numbered); a target that is not a key of
        # by_number (a missing number, or a label no entry has) leads nowhere.
        target = itemgetter(0)
        for number, i in by_number.items():
            out[number] = [t for t in map(target, exits[i]) if t in by_number]
        for i in res.malformed:
            number = res.numbers[i]
            if by_number[number] == i:
                for c in entries[i].choices:
                    if c.error is not None:
                        out[number].extend(int(m) for m in _SALVAGE.findall(c.text) if int(m) in by_number)
        return out

    @cached_property
    def start_exists(self) -> bool:
        return self.res.start is not None and self.res.start in self.res.by_number

    @cached_property
    def reachable(self) -> set[int]:
        """Entries a reader can reach from the start (empty when the start is missing)."""
        if not self.start_exists:
            return set()
        start = self.res.start
        assert start is not None
        return search(self.successors, (start,))

    @cached_property
    def endings(self) -> set[int]:
        doc = self.res.doc
        return {n for n, i in self.res.by_number.items() if doc.entries[i].ending}

    @cached_property
    def escapable(self) -> set[int]:
        """Entries from which an ending or the entrance (the start) can be reached."""
        goals = set(self.endings)
        if self.start_exists:
            assert self.res.start is not None
            goals.add(self.res.start)
        if not goals:
            return set()
        return search(reverse(self.successors), goals)

    def is_dead_end(self, index: int) -> bool:
        entry = self.res.doc.entries[index]
        return not entry.ending and not entry.choices and not entry.prose_exits and not entry.returns
