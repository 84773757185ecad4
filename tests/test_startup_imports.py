"""Start-up: the commands that need no numbers never import numpy or scipy; compact JSON output.

Each check starts a fresh interpreter (``python -c``) so that what another test imported does not
count, runs the command through ``dtc.cli.main`` and prints which heavy modules ended up loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main

BOOK = "Book\n\nAdventure Entries\n\n1 A door (D1, S2, F3).\n\n2 In. Go to 3.\n\n3 Out. THE END\n"
HEAVY = ("numpy", "scipy", "jsonschema", "fastjsonschema", "jsonschema_rs")

PROBE = """
import sys
from dtc.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("LOADED", *sorted(m for m in {heavy!r} if m in sys.modules))
"""


def loaded(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    line = next(x for x in done.stdout.splitlines() if x.startswith("LOADED"))
    return line.split()[1:]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


def test_lint_and_help_import_no_numeric_or_schema_libraries(book: Path) -> None:
    assert loaded("lint", str(book)) == []
    assert loaded("--help") == []


def test_compile_imports_no_numeric_libraries_and_validates_only_when_asked(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "book.json"
    assert loaded("compile", str(book), "-o", str(out)) == []
    assert {"fastjsonschema", "jsonschema_rs"} & set(loaded("compile", str(book), "-o", str(out), "--validate"))


def test_compile_validate_flag_passes_on_a_good_book(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "book.json"
    result = CliRunner().invoke(main, ["compile", str(book), "-o", str(out), "--validate"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["format_version"]


def test_odds_json_written_to_a_file_is_compact_and_the_same_data(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "odds.json"
    result = CliRunner().invoke(main, ["odds", str(book), "--format", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n"
    piped = CliRunner().invoke(main, ["odds", str(book), "--format", "json"])
    assert json.loads(piped.output) == json.loads(text)


def test_the_language_server_starts_without_numeric_libraries() -> None:
    """`dtc lsp` (started, warmed up on a small book, then told end of input) loads neither numpy
    nor scipy: an editor waits for the server to start on every launch."""
    assert loaded("lsp") == []


def test_odds_of_a_small_book_imports_no_numeric_libraries(book: Path, tmp_path: Path) -> None:
    """`dtc odds` of a small book is solved in plain Python (dtc.odds.small): numpy and scipy,
    which cost more to load than the whole answer, load only for a large chain."""
    assert loaded("odds", str(book)) == []
    assert loaded("odds", str(book), "--format", "json", "--policy", "likeliest") == []
    one = tmp_path / "one.txt"
    one.write_text("Book\n\nAdventure Entries\n\n1 Out. THE END\n", encoding="utf-8")
    assert loaded("odds", str(one)) == []


def test_odds_of_a_large_cross_linked_book_still_loads_numpy(tmp_path: Path) -> None:
    """Beyond what plain Python solves quickly (here one loop of 80 entries), the numeric path."""
    lines = ["Book", "", "Adventure Entries", ""]
    for n in range(1, 81):
        lines += [f"{n} Room {n}. On (D0, S{n % 80 + 1}), or out (D0, S81).", ""]
    lines += ["81 Out. THE END", ""]
    path = tmp_path / "ring.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert {"numpy", "scipy"} <= set(loaded("odds", str(path)))
