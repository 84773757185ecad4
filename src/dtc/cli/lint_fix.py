"""`dtc lint --fix` and `--diff`: apply the fixes findings carry, or show them, file by file.

The text is fixed in rounds (see :mod:`dtc.fixes`), then written back with the file's own
byte-order mark and line ends. Writing is :func:`write_fixed` alone: the old bytes go whole to
``FILE~`` first, then the new text replaces the file atomically; only regular files are written,
and a file that changed while it was being fixed is left alone.
"""

from __future__ import annotations

import codecs
import difflib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from dtc.compiler.source import MAX_BYTES, SourceError, decode
from dtc.diagnostics import Diagnostic
from dtc.fileio import write_bytes
from dtc.fixes import fix_text


@dataclass(slots=True)
class FixReport:
    """What fixing (or diffing) the files came to."""

    found: list[Diagnostic] = field(default_factory=list)  # the findings left
    fixed: int = 0  # fixes applied (or, with --diff, that would be)
    files: int = 0  # files changed (or that would be)
    diffs: list[str] = field(default_factory=list)


def _read(path: str, writing: bool) -> bytes:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(path, "not a regular file; --fix writes only regular files" if writing
                              else "not a regular file")
        if info.st_size > MAX_BYTES:
            raise SourceError(path, f"file is {info.st_size:,} bytes; the limit is {MAX_BYTES:,}")
        return Path(path).read_bytes()
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from None


def _line_end(data: bytes) -> str | None:
    """The file's one line-end style, or None when it mixes them (then it is not rewritten)."""
    crlf = data.count(b"\r\n")
    cr, lf = data.count(b"\r") - crlf, data.count(b"\n") - crlf
    kinds = [end for end, n in (("\r\n", crlf), ("\r", cr), ("\n", lf)) if n]
    return "\n" if not kinds else kinds[0] if len(kinds) == 1 else None


def encode_like(original: bytes, text: str) -> bytes | None:
    """``text`` (``\\n`` line ends) as bytes in the manner of ``original``: its BOM, its line ends."""
    end = _line_end(original)
    if end is None:
        return None
    bom = codecs.BOM_UTF8 if original.startswith(codecs.BOM_UTF8) else b""
    return bom + (text.replace("\n", end) if end != "\n" else text).encode("utf-8")


def write_fixed(path: str, original: bytes, fixed: bytes) -> None:
    """Replace ``path`` by ``fixed`` through the one output module (:func:`dtc.fileio.write_bytes`):
    ``path~`` is kept complete before the source is replaced atomically, an earlier good backup is
    never lost, and a symbolic link's target is written."""
    real = os.path.realpath(path)
    if not stat.S_ISREG(os.stat(real).st_mode):
        raise SourceError(path, "not a regular file; --fix writes only regular files")
    if Path(real).read_bytes() != original:
        raise SourceError(path, "changed while it was being fixed; not written (run dtc lint --fix again)")
    write_bytes(path, fixed, backup=True)


def fix_files(files: tuple[str, ...], lint: Callable[[str, str], list[Diagnostic]], *, diff: bool,
              unsafe: bool, warn: Callable[[str], None]) -> FixReport:
    """Fix each file (``lint(path, text)`` lints one text as that file); with ``diff``, collect
    unified diffs instead of writing. Raises :class:`SourceError` for a file it cannot read."""
    report = FixReport()
    for path in files:
        original = _read(path, writing=not diff)
        text = decode(original, path)
        outcome = fix_text(text, partial(lint, path), unsafe=unsafe)
        if outcome.text != text:
            data = encode_like(original, outcome.text)
            if data is None:
                warn(f"{path}: mixes line-end styles; not fixed (save it with one style)")
                report.found.extend(lint(path, text))
                continue
            report.fixed += outcome.fixed
            report.files += 1
            if diff:
                report.diffs.append("".join(difflib.unified_diff(
                    text.splitlines(keepends=True), outcome.text.splitlines(keepends=True),
                    fromfile=f"a/{path}", tofile=f"b/{path}")))
                continue
            write_fixed(path, original, data)
        report.found.extend(outcome.remaining)
    return report


def _findings(n: int) -> str:
    return f"{n} finding{'s' if n != 1 else ''}"


def summary(report: FixReport, diff: bool) -> str:
    files = f"{report.files} file{'s' if report.files != 1 else ''}"
    if diff:
        return f"Would fix {_findings(report.fixed)} in {files}." if report.fixed else "No fixes to apply."
    left = len(report.found)
    remain = f"{left} remain{'s' if left == 1 else ''}"
    if report.fixed:
        return f"Fixed {_findings(report.fixed)} in {files}; {remain}."
    return f"No fixes applied; {remain}."
