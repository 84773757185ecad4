"""Run logs that replay: every die face a run drew, recorded, and a run played again from them.

A run log is the event log (:mod:`dtc.runtime.log`) of one run with two additions:

* each event carries ``faces``, the dice the rules drew since the event before, in order, as
  ``[sides, face]`` pairs (``randint(low, high)`` is a die of ``high - low + 1`` sides; an index
  drawn below ``n`` is a die of ``n`` sides, face ``index + 1``; a uniform number in [0, 1) is
  ``[0, x]``). Draws a player makes to choose (the ``random`` policy's pick) are not recorded:
  its decision is;
* the ``start`` event carries what a replay needs: the adventurer's whole sheet (``sheet``),
  whether the run made it with its own dice (``made``), the rulings and the log's version
  (``log``). A run stopped at its turn limit says the limit in its ``end`` event's reason.

:func:`replay` plays a log again: the same rules, the same adventurer, every die face taken
from the log in turn and every decision answered as the log answered it. Each event the engine
reports is compared with the log's; the first difference is a :class:`Divergence` naming the
step and what differed. Nothing here reads the book's source: the caller hands in the graph.

A log may hold some kinds of event only: the web edition's "Download this run" writes the steps
the page plays itself and names their kinds in the start's ``recorded``. Such a log is replayed the
same way, and this dtc's events of those kinds are compared on the fields the log has
(:func:`recorded_kinds`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from dtc.runtime.core import Question, RunEnded

if TYPE_CHECKING:
    from dtc.compiled.graphjson import CompiledGraph
    from dtc.runtime.dice import Dice
    from dtc.runtime.engine import Engine
    from dtc.runtime.ruleset import Rules

#: The run log's version (the ``log`` field of its ``start`` event).
LOG_VERSION = 1
#: The reason a run stopped at its turn limit gives (the limit a replay plays to).
_TURN_LIMIT = re.compile(r"turn limit ([0-9]{1,10}) reached")
#: A replay's turn limit otherwise: the log's run ends first.
_NO_LIMIT = 10**12

Face = list[Any]  # [sides, face] (sides 0: a uniform number in [0, 1))


class RecordingRandom(random.Random):
    """The run's generator, drawing what :class:`random.Random` draws, that keeps every draw.

    ``paused`` counts the player's decisions under way: their draws are the player's, not the
    rules', and are not kept."""

    def __init__(self, state: Any = None) -> None:
        super().__init__()
        if state is not None:
            self.setstate(state)
        self.draws: list[Face] = []
        self.paused = 0

    def randint(self, a: int, b: int) -> int:
        value: int = a + self._randbelow(b - a + 1)  # type: ignore[attr-defined]
        if not self.paused:
            self.draws.append([b - a + 1, value - a + 1])
        return value

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and step == 1 and start > 0:
            value: int = self._randbelow(start)  # type: ignore[attr-defined]
            if not self.paused:
                self.draws.append([start, value + 1])
            return value
        value = super().randrange(start, stop, step)
        if not self.paused and stop is not None and step == 1:
            self.draws.append([stop - start, value - start + 1])
        return value

    def random(self) -> float:
        value = super().random()
        if not self.paused:
            self.draws.append([0, value])
        return value

    def getrandbits(self, k: int) -> int:
        # Defined here so that ``_randbelow`` stays the one that draws bits (a subclass that
        # defines ``random`` alone gets one that calls ``random``: other numbers, and recorded).
        return super().getrandbits(k)

    def take(self) -> list[Face]:
        """The draws since the last call (and forget them)."""
        draws, self.draws = self.draws, []
        return draws


def record(dice: Dice) -> RecordingRandom:
    """Make ``dice`` keep every draw from now on (the same numbers it would draw anyway)."""
    source = dice._rng
    if isinstance(source, RecordingRandom):
        return source
    recorder = RecordingRandom(source.getstate())
    dice._rng = recorder
    return recorder


class Divergence(Exception):
    """This dtc does something other than the log at ``step`` (the log's ``seq``)."""

    def __init__(self, step: int, what: str) -> None:
        super().__init__(f"step {step}: {what}")
        self.step = step
        self.what = what


class LogEnds(Exception):
    """The log stops before the run ends (it was interrupted): nothing more to compare."""


