"""DT118 lowercase-entry-start: a missing entry's head read as prose, and prose left alone."""

from __future__ import annotations

import pytest

from dtc.compiler.parse import parse
from dtc.diagnostics import Span
from helpers import assert_diagnostics, lint_text

HEAD = "Test Book\n\nAdventure Entries\n\n"


def book(*entries: str, head: str = HEAD, sep: str = "\n\n") -> str:
    return head + sep.join(entries) + "\n"


def dt118(src: str) -> list[str]:
    return [d.message for d in lint_text(src) if d.code == "DT118"]


def test_a_referenced_entry_written_in_lower_case() -> None:
    src = book("1 A hall. Walk on (D0, S2).", "2 you walk into the long gallery. THE END")
    found = assert_diagnostics(src, "lowercase-entry-start@7:1", "dangling-reference")
    (message,) = [d.message for d in found if d.code == "DT118"]
    assert message == (
        "'2 you walk into …' is read as prose in entry 1, not as entry 2, because it goes on in lower case"
        " (there is no entry 2; an exit leads to it); write '2 You walk into …' if it starts entry 2"
    )
    (d,) = [d for d in found if d.code == "DT118"]
    assert d.span == Span(7, 1, 7, 6) and d.entry == 1


def test_the_next_number_in_sequence_with_nothing_leading_there() -> None:
    src = book("1 A hall. Through the door (D0, S3).", "2 you find a key under the mat.", "3 A yard. THE END")
    assert_diagnostics(src, "lowercase-entry-start@7:1", "numbering-gap")


def test_entries_run_together_without_blank_lines() -> None:
    src = book("1 A hall. Walk on (D0, S2).", "2 you walk on. On (D0, S3).", "3 A yard. THE END", sep="\n")
    assert_diagnostics(src, "lowercase-entry-start@6:1", "dangling-reference")


@pytest.mark.parametrize("head", ["2.", "2)", "2:", "**2**", "  2"])
def test_head_spellings(head: str) -> None:
    src = book("1 A hall. Walk on (D0, S2).", f"{head} you walk. THE END")
    assert len(dt118(src)) == 1


def test_a_label() -> None:
    src = book("1 A hall. Jump (D0, S@pit).", "@pit you fall a long way. THE END")
    (message,) = dt118(src)
    assert "'@pit you fall a …' is read as prose in entry 1, not as entry @pit" in message


def test_the_first_entry() -> None:
    src = book("1 you stand at the gate. In (D0, S2).", "2 A hall. THE END")
    (message,) = dt118(src)
    assert "read as prose above the first entry, not as entry 1" in message


@pytest.mark.parametrize(
    "src",
    [
        # the entry exists: prose that begins with a number
        book("1 A hall (D0, S2).", "2 A cellar.\n\n3 rats scurry past your feet. On (D0, S3).", "3 A yard. THE END"),
        # hard-wrapped prose: the line before does not end a sentence
        book("1 A hall (D0, S2).", "2 A cellar. You hear\n3 rats scurry past. On (D0, S4).", "4 A yard. THE END"),
        # out of order where it stands
        book("1 A hall (D0, S2).", "2 A cellar.\n\n12 rats scurry past. On (D0, S3).", "3 A yard. THE END"),
        # a gap, but the number is next to neither neighbour and nothing leads there
        book("1 A hall (D0, S2).", "2 A cellar.\n\n5 rats scurry past. On (D0, S9).", "9 A yard. THE END"),
        # a book with a blank line before each entry: a line right after a sentence is prose
        book("1 A hall (D0, S2).", "2 A cellar (D0, S4).\nThe door shuts.\n3 rats run.", "4 A yard (D0, S5).",
             "5 A lane (D0, S6).", "6 A gate. THE END"),
        # lower case after a number in a paragraph of an unnumbered book section
        "Test Book\n\n3 rats live here.\n",
    ],
    ids=["entry-exists", "hard-wrapped", "out-of-order", "far-from-gap", "after-a-sentence", "no-entries"],
)
def test_prose_that_begins_with_a_number_is_left_alone(src: str) -> None:
    assert dt118(src) == []


def test_the_parser_keeps_only_lines_where_a_head_would_stand() -> None:
    doc = parse(book("1 A hall. You hear\n2 rats.", "3 bats fly. THE END"))
    assert [(n, rest) for n, _, rest in doc.lowercase_heads] == [(3, "bats fly. THE END")]


def test_incremental_parse_keeps_them_too() -> None:
    from dtc.lsp.incremental import IncrementalParser

    src = book("1 A hall. Walk on (D0, S2).", "2 you walk. THE END", "3 A yard. THE END")
    parser = IncrementalParser()
    parser.parse(src)
    moved = "\n\n\n" + src
    assert parser.parse(moved) == parse(moved) and parser.parse(moved).lowercase_heads[0][1].line == 10
