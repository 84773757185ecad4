"""One source of graph facts: lint, ``dtc graph``, the odds, the editions and the language server
agree on what the start reaches, which entries are dead ends, traps and endings, on every rule
fixture and bundled book."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.compiler.api import Compilation, compile_file, compile_text
from dtc.editions.print import render_markdown
from dtc.editions.web import WebEdition
from dtc.lint.analysis import Analysis
from dtc.lint.engine import lint_compilation, pick_rules
from dtc.lsp.workspace import Documents
from dtc.odds.options import read_book
from dtc.render.model import build_book
from helpers import ROOT

BOOKS = sorted((ROOT / "tests" / "fixtures" / "rules").glob("*.txt")) + sorted(
    (ROOT / "tests" / "fixtures" / "rules" / "clean").glob("*.txt")) + sorted((ROOT / "adventures").glob("*.txt"))


def facts(a: Analysis) -> dict[str, object]:
    return {"start": a.start, "reachable": a.reachable, "dead_ends": a.dead_ends, "trapped": a.trapped,
            "endings": a.endings, "unreachable": a.unreachable}


def lint_facts(comp: Compilation) -> dict[str, set[int]]:
    found = lint_compilation(comp, pick_rules(["DT201", "DT202", "DT203"]), suppress=False)
    return {code: {d.entry for d in found if d.code == code and d.entry is not None}
            for code in ("DT201", "DT202", "DT203")}


def assert_agree(comp: Compilation) -> None:
    graph = comp.graph()
    mine = Analysis.of_resolved(comp.resolved)
    theirs = Analysis.of_graph(graph)
    assert facts(mine) == facts(theirs)

    lint = lint_facts(comp)
    assert lint["DT201"] == (mine.unreachable if mine.start is not None else set())
    assert lint["DT202"] == mine.dead_ends
    assert lint["DT203"] == mine.trapped

    book = build_book(graph)
    nodes = book.nodes.values()
    assert {n.number for n in nodes if n.dead_end} == mine.dead_ends
    assert {n.number for n in nodes if n.trapped} == mine.trapped
    assert {n.number for n in nodes if n.unreachable} == mine.unreachable
    assert {n.number for n in nodes if n.ending} == mine.endings
    assert {n.number for n in nodes if n.start} == ({mine.start} if mine.start is not None else set())

    chain = read_book(graph)
    assert chain.endings == mine.endings and chain.start == mine.start
    # The chain cannot follow a choice that does not parse, so it also stops where one is all an
    # entry offers; every dead end is a stop.
    stops = {n for n, options in chain.options.items() if not options} - chain.endings
    assert mine.dead_ends <= stops

    assert WebEdition(graph).start == mine.start
    begins = f"Begin at section {mine.start}." if mine.start is not None else "Begin at section"
    assert (begins in render_markdown(graph)) == (mine.start is not None)

    docs = Documents()
    snap = docs.update("file:///book.txt", comp.text, 1)
    assert {d.entry for d in snap.diagnostics if d.code == "DT202"} <= mine.dead_ends


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: p.stem)
def test_every_reader_agrees(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert_agree(compile_file(path.relative_to(ROOT)))


@pytest.mark.parametrize("src", [
    # An entry holding only malformed notation is not a dead end: its targets are still legible.
    "1 Start (D0, S2).\n\n2 Fork (D1 S4 F3).\n\n3 Out. THE END\n\n4 Out. THE END\n",
    # An unreachable loop is unreachable, not trapped; a reachable one is trapped.
    "1 A (D0, S2).\n\n2 B (D0, S3).\n\n3 C (D0, S2).\n\n4 D (D0, S5).\n\n5 E (D0, S4).\n",
    # No start at all: nothing is reachable, nothing trapped.
    "Start: 9\n\n1 A (D0, S2).\n\n2 B (D0, S1).\n",
    # A return with nothing leading in still is a way on.
    "1 A THE END\n\n2 Return to your most recent entry.\n",
    # Exits to missing entries and labels.
    "1 A (D1, S2, F@nowhere).\n\n2 Go to 40.\n",
])
def test_tricky_books_agree(src: str) -> None:
    assert_agree(compile_text(src, "book.txt"))


def test_malformed_only_entry_is_no_dead_end_in_the_flowchart() -> None:
    comp = compile_text("1 Start (D0, S2).\n\n2 Fork (D1 S4 F3).\n\n3 Out. THE END\n\n4 Out. THE END\n", "b.txt")
    book = build_book(comp.graph())
    assert not book.nodes[2].dead_end and not book.nodes[3].unreachable


_PIECES = st.sampled_from(["(D0, S{n})", "(D1, S{n}, F{m})", "(D1 S{n} F{m})", "Go to {n}.", "THE END",
                           "Return to your most recent entry.", "(D2, S@x)", "quiet", "(DEX D1, S{n})"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.lists(st.tuples(_PIECES, st.integers(1, 10), st.integers(1, 10)),
                                                     max_size=3)), max_size=9),
       st.one_of(st.none(), st.integers(1, 10)))
def test_random_books_agree(entries: list[tuple[int, list[tuple[str, int, int]]]], start: int | None) -> None:
    head = f"Start: {start}\n\n" if start is not None else ""
    body = "".join(f"{number} Room. " + " ".join(p.format(n=n, m=m) for p, n, m in parts) + "\n\n"
                   for number, parts in entries)
    assert_agree(compile_text(head + body, "book.txt"))