class ScriptedRandom:
    """Dice that give the log's faces in turn, checking each is a die of the size asked for."""

    def __init__(self, faces: Sequence[Face], where: Callable[[], int]) -> None:
        self._faces = faces
        self._next = 0
        self._where = where
        self.draws: list[Face] = []
        self.paused = 0

    def _draw(self, sides: int) -> Any:
        if self._next >= len(self._faces):
            raise Divergence(self._where(), f"this dtc rolls {_die(sides)}, but the log has no more dice")
        face = self._faces[self._next]
        if face[0] != sides:
            raise Divergence(self._where(), f"this dtc rolls {_die(sides)} where the log rolled {_die(face[0])}")
        self._next += 1
        if not self.paused:
            self.draws.append(face)
        return face[1]

    def randint(self, a: int, b: int) -> int:
        return a + int(self._draw(b - a + 1)) - 1

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            return int(self._draw(start)) - 1
        return start + int(self._draw(stop - start)) - 1

    def random(self) -> float:
        return float(self._draw(0))

    def getstate(self) -> Any:  # a replay is never saved
        raise TypeError("a replayed run cannot be saved")

    def take(self) -> list[Face]:
        draws, self.draws = self.draws, []
        return draws

    @property
    def left(self) -> int:
        return len(self._faces) - self._next


def _face(sides: Any, face: Any) -> bool:
    """Whether ``[sides, face]`` is a face a die can show: 1 to ``sides``, or in [0, 1) for sides 0."""
    if not isinstance(sides, int) or isinstance(sides, bool) or sides < 0:
        return False
    if sides == 0:
        return isinstance(face, (int, float)) and not isinstance(face, bool) and 0 <= face < 1
    return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= sides


def _die(sides: int) -> str:
    return "a number in [0, 1)" if sides == 0 else f"a d{sides}"


class LogWriter:
    """An event sink that adds each event's ``faces`` and hands it to ``write`` (a log file)."""

    def __init__(self, write: Callable[[dict[str, Any]], None], recorder: RecordingRandom | ScriptedRandom) -> None:
        self.write = write
        self.recorder = recorder

    def __call__(self, event: dict[str, Any]) -> None:
        faces = self.recorder.take()
        self.write({**event, "faces": faces} if faces else event)


class ReplayPlayer:
    """Answers every question as the log did (and types the log's rulings for ``adjust``)."""

    name = "replay"

    def __init__(self, events: Sequence[Mapping[str, Any]], at: Callable[[], int]) -> None:
        self._decisions = [e for e in events if e.get("event") == "decision"]
        self._texts = [str(e.get("text", "")) for e in events if e.get("event") == "adjust"]
        self._end = events[-1] if events and events[-1].get("event") == "end" else None
        self._at = at
        self.position = 0
        self._typed = 0

    def decide(self, question: Question, game: Engine) -> int:
        if self.position >= len(self._decisions):
            if self._end is not None and self._end.get("outcome") == "stopped":
                raise RunEnded("stopped", str(self._end.get("reason", "")))
            if self._end is None:
                raise LogEnds
            raise Divergence(self._at(), f"this dtc asks '{question.prompt}' ({question.kind}), where the log's "
                                         "run asked nothing more")
        wanted = self._decisions[self.position]
        self.position += 1
        if wanted.get("question") != question.kind:
            raise Divergence(int(wanted.get("seq", self._at())),
                             f"this dtc asks a question of {question.kind} where the log answers one of "
                             f"{wanted.get('question')}")
        key = wanted.get("choice")
        for n, option in enumerate(question.options):
            if option.key == key:
                return n
        offered = ", ".join(o.key for o in question.options[:12])
        raise Divergence(int(wanted.get("seq", self._at())),
                         f"the log chose {key!r}, which this dtc does not offer here (it offers {offered})")

    def text(self, prompt: str, game: Engine) -> str:
        if self._typed < len(self._texts):
            self._typed += 1
            return self._texts[self._typed - 1]
        return ""


@dataclass(frozen=True)
class Replayed:
    """What a replay found: ``steps`` events agreed; ``divergence`` the first that did not."""

    steps: int
    outcome: str
    divergence: Divergence | None = None
    #: The log stops before its run ended (no ``end`` event): all it holds agreed.
    unfinished: bool = False

    @property
    def same(self) -> bool:
        return self.divergence is None

    def line(self) -> str:
        if self.divergence is not None:
            return f"diverged at {self.divergence}"
        if self.unfinished:
            return f"replayed {self.steps} steps: the same so far (the log stops before its run ended)"
        return f"replayed {self.steps} steps: same outcome ({self.outcome})"


class ReplayError(ValueError):
    """A log that cannot be replayed at all (not a run log, or made for another book)."""


