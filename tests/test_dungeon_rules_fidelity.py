"""Dungeon Rules fidelity: doors and locks, light and water, loot, the long rest's watches, and the
exact odds of a freshly made adventurer.

Each test names the section of dungeon-rules.txt it checks; rulings (where the seed is silent or
says two things) are named as such and listed in docs/rulesets/dungeon-rules.md, "dtc's rulings".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from dtc.odds.analyze import compute_odds
from dtc.odds.checks import fresh_check_probability
from dtc.runtime.character import Character
from dtc.runtime.dice import Dice
from dtc.systems import get_ruleset
from dtc.systems.death_and_treasure.ruleset import DeathAndTreasure
from dtc.systems.distributions import p_sum_at_most, sum_distribution
from dtc.systems.dungeon_rules.play import overlay_scores
from dtc.systems.dungeon_rules.ruleset import DungeonRules, p_d20
from test_runtime_support import compiled

DT_DR = "death-and-treasure + dungeon-rules"
DT_ABILITIES = ("STR", "DEX", "CON", "WIS", "INT", "CHA")


def chain(rules: str, *checks: str) -> dict[str, Any]:
    """A book of checks one after another: entry n's check leads to n+1, any failure to 99."""
    entries = [f"{n} A step ({check}, S{n + 1}, F99)." for n, check in enumerate(checks, 1)]
    entries += [f"{len(checks) + 1} Through. THE END", "99 Lost. THE END"]
    return compiled(f"Title: T\nRules: {rules}\nStart: 1\n\nAdventure Entries\n\n" + "\n\n".join(entries) + "\n")


def through(graph: dict[str, Any]) -> float:
    outcomes = compute_odds(graph).outcomes
    return float(next(p for k, p in outcomes.items() if k.startswith("ending:") and k != "ending:99"))


# --- the fresh adventurer's odds (creation: Death & Treasure's 3d6, AGI is DEX, LUCK/WORLDSWAY 3d6) ---


def test_fresh_agi_is_dex_so_the_two_checks_are_not_independent() -> None:
    """Ruling ("Scores"): with Death & Treasure as the base, a fresh adventurer's AGI is their DEX
    (the overlay reads it, as ``dtc play`` does), so an AGI check and a DEX check depend on one
    score. Exhaustive over every face of DEX's 3d6."""
    both = Fraction(0)
    for faces in product(range(1, 7), repeat=3):
        dex = sum(faces)
        both += Fraction(1, 216) * p_d20(dex, 2) * p_sum_at_most(3, dex)
    independent = sum(p * p_d20(s, 2) for s, p in sum_distribution(3).items()) * sum(
        p * p_sum_at_most(3, s) for s, p in sum_distribution(3).items())
    assert both != independent
    assert through(chain(DT_DR, "AGI D2", "DEX D2")) == pytest.approx(float(both), abs=1e-12)
    pc = Character("A", dict.fromkeys(DT_ABILITIES, 10) | {"DEX": 13}, 8, 8)
    overlay_scores(pc, Dice(1))
    assert pc.stats["AGI"] == 13  # the same score in play


def test_fresh_odds_are_the_exhaustive_enumeration_of_creation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creation enumerated whole: every adventurer of ``death-and-treasure + dungeon-rules`` is made
    by the runtime's own overlay step (``overlay_scores``) from every combination of scores, each
    weighted by its chance, and the chain's odds for a book mixing unnamed checks (each part its own
    best: 3d6 ≤ the best of the base's six, d20 ≤ the best of AGI, LUCK, WORLDSWAY) with named ones
    equal that sum. A three-valued score keeps the 3^8 adventurers few; the folding is the same."""
    small = {6: Fraction(1, 4), 10: Fraction(1, 2), 15: Fraction(1, 4)}
    monkeypatch.setattr(DeathAndTreasure, "score_distribution", lambda self, ability=None: small)
    monkeypatch.setattr(DungeonRules, "score_distribution", lambda self, ability=None: small)
    rules = get_ruleset(DT_DR)

    def enumerated(checks: list[tuple[str | None, int]]) -> Fraction:
        total = Fraction(0)
        for values in product(small, repeat=8):
            weight = Fraction(1)
            for v in values:
                weight *= small[v]
            pc = Character("A", dict(zip(DT_ABILITIES, values[:6], strict=True)), 8, 8,
                           stats={"LUCK": values[6], "WORLDSWAY": values[7]})
            overlay_scores(pc, Dice(1))  # AGI from DEX, as in play
            scores = {**pc.abilities, **pc.stats}
            p = Fraction(1)
            for ability, difficulty in checks:
                if ability is None:  # the reader's best check, part by part
                    p *= max(rules.check_probability(pc.abilities, None, difficulty),
                             max(p_d20(scores[a], difficulty) for a in ("AGI", "LUCK", "WORLDSWAY")))
                else:
                    p *= rules.check_probability(scores, ability, difficulty)
            total += weight * p
        return total

    checks: list[tuple[str | None, int]] = [(None, 2), ("AGI", 1), ("DEX", 2), ("LUCK", 3), (None, 3), ("STR", 2)]
    text = [f"{a} D{d}" if a else f"D{d}" for a, d in checks]
    assert through(chain(DT_DR, *text)) == pytest.approx(float(enumerated(checks)), abs=1e-12)
    for one in ((None, 2), ("AGI", 2)):  # one check alone: its exact fresh chance
        assert fresh_check_probability(rules, one[0], one[1]) == enumerated([one])


def test_maze_rats_bonuses_stay_dealt_together_under_the_overlay() -> None:
    """Maze Rats, "Character Creation" (+2/+1/+0 in some order), kept under ``maze-rats +
    dungeon-rules``: STR D2 then DEX D2 is the exact 100/1296 of the six deals, as without the
    overlay; the overlay's own scores (3d6 each) join independently."""
    assert through(chain("maze-rats + dungeon-rules", "STR D2", "DEX D2")) == pytest.approx(100 / 1296, abs=1e-12)
    luck = sum(p * p_d20(s, 2) for s, p in sum_distribution(3).items())
    assert through(chain("maze-rats + dungeon-rules", "STR D2", "LUCK D2")) == pytest.approx(
        float(Fraction(1, 3) * (Fraction(6, 36) + Fraction(10, 36) + Fraction(15, 36)) * luck), abs=1e-12)
