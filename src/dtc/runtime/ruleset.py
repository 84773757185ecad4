"""The interface between the engine and a rule system.

The engine knows the graph (entries, choices, exits, effects), time (turns), HP, items and the
player; everything that depends on a particular game — how a check is rolled, what a difficulty
asks of the adventurer, encounters, combat, light, rest — sits behind :class:`Rules`.
Each game system implements it in its own package (``dtc.systems.<name>.play``) and registers it
with :mod:`dtc.systems`, which builds the rules for a ``Rules:`` value
(:func:`dtc.systems.play_rules`); the Dungeon Rules overlay wraps any base (``X + dungeon-rules``).
The runtime never imports a system: whoever builds an :class:`~dtc.runtime.engine.Engine` passes
its rules in.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING

from dtc.compiled.graphjson import Entry
from dtc.runtime.character import Character
from dtc.runtime.core import RunEnded
from dtc.runtime.dice import Dice, Roll
from dtc.runtime.equipment import Item

if TYPE_CHECKING:
    from dtc.runtime.core import Chooser
    from dtc.runtime.foes import Foe
    from dtc.runtime.game import Game
    pass  # moved imports

# Results of an encounter or a fight.
OVER = "over"  # the creatures leave you be
FLED = "fled"  # the adventurer ran (back to the previous entry)
WON = "won"  # every enemy is dead or has fled


class Rules(ABC):
    """A rule system as the runtime needs it."""

    name: str
    title: str
    abilities: tuple[str, ...]
    #: The ruleset of the characters these rules play (``Character.ruleset``).
    character_kind: str = "death-and-treasure"
    #: True for an overlay wrapping a base (Dungeon Rules), which then owns time and rest.
    overlay: bool = False
    #: The book's rulings (``Rules: name [ruling: reading]``), set by ``dtc.systems.play_rules``.
    rulings: Mapping[str, str] = MappingProxyType({})

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
    def check(self, game: Game, ability: str, difficulty: int | None, why: str) -> bool:
        """Roll the check (``difficulty`` None: the ruleset's default for prose checks)."""

    def pc_roll(self, game: Game, expr: str, *, high_is_bad: bool) -> tuple[Roll, list[Roll]]:
        """A roll made for the adventurer: the roll kept and every roll made."""
        roll = game.dice.roll(expr)
        return roll, [roll]

    def pc_total(self, game: Game, expr: str, *, high_is_bad: bool) -> int:
        """``pc_roll(...)[0].total``: the same dice drawn in the same order, for a caller that shows
        no rolls (no sink reads the event they would go in)."""
        return self.pc_roll(game, expr, high_is_bad=high_is_bad)[0].total

    def difficulty_text(self, difficulty: int) -> str:
        """What a difficulty asks, for the menu: read from :meth:`plans` (``two of turn / gear / check``)."""
        plans = self.plans(difficulty) or []
        known: dict[tuple[tuple[str, ...], ...], str] = self.__dict__.setdefault("_difficulty_texts", {})
        key = tuple(plans)
        text = known.get(key)
        if text is None:
            text = known[key] = self._difficulty_words(plans)
        return text

    @staticmethod
    def _difficulty_words(plans: list[tuple[str, ...]]) -> str:
        if plans in ([()], [], [("check",)]):
            return ""
        sizes = {len(p) for p in plans}
        needs = sorted({n for p in plans for n in p}, key=("turn", "gear", "check").index)
        if len(plans) == 1:
            return " + ".join(needs)
        count = {1: "one", 2: "two", 3: "three"}.get(min(sizes), str(min(sizes)))
        return f"{count} of {' / '.join(needs)}"

    def choice_odds(self, pc: Character, ability: str, difficulty: int, label: str) -> tuple[str, Fraction]:
        """Words and exact chance of a choice's check (``label`` matters where a Path gives advantage)."""
        return self.check_text(pc, ability, difficulty), self.check_chance(pc, ability, difficulty)

    def odds_key(self, pc: Character, ability: str | None) -> Hashable | None:
        """Everything about ``pc`` that a choice's check of ``ability`` reads for its odds and words
        (:meth:`choice_odds`; an ability these rules do not have: :meth:`best_ability`,
        :meth:`check_chance` and :meth:`check_text`), as one hashable value: a menu's check option
        is then worked out once per distinct value and reused. None (the default): not said; the
        option is worked out at every menu."""
        return None

    def best_ability(self, pc: Character, difficulty: int) -> str:
        return max(self.abilities, key=lambda a: (self.check_chance(pc, a, difficulty), -self.abilities.index(a)))

    # --- the adventurer --------------------------------------------------------------------

    def fits(self, pc: Character) -> bool:
        """Whether ``pc`` was made for these rules."""
        return pc.ruleset == self.character_kind

    @abstractmethod
    def new_character(self, dice: Dice) -> Character:
        """A random adventurer for these rules (the system's own way of making one)."""

    @abstractmethod
    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        """An adventurer made by these rules' creation steps, the decisions the ``chooser``'s."""

    def kit(self) -> list[Item]:
        """What every new adventurer of these rules carries, whatever was rolled or chosen (Death &
        Treasure: the standard kit): the items a book's ``if rope`` finds on a fresh adventurer
        (:func:`dtc.runtime.inventory.kit_holdings`). None by default."""
        return []

    def finish_character(self, pc: Character, dice: Dice) -> list[str]:
        """Add what an overlay's rules give a new character (Dungeon Rules: its scores); what was rolled."""
        return []

    def down(self, game: Game, cause: str, overflow: int = 0) -> None:
        """HP reached 0 (``overflow``: the damage beyond it): death, unless the rules say otherwise."""
        game.emit("death", cause=cause)
        raise RunEnded("died", cause)

    def arrival_costs_turn(self, game: Game, how: str, plan: tuple[str, ...] | None) -> bool:
        """Whether reading the entry reached ``how`` (after an action needing ``plan``) costs a turn."""
        return True

    def on_entry(self, game: Game, entry: Entry) -> None:  # noqa: B027 - optional hook
        """After an entry's effects: what the rules add on arrival (Dungeon Rules: its hazards)."""

    def gear_used(self, game: Game, item: str) -> None:  # noqa: B027 - optional hook
        """The adventurer used gear for an action (Dungeon Rules: tools make noise)."""

    def rest_label(self, game: Game) -> str:
        return "Rest a turn (d4 HP)"

    def recover(self, game: Game, kind: str) -> None:
        """The base game's part of a Dungeon Rules rest: ``short`` or ``long`` (time is the overlay's).

        The default, Death & Treasure's: a short rest is one rest's d4 HP with a ration and a
        waterskin; a long rest (a night) restores every HP and eats a ration.
        """
        from dtc.runtime.equipment import RATIONS

        pc = game.pc
        if kind == "long":
            if pc.use(RATIONS):
                game.emit("item", action="used", name=RATIONS, quantity=1, why="a night's ration")
            game.heal(pc.max_hp - pc.hp, "a long rest")
        elif kind == "short" and pc.can_rest:
            if not game.reads("rest"):  # the same dice, no rolls built for an event nobody reads
                total = self.pc_total(game, "d4", high_is_bad=False)
                game.skip("rest")
                game.heal(total, "a short rest")
                return
            roll, rolls = self.pc_roll(game, "d4", high_is_bad=False)
            game.emit("rest", rolls=[list(r.dice) for r in rolls], rests_today=0)
            game.heal(roll.total, "a short rest")

    # --- time ----------------------------------------------------------------------------

    @abstractmethod
    def begin(self, game: Game) -> None:
        """Set up the ruleset's part of a new run's state (``game.state.rules``)."""

    @abstractmethod
    def turn_passed(self, game: Game) -> None:
        """Upkeep after each turn (light, the dark); may raise RunEnded."""

    def can_see(self, game: Game) -> bool:
        """False when the adventurer cannot move on (in the dark)."""
        return True

    def status(self, game: Game) -> str:
        """Ruleset-specific part of the status line."""
        return ""

    def session_end(self, game: Game, outcome: str) -> None:  # noqa: B027 - optional hook
        """The run is over (``outcome``: escaped, died, ...): rules that award something for a session do it here."""

    def adjust(self, game: Game, words: list[str]) -> str | None:
        """A ruleset-specific manual adjustment (``light 6``); None when not understood."""
        return None

    @abstractmethod
    def rest_blocked(self, game: Game) -> str | None:
        """Why the adventurer cannot rest now, or None when they can."""

    def can_rest_now(self, game: Game) -> bool:
        """``rest_blocked(game) is None`` (the menu asks only whether; rules may answer sooner)."""
        return self.rest_blocked(game) is None

    @abstractmethod
    def rest(self, game: Game) -> str | None:
        """Rest for a turn; None when done, else why it is not possible."""

    # --- encounters and combat --------------------------------------------------------------

    @abstractmethod
    def encounter_happens(self, game: Game) -> bool:
        """Roll for a wandering encounter (called when a turn is spent)."""

    @abstractmethod
    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        """Surprise, reaction and what the adventurer does: OVER, FLED or WON."""

    @abstractmethod
    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
        """Fight to the end: WON or FLED (death raises RunEnded)."""


def careful(game: Game) -> bool:
    """The temperament of whoever decides (automatic policies say; a person counts as careful).

    Questions only some rulesets ask (a stance, a pace, shattering a shield) put the option a
    player of this temperament would take first, so a policy that does not know them picks it.
    """
    player = getattr(game.player, "fallback", None) or game.player
    return bool(getattr(player, "careful", True))
