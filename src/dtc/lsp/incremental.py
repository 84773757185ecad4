"""Re-parse only what changed: the same :class:`~dtc.compiler.model.Document` as :func:`dtc.compiler.parse.parse`,
with each run of entries parsed once and reused while its text is unchanged.

An adventure with an ``Adventure Entries`` header is cut into its front part (everything up to
the header) and *chunks*: each chunk begins at a line that the full parser is certain to read as
an entry head — a head-shaped line whose previous non-comment line is blank — and runs to the
next such line. Whether a line starts an entry depends only on the lines before it inside its
own chunk and on whether the book separates its entries with blank lines (worked out over the
whole book first, and passed to each chunk's parse), and an entry's body only on its own text,
so parsing a chunk on its own (behind a header line) gives the entries the full parse gives,
with line numbers shifted. Chunks are
cached by text; a reused chunk is moved (a copy with its spans moved) when lines were added or
removed above it, and only when one of its entries is looked at (see :class:`Placed`). The
resolution is put together from each chunk's part, or spliced from the previous version's when
an edit allows (see :meth:`IncrementalParser.resolve`). Files without an entries header are
parsed in full (the layout scan then decides where entries begin, and it needs the whole file).
``tests/test_lsp.py`` checks the equivalence.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import sys
import typing
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from dtc.compiler.compile import Exit, Resolved, resolve
from dtc.compiler.model import Choice, Directive, Document, Entry, Target
from dtc.compiler.parse import (
    DIRECTIVE,
    ENTRIES_HEADER,
    ENTRY_HEAD,
    find_heads,
    head_layout,
    parse,
    separates_with_blank_lines,
)
from dtc.diagnostics import Diagnostic, Span
from dtc.lint.analysis import SALVAGE, Analysis, reverse
from dtc.lint.rules import Context, Rule
from dtc.lint.rules.base import ENTRY as READS_ENTRY
from dtc.lint.rules.base import TARGETS as READS_TARGETS
from dtc.lint.state import book_has_state
from dtc.lsp.placed import Placed
from dtc.lsp.resolution import _add_returns, _Graph, _Part, _settle_start, _target, _targets
from dtc.lsp.shifting import shift as _shift
from dtc.lsp.shifting import shift_any as _shift_any

_HEADER = "Adventure Entries\n"
_PROBE = "\n1 X"


@dataclass(slots=True, eq=False)
class _Chunk:
    """One chunk's text and what parsing it gave, with spans ``base`` lines further down than
    the chunk parsed alone (behind a header line, where its first line is line 2): 0 when it
    was parsed alone, where it stood when it was cut from a parse of the whole book (see
    :meth:`IncrementalParser._parse_all`); never rewritten. Plus the copy moved to where the
    chunk stood last (``at``), kept while the chunk does not move."""

    text: str
    #: (entry heads after a blank line, entry heads): the chunk's part of the book's layout.
    layout: tuple[int, int]
    entries: list[Entry]
    directives: list[Directive]
    #: Other document-level lists the chunk's entries added to (such as unreadable stat blocks).
    extras: dict[str, list[Any]]
    base: int = 0
    at: int = 0
    moved: tuple[list[Entry], list[Directive], dict[str, list[Any]]] | None = None
    #: The chunk's part of the resolution, for one (line shift, label numbers).
    resolved_for: tuple[int, object] | None = None
    part: _Part | None = None

    has_labels: bool | None = None
    #: Findings of the entry-local rules (``reads=ENTRY``), for one (path, ruleset, label numbers).
    local: _Found | None = None
    #: Findings of the ``reads=TARGETS`` rules, for one key (which also says which targets name an entry).
    targeted: _Found | None = None
    #: What the two were last checked for (see :meth:`IncrementalParser.local_findings`), and
    #: whether either holds a finding.
    checked: object = None
    finds: bool = False
    prose_targets_of: tuple[Target, ...] | None = None
    has_state_of: bool | None = None
    #: What the chunk says apart from its prose and its place (see :func:`without_places`), when asked.
    shape_of: tuple[list[object], list[object], dict[str, list[object]]] | None = None

    @property
    def has_state(self) -> bool:
        if self.has_state_of is None:
            self.has_state_of = book_has_state(self.entries)
        return self.has_state_of

    @property
    def prose_targets(self) -> tuple[Target, ...]:
        """The targets of the prose exits of the chunk's entries, file order."""
        if self.prose_targets_of is None:
            self.prose_targets_of = tuple(p.target for e in self.entries for p in e.prose_exits)
        return self.prose_targets_of

    @property
    def shape(self) -> tuple[list[object], list[object], dict[str, list[object]]]:
        """(entries, comment lines, other document-level items), each without prose or places."""
        if self.shape_of is None:
            self.shape_of = ([without_places(e) for e in self.entries], [without_places(d) for d in self.directives],
                             {name: [without_places(x) for x in items] for name, items in self.extras.items()})
        return self.shape_of

    @property
    def labelled(self) -> bool:
        """Whether an entry here is named by a label, or an exit names one (the part then
        depends on the numbers the book gives its labels)."""
        if self.has_labels is None:
            # A label, as an entry's name or a target, is written with an @.
            self.has_labels = "@" in self.text and (any(isinstance(e.number, str) for e in self.entries) or any(
                isinstance(t, str) for e in self.entries for t in _targets(e)))
        return self.has_labels

    def resolved(self, delta: int, labels: dict[str, int], labels_key: object) -> _Part:
        key = (delta, labels_key if self.labelled else None)
        if self.part is None or self.resolved_for != key:
            was = self.resolved_for
            if self.part is not None and was is not None and was[1] == key[1]:
                if self.part.spanned:  # only the chunk's place changed
                    self.part = self.part.moved(delta - was[0])
            else:
                self.part = _Part.of(self.placed(delta)[0], labels)
            self.resolved_for = key
        return self.part

    def placed(self, delta: int) -> tuple[list[Entry], list[Directive], dict[str, list[Any]]]:
        """Entries, comment lines and extras with spans ``delta`` lines further down."""
        if delta == self.base:  # where it was parsed (a copy moved elsewhere is kept)
            return self.entries, self.directives, self.extras
        if self.moved is None or self.at != delta:
            by = delta - self.base
            self.moved = ([_shift(e, by) for e in self.entries], [_shift(d, by) for d in self.directives],
                          {name: _shift_any(items, by) for name, items in self.extras.items()})
            self.at = delta
        return self.moved


