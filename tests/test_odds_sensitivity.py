"""Which checks decide the book, by low-rank updates, equals solving the chain again.

:mod:`dtc.odds.sensitivity` answers each check's "one difficulty easier / harder" and derivative
from one factorisation; this holds it to the full solve (``SMALL_SENSITIVITY`` set past the book,
so every answer is solved again) on shapes it was not written for: forward and cross books, a hub,
a grid, a corridor, long walks, and books with state (many flags, a skills gamebook)."""

from __future__ import annotations

import pytest

from dtc.compiler.api import compile_text
from dtc.odds import analyze, compute_odds
from helpers import benchmark

pytestmark = pytest.mark.slow

SHAPES = ["forward", "cross", "hub", "grid", "corridor", "long-walk", "long-walk-out", "many-flags", "gamebook"]


def _table(graph: dict[str, object]) -> list[tuple[int, int, float, float | None, float | None, float]]:
    odds = compute_odds(graph)
    assert odds.play is not None
    return sorted((d.entry, d.choice, d.goal, d.easier, d.harder, d.derivative) for d in odds.play.checks)


@pytest.mark.parametrize("shape", SHAPES)
def test_updates_equal_full_solves(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_text(benchmark("generate").generate(260, seed=5, shape=shape), "book.txt").graph()
    fast = _table(graph)
    monkeypatch.setattr(analyze, "SMALL_SENSITIVITY", 10**9)
    full = _table(graph)
    assert len(fast) == len(full)
    for a, b in zip(fast, full, strict=True):
        assert a[:2] == b[:2]
        for x, y in zip(a[2:5], b[2:5], strict=True):
            assert (x is None) == (y is None)
            if x is not None and y is not None:
                assert x == pytest.approx(y, abs=1e-9)
        assert a[5] == pytest.approx(b[5], abs=1e-6)  # a central difference in both, on cyclic entries


def test_past_the_work_budget_the_table_is_named_not_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_text(benchmark("generate").generate(260, seed=5, shape="forward"), "book.txt").graph()
    monkeypatch.setattr(analyze, "DECISIVE_WORK", 10)
    odds = compute_odds(graph)
    assert odds.play is not None and not odds.play.checks
    assert any(n.startswith("which checks decide the book is not worked out") for n in odds.notes)
