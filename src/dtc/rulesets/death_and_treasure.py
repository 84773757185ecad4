"""Death & Treasure v0.1 — the default ruleset.

Seed: ``death-and-treasure-v0.1.txt``, "Ability Scores" and "Taking Action". Six abilities
rolled 3d6; the notation's ``D0``–``D3`` is how many of {spend a turn, use gear, pass a check}
the adventurer must meet, and the check is 2d6/3d6/4d6 rolled equal to or under the ability.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from dtc.rulesets.base import Ruleset
from dtc.rulesets.dice import p_sum_at_most, worse_of_two

_ABILITIES = {
    "STR": ("STRENGTH",),
    "DEX": ("DEXTERITY",),
    "CON": ("CONSTITUTION",),
    "WIS": ("WISDOM",),
    "INT": ("INTELLIGENCE",),
    "CHA": ("CHARISMA",),
}



@dataclass(frozen=True)
class DeathAndTreasure(Ruleset):
    """Checks roll (difficulty + 1)d6 and succeed at or under the ability score."""

    def check_dice(self, difficulty: int) -> str:
        return f"{difficulty + 1}d6" if difficulty > 0 else "none"

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        if difficulty <= 0:
            return Fraction(1)
        if ability is None:
            score = max(abilities.values(), default=10)
        else:
            score = abilities.get(self.canonical_ability(ability) or ability, 10)
        p = p_sum_at_most(difficulty + 1, score)
        return worse_of_two(p) if encumbered else p


DEATH_AND_TREASURE = DeathAndTreasure(
    name="death-and-treasure",
    title="Death & Treasure",
    abilities={alias: name for name, aliases in _ABILITIES.items() for alias in (name, *aliases)},
    difficulties=(0, 1, 2, 3),
    source="death-and-treasure-v0.1.txt: Taking Action",
)