@dataclass(slots=True, eq=False)
class _Found:
    """Findings of some rules in one chunk, with spans where the chunk's entries are (its
    ``base``; never rewritten), for one key (what they depend on besides the chunk's text); and
    the copy moved ``at`` lines further down, for where the chunk stood last."""

    key: object
    found: dict[str, list[Diagnostic]]
    #: Whether any rule found anything.
    some: bool = False
    at: int = 0
    moved: dict[str, list[Diagnostic]] | None = None

    def __post_init__(self) -> None:
        self.some = any(self.found.values())

    def placed(self, by: int) -> dict[str, list[Diagnostic]]:
        """The findings with spans ``by`` lines further down."""
        if by == 0:  # where they were found (a copy moved elsewhere is kept)
            return self.found
        if self.moved is None or self.at != by:
            self.moved = {code: [_shift(d, by) for d in found] for code, found in self.found.items()}
            self.at = by
        return self.moved


# The entry-local rules are those whose registration says ``reads=ENTRY``: their findings about
# an entry depend on nothing but that entry's own choices, its number, the numbers of the book's
# labels and the ruleset (never on other entries, the graph or a position outside the entry). The
# language server runs them once per chunk of text and keeps what they found while the chunk is
# unchanged. ``reads=TARGETS`` rules also read which of the targets an entry's prose exits name
# are entries of the book: kept per chunk too, and worked out again when one of those targets
# comes or goes. Any other rule runs over the whole book (tests/test_incremental.py and
# tests/test_rules_read.py hold the two ways equal).


@dataclass(slots=True)
class Edited:
    """What an edit changed, for keeping findings (see :mod:`dtc.lsp.reuse`)."""

    #: (0-based index of the first line re-read, how many lines of the previous version those
    #: were, how many lines the edit added: negative when it removed some).
    moved: tuple[int, int, int]
    #: Whether the book's shape is the same (see :func:`without_places`).
    same_shape: bool
    #: Otherwise the entries the edit removed and those it added (those it left as they were,
    #: at either end of the changed stretch, left out), each at its chunk's own places.
    removed: list[Entry]
    added: list[Entry]
    #: Whether the document-level items the changed stretch holds (stat blocks, hazards...) are the same.
    same_extras: bool


@dataclass(slots=True)
class Stats:
    chunks: int = 0
    reparsed: int = 0
    full: bool = False
    #: Chunks whose text was looked at again (the edited ones and their neighbours).
    scanned: int = 0


@dataclass(slots=True)
class _Edit:
    """What the last :meth:`IncrementalParser.parse` changed: chunks ``at`` up to ``at + len(removed)``
    of the previous version became ``added``, and every later line moved ``line_shift`` lines."""

    at: int
    removed: list[_Chunk]
    added: list[_Chunk]
    line_shift: int
    #: The lines that changed: (first line index, how many lines it replaced, the new lines).
    lines: tuple[int, int, list[str]] = (0, 0, [])
    #: Set when the document was spliced from the previous one: (first entry of the changed
    #: stretch, how many entries it holds).
    entries: tuple[int, int] | None = None


@dataclass(slots=True)
class _Layout:
    """Where the chunks of the current version stand: parallel lists, file order."""

    chunks: list[_Chunk]
    lines: list[int]  # 0-based line of each chunk's first line
    starts: list[int]  # character offset of each chunk's first character


