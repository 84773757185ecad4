"""The event log: JSON Lines, one event per line, byte-for-byte reproducible.

Events carry no clock time and keys keep the order the engine wrote them, so the same seed and
the same choices give the same bytes. The log knows its length in bytes (``offset``); a save
records it, and a resumed run cuts the log back to that length before appending, so a run that
was interrupted and resumed leaves the same log as one that was not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

EVENT_KINDS = (
    "start", "move", "turn", "entry", "check", "roll", "encounter_check", "encounter", "surprise", "reaction",
    "talk", "distract", "escape", "flee", "encounter_end", "fight", "special", "round", "attack", "morale",
    "defeated", "fight_end", "damage", "heal", "death", "item", "light", "dark", "rest", "oracle", "gear",
    "action", "decision", "manual", "adjust", "refused", "end",
)


def event_line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"


class EventLog:
    """Appends events to a JSON Lines file."""

    def __init__(self, path: str | Path, *, resume_at: int | None = None) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if resume_at is None:
            self._file: IO[bytes] = open(self.path, "wb")  # noqa: SIM115 - closed by close()
            self.offset = 0
        else:
            mode = "r+b" if self.path.exists() else "w+b"
            self._file = open(self.path, mode)  # noqa: SIM115
            size = self._file.seek(0, os.SEEK_END)
            self.offset = min(resume_at, size)
            self._file.seek(self.offset)
            self._file.truncate()

    def __call__(self, event: dict[str, Any]) -> None:
        data = event_line(event).encode("utf-8")
        self._file.write(data)
        self.offset += len(data)

    def flush(self) -> int:
        """Hand what was written to the OS (it survives the process); return the length in bytes."""
        self._file.flush()
        return self.offset

    def close(self) -> None:
        if not self._file.closed:
            self._file.flush()
            self._file.close()


def read_log(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
