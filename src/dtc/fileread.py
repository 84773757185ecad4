"""Reading files so that no input can hang dtc or exhaust the machine.

Every file dtc reads goes through :func:`read_bytes` (or :func:`read_text`): adventure sources,
compiled graphs, characters, scripts, configurations, saves and number maps. A file is opened
with ``O_NONBLOCK`` (so opening a named pipe with no writer cannot hang) and checked with
``fstat`` on the open descriptor: only a regular file is read. Directories, named pipes,
sockets and devices are refused with one line saying what the path is. ``-`` reads standard
input, which may be a pipe. Reading stops one byte past the limit, counted as the bytes arrive
(never trusting the size the file system reports), and a file larger than the limit is refused
with a message that names the limit; running out of memory while reading is a
:class:`ReadError` too, never a traceback.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

MIB = 1024 * 1024

#: The most dtc reads of each kind of file, in bytes. A 100,000-entry book is about 80 MB of
#: source; its compiled graph about four times that. The rest are small files by nature.
LIMITS: dict[str, int] = {
    "source": 512 * MIB,
    "graph": 1024 * MIB,
    "save": 64 * MIB,
    "map": 64 * MIB,
    "script": 64 * MIB,
    "log": 1024 * MIB,
    "character": 16 * MIB,
    "config": 16 * MIB,
}

_CHUNK = 1024 * 1024


class ReadError(Exception):
    """A file dtc will not or cannot read; ``str()`` is ``PATH: MESSAGE``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def refusal(mode: int) -> str | None:
    """Why a file of this type is not read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file (to read a pipe, send it to standard input as '-')"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _message(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EISDIR:
        return "is a directory, not a file"
    if exc.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    return exc.strerror or str(exc)


def _what_it_is(name: str) -> str | None:
    """Why a path that could not be opened is not read, when it is not a regular file (a socket
    cannot be opened at all: "No such device or address" would say nothing of what it is)."""
    try:
        return refusal(os.stat(name).st_mode)
    except (OSError, ValueError):
        return None


def _too_large(path: str, limit: int, kind: str) -> ReadError:
    return ReadError(path, f"larger than the {limit:,}-byte limit for a {kind} file; dtc does not read it")


def _read_stream(stream: BinaryIO, path: str, limit: int, kind: str, hint: int = 0) -> bytes:
    """Read at most ``limit`` bytes, counting them; one byte more is refused.

    ``hint``: the size the file claims; the first read asks for one byte more than that (a
    whole regular file in one call), and reading goes on in chunks if more comes.
    """
    chunks: list[bytes] = []
    total = 0
    first = min(hint + 1, limit + 1) if hint > 0 else 0
    try:
        while True:
            want = first or min(_CHUNK, limit + 1 - total)
            first = 0
            chunk = stream.read(want)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise _too_large(path, limit, kind)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except MemoryError:
        chunks.clear()
        raise ReadError(path, f"not enough memory to read it ({total:,} bytes read)") from None


def read_bytes(path: str | Path, kind: str = "source", *, stdin: bool = False, limit: int | None = None) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes (default: ``LIMITS[kind]``).

    With ``stdin=True``, ``-`` reads standard input (any stream, the same limit). Raises
    :class:`ReadError` with a message fit to print after the path.
    """
    name = str(path)
    cap = LIMITS[kind] if limit is None else limit
    if stdin and name == "-":
        return _read_stream(sys.stdin.buffer, "<stdin>", cap, kind)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as exc:
        raise ReadError(name, _what_it_is(name) or _message(exc)) from None
    try:
        info = os.fstat(fd)
        refused = refusal(info.st_mode)
        if refused is not None:
            raise ReadError(name, refused)
        if info.st_size > cap:
            raise _too_large(name, cap, kind)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", buffering=0, closefd=False) as stream:
            return _read_stream(stream, name, cap, kind, info.st_size)
    except OSError as exc:
        raise ReadError(name, _message(exc)) from None
    finally:
        os.close(fd)


def read_text(path: str | Path, kind: str, *, stdin: bool = False, limit: int | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a byte-order mark is dropped); ReadError if not UTF-8."""
    data = read_bytes(path, kind, stdin=stdin, limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReadError("<stdin>" if stdin and str(path) == "-" else str(path),
                        f"not UTF-8 text (byte {exc.start + 1:,})") from None
    except MemoryError:
        raise ReadError(str(path), "not enough memory to decode it") from None

