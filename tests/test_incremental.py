"""The language server's incremental parser gives exactly what the full parser gives."""

from __future__ import annotations

import random

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.parse import parse
from dtc.lint.engine import lint_compilation
from dtc.lsp.incremental import IncrementalParser
from dtc.lsp.workspace import Documents
from helpers import bundled_and_sample
from test_lsp import BOOK


def _edit_lines(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    i = rng.randrange(len(lines))
    kind = rng.randrange(6)
    if kind == 0:
        lines.insert(i, "")
    elif kind == 1 and len(lines) > 1:
        del lines[i]
    elif kind == 2:
        lines.insert(i, f"{rng.randint(1, 40)} A new entry (D0, S{rng.randint(1, 40)}).")
    elif kind == 3:
        lines[i] = lines[i] + " More words, go to 3."
    elif kind == 4:
        lines.insert(i, rng.choice(["<!-- dtc: ignore[dead-end] -->", "Ogre HP 5 | Morale x | Club",
                                    "A Troll HP 9 | Bite d6. Then", "@pit A pit (D1, S@top, F2)."]))
    else:
        lines[i] = lines[i][: len(lines[i]) // 2]
    return lines


#: The books the editor is tested on: a small one, every bundled adventure, and the seed's Sample
#: Dungeon (skipped with the reason when the seed documents are not beside the checkout).
SOURCES = [pytest.param("frog-cellar", BOOK, id="frog-cellar"), *bundled_and_sample()]


@pytest.mark.parametrize(("name", "source"), SOURCES)
@pytest.mark.parametrize("seed", range(3))
def test_incremental_parse_matches_full_parse(seed: int, name: str, source: str) -> None:
    rng = random.Random(seed)
    parser = IncrementalParser()
    lines = source.split("\n")
    for _ in range(40):
        text = "\n".join(lines)
        incremental, full = parser.parse(text, "x.txt"), parse(text, "x.txt")
        assert incremental == full
        assert [c.label for e in incremental.entries for c in e.choices] == [
            c.label for e in full.entries for c in e.choices
        ]
        lines = _edit_lines(rng, lines)


@pytest.mark.parametrize(("name", "source"), SOURCES)
def test_incremental_parse_reuses_unchanged_entries(name: str, source: str) -> None:
    parser = IncrementalParser()
    entries = parser.parse(source).entries
    # A word added to the head line of the middle entry: only that entry is read again.
    middle = entries[len(entries) // 2]
    lines = source.split("\n")
    lines[middle.span.line - 1] += " Quietly."
    edited = "\n".join(lines)
    assert parser.parse(edited) == parse(edited)
    assert parser.stats.reparsed == 1 and parser.stats.chunks >= len(entries)
    moved = "\n\n" + edited
    assert parser.parse(moved) == parse(moved)
    assert parser.stats.reparsed == 0
    headerless = "1 A hall (D0, S2).\n\n2 The end. THE END\n"
    assert parser.parse(headerless) == parse(headerless) and parser.stats.full




@pytest.mark.parametrize(("name", "source"), SOURCES)
@pytest.mark.parametrize("seed", range(2))
def test_editor_findings_after_edits_equal_a_fresh_lint(seed: int, name: str, source: str) -> None:
    """What the server publishes after a run of edits (incremental parse, reused graph facts)
    is exactly what `dtc lint` says about the final text."""
    rng = random.Random(1000 + seed)
    docs = Documents()
    lines = source.split("\n")
    for version in range(30):
        text = "\n".join(lines)
        snap = docs.update("untitled:book", text, version)
        fresh = lint_compilation(compile_text(text, "untitled:book"))
        assert snap.diagnostics == fresh, f"after edit {version}"
        lines = _edit_lines(rng, lines) if rng.random() < 0.7 else _retype(rng, lines)


def _retype(rng: random.Random, lines: list[str]) -> list[str]:
    """An edit to prose only (the graph stays the same): a word added to a random line."""
    lines = list(lines)
    i = rng.randrange(len(lines))
    if lines[i].strip():
        lines[i] += " quietly"
    return lines
