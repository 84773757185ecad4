"""The compiler pipeline as functions: source text -> Document -> compiled graph."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from dtc import runmode
from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.compile import (
    Resolved,
    compile_document,
    compile_json,
    compile_json_write,
    resolve,
)
from dtc.compiler.model import Document
from dtc.compiler.parse import parse
from dtc.compiler.source import read_source


@dataclass(slots=True)
class Compilation:
    path: str
    text: str
    doc: Document
    resolved: Resolved

    def graph(self, *, effects: bool = True) -> CompiledGraph:
        """The compiled graph (``effects=False``: every entry's effects left empty, see
        :func:`dtc.compiler.compile.compile_document`)."""
        with no_gc_pauses():  # hundreds of thousands of dicts and lists, no cycles
            return compile_document(self.doc, self.text, self.resolved, effects=effects)

    def graph_json(self, end: str = "") -> str:
        """The graph as compact JSON text (what ``dtc compile`` writes), encoded as it is built,
        then ``end`` (a final newline, without copying the text again)."""
        with no_gc_pauses():
            return compile_json(self.doc, self.text, self.resolved, end=end)

    def write_graph_json(self, fd: int, end: str = "", meanwhile: Callable[[], object] | None = None) -> int:
        """:meth:`graph_json`'s text in UTF-8, written to ``fd``, a new regular file (what ``dtc
        compile`` opens with :func:`dtc.fileio.replacing`), a large book's entries by two
        processes each writing its own (see :func:`dtc.compiler.compile.compile_json_write`);
        returns its length. ``meanwhile()``, if given, runs once here while a second process
        starts on the graph's entries."""
        with no_gc_pauses():
            return compile_json_write(self.doc, self.text, fd, self.resolved, end=end, meanwhile=meanwhile)


@contextmanager
def no_gc_pauses() -> Iterator[None]:
    """Suspend the cyclic garbage collector while a book's objects are built.

    Parsing allocates hundreds of thousands of small objects and no reference cycles; with the
    collector on, each full collection walks them all again (a sixth of parse time at 10,000
    entries). Reference counting still frees everything as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # The one-shot command's mode freezes what the build allocated (runmode.RunMode.freeze): else
        # the first collection after a build walks every object of the book (2% of a
        # 10,000-entry lint). A long-running process must not: frozen garbage is never collected.
        if runmode.current().freeze:
            gc.freeze()
        if enabled:
            gc.enable()


def compile_text(text: str, path: str = "<input>") -> Compilation:
    with no_gc_pauses():
        doc = parse(text, path)
        return Compilation(path, text, doc, resolve(doc))


def compile_file(path: str | Path) -> Compilation:
    """Read, parse and resolve a source file (raises :class:`dtc.compiler.source.SourceError`)."""
    return compile_text(read_source(path), str(path))