class IncrementalParser:
    """Parses successive versions of one document, reusing unchanged chunks.

    The text between the first and the last character that changed since the previous
    version is cut into chunks again (with the chunk before it, whose end may now run on);
    the chunks before and after it are taken as they were, found by comparing their text in
    place, so an edit costs work in proportion to the edit, not the book (apart from list
    splicing, and moving the entries below an edit that added or removed lines).
    """

    def __init__(self) -> None:
        self._cache: dict[str, _Chunk] = {}
        self._front: tuple[str, Document] | None = None
        self._text: str | None = None
        self._layout: _Layout | None = None
        self._blank_separated = False
        self._heads = [0, 0]  # the book's layout: heads after a blank line, heads
        self._doc: Document | None = None  # the last document made of chunks
        self._edit: _Edit | None = None
        self._resolved: tuple[Resolved, object] | None = None
        self._local_key: tuple[object, ...] | None = None
        self._stamp: object = None
        self._returning: list[int] = []
        self._edited: tuple[_Edit, Edited] | None = None
        #: Counts the versions whose entry numbers or labels may differ from the version before.
        self._numbers_epoch = 0
        self._parses = 0
        self._resolved_at = -1  # the parse the last resolution was of
        #: The entry graph :meth:`analysis` last put together, kept to be patched after an entry
        #: is deleted or pasted (see :class:`_Graph`).
        self._graph: _Graph | None = None
        #: What :meth:`_resolve_changed` replaced: (the previous resolution, index of the first
        #: entry replaced, how many it replaced, how many came, (ending, writes a way on) of each, the
        #: entries whose returns lead elsewhere now).
        self._changed: tuple[Resolved, int, int, int, list[tuple[bool, bool]], list[int]] | None = None
        self.stats = Stats()

    def parse(self, text: str, path: str = "<input>", unchanged: tuple[int, int] | None = None) -> Document:
        """The document ``text`` says. ``unchanged`` may say how many lines at the start and at
        the end are the same as in the text of the previous call (an editor's changes say so),
        which spares comparing the chunks there; without it they are compared."""
        self._parses += 1
        return self._parse(text, path, unchanged)

    def _parse(self, text: str, path: str, unchanged: tuple[int, int] | None) -> Document:
        front = self._front
        if (self._layout is None or front is None or self._text is None
                or not text.startswith(front[0]) or text[len(front[0]) : len(front[0]) + 1] != "\n"):
            return self._parse_all(text, path)
        if not self._update(text, unchanged):
            return self._parse_all(text, path)
        return self._document(text, path)

    def edited(self) -> Edited | None:
        """What the last :meth:`parse` changed, when it was an edit (see :class:`Edited`)."""
        edit = self._edit
        if edit is None:
            return None
        if self._edited is not None and self._edited[0] is edit:
            return self._edited[1]
        found = self._edited_now(edit)
        self._edited = (edit, found)
        return found

    def _edited_now(self, edit: _Edit) -> Edited:
        old_shape, new_shape = _shape_of(edit.removed), _shape_of(edit.added)
        first, replaced, _ = edit.lines
        moved = (first, replaced, edit.line_shift)
        if old_shape == new_shape:
            return Edited(moved, True, [], [], True)
        old = [e for c in edit.removed for e in c.entries]
        new = [e for c in edit.added for e in c.entries]
        olds, news = old_shape[0], new_shape[0]
        same = min(len(olds), len(news))
        a = 0
        while a < same and olds[a] == news[a]:
            a += 1
        b = 0
        while b < same - a and olds[-1 - b] == news[-1 - b]:
            b += 1
        return Edited(moved, False, old[a : len(old) - b], new[a : len(new) - b], old_shape[2] == new_shape[2])

    def changed_lines(self) -> tuple[int, int, list[str]] | None:
        """What the last :meth:`parse` found changed since the one before, as lines (0-based
        index of the first, how many lines it replaced, the new lines), when it was an edit."""
        return None if self._edit is None else self._edit.lines

    # -- the whole text ---------------------------------------------------------------------

    def _parse_all(self, text: str, path: str) -> Document:
        self._layout = None
        self._text = None
        self._edit = None
        self._resolved = None
        lines = text.split("\n")
        header = _entries_header(lines)
        if header is None:
            self._cache.clear()
            self.stats = Stats(full=True)
            return parse(text, path)
        front = self._parse_front("\n".join(lines[: header + 1]), path)
        if front is None:
            self._cache.clear()
            self.stats = Stats(full=True)
            return parse(text, path)
        if header + 1 >= len(lines):  # a header and no line after it
            self.stats = Stats(full=True)
            return parse(text, path)
        comments = {i for i in range(header + 1, len(lines))
                    if "<!--" in lines[i] and DIRECTIVE.match(lines[i])} if "<!--" in text else set()
        heads, after_blank = find_heads(lines, header + 1, comments)
        bounds = _starts_of(lines, header + 1, comments, heads, after_blank)
        texts = ["\n".join(lines[first : bounds[n + 1] if n + 1 < len(bounds) else len(lines)])
                 for n, first in enumerate(bounds)]
        blank_separated = separates_with_blank_lines(after_blank)
        if blank_separated != self._blank_separated:
            self._cache.clear()
            self._blank_separated = blank_separated
        self.stats = Stats()
        cache = self._cache
        new = sum(1 for t in texts if t not in cache)
        cut: list[_Chunk] | None = None
        if new * 2 > len(texts):  # most of the book is new (it was opened): one parse of it all
            cut = _cut(parse(text, path, blank_separated=blank_separated), header, bounds, texts,
                       [(i, blank) for (i, _), blank in zip(heads, after_blank, strict=True)], blank_separated)
        if cut is not None:
            chunks = [cache.get(t) or c for t, c in zip(texts, cut, strict=True)]
            self.stats.reparsed = new
        else:
            chunks = [self._chunk(t) for t in texts]
        offset = len(front[0]) + 1
        starts = []
        for t in texts:
            starts.append(offset)
            offset += len(t) + 1
        self._layout = _Layout(chunks, bounds, starts)
        self._heads = [sum(c.layout[0] for c in chunks), sum(c.layout[1] for c in chunks)]
        self._cache = {c.text: c for c in chunks}
        self._text = text
        return self._document(text, path)

    def _chunk(self, text: str) -> _Chunk:
        chunk = self._cache.get(text)
        if chunk is None:
            parsed = parse(_HEADER + text, "<chunk>", blank_separated=self._blank_separated)
            lines = text.split("\n")
            after_blank = head_layout(lines, 0)
            chunk = _Chunk(text, (sum(after_blank), len(after_blank)), parsed.entries, parsed.directives,
                           _extras(parsed))
            self._cache[text] = chunk
            self.stats.reparsed += 1
        return chunk

    def _parse_front(self, front_text: str, path: str) -> tuple[str, Document] | None:
        """The front part, parsed alone; None if the header does not open the entries there."""
        if self._front is not None and self._front[0] == front_text:
            return self._front
        probe = parse(front_text + _PROBE, path)
        if len(probe.entries) != 1 or probe.entries[0].span.line != front_text.count("\n") + 2:
            return None
        probe.entries = []
        self._front = (front_text, probe)
        return self._front

    # -- an edit ----------------------------------------------------------------------------

    def _update(self, text: str, unchanged: tuple[int, int] | None) -> bool:
        """Bring the layout up to ``text`` by cutting only the changed stretch into chunks
        again; False when the book's layout (blank lines between entries or not) flips."""
        layout, old = self._layout, self._text
        assert layout is not None and old is not None
        chunks, starts = layout.chunks, layout.starts
        n = len(chunks)
        shift = len(text) - len(old)
        if text == old:
            self.stats = Stats(chunks=n)
            self._edit = _Edit(0, [], [], 0)
            return True
        hinted = self._hinted(text, unchanged) if unchanged is not None else None
        if hinted is not None:
            k, j = hinted
            r = max(k - 1, 0)
            return self._recut(text, r, j, shift)
        # The chunks before the first change: the same text, and the same line break after it.
        k = 0
        while k < n:
            t, s = chunks[k].text, starts[k]
            if not text.startswith(t, s):
                break
            end = s + len(t)
            if (text[end : end + 1] != "\n") if k + 1 < n else (len(text) != end):
                break
            k += 1
        if k == n:
            self.stats = Stats(chunks=n)
            self._text = text
            self._edit = _Edit(0, [], [], 0)
            return True
        r = max(k - 1, 0)  # the chunk before may now run on into the changed text
        # The chunks after the last change: the same text at the same distance from the end.
        j = n
        while j > k:
            t, s = chunks[j - 1].text, starts[j - 1] + shift
            if s < starts[k] or text[s - 1 : s] != "\n" or not text.startswith(t, s):
                break
            j -= 1
        return self._recut(text, r, j, shift)

    def _hinted(self, text: str, unchanged: tuple[int, int]) -> tuple[int, int] | None:
        """The first chunk that may have changed and the first after it that has not, from the
        count of unchanged lines at each end; None when the chunks at the edges disagree."""
        layout, old = self._layout, self._text
        assert layout is not None and old is not None
        chunks, firsts, starts = layout.chunks, layout.lines, layout.starts
        n = len(chunks)
        lead, trail = unchanged
        total = firsts[-1] + chunks[-1].text.count("\n") + 1
        k = max(bisect_right(firsts, lead) - 1, 0)  # the chunk holding the first changed line
        j = max(bisect_left(firsts, total - trail), k + 1)  # the first chunk after the last one
        shift = len(text) - len(old)
        if k > 0 and not (text.startswith(chunks[k - 1].text, starts[k - 1])
                          and text[starts[k] - 1 : starts[k]] == "\n"):
            return None
        if j < n:
            s = starts[j] + shift
            if s < starts[k] or text[s - 1 : s] != "\n" or not text.startswith(chunks[j].text, s):
                return None
        return k, j

    def _recut(self, text: str, r: int, j: int, shift: int) -> bool:
        """Cut the text from chunk ``r`` up to chunk ``j`` (moved ``shift`` characters) into chunks again."""
        layout, old = self._layout, self._text
        assert layout is not None and old is not None
        chunks, firsts, starts = layout.chunks, layout.lines, layout.starts
        n = len(chunks)
        # An unchanged chunk still starts one only after a blank line (a comment is never blank),
        # or when nothing is left before it.
        while j < n:
            stop = starts[j] + shift - 1  # the line break before it
            if stop < starts[r] or not text[text.rfind("\n", 0, stop) + 1 : stop].strip():
                break
            j += 1
        end = starts[j] + shift - 1 if j < n else len(text)
        region = text[starts[r] : end] if end >= starts[r] else None
        old_end = starts[j] - 1 if j < n else len(old)
        old_lines = old.count("\n", starts[r], old_end) + 1 if old_end >= starts[r] else 0
        removed = chunks[r:j]
        lines = region.split("\n") if region is not None else []
        bounds = _chunk_starts(lines, 0) if lines else []
        texts = ["\n".join(lines[a : bounds[m + 1] if m + 1 < len(bounds) else len(lines)])
                 for m, a in enumerate(bounds)]
        self.stats = Stats(scanned=len(texts))
        heads = list(self._heads)
        for c in removed:
            heads[0] -= c.layout[0]
            heads[1] -= c.layout[1]
        for t in texts:  # the layout of new text, before it is parsed with the book's layout
            cached = self._cache.get(t)
            after_blank = cached.layout if cached is not None else _layout_of(t)
            heads[0] += after_blank[0]
            heads[1] += after_blank[1]
        blank = heads[0] >= 3 and heads[0] * 4 >= heads[1] * 3  # separates_with_blank_lines
        if blank != self._blank_separated:
            return False
        self._heads = heads
        added = [self._chunk(t) for t in texts]
        line_shift = len(lines) - old_lines
        first = firsts[r]
        new_firsts, new_starts = [], []
        offset = starts[r]
        for t, a in zip(texts, bounds, strict=True):
            new_firsts.append(first + a)
            new_starts.append(offset)
            offset += len(t) + 1
        layout.chunks[r:j] = added
        layout.lines[r:j] = new_firsts
        layout.starts[r:j] = new_starts
        at = r + len(added)
        if line_shift or shift:
            tail_lines, tail_starts = layout.lines, layout.starts
            for m in range(at, len(tail_lines)):
                tail_lines[m] += line_shift
                tail_starts[m] += shift
        for c in removed:
            if self._cache.get(c.text) is c and c not in added:
                del self._cache[c.text]
        self.stats.chunks = len(layout.chunks)
        self._text = text
        self._edit = _Edit(r, removed, added, line_shift, lines=(firsts[r], old_lines, lines))
        return True

    # -- the resolution ----------------------------------------------------------------------

    def resolve(self, doc: Document) -> tuple[Resolved, object]:
        """:func:`dtc.compiler.compile.resolve` of the document the last :meth:`parse` returned,
        put together from each chunk's part, and a key that is equal for two versions whose
        entry graphs are the same (what :class:`~dtc.lint.analysis.Analysis` is built from);
        None when the last parse was not made of chunks."""
        layout = self._layout
        if layout is None or doc is not self._doc:
            return resolve(doc), None
        found = None
        prev, graph = self._resolved, self._graph
        self._changed = None
        same = False  # the same entry graph as the previous resolution's
        if self._resolved_at == self._parses - 1:  # the last resolution was of the version before
            found = self._resolve_splice(doc)
            if found is None:
                found = self._resolve_moved(doc)
            same = found is not None
            if found is None:
                found = self._resolve_changed(doc)
        if found is None:
            found = self._resolve_all(doc)
        if graph is None or prev is None or graph.res is not prev[0]:
            self._graph = None
        elif same:
            graph.res = found[0]
        elif self._changed is None:
            self._graph = None
        self._resolved_at = self._parses
        self._resolved = found
        return found

    def _resolve_splice(self, doc: Document) -> tuple[Resolved, object] | None:
        """The previous resolution with the changed stretch's exits put in, when the document
        was spliced and the stretch's graph facts are the same (an edit to prose)."""
        edit, prev, layout = self._edit, self._resolved, self._layout
        if edit is None or edit.entries is None or prev is None or layout is None:
            return None
        if any(c.labelled for c in edit.removed) or any(c.labelled for c in edit.added):
            return None
        before = [c.part for c in edit.removed]
        if any(p is None or p.returning for p in before):
            return None
        res, key = prev
        after = [c.resolved(layout.lines[k] - 1, res.labels, tuple(res.labels.items()))
                 for k, c in enumerate(edit.added, edit.at)]
        if any(p.returning for p in after) or [p.key for p in before] != [p.key for p in after]:  # type: ignore[union-attr]
            return None
        at, count = edit.entries
        exits = res.exits[:at] + [x for p in after for x in p.exits] + res.exits[at + count :]
        return Resolved(doc, res.numbers, res.by_number, res.labels, exits, res.start, res.start_text,
                        res.malformed), key

    def _resolve_moved(self, doc: Document) -> tuple[Resolved, object] | None:
        """The previous resolution with its exits' places moved, after an edit that added or
        removed lines but kept the book's shape (so the same numbers, labels, start and graph):
        only the changed stretch's chunks, and below it those whose exits carry a place (prose
        exits, random branches) or return to the most recent entry, are looked at again."""
        edit, prev, layout = self._edit, self._resolved, self._layout
        if edit is None or prev is None or layout is None or not edit.line_shift:
            return None
        edited = self.edited()
        if edited is None or not edited.same_shape:
            return None
        res, key = prev
        labels = res.labels
        labels_key = tuple(labels.items())
        exits = list(res.exits)
        chunks, firsts = layout.chunks, layout.lines
        changed = edit.at + len(edit.added)
        offset = sum([len(c.entries) for c in chunks[: edit.at]])
        for k in range(edit.at, len(chunks)):
            chunk = chunks[k]
            n = len(chunk.entries)
            part = chunk.part
            if k < changed or part is None or part.spanned or chunk.resolved_for is None:
                exits[offset : offset + n] = chunk.resolved(firsts[k] - 1, labels, labels_key).exits
            offset += n
        if offset != len(exits):
            return None  # cannot happen when the shape is the same
        for i in self._returning:  # the same preceding entries, at the returns' new places
            preds = dict.fromkeys(x.target for x in res.exits[i] if x.kind == "return")
            base = [x for x in exits[i] if x.kind != "return"]
            extra = [Exit(pred, "return", None, span) for span in doc.entries[i].returns for pred in preds]
            exits[i] = base + extra if extra else base
        return Resolved(doc, res.numbers, res.by_number, labels, exits, res.start, res.start_text,
                        res.malformed), key

    def _resolve_changed(self, doc: Document) -> tuple[Resolved, object] | None:
        """The previous resolution with the changed stretch's entries put in, after an edit
        that changed entries (one deleted or pasted, an exit changed) in a book without labels,
        when no entry it removed or added shares its number with another, leads to an entry
        that returns to the most recent entry, or returns so itself (the other entries' exits
        and returns are then the same, at places moved by the lines added or removed)."""
        edit, prev, layout = self._edit, self._resolved, self._layout
        if edit is None or prev is None or layout is None:
            return None
        res, key = prev
        if res.labels or not isinstance(key, tuple) or len(key) != 3:
            return None
        before = [c.part for c in edit.removed]
        if any(p is None or p.returning or c.labelled for p, c in zip(before, edit.removed, strict=True)):
            return None
        chunks, firsts = layout.chunks, layout.lines
        if any(c.labelled for c in edit.added):
            return None
        after = [c.resolved(firsts[k] - 1, {}, ()) for k, c in enumerate(edit.added, edit.at)]
        if any(p.returning for p in after):
            return None
        if len(res.by_number) != len(res.numbers):  # a number used twice
            return None
        gone = Counter(n for p in before if p is not None for n in p.numbers)
        came = Counter(n for p in after for n in p.numbers)
        gone, came = gone - came, came - gone
        if any(v > 1 for v in gone.values()) or any(v > 1 for v in came.values()):
            return None
        at = sum([len(c.entries) for c in chunks[: edit.at]])
        old = sum(len(p.numbers) for p in before if p is not None)
        new = sum(len(p.numbers) for p in after)
        diff = new - old
        numbers = res.numbers[:at] + [n for p in after for n in p.numbers] + res.numbers[at + old :]
        by_number = dict(zip(numbers, range(len(numbers)), strict=True))
        if len(by_number) != len(numbers):
            by_number = {}
            for i, n in enumerate(numbers):
                by_number.setdefault(n, i)
        if len(by_number) != len(numbers):
            return None
        # The entries leading to one that returns to the most recent entry, as they change.
        returns_to = {res.numbers[i] for i in self._returning}
        lost: dict[int, set[int]] = defaultdict(set)
        won: dict[int, set[int]] = defaultdict(set)
        for parts, into in ((before, lost), (after, won)):
            for p in parts:
                assert p is not None
                if p.targets.isdisjoint(returns_to):
                    continue
                for n, out in zip(p.numbers, p.exits, strict=True):
                    for x in out:
                        if x.target in returns_to:
                            into[x.target].add(n)
        exits = res.exits[:at] + [x for p in after for x in p.exits] + res.exits[at + old :]
        malformed = [i for i in res.malformed if i < at]
        offset = at
        for p in after:
            malformed.extend(offset + i for i in p.malformed)
            offset += len(p.numbers)
        malformed.extend(i + diff for i in res.malformed if i >= at + old)
        returning = [i if i < at else i + diff for i in self._returning]
        if edit.line_shift:  # exits with a place below the stretch
            changed = edit.at + len(edit.added)
            offset = at + new
            for k in range(changed, len(chunks)):
                chunk = chunks[k]
                n = len(chunk.entries)
                part = chunk.part
                if part is None or part.spanned or chunk.resolved_for is None:
                    exits[offset : offset + n] = chunk.resolved(firsts[k] - 1, {}, ()).exits
                offset += n
        rerouted: list[int] = []  # entries whose returns lead elsewhere now
        for i in returning:  # the same preceding entries, at the returns' places
            was = i if i < at else i - diff
            preds = dict.fromkeys(x.target for x in res.exits[was] if x.kind == "return")
            number = numbers[i]
            if number in lost or number in won:
                rerouted.append(number)
                preds = dict.fromkeys(sorted((set(preds) - lost[number] | won[number]) - {number}))
            base = [x for x in exits[i] if x.kind != "return"]
            extra = [Exit(pred, "return", None, span) for span in doc.entries[i].returns for pred in preds]
            exits[i] = base + extra if extra else base
        found = Resolved(doc, numbers, by_number, {}, exits, malformed=malformed)
        _settle_start(found, doc, {})
        self._returning = returning
        keys = key[2]
        keys = [*keys[: edit.at], *(p.key for p in after), *keys[edit.at + len(edit.removed) :]]
        flags = [(k[1], k[4]) for p in after for k in typing.cast("tuple[tuple[Any, ...], ...]", p.key)]
        if len(flags) == new:  # see _Part.of
            self._changed = (res, at, old, new, flags, rerouted)
        return found, (found.start, (), keys)

    def _resolve_all(self, doc: Document) -> tuple[Resolved, object]:
        layout = self._layout
        assert layout is not None
        chunks, firsts = layout.chunks, layout.lines
        labels: dict[str, int] = {}
        if any(c.labelled for c in chunks):
            names = [e.number for c in chunks for e in c.entries]
            next_free = max((n for n in names if isinstance(n, int)), default=0) + 1
            for name in names:
                if isinstance(name, str) and name not in labels:
                    labels[name] = next_free
                    next_free += 1
        labels_key = tuple(labels.items())
        numbers: list[int] = []
        exits: list[list[Exit]] = []
        malformed: list[int] = []
        keys: list[tuple[object, ...]] = []
        returning: list[int] = []
        parts: list[tuple[int, _Part]] = []
        for chunk, first in zip(chunks, firsts, strict=True):
            part = chunk.resolved(first - 1, labels, labels_key)
            offset = len(numbers)
            numbers.extend(part.numbers)
            exits.extend(part.exits)
            if part.malformed:
                malformed.extend(offset + i for i in part.malformed)
            if part.returning:
                returning.extend(offset + i for i in part.returning)
            keys.append(part.key)
            parts.append((offset, part))
        res = Resolved(doc, numbers, labels=labels, exits=exits, malformed=malformed)
        by_number = dict(zip(numbers, range(len(numbers)), strict=True))  # first seen, in order
        if len(by_number) != len(numbers):  # a number used twice: the first entry stands for it
            by_number = {}
            for i, n in enumerate(numbers):
                by_number.setdefault(n, i)
        res.by_number = by_number
        self._returning = returning
        if returning:
            _add_returns(res, returning, parts)
        _settle_start(res, doc, labels)
        return res, (res.start, labels_key, keys)

    def hints(self, res: Resolved) -> tuple[bool, list[int]] | None:
        """For the rule context of ``res`` (what the last :meth:`resolve` returned), worked out
        from the chunks: whether the book has state to explore (see
        :func:`dtc.lint.state.book_has_state`), and the indexes of the entries with a dynamic
        return; None when the last parse was not made of chunks."""
        layout, last = self._layout, self._resolved
        if layout is None or last is None or last[0] is not res or res.doc is not self._doc:
            return None
        chunks = layout.chunks
        unknown = [c for c in chunks if c.has_state_of is None]
        if len(unknown) > 64 and not book_has_state([e for c in unknown for e in c.entries]):
            for c in unknown:  # none of them has any (one look over all, as for an opened book)
                c.has_state_of = False
        return any(c.has_state for c in chunks), self._returning

    def analysis(self, res: Resolved) -> Analysis | None:
        """:meth:`Analysis.of_resolved` of ``res`` (what the last :meth:`resolve` returned), put
        together from each chunk's part without looking at the entries (only at the choices of
        those whose notation does not parse); None when the last parse was not made of chunks."""
        layout, last = self._layout, self._resolved
        graph, self._graph = self._graph, None
        if layout is None or last is None or last[0] is not res or res.doc is not self._doc:
            return None
        changed = self._changed
        if graph is not None and changed is not None and graph.res is changed[0] and not res.malformed:
            self._graph = graph.patched(res, *changed[1:])
            return self._graph.analysis()
        ending: list[bool] = []
        written: list[bool] = []
        for chunk in layout.chunks:
            part = chunk.part
            if part is None:
                return None
            for k in typing.cast("tuple[tuple[Any, ...], ...]", part.key):  # see _Part.of
                ending.append(k[1])
                written.append(k[4])
        by_number, exits = res.by_number, res.exits
        out: dict[int, list[int]] = {}
        for number, i in by_number.items():
            out[number] = [t for t in map(_target, exits[i]) if t in by_number]
        for i in res.malformed:  # as Analysis.of_resolved does
            number = res.numbers[i]
            if by_number[number] == i:
                for c in res.doc.entries[i].choices:
                    if c.error is not None:
                        out[number].extend(int(m) for m in SALVAGE.findall(c.text) if int(m) in by_number)
        endings = {n for n, i in by_number.items() if ending[i]}
        writes = {n for n, i in by_number.items() if written[i]}
        back = reverse(out)
        if not res.malformed:  # kept to be patched (see _Graph)
            dangling: dict[object, list[int]] = {}
            for number, i in by_number.items():
                if len(out[number]) != len(exits[i]):
                    for t in map(_target, exits[i]):
                        if t not in by_number:
                            dangling.setdefault(t, []).append(number)
            self._graph = _Graph(res, out, back, dangling, endings, writes)
        return Analysis(out, endings, res.start, writes, back)

    # -- the entry-local rules --------------------------------------------------------------

    def local_findings(self, res: Resolved, rules: list[Rule]) -> dict[str, list[Diagnostic]] | None:
        """What each rule of ``rules`` that reads an entry alone (``reads=ENTRY`` or ``TARGETS``) finds in
        the document the last :meth:`parse` returned (resolved as ``res``), file order: each
        chunk's findings are worked out once, on the chunk alone, and moved with it (only its
        findings are copied when it moves). None when the last parse was not made of chunks."""
        layout = self._layout
        doc = res.doc
        if layout is None or doc is not self._doc:
            return None
        chosen = [r for r in rules if r.reads == READS_ENTRY]
        targeted_rules = [r for r in rules if r.reads == READS_TARGETS]
        out: dict[str, list[Diagnostic]] = {r.code: [] for r in chosen + targeted_rules}
        if not chosen and not targeted_rules:
            return out
        labels_key = tuple(res.labels.items())
        common = (doc.path, doc.rules, tuple(r.code for r in chosen + targeted_rules), None)
        if self._local_key == common:
            common = self._local_key  # the same object: chunks compare it by identity first
        self._local_key = common
        labelled = (*common[:3], labels_key)
        target_number = res.target_number
        edited = self.edited()
        if edited is None or not edited.same_shape:
            self._numbers_epoch += 1
        epoch = self._numbers_epoch
        chunks = layout.chunks
        # Most chunks never checked (the book was opened): the rules run once over the whole
        # book, as `dtc lint` runs them, and what they find is shared out to the chunks.
        bulk: list[dict[str, list[Diagnostic]] | None] | None = None
        bulk_targeted: list[dict[str, list[Diagnostic]] | None] | None = None
        if (sum(1 for c in chunks if c.local is None) * 2 > len(chunks)
                or sum(1 for c in chunks if c.targeted is None) * 2 > len(chunks)):
            both = self._find_all(res, [chosen, targeted_rules])
            if both is not None:
                bulk, bulk_targeted = both
        # The rules, the label numbers and the epoch: a chunk checked for the same is not again.
        stamp = (common, labelled, epoch)
        if self._stamp == stamp:
            stamp = self._stamp  # the same object: compared by identity
        self._stamp = stamp
        for k, (chunk, first) in enumerate(zip(chunks, layout.lines, strict=True)):
            if chunk.checked is not stamp:
                key = common if not chunk.has_labels and chunk.has_labels is not None else (
                    labelled if chunk.labelled else common)
                local = chunk.local
                if chosen and (local is None or (local.key is not key and local.key != key)):
                    found = bulk[k] if bulk is not None else None
                    if found is None:
                        found = _find(chunk, doc, res, chosen) if chunk.entries else {}
                    local = chunk.local = _Found(key, found)
                targeted = chunk.targeted
                if targeted_rules:
                    targets = chunk.prose_targets
                    tkey: tuple[object, ...] = key
                    if targets:  # which of them name an entry (a rule there may say so)
                        tkey = (key, tuple([target_number(t) is None for t in targets]))
                    if targeted is None or targeted.key != tkey:
                        found = bulk_targeted[k] if bulk_targeted is not None and targets else None
                        if found is None:
                            found = _find(chunk, doc, res, targeted_rules, whole_book=True) if targets else {}
                        targeted = chunk.targeted = _Found(tkey, found)
                chunk.finds = bool((chosen and local is not None and local.some)
                                   or (targeted_rules and targeted is not None and targeted.some))
                chunk.checked = stamp
            if chunk.finds:
                by = first - 1 - chunk.base
                local, targeted = chunk.local, chunk.targeted
                if chosen and local is not None and local.some:
                    for code, moved in local.placed(by).items():
                        out[code].extend(moved)
                if targeted_rules and targeted is not None and targeted.some:
                    for code, moved in targeted.placed(by).items():
                        out[code].extend(moved)
        return out

    def _find_all(self, res: Resolved, rule_sets: list[list[Rule]]
                  ) -> list[list[dict[str, list[Diagnostic]] | None]] | None:
        """For each set of rules, what :func:`_find` finds in each chunk (spans at the chunk's
        ``base``; None for a chunk with no entries), from one run of the rules over the whole
        book, each chunk's part as it stands now; None when a finding lies outside every chunk.
        (The entries a target names are looked up in the whole book, as the ``reads=TARGETS`` rules
        need: the others read no other entry.)"""
        layout = self._layout
        assert layout is not None
        chunks, firsts = layout.chunks, layout.lines
        parts: list[_Part] = []
        for chunk, first in zip(chunks, firsts, strict=True):
            part = chunk.part
            if part is None or chunk.resolved_for is None or chunk.resolved_for[0] != first - 1:
                return None  # not resolved where it stands (cannot happen after resolve())
            parts.append(part)
        doc = res.doc
        sub = copy.copy(doc)
        sub.directives = []
        resolved = Resolved(sub, res.numbers, by_number=res.by_number, labels=res.labels,
                            exits=[x for p in parts for x in p.exits], malformed=res.malformed)
        ctx = Context(sub, resolved)
        found_sets = []
        for rules in rule_sets:
            codes = [r.code for r in rules]
            empty: dict[str, list[Diagnostic]] = {code: [] for code in codes}  # shared, never changed
            out: list[dict[str, list[Diagnostic]] | None] = [empty if c.entries else None for c in chunks]
            for r in rules:
                for d in r.run(ctx):
                    k = bisect_right(firsts, d.span.line - 1) - 1
                    if k < 0 or out[k] is None:
                        return None
                    found = out[k]
                    if found is empty:
                        found = out[k] = {code: [] for code in codes}
                    assert found is not None
                    found[r.code].append(d)
            for k, (chunk, first) in enumerate(zip(chunks, firsts, strict=True)):
                found = out[k]
                by = chunk.base - (first - 1)
                if found is None:
                    out[k] = {}
                elif by and found is not empty:
                    out[k] = {code: [_shift(d, by) for d in ds] for code, ds in found.items()}
            found_sets.append(out)
        return found_sets

    # -- the document -----------------------------------------------------------------------

    def _document(self, text: str, path: str) -> Document:
        layout, front = self._layout, self._front
        assert layout is not None and front is not None
        base = front[1]
        spliced = self._splice(path, base)
        if spliced is not None:
            self._doc = spliced
            return spliced
        doc = copy.copy(base)
        doc.path = path
        entries: list[Entry] = []
        doc.entries = entries
        doc.directives = directives = list(base.directives)
        doc.line_count = layout.lines[-1] + layout.chunks[-1].text.count("\n") + 1 if layout.chunks else (
            text.count("\n") + 1)
        extend = entries.extend
        pending: dict[int, tuple[_Chunk, int]] = {}
        for chunk, first in zip(layout.chunks, layout.lines, strict=True):
            delta = first - 1  # chunk line 2 is document line first + 1
            if (delta != chunk.base and not chunk.directives and not chunk.extras and chunk.entries
                    and (chunk.moved is None or chunk.at != delta)):
                pending[len(entries)] = (chunk, delta)  # moved when first looked at
                extend(chunk.entries)
                continue
            moved, comments, extras = chunk.placed(delta)
            if comments:
                offset = len(entries)
                directives.extend(
                    d if d.entry_index is None else dataclasses.replace(d, entry_index=d.entry_index + offset)
                    for d in comments
                )
            if extras:
                for name, items in extras.items():
                    if getattr(doc, name) is getattr(base, name):
                        setattr(doc, name, list(getattr(base, name)))
                    getattr(doc, name).extend(items)
            extend(moved)
        if pending:
            doc.entries = Placed(entries, pending)
        self._doc = doc
        return doc

    def _splice(self, path: str, base: Document) -> Document | None:
        """The previous document with the changed stretch's entries put in, when nothing else
        moved: no line added or removed, as many entries as before, no comment lines or
        document-level items (stat blocks, hazards, prose heads) in the stretch."""
        edit, prev, layout = self._edit, self._doc, self._layout
        if edit is None or prev is None or layout is None or edit.line_shift:
            return None
        if any(c.directives or c.extras for c in edit.removed) or any(c.directives or c.extras for c in edit.added):
            return None
        at = sum(len(c.entries) for c in layout.chunks[: edit.at])
        old = sum(len(c.entries) for c in edit.removed)
        new = [e for k, c in enumerate(edit.added, edit.at) for e in c.placed(layout.lines[k] - 1)[0]]
        if len(new) != old:
            return None
        doc = copy.copy(prev)
        doc.path = path
        doc.default_rules = base.default_rules
        doc.entries = Placed.spliced(prev.entries, at, old, new)
        edit.entries = (at, old)
        return doc


