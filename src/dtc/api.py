"""The compiler pipeline as functions: source text -> Document -> compiled graph."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dtc.compile import Resolved, compile_document, resolve
from dtc.model import Document
from dtc.parse import parse
from dtc.source import read_source


@dataclass(slots=True)
class Compilation:
    path: str
    text: str
    doc: Document
    resolved: Resolved

    def graph(self) -> dict[str, Any]:
        return compile_document(self.doc, self.text, self.resolved)


def compile_text(text: str, path: str = "<input>") -> Compilation:
    doc = parse(text, path)
    return Compilation(path, text, doc, resolve(doc))


def compile_file(path: str | Path) -> Compilation:
    """Read, parse and resolve a source file (raises :class:`dtc.source.SourceError`)."""
    return compile_text(read_source(path), str(path))
