"""Groups of entries drawn together as Graphviz clusters, and their order in a grid.

A book of :data:`CLUSTER_ABOVE` entries or fewer is drawn whole, without clusters. A larger one
is grouped by what the author wrote where there is enough of it, else by its exits:

1. **Labels.** When at least half the entries have an ``@label`` and their prefixes (the label up
   to its first ``-``, ``_``, ``.``, ``:`` or ``/``: ``@cellar-door`` and ``@cellar_stair`` are in
   ``cellar``) make two groups or more of two entries or more, each such prefix is a cluster
   and the other entries are grouped as in 2.
2. **Communities** of the exits, found by networkx's Louvain method (seeded, so the same book
   gives the same picture) on the exits taken as undirected links: groups of entries with
   many exits among them and few to the rest. Communities above :data:`MOST` entries are split
   the same way again.

Zones (Dungeon Rules) are kinds of place, not places, so they do not make clusters.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dtc.render.model import Book

if TYPE_CHECKING:
    import networkx as nx

#: Books with more entries than this are drawn in clusters.
CLUSTER_ABOVE = 60
#: A community larger than this is split again.
MOST = 45
_PREFIX = re.compile(r"[-_.:/]")


@dataclass(frozen=True, slots=True)
class Cluster:
    title: str  # shown above the cluster (escaped by the renderer)
    members: list[int]


def _by_labels(book: Book) -> dict[str, list[int]]:
    labelled = {n: node.label for n, node in book.nodes.items() if node.label}
    if len(labelled) * 2 < len(book.nodes):
        return {}
    groups: dict[str, list[int]] = {}
    for number, label in labelled.items():
        prefix = _PREFIX.split(label.lstrip("@"), maxsplit=1)[0]
        if prefix:
            groups.setdefault(prefix, []).append(number)
    groups = {k: sorted(v) for k, v in groups.items() if len(v) >= 2}
    return groups if len(groups) >= 2 else {}


def _communities(book: Book, numbers: set[int]) -> list[list[int]]:
    import networkx as nx  # (imported when used: it takes a few tenths of a second)

    plain: nx.Graph[int] = nx.Graph()
    plain.add_nodes_from(numbers)
    plain.add_edges_from((a, b) for a, b in book.digraph.edges() if a in numbers and b in numbers and a != b)
    found: list[list[int]] = []
    todo = [set(numbers)] if numbers else []
    while todo:
        part = todo.pop()
        if len(part) <= MOST:
            found.append(sorted(part))
            continue
        pieces = nx.community.louvain_communities(plain.subgraph(part), seed=1)
        if len(pieces) < 2:  # cannot be split: cut it by entry number
            ordered = sorted(part)
            pieces = [set(ordered[i:i + MOST]) for i in range(0, len(ordered), MOST)]
        todo.extend(pieces)
    return found


def find_clusters(book: Book, keep: set[int]) -> list[Cluster]:
    """The clusters of the drawn entries ``keep``, in reading order (nearest the start first);
    empty when the book is small enough to draw whole."""
    if len(keep) <= CLUSTER_ABOVE:
        return []
    clusters: list[Cluster] = []
    placed: set[int] = set()
    for prefix, members in sorted(_by_labels(book).items()):
        members = [n for n in members if n in keep]
        if members:
            clusters.append(Cluster(f"@{prefix}", members))
            placed.update(members)
    for members in _communities(book, keep - placed):
        clusters.append(Cluster("", members))
    levels = book.levels()
    far = len(book.nodes) + 1

    def order(c: Cluster) -> tuple[int, int]:
        return (min(levels.get(n, far) for n in c.members), c.members[0])

    clusters.sort(key=order)

    def titled(c: Cluster) -> Cluster:
        if c.title:
            return c
        nearest = min(c.members, key=lambda n: (levels.get(n, far), n))
        return Cluster(f"around {nearest} · {len(c.members)} entries" if len(c.members) > 1
                       else f"entry {nearest}", c.members)

    return [titled(c) for c in clusters]


def grid_columns(clusters: list[Cluster], aspect: float = 1.4) -> int:
    """How many clusters to put side by side so that the picture is about ``aspect`` times as wide
    as high, taking a cluster of n entries as about sqrt(n) boxes wide and as high (a box is
    about twice as wide as high)."""
    if not clusters:
        return 1
    sizes = [math.sqrt(len(c.members)) for c in clusters]
    width = sum(sizes) * 2.0  # all in one row, in box heights
    height = max(sizes)
    # rows r: width/r wide, about r*height high: width/r / (r*height) = aspect
    rows = max(1, round(math.sqrt(width / (height * aspect))))
    return max(1, math.ceil(len(clusters) / rows))