def _find(chunk: _Chunk, doc: Document, res: Resolved, rules: list[Rule],
          whole_book: bool = False) -> dict[str, list[Diagnostic]]:
    """The local rules' findings in one chunk, checked alone (its spans relative to itself);
    ``whole_book``: the entries a target names are looked up in the whole book."""
    sub = copy.copy(doc)
    sub.entries = chunk.entries
    sub.directives = []
    part = _Part.of(chunk.entries, res.labels)
    resolved = Resolved(sub, part.numbers, by_number=res.by_number if whole_book else {}, labels=res.labels,
                        exits=part.exits, malformed=part.malformed)
    ctx = Context(sub, resolved)
    return {r.code: list(r.run(ctx)) for r in rules}


def _shape_of(chunks: list[_Chunk]) -> tuple[list[object], list[object], dict[str, list[object]]]:
    """The shape of a run of chunks: their entries, comment lines (counted from the run's first
    entry) and document-level items, in file order."""
    entries: list[object] = []
    directives: list[object] = []
    extras: dict[str, list[object]] = defaultdict(list)
    for c in chunks:
        es, ds, xs = c.shape
        offset = len(entries)
        entries.extend(es)
        directives.extend((d, offset) for d in ds)
        for name, items in xs.items():
            extras[name].extend(items)
    return entries, directives, dict(extras)


