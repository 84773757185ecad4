"""Death & Treasure v0.1 — the default ruleset.

Seed: ``death-and-treasure-v0.1.txt``, "Ability Scores" and "Taking Action". Six abilities
rolled 3d6; the notation's ``D0``–``D3`` is how many of {spend a turn, use gear, pass a check}
the adventurer must meet, and the check is 2d6/3d6/4d6 rolled equal to or under the ability.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from dtc.probability import worse_of_two
from dtc.systems.base import Ruleset
from dtc.systems.distributions import p_sum_at_most

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
    difficulty_notes={
        0: "no requirement",
        1: "one of: spend a turn, use appropriate gear, pass a 2d6 check (≤ ability)",
        2: "two of: spend a turn, use appropriate gear, pass a 3d6 check (≤ ability)",
        3: "all three: spend a turn, use appropriate gear, pass a 4d6 check (≤ ability)",
    },
    doc="docs/rulesets/death-and-treasure.md",
    sections=(
        ("Abilities", ("3d6 in order: STR DEX CON WIS INT CHA, one swap; above 13 or below 8 each has "
                       "an effect (attacks, Defense, HP, surprise, languages, reactions)",)),
        ("Character", ("HP d8 (+1 with CON above 13); Defense 9 + armour + STR/DEX modifiers",
                       "carry weight up to STR; over it, every roll twice and keep the worse",
                       "treasure goes in sacks (small: weight 5, large: 10) or the backpack once its kit is "
                       "dumped (6)")),
        ("Combat", ("d6 initiative each round; attack d20 ≤ STR (hand-to-hand) or DEX (ranged), the "
                    "weapon's die; creatures hit unless d20 ≤ Defense",
                    "morale: 2d6 < Morale flees, when first hurt and below half HP (ruling: "
                    "[morale: above] flees on 2d6 > Morale)",
                    "a thrown flask of oil: d6, and the target burns one more round (d6)",
                    "a creature whose Special swallows: DEX check when it hits, 1d4 a round inside, 4+ damage "
                    "cuts you out")),
        ("Encounters", ("1-in-6 each turn spent; surprise 2-in-6; reaction 2d6: 2–4 attack, 5–9 neutral, "
                        "10–12 friendly; flee with a DEX check",
                        "dropped food distracts unintelligent creatures, treasure intelligent ones (3-in-6)",
                        "groups fighting each other ignore you: slip past or join in against one")),
        ("Recovery", ("a turn of rest: d4 HP with a ration and a waterskin, up to 3 times a day",
                      "a lantern burns 24 turns a flask; six turns in the dark and you are lost")),
        ("Rulings (a book picks one: Rules: death-and-treasure [morale: above]; a run: --ruling morale=above)", (
            "morale: below (2d6 < Morale flees, as written) | above (2d6 > Morale flees)",
            "cha-reaction: as-written (CHA above 13: −1 to reactions) | helps (+1)",
            "same-room: turn (every entry read costs a turn) | free (not an action's result entry)",
            "swallow-cut: blow (one blow of 4 or more cuts you out) | total (your blows from inside, added up)")),
    ),
)
