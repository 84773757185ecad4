"""A generic base for a small game system: a check is one roll, high or under; the rest is default.

:class:`GenericRules` is a complete :class:`dtc.runtime.ruleset.Rules`: a subclass names its
abilities and says how a check is rolled — :meth:`GenericRules.roll_high` (``d20 + bonus ≥ 15``)
or :meth:`GenericRules.roll_under` (``3d6 ≤ score``), each with its exact chance — and gets the
rest: D0 needs nothing and every other difficulty of the ruleset a check; an adventurer is rolled
(``score_dice`` for each ability, ``hp_dice`` HP, nothing carried); a wandering encounter comes
on a 1 in 6 when a turn is spent and is fought at once; a fight is rounds of the adventurer's
attack (a check of :attr:`GenericRules.attack_ability`, hitting for ``damage_dice``) and each
creature's attacks with its own dice; a rest is a turn that heals ``rest_dice``. Override any of
them to make the system more its own.

A minimal system is then one small package (or module): a :class:`dtc.systems.base.Ruleset` for
the compiler, the linter and the odds, a :class:`GenericRules` subclass for play, and the
:class:`dtc.systems.base.System` record that registers both (``tests/plugins/dtc_knave_test``
and ``tests/test_d20_system.py`` are two).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import product
from typing import TYPE_CHECKING

from dtc.runtime.character import Character
from dtc.runtime.dice import Dice, percent
from dtc.runtime.foes import MAX_ROUNDS, Foe
from dtc.runtime.ruleset import FLED, WON, Rules

if TYPE_CHECKING:
    from dtc.runtime.core import Chooser
    from dtc.runtime.game import Game


@cache
def sums(count: int, sides: int) -> dict[int, Fraction]:
    """The exact distribution of the total of ``count`` dice of ``sides`` sides."""
    totals: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=count):
        totals[sum(faces)] = totals.get(sum(faces), 0) + 1
    n = sides**count
    return {t: Fraction(k, n) for t, k in totals.items()}


def _dice(expr: str) -> tuple[int, int]:
    count, _, sides = expr.lower().partition("d")
    return int(count or 1), int(sides)


def chance_high(expr: str, bonus: int, target: int) -> Fraction:
    """P(``expr`` + ``bonus`` ≥ ``target``), exactly (``expr`` such as ``d20`` or ``2d6``)."""
    return sum((p for total, p in sums(*_dice(expr)).items() if total + bonus >= target), Fraction(0))


def chance_under(expr: str, score: int) -> Fraction:
    """P(``expr`` ≤ ``score``), exactly."""
    return sum((p for total, p in sums(*_dice(expr)).items() if total <= score), Fraction(0))


class GenericRules(Rules):
    """Play rules with every procedure but the check given a default (see the module doc)."""

    name = "generic"
    title = "Generic rules"
    abilities: tuple[str, ...] = ("STR", "DEX", "WIL")
    character_kind = "generic"
    #: The difficulties a choice may name; 0 needs nothing, any other one check.
    difficulties: tuple[int, ...] = (0, 1)
    #: How each ability's score is rolled for a new adventurer, and their HP.
    score_dice = "3d6"
    hp_dice = "d8"
    #: The ability a fight's attack is a check of, and what a hit does.
    attack_ability = "STR"
    damage_dice = "d6"
    rest_dice = "d4"
    #: A wandering encounter comes on 1 in this many, when a turn is spent.
    encounter_in = 6

    # --- the check: a subclass says how it is rolled -------------------------------------

    def target(self, score: int, difficulty: int) -> tuple[str, int, bool]:
        """How a check of ``score`` at ``difficulty`` is rolled: (dice, number, high). ``high``:
        dice + :meth:`bonus` ≥ number (roll high); else dice ≤ score - number (roll under). The
        default rolls under: ``3d6 ≤ score``, one less per difficulty above 1."""
        return self.roll_under("3d6", difficulty - 1)

    def bonus(self, score: int) -> int:
        """What a score adds to a roll-high check (the score itself unless a system says otherwise)."""
        return score

    def roll_high(self, dice: str, target: int) -> tuple[str, int, bool]:
        """For :meth:`target`: dice + bonus ≥ ``target``."""
        return dice, target, True

    def roll_under(self, dice: str, penalty: int = 0) -> tuple[str, int, bool]:
        """For :meth:`target`: dice ≤ score - ``penalty``."""
        return dice, penalty, False

    def plans(self, difficulty: int) -> list[tuple[str, ...]] | None:
        if difficulty not in self.difficulties:
            return None
        return [()] if difficulty == 0 else [("check",)]

    def check_chance(self, pc: Character, ability: str, difficulty: int) -> Fraction:
        if difficulty == 0:
            return Fraction(1)
        score = pc.score(ability)
        dice, number, high = self.target(score, difficulty)
        return chance_high(dice, self.bonus(score), number) if high else chance_under(dice, score - number)

    def check_text(self, pc: Character, ability: str, difficulty: int) -> str:
        score = pc.score(ability)
        dice, number, high = self.target(score, difficulty)
        words = (f"{dice} {self.bonus(score):+d} ({ability} {score}) ≥ {number}" if high
                 else f"{dice} ≤ {ability} {score - number}")
        return f"{words}: {percent(self.check_chance(pc, ability, difficulty))}"

    def check(self, game: Game, ability: str, difficulty: int | None, why: str) -> bool:
        level = difficulty or 1
        score = game.pc.score(ability)
        dice, number, high = self.target(score, level)
        roll = game.dice.roll(dice)
        total = roll.total + self.bonus(score) if high else roll.total
        ok = total >= number if high else total <= score - number
        game.emit("check", ability=ability, difficulty=level, dice=dice, rolls=[list(roll.dice)], total=total,
                  target=number if high else score - number, success=ok, why=why)
        return ok

    # --- the adventurer --------------------------------------------------------------------

    def new_character(self, dice: Dice) -> Character:
        abilities = {a: dice.roll(self.score_dice).total for a in self.abilities}
        hp = max(1, dice.roll(self.hp_dice).total)
        return Character("Adventurer", abilities, hp, hp, [], ruleset=self.character_kind)

    def create_character(self, dice: Dice, chooser: Chooser) -> Character:
        return self.new_character(dice)

    # --- time and rest -----------------------------------------------------------------------

    def begin(self, game: Game) -> None:
        pass

    def turn_passed(self, game: Game) -> None:
        pass

    def rest_blocked(self, game: Game) -> str | None:
        return None if game.pc.hp < game.pc.max_hp else "you are not hurt"

    def rest(self, game: Game) -> str | None:
        why = self.rest_blocked(game)
        if why is not None:
            return why
        game.spend_turn("rest")
        game.heal(game.dice.roll(self.rest_dice).total, "a rest")
        return None

    def rest_label(self, game: Game) -> str:
        return f"Rest a turn ({self.rest_dice} HP)"

    # --- encounters and combat ---------------------------------------------------------------

    def encounter_happens(self, game: Game) -> bool:
        return game.dice.roll(f"d{self.encounter_in}").total == 1

    def encounter(self, game: Game, foes: list[Foe], text: str) -> str:
        return self.fight(game, foes)

    def fight(self, game: Game, foes: list[Foe], *, surprised: bool = False) -> str:
        for _ in range(MAX_ROUNDS):
            target = next(self._standing(foes), None)
            if target is None:
                return WON
            if self.check(game, self.attack_ability, 1, f"attack {target.name}"):
                target.hp -= max(1, game.dice.roll(self.damage_dice).total)
            for foe in self._standing(foes):
                for _attack, damage in foe.attacks:
                    game.damage(max(0, game.dice.roll(damage).total), foe.name)
        if next(self._standing(foes), None) is None:
            return WON
        return FLED

    @staticmethod
    def _standing(foes: list[Foe]) -> Iterator[Foe]:
        return (f for f in foes if f.active)
