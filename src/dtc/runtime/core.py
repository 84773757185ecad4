"""What the engine, the rules and the players share: questions, options, outcomes.

The engine never reads a keyboard. Whenever the adventurer must decide something it builds a
:class:`Question` and asks its :class:`Player` — a person at a terminal, a script, or an automatic
policy — which answers with the index of an :class:`Option`. Everything that happens is reported as
an event (a flat dict) to the engine's sinks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from dtc.outcomes import RUN_OUTCOMES, run_line

if TYPE_CHECKING:
    from dtc.runtime.character import Character
    from dtc.runtime.engine import Engine
    from dtc.runtime.equipment import Offer

Event = dict[str, Any]

# Question kinds.
MENU = "menu"  # what to do at an entry (choices and commands)
PLAN = "plan"  # which of turn / gear / check meet a difficulty
GEAR = "gear"  # which piece of gear to use
GEAR_OK = "gear-ok"  # is that gear appropriate? (yes / no / ask the Oracle)
ABILITY = "ability"  # which ability a check without one uses
ORACLE = "oracle"  # how likely a yes is (1-in-6 .. 4-in-6)
ENCOUNTER = "encounter"  # fight, talk, flee or carry on
LANGUAGE = "language"  # do you share a language with the creatures?
ESCAPE = "escape"  # run, or drop food or treasure to distract
COMBAT = "combat"  # attack with which weapon, or try to escape
TARGET = "target"  # which enemy to attack
TAKE = "take"  # take what you found?
LOSE = "lose"  # which of your possessions do you give up? ([-1 item of choice])
DROP = "drop"  # a container past its limit (Limits: backpack 8 (choose)): which do you drop?
WON = "won"  # a fight the rules cannot resolve: did you win?


@dataclass(frozen=True, slots=True)
class Option:
    """One answer. ``key`` is stable and machine-readable (``choice:2``, ``rest``, ``attack:Sword:ranged``)."""

    key: str
    label: str
    detail: str = ""
    #: Chance of success when the engine knows it (exact).
    chance: Fraction | None = None
    #: Entry the option leads to, when known (auto players plan with it).
    target: int | None = None
    tags: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Question:
    kind: str
    prompt: str
    options: tuple[Option, ...]
    #: Extra facts for players (e.g. the check's label, the creatures met).
    info: dict[str, Any] = field(default_factory=dict)

    def index(self, key: str) -> int | None:
        return next((n for n, o in enumerate(self.options) if o.key == key), None)


class Player(Protocol):
    """Makes the adventurer's decisions."""

    def decide(self, question: Question, game: Engine) -> int:
        """Index into ``question.options``."""
        ...

    def text(self, prompt: str, game: Engine) -> str:
        """Free text (manual adjustments: ``hp -2``, ``item stone key``); '' for none."""
        ...


#: Callable[[Event], None]; kept loose so bound methods and lambdas both fit. A sink with a ``kinds``
#: attribute (a set of event names) is sent only those events; the engine then builds no event
#: that no sink reads (a simulation counts entries and skips the rest). Such a sink that reads
#: ``entry`` and has an ``arrived(number)`` method is told each entry read that way instead, by
#: its number alone (no event is built: the simulation's count of the entries read).
Sink = Any

OUTCOMES = RUN_OUTCOMES


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended."""

    kind: str
    entry: int | None
    turn: int
    reason: str
    treasure: int = 0
    #: For an ``ended`` run: the ending's kind, ``"death"``, ``"victory"``, or None (unstated).
    ending_kind: str | None = None

    def line(self) -> str:
        """The one-line summary every run ends with (words from :mod:`dtc.outcomes`)."""
        return run_line(self.kind, self.entry, self.turn, self.reason, self.treasure, self.ending_kind)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "entry": self.entry, "turn": self.turn, "reason": self.reason,
                "treasure": self.treasure} | ({"ending_kind": self.ending_kind} if self.ending_kind else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(data["kind"], data["entry"], data["turn"], data["reason"], data.get("treasure", 0),
                   data.get("ending_kind"))


class RunEnded(Exception):
    """Raised anywhere in a procedure to end the run (death, lost, a broken exit...)."""

    def __init__(self, kind: str, reason: str, ending_kind: str | None = None) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason
        self.ending_kind = ending_kind


ORACLE_ODDS = (
    (1, "Unlikely"),
    (2, "Possible"),
    (3, "Probable"),
    (4, "Almost certain"),
)


_ORACLE_OPTIONS = tuple(Option(f"odds:{n}", f"{name} ({n}-in-6)", chance=Fraction(n, 6)) for n, name in ORACLE_ODDS)


def oracle_options() -> tuple[Option, ...]:
    """The Oracle's odds as options (made once: options are immutable)."""
    return _ORACLE_OPTIONS


class Chooser(Protocol):
    """Where creation decisions come from."""

    def show(self, text: str) -> None:
        """Tell the player something (rolled scores, the finished sheet)."""

    def swap(self, scores: dict[str, int]) -> tuple[str, str] | None:
        """Two abilities to swap, or None."""

    def pick(self, stage: str, pc: Character, offers: list[Offer], labels: list[str], prompt: str) -> int | None:
        """Index into ``offers`` for the ``stage`` (weapon, armour, gear), or None when done."""

    def name(self, suggestion: str) -> str:
        """The adventurer's name."""

    def choose(self, prompt: str, options: list[str]) -> int:
        """Index into ``options``: a choice another ruleset's creation asks for (a feature, a class)."""
