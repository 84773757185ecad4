"""The language server's outline, built as the JSON LSP sends, and the position counting it
rests on (dtc.lsp.positions): the same as counting code units character by character. The
outline, folding, what gives a possession and possession completion read every entry where the
editor's parser keeps it, moving none: the same as a fresh open after edits."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import default_converter

from dtc.diagnostics import Span
from dtc.lsp import completion, navigation
from dtc.lsp.incremental import Placed
from dtc.lsp.positions import UTF8, UTF16, UTF32, Lines
from dtc.lsp.server import JSONReply, _converter
from dtc.lsp.workspace import Documents
from helpers import ROOT
from helpers.lsp import SOURCES, edit_lines, entry_edit, untouched

BOOK = """Title: Outline
Start: 1

Mud Frog HP 3 | Morale 7 | Bite d4

Adventure Entries

1 A cellar — damp, and older than it looks 😀. Steps go down (DEX D2, S2, F3) or
**Back Door** (D0, S3).

2 The bottom. THE END

3 A puddle 😀😀 and a way on. Go on (D0, S2).
"""


def _units(text: str, encoding: str) -> int:
    """Code units counted character by character (what the counting in C must equal)."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return sum(1 if ord(ch) < 0x80 else 2 if ord(ch) < 0x800 else 3 if ord(ch) < 0x10000 else 4 for ch in text)
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