#: Fields that hold prose or a place, left out of a shape (spans are left out wherever they are).
_NOT_SHAPE = {"Entry": frozenset({"text", "end_line"}),
              # The label (read from the prose before the parenthesis, when asked) stands for those.
              "Choice": frozenset({"spans", "starts", "source", "label_from", "label_to", "label_text"}),
              "Directive": frozenset(), "": frozenset({"line", "end_line"})}
_SHAPE_FIELDS: dict[type, tuple[str, ...]] = {}


def without_places(obj: Any) -> Any:
    """A model object without its prose (an entry's text) and its places (spans, line numbers):
    equal for two objects that differ in nothing else."""
    if obj is None or obj.__class__ in (str, int, bool, float):
        return obj
    if isinstance(obj, Span):
        return None
    if isinstance(obj, (list, tuple)):
        return tuple(without_places(x) for x in obj)
    if isinstance(obj, dict):
        return tuple((k, without_places(v)) for k, v in obj.items())
    cls: type = obj.__class__
    names = _SHAPE_FIELDS.get(cls)
    if names is None:
        if not dataclasses.is_dataclass(obj):
            return obj
        skip = _NOT_SHAPE.get(cls.__name__, frozenset()) | _NOT_SHAPE[""]
        names = _SHAPE_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in skip)
    shape = (cls, *(without_places(getattr(obj, name)) for name in names))
    return (*shape, obj.label) if cls is Choice else shape


