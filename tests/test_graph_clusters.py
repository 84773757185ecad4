"""Large books are drawn in clusters packed in a grid (docs/graph.md, "Layout"): by the author's
@label prefixes where there are enough, else by communities of the exits; exits to another
cluster end in a connector box. Sizes are checked loosely here; they are measured in docs."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from dtc.compiler.api import compile_text
from dtc.render.clusters import CLUSTER_ABOVE, MOST, find_clusters
from dtc.render.graph import build_dot, render
from dtc.render.model import build_book
from helpers import benchmark

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def big() -> dict[str, Any]:
    graph: dict[str, Any] = compile_text(benchmark("generate").generate(200, seed=3), "book-200.txt").graph()
    return graph


def test_communities_cover_every_entry_once(big: dict[str, Any]) -> None:
    book = build_book(big)
    groups = find_clusters(book, set(book.nodes))
    members = [n for g in groups for n in g.members]
    assert sorted(members) == sorted(book.nodes)
    assert len(groups) >= 4 and all(len(g.members) <= MOST for g in groups)
    assert 1 in groups[0].members  # the start's cluster comes first
    assert find_clusters(book, set(range(1, CLUSTER_ABOVE + 1))) == []  # small: drawn whole


def test_label_prefixes_make_clusters() -> None:
    def name(i: int) -> str:
        return f"{'cellar' if i <= 40 else 'tower'}-{i}"

    rooms = [f"@{name(i)} Room {i}. " + ("THE END" if i == 80 else f"Go on (D0, S@{name(i + 1)}).")
             for i in range(1, 81)]
    graph = compile_text("Start: @cellar-1\n\nAdventure Entries\n\n" + "\n\n".join(rooms) + "\n").graph()
    book = build_book(graph)
    titles = {g.title: len(g.members) for g in find_clusters(book, set(book.nodes))}
    assert titles == {"@cellar": 40, "@tower": 40}


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_clustered_chart_is_a_grid_not_a_ribbon(big: dict[str, Any]) -> None:
    dot = build_dot(big)
    assert "subgraph cluster_" in dot.source and "packmode" in dot.source
    svg = render(dot, "svg").decode()
    root = ET.fromstring(svg)
    width, height = (float(re.sub("pt$", "", root.get(k, "0"))) for k in ("width", "height"))
    assert 0.4 < width / height < 2.5, (width, height)
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    for entry in big["entries"]:
        assert f"entry-{entry['number']}" in ids
        for i, _ in enumerate(entry["exits"]):
            assert f"exit-{entry['number']}-{i}" in ids
    stubs = [g for g in root.iter(f"{SVG}g") if "connector" in (g.get("class") or "")]
    assert stubs and all(re.fullmatch(r"to-\d+-\d+", g.get("id") or "") for g in stubs)
