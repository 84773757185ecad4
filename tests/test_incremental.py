"""The language server's incremental parser gives exactly what the full parser gives."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import dtc.lsp.incremental as inc
from dtc.compiler.api import compile_text
from dtc.compiler.compile import resolve
from dtc.compiler.parse import DIRECTIVE, find_heads, parse
from dtc.lint.analysis import Analysis, reverse
from dtc.lint.engine import lint_compilation
from dtc.lint.rules.base import ENTRY, TARGETS
from dtc.lsp.incremental import IncrementalParser
from dtc.lsp.workspace import Documents
from helpers import BUNDLED
from helpers.lsp import BOOK, SOURCES, edit_lines, entry_blocks, entry_edit, untouched


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
        lines = edit_lines(rng, lines)


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
        lines = edit_lines(rng, lines) if rng.random() < 0.7 else _retype(rng, lines)


def _retype(rng: random.Random, lines: list[str]) -> list[str]:
    """An edit to prose only (the graph stays the same): a word added to a random line."""
    lines = list(lines)
    i = rng.randrange(len(lines))
    if lines[i].strip():
        lines[i] += " quietly"
    return lines


# --- random edits, as an editor sends them ---------------------------------------------------

#: Pieces an author types or pastes: entry heads, blank lines, notation (good and broken),
#: comments, stat blocks, effects, gates, headers, and prose.
_PIECES = [
    "\n", "\n\n", " ", "word", "12 A new room (D0, S3).", "\n7 Another room. THE END\n", "2 you walk in.",
    "(DEX D2, S4, F5)", "(D0 S9)", "(D0, S9, if key)", "[+key]", "[-key]", "go to 24", "Return to 1.",
    "<!-- dtc: ignore[dead-end] -->\n", "<!-- dtc: ignore[nonsense] -->", "Ogre HP 5 | Morale 7 | Club d6\n",
    "Ogre HP x | Club", "@pit", "\n@pit A pit (D1, S@top, F2).\n", "THE END (victory)", "Suddenly, 3 Ogres attack",
    "Adventure Entries\n", "Title: X\n", "Start: 2\n", "**", "\n\n3 ", "Hazard: Fast Current\n", "Zone: perilous\n",
    "Return to your most recent entry.", "\n9 Back. Return to the last entry you read.\n", "S@pit",
    "(D0, S99999999)", "(DEX D100, S2)", "go to 123456789", "2 Ogres attack", "\n\n5 A dup (D0, S1).\n",
]


@st.composite
def _edits(draw: st.DrawFn) -> list[tuple[float, int, str]]:
    """(where, as a fraction of the text; how many characters to delete; what to insert)."""
    piece = st.one_of(st.sampled_from(_PIECES), st.text(alphabet="0123456789 \n.aAS(),D", max_size=6))
    pieces = st.lists(piece, max_size=3).map("".join)
    edit = st.tuples(st.floats(0, 1), st.integers(0, 40) | st.integers(0, 600), pieces)
    return draw(st.lists(edit, min_size=1, max_size=12))


def _books() -> list[str]:
    return [BOOK] + [p.read_text(encoding="utf-8") for p in BUNDLED]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(BUNDLED) + 1)), _edits(), st.booleans(), st.booleans())
def test_random_edits_give_what_a_full_lint_of_the_final_text_gives(book: int, edits: list[tuple[float, int, str]],
                                                                    whole_lines: bool, told: bool) -> None:
    """Any run of edits, applied one by one as the language server receives them (told, or not,
    how many lines each left alone at either end): the parse is the full parser's, and the
    findings are a fresh `dtc lint` of the text, after every edit."""
    text = _books()[book]
    docs = Documents()
    parser = IncrementalParser()
    docs.update("untitled:book", text, 0)
    parser.parse(text)
    for version, (where, length, piece) in enumerate(edits, 1):
        at = int(where * len(text))
        if whole_lines:  # cut and paste whole lines, as a block edit does
            at = text.rfind("\n", 0, at) + 1
            stop = text.find("\n", at + length)
            stop = len(text) if stop < 0 else stop + 1
            piece = piece + "\n" if piece and not piece.endswith("\n") else piece
        else:
            stop = min(at + length, len(text))
        last = text.count("\n", 0, stop)  # the line the replaced text ends on
        unchanged = (text.count("\n", 0, at), text.count("\n") - last) if told else None
        text = text[:at] + piece + text[stop:]
        doc = parser.parse(text, "x.txt", unchanged)
        assert doc == parse(text, "x.txt"), f"after edit {version}"
        resolved, full = parser.resolve(doc)[0], resolve(doc)
        assert resolved == full and list(resolved.by_number) == list(full.by_number), f"after edit {version}"
        snap = docs.update("untitled:book", text, version, unchanged=unchanged)
        assert snap.diagnostics == lint_compilation(compile_text(text, "untitled:book")), f"after edit {version}"
        assert snap.lines.lines == text.split("\n")


def test_the_server_counts_the_lines_its_changes_leave_alone() -> None:
    """What `dtc lsp` tells the parser: lines untouched at the start and at the end since the
    last analysis, over several changes; nothing once a change or the text holds another line end."""
    from lsprotocol import types

    from dtc.lsp.server import DtcServer

    def change(first: int, last: int, text: str) -> types.TextDocumentContentChangeEvent:
        return types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(first, 0), types.Position(last, 0)), text=text)

    server = DtcServer()
    server.line_counts["u"], server.untouched["u"] = 10, (-1, -1)  # as after an analysis
    server.note_changes("u", [change(4, 5, "a\nb\nc\n")])  # line 4 becomes three lines: 12 in all
    assert server.untouched["u"] == (4, 4) and server.line_counts["u"] == 12  # line 5 counts as touched
    server.note_changes("u", [change(8, 8, "x"), change(2, 3, "")])  # then 11 lines
    assert server.untouched["u"] == (2, 3) and server.line_counts["u"] == 11
    server.note_changes("u", [change(0, 0, "\r")])
    assert server.untouched["u"] is None and "u" in server.odd_line_ends


# --- whole entries deleted, pasted, moved; lines added at the top; exits changed -------------

@pytest.mark.parametrize(("name", "source"), SOURCES)
@pytest.mark.parametrize("told", [True, False])
def test_entry_edits_give_what_a_full_lint_gives(told: bool, name: str, source: str) -> None:
    """Entries deleted, pasted and moved, lines added at the top, exits changed (the edits that
    change the book's shape or move every later line), told or not how many lines each left
    alone: the findings are a fresh `dtc lint` of the text after every edit."""
    rng = random.Random(7 if told else 8)
    docs = Documents()
    lines = source.split("\n")
    docs.update("untitled:book", source, 0)
    for version in range(1, 41):
        edited = entry_edit(rng, lines)
        text = "\n".join(edited)
        snap = docs.update("untitled:book", text, version, unchanged=untouched(lines, edited) if told else None)
        assert snap.diagnostics == lint_compilation(compile_text(text, "untitled:book")), f"after edit {version}"
        lines = edited


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(BUNDLED) + 1)), st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=15))
def test_random_entry_edits_give_what_a_full_lint_gives(book: int, seeds: list[int]) -> None:
    """Any run of whole-entry edits (see :func:`_entry_edit`), each checked against a fresh lint."""
    docs = Documents()
    lines = _books()[book].split("\n")
    docs.update("untitled:book", "\n".join(lines), 0)
    for version, seed in enumerate(seeds, 1):
        lines = entry_edit(random.Random(seed), lines)
        text = "\n".join(lines)
        snap = docs.update("untitled:book", text, version)
        assert snap.diagnostics == lint_compilation(compile_text(text, "untitled:book")), f"after edit {version}"


# --- the entry graph patched after an entry is deleted or pasted ------------------------------

def _plain_book(rng: random.Random, size: int) -> str:
    """A book with no labels or malformed choices (whose graph the server patches): choices,
    prose exits, returns, endings, dead ends, exits to missing numbers, a start."""
    lines = ["# Plain", "", "## Entries"]
    for n in range(1, size + 1):
        t, u = rng.randint(1, size + 3), rng.randint(1, size + 3)
        lines += ["", rng.choice([f"{n} A room (D1, S{t}, F{u}).", f"{n} A hall. Go to {t}.",
                                  f"{n} The end. THE END", f"{n} A dead end.", f"{n} A loop (D0, S{n}).",
                                  f"{n} A fork (D0, S{t}) or (D0, S{u}).",
                                  f"{n} Back. Return to your most recent entry."])]
    return "\n".join(lines)


def _plain_edit(rng: random.Random, lines: list[str], size: int) -> list[str]:
    blocks = entry_blocks(lines)
    if not blocks or rng.random() < 0.4:  # paste an entry (a number new, or one deleted before)
        a = blocks[rng.randrange(len(blocks))][0] if blocks else len(lines)
        n, t = rng.randint(1, size + 3), rng.randint(1, size + 3)
        piece = rng.choice([f"{n} A pasted room. Leave (D0, S{t}).", f"{n} A pasted room. THE END",
                            f"{n} A pasted dead end.", f"{n} A hall. Go to {t}.",
                            f"{n} Back. Return to your most recent entry."])
        return [*lines[:a], piece, "", *lines[a:]] if blocks else [*lines, "", piece]
    a, b = blocks[rng.randrange(len(blocks))]
    return lines[:a] + lines[b:]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 25), st.integers(1, 12))
def test_patched_entry_graph_is_the_graph_built_anew(seed: int, size: int, steps: int) -> None:
    """After each entry deleted or pasted, the graph facts the parser patched are those built
    from the resolution anew: successors, predecessors, endings, ways on, reach, traps."""
    rng = random.Random(seed)
    lines = _plain_book(rng, size).split("\n")
    parser = IncrementalParser()
    with mock.patch.object(inc._Graph, "patched", autospec=True, side_effect=inc._Graph.patched) as patched:
        for _ in range(steps + 1):
            doc = parser.parse("\n".join(lines), "book")
            res, _key = parser.resolve(doc)
            got = parser.analysis(res)
            assert got is not None
            want = Analysis.of_resolved(res)
            assert {n: sorted(s) for n, s in got.successors.items()} == {
                n: sorted(s) for n, s in want.successors.items()}
            assert got.predecessors is not None
            assert {n: sorted(p) for n, p in got.predecessors.items()} == {
                n: sorted(p) for n, p in reverse(want.successors).items()}
            assert (got.endings, got.written, got.start) == (want.endings, want.written, want.start)
            assert (got.reachable, got.escapable, got.trapped, got.dead_ends) == (
                want.reachable, want.escapable, want.trapped, want.dead_ends)
            lines = _plain_edit(rng, lines, size)
    note(f"patched {patched.call_count} times")


def test_deleting_and_pasting_an_entry_patches_the_graph() -> None:
    """The path the test above checks is the one a delete or a paste takes."""
    patched = mock.patch.object(inc._Graph, "patched", autospec=True, side_effect=inc._Graph.patched)
    lines = _plain_book(random.Random(3), 12).split("\n")
    a, b = entry_blocks(lines)[5]
    docs = Documents()
    texts = ["\n".join(lines), "\n".join(lines[:a] + lines[b:]), "\n".join(lines),
             "\n".join([*lines[:a], "40 A pasted room. Leave (D0, S6).", "", *lines[a:]])]
    with patched as calls:
        for version, text in enumerate(texts):
            snap = docs.update("untitled:book", text, version)
            assert snap.diagnostics == lint_compilation(compile_text(text, "untitled:book"))
    assert calls.call_count == 3


# --- a book opened: one parse of the whole, cut into chunks -----------------------------------

def _cut_chunks_equal_chunks_parsed_alone(source: str) -> int:
    """How many chunks opening ``source`` cut from one parse (each checked against its own parse)."""
    parser = IncrementalParser()
    doc = parser.parse(source, "x.txt")
    assert doc == parse(source, "x.txt")
    layout = parser._layout
    if layout is None:
        return 0
    for chunk, first in zip(layout.chunks, layout.lines, strict=True):
        alone = parse(inc._HEADER + chunk.text, "<chunk>", blank_separated=parser._blank_separated)
        by = first - 1
        assert chunk.base in (0, by)
        assert chunk.entries == [inc._shift(e, chunk.base) for e in alone.entries]
        assert chunk.directives == [inc._shift(d, chunk.base) for d in alone.directives]
        assert chunk.extras == {name: inc._shift_any(items, chunk.base) for name, items in inc._extras(alone).items()}
        assert chunk.placed(by) == ([inc._shift(e, by) for e in alone.entries],
                                    [inc._shift(d, by) for d in alone.directives],
                                    {name: inc._shift_any(items, by) for name, items in inc._extras(alone).items()})
        assert chunk.layout == inc._layout_of(chunk.text)
    return sum(1 for chunk, first in zip(layout.chunks, layout.lines, strict=True) if chunk.base == first - 1)


@pytest.mark.parametrize(("name", "source"), SOURCES)
def test_a_book_opened_is_cut_into_the_chunks_each_parse_gives(name: str, source: str) -> None:
    """Opening a book parses it once, as `dtc lint` does, and cuts the parse into chunks: each
    holds what parsing it alone gives (at its place), so later edits may reuse it."""
    parser = IncrementalParser()
    parser.parse(source)
    assert parser._layout is not None
    assert _cut_chunks_equal_chunks_parsed_alone(source) == len(parser._layout.chunks) > 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(BUNDLED) + 1)), _edits())
def test_any_book_opened_is_cut_into_the_chunks_each_parse_gives(book: int,
                                                                 edits: list[tuple[float, int, str]]) -> None:
    """The same for books an author is halfway through writing (random edits of the bundled ones)."""
    text = _books()[book]
    for where, length, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[min(at + length, len(text)):]
    _cut_chunks_equal_chunks_parsed_alone(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(BUNDLED) + 1)), _edits())
def test_chunk_starts_read_from_the_entry_heads_are_the_chunk_starts(book: int,
                                                                      edits: list[tuple[float, int, str]]) -> None:
    """Opening a book finds where its chunks start from the parser's reading of the entry heads."""
    text = _books()[book]
    for where, length, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[min(at + length, len(text)):]
    lines = text.split("\n")
    header = inc._entries_header(lines)
    if header is None:
        return
    comments = {i for i in range(header + 1, len(lines)) if "<!--" in lines[i] and DIRECTIVE.match(lines[i])}
    heads, after_blank = find_heads(lines, header + 1, comments)
    assert inc._starts_of(lines, header + 1, comments, heads, after_blank) == inc._chunk_starts(lines, header + 1)


@pytest.mark.parametrize("after_header", [
    ["1 A hall."], ["", "1 A hall."], ["Some prose.", "1 A hall."], ["<!-- dtc: ignore[dead-end] -->", "1 A hall."],
    ["Prose.", "<!-- dtc: ignore[dead-end] -->", "1 A hall."], ["", "<!-- dtc: ignore[dead-end] -->", "1 A hall."],
    ["2 you walk in.", "1 A hall."], ["Prose.", "", "1 A hall."], [],
])
def test_chunk_starts_read_from_the_entry_heads_where_the_entries_begin(after_header: list[str]) -> None:
    lines = ["Title", "", "Adventure Entries", *after_header, "", "2 A room.", "3 Prose? 4 No.", "", "5 End."]
    comments = {i for i, line in enumerate(lines) if DIRECTIVE.match(line)}
    heads, after_blank = find_heads(lines, 3, comments)
    assert inc._starts_of(lines, 3, comments, heads, after_blank) == inc._chunk_starts(lines, 3)


@pytest.mark.parametrize(("name", "source"), SOURCES)
def test_a_book_opened_shares_out_one_run_of_the_local_rules(name: str, source: str) -> None:
    """Opening a book runs the entry-local rules once over it all; what each chunk is given is
    what the rules find in the chunk checked alone (what later edits keep and move)."""
    _local_findings_equal_each_chunk_checked_alone(source)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(BUNDLED) + 1)), _edits())
