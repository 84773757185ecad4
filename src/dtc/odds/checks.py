"""The odds of one choice: its check, for one adventurer or a freshly rolled one, and its option mixes.

Everything here is exact (:class:`~fractions.Fraction`). The check itself comes from the
adventure's ruleset (:meth:`dtc.rulesets.Ruleset.check_probability`); two things the Ruleset
interface does not say are kept behind small functions keyed by ruleset name, each with a
generic fallback:

* how a fresh adventurer's scores are rolled (:func:`score_distribution`; Death & Treasure:
  3d6 for each ability, independently; fallback: the ruleset's ``ability_dice`` attribute if it
  has one, else 3d6, flagged as assumed);
* which ways of meeting a difficulty there are (:func:`option_mixes`; Death & Treasure's
  "Taking Action": difficulty n needs n of {spend a turn, use appropriate gear, pass the
  check}, and spending a turn risks a 1-in-6 encounter; fallback: the check alone).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from dtc.rulesets import Ruleset
from dtc.rulesets.dice import sum_distribution

#: Scores of a fresh adventurer per ruleset: dice rolled once per ability (``3d6``).
ABILITY_DICE: dict[str, str] = {"death-and-treasure": "3d6"}
FALLBACK_ABILITY_DICE = "3d6"


def base_name(ruleset: Ruleset) -> str:
    """The base ruleset's registry name (``death-and-treasure`` for ``death-and-treasure + x``)."""
    return ruleset.name.split(" + ")[0].strip()


def ability_dice(ruleset: Ruleset) -> tuple[str, bool]:
    """The dice each ability is rolled with, and whether that is known (False: assumed)."""
    known = ABILITY_DICE.get(base_name(ruleset)) or getattr(ruleset, "ability_dice", None)
    if isinstance(known, str):
        return known, True
    return FALLBACK_ABILITY_DICE, False


@cache
def _dice_distribution(dice: str) -> dict[int, Fraction]:
    count, _, sides = dice.lower().partition("d")
    return sum_distribution(int(count or 1), int(sides))


def score_distribution(ruleset: Ruleset) -> dict[int, Fraction]:
    """P(one freshly rolled ability score = s)."""
    return _dice_distribution(ability_dice(ruleset)[0])


def max_distribution(dist: Mapping[int, Fraction], count: int) -> dict[int, Fraction]:
    """P(the best of ``count`` independent scores drawn from ``dist`` = s)."""
    out: dict[int, Fraction] = {}
    below = Fraction(0)
    for s in sorted(dist):
        at_most = below + dist[s]
        out[s] = at_most**count - below**count
        below = at_most
    return {s: p for s, p in out.items() if p}


def uniform_character(ruleset: Ruleset, score: int) -> dict[str, int]:
    return {name: score for name in ruleset.ability_names}


def fresh_check_probability(ruleset: Ruleset, ability: str | None, difficulty: int, *,
                            encumbered: bool = False) -> Fraction:
    """The exact chance that a freshly rolled adventurer passes the check.

    A named ability is one score's distribution; no ability means the reader uses their best
    score (the Ruleset contract), so the mixture is over the best of all the abilities.
    """
    dist = score_distribution(ruleset)
    if ability is None:
        dist = max_distribution(dist, max(1, len(ruleset.ability_names)))
    total = Fraction(0)
    for score, weight in dist.items():
        total += weight * ruleset.check_probability(uniform_character(ruleset, score), ability, difficulty,
                                                    encumbered=encumbered)
    return total


# --- option mixes -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mix:
    """One way of meeting a difficulty: which options it uses, its odds and its encounter risk."""

    parts: tuple[str, ...]  # of "turn", "gear", "check"; empty for D0
    success: Fraction
    encounter: Fraction  # chance that meeting it this way triggers an encounter
    needs_gear: bool

    @property
    def name(self) -> str:
        return " + ".join(self.parts) if self.parts else "nothing needed"

    def to_dict(self) -> dict[str, object]:
        return {"parts": list(self.parts), "success": float(self.success), "success_exact": str(self.success),
                "encounter": float(self.encounter), "needs_gear": self.needs_gear}


#: Mix makers: (difficulty, chance the check passes) -> every way to meet it.
MixMaker = Callable[[int, Fraction], list[Mix]]
ENCOUNTER_PER_TURN = Fraction(1, 6)  # Death & Treasure, "Encounters": 1-in-6 per turn spent


def _death_and_treasure_mixes(difficulty: int, p_check: Fraction) -> list[Mix]:
    if difficulty <= 0:
        return [Mix((), Fraction(1), Fraction(0), False)]
    need = min(difficulty, 3)
    mixes = []
    for parts in combinations(("turn", "gear", "check"), need):
        mixes.append(Mix(parts, p_check if "check" in parts else Fraction(1),
                         ENCOUNTER_PER_TURN if "turn" in parts else Fraction(0), "gear" in parts))
    return mixes


def _check_alone(difficulty: int, p_check: Fraction) -> list[Mix]:
    if difficulty <= 0:
        return [Mix((), Fraction(1), Fraction(0), False)]
    return [Mix(("check",), p_check, Fraction(0), False)]


MIXES: dict[str, MixMaker] = {"death-and-treasure": _death_and_treasure_mixes}


def option_mixes(ruleset: Ruleset, difficulty: int, p_check: Fraction) -> list[Mix]:
    """Every way to meet ``difficulty`` under ``ruleset`` (generic fallback: the check alone)."""
    return MIXES.get(base_name(ruleset), _check_alone)(difficulty, p_check)


IMPOSSIBLE = Mix(("impossible",), Fraction(0), Fraction(0), False)


def best_mix(mixes: list[Mix], *, gear: bool) -> Mix:
    """The surest mix (ties: the one least likely to bring an encounter); gear only if ``gear``.

    When no mix is open (Death & Treasure D3 without gear) the result is :data:`IMPOSSIBLE`.
    """
    open_ = [m for m in mixes if gear or not m.needs_gear]
    if not open_:
        return IMPOSSIBLE
    return max(open_, key=lambda m: (m.success, -m.encounter, -len(m.parts)))


#: ``--approach`` values: how a reader meets a choice's difficulty in the chain.
APPROACHES = {
    "check": "every check is rolled with the dice of its difficulty (any other need, such as gear, met)",
    "best": "each choice is met the surest way without gear (ties: least encounter risk)",
    "gear": "each choice is met the surest way, with appropriate gear always at hand",
}


def approach_probability(ruleset: Ruleset, approach: str, difficulty: int, p_check: Fraction) -> Fraction:
    """The chance a choice succeeds when the reader meets it by ``approach``."""
    if difficulty <= 0:
        return Fraction(1)
    if approach == "check":
        return p_check
    return best_mix(option_mixes(ruleset, difficulty, p_check), gear=approach == "gear").success
