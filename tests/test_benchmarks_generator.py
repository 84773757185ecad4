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
from typing import Any

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


#: The shapes written by a function of their own, each at a size small enough to lint in a moment
#: (the gamebook has no fewer than 60 sections; many-flags is linted with few possessions, as its
#: state space is what it is made to blow up).
SMALL_SHAPES = [("long-walk", 200, 0), ("long-walk-out", 100, 0), ("grid", 102, 0), ("hub", 100, 0),
                ("corridor", 100, 0), ("many-flags", 60, 6), ("gamebook", 60, 0)]


@pytest.mark.parametrize(("shape", "n", "possessions"), SMALL_SHAPES)
def test_new_shapes_compile_and_lint_without_errors_or_warnings(
        generate: ModuleType, shape: str, n: int, possessions: int) -> None:
    text = generate.generate(n, seed=1, shape=shape, possessions=possessions)
    assert text == generate.generate(n, seed=1, shape=shape, possessions=possessions)
    assert text != generate.generate(n, seed=2, shape=shape, possessions=possessions)
    comp = compile_text(text, f"book-{shape}-{n}.txt")
    graph = comp.graph()
    validate(graph)
    assert [e["number"] for e in graph["entries"]] == list(range(1, n + 1))
    assert all(c["error"] is None for e in graph["entries"] for c in e["choices"])
    found = lint_compilation(comp)
    assert not [f"{d.code} {d.message}" for d in found if d.severity > Severity.INFO]


def _exits(graph: dict[str, Any]) -> dict[int, list[int]]:
    return {e["number"]: [x["target"] for x in e["exits"]] for e in graph["entries"]}


def test_graph_shapes_have_the_links_they_promise(generate: ModuleType) -> None:
    walk = compile_text(generate.generate(400, shape="long-walk")).graph()
    endings = [e["number"] for e in walk["entries"] if e["ending"]]
    assert len(endings) == generate.WALK_ENDINGS
    into = Counter(t for targets in _exits(walk).values() for t in targets)
    assert all(into[k] == 1 for k in endings)  # each ending behind one exit
    assert max(abs(t - k) for k, ts in _exits(walk).items() for t in ts) > 200  # uniformly across the book
    out = compile_text(generate.generate(400, shape="long-walk-out")).graph()
    assert not any(e["ending"] for e in out["entries"])
    grid = _exits(compile_text(generate.generate(102, shape="grid")).graph())  # 100 rooms, 10 to a row
    assert sorted(grid[1]) == [2, 11] and sorted(grid[45]) == [35, 44, 46, 55]
    assert 101 in grid[100] and 102 in grid[51]
    hub = _exits(compile_text(generate.generate(100, shape="hub")).graph())
    assert sorted(hub[1]) == list(range(2, 101)) and all(hub[k] in ([1], []) for k in range(2, 101))
    corridor = _exits(compile_text(generate.generate(100, shape="corridor")).graph())
    assert corridor[1] == [2] and sorted(corridor[50]) == [49, 51] and sorted(corridor[97]) == [96, 100]


def test_many_flags_gives_tests_and_takes_its_possessions(generate: ModuleType) -> None:
    text = generate.generate(2000, shape="many-flags")
    graph = compile_text(text).graph()
    gated = [c for e in graph["entries"] for c in e["choices"] if c.get("condition")]
    assert len(gated) >= 60
    given = {ch["name"] for e in graph["entries"] for ch in e.get("changes", []) if ch["amount"] > 0}
    taken = {ch["name"] for e in graph["entries"] for ch in e.get("changes", []) if ch["amount"] < 0}
    assert len(given) == 30 and {"coins", "stone key"} <= given and taken
    assert ", if not alarm)" in text and re.search(r", if \d+ coins\)", text) and "(roll d6, " in text


def test_gamebook_offers_five_skills_of_ten_in_252_ways(generate: ModuleType) -> None:
    """The skill chain (sections 1-21) walked with every choice it allows: each reader reaches the
    adventure (section 22) with exactly five skills, and every set of five is possible."""
    graph = compile_text(generate.generate(350, shape="gamebook")).graph()
    entries = {e["number"]: e for e in graph["entries"]}
    assert len(entries) == 350 and entries[350]["ending"]

    def holds(cond: dict[str, Any], held: frozenset[str]) -> bool:
        if "not" in cond:
            return not holds(cond["not"], held)
        assert cond["has"] == "skills"
        return len(held) >= cond["count"]

    ends: set[frozenset[str]] = set()
    todo = [(1, frozenset[str]())]
    while todo:
        number, held = todo.pop()
        if number == 22:
            ends.add(held)
            continue
        e = entries[number]
        skills = {ch["name"] for ch in e.get("changes", []) if ch["name"] not in ("skills", "gold")}
        held = held | skills
        for x in e["exits"]:
            cond = e["choices"][x["choice"]].get("condition")
            if cond is None or holds(cond, held):
                todo.append((x["target"], held))
    assert len(ends) == 252 and {len(s) for s in ends} == {5}
    gated = [c for e in graph["entries"] if e["number"] > 21 for c in e["choices"] if c.get("condition")]
    assert len(gated) >= 45
    assert sum("(roll d10, " in c["text"] for e in graph["entries"] for c in e["choices"]) >= 15
    kinds = Counter(e.get("ending_kind") for e in graph["entries"] if e["ending"])
    assert kinds["victory"] == 1 and kinds["death"] >= 15


def test_new_shapes_refuse_books_too_small_for_them(generate: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 60"):
        generate.generate(59, shape="gamebook")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "generate.py"), "4", "--shape", "grid",
                           "-o", str(tmp_path / "g.txt")], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "at least 6" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, str(BENCHMARKS / "generate.py"), "30", "--shape", "corridor",
                           "-o", str(tmp_path / "c.txt")], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and (tmp_path / "c.txt").read_text(encoding="utf-8").count("THE END") == 3


def test_shapes_bench_times_a_small_book_and_prints_the_table(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    bench = benchmark("shapes_bench")
    assert bench.main(["--shapes", "corridor", "--sizes", "50", "--commands", "lint", "--runs", "1",
                       "--warmup", "0", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "| shape | entries |" in printed and "| corridor | 50 |" in printed
    assert (tmp_path / "book-corridor-50.txt").is_file()
    cell = bench.Cell(walls=[1.0, 3.0, 2.0], cpus=[0.5, 0.7, 0.6])
    slow = bench.Cell(timeout=True)
    row = bench.Row("grid", 400, 300_000, {"lint": {"A": cell, "B": cell}, "odds": {"A": cell, "B": slow}})
    table = bench.table([row], ["A", "B"])
    assert "| grid | 400 | 0.3 | odds | 2.00 | 0.600 | 1.00 | 1.00 | timeout | timeout |" in table