def test_any_book_opened_shares_out_one_run_of_the_local_rules(book: int,
                                                               edits: list[tuple[float, int, str]]) -> None:
    text = _books()[book]
    for where, length, piece in edits:
        at = int(where * len(text))
        text = text[:at] + piece + text[min(at + length, len(text)):]
    _local_findings_equal_each_chunk_checked_alone(text)


def _local_findings_equal_each_chunk_checked_alone(source: str) -> None:
    from dtc.lint.engine import pick_rules

    docs = Documents()
    snap = docs.update("untitled:book", source, 0)
    parser = docs._parsers["untitled:book"]
    layout = parser._layout
    if layout is None:
        return
    rules = pick_rules()
    chosen = [r for r in rules if r.reads == ENTRY]
    targeted = [r for r in rules if r.reads == TARGETS]
    res = snap.comp.resolved
    for chunk in layout.chunks:
        assert chunk.local is not None and chunk.targeted is not None
        assert chunk.local.found == (inc._find(chunk, snap.doc, res, chosen) if chunk.entries else {})
        want = inc._find(chunk, snap.doc, res, targeted, whole_book=True) if chunk.prose_targets else {}
        assert chunk.targeted.found == want


# --- looking something up after a line was added near the top ---------------------------------

def test_a_hover_after_a_line_insert_moves_only_the_entries_it_reads() -> None:
    """A line added at the top leaves the entries below where their chunks were parsed (see
    `Placed`); a hover or a go-to-definition far below moves only the chunks it reads, and
    answers what it answers on the book opened afresh."""
    from lsprotocol import types

    from dtc.lsp import hover, navigation

    size = 300
    lines = ["# Deep", "", "Adventure Entries"]
    for n in range(1, size + 1):
        lines += ["", f"{n} Room {n}. Onward (DEX D2, S{n % size + 1}, F{(n * 7) % size + 1}). Or go to {n}."]
    text = "\n".join(lines)
    docs = Documents()
    docs.update("untitled:book", text, 0)
    edited = [*lines[:5], "A new line of prose.", *lines[5:]]
    text = "\n".join(edited)
    snap = docs.update("untitled:book", text, 1, unchanged=untouched(lines, edited))
    entries = snap.doc.entries
    assert isinstance(entries, inc.Placed) and len(entries._pending) > size // 2
    waiting = len(entries._pending)
    fresh = Documents().update("untitled:fresh", text, 0)
    row = next(i for i, line in enumerate(edited) if line.startswith(f"{size - 20} Room"))
    column = edited[row].index("S") + 1  # the success target
    for line, col in ((row + 1, column), (row + 1, 1), (row + 1, edited[row].index("go to") + 1)):
        got = hover.hover(snap, line, col)
        want = hover.hover(fresh, line, col)
        assert got is not None and got == want
        assert navigation.definition(snap, line, col) == [
            types.Location(uri="untitled:book", range=x.range) for x in navigation.definition(fresh, line, col)]
    assert waiting - len(entries._pending) <= 4  # the entry looked at, and the entries its targets name
