"""The event log: JSON Lines, one event per line, byte-for-byte reproducible.

Events carry no clock time and keys keep the order the engine wrote them, so the same seed and
the same choices give the same bytes. The log knows its length in bytes (``offset``); a save
records it, and a resumed run cuts the log back to that length before appending, so a run that
was interrupted and resumed leaves the same log as one that was not.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

#: Every event kind and its fields (besides ``seq``, ``turn``, ``entry`` and ``event``, which all carry,
#: and ``faces``, which an event carries when the rules drew dice since the event before it: the
#: faces as ``[sides, face]`` pairs, see :mod:`dtc.runtime.replay`).
EVENTS: dict[str, str] = {
    "start": "title, rules, seed, character (one-line sheet), start (entry); log (the run-log version), sheet "
             "(the adventurer as a character file holds it), made (the run rolled the adventurer), rulings, "
             "carried (what --with gave, when it did): what a replay needs",
    "move": "to (entry), how (start/success/failure/prose/return/back/flee/win)",
    "turn": "why (move/action/wait/rest/combat): a turn of 10 minutes passed",
    "entry": "number, ending: the entry is read",
    "check": "ability, difficulty, dice, rolls (one list per roll; two when encumbered), total, target, success, why",
    "roll": "dice, rolls, total, why: damage or healing the text asked for, or a random branch (why: its label); "
            "Dungeon Rules: the minutes of door work, loot's worth (dice: its range) and mix",
    "possession": "name, amount (gained, or lost when negative), held (after; never below zero), short (when "
                  "the reader held less than was taken), over_limit (what a gain past the book's Limits: lost), "
                  "dropped (the container past its limit the reader dropped it from)",
    "encounter_check": "roll, encounter (true on a 1)",
    "encounter": "roll (on the table), text (the row), foes (names)",
    "surprise": "rolls, chance (in six), surprised",
    "reaction": "rolls, modifier, total, reaction (hostile/neutral/friendly)",
    "talk": "success, reaction or why",
    "distract": "dropped (food/treasure), roll, distracted",
    "escape": "success",
    "flee": "to (the entry run back to, or null)",
    "encounter_end": "result",
    "fight": "foes (name, hp, morale), surprised",
    "special": "creature, text: a special ability for the player to adjudicate",
    "round": "round, initiative, rolls, enemy_initiative (or surprised / escaping / swallowed)",
    "attack": "attacker, target, weapon, rolls, total, needed, hit, damage; chips, and special and dropped "
              "(a Zilch Disarm), where the rules have them",
    "morale": "name, rolls, total, morale, flees",
    "defeated": "name",
    "effect": "creature, text: a special ability or a weapon's effect the rules play (swallowed, on fire)",
    "fight_end": "result (won/fled/stalemate)",
    "damage": "amount, cause, hp",
    "heal": "amount, cause, hp",
    "death": "cause",
    "item": "action (found/used/dropped/thrown), name, quantity, why",
    "light": "action (light/refill/relight/out/found), turns, flasks",
    "dark": "turns (in the dark so far), limit",
    "rest": "rolls, rests_today; rest (rally/rest/sleep/breath/short/long/camp) and chips where the rules have them",
    "oracle": "question, odds (in six), roll, answer",
    "gear": "item (or null), appropriate",
    "action": "label, plan (turn/gear/check), success",
    "decision": "question (kind), choice (option key), label",
    "manual": "text: prose the runtime does not automate, shown to the player",
    "adjust": "text: the player's ruling as typed",
    "refused": "what, why",
    "experience": "xp, why, total, level: what the session earned (Maze Rats)",
    "end": "outcome, reason, treasure, hp; ending_kind (death/victory) when the ending states one",
    "hazard": "name, stage (met/mitigated/cleared/passed/triggered); difficulty, pace, telltales, gear or text "
              "(Dungeon Rules)",
    "pace": "pace (standard/careful/stealth/fast/mapping halt), minutes a room, why (Dungeon Rules)",
    "alarm": "level (0-5), why: the Dungeon Rules alarm track moved",
}
EVENT_KINDS = tuple(EVENTS)


class LogError(ValueError):
    """A log that is not a dtc event log; the message names the line."""


def event_line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"


class EventLog:
    """Appends events to a JSON Lines file."""

    def __init__(self, path: str | Path, *, resume_at: int | None = None,
                 inputs: Iterable[str | Path | None] = (), recorder: Any = None) -> None:
        """Open the log (through :func:`dtc.fileio.open_stream`: never over one of ``inputs``).

        With a ``recorder`` (:func:`dtc.runtime.replay.record`), each event carries ``faces``: the
        dice the rules drew since the event before (a run log that replays)."""
        from dtc.fileio import open_stream

        self.path = Path(path)
        self.recorder = recorder
        self._file: IO[bytes]
        self._file, self.offset = open_stream(path, inputs=inputs, keep=resume_at)

    def __call__(self, event: dict[str, Any]) -> None:
        if self.recorder is not None:
            faces = self.recorder.take()
            if faces:
                event = {**event, "faces": faces}
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
    """Read an event log back, checking that every line is an event and the ``seq`` runs on."""
    from dtc.fileread import ReadError, read_text

    events: list[dict[str, Any]] = []
    try:
        text = read_text(path, "log")
    except ReadError as exc:
        raise LogError(str(exc)) from None
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"{path}:{n}: not JSON: {exc.msg}") from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str) or event["event"] not in EVENTS:
            raise LogError(f"{path}:{n}: not a dtc event")
        if event.get("seq") != len(events):
            raise LogError(f"{path}:{n}: seq {event.get('seq')} where {len(events)} was expected")
        events.append(event)
    return events
