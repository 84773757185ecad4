"""Inline suppression comments: invisible to the text, scoped to an entry or the file, and
reported when malformed (DT401) or unused (DT402)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dtc.compiler.api import compile_text
from dtc.compiler.parse import parse
from dtc.diagnostics import Severity
from dtc.lint.engine import lint_compilation, pick_rules
from dtc.lint.suppressions import directive_for, read
from helpers import lint_text

HEAD = "Title: Quiet Halls\n\nQuiet Halls\n\nAdventure Entries\n\n"

BOOK = HEAD + """1 A hall. East (D0, S2) or west (D0, S3).

2 A dusty shop full of maps.
<!-- dtc: ignore[dead-end] the shopkeeper sends you home in the next edition -->

3 A bare cell with a pallet.
"""


def codes(src: str) -> list[str]:
    return [d.code for d in lint_text(src)]


# --- the parser: comment lines are not text --------------------------------------------------


def test_comment_lines_are_not_part_of_the_entry_text_or_the_graph() -> None:
    src = HEAD + "1 First line.\n<!-- dtc: ignore[dead-end] go to 9 -->\nSecond line (D0, S2).\n\n2 End. THE END\n"
    doc = parse(src)
    assert doc.entries[0].text == "First line.\nSecond line (D0, S2)."
    assert [p.target for p in doc.entries[0].prose_exits] == []  # "go to 9" in a comment is no exit
    assert doc.entries[0].choices[0].span.line == 9  # later lines keep their numbers
    graph = compile_text(src).graph()
    assert "dtc" not in graph["entries"][0]["text"] and graph["entries"][0]["end_line"] == 9
    (directive,) = doc.directives
    assert directive.entry_index == 0 and directive.span.line == 8 and directive.text.startswith("<!--")


def test_a_comment_does_not_end_the_front_matter_or_split_an_entry() -> None:
    src = "Title: A\n<!-- dtc: ignore[DT301] -->\nAuthor: B\n\nA\n\nAdventure Entries\n\n1 Here\n" \
          "<!-- dtc: ignore[DT202] -->\n2 is not a new entry, it is lowercase-led text. THE END\n"
    doc = parse(src)
    assert set(doc.meta) == {"title", "author"}
    assert len(doc.entries) == 1 and doc.entries[0].ending
    assert [d.entry_index for d in doc.directives] == [None, 0]


# --- scope -----------------------------------------------------------------------------------


def test_an_entry_comment_covers_only_its_entry() -> None:
    found = lint_text(BOOK)
    dead = [d for d in found if d.code == "DT202"]
    assert [d.entry for d in dead] == [3]  # entry 2's is silenced, entry 3's is not
    assert "DT402" not in {d.code for d in found}


def test_a_comment_above_the_entries_covers_the_file() -> None:
    src = BOOK.replace("Adventure Entries", "<!-- dtc: ignore[DT202] -->\nAdventure Entries")
    found = codes(src)
    assert "DT202" not in found
    assert "DT402" not in found  # both comments cover entry 2's finding: neither is unused


def test_rules_by_code_or_name_several_at_once() -> None:
    src = BOOK.replace("ignore[dead-end]", "ignore[DT202, numbering-gap]")
    found = codes(src)
    assert found.count("DT202") == 1
    assert "DT402" in found  # numbering-gap had nothing to silence in entry 2


def test_suppressions_can_be_turned_off() -> None:
    comp = compile_text(BOOK)
    assert [d.entry for d in lint_compilation(comp, suppress=False) if d.code == "DT202"] == [2, 3]


# --- malformed -------------------------------------------------------------------------------


@pytest.mark.parametrize(("comment", "message"), [
    ("<!-- dtc: ignore[dead-ends] -->", "unknown rule 'dead-ends'"),
    ("<!-- dtc: ignroe[dead-end] -->", "unknown dtc directive 'ignroe'"),
    ("<!-- dtc ignore[dead-end] -->", "expected ':' after 'dtc'"),
    ("<!-- dtc: ignore dead-end -->", "put the rules to ignore in brackets"),
    ("<!-- dtc: ignore[dead-end -->", "missing ']'"),
    ("<!-- dtc: ignore[] -->", "name the rules to ignore"),
    ("<!-- dtc: ignore[dead-end,] -->", "empty rule name"),
    ("<!-- dtc: ignore[dead-end]", "not closed with '-->'"),
    ("<!-- dtc: ignore[unused-suppression] -->", "DT402 (unused-suppression) cannot be suppressed inline"),
    ("<!-- dtc: -->", "no directive after 'dtc:'"),
])
def test_malformed_comments_are_dt401(comment: str, message: str) -> None:
    src = BOOK.replace("<!-- dtc: ignore[dead-end] the shopkeeper sends you home in the next edition -->", comment)
    found = lint_text(src)
    bad = [d for d in found if d.code == "DT401"]
    assert len(bad) == 1 and message in bad[0].message, [d.message for d in bad]
    assert bad[0].severity is Severity.WARNING and bad[0].span.line == 10 and bad[0].entry == 2
    assert [d.entry for d in found if d.code == "DT202"] == [2, 3]  # nothing was silenced
    assert not any(comment in e.text for e in parse(src).entries)  # still not entry text


# --- unused ----------------------------------------------------------------------------------


def test_unused_suppression_is_dt402_at_the_comment() -> None:
    src = BOOK.replace("2 A dusty shop full of maps.", "2 A dusty shop full of maps. Back (D0, S1).")
    (unused,) = [d for d in lint_text(src) if d.code == "DT402"]
    assert unused.span.line == 10 and unused.entry == 2 and unused.severity is Severity.WARNING
    assert unused.message == "unused suppression: no dead-end (DT202) finding in entry 2"
    file_wide = src.replace("Adventure Entries", "<!-- dtc: ignore[self-loop] -->\nAdventure Entries")
    messages = [d.message for d in lint_text(file_wide)]
    assert "unused suppression: no self-loop (DT205) finding in this file" in messages


def test_rules_that_did_not_run_are_not_judged_unused() -> None:
    src = BOOK.replace("2 A dusty shop full of maps.", "2 A dusty shop full of maps. Back (D0, S1).")
    comp = compile_text(src)
    found = lint_compilation(comp, pick_rules(ignore=["dead-end"]))
    assert "DT402" not in {d.code for d in found}
    assert "DT402" not in {d.code for d in lint_compilation(comp, pick_rules(ignore=["DT402"]))}


def test_the_suggested_comment_reads_back() -> None:
    line = directive_for(["DT202", "DT301"])
    assert line == "<!-- dtc: ignore[dead-end, numbering-gap] -->"
    (s,), bad = read(parse(HEAD + "1 X.\n" + line + "\n"))
    assert s.codes == ("DT202", "DT301") and not bad


# --- the command line ------------------------------------------------------------------------


def test_lint_command_applies_suppressions(tmp_path: Path) -> None:
    book = tmp_path / "halls.dtc.txt"
    book.write_text(BOOK, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "dtc", "lint", "--no-config", str(book)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0
    assert result.stdout.count("DT202") == 1 and ":12:1: DT202" in result.stdout
