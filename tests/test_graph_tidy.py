"""The force-directed layout of very large books: sfdp places the boxes, dtc moves them onto a
grid so that none overlaps (``grid_places``), and ``neato -n2`` draws them there."""

from __future__ import annotations

import random
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.render.graph import GAP, draw, grid_places

needs_dot = pytest.mark.skipif(shutil.which("sfdp") is None, reason="Graphviz is not installed")

box = st.tuples(st.floats(-50, 50), st.floats(-50, 50), st.floats(0.2, 1.5), st.floats(0.2, 0.8))


def overlaps(boxes: dict[str, tuple[float, float, float, float]], places: dict[str, tuple[float, float]]) -> int:
    rects = [(places[n][0] / 72 - b[2] / 2, places[n][1] / 72 - b[3] / 2,
              places[n][0] / 72 + b[2] / 2, places[n][1] / 72 + b[3] / 2) for n, b in boxes.items()]
    return sum(1 for i, a in enumerate(rects) for c in rects[i + 1:]
               if a[0] < c[2] and c[0] < a[2] and a[1] < c[3] and c[1] < a[3])


@settings(max_examples=60, deadline=None)
@given(st.lists(box, max_size=40))
def test_no_two_boxes_overlap(items: list[tuple[float, float, float, float]]) -> None:
    boxes = {f"n{i}": b for i, b in enumerate(items)}
    places = grid_places(boxes)
    assert set(places) == set(boxes)
    assert overlaps(boxes, places) == 0


def test_the_picture_keeps_its_shape() -> None:
    """Boxes that all sit on top of each other at two far places stay in two far groups, in order."""
    rng = random.Random(1)
    boxes = {f"a{i}": (rng.uniform(0, 0.1), rng.uniform(0, 0.1), 0.5, 0.3) for i in range(50)}
    boxes |= {f"b{i}": (rng.uniform(20, 20.1), rng.uniform(0, 0.1), 0.5, 0.3) for i in range(50)}
    places = grid_places(boxes)
    assert overlaps(boxes, places) == 0
    assert max(places[f"a{i}"][0] for i in range(50)) < min(places[f"b{i}"][0] for i in range(50))
    assert places == grid_places(dict(reversed(boxes.items())))  # the same picture whatever the order
    cell = (0.5 + GAP) * 72
    assert all(abs(x / cell - round(x / cell)) < 1e-6 for x, _ in places.values())


@needs_dot
def test_a_force_directed_chart_has_every_entry_and_exit_and_no_overlap() -> None:
    entries = "\n\n".join(f"{n} Room {n}. Onward (D0, S{n + 1}) or back (DEX D1, S{max(1, n - 3)}, F{n + 1})."
                          for n in range(1, 60)) + "\n\n60 Out. THE END\n"
    graph = compile_text(f"Title: Wide\n\nAdventure Entries\n\n{entries}", "wide.txt").graph()
    svg, warnings = draw(graph, "svg", layout="sfdp")
    text = svg.decode("utf-8")
    assert warnings == []
    assert len(re.findall(r'<g id="entry&#45;\d+" class="node', text)) == 60
    assert len(re.findall(r'<g id="exit&#45;\d+&#45;\d+" class="edge', text)) == 59 + 59 * 2
    plain, _ = draw(graph, "plain", layout="sfdp")
    found = {}
    for line in plain.decode().splitlines():
        p = line.split()
        if p[0] == "node":
            found[p[1]] = (float(p[2]), float(p[3]), float(p[4]), float(p[5]))
    assert len(found) == 60
    assert overlaps(found, {n: (b[0] * 72, b[1] * 72) for n, b in found.items()}) == 0
