"""Lint's graph searches agree with networkx, the reference implementation."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.lint.analysis import reverse, search

nodes = st.integers(min_value=0, max_value=30)
edge_lists = st.lists(st.tuples(nodes, nodes), max_size=80)


def _adjacency(n: int, edges: list[tuple[int, int]]) -> dict[int, list[int]]:
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in edges:
        if a < n and b < n:
            adj[a].append(b)
    return adj


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=31), edge_lists, st.sets(nodes, min_size=1, max_size=4))
def test_search_matches_networkx(n: int, edges: list[tuple[int, int]], sources: set[int]) -> None:
    adj = _adjacency(n, edges)
    sources = {s for s in sources if s < n} or {0}
    g: nx.DiGraph[int] = nx.DiGraph()
    g.add_nodes_from(adj)
    g.add_edges_from((a, b) for a, succ in adj.items() for b in succ)
    forward = set(sources)
    backward = set(sources)
    for s in sources:
        forward |= nx.descendants(g, s)
        backward |= nx.ancestors(g, s)
    assert search(adj, sources) == forward
    assert search(reverse(adj), sources) == backward


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=31), edge_lists)
def test_reverse_turns_every_edge_around(n: int, edges: list[tuple[int, int]]) -> None:
    """Targets that are not nodes (kept here, unlike :func:`_adjacency`) still get their edges."""
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for a, b in edges:
        adj.setdefault(a, []).append(b)  # b may be no node of adj
    back = reverse(adj)
    assert set(back) == set(adj) | {b for succ in adj.values() for b in succ}
    assert sorted((a, b) for b, preds in back.items() for a in preds) == sorted(
        (a, b) for a, succ in adj.items() for b in succ)
