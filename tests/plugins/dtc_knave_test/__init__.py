"""A test-only game system plugin, "knave-test": what a third-party package adds to dtc.

Installed in the tests by writing its distribution metadata (with its ``dtc.systems`` entry point)
beside it on ``sys.path``, exactly as pip would. Its checks roll d20 + the ability's bonus and
succeed on 15 or more (Knave's save); a fresh adventurer's bonus in each ability is the lowest of
three d6. Play is the generic base (``dtc.systems.generic.GenericRules``): only how a check is
rolled and how a bonus is dealt are its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from dtc.runtime.character import ABILITIES, Character
from dtc.runtime.dice import Dice
from dtc.systems import Roller, Ruleset, System
from dtc.systems.generic import GenericRules
from dtc.systems.reference import Reference, SheetField
from dtc.systems.webplay import WebCheck, WebSystem

TARGET = 15


def p_save(bonus: int) -> Fraction:
    """P(d20 + bonus >= 15)."""
    return Fraction(sum(1 for face in range(1, 21) if face + bonus >= TARGET), 20)


def lowest_of_three() -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for roll in product(range(1, 7), repeat=3):
        counts[min(roll)] = counts.get(min(roll), 0) + 1
    return {score: Fraction(n, 216) for score, n in counts.items()}


@dataclass(frozen=True)
class KnaveRuleset(Ruleset):
    def check_dice(self, difficulty: int) -> str:
        return "d20 + bonus ≥ 15" if difficulty > 0 else "none"

    def check_probability(self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *,
                          encumbered: bool = False) -> Fraction:
        if difficulty <= 0:
            return Fraction(1)
        return p_save(self.score_of(abilities, ability))

    def score_distribution(self, ability: str | None = None) -> dict[int, Fraction]:
        return lowest_of_three()


KNAVE = KnaveRuleset(name="knave-test", title="Knave (test plugin)",
                     abilities={a: a for a in ABILITIES}, difficulties=(0, 1), typical_score=1,
                     score_range=(1, 6), difficulty_notes={0: "no roll", 1: "a save: d20 + bonus ≥ 15"})


class KnavePlay(GenericRules):
    """Play: the generic rules (encounters, combat, rest), a check rolled high, Knave's bonuses."""

    name = "knave-test"
    title = "Knave (test plugin)"
    character_kind = "knave-test"
    abilities = tuple(ABILITIES)

    def target(self, score: int, difficulty: int) -> tuple[str, int, bool]:
        return self.roll_high("d20", TARGET)

    def new_character(self, dice: Dice) -> Character:
        pc = super().new_character(dice)
        pc.abilities = {a: min(dice.roll("3d6").dice) for a in ABILITIES}
        return pc


#: The web edition: a save is d20 + the ability's bonus, 15 or more; a bonus is the lowest of 3d6.
WEB = WebSystem(checks={1: WebCheck(count=1, sides=20, under=False, target=TARGET)},
                create={"kind": "lowest", "count": 3, "sides": 6}, create_words="the lowest of 3d6 for each bonus",
                hp={"count": 1, "sides": 8}, notes=("A save is d20 + the ability's bonus: 15 or more succeeds.",))

#: The print edition and the ebook: how a reader rolls a save, and the sheet's lines.
REFERENCE = Reference(
    title="Knave (test plugin)", abilities=tuple(ABILITIES),
    rolls={1: f"roll d20 and add {{ability}} bonus: {TARGET} or more succeeds"},
    checks=(f"A check is a save: roll d20 and add the ability's bonus; {TARGET} or more succeeds.",),
    creation=("Each ability's bonus is the lowest of three d6.",),
    sheet=(SheetField("Armour", "11"),),
)

SYSTEM = System(ruleset=KNAVE, play="dtc_knave_test:KnavePlay", roller=Roller(dice={1: 1}, sides=20),
                web="dtc_knave_test:WEB", reference="dtc_knave_test:REFERENCE")
