"""`dtc lint --fix` and `--diff`: apply the fixes findings carry, or show them, file by file.

The text is fixed in rounds (see :mod:`dtc.fixes`), then written back with the file's own
byte-order mark and line ends. Each file is read, fixed and written under its lock
(:func:`dtc.fileio.rewriting`: a renumber or another ``--fix`` of it waits), and writing is
:func:`write_fixed` alone: the new text is written whole, the bytes read go to ``FILE~`` as a
copy of their own, and the new text replaces the file atomically; only regular files are
written, and a file that changed since it was read (another program saved it meanwhile) is left
alone, with its earlier backup. A ``--diff`` shown at a terminal has the book's control
characters made visible; into a pipe it is kept byte for byte, for ``patch``.
"""

from __future__ import annotations

import codecs
import difflib
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from dtc.compiler.source import MAX_BYTES, SourceError, decode
from dtc.diagnostics import Diagnostic
from dtc.fileio import OutputError, rewriting, write_source
from dtc.fixes import fix_text
from dtc.visible import visible


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
    """Replace ``path`` (read as ``original``) by ``fixed`` through the one output module
    (:func:`dtc.fileio.write_source`, inside :func:`dtc.fileio.rewriting`): ``path~`` becomes a
    complete copy of ``original`` only once ``fixed`` is written whole, a file changed since it was
    read is not written, and a symbolic link's target is written."""
    try:
        write_source(path, fixed, original)
    except OutputError as exc:
        raise SourceError(path, str(exc.strerror)) from None


def fix_files(files: tuple[str, ...], lint: Callable[[str, str], list[Diagnostic]], *, diff: bool,
              unsafe: bool, warn: Callable[[str], None]) -> FixReport:
    """Fix each file (``lint(path, text)`` lints one text as that file); with ``diff``, collect
    unified diffs instead of writing. Raises :class:`SourceError` for a file it cannot read."""
    report = FixReport()
    terminal = _is_terminal() if diff else False
    for path in files:
        if diff:
            _fix_one(path, lint, report, diff=True, unsafe=unsafe, warn=warn, terminal=terminal)
            continue
        try:
            with rewriting(path):
                _fix_one(path, lint, report, diff=False, unsafe=unsafe, warn=warn, terminal=False)
        except OutputError as exc:  # the lock could not be taken
            raise SourceError(path, str(exc.strerror)) from None
    return report


def _is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _shown_diff(diff: str) -> str:
    """A diff for a person at a terminal: each line's control characters made visible."""
    lines = diff.splitlines(keepends=True)
    return "".join(visible(line.rstrip("\r\n")) + line[len(line.rstrip("\r\n")):] for line in lines)


def _fix_one(path: str, lint: Callable[[str, str], list[Diagnostic]], report: FixReport, *, diff: bool,
             unsafe: bool, warn: Callable[[str], None], terminal: bool) -> None:
    """Fix one file into ``report`` (or diff it)."""
    original = _read(path, writing=not diff)
    text = decode(original, path)
    outcome = fix_text(text, partial(lint, path), unsafe=unsafe)
    if outcome.text == text:
        report.found.extend(outcome.remaining)
        return
    data = encode_like(original, outcome.text)
    if data is None:
        warn(f"{path}: mixes line-end styles; not fixed (save it with one style)")
        report.found.extend(lint(path, text))
        return
    report.fixed += outcome.fixed
    report.files += 1
    if diff:
        shown = "".join(difflib.unified_diff(
            text.splitlines(keepends=True), outcome.text.splitlines(keepends=True),
            fromfile=f"a/{path}", tofile=f"b/{path}"))
        report.diffs.append(_shown_diff(shown) if terminal else shown)
        report.found.extend(outcome.remaining)  # (for the summary's count of unsafe fixes)
        return
    write_fixed(path, original, data)
    report.found.extend(outcome.remaining)


def _findings(n: int) -> str:
    return f"{n} finding{'s' if n != 1 else ''}"


def summary(report: FixReport, diff: bool, unsafe: bool = False) -> str:
    """What ``--fix`` (or ``--diff``) came to; without ``--unsafe-fixes``, how many of the
    findings left carry an unsafe fix, and how to apply them."""
    files = f"{report.files} file{'s' if report.files != 1 else ''}"
    if diff:
        said = f"Would fix {_findings(report.fixed)} in {files}." if report.fixed else "No fixes to apply."
        return said + _unsafe_left(report.found, unsafe, diff=True)
    left = len(report.found)
    remain = f"{left} remain{'s' if left == 1 else ''}"
    said = f"Fixed {_findings(report.fixed)} in {files}; {remain}." if report.fixed else f"No fixes applied; {remain}."
    return said + _unsafe_left(report.found, unsafe, diff=False)


def _unsafe_left(found: list[Diagnostic], unsafe: bool, diff: bool) -> str:
    """`` 2 have an unsafe fix, a guess for you to check: see them with --diff --unsafe-fixes,
    apply them with --fix --unsafe-fixes.`` when some do and ``--unsafe-fixes`` was not given."""
    if unsafe:
        return ""
    n = sum(1 for d in found if d.fix is not None and not d.fix.safe)
    if not n:
        return ""
    has, it = ("has", "it") if n == 1 else ("have", "them")
    apply = "" if diff else f", apply {it} with --fix --unsafe-fixes"
    return f" {n} {has} an unsafe fix, a guess for you to check: see {it} with --diff --unsafe-fixes{apply}."
