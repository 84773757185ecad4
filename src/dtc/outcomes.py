"""How a reader's adventure can end: one definition of each outcome, and the words for it.

``dtc play`` and ``dtc simulate`` (the runtime) and ``dtc odds`` (the absorbing chain) end a
reader's walk through a book in the same few ways, and every command takes the words it prints
from here, so "escaped" means one thing everywhere (``docs/outcomes.md`` explains them all):

* **escaped** — back at the entrance (the start entry) after going in, the adventurer leaves the
  dungeon, with treasure or without. Coming back to the entrance is not yet leaving: there the
  reader may go in again, and leaving is one more option (``l`` in ``dtc play``; the *leave*
  option of the odds' chain).
* **ended** — the adventurer reached an entry that says THE END. An ending may say what kind it is
  (:data:`ENDING_KINDS`: ``THE END (victory)``, ``THE END (death)``); the outcome is still
  *ended*, and the kind is told with it.
* **died** — HP (or what the rules count instead) ran out. The runtime only: the chain does not
  model damage.
* **lost** — lost in the dark for good (Death & Treasure). The runtime only.
* **stuck** — the book gives no way on: a **dead end** (an entry with no exits and no ending), a
  **trapped** reader (a closed set of entries with no way out), or a **broken** exit (to an entry
  that does not exist, or a failed check with no failure entry). The chain ends there; the
  runtime meets them as *Go back* (a dead end), the turn limit (trapped) and *cannot continue*
  (broken).
* **stopped** — the run stopped before any of these: a turn limit, the player quit, a script ran
  out. It can be resumed. The runtime only.
* **cannot continue** — the book is broken where the run stood (the runtime's *broken*).
* **error** — a bug in dtc itself (``dtc simulate`` only, with the seed that shows it).

This module imports nothing of dtc's, so the runtime, the odds and the renderers all may use it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Kind:
    """One outcome: its key (as in logs, saves and JSON), the words for it, and who can reach it."""

    key: str
    #: A short label for tables (``escaped (left by the entrance)``).
    label: str
    #: One sentence for the documentation and ``--help``.
    meaning: str
    #: The run is over for good (False: it can be resumed).
    final: bool = True
    #: The odds' chain can end here (False: only a run of the runtime can).
    in_odds: bool = False
    #: The runtime can end here (False: only the chain can).
    in_runs: bool = True


ESCAPED = Kind("escaped", "escaped (left by the entrance)",
               "Back at the entrance after going in, the adventurer leaves the dungeon, with treasure or "
               "without.", in_odds=True)
ENDED = Kind("ended", "THE END", "The adventurer reached an entry that says THE END.", in_odds=True)
DIED = Kind("died", "died", "The adventurer's HP ran out.")
LOST = Kind("lost", "lost in the dark", "The adventurer was lost in the dark for good.")
STUCK = Kind("stuck", "stuck", "The book gives no way on: a dead end, a closed loop, or an exit to nowhere.",
             in_odds=True, in_runs=False)
STOPPED = Kind("stopped", "stopped (turn limit or stuck)",
               "The run stopped before an outcome: a turn limit, the player quit, a script ran out.",
               final=False)
CANNOT_CONTINUE = Kind("cannot-continue", "cannot continue (the book breaks)",
                       "The book is broken where the run stood: an exit to nowhere, a malformed choice.")
ERROR = Kind("error", "runtime error (a dtc bug)", "A bug in dtc itself, with the seed that shows it.")

#: Every outcome, in the order reports list them.
KINDS: dict[str, Kind] = {k.key: k for k in (ESCAPED, ENDED, DIED, LOST, STUCK, STOPPED, CANNOT_CONTINUE, ERROR)}
#: How a run of the runtime can end (``dtc play``'s one line, ``dtc simulate``'s table).
RUN_OUTCOMES = tuple(k.key for k in KINDS.values() if k.in_runs and k.key != "error")

#: Kinds of ending an entry may declare (``THE END (death)``); an entry that says only THE END has
#: none. A kind not listed here is shown the same way, in parentheses.
ENDING_KINDS = ("victory", "death")

#: What the odds' chain calls the ways of being stuck (the part of a key before ``:``).
STUCK_WORDS = {"dead_end": "dead end", "loop": "trapped in a loop", "missing": "missing target",
               "broken": "the book breaks"}


def the_end(kind: str | None = None) -> str:
    """``THE END``, or ``THE END (victory)`` for an ending of that kind."""
    return f"THE END ({kind})" if kind else "THE END"


#: The heading and sentence a reader sees at an ending, by its kind (None: an ending of no kind).
ENDING_WORDS: dict[str | None, tuple[str, str]] = {
    "victory": ("Victory", "You have won: this adventure is over."),
    "death": ("You have died", "Your adventurer's story ends here."),
    # Not a kind an entry declares: the reader left by the entrance (ESCAPED).
    "escaped": ("You escaped", "You leave the dungeon by the way you came in."),
    None: ("The end", "This adventure is over."),
}


def ending_words(kind: str | None) -> tuple[str, str]:
    """(heading, sentence) for an ending of ``kind``; a kind not in :data:`ENDING_KINDS` reads as its name."""
    if kind in ENDING_WORDS:
        return ENDING_WORDS[kind]
    return (str(kind).capitalize(), "This adventure is over.")


def paren(text: str) -> str:
    """``text`` in parentheses, once: a cause the book already wrote as ``(d6 damage)`` keeps its own."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        return text
    return f"({text})"


def run_line(kind: str, entry: int | None, turn: int, reason: str, treasure: int = 0, ending: str | None = None) -> str:
    """The one line every run of ``dtc play`` ends with."""
    where = f"entry {entry}" if entry is not None else "no entry"
    loot = f"treasure worth {treasure:,} coins" if treasure else "no treasure"
    if kind == "escaped":
        return f"escaped: left by the entrance ({where}) on turn {turn} with {loot}"
    if kind == "ended" and ending == "death":
        return f"died: {the_end(ending)} at {where} on turn {turn}"
    if kind == "ended" and ending == "victory":
        return f"won: {the_end(ending)} at {where} on turn {turn} with {loot}"
    if kind == "ended":
        return f"ended: {the_end(ending)} at {where} on turn {turn} with {loot}"
    if kind == "died":
        return f"died: at {where} on turn {turn} {paren(reason)}"
    if kind == "lost":
        return f"lost: in the dark near {where} on turn {turn} {paren(reason)}"
    if kind == "stopped":
        return f"stopped: {reason} at {where} on turn {turn}"
    return f"cannot continue: {reason}"


def chain_kind(key: str) -> str:
    """The outcome (``escaped``, ``ended``, ``stuck``) of one of the chain's keys (``ending:7``, ``loop:3``)."""
    head = key.partition(":")[0]
    return "escaped" if head == "escaped" else "ended" if head == "ending" else "stuck"


def chain_words(key: str, loops: dict[str, list[int]] | None = None, ending: str | None = None) -> str:
    """Words for one of the chain's outcome keys: ``THE END at 7``, ``trapped in a loop (3, 4)``."""
    head, _, what = key.partition(":")
    if head == "escaped":
        return ESCAPED.label
    if head == "ending":
        return f"{the_end(ending)} at {what}"
    if head == "dead_end":
        return f"dead end at {what}"
    if head == "loop":
        members = (loops or {}).get(key, [])
        shown = ", ".join(str(m) for m in members[:8]) + (", ..." if len(members) > 8 else "")
        return f"trapped in a loop ({shown})"
    if head == "broken":
        return f"the book breaks: {what}"
    return f"missing target {what}" if what != "no failure entry" else "a failed check with no failure entry"
