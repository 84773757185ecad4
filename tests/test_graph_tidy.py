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


def _grid_places_by_tuples(boxes: dict[str, tuple[float, float, float, float]]) -> dict[str, tuple[float, float]]:
    """``grid_places`` as first written: cells as pairs, each offset tried in a Python loop."""
    import math

    from dtc.render.graph import ROOM

    if not boxes:
        return {}
    cw = max(b[2] for b in boxes.values()) + GAP
    ch = max(b[3] for b in boxes.values()) + GAP
    xs = [b[0] for b in boxes.values()]
    ys = [b[1] for b in boxes.values()]
    x0, y0 = min(xs), min(ys)
    area = max(max(xs) - x0, cw) * max(max(ys) - y0, ch)
    k = math.sqrt(ROOM * len(boxes) * cw * ch / area)
    mx, my = (x0 + max(xs)) / 2, (y0 + max(ys)) / 2
    offsets: list[tuple[int, int]] = []
    radius = 0

    def grow() -> None:
        nonlocal radius
        radius = max(4, radius * 2)
        ring = [(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]
        ring.sort(key=lambda d: ((d[0] * cw) ** 2 + (d[1] * ch) ** 2, d))
        offsets[:] = ring

    grow()
    taken: set[tuple[int, int]] = set()
    places: dict[str, tuple[float, float]] = {}
    resume: dict[tuple[int, int], int] = {}
    for name in sorted(boxes, key=lambda n: ((boxes[n][0] - mx) ** 2 + (boxes[n][1] - my) ** 2, n)):
        gx, gy = round((boxes[name][0] - x0) * k / cw), round((boxes[name][1] - y0) * k / ch)
        cell = None
        while cell is None:
            for i in range(resume.get((gx, gy), 0), len(offsets)):
                dx, dy = offsets[i]
                if (gx + dx, gy + dy) not in taken:
                    cell = (gx + dx, gy + dy)
                    resume[(gx, gy)] = i
                    break
            else:
                grow()
                resume.clear()
        taken.add(cell)
        places[name] = (cell[0] * cw * 72, cell[1] * ch * 72)
    return places


@given(st.lists(st.tuples(st.floats(-500, 500), st.floats(-500, 500), st.floats(0.1, 3), st.floats(0.1, 3)),
                max_size=120), st.booleans())
@settings(max_examples=200)
def test_cells_as_numbers_place_every_box_as_pairs_did(items: list[tuple[float, float, float, float]],
                                                       clumped: bool) -> None:
    """A crowd of boxes on one spot (rings outgrown) and spread ones: the same places."""
    if clumped:
        items = [(x / 1000, y / 1000, w, h) for x, y, w, h in items]
    boxes = {f"e{i}": box for i, box in enumerate(items)}
    assert grid_places(boxes) == _grid_places_by_tuples(boxes)
