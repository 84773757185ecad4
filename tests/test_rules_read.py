"""Rules declare what they read, and the language server never goes stale for any of them.

Each rule says on its registration what it reads (``reads=ENTRY``, ``TARGETS``, ``CONTENT``,
``SHAPE``; see ``dtc.lint.rules.base``); the language server keeps a rule's findings across an edit
that leaves that alone and runs the rule again otherwise, and a rule that declares nothing runs
again after every edit. Here every kind of text an author edits — prose, a whole entry's text, a
line added at the top, an entry deleted or pasted, an exit, a comment line, the front matter, a
stat block — is edited under every rule (each rule's own fixture book, which makes it speak, and
every bundled book), and what the server publishes is compared with a fresh lint of the text.

Then the reviewer's addition: an empty-entry rule, added in one place (the registry) with no
declaration, is never stale after an entry's text is deleted — and the same rule declared as
reading only the shape would be, which is what the declaration is for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dtc.compiler.api import compile_text
from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lint.engine import lint_compilation
from dtc.lint.rules import RULES, Context, Rule
from dtc.lint.rules.base import READS, SHAPE, rule
from dtc.lsp.workspace import Documents
from helpers import BUNDLED, ROOT
from helpers.lsp import entry_blocks, untouched

URI = "untitled:book"
BOOKS = sorted((ROOT / "tests" / "fixtures" / "rules").glob("*.txt")) + BUNDLED

Edit = Callable[[list[str]], list[str]]


def _block(lines: list[str], which: float) -> tuple[int, int] | None:
    """(first line, end line) of an entry-like block, ``which`` of the way through the book."""
    blocks = entry_blocks(lines)
    return blocks[min(len(blocks) - 1, int(len(blocks) * which))] if blocks else None


def prose(lines: list[str]) -> list[str]:
    """A word added to an entry's first line."""
    b = _block(lines, 0.5)
    return lines if b is None else [*lines[: b[0]], lines[b[0]] + " Quietly.", *lines[b[0] + 1 :]]


def text_deleted(lines: list[str]) -> list[str]:
    """An entry's text deleted: its number alone is left (the reviewer's case)."""
    b = _block(lines, 0.5)
    if b is None:
        return lines
    head = re.match(r"\s*(@[\w-]+|\d+)", lines[b[0]])
    return lines if head is None else [*lines[: b[0]], head.group(1), "", *lines[b[1] :]]


def line_added(lines: list[str]) -> list[str]:
    """A line of prose added inside the first entry: every later line moves down."""
    b = _block(lines, 0.0)
    return lines if b is None else [*lines[: b[0] + 1], "A new line of prose.", *lines[b[0] + 1 :]]


def entry_deleted(lines: list[str]) -> list[str]:
    b = _block(lines, 0.5)
    return lines if b is None else lines[: b[0]] + lines[b[1] :]


def entry_pasted(lines: list[str]) -> list[str]:
    b = _block(lines, 0.3)
    at = len(lines) if b is None else b[0]
    return [*lines[:at], "77 A pasted room. Leave (D0, S1) or fall (DEX D2, S1, F78).", "", *lines[at:]]


def exit_changed(lines: list[str]) -> list[str]:
    """The first S target of the book sent to an entry that does not exist."""
    out = list(lines)
    for i, line in enumerate(out):
        changed = re.sub(r"\bS(\d+)", "S999", line, count=1)
        if changed != line:
            out[i] = changed
            break
    return out


def comment_added(lines: list[str]) -> list[str]:
    b = _block(lines, 0.7)
    at = len(lines) if b is None else b[0]
    return [*lines[:at], "<!-- dtc: ignore[dead-end] -->", *lines[at:]]


def front_matter(lines: list[str]) -> list[str]:
    """A misspelt key at the top, and the first key's value changed."""
    out = ["Autor: Someone", *lines]
    for i, line in enumerate(out[1:], 1):
        if re.match(r"(Title|Author|Start|Rules):", line):
            out[i] = line.rstrip() + " X" if not line.startswith(("Start", "Rules")) else line
            break
    return out


def stat_block(lines: list[str]) -> list[str]:
    b = _block(lines, 0.4)
    at = len(lines) if b is None else b[0] + 1
    return [*lines[:at], "Ogre HP 5 | Morale 7 | Club d6", *lines[at:]]


EDITS: list[Edit] = [prose, text_deleted, line_added, entry_deleted, entry_pasted, exit_changed, comment_added,
                     front_matter, stat_block]


def served_and_fresh(source: str, edits: list[Edit]) -> Iterator[tuple[str, list[Diagnostic], list[Diagnostic]]]:
    """After each edit in turn: its name, what the server publishes, and what a fresh lint says."""
    docs = Documents()
    lines = source.split("\n")
    docs.update(URI, source, 0)
    for version, edit in enumerate(edits, 1):
        edited = edit(lines)
        text = "\n".join(edited)
        snap = docs.update(URI, text, version, unchanged=untouched(lines, edited))
        yield edit.__name__, snap.diagnostics, lint_compilation(compile_text(text, URI))
        lines = edited