def _layout_of(text: str) -> tuple[int, int]:
    after_blank = head_layout(text.split("\n"), 0)
    return sum(after_blank), len(after_blank)


def _extras(doc: Document) -> dict[str, list[Any]]:
    """The non-empty document-level lists of a chunk's parse, besides its entries and comments."""
    out: dict[str, list[Any]] = {}
    for f in dataclasses.fields(doc):
        value = getattr(doc, f.name)
        if f.name not in ("entries", "directives") and isinstance(value, list) and value:
            out[f.name] = value
    return out


def _cut(doc: Document, header: int, bounds: list[int], texts: list[str],
         heads: list[tuple[int, bool]], blank_separated: bool) -> list[_Chunk] | None:
    """The chunks starting at lines ``bounds`` (0-based; their texts ``texts``), cut from
    ``doc``, the parse of the whole book whose entries header is line ``header``: what parsing
    each alone gives (see the module doc), each left where it stands (its ``base``). ``heads``:
    the line of each entry head of the book and whether a blank line comes before it. None when
    the parse does not fall into the chunks as it should."""
    count = len(bounds)
    ends = [*bounds[1:], sys.maxsize]
    after = [0] * count  # each chunk's heads after a blank line, and all its heads
    total = [0] * count
    k = 0
    for i, blank in heads:  # in line order, all below the header
        while i >= ends[k]:
            k += 1
        total[k] += 1
        if blank:
            after[k] += 1
    # The entries, one per head (after a blank line, in a book that puts one before each).
    book = list.__getitem__(doc.entries, slice(None))
    entries: list[list[Entry]] = []
    firsts: list[int] = []  # index of each chunk's first entry in the book
    n = 0
    for k in range(count):
        part = book[n : n + (after[k] if blank_separated else total[k])]
        if part and (part[0].span.line - 1 < bounds[k] or (k and part[0].span.line - 1 != bounds[k])
                     or part[-1].span.line - 1 >= ends[k]):
            return None
        firsts.append(n)
        entries.append(part)
        n += len(part)
    if n != len(book):
        return None
    directives: list[list[Directive]] = [[] for _ in range(count)]
    for d in doc.directives:
        line = d.span.line - 1
        if line <= header:
            continue  # the front part's
        k = bisect_right(bounds, line) - 1
        if k < 0:
            return None
        if d.entry_index is not None:
            index = d.entry_index - firsts[k]
            if index < 0 or not entries[k]:
                return None
            if index != d.entry_index:
                d = Directive(d.text, d.span, index)
        directives[k].append(d)
    extras: list[dict[str, list[Any]]] = [{} for _ in range(count)]
    for f in dataclasses.fields(doc):
        if f.name in ("entries", "directives"):
            continue
        value = getattr(doc, f.name)
        if not isinstance(value, list) or not value:
            continue
        for item in value:
            span = _span_in(item)
            if span is None:
                if f.name in _FRONT_ONLY:
                    continue
                return None  # a list this does not know where to put
            line = span.line - 1
            if line <= header:
                continue
            k = bisect_right(bounds, line) - 1
            extras[k].setdefault(f.name, []).append(item)
    chunks = []
    for k, first in enumerate(bounds):
        chunks.append(_Chunk(texts[k], (after[k], total[k]), entries[k], directives[k], extras[k], base=first - 1))
    return chunks


