"""Where a run stands: the entry, the clock, what was visited and taken, what is pending.

Plain data that round-trips through JSON (the ``state`` of ``schemas/save.schema.json``). Values
that only one ruleset uses (lantern turns, rests today...) live in ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dtc.runtime.core import Outcome

#: How many entries of the path are kept ("return to your most recent entry" needs only a few).
HISTORY_KEPT = 64


@dataclass(slots=True)
class Group:
    """Creatures present in the scene: ``4 Goblins`` resolved to a stat block."""

    name: str
    creature: str | None
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "creature": self.creature, "count": self.count}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Group:
        return cls(data["name"], data["creature"], int(data["count"]))


@dataclass(slots=True)
class GameState:
    entry: int
    start: int
    turn: int = 0
    #: Entries read, oldest first (the current one last).
    history: list[int] = field(default_factory=list)
    visits: dict[int, int] = field(default_factory=dict)
    #: ``"entry:effect"`` of treasure and items already taken (found things are found once).
    looted: set[str] = field(default_factory=set)
    #: Entries whose fight was won.
    defeated: set[int] = field(default_factory=set)
    #: The creatures last named in the text (who "the goblins" are when a fight starts).
    scene: list[Group] = field(default_factory=list)
    #: A move decided but not yet made: ``{"target": 17, "how": "win"}``.
    pending: dict[str, Any] | None = None
    #: Events emitted so far (the next event's ``seq``).
    events: int = 0
    #: Ruleset-specific values (Death & Treasure: light, dark, rests).
    rules: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome | None = None
    #: Possessions and flags from the book's effects (``[+stone key]``): name -> count (> 0).
    possessions: dict[str, int] = field(default_factory=dict)

    def arrive(self, entry: int) -> None:
        self.entry = entry
        self.history.append(entry)
        if len(self.history) > HISTORY_KEPT:
            del self.history[: len(self.history) - HISTORY_KEPT]
        self.visits[entry] = self.visits.get(entry, 0) + 1

    @property
    def previous(self) -> int | None:
        """The entry read before the current one."""
        return self.history[-2] if len(self.history) >= 2 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "start": self.start,
            "turn": self.turn,
            "history": list(self.history),
            "visits": {str(k): v for k, v in sorted(self.visits.items())},
            "looted": sorted(self.looted),
            "defeated": sorted(self.defeated),
            "scene": [g.to_dict() for g in self.scene],
            "pending": self.pending,
            "events": self.events,
            "rules": dict(self.rules),
            "outcome": self.outcome.to_dict() if self.outcome else None,
        } | ({"possessions": dict(sorted(self.possessions.items()))} if self.possessions else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        return cls(
            entry=int(data["entry"]),
            start=int(data["start"]),
            turn=int(data["turn"]),
            history=[int(n) for n in data["history"]],
            visits={int(k): int(v) for k, v in data["visits"].items()},
            looted=set(data["looted"]),
            defeated={int(n) for n in data["defeated"]},
            scene=[Group.from_dict(g) for g in data["scene"]],
            pending=data["pending"],
            events=int(data["events"]),
            rules=dict(data["rules"]),
            outcome=Outcome.from_dict(data["outcome"]) if data.get("outcome") else None,
            possessions={str(k): int(v) for k, v in data.get("possessions", {}).items()},
        )
