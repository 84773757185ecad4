"""The reviewer's third addition, a d20 system, in one place: this module.

A check is d20 + the ability's modifier ((score − 10) ÷ 2, rounded down) against 10, 15 or 20 for
D1, D2, D3; a fresh adventurer rolls 3d6 for each ability. The whole system is a ruleset (for the
compiler, the linter and the odds), play rules built on :class:`dtc.systems.generic.GenericRules`
(which gives it encounters, combat, rest and a new adventurer) and the record that registers both.
Registered for the test, a book that names it lints, plays to an end and has exact odds that
agree with the play rules' own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.runtime.character import Character
from dtc.systems import BUILTIN_SYSTEMS, Roller, Ruleset, System, get_ruleset, play_rules
from dtc.systems.generic import GenericRules, chance_high

ABILITIES = ("STR", "DEX", "WIL")
DC = {1: 10, 2: 15, 3: 20}


def modifier(score: int) -> int:
    return (score - 10) // 2


@dataclass(frozen=True)
class D20Ruleset(Ruleset):
    def check_dice(self, difficulty: int) -> str:
        return "d20 + modifier" if difficulty > 0 else "none"

    def check_probability(self, abilities: Mapping[str, int], ability: str | None, difficulty: int, *,
                          encumbered: bool = False) -> Fraction:
        return Fraction(1) if difficulty <= 0 else chance_high("d20", modifier(self.score_of(abilities, ability)),
                                                             DC[difficulty])


class D20Play(GenericRules):
    name = title = character_kind = "d20-test"
    abilities = ABILITIES
    difficulties = (0, 1, 2, 3)

    def target(self, score: int, difficulty: int) -> tuple[str, int, bool]:
        return self.roll_high("d20", DC[difficulty])

    def bonus(self, score: int) -> int:
        return modifier(score)


SYSTEM = System(ruleset=D20Ruleset(name="d20-test", title="d20 (test)", abilities={a: a for a in ABILITIES},
                                   difficulties=(0, 1, 2, 3)),
                play="test_d20_system:D20Play", roller=Roller(dice={1: 1, 2: 1, 3: 1}, sides=20))

BOOK = """Title: The Bell Tower
Rules: d20-test
Start: 1

Adventure Entries

1 The tower door is barred. **Climb the Ivy** (DEX D2, S2, F3) or **Force the Door** (STR D1, S2, F3).

2 You reach the bell loft and ring the bell over the town. THE END (victory)

3 You fall into the nettles and limp home. THE END (death)
"""


@pytest.fixture
def d20(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setitem(BUILTIN_SYSTEMS, "d20-test", SYSTEM)
    path = tmp_path / "tower.txt"
    path.write_text(BOOK, encoding="utf-8")
    return str(path)


def test_a_book_in_the_system_lints_clean(d20: str) -> None:
    result = CliRunner().invoke(main, ["lint", "--format", "concise", d20])
    assert result.exit_code == 0, result.output
    assert get_ruleset("d20-test").difficulties == (0, 1, 2, 3)


@pytest.mark.parametrize("seed", range(8))
def test_it_plays_to_an_end(d20: str, seed: int) -> None:
    result = CliRunner().invoke(main, ["play", "--auto", "random", "--seed", str(seed), "--no-save", d20])
    assert result.exit_code in (0, 1), result.output
    assert result.output.strip().splitlines()[-1].startswith(("won", "died", "escaped", "ended")), result.output


def test_the_exact_odds_are_the_play_rules_own(d20: str) -> None:
    rules = play_rules("d20-test")
    for score in (3, 8, 10, 13, 18):
        pc = Character("Tester", {a: score for a in ABILITIES}, 6, 6)
        for difficulty in (1, 2, 3):
            assert rules.check_chance(pc, "DEX", difficulty) == SYSTEM.ruleset.check_probability(
                pc.abilities, "DEX", difficulty)
    assert chance_high("d20", modifier(10), 10) == Fraction(11, 20)
    result = CliRunner().invoke(main, ["odds", d20])
    assert result.exit_code == 0, result.output
    assert "Force the Door" in result.output


def test_a_fresh_adventurer_is_rolled(d20: str) -> None:
    from dtc.runtime.dice import Dice

    pc = play_rules("d20-test").new_character(Dice(3))
    assert set(pc.abilities) == set(ABILITIES) and all(3 <= s <= 18 for s in pc.abilities.values())
    assert pc.ruleset == "d20-test" and pc.hp == pc.max_hp >= 1