#: Document-level lists whose items carry no span, filled only from the front part.
_FRONT_ONLY = frozenset({"introduction"})


def _span_in(item: object) -> Span | None:
    """Where a document-level item stands: its ``span``, or the first span in a tuple."""
    span = getattr(item, "span", None)
    if isinstance(span, Span):
        return span
    if isinstance(item, tuple):
        return next((x for x in item if isinstance(x, Span)), None)
    return None


def _entries_header(lines: list[str]) -> int | None:
    """Index of the first line that is an entries header (as the parser reads it), if any."""
    for i, line in enumerate(lines):
        if len(line) < 40 and ENTRIES_HEADER.fullmatch(line) and not DIRECTIVE.match(line):
            return i
    return None


def _starts_of(lines: list[str], first: int, comments: set[int], heads: list[tuple[int, re.Match[str]]],
               after_blank: list[bool]) -> list[int]:
    """What :func:`_chunk_starts` gives, from :func:`dtc.compiler.parse.find_heads`'s reading of
    the same lines (``comments``: the comment lines among them): ``first``, then each head after
    a blank line. The first head counts as after one there, blank or not: it is one only if the
    last line before it (comments passed over) is blank, or there is none after ``first``."""
    starts = [first]
    for (i, _), blank in zip(heads, after_blank, strict=True):
        if blank and i != first:
            starts.append(i)
    if len(starts) > 1 and heads and starts[1] == heads[0][0]:
        j = starts[1] - 1
        while j >= first and j in comments:
            j -= 1
        if j >= first and lines[j].strip():
            del starts[1]
    return starts


def _chunk_starts(lines: list[str], first: int) -> list[int]:
    """Line indexes where chunks begin: ``first``, then each head after a blank line."""
    starts = [first]
    prev_blank = True
    for i in range(first, len(lines)):
        line = lines[i]
        if "<!--" in line and DIRECTIVE.match(line):
            continue
        stripped = not line.strip()
        if prev_blank and not stripped and i != first:
            head = ENTRY_HEAD.match(line)
            if head is not None and not line[head.end() :][:1].islower():
                starts.append(i)
        prev_blank = stripped
    return starts


