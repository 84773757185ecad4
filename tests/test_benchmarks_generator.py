"""The benchmark book generator: its output is a sound adventure that lints without errors.

Not a timing test: timings belong to ``benchmarks/run.py``, never to the test suite.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.diagnostics import Severity
from dtc.lint.engine import lint_compilation
from helpers import benchmark

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def generate() -> ModuleType:
    return benchmark("generate")


@pytest.fixture(scope="module")
def book(generate: ModuleType) -> str:
    text = generate.generate(120, seed=7)
    assert isinstance(text, str)
    return text


def test_same_seed_same_book_other_seed_other_book(generate: ModuleType, book: str) -> None:
    assert generate.generate(120, seed=7) == book
    assert generate.generate(120, seed=8) != book


def test_book_compiles_to_a_valid_graph(book: str) -> None:
    graph = compile_text(book, "book-120.txt").graph()
    validate(graph)
    entries = graph["entries"]
    assert [e["number"] for e in entries] == list(range(1, 121))
    assert graph["start"] == 1
    assert len(graph["creatures"]) >= 12 and len(graph["encounters"]) == 12
    endings = [e for e in entries if e["ending"]]
    assert entries[-1]["ending"] and endings
    for e in entries:
        if not e["ending"]:
            assert 2 <= len(e["choices"]) <= 4, e["number"]
            assert all(c["error"] is None for c in e["choices"])


def test_entries_are_about_800_bytes(book: str) -> None:
    body = book.split("Adventure Entries", 1)[1]
    size = len(body.encode("utf-8")) / 120
    assert 650 <= size <= 1000


def test_book_mixes_notation_prose_exits_and_parentheticals(book: str) -> None:
    assert re.search(r"\((?:STR|DEX|CON|WIS|INT|CHA) D[123], S\d+, F\d+\)", book)
    assert re.search(r"\(D0, S\d+\)", book)
    assert "(1,000 coins)" in book or "(500 coins each)" in book or "(250 coins)" in book
    assert re.search(r"\b(?:go|return) to \d+\.", book)
    assert "THE END" in book


def test_lint_finds_no_errors_or_warnings(book: str) -> None:
    found = lint_compilation(compile_text(book, "book-120.txt"))
    by_severity = Counter(d.severity for d in found)
    assert by_severity[Severity.ERROR] == 0, [str(d) for d in found if d.severity is Severity.ERROR]
    assert by_severity[Severity.WARNING] == 0, [d.message for d in found if d.severity is Severity.WARNING]
    # Only the informational findings a real book has, and few of them.
    assert {d.code for d in found} <= {"DT302", "DT303"}
    assert len(found) < 30


@pytest.mark.parametrize(("n", "possessions"), [(60, 8), (150, 12), (400, 30)])
def test_books_with_state_give_and_test_possessions_and_lint_without_errors(
        generate: ModuleType, n: int, possessions: int) -> None:
    book = generate.generate(n, seed=1, possessions=possessions)
    assert "[+" in book and ", if " in book
    assert generate.generate(n, seed=1) == generate.generate(n, seed=1, possessions=0)
    found = lint_compilation(compile_text(book, "book.txt"))
    assert not [d.message for d in found if d.severity > Severity.INFO]


@pytest.mark.parametrize("n", [1, 2, 3, 45])
def test_tiny_books_have_no_errors(generate: ModuleType, n: int) -> None:
    found = lint_compilation(compile_text(generate.generate(n, seed=3)))
    assert not [d for d in found if d.severity is Severity.ERROR]


def test_command_line_writes_the_book(tmp_path: Path) -> None:
    out = tmp_path / "nested" / "book.txt"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "generate.py"), "30", "--seed", "2", "-o", str(out)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.is_file() and "wrote" in done.stdout
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "generate.py"), "0"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "at least 1" in bad.stderr and "Traceback" not in bad.stderr


def test_run_script_table_and_size_parsing() -> None:
    run = benchmark("run")
    assert run.parse_sizes("400,10000") == [400, 10_000]
    result = run.Result("lint", 400, 340_000, [run.Run(0.3, 40.0, 0), run.Run(0.4, 41.0, 0), run.Run(0.9, 42.0, 0)])
    assert result.median_wall == pytest.approx(0.4)
    assert result.target_met() is True
    table = run.table([result])
    assert table.splitlines()[0].startswith("| command |")
    assert "| lint | 400 | 0.34 MB | 0.400 |" in table and "met" in table


def test_cross_linked_book_roams_the_whole_book_and_lints_clean(generate: ModuleType) -> None:
    text = generate.generate(300, seed=4, shape="cross")
    assert text != generate.generate(300, seed=4)
    comp = compile_text(text, "book-cross-300.txt")
    found = lint_compilation(comp)
    assert not [d for d in found if d.severity in (Severity.ERROR, Severity.WARNING)]
    graph = comp.graph()
    jumps = [abs(x["target"] - e["number"]) for e in graph["entries"] for x in e["exits"]
             if isinstance(x["target"], int)]
    assert max(jumps) > 100  # exits that reach far across the book, where forward books stay within 30
    with pytest.raises(ValueError, match="unknown shape"):
        generate.generate(10, shape="sideways")


def test_run_script_pairs_and_ratios() -> None:
    run = benchmark("run")
    lint = run.Result("lint", 400, 340_000, [run.Run(0.4, 40.0, 0, cpu=0.3)], lint_wall=0.4)
    odds = run.Result("odds", 400, 340_000, [run.Run(0.8, 80.0, 0, cpu=0.6)], shape="cross",
                      base_runs=[run.Run(1.6, 90.0, 0, cpu=1.2)], lint_wall=0.4)
    table = run.table([lint, odds])
    row = table.splitlines()[-1]
    assert "| odds | 400 cross |" in row and "| 2.0× |" in row and "| 0.50 |" in row
