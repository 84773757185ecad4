"""Golden files: exact lint output of every fixture and bundled adventure, and compiled graphs.

Each rule's fixture (``tests/fixtures/rules/DTnnn.txt``) is linted with that rule alone, as ruff
tests its rules, so adding a rule never rewrites another rule's golden file; the bundled
adventures are linted with every rule, the integration check.

Regenerate after an intended change with ``DTC_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and
review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_file
from helpers import ROOT

UPDATE = os.environ.get("DTC_UPDATE_GOLDEN") == "1"
RULE_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "rules").glob("DT*.txt"))
CLEAN_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "rules" / "clean").glob("*.txt"))
ADVENTURES = sorted((ROOT / "adventures").glob("*.txt"))


#: Rules a fixture's rule cannot be judged without: an unused suppression (DT402) is one whose
#: rule ran and found nothing there, so its fixture also runs the rule it suppresses.
ALSO_SELECT: dict[str, tuple[str, ...]] = {"DT402": ("DT202",)}


def lint_output(path: Path, monkeypatch: pytest.MonkeyPatch, select: tuple[str, ...] = (),
                fmt: str = "concise") -> str:
    """The lint output (the concise one-line format unless ``fmt`` says otherwise)."""
    monkeypatch.chdir(ROOT)
    options = [arg for code in select for arg in ("--select", code)]
    result = CliRunner().invoke(main, ["lint", "--no-config", "--format", fmt, *options,
                                       str(path.relative_to(ROOT))])
    assert result.exit_code in (0, 1), result.output
    return result.output


def check_golden(actual: str, golden: Path) -> None:
    if UPDATE:
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"missing golden {golden} (DTC_UPDATE_GOLDEN=1 to create)"
    assert actual == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", RULE_FIXTURES, ids=lambda p: p.stem)
def test_rule_fixture_output(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    select = (path.stem, *ALSO_SELECT.get(path.stem, ()))
    check_golden(lint_output(path, monkeypatch, select), path.with_suffix(".expected"))


@pytest.mark.parametrize("path", CLEAN_FIXTURES, ids=lambda p: p.stem)
def test_clean_fixtures_have_no_findings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert lint_output(path, monkeypatch).startswith("All clear")


@pytest.mark.parametrize("path", ADVENTURES, ids=lambda p: p.stem)
def test_adventure_lint_output(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check_golden(lint_output(path, monkeypatch), ROOT / "tests" / "golden" / f"{path.stem}.lint.txt")


def test_full_format_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default format, with source lines and carets, on the book full of mistakes."""
    book = ROOT / "adventures" / "the-broken-lighthouse.txt"
    golden = ROOT / "tests" / "golden" / "the-broken-lighthouse.lint-full.txt"
    check_golden(lint_output(book, monkeypatch, fmt="full"), golden)


@pytest.mark.parametrize("path", ADVENTURES, ids=lambda p: p.stem)
def test_adventure_compiled_graph(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    graph = compile_file(path.relative_to(ROOT)).graph()
    validate(graph)
    text = json.dumps(graph, ensure_ascii=False, indent=1) + "\n"
    check_golden(text, ROOT / "tests" / "golden" / f"{path.stem}.json")


def test_bundled_adventures_exist() -> None:
    assert len(ADVENTURES) >= 2