def start_event(events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The log's ``start`` event (after any ``manual`` notes before it), checked for what a replay needs."""
    for event in events:
        if event.get("event") == "start":
            if event.get("log") != LOG_VERSION or not isinstance(event.get("sheet"), dict):
                raise ReplayError(f"step {event.get('seq')}: this log was not written to be replayed "
                                  f"(its start has no run-log version {LOG_VERSION} and sheet; write it again "
                                  "with dtc play --log)")
            return event
        if event.get("event") != "manual":
            break
    raise ReplayError("the log has no start event")


#: What a log that records some kinds only (``recorded``) leaves out of the comparison: its own
#: numbering, the dice (they are played, so they agree or the run does not), the words an option
#: is shown with, and what the writer words or counts its own way (the start's sheet and seed, the
#: end's reason and treasure).
_LEFT_OUT = frozenset({"seq", "faces", "label"})
_LEFT_OUT_OF = {"start": frozenset({"seed", "character", "log", "sheet", "made", "rulings", "recorded"}),
                "end": frozenset({"reason", "treasure"})}


def _carried(start: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The start's ``carried`` (``dtc play --with``): (name, count) pairs; empty when absent."""
    got = start.get("carried", [])
    if not isinstance(got, list) or not all(
            isinstance(c, dict) and isinstance(c.get("name"), str) and c["name"]
            and isinstance(c.get("amount"), int) and not isinstance(c["amount"], bool) and c["amount"] > 0
            for c in got):
        raise ReplayError(f"step {start.get('seq')}: carried is not a list of names with a count above 0")
    return [(c["name"], c["amount"]) for c in got]


def recorded_kinds(start: Mapping[str, Any]) -> frozenset[str] | None:
    """The event kinds a log records, when its ``start`` says (``recorded``: the web edition's
    "Download this run" writes the kinds the page plays itself); None: every event (``dtc play --log``).
    A replay of such a log compares this dtc's events of those kinds only, on the fields the log has."""
    kinds = start.get("recorded")
    if kinds is None:
        return None
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise ReplayError(f"step {start.get('seq')}: recorded is not a list of event kinds")
    return frozenset(kinds) | {"start", "end"}


def _compared(theirs: Mapping[str, Any]) -> list[str]:
    left_out = _LEFT_OUT | _LEFT_OUT_OF.get(str(theirs.get("event")), frozenset())
    return [k for k in theirs if k not in left_out]


def _agrees(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> bool:
    return all(k in mine and mine[k] == theirs[k] for k in _compared(theirs))


def _as_recorded(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any]:
    """``theirs`` with what the comparison leaves out taken as this dtc has it (to name what differed)."""
    kept = set(_compared(theirs))
    return {k: theirs[k] if k in kept else mine.get(k) for k in (*theirs, *(k for k in mine if k not in theirs))
            if k in kept or k in mine}


def _differs(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> str:
    if mine.get("event") != theirs.get("event"):
        return f"this dtc reports {mine.get('event')!r} where the log has {theirs.get('event')!r}"
    fields = [k for k in (*theirs, *(k for k in mine if k not in theirs)) if mine.get(k) != theirs.get(k)]
    parts = [f"{k}: log {_short(theirs.get(k))}, this dtc {_short(mine.get(k))}" for k in fields[:4]]
    return f"{mine.get('event')}: " + "; ".join(parts)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def replay(graph: CompiledGraph, events: Sequence[Mapping[str, Any]],
           rules_for: Callable[[Mapping[str, str]], Rules]) -> Replayed:
    """Play the run ``events`` records again on ``graph`` (see the module's docstring).

    ``rules_for(rulings)`` gives the book's rules with the log's rulings. Raises
    :class:`ReplayError` for a log that is not a replayable run log."""
    from dtc.compiled.schema import SchemaError, validate
    from dtc.runtime.character import Character, CharacterError
    from dtc.runtime.dice import Dice
    from dtc.runtime.engine import Engine

    start = start_event(events)
    if start.get("title") != graph.get("title"):
        raise ReplayError(f"the log was played on {start.get('title')!r}; this book is {graph.get('title')!r}")
    rulings = start.get("rulings") or {}
    if not isinstance(rulings, dict):
        raise ReplayError(f"step {start.get('seq')}: rulings is not a table")
    base = rules_for({})
    if base.name != start.get("rules"):  # before the rulings: another system's are not this one's
        raise ReplayError(f"the log was played under {start.get('rules')!r}; this book's rules are {base.name!r}")
    chosen = {str(k): str(v) for k, v in rulings.items()}
    unknown = sorted(set(chosen) - set(base.rulings))  # (a reading the rules do not have: rules_for says so)
    if unknown:
        raise ReplayError(f"step {start.get('seq')}: rulings: {base.name} has no ruling {unknown[0]!r} (its rulings: "
                          f"{', '.join(sorted(base.rulings)) or 'none'})")
    rules = rules_for(chosen)
    if rules.name != start.get("rules"):
        raise ReplayError(f"the log was played under {start.get('rules')!r}; this book's rules are {rules.name!r}")
    faces: list[Face] = []
    for event in events:
        got = event.get("faces", [])
        if not isinstance(got, list) or not all(isinstance(f, list) and len(f) == 2 and _face(f[0], f[1])
                                                for f in got):
            raise ReplayError(f"step {event.get('seq')}: faces is not a list of [sides, face] pairs "
                              "(a face from 1 to its sides, or a number in [0, 1) for sides 0)")
        faces.extend(got)
    compared = [0]
    seed = start.get("seed")
    dice = Dice(seed if isinstance(seed, int) else 0)  # (another seed differs at the start event)
    source = ScriptedRandom(faces, lambda: compared[0])
    dice._rng = source  # type: ignore[assignment]
    if not start.get("made"):
        try:  # Character.from_dict takes a sheet its schema accepts (as a character file is read)
            validate(start["sheet"], "character")
        except SchemaError as exc:
            raise ReplayError(f"step {start.get('seq')}: sheet: {exc}") from None
    try:
        pc = rules.new_character(dice) if start.get("made") else Character.from_dict(dict(start["sheet"]))
    except CharacterError as exc:
        raise ReplayError(f"step {start.get('seq')}: sheet: {exc}") from None
    except Divergence as exc:
        return Replayed(0, "", exc)

    kinds = recorded_kinds(start)

    def compare(event: dict[str, Any]) -> None:
        if kinds is not None and event.get("event") not in kinds:
            return  # a kind the log does not record (the web edition's: what the page plays itself)
        n = compared[0]
        if n >= len(events):
            raise Divergence(n, f"this dtc goes on ({event.get('event')}) after the log's run ended")
        theirs = events[n]
        if event != theirs if kinds is None else not _agrees(event, theirs):
            raise Divergence(int(theirs.get("seq", n)), _differs(event, theirs) if kinds is None
                             else _differs(event, _as_recorded(event, theirs)))
        compared[0] = n + 1

    carried = _carried(start)
    if carried:  # ``dtc play --with``: what the run carried in, after the book's ``Start with:``
        more: dict[str, Any] = dict(graph)
        more["start_with"] = [*graph.get("start_with", ()), *({"name": n, "amount": k} for n, k in carried)]
        more["format_version"] = max(int(graph["format_version"]), 3)
        graph = cast("CompiledGraph", more)
    player = ReplayPlayer(events, lambda: compared[0])
    first = start.get("start")
    end = events[-1] if events[-1].get("event") == "end" else {}
    limit = _TURN_LIMIT.fullmatch(str(end.get("reason", ""))) if end.get("outcome") == "stopped" else None
    engine = Engine(graph, pc, player, dice=dice, rules=rules,
                    start=first if isinstance(first, int) else None,
                    max_turns=int(limit.group(1)) if limit else _NO_LIMIT,
                    sinks=[LogWriter(compare, source)], made=bool(start.get("made")), carried=carried)
    try:
        outcome = engine.run()
    except Divergence as exc:
        if not end and compared[0] >= len(events):
            # A log cut short (no end event) agreed to its last line: what this dtc does next (its
            # next event, the dice drawn for it) is what the log never got to record.
            return Replayed(compared[0], "", unfinished=True)
        return Replayed(compared[0], "", exc)
    except LogEnds:
        if compared[0] < len(events):
            nxt = events[compared[0]]
            return Replayed(compared[0], "", Divergence(
                int(nxt.get("seq", compared[0])), f"this dtc asks a question where the log has {nxt.get('event')!r}"))
        return Replayed(compared[0], "", unfinished=True)
    if kinds is not None and source.left:
        return Replayed(compared[0], outcome.line(), Divergence(
            int(events[-1].get("seq", compared[0])), f"the log rolled {source.left} more dice than this dtc did"))
    if compared[0] < len(events):
        nxt = events[compared[0]]
        return Replayed(compared[0], outcome.line(), Divergence(
            int(nxt.get("seq", compared[0])), f"this dtc's run ended ({outcome.line()}), where the log goes on "
                                              f"with {nxt.get('event')!r}"))
    return Replayed(compared[0], outcome.line())
