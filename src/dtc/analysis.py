"""Graph analyses over a resolved adventure, with networkx: reachability and ways out."""

from __future__ import annotations

import re
from functools import cached_property

import networkx as nx

from dtc.compile import Resolved

_GOAL = -1  # a node no entry can be: entry numbers are >= 0
#: Targets still legible inside notation that does not parse: followed for reachability only, so
#: one malformed choice is reported once rather than again as every entry behind it.
_SALVAGE = re.compile(r"(?<![\w@])[SsFf][ \t\u00a0]*([0-9]+)(?![0-9])")


class Analysis:
    """Lazily computed facts about the entry graph.

    Nodes are entry numbers (the first entry of a duplicated number stands for it); edges are
    exits to entries that exist.
    """

    def __init__(self, res: Resolved) -> None:
        self.res = res

    @cached_property
    def graph(self) -> nx.DiGraph[int]:
        g: nx.DiGraph[int] = nx.DiGraph()
        res = self.res
        g.add_nodes_from(res.by_number)
        edges = []
        for number, i in res.by_number.items():
            for x in res.exits[i]:
                t = res.target_number(x.target)
                if t is not None:
                    edges.append((number, t))
            for c in res.doc.entries[i].choices:
                if c.error is not None:
                    edges.extend((number, int(m)) for m in _SALVAGE.findall(c.text) if int(m) in res.by_number)
        g.add_edges_from(edges)
        return g

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
        return {start} | set(nx.descendants(self.graph, start))

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
        g = self.graph  # borrowed: the goal node is added for one query and removed again
        g.add_edges_from((n, _GOAL) for n in goals)
        try:
            return set(nx.ancestors(g, _GOAL)) | goals
        finally:
            g.remove_node(_GOAL)

    def is_dead_end(self, index: int) -> bool:
        entry = self.res.doc.entries[index]
        return not entry.ending and not entry.choices and not entry.prose_exits and not entry.returns
