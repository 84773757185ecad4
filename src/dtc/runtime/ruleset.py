"""The interface between the engine and a rule system.

The engine knows the graph (entries, choices, exits, effects), time (turns), HP, items and the
player; everything that depends on a particular game — how a check is rolled, what a difficulty
asks of the adventurer, encounters, combat, light, rest — sits behind :class:`Rules`.
Death & Treasure (:mod:`dtc.runtime.rules_dt`) is the one implementation today; Maze Rats or
Zilch would add a module and register it in :data:`RULES`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from dtc.runtime.character import Character
from dtc.runtime.dice import Roll

if TYPE_CHECKING:
    from dtc.runtime.combat import Foe
    from dtc.runtime.engine import Engine

# Results of an encounter or a fight.
OVER = "over"  # the creatures leave you be
FLED = "fled"  # the adventurer ran (back to the previous entry)
WON = "won"  # every enemy is dead or has fled


class Rules(ABC):
    """A rule system as the runtime needs it."""

    name: ClassVar[str]
    title: ClassVar[str]
    abilities: ClassVar[tuple[str, ...]]

    # --- taking action -----------------------------------------------------------------

    @abstractmethod
    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        """The ways to meet ``difficulty``: tuples of ``turn``, ``gear``, ``check``.

        ``[()]`` means no requirement; ``None`` means the difficulty is not in this ruleset.
        """

    @abstractmethod
    def check_chance(self, pc: Character, ability: str, difficulty: int) -> Fraction:
        """Exact chance that this adventurer passes the check."""

    @abstractmethod
    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        """The roll in words: ``3d6 ≤ DEX 12``."""

    @abstractmethod
    def check(self, game: Engine, ability: str, difficulty: int | None, why: str) -> bool:
        """Roll the check (``difficulty`` None: the ruleset's default for prose checks)."""

    def pc_roll(self, game: Engine, expr: str, *, high_is_bad: bool) -> tuple[Roll, list[Roll]]:
        """A roll made for the adventurer: the roll kept and every roll made."""
        roll = game.dice.roll(expr)
        return roll, [roll]

    def best_ability(self, pc: Character, difficulty: int) -> str:
        return max(self.abilities, key=lambda a: (self.check_chance(pc, a, difficulty), -self.abilities.index(a)))

    # --- time ----------------------------------------------------------------------------

    @abstractmethod
    def begin(self, game: Engine) -> None:
        """Set up the ruleset's part of a new run's state (``game.state.rules``)."""

    @abstractmethod
    def turn_passed(self, game: Engine) -> None:
        """Upkeep after each turn (light, the dark); may raise RunEnded."""

    def can_see(self, game: Engine) -> bool:
        """False when the adventurer cannot move on (in the dark)."""
        return True

    def status(self, game: Engine) -> str:
        """Ruleset-specific part of the status line."""
        return ""

    def adjust(self, game: Engine, words: list[str]) -> str | None:
        """A ruleset-specific manual adjustment (``light 6``); None when not understood."""
        return None

    @abstractmethod
    def rest(self, game: Engine) -> str | None:
        """Rest for a turn; None when done, else why it is not possible."""

    # --- encounters and combat --------------------------------------------------------------

    @abstractmethod
    def encounter_happens(self, game: Engine) -> bool:
        """Roll for a wandering encounter (called when a turn is spent)."""

    @abstractmethod
    def encounter(self, game: Engine, foes: list[Foe], text: str) -> str:
        """Surprise, reaction and what the adventurer does: OVER, FLED or WON."""

    @abstractmethod
    def fight(self, game: Engine, foes: list[Foe], *, surprised: bool = False) -> str:
        """Fight to the end: WON or FLED (death raises RunEnded)."""


def registry() -> dict[str, type[Rules]]:
    """Ruleset name -> implementation (imported lazily: the implementations import this module)."""
    from dtc.runtime.rules_dt import DeathAndTreasure

    return {DeathAndTreasure.name: DeathAndTreasure}


def get_rules(name: str | None) -> Rules:
    """The runtime rules for an adventure's ``rules`` value; overlays after ``+`` do not change play.

    Raises KeyError naming the base ruleset when the runtime has no rules for it.
    """
    key = (name or "").split("+")[0].strip().lower().replace(" ", "-").replace("_", "-") or "death-and-treasure"
    known = registry()
    if key not in known:
        raise KeyError(key)
    return known[key]()