def test_every_rule_declares_what_it_reads() -> None:
    assert all(r.reads in READS for r in RULES.values())
    with pytest.raises(ValueError, match="reads="):
        rule("DT999", "nothing", Severity.INFO, reads="the stars")


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.__name__)
def test_each_kind_of_edit_under_every_rule(book: Path, edit: Edit) -> None:
    source = book.read_text(encoding="utf-8")
    # the edit alone, then undone by a second edit (findings kept, moved back, or run again)
    for name, served, fresh in served_and_fresh(source, [edit, lambda _: source.split("\n")]):
        assert served == fresh, f"{book.name}: after {name}"


def at_findings(source: str) -> Iterator[tuple[str, Edit]]:
    """Edits to the text each rule speaks of: for the first two findings of every rule in the
    book, the first letter of the finding's line with its case flipped, the finding's own words
    removed, and its entry's text deleted. Undoing such an edit makes the finding appear again
    in lines the previous version's findings did not touch: a rule whose findings were kept
    there, because it declared less than it reads, would miss it."""
    seen: dict[str, int] = {}
    for d in lint_compilation(compile_text(source, URI)):
        if seen.setdefault(d.code, 0) >= 2:
            continue
        seen[d.code] += 1
        line = d.span.line - 1

        def flipped(lines: list[str], line: int = line) -> list[str]:
            m = re.search(r"[A-Za-z]", re.sub(r"^\s*(@[\w-]+|\d+)", lambda h: " " * len(h.group(0)), lines[line]))
            if m is None:
                return lines
            k, text = m.start(), lines[line]
            return [*lines[:line], text[:k] + text[k].swapcase() + text[k + 1 :], *lines[line + 1 :]]

        def unsaid(lines: list[str], s: Span = d.span, line: int = line) -> list[str]:
            if s.end_line != s.line or s.end_column <= s.column:
                return lines
            text = lines[line]
            return [*lines[:line], text[: s.column - 1] + text[s.end_column - 1 :], *lines[line + 1 :]]

        def emptied(lines: list[str], line: int = line) -> list[str]:
            blocks = [b for b in entry_blocks(lines) if b[0] <= line < b[1]]
            if not blocks:
                return lines
            a, b = blocks[0]
            head = re.match(r"\s*(@[\w-]+|\d+)", lines[a])
            return lines if head is None else [*lines[:a], head.group(1), "", *lines[b:]]

        yield f"{d.code}@{d.span.line}", flipped
        yield f"{d.code}@{d.span.line}", unsaid
        yield f"{d.code}@{d.span.line}", emptied


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_edits_to_what_each_rule_speaks_of(book: Path) -> None:
    source = book.read_text(encoding="utf-8")
    for where, edit in at_findings(source):
        for name, served, fresh in served_and_fresh(source, [edit, lambda _: source.split("\n")]):
            assert served == fresh, f"{book.name}: {edit.__name__} at {where}, after {name}"


# --- the reviewer's addition: an empty-entry rule, in one place ---------------------------------


def empty_entry(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """An entry with no text at all: its number alone."""
    for i, number in ctx.first_entries():
        entry = ctx.doc.entries[i]
        if not entry.text.strip():
            yield self.diag(ctx, f"entry {number} has no text", entry.span, number)


#: Entry 2 is prose alone (a dead end): deleting its text leaves the book's shape as it was.
BOOK = """Adventure Entries

1 A cellar. Go up the **Stair** (D0, S2) or the **Chute** (DEX D2, S3, F2).

2 Dust and old barrels, and nothing more.

3 Out in the yard. THE END
"""


def test_a_new_rule_that_declares_nothing_is_never_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULES, "DT999", rule("DT999", "empty-entry", Severity.WARNING)(empty_entry))
    ((_, served, fresh),) = served_and_fresh(BOOK, [text_deleted])
    assert [d.code for d in fresh if d.code == "DT999"] == ["DT999"]
    assert served == fresh


def test_a_rule_that_declares_less_than_it_reads_goes_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rule declared as reading the shape alone: the server keeps its (empty) findings
    across the edit, since the shape did not change — the declaration is what the server trusts."""
    wrong = rule("DT999", "empty-entry", Severity.WARNING, reads=SHAPE)(empty_entry)
    monkeypatch.setitem(RULES, "DT999", wrong)
    _, served, fresh = list(served_and_fresh(BOOK, [prose, text_deleted]))[-1]
    assert any(d.code == "DT999" for d in fresh) and not any(d.code == "DT999" for d in served)
