"""Read an author's file into clean text, or fail with a message that names line and column.

Accepted: UTF-8 with or without a byte-order mark, LF, CRLF or CR line ends. Refused with a
clear message: bytes that are not UTF-8 (the first bad byte is located), binary files (a NUL
byte), UTF-16 files (their BOM), files beyond :data:`MAX_BYTES`, named pipes and devices (see :mod:`dtc.fileread`), and
anything the OS won't read.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from dtc.fileread import LIMITS

#: Larger sources are refused rather than read (a 100,000-entry book is about 80 MB).
MAX_BYTES = LIMITS["source"]


@dataclass(frozen=True)
class SourceError(Exception):
    """A file that cannot be read as an adventure; ``line``/``column`` are 1-based when known."""

    path: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: error: {self.message}"


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Line and (character) column of a byte offset, counting the valid UTF-8 before it."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    prefix = data[line_start:offset].decode("utf-8", errors="replace")
    return line, len(prefix) + 1


def decode(data: bytes, path: str = "<input>") -> str:
    """Turn raw bytes into normalised text (no BOM, ``\\n`` line ends)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SourceError(path, "file is UTF-16; save it as UTF-8", 1, 1)
    nul = data.find(b"\x00")
    if nul != -1:
        line, column = _position(data, nul)
        raise SourceError(path, "binary file (NUL byte); an adventure is plain text", line, column)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(data, exc.start)
        bad = data[exc.start : exc.start + 1].hex()
        raise SourceError(
            path,
            f"byte 0x{bad} is not UTF-8; save the file as UTF-8 (it may be Latin-1 or Windows-1252)",
            line,
            column,
        ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_source(path: str | Path, *, stdin: bool = False) -> str:
    """Read and decode ``path`` (through :mod:`dtc.fileread`); with ``stdin=True``, ``-`` is stdin."""
    from dtc.fileread import ReadError, read_bytes

    name = "<stdin>" if stdin and str(path) == "-" else str(path)
    try:
        data = read_bytes(path, "source", stdin=stdin)
    except ReadError as exc:
        raise SourceError(exc.path, exc.message) from None
    try:
        return decode(data, name)
    except MemoryError:
        raise SourceError(name, "not enough memory to decode the file") from None
