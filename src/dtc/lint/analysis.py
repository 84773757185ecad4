"""The one source of graph facts: reachability, dead ends, traps and endings.

:class:`Analysis` takes the entry graph — adjacency, endings, start, and which entries write a
way on — built either from the in-memory compilation (:meth:`Analysis.of_resolved`, for lint and
the language server) or from the compiled JSON (:meth:`Analysis.of_graph`, for ``dtc graph``, the
editions and the odds), and both give the same facts: ``tests/test_graph_facts.py`` holds them
equal on every rule fixture and bundled book, and holds lint, the flowchart and the odds to them.

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
from typing import TYPE_CHECKING

from dtc.compiled.graphjson import DYNAMIC_RETURN, CompiledGraph

if TYPE_CHECKING:
    from dtc.compiler.compile import Resolved

#: Targets still legible inside notation that does not parse: followed for reachability only, so
#: one malformed choice is reported once rather than again as every entry behind it.
_SALVAGE = re.compile(r"(?<![\w@])[SsFf][ \t\u00a0]*([0-9]+)(?![0-9])")
SALVAGE = _SALVAGE  # the language server builds the same facts from its own parts

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


def extend(adjacency: Adjacency, known: set[int], sources: Iterable[int]) -> set[int]:
    """``known`` (a set closed under ``adjacency``: every successor of a member a member) with
    every node reachable from ``sources`` added, searching only past ``known``."""
    frontier = set(sources) - known
    seen = known | frontier  # a new set: ``known`` may be another version's
    get = adjacency.get
    while frontier:
        frontier = set(chain.from_iterable(map(get, frontier, repeat(())))) - seen
        seen |= frontier
    return seen


def reverse(adjacency: Adjacency) -> dict[int, list[int]]:
    """The same graph with every edge turned around."""
    back: dict[int, list[int]] = {n: [] for n in adjacency}
    try:  # every target a node (as the entry graphs are built): no check per edge
        for node, succs in adjacency.items():
            for succ in succs:
                back[succ].append(node)
        return back
    except KeyError:
        back = {n: [] for n in adjacency}
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
    exits to entries that exist, plus the targets still legible in a choice that does not parse.
    ``written`` holds the entries that write a way on (a choice, even a malformed one; a prose
    exit; a return), whether or not it leads to an entry: the others, but endings, are dead ends.
    """

    def __init__(self, successors: Mapping[int, list[int]], endings: Iterable[int], start: int | None,
                 written: Iterable[int], predecessors: Adjacency | None = None) -> None:
        self.successors = successors
        #: :func:`reverse` of ``successors`` when the caller has it (the language server keeps it).
        self.predecessors = predecessors
        self.endings: set[int] = set(endings)
        self.start: int | None = start if start is not None and start in successors else None
        self.written: set[int] = set(written)

    @classmethod
    def of_resolved(cls, res: Resolved) -> Analysis:
        """The facts of an in-memory compilation (lint, the language server)."""
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
        endings = [n for n, i in by_number.items() if entries[i].ending]
        written = [n for n, i in by_number.items()
                   if entries[i].choices or entries[i].prose_exits or entries[i].returns]
        return cls(out, endings, res.start, written)

    @classmethod
    def of_graph(cls, graph: CompiledGraph) -> Analysis:
        """The facts of a compiled graph (``dtc graph``, the editions, the odds)."""
        entries: dict[int, int] = {}
        for i, entry in enumerate(graph["entries"]):
            entries.setdefault(entry["number"], i)
        out: dict[int, list[int]] = {}
        endings: list[int] = []
        written: list[int] = []
        for number, i in entries.items():
            entry = graph["entries"][i]
            succ = [t for x in entry["exits"] if isinstance(t := x["target"], int) and t in entries]
            for c in entry["choices"]:
                if c["error"] is not None:
                    succ.extend(int(m) for m in _SALVAGE.findall(c["text"]) if int(m) in entries)
            out[number] = succ
            if entry["ending"]:
                endings.append(number)
            if entry["choices"] or entry["exits"] or DYNAMIC_RETURN.search(entry["text"]):
                written.append(number)
        return cls(out, endings, graph["start"], written)

    @property
    def start_exists(self) -> bool:
        return self.start is not None

    @cached_property
    def reachable(self) -> set[int]:
        """Entries a reader can reach from the start (empty when the start is missing)."""
        if self.start is None:
            return set()
        return search(self.successors, (self.start,))

    @cached_property
    def escapable(self) -> set[int]:
        """Entries from which an ending or the entrance (the start) can be reached."""
        goals = set(self.endings)
        if self.start is not None:
            goals.add(self.start)
        if not goals:
            return set()
        back = self.predecessors if self.predecessors is not None else reverse(self.successors)
        return search(back, goals)

    @cached_property
    def dead_ends(self) -> set[int]:
        """Entries that write no way on and are not endings (lint DT202)."""
        return {n for n in self.successors if n not in self.written and n not in self.endings}

    @cached_property
    def trapped(self) -> set[int]:
        """Reachable entries from which neither an ending nor the entrance can be reached, dead
        ends aside (lint DT203); none when the start is missing."""
        return self.reachable - self.escapable - self.dead_ends

    @cached_property
    def unreachable(self) -> set[int]:
        """Entries the start does not reach (every entry when the start is missing)."""
        return set(self.successors) - self.reachable
