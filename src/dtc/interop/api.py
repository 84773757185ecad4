"""``dtc import`` and ``dtc export`` as functions: detect a file's format, read it, write the book."""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass
from pathlib import PurePath

from dtc.compiled.graphjson import CompiledGraph
from dtc.compiler.source import SourceError, decode
from dtc.interop.aon import XmlError, read_aon
from dtc.interop.book import Book, verify, write_book
from dtc.interop.export import Exported, to_gamebookformat, to_twee
from dtc.interop.gamebookformat import read_gamebookformat
from dtc.interop.twee import read_twee

#: The formats ``dtc import --from`` reads, and ``dtc export --to`` writes.
READERS = ("twee", "gamebookformat", "aon")
WRITERS = ("twee", "gamebookformat")
SUFFIXES = {".tw": "twee", ".twee": "twee", ".tw3": "twee", ".gamebook": "gamebookformat", ".xml": "aon"}


class ImportFailed(ValueError):
    """A file that cannot be imported: one line, ``path:line:column: error: message``."""


@dataclass(slots=True)
class Imported:
    book: Book
    text: str  # the book in dtc's notation


def detect(path: str, data: bytes) -> str:
    """The format of ``data``: by the file's suffix, else by its first lines."""
    suffix = PurePath(path).suffix.lower()
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<gamebook", b"<!DOCTYPE gamebook")):
        return "aon"
    if re.search(rb"(?m)^::", head):
        return "twee"
    if re.search(rb"(?m)^\*\s*\S", head) or re.search(rb"(?m)^=\s*\S", head):
        return "gamebookformat"
    raise ImportFailed(f"{path}:1:1: error: cannot tell the format (Twee, gamebookformat or Project Aon XML); "
                       "name it with --from")


def read(path: str, data: bytes, fmt: str | None = None) -> Book:
    """The book in ``data``; ImportFailed when it cannot be read at all."""
    fmt = fmt or detect(path, data)
    if fmt == "aon":
        try:
            return read_aon(data)
        except XmlError as exc:
            raise ImportFailed(f"{path}:{exc.line}:{exc.column}: error: {exc}") from None
    try:
        text = decode(data, path)
    except SourceError as exc:
        raise ImportFailed(str(exc)) from None
    return read_twee(text) if fmt == "twee" else read_gamebookformat(text)


def import_book(path: str, data: bytes, fmt: str | None = None) -> Imported:
    """Read, write in dtc's notation, and check what was written (:func:`~dtc.interop.book.verify`)."""
    book = read(path, data, fmt)
    if not book.entries:
        raise ImportFailed(f"{path}:1:1: error: no passage or section to import")
    written = write_book(book)
    verify(book, written, path)
    return Imported(book, written.text + "\n")


def ifid(graph: CompiledGraph) -> str:
    """A Twine IFID for the book: a UUID derived from its source, so that exporting again gives
    the same one."""
    seed = graph["source"]["sha256"] or hashlib.sha256((graph["title"] or "").encode()).hexdigest()
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"dtc:{seed}")).upper()


def export_book(graph: CompiledGraph, fmt: str) -> Exported:
    return to_twee(graph, ifid(graph)) if fmt == "twee" else to_gamebookformat(graph)
