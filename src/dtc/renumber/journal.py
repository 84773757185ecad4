"""Renumber's writes as one recoverable transaction: the source, its backup and the number map.

``dtc renumber`` changes three files: the source (rewritten), ``FILE~`` (the source as it was)
and the number map. A crash between any two writes must not lose the published numbers, so the
writes follow a journal:

1. The journal ``.FILE.renumber.json`` (beside the source) is written atomically. It holds the
   new source, the new map, and the SHA-256 of the source before and after.
2. ``FILE~``: a complete copy of the source as it was, written atomically (an earlier backup is
   only replaced by a finished one).
3. The number map (its earlier version kept as ``MAP~``).
4. The source, atomically.
5. The journal is removed.

Every step is safe to repeat. Before a renumber reads anything it finishes a journal left by an
interrupted run (:func:`recover`): the source before or after the change is brought to "after"
and the map written, and only then is the journal removed. A source that is neither (edited by
hand since) is left alone, with one line saying what to do.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from dtc import fileio
from dtc.fileread import ReadError, read_bytes

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
            "source": self.source,
            "map": self.map_path,
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


def _apply(plan: Plan, journal: Path, *, source_changes: bool) -> fileio.Written | None:
    """Steps 2 to 5 (the journal is written)."""
    backup = None
    if source_changes:
        real = Path(os.path.realpath(plan.source))
        backup = fileio.write_backup(plan.source, real)
    fileio.write_text(plan.map_path, plan.number_map, inputs=[plan.source],
                      backup=_map_needs_backup(plan.map_path, plan.number_map))
    written = fileio.write_bytes(plan.source, plan.after) if source_changes else None
    journal.unlink(missing_ok=True)
    fileio.fsync_dir(journal.parent)
    if written is not None:
        return fileio.Written(written.path, written.target, backup)
    return None


def commit(plan: Plan) -> fileio.Written | None:
    """Write the renumbered source and its map as described above; the Written of the source."""
    journal = journal_path(Path(plan.source))
    fileio.write_text(journal, plan.to_json(), new_mode=0o600)
    return _apply(plan, journal, source_changes=plan.after != plan.before)


def recover(source: Path) -> str | None:
    """Finish a journal left beside ``source``; a line saying what was done, or None."""
    journal = journal_path(source)
    try:
        raw = read_bytes(journal, "source")
    except ReadError as exc:
        if exc.message == "no such file":
            return None
        raise JournalError(f"{journal}: error: {exc.message}") from None
    try:
        data = json.loads(raw)
        assert isinstance(data, dict) and data.get("format") == JOURNAL_FORMAT
        after = str(data["after"]).encode("utf-8")
        plan = Plan(str(source), str(data["map"]), b"", after, str(data["number_map"]))
        before_sha, after_sha = str(data["before_sha256"]), str(data["after_sha256"])
    except (ValueError, AssertionError, KeyError, TypeError, RecursionError):
        raise JournalError(f"{journal}: error: not a renumber journal dtc can finish; remove it if it is "
                           "not yours") from None
    if sha256(after) != after_sha:
        raise JournalError(f"{journal}: error: the journal is damaged; remove it and check {source} and its "
                           "number map by hand")
    try:
        now = sha256(read_bytes(source, "source"))
    except ReadError as exc:
        raise JournalError(f"{exc.path}: error: {exc.message}") from None
    if now == before_sha:
        _apply(plan, journal, source_changes=True)
    elif now == after_sha:
        _apply(plan, journal, source_changes=False)
    else:
        raise JournalError(f"{source}: error: an interrupted renumber left {journal}, but the file has changed "
                           "since; remove the journal to go on (the number map may be stale)")
    return f"finished an interrupted renumber of {source} (number map {plan.map_path})"
