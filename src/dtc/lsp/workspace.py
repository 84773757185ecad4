"""The server's view of each open adventure: text, parse, graph, findings — one :class:`Snapshot`
per document version, built by :class:`Documents` with the incremental parser.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from dtc.compiler.api import Compilation, no_gc_pauses
from dtc.compiler.compile import Resolved
from dtc.compiler.model import Document, Entry
from dtc.diagnostics import Diagnostic
from dtc.lint.analysis import Analysis
from dtc.lint.configuration import Config, ConfigError, Settings, config_for
from dtc.lint.engine import lint_compilation, pick_rules
from dtc.lint.rules import Context
from dtc.lsp.incremental import IncrementalParser
from dtc.lsp.placed import Placed
from dtc.lsp.positions import UTF16, Lines, still_worth_keeping
from dtc.lsp.reuse import Kept
from dtc.systems import Ruleset, UnknownRuleset, get_ruleset


def uri_to_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI (None for unsaved buffers and other schemes)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///C:/...
        path = path[1:]
    return path


@dataclass
class Snapshot:
    """One version of one document, analysed."""

    uri: str
    version: int | None
    text: str
    lines: Lines
    comp: Compilation
    diagnostics: list[Diagnostic]
    settings: Settings
    config_error: ConfigError | None = None
    #: Milliseconds spent parsing and linting this version, and how many chunks were re-parsed.
    elapsed_ms: float = 0.0
    reparsed: int = 0
    _heads: list[int] = field(default_factory=list, repr=False)
    #: What the outline remembers of each entry, by its identity (see
    #: :func:`dtc.lsp.navigation.document_symbols`): handed on to the next version, whose
    #: entries an edit left alone are the same objects.
    outline: dict[int, Any] = field(default_factory=dict, repr=False)

    @property
    def doc(self) -> Document:
        return self.comp.doc

    def entry_at(self, line: int) -> int | None:
        """Index of the entry whose text holds 1-based ``line``. Entries the incremental parser
        has not moved to their places yet (see :class:`~dtc.lsp.placed.Placed`) are looked
        up where they will be, and only the one found is moved."""
        entries = self.doc.entries
        heads: Sequence[int]
        if isinstance(entries, Placed):
            heads = entries.head_lines()
        else:
            if not self._heads:
                self._heads = [e.span.line for e in entries]
            heads = self._heads
        i = bisect_right(heads, line) - 1
        if i < 0:
            return None
        entry = entries[i]
        last = heads[i + 1] - 1 if i + 1 < len(entries) else len(self.lines.lines)
        return i if line <= max(entry.end_line, last) else None

    def entry_for(self, target: int | str) -> Entry | None:
        """The entry a target (number or ``@label``) names."""
        number = self.comp.resolved.target_number(target)
        if number is None:
            return None
        return self.doc.entries[self.comp.resolved.by_number[number]]

    def number_of(self, index: int) -> int:
        return self.comp.resolved.numbers[index]

    @property
    def ruleset(self) -> Ruleset | None:
        try:
            return get_ruleset(self.doc.rules)
        except UnknownRuleset:
            return None


def graph_key(res: Resolved) -> object:
    """What the :class:`~dtc.lint.analysis.Analysis` of ``res`` depends on: entries by number, the
    start, every exit's resolved target, the notation salvaged from malformed choices, which
    entries are endings and which write a way on."""
    doc = res.doc
    return (res.start, tuple(
        (number, doc.entries[i].ending, tuple(res.target_number(x.target) for x in res.exits[i]),
         tuple(c.text for c in doc.entries[i].choices if c.error is not None),
         bool(doc.entries[i].choices or doc.entries[i].prose_exits or doc.entries[i].returns))
        for number, i in res.by_number.items()
    ))


def normalise(text: str) -> str:
    """The text as dtc reads it (``\\n`` line ends); LSP lines are the same lines."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class Documents:
    """Analysed snapshots of the open documents, one incremental parser each."""

    def __init__(self) -> None:
        self._parsers: dict[str, IncrementalParser] = {}
        self._graphs: dict[str, tuple[object, Analysis]] = {}
        self._kept: dict[str, Kept] = {}
        self.snapshots: dict[str, Snapshot] = {}

    def update(self, uri: str, text: str, version: int | None, encoding: str = UTF16,
               unchanged: tuple[int, int] | None = None) -> Snapshot:
        """Analyse a new version of a document. ``unchanged`` may say how many of its lines at
        the start and at the end are as they were in the previous version (what the editor's
        changes left alone), so that the text there is not compared again. The cyclic garbage
        collector waits meanwhile, as while a command builds a book (see
        :func:`~dtc.compiler.api.no_gc_pauses`)."""
        with no_gc_pauses():
            return self._update(uri, text, version, encoding, unchanged)

    def _update(self, uri: str, text: str, version: int | None, encoding: str,
                unchanged: tuple[int, int] | None) -> Snapshot:
        started = time.perf_counter()
        text = normalise(text)
        path = uri_to_path(uri)
        parser = self._parsers.setdefault(uri, IncrementalParser())
        doc = parser.parse(text, path or uri, unchanged)
        resolved, key = parser.resolve(doc)
        comp = Compilation(path or uri, text, doc, resolved)
        error: ConfigError | None = None
        try:
            settings = config_for(path).settings_for(path) if path else Config(None).settings_for(uri)
            rules = pick_rules(settings.select, settings.ignore)
        except ConfigError as exc:
            error = exc
            settings = Settings()
            rules = None
        context = self._context(uri, comp, key, parser)
        settings.apply(doc)  # the ruleset a configuration names, before the local rules look at it
        chosen = pick_rules() if rules is None else rules
        local = parser.local_findings(resolved, chosen)
        context.text = text  # as lint_compilation sets it, before any rule runs
        previous, changed = self.snapshots.get(uri), parser.changed_lines()
        if previous is not None and changed is not None and previous.lines.encoding == str(encoding):
            lines = Lines.edited(previous.lines, *changed)  # the previous version's lines, edited
        else:
            lines = Lines(text, encoding)
        context.text_lines = lines.lines  # for the fixes' line index: the text not split again
        kept = self._kept.setdefault(uri, Kept())
        if local is None:  # not parsed in chunks: no edit to move findings by
            kept.clear()
        else:
            local = kept.findings(context, chosen, (path or uri, doc.rules, tuple(r.code for r in chosen)),
                                  parser.edited(), skip=local) | local
        diagnostics = lint_compilation(comp, rules, settings=settings, context=context, found_already=local)
        snap = Snapshot(uri, version, text, lines, comp, diagnostics, settings, error)
        if previous is not None and still_worth_keeping(len(previous.outline), len(doc.entries)):
            snap.outline = previous.outline
        snap.elapsed_ms = (time.perf_counter() - started) * 1000
        snap.reparsed = parser.stats.reparsed if not parser.stats.full else -1
        self.snapshots[uri] = snap
        return snap

    def _context(self, uri: str, comp: Compilation, key: object = None,
                 parser: IncrementalParser | None = None) -> Context:
        """A rule context; when the entry graph is the same as last time (an edit to prose), the
        graph facts already computed for it are reused instead of being searched again. ``key``
        stands for the graph when the incremental parser has one (else :func:`graph_key`)."""
        context = Context(comp.doc, comp.resolved)
        key = ("chunks", key) if key is not None else graph_key(comp.resolved)
        previous = self._graphs.get(uri)
        if previous is not None and previous[0] == key:
            context.analysis = previous[1]
        elif parser is not None:  # from the chunks' parts, without looking at every entry
            analysis = parser.analysis(comp.resolved)
            if analysis is not None:
                context.analysis = analysis
        hints = parser.hints(comp.resolved) if parser is not None else None
        if hints is not None:
            context.has_state, context.returning = hints
        self._graphs[uri] = (key, context.analysis)
        return context

    def get(self, uri: str) -> Snapshot | None:
        return self.snapshots.get(uri)

    def close(self, uri: str) -> None:
        self.snapshots.pop(uri, None)
        self._parsers.pop(uri, None)
        self._graphs.pop(uri, None)
        self._kept.pop(uri, None)


def first_lines(entry: Entry, limit: int = 3, width: int = 240) -> str:
    """The opening of an entry's text, for hovers and completion details."""
    lines = [ln.strip() for ln in entry.text.strip().split("\n") if ln.strip()][:limit]
    text = "\n".join(lines)
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def path_of(uri: str) -> Path | None:
    path = uri_to_path(uri)
    return Path(path) if path else None


def stored(entries: list[Entry]) -> list[tuple[Entry, int]]:
    """Each entry with how many lines further down it stands than its spans say: the entries
    the language server has not moved to their places yet (see
    :meth:`dtc.lsp.placed.Placed.with_shifts`) are read where they are stored."""
    return entries.with_shifts() if isinstance(entries, Placed) else [(e, 0) for e in entries]


def unmoved(entries: list[Entry]) -> Iterator[Entry]:
    """The entries as they are stored, for what reads no position in them (see :func:`stored`)."""
    return list.__iter__(entries)
