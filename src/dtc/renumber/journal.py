"""Renumber's writes as one recoverable transaction: the source, its backup and the number map.

``dtc renumber`` changes three files: the source (rewritten), ``FILE~`` (the source as it was)
and the number map. A crash between any two writes must not lose the published numbers, so the
writes follow a journal, all under the source's lock (:func:`dtc.fileio.rewriting`):

1. The journal ``.FILE.renumber.json`` (beside the source) is written atomically. It holds the
   new source, the new map, and the SHA-256 of the source before and after.
2. The source: the new text is written whole, then ``FILE~`` (a copy of the source as it was,
   written atomically: an earlier backup is only replaced by a finished one), then the new text
   is renamed over the source, which is checked first to be still as it was read.
3. The number map (its earlier version kept as ``MAP~``).
4. The journal is removed.

A run refused before the source is replaced (``FILE~`` a pipe, a full disk) removes its journal:
nothing of it is left to be finished by a later run.

Every step is safe to repeat. Before a renumber reads anything it finishes a journal left by an
interrupted run (:func:`recover`). A journal is data, not instructions: it is finished only for
the source it lies beside and the number map this run writes (the one ``--map`` names, or the
one beside the source), its new text must be a renumbering of the source (the same check a run
makes) and its map must list exactly the new text's entries; any other journal is refused with
one line. A source that is neither as it was before nor after (edited by hand since) is left
alone, with one line saying what to do.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from dtc import fileio
from dtc.compiler.api import compile_text
from dtc.compiler.source import SourceError, decode
from dtc.fileread import ReadError, read_bytes
from dtc.renumber.check import difference
from dtc.renumber.rewrite import NumberMap, RenumberError
from dtc.visible import visible

JOURNAL_FORMAT = "dtc-renumber-journal"
_ENDING = re.compile(r"\r\n|\r|\n")


class JournalError(Exception):
    """A journal that cannot be finished; ``str()`` is one line."""


def journal_path(source: Path) -> Path:
    """The journal of ``source`` (its real path: a link's target)."""
    real = Path(os.path.realpath(source))
    return real.with_name(f".{real.name}.renumber.json")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def as_written(text: str, raw: bytes) -> str:
    """``text`` (``\\n`` line ends) with the line ends and byte-order mark of ``raw``, exactly.

    Renumbering changes numbers inside lines, never the lines, so each line gets back the end
    it had (CRLF, a lone CR or LF, mixed as they were). Should the count differ, every line ends
    as most did.
    """
    bom = raw.startswith(b"\xef\xbb\xbf")
    original = raw[3:].decode("utf-8") if bom else raw.decode("utf-8")
    endings = _ENDING.findall(original)
    lines = text.split("\n")
    if len(lines) == len(endings) + 1:
        out = "".join(line + end for line, end in zip(lines, endings, strict=False)) + lines[-1]
    else:
        common = max(("\r\n", "\r", "\n"), key=endings.count) if endings else "\n"
        out = text.replace("\n", common) if common != "\n" else text
    return ("\ufeff" + out) if bom else out


def _real(path: str | Path) -> str:
    return os.path.realpath(path)


@dataclass(frozen=True, slots=True)
class Plan:
    source: str
    map_path: str
    before: bytes
    after: bytes
    number_map: str

    def to_json(self) -> str:
        return json.dumps({
            "format": JOURNAL_FORMAT,
            "version": 1,
            "source": _real(self.source),
            "map": _real(self.map_path),
            "before_sha256": sha256(self.before),
            "after_sha256": sha256(self.after),
            "after": self.after.decode("utf-8"),
            "number_map": self.number_map,
        }, ensure_ascii=False) + "\n"


def _map_needs_backup(map_path: str, new_map: str) -> bool:
    """Keep ``MAP~`` unless the map already is the new one (a repeated step must not back it up)."""
    try:
        return read_bytes(map_path, "map") != new_map.encode("utf-8")
    except ReadError:
        return True


def check_places(source: Path, map_path: Path) -> None:
    """Raise :class:`dtc.fileio.OutputError` now if a file the run writes would be refused later:
    the source, the map, and their backups' places. Called before the journal is written."""
    fileio.check_replaceable(source)
    fileio.check_replaceable(map_path)
    fileio.check_backup_place(Path(_real(source)))
    fileio.check_backup_place(Path(_real(map_path)))


def _finish(plan: Plan, journal: Path) -> None:
    """Steps 3 and 4: the map, then the journal is removed."""
    fileio.write_text(plan.map_path, plan.number_map, inputs=[plan.source],
                      backup=_map_needs_backup(plan.map_path, plan.number_map))
    journal.unlink(missing_ok=True)
    fileio.fsync_dir(journal.parent)


def _refuse_leftover(journal: Path) -> None:
    """The journal's place must be empty when a run writes its own (:func:`recover` ran first)."""
    try:
        info = os.lstat(journal)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise JournalError(f"{visible(str(journal))}: error: {exc.strerror or exc}") from None
    kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "there"
    raise JournalError(f"{visible(str(journal))}: error: is {kind}, where this run writes its journal; remove it")


def _is_now(path: str, digest: str) -> bool:
    try:
        return sha256(read_bytes(path, "source")) == digest
    except ReadError:
        return False


def commit(plan: Plan) -> fileio.Written | None:
    """Write the renumbered source and its map as described above; the Written of the source.

    Call it inside :func:`dtc.fileio.rewriting` of the source, with ``plan.before`` the bytes read.
    A run refused or stopped before the source is replaced removes its journal; once the source
    is replaced, the journal stays until the map is written (by this run or the next).
    """
    journal = journal_path(Path(plan.source))
    _refuse_leftover(journal)
    fileio.write_text(journal, plan.to_json(), new_mode=0o600)
    written = None
    if plan.after != plan.before:
        try:
            written = fileio.write_source(plan.source, plan.after, plan.before)
        except (OSError, SystemExit, KeyboardInterrupt):
            # (Not any BaseException: a crash leaves the journal, as SIGKILL would, for the next run.)
            if not _is_now(plan.source, sha256(plan.after)):
                journal.unlink(missing_ok=True)
            raise
    _finish(plan, journal)
    return written


def _damaged(journal: Path, why: str) -> JournalError:
    return JournalError(f"{visible(str(journal))}: error: {why}; dtc follows no journal it cannot check: remove it "
                        "if it is not yours")


def recover(source: Path, map_path: Path) -> str | None:
    """Finish a journal left beside ``source`` for the map ``map_path``; a line saying what was done,
    or None. Call it inside :func:`dtc.fileio.rewriting` of the source."""
    journal = journal_path(source)
    try:
        info = os.lstat(journal)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"{visible(str(journal))}: error: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise _damaged(journal, "is not a regular file (a renumber journal always is)")
    try:
        raw = read_bytes(journal, "map")
    except ReadError as exc:
        raise JournalError(f"{visible(str(journal))}: error: {exc.message}") from None
    try:
        data = json.loads(raw)
        assert isinstance(data, dict) and data.get("format") == JOURNAL_FORMAT and data.get("version") == 1
        named_source, named_map = data["source"], data["map"]
        after_text, map_text = data["after"], data["number_map"]
        before_sha, after_sha = data["before_sha256"], data["after_sha256"]
        assert all(isinstance(v, str) for v in (named_source, named_map, after_text, map_text, before_sha, after_sha))
        after = after_text.encode("utf-8")
    except (ValueError, AssertionError, KeyError, TypeError, RecursionError, UnicodeError):
        raise _damaged(journal, "not a renumber journal dtc can finish") from None
    shown = visible(str(source))
    if named_source != _real(source):
        raise _damaged(journal, f"it is not the journal of {shown} (it names another file)")
    if named_map != _real(map_path):
        raise JournalError(
            f"{visible(str(journal))}: error: an interrupted renumber of {shown} names the number map "
            f"{visible(named_map, newlines=False)}, not this run's {visible(str(map_path))}; dtc writes no file a "
            "journal names: run again with the --map that run had, or remove the journal")
    if sha256(after) != after_sha:
        raise _damaged(journal, f"the journal is damaged; check {shown} and its number map by hand")
    try:
        current = read_bytes(source, "source")
    except ReadError as exc:
        raise JournalError(f"{visible(exc.path)}: error: {exc.message}") from None
    now = sha256(current)
    if now not in (before_sha, after_sha):
        raise JournalError(f"{shown}: error: an interrupted renumber left {visible(str(journal))}, but the file has "
                           "changed since; remove the journal to go on (the number map may be stale)")
    # The journal's text and map are checked as a run checks its own before they are written.
    try:
        number_map = NumberMap.from_json(map_text, str(journal))
    except RenumberError:
        raise _damaged(journal, "its number map is not one") from None
    problem = _not_a_renumbering(str(source), current if now == before_sha else None, after, number_map)
    if problem is not None:
        raise _damaged(journal, problem)
    plan = Plan(str(source), str(map_path), current, after, map_text)
    if now == before_sha:
        fileio.write_source(plan.source, after, current)
    _finish(plan, journal)
    return f"finished an interrupted renumber of {shown} (number map {visible(str(map_path))})"


def _not_a_renumbering(path: str, before: bytes | None, after: bytes, number_map: NumberMap) -> str | None:
    """Why the journal's new text is not what a renumber of ``before`` writes (None: it is)."""
    try:
        new = compile_text(decode(after, path), path)
    except SourceError:
        return "its text is not a source dtc reads"
    numbers = [e.number for e in new.doc.entries]
    if not all(isinstance(n, int) for n in numbers) or set(numbers) != number_map.numbers:
        return "its number map does not list the entries of its text"
    if before is None:
        return None
    try:
        old = compile_text(decode(before, path), path)
    except SourceError:
        return "the source is not one dtc reads"
    old_graph, new_graph = old.graph(effects=False), new.graph(effects=False)
    if len(old_graph["entries"]) != len(new_graph["entries"]):
        return "its text is not a renumbering of the source"
    renamed: dict[object, int] = {a["number"]: b["number"] for a, b in zip(old_graph["entries"], new_graph["entries"],
                                                                             strict=True)}
    for label, n in number_map.labels.items():
        renamed.setdefault(label, n)
    if difference(old_graph, new_graph, renamed) is not None:
        return "its text is not a renumbering of the source"
    return None
