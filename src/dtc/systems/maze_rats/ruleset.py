"""Maze Rats — danger rolls of 2d6 + an ability bonus, needing 10 or more.

Seed: ``maze-rats-core-rules.txt``. Three abilities are bonuses (+0 to +4), not scores: STR, DEX
and WIL. A danger roll is 2d6 + the bonus and avoids the danger on 10+ ("Danger Rolls");
*advantage* rolls 3d6 and keeps the best two ("Advantage").

How the notation maps (``docs/rulesets/maze-rats.md``):

* ``D0`` — no roll; the action is not risky.
* ``D1`` — a danger roll **with advantage**: "the risk of an action is reduced" by preparation
  or circumstance, which is what an easy check in a gamebook is.
* ``D2`` — a plain danger roll, the seed's default for a risky action.
* ``D3`` — a danger roll **at disadvantage**: 3d6 keeping the *worst* two. The seed defines only
  the helpful die; dtc mirrors it for the hardest checks, so that the three difficulties stay
  one mechanic. An advantage from a Path and a D3 disadvantage cancel into a plain roll.

Everything here is exact, by enumerating the 216 outcomes of 3d6.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import permutations, product

from dtc.systems.base import Ruleset
from dtc.systems.maze_rats.paths import FEATURE_DIE, favoured, feature_path

TARGET = 10
PLAIN, ADVANTAGE, DISADVANTAGE = "plain", "advantage", "disadvantage"
MODES = {1: ADVANTAGE, 2: PLAIN, 3: DISADVANTAGE}
DICE_TEXT = {PLAIN: "2d6", ADVANTAGE: "3d6 keep best 2", DISADVANTAGE: "3d6 keep worst 2"}
BASE_ARMOR = 6

_ABILITIES = {"STR": ("STRENGTH",), "DEX": ("DEXTERITY",), "WIL": ("WILL", "WILLPOWER")}

#: Monster & NPC stats by category (seed, "Monster & NPC Stats").
HEALTH = {"weak": "1d6", "typical": "2d6", "tough": "3d6", "hulking": "4d6", "colossal": "6d6"}
ARMOR = {"unarmored": 6, "light": 7, "moderate": 8, "heavy": 9, "nigh impervious": 10}
ATTACK_BONUS = {"untrained": 0, "trained": 1, "dangerous": 2, "masterful": 3, "lethal": 4}
STR_BONUS = {"weak": 0, "average": 1, "strong": 2, "powerful": 3, "monstrous": 4}
DEX_BONUS = {"slow": 0, "average": 1, "nimble": 2, "swift": 3, "blurred": 4}
WIL_BONUS = {"dimwitted": 0, "average": 1, "clever": 2, "brilliant": 3, "genius": 4}


def mode_for(difficulty: int, *, advantage: bool = False, no_advantage: bool = False) -> str:
    """The roll a difficulty asks for, with a Path's advantage (or heavy armour's lack of it)."""
    mode = MODES.get(difficulty, PLAIN)
    if advantage and not no_advantage:
        mode = {DISADVANTAGE: PLAIN, PLAIN: ADVANTAGE}.get(mode, mode)
    if no_advantage and mode == ADVANTAGE:
        mode = PLAIN
    return mode


def keep(dice: tuple[int, ...], mode: str) -> tuple[int, int]:
    """The two dice a roll keeps."""
    if mode == PLAIN:
        return dice[0], dice[1]
    ordered = sorted(dice, reverse=mode == ADVANTAGE)
    return ordered[0], ordered[1]


@cache
def kept_distribution(mode: str) -> dict[tuple[int, bool], Fraction]:
    """P(kept sum = s and the kept dice are double sixes) for a roll in ``mode``."""
    count = 2 if mode == PLAIN else 3
    ways: Counter[tuple[int, bool]] = Counter()
    for dice in product(range(1, 7), repeat=count):
        a, b = keep(dice, mode)
        ways[(a + b, a == b == 6)] += 1
    whole = 6**count
    return {k: Fraction(w, whole) for k, w in sorted(ways.items())}


@cache
def sum_distribution(mode: str) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (total, _), p in kept_distribution(mode).items():
        out[total] = out.get(total, Fraction(0)) + p
    return out


@lru_cache(maxsize=4096)  # exact odds, worked out once per distinct question
def p_at_least(bonus: int, target: int, mode: str = PLAIN) -> Fraction:
    """P(kept 2d6 + bonus >= target)."""
    return sum((p for s, p in sum_distribution(mode).items() if s + bonus >= target), Fraction(0))


def p_danger(bonus: int, mode: str = PLAIN) -> Fraction:
    """A danger roll: 2d6 (as ``mode`` keeps them) + bonus >= 10."""
    return p_at_least(bonus, TARGET, mode)


@lru_cache(maxsize=4096)
def p_opposed(actor: int, defender: int, actor_mode: str = PLAIN, defender_mode: str = PLAIN) -> Fraction:
    """An opposed danger roll: the actor must beat the defender's total (defenders win ties)."""
    theirs = sum_distribution(defender_mode)
    mine = sum_distribution(actor_mode)
    return sum((p * q for a, p in mine.items() for d, q in theirs.items() if a + actor > d + defender),
               Fraction(0))


