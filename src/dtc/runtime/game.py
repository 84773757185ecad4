"""What a game system's play rules may use of a running game: the small engine protocol.

A system's rules (:class:`dtc.runtime.ruleset.Rules`, implemented in ``dtc.systems.<name>.play``)
are handed the running game as a :class:`Game`, never the :class:`~dtc.runtime.engine.Engine`
class itself: this is everything they read and do — the adventurer, the dice, the run's state,
questions to the player, events, time, harm and healing, creatures, moves. The engine satisfies it
(mypy checks that wherever the engine passes itself to its rules), and a test double can too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from dtc.compiled.graphjson import CompiledGraph, Creature, Entry
    from dtc.runtime.character import Character
    from dtc.runtime.core import Option, Player, Question
    from dtc.runtime.dice import Dice
    from dtc.runtime.ruleset import Rules
    from dtc.runtime.state import GameState


class Game(Protocol):
    """A running game as the play rules see it."""

    graph: CompiledGraph
    pc: Character
    player: Player
    dice: Dice
    state: GameState
    rules: Rules
    #: Why the clock last moved (``move``, ``action``, ``wait``, ``rest``, ``combat``).
    clock_reason: str

    @property
    def entry(self) -> Entry:
        """The compiled entry the adventurer is at."""

    def emit(self, kind: str, **fields: Any) -> None:
        """Report an event to the run's sinks (log, terminal, statistics)."""

    def skip(self, kind: str) -> bool:
        """True when no sink reads events of ``kind`` (the event is counted as sent): a hot call
        site then builds no fields, ``if not game.skip(kind): game.emit(kind, ...)``."""

    def reads(self, kind: str) -> bool:
        """Whether some sink reads events of ``kind`` (counts nothing): when none does, a rule may
        draw the same dice without building what only the event would show."""

    def pick(self, kind: str, count: int) -> int | None:
        """The index a player answers a question of ``kind`` with ``count`` options by, when it
        needs only their number and nobody reads the decision; None: build the question and ask."""

    def ask(self, question: Question) -> Option:
        """Ask the player; the option chosen."""

    def clock(self, why: str) -> None:
        """A turn passes (no encounter check)."""

    def spend_turn(self, why: str) -> bool:
        """A turn passes with an encounter check; False when the adventurer fled elsewhere."""

    def damage(self, amount: int, cause: str) -> None:
        """The adventurer loses HP (the rules decide what 0 HP means)."""

    def heal(self, amount: int, cause: str) -> None:
        """The adventurer regains HP, up to the maximum."""

    def oracle(self, odds: int | None, question: str) -> bool:
        """A yes/no question to the Oracle (``odds`` in six; None: the player sets them)."""

    def block(self, name: str | None) -> Creature | None:
        """The compiled stat block of a creature, by name."""

    def go(self, target: int | str, how: str) -> None:
        """Decide a move, made at the next step."""

    def wandering(self) -> str:
        """Roll on the encounter table and meet what comes."""

    def flee(self) -> bool:
        """Run back to the previous entry (False when there is none)."""

    def choose_ability(self, difficulty: int | None, why: str) -> str:
        """Which ability a check that names none uses (asked of the player)."""
