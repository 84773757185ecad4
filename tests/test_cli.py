"""The command line: formats, exit codes, select/ignore, rule docs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.lint.rules import RULES

BOOK = "Book\n\nAdventure Entries\n\n1 A door (D1, S2).\n\n2 In. Go to 3.\n\n3 Nothing.\n"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_text_output_is_compiler_style_and_exit_1_on_errors(book: Path) -> None:
    code, out = run("lint", str(book))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{book}:5:10: DT102 [error] D1 check (D1, S2) has no failure entry (F<n>)"
    assert lines[-1] == "Found 1 error, 2 warnings, 1 info in 1 file."


def test_json_format(book: Path) -> None:
    code, out = run("lint", "--format", "json", str(book))
    data = json.loads(out)
    assert code == 1
    first = data["diagnostics"][0]
    assert set(first) == {"path", "line", "column", "end_line", "end_column", "code", "rule", "severity",
                          "message", "entry", "fix"}
    assert (first["code"], first["entry"], first["line"], first["column"]) == ("DT102", 1, 5, 10)
    assert data["summary"] == {"files": 1, "error": 1, "warning": 2, "info": 1}


def test_sarif_format(book: Path) -> None:
    _, out = run("lint", "--format", "sarif", str(book))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    run0 = sarif["runs"][0]
    assert len(run0["tool"]["driver"]["rules"]) == len(RULES)
    result = run0["results"][0]
    assert result["ruleId"] == "DT102" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"]["startColumn"] == 10


def test_github_format(book: Path) -> None:
    _, out = run("lint", "--format", "github", str(book))
    assert out.splitlines()[0].startswith(f"::error file={book},line=5,col=10,")


def test_select_and_ignore_take_codes_names_and_prefixes(book: Path) -> None:
    code, out = run("lint", "--ignore", "missing-failure", str(book))
    assert code == 0 and "DT102" not in out
    code, out = run("lint", "--select", "DT2", str(book))
    assert "DT202" in out and "DT302" not in out and code == 0
    code, out = run("lint", "--select", "no-such-rule", str(book))
    assert code == 2


def test_unreadable_file_exit_2(tmp_path: Path) -> None:
    code, _ = run("lint", str(tmp_path / "missing.txt"))
    assert code == 2


def test_rule_docs() -> None:
    code, out = run("rule", "DT102")
    assert code == 0 and out.startswith("# DT102 missing-failure (error)") and "## Fix" in out
    code, out = run("rule", "dead-end")
    assert "DT202" in out
    code, out = run("rule", "--list")
    assert len(out.splitlines()) == len(RULES)
    code, _ = run("rule", "DT999")
    assert code == 2


def test_rulesets_listing() -> None:
    code, out = run("rules")
    assert "death-and-treasure" in out
    code, out = run("rules", "death-and-treasure")
    assert "STR DEX CON WIS INT CHA" in out and "D0 D1 D2 D3" in out
    code, _ = run("rules", "nope")
    assert code == 2


def test_compile_writes_valid_json_even_with_errors(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "book.json"
    code, _ = run("compile", str(book), "-o", str(out))
    assert code == 1
    graph = json.loads(out.read_text(encoding="utf-8"))
    assert graph["entries"][0]["choices"][0]["failure"] is None


def test_compile_lints_beside_the_write_and_reports_after_it(book: Path, tmp_path: Path) -> None:
    """The lint runs on a second thread while the graph is written; its errors follow "wrote"."""
    out = tmp_path / "book.json"
    result = CliRunner().invoke(main, ["compile", str(book), "-o", str(out)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"wrote {out}"
    assert any("DT" in line and "error" in line for line in lines[1:])


def test_beside_returns_or_raises_in_the_caller() -> None:
    from dtc.cli.base import Beside

    assert Beside(lambda: 41 + 1).result() == 42

    def fails() -> int:
        raise ValueError("from the thread")

    with pytest.raises(ValueError, match="from the thread"):
        Beside(fails).result()