def attack_damage(total: int, armor: int, *, double_six: bool, heavy: bool = False, unarmed: bool = False) -> int:
    """Damage of an attack total against armour: the difference, +1 heavy, -1 unarmed (not to 0),
    doubled on double sixes. 0 is a miss (the total must exceed the armour)."""
    if total <= armor:
        return 0
    damage = total - armor
    if heavy:
        damage += 1
    if unarmed:
        damage = max(1, damage - 1)
    return damage * 2 if double_six else damage


def attack_distribution(ab: int, armor: int, mode: str = PLAIN, *, heavy: bool = False,
                        unarmed: bool = False) -> dict[int, Fraction]:
    """P(damage = d) of one attack roll (d = 0: a miss)."""
    return dict(_attack_distribution(ab, armor, mode, heavy, unarmed))  # a copy: the caller may change it


@lru_cache(maxsize=4096)
def _attack_distribution(ab: int, armor: int, mode: str, heavy: bool, unarmed: bool) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (total, crit), p in kept_distribution(mode).items():
        d = attack_damage(total + ab, armor, double_six=crit, heavy=heavy, unarmed=unarmed)
        out[d] = out.get(d, Fraction(0)) + p
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class MazeRats(Ruleset):
    """Danger rolls: 2d6 + bonus >= 10; D1 with advantage, D3 at disadvantage."""

    def check_dice(self, difficulty: int) -> str:
        if difficulty <= 0:
            return "none"
        return f"{DICE_TEXT[MODES.get(difficulty, PLAIN)]} + bonus ≥ {TARGET}"

    def check_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """Maze Rats has no encumbrance penalty on rolls, so ``encumbered`` changes nothing."""
        if difficulty <= 0:
            return Fraction(1)
        return p_danger(self.score_of(abilities, ability), MODES.get(difficulty, PLAIN))

    def favoured_probability(
        self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *, encumbered: bool = False
    ) -> Fraction:
        """A danger roll the adventurer's Path favours: advantage (D2 rolls as D1, D3 as a plain roll)."""
        if difficulty <= 0:
            return Fraction(1)
        return p_danger(self.score_of(abilities, ability), mode_for(difficulty, advantage=True))

    def favoured_by(self, label: str) -> tuple[str, ...]:
        """The Paths whose words the label holds (:func:`dtc.systems.maze_rats.paths.favoured`)."""
        return favoured(label)

    def fresh_features(self) -> list[tuple[Fraction, str | None]]:
        """The feature's d6, rolled apart from the abilities: 1–2 +1 attack bonus (no Path), each
        Path on one face of 3–6."""
        chances: dict[str | None, Fraction] = {}
        for roll in range(1, FEATURE_DIE + 1):
            path = feature_path(roll)
            chances[path] = chances.get(path, Fraction(0)) + Fraction(1, FEATURE_DIE)
        return [(p, path) for path, p in chances.items()]

    def score_distribution(self, ability: str | None = None) -> dict[int, Fraction]:
        """Each starting array is one of the six orders of +2, +1, +0: any one bonus is 0, 1 or 2."""
        return {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}

    def fresh_characters(self) -> list[tuple[Fraction, dict[str, int]]]:
        """The six orders of +2, +1, +0 over STR, DEX, WIL, each 1 in 6 (the bonuses are dealt together:
        a fresh adventurer always has a +2 somewhere, so they are not independent)."""
        return [(Fraction(1, 6), dict(zip(("STR", "DEX", "WIL"), order, strict=True)))
                for order in permutations((2, 1, 0))]


