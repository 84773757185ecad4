"""The counts the README and the docs give — lint rules, bundled books, game systems — are the registries'.

A sentence such as "47 lint rules", "Six original adventures" or "three base rulesets and one
overlay" goes stale the day a rule, a book or a system is added; this test reads the numbers from
the rule registry, the ``adventures/`` folder and the system registry and holds every such
sentence to them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dtc.lint.rules import RULES
from dtc.systems import BUILTIN_SYSTEMS
from helpers import BUNDLED, ROOT

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
NUMBER = r"(\d+|" + "|".join(WORDS) + r")"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "adventures" / "README.md",
             ROOT / "benchmarks" / "README.md"]


def value(word: str) -> int:
    return int(word) if word.isdigit() else WORDS.index(word.lower())


def claims(pattern: str) -> list[tuple[str, int]]:
    """Every place a document states a count with ``pattern`` (its group 1 is the number)."""
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(pattern, text, re.I):
            line = text.count("\n", 0, m.start()) + 1
            found.append((f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r}", value(m.group(1))))
    return found


def test_lint_rule_counts() -> None:
    found = claims(NUMBER + r"\s+lint\s+rules\b")
    for where, n in found:
        assert n == len(RULES), f"{where}: there are {len(RULES)} lint rules"


def test_bundled_book_counts() -> None:
    found = claims(NUMBER + r" (?:original |bundled )+(?:solo )?adventures\b")
    assert len(found) >= 2, found
    for where, n in found:
        assert n == len(BUNDLED), f"{where}: there are {len(BUNDLED)} bundled adventures"


def test_system_counts() -> None:
    bases = sum(not s.ruleset.overlay for s in BUILTIN_SYSTEMS.values())
    overlays = len(BUILTIN_SYSTEMS) - bases
    found = claims(NUMBER + r" base rulesets\s+and\s+" + NUMBER + r" overlays?")
    assert found, "docs/rulesets/README.md says how many rulesets dtc knows"
    text = (ROOT / "docs" / "rulesets" / "README.md").read_text(encoding="utf-8")
    m = re.search(NUMBER + r" base rulesets\s+and\s+" + NUMBER + r" overlays?", text, re.I)
    assert m and (value(m.group(1)), value(m.group(2))) == (bases, overlays), m


@pytest.mark.parametrize("word, n", [("Six", 6), ("45", 45), ("one", 1)])
def test_numbers_are_read_as_written(word: str, n: int) -> None:
    assert value(word) == n


def test_the_first_book_in_the_readme_is_the_one_its_commands_read() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    book = Path(ROOT / "docs" / "examples" / "first-book.txt").read_text(encoding="utf-8")
    assert "```\n" + book + "```\n" in readme


def test_the_readme_is_short() -> None:
    """The README is for users: what dtc is, install, a quick start, the commands, links (issue 44)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < 300, f"README.md has {lines} lines; move detail to docs/ (and measurements to benchmarks/)"
