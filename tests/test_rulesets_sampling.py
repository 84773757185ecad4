"""Each ruleset's check as `dtc play` rolls it, sampled with fixed seeds against its exact chance.

The exact values come from enumerations written in this file (not from the code under test);
the samples are the runtime's own rolls. Every comparison allows four standard errors.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from dtc.runtime.character import Character
from dtc.runtime.dice import Dice
from dtc.runtime.state import GameState
from dtc.systems.death_and_treasure.play import DeathAndTreasure
from dtc.systems.dungeon_rules.play import DungeonRules
from dtc.systems.maze_rats.play import MazeRats
from dtc.systems.zilch.play import Zilch
from helpers.dice_oracles import enumerate_danger, enumerate_zilch

N = 12_000
D6 = range(1, 7)


class Table:
    """Just enough of an engine for a ruleset's check: dice, the adventurer, events."""

    def __init__(self, pc: Character, seed: int) -> None:
        self.pc = pc
        self.dice = Dice(seed)
        self.state = GameState(entry=1, start=1)
        self.last: dict[str, Any] = {}

    def emit(self, kind: str, **fields: Any) -> None:
        self.last = {"event": kind, **fields}

    def skip(self, kind: str) -> bool:
        return False

    def reads(self, kind: str) -> bool:
        return True


def within(hits: int, n: int, p: Fraction) -> None:
    q = float(p)
    se = math.sqrt(max(q * (1 - q), 1e-12) / n)
    assert abs(hits / n - q) <= 4 * se + 1e-12, f"{hits}/{n} = {hits / n:.4f}, exact {q:.4f} (±{4 * se:.4f})"





def rat(**bonuses: int) -> Character:
    return Character("Rat", {"STR": 0, "DEX": 0, "WIL": 0, **bonuses}, 4, 4, ruleset="maze-rats")


@pytest.mark.parametrize(("difficulty", "keep"), [(1, "best"), (2, "plain"), (3, "worst")])
def test_maze_rats_danger_roll_str_plus_one(difficulty: int, keep: str) -> None:
    rules, table = MazeRats(), Table(rat(STR=1), 100 + difficulty)
    hits = sum(rules.check(table, "STR", difficulty, "heave") for _ in range(N))  # type: ignore[arg-type]
    exact = enumerate_danger(1, keep)
    assert rules.check_chance(table.pc, "STR", difficulty) == exact
    within(hits, N, exact)


def test_maze_rats_path_gives_advantage_only_to_its_activities() -> None:
    rules = MazeRats()
    pc = rat(DEX=2)
    pc.notes.append("path: Roofrunner")
    table = Table(pc, 7)
    _, climb = rules.choice_odds(pc, "DEX", 2, "Climb the wall")
    _, dodge = rules.choice_odds(pc, "DEX", 2, "Dodge the cart")
    assert climb == enumerate_danger(2, "best") and dodge == enumerate_danger(2, "plain")
    hits = sum(rules.check(table, "DEX", 2, "Climb the wall") for _ in range(N))  # type: ignore[arg-type]
    within(hits, N, climb)


@pytest.mark.parametrize(("difficulty", "modifier"), [(1, 2), (2, 0), (3, -2), (4, -5)])
def test_zilch_suit_test_at_seven_with_each_modifier(difficulty: int, modifier: int) -> None:
    rules = Zilch()
    pc = Character("Cards", {"♣": 7, "♠": 7, "♦": 7, "♥": 7}, 7, 7, ruleset="zilch")
    table = Table(pc, 200 + difficulty)
    counts: dict[str, int] = {}
    for _ in range(N):
        degree, _ = rules.test(table, "♠", difficulty, "sneak")  # type: ignore[arg-type]
        counts[degree] = counts.get(degree, 0) + 1
    exact = enumerate_zilch(7 + modifier)
    assert rules.check_chance(pc, "♠", difficulty) == exact["critical success"] + exact["success"]
    for name, p in exact.items():
        within(counts.get(name, 0), N, p)


def test_zilch_critical_bands_at_the_extremes() -> None:
    rules = Zilch()
    pc = Character("Ace", {"♣": 14, "♠": 2, "♦": 7, "♥": 7}, 7, 7, ruleset="zilch")
    for suit, seed in (("♣", 11), ("♠", 12)):
        table = Table(pc, seed)
        counts: dict[str, int] = {}
        for _ in range(N):
            degree, _ = rules.test(table, suit, 2, "test")  # type: ignore[arg-type]
            counts[degree] = counts.get(degree, 0) + 1
        for name, p in enumerate_zilch(pc.abilities[suit]).items():
            within(counts.get(name, 0), N, p)


@pytest.mark.parametrize(("difficulty", "target"), [(1, 15), (2, 12), (3, 9)])
def test_dungeon_rules_d20_roll_under(difficulty: int, target: int) -> None:
    rules = DungeonRules(DeathAndTreasure())
    pc = Character("Delver", {"STR": 10, "DEX": 12, "CON": 10, "WIS": 10, "INT": 10, "CHA": 10}, 6, 6,
                   stats={"AGI": 12, "LUCK": 9, "WORLDSWAY": 11})
    table = Table(pc, 300 + difficulty)
    hits = sum(rules.check(table, "AGI", difficulty, "leap") for _ in range(N))  # type: ignore[arg-type]
    exact = Fraction(target, 20)
    assert rules.check_chance(pc, "AGI", difficulty) == exact
    within(hits, N, exact)
    # An ability of the base keeps the base's check (3d6 at D2, not the d20).
    assert rules.check_chance(pc, "DEX", 2) == DeathAndTreasure().check_chance(pc, "DEX", 2)