MAZE_RATS = MazeRats(
    name="maze-rats",
    title="Maze Rats",
    abilities={alias: name for name, aliases in _ABILITIES.items() for alias in (name, *aliases)},
    difficulties=(0, 1, 2, 3),
    source="maze-rats-core-rules.txt: Danger Rolls, Advantage",
    difficulty_notes={
        0: "no roll: the action is not risky",
        1: "danger roll with advantage: 3d6 keep the best two + bonus ≥ 10",
        2: "danger roll: 2d6 + bonus ≥ 10",
        3: "danger roll at disadvantage: 3d6 keep the worst two + bonus ≥ 10 (dtc's mirror of advantage)",
    },
    typical_score=1,
    score_range=(0, 4),
    doc="docs/rulesets/maze-rats.md",
    sections=(
        ("Abilities", ("STR (raw power, stamina), DEX (speed, precision), WIL (personality, perception): "
                       "bonuses from +0 to +4",)),
        ("Character", ("one of the six orders of +2/+1/+0 (d6), 4 health, armour 6, attack bonus +0",
                       "a feature: +1 attack bonus, or a Path (advantage on its danger rolls)",
                       "light armour and a shield (+1 armour each), two weapons: light, heavy (+1 damage, "
                       "two hands) or ranged (two hands)")),
        ("Combat", ("initiative by side (d6 each, ties rerolled, rerolled every round)",
                    "attack: 2d6 + AB must exceed armour; damage = the difference, heavy +1, unarmed -1 "
                    "(not to 0), double sixes double it",
                    "a shield may shatter to ignore all damage of one hit",
                    "NPC morale: a WIL danger roll at half health or half their number, when their leader "
                    "falls and when attacked by magic; failing, they rout",
                    "a weapon on the belt is drawn at once, one in the backpack takes 1d6 rounds to find",
                    "fleeing: an opposed DEX danger roll (the creatures defend and win ties)")),
        ("Encounters", ("1-in-6 per turn spent (dtc: the core rules give no schedule)",
                        "reaction d6: 1 hostile, 2-3 wary, 4-5 friendly, 6 helpful; hostile creatures "
                        "ambush unless a WIL danger roll avoids surprise")),
        ("Recovery", ("a meal and a full night's rest: 1 health", "24 hours in a safe place: all health",
                      "a dose of medicine: 1 health, once a day")),
        ("Experience", ("at the end of a session (a run): 1 XP for showing up, 2 for a difficult challenge "
                        "overcome, 3 for an impressive one (dtc: a fight won or a D2/D3 roll passed; a roll "
                        "passed at under 1 in 4 or a fight against twice your health)",
                        "levels: the core rules give no XP table, so the level stays 1")),
        ("Monsters by category", (
            "health: " + ", ".join(f"{k} {v}" for k, v in HEALTH.items()),
            "armour: " + ", ".join(f"{k} {v}" for k, v in ARMOR.items()),
            "attack bonus: " + ", ".join(f"{k} +{v}" for k, v in ATTACK_BONUS.items()),
            "STR/DEX/WIL: +0 to +4 (weak/slow/dimwitted … monstrous/blurred/genius)",
            "stat block fields: Armor N | AB N | STR N | DEX N | WIL N (missing: armour 6, AB +1, bonuses +1)")),
    ),
)