letters = st.sampled_from(["a", " ", "—", "é", "😀", "\ud800", "\udfff", "中", "\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(letters, max_size=40).map("".join), st.sampled_from([UTF8, UTF16, UTF32]),
       st.integers(1, 12), st.integers(-2, 50))
def test_a_position_counts_the_code_units_before_it(text: str, encoding: str, line: int, column: int) -> None:
    lines = Lines(text, encoding)
    expected = _units(lines.line(line)[: max(column - 1, 0)], encoding)
    assert lines.units(line, column) == expected
    assert lines.units(line, column) == expected  # remembered the second time
    assert lines.to_lsp(line, column) == types.Position(max(line - 1, 0), expected)


def test_an_edited_line_is_counted_anew_and_the_others_are_remembered() -> None:
    lines = Lines("plain\nplain\nsmile 😀")
    assert lines.units(2, 6) == 5 and lines.units(3, 8) == 8
    edited = Lines.edited(lines, 1, 1, ["😀😀😀"])
    assert edited.units(2, 3) == 4
    assert edited._flat is lines._flat and edited._flat["smile 😀"] is False  # the lines left alone: known
    assert edited.units(3, 8) == 8


def test_what_the_versions_remember_is_forgotten_once_it_is_mostly_what_edits_replaced() -> None:
    kept = Lines("a\nb")
    kept.units(1, 1)
    assert Lines.edited(kept, 0, 1, ["c"])._flat is kept._flat
    replaced = Lines("a\nb")
    replaced._flat.update({f"a line edited away {n}": True for n in range(2000)})
    assert Lines.edited(replaced, 0, 1, ["c"])._flat == {}


def test_a_range_as_json_is_the_range_as_lsp_sends_it() -> None:
    lines = Lines("a 😀 b\nxyz")
    span = Span(1, 3, 2, 2)
    assert lines.range_json(span) == default_converter().unstructure(lines.range(span))


def _outline() -> list[dict[str, Any]]:
    docs = Documents()
    docs.update("file:///outline.dtc.txt", BOOK, 1)
    snap = docs.get("file:///outline.dtc.txt")
    assert snap is not None
    return navigation.document_symbols(snap)


def test_the_outline_has_the_shape_of_lsp_document_symbols() -> None:
    """Read as LSP's typed symbols and written back, the outline is what it was: no key
    missing, none extra, every value of the type LSP gives it."""
    outline = _outline()
    converter = default_converter()
    typed = converter.structure(outline, list[types.DocumentSymbol])
    assert converter.unstructure(typed) == outline
    assert [s.name for s in typed] == ["Mud Frog", "1", "2", "3"]
    first = typed[1]
    assert first.range == types.Range(types.Position(7, 0), types.Position(8, 23))
    assert [c.name for c in first.children or []] == ["Steps go down", "Back Door"]
    # after the dash (one unit) and the emoji (two): "(DEX D2, S2, F3)" opens at character 61
    steps = (first.children or [])[0]
    assert steps.range.start == types.Position(7, 61)
    assert steps.selection_range == steps.range


def test_what_the_outline_remembers_of_an_entry_is_used_only_while_it_holds() -> None:
    """What the outline remembers of an entry (its characters and words) is used again only for
    the same entry, with its lines and the encoding as they were: changed lines under an entry
    kept (an emoji before a choice moves it two units in UTF-16), another encoding, another entry
    where one was: each gives the outline that nothing remembered gives."""
    import dataclasses

    def opened() -> Any:
        docs = Documents()
        docs.update("file:///outline.dtc.txt", BOOK, 1)
        snap = docs.get("file:///outline.dtc.txt")
        assert snap is not None
        navigation.document_symbols(snap)
        assert len(snap.outline) == len(snap.doc.entries)  # one item an entry, remembered
        return snap

    def afresh(snap: Any) -> list[dict[str, Any]]:
        return navigation.document_symbols(dataclasses.replace(snap, outline={}))

    remembered = afresh(opened())
    moved = dataclasses.replace(opened(), lines=Lines(BOOK.replace("damp,", "😀 damp,")))
    assert navigation.document_symbols(moved) == afresh(moved) != remembered
    other = dataclasses.replace(opened(), lines=Lines(BOOK, UTF8))
    assert navigation.document_symbols(other) == afresh(other) != remembered
    snap = opened()
    first = snap.doc.entries[0]
    stale = snap.outline[id(first)]
    stale.entry = dataclasses.replace(first)  # as if another entry, now gone, had stood where this one stands
    stale.detail = "not this entry's"
    assert navigation.document_symbols(snap) == afresh(snap) == remembered


def test_the_server_sends_a_json_reply_as_it_is() -> None:
    outline = _outline()
    reply = types.DocumentSymbolResponse(id=1, result=JSONReply(outline))
    assert _converter().unstructure(reply)["result"] is outline


# --- after edits: read where the entries are stored, the same as a fresh open -------------------

_LABELLED = """Title: Labelled

Adventure Entries

1 A hall. Go on (D0, S@den).

@den A den. A Cave Bear HP 9 | Bite d6. Then back (D0, S1).
"""


def _line_at_top(rng: random.Random, lines: list[str]) -> list[str]:
    """A line of prose added to the first entry, or one taken away: every later line moves."""
    first = next((i for i in range(1, len(lines)) if lines[i][:1].isdigit() and not lines[i - 1].strip()), 0)
    if rng.random() < 0.3 and first + 1 < len(lines) and lines[first + 1].startswith("More words"):
        return lines[: first + 1] + lines[first + 2 :]
    return [*lines[: first + 1], "More words about the room.", *lines[first + 1 :]]


@pytest.mark.parametrize(("name", "source"), [*SOURCES[:3], pytest.param("labelled", _LABELLED, id="labelled")])
@pytest.mark.parametrize("told", [True, False])
def test_the_outline_and_folding_after_edits_are_those_of_a_fresh_open(told: bool, name: str, source: str) -> None:
    """After lines added at the top, entries deleted, pasted and moved, the outline and the
    folding, read from the entries where the editor's parser keeps them (no entry is moved),
    are what opening the edited text afresh gives; and no entry was moved for them."""
    rng = random.Random(11 if told else 12)
    docs = Documents()
    lines = source.split("\n")
    docs.update("untitled:book", source, 0)
    for version in range(1, 16):
        edited = (_line_at_top, entry_edit, edit_lines)[version % 3](rng, lines)
        text = "\n".join(edited)
        snap = docs.update("untitled:book", text, version, unchanged=untouched(lines, edited) if told else None)
        entries = snap.doc.entries
        pending = dict(entries._pending) if isinstance(entries, Placed) else {}
        outline, folding = navigation.document_symbols(snap), navigation.folding_ranges(snap)
        if isinstance(entries, Placed):
            assert entries._pending == pending, "the outline moved entries"
        fresh = Documents()
        fresh.update("untitled:fresh", text, 0)
        again = fresh.get("untitled:fresh")
        assert again is not None
        assert outline == navigation.document_symbols(again), f"after edit {version}"
        assert folding == navigation.folding_ranges(again), f"after edit {version}"
        lines = edited


def test_a_stat_block_in_a_labelled_entry_is_in_the_outline() -> None:
    docs = Documents()
    docs.update("untitled:book", _LABELLED, 0)
    snap = docs.get("untitled:book")
    assert snap is not None
    names = [s["name"] for s in navigation.document_symbols(snap)]
    assert names == ["1", "@den (2)", "Cave Bear"]


def test_what_gives_a_possession_and_its_completion_after_edits_are_those_of_a_fresh_open() -> None:
    """Go to definition on a condition (``if brass key``: where the book gives it) and the
    completion of possession names read the entries where they are stored: after lines are
    added at the top, the same as a fresh open, and completion moves no entry."""
    source = (ROOT / "adventures" / "the-tidewater-vault.txt").read_text(encoding="utf-8")
    rng = random.Random(5)
    docs = Documents()
    lines = source.split("\n")
    docs.update("untitled:book", source, 0)
    for version in range(1, 6):
        edited = _line_at_top(rng, lines)
        text = "\n".join(edited)
        snap = docs.update("untitled:book", text, version, unchanged=untouched(lines, edited))
        again = Documents().update("untitled:book", text, 0)
        entries = snap.doc.entries
        pending = dict(entries._pending) if isinstance(entries, Placed) else {}
        assert completion._possessions(snap, 3, 1, 1) == completion._possessions(again, 3, 1, 1)
        if isinstance(entries, Placed):
            assert entries._pending == pending, "completion moved entries"
        conditions = [c.condition_span for e in again.doc.entries for c in e.choices if c.condition_span is not None]
        assert conditions
        for span in conditions:
            got = navigation.definition(snap, span.line, span.column + 1)
            assert got == navigation.definition(again, span.line, span.column + 1), f"after edit {version}"
        assert any(navigation.definition(again, s.line, s.column + 1) for s in conditions)
        lines = edited
