"""`dtc odds` frees the words it never reads (:func:`dtc.odds.analyze.drop_words`): same odds."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.api import compile_file, compile_text
from dtc.odds import compute_odds
from dtc.odds.analyze import drop_words
from dtc.odds.report import to_json
from helpers import benchmark

ROOT = Path(__file__).resolve().parent.parent
ADVENTURES = sorted((ROOT / "adventures").glob("*.txt"))


def _same_odds(graph: Any, **options: Any) -> None:
    slim = copy.deepcopy(graph)
    drop_words(slim)
    assert all(e["text"] == "" for e in slim["entries"] if e["choices"] or e["exits"])
    before = json.dumps(to_json(compute_odds(graph, **options)), sort_keys=True)
    after = json.dumps(to_json(compute_odds(slim, **options)), sort_keys=True)
    assert after == before


@pytest.mark.parametrize("path", ADVENTURES, ids=lambda p: p.stem)
def test_bundled_books_same_odds(path: Path) -> None:
    graph = compile_file(path).graph()
    _same_odds(graph)
    _same_odds(graph, policy="likeliest")


@pytest.mark.parametrize("shape", ["forward", "cross"])
def test_generated_books_same_odds(shape: str) -> None:
    """Large enough that the chain is solved with numpy and scipy (not the small books' plain solver)."""
    graph = compile_text(benchmark("generate").generate(300, seed=3, shape=shape), "book.txt").graph()
    _same_odds(graph)


def test_a_way_on_written_only_in_words_is_kept() -> None:
    """An entry with neither choices nor exits keeps its text: "return to your most recent entry"
    is read there (:meth:`dtc.lint.analysis.Analysis.of_graph`), so it is no dead end."""
    src = ("Test Book\n\nAdventure Entries\n\n"
           "1 A hall. Go to 2 or go to 3.\n\n"
           "2 A side room. Return to your most recent entry.\n\n"
           "3 The way out. THE END\n\n"
           "4 A cellar nothing leads to. Return to your most recent entry.\n")
    graph = compile_text(src, "book.txt").graph()
    slim = copy.deepcopy(graph)
    drop_words(slim)
    kept = {e["number"]: e for e in slim["entries"]}
    assert kept[2]["exits"] and kept[2]["text"] == ""  # its returns are exits: the words go
    assert not kept[4]["exits"] and "most recent entry" in kept[4]["text"]
    _same_odds(graph)
