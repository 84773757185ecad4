"""Dice, exact probabilities, and sampled rates against them (fixed seeds, within 4 standard errors)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from dtc.probability import worse_of_two
from dtc.runtime.dice import Dice, DiceError, distribution, parse_dice, percent, prob_at_most
from dtc.runtime.equipment import Item
from dtc.systems.death_and_treasure.play import (
    CHECK_DICE,
    DeathAndTreasure,
    reaction_band,
    reaction_modifier,
    surprise_chance,
)
from helpers.runtime import book, compiled, engine, hero, kinds

N = 4000


def exact_at_most(count: int, target: int) -> Fraction:
    """By brute enumeration of every face combination (independent of dtc's convolution)."""
    hits = sum(1 for faces in itertools.product(range(1, 7), repeat=count) if sum(faces) <= target)
    return Fraction(hits, 6**count)


def within(rate: float, p: Fraction, n: int) -> bool:
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(rate - float(p)) <= 4 * max(se, 1 / n)


@pytest.mark.parametrize("text,expected", [("d6", (1, 6, 0)), ("2d6", (2, 6, 0)), ("3d4+1", (3, 4, 1)),
                                           ("1D8-2", (1, 8, -2)), ("4", (0, 0, 4))])
def test_parse_dice(text: str, expected: tuple[int, int, int]) -> None:
    e = parse_dice(text)
    assert (e.count, e.sides, e.modifier) == expected


@pytest.mark.parametrize("bad", ["", "d", "2x6", "d0", "1000d6", "d6+"])
def test_parse_dice_refuses(bad: str) -> None:
    with pytest.raises(DiceError):
        parse_dice(bad)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_distribution_matches_enumeration(count: int) -> None:
    dist = distribution(parse_dice(f"{count}d6"))
    assert sum(dist.values()) == 1
    for target in range(count - 1, 6 * count + 2):
        assert prob_at_most(f"{count}d6", target) == exact_at_most(count, target)


def test_known_values() -> None:
    assert prob_at_most("2d6", 7) == Fraction(21, 36)
    assert prob_at_most("3d6", 10) == Fraction(1, 2)
    assert worse_of_two(Fraction(1, 2)) == Fraction(1, 4)
    assert percent(Fraction(21, 36)) == "58.3%"


def test_state_round_trip_continues_identically() -> None:
    a = Dice(99)
    for _ in range(50):
        a.roll("3d6")
    b = Dice.from_state(a.get_state())
    assert [a.roll("d20").total for _ in range(100)] == [b.roll("d20").total for _ in range(100)]


def _check_game(**scores: int):  # type: ignore[no-untyped-def]
    graph = compiled(book("1 A room. THE END"))
    game, events = engine(graph, None, pc=hero(**scores), seed=7)
    return game, events


@pytest.mark.parametrize("difficulty,score", [(1, 7), (2, 10), (3, 14)])
def test_check_rates_match_exact_odds(difficulty: int, score: int) -> None:
    game, _ = _check_game(DEX=score)
    rules = DeathAndTreasure()
    hits = sum(rules.check(game, "DEX", difficulty, "test") for _ in range(N))
    p = exact_at_most(int(CHECK_DICE[difficulty][0]), score)
    assert rules.check_chance(game.pc, "DEX", difficulty) == p
    assert within(hits / N, p, N)


def test_encumbered_checks_roll_twice_and_keep_the_worse() -> None:
    game, events = _check_game(STR=3, DEX=10)
    game.pc.add(Item("Plate", "armour", weight=Fraction(3), defense=7, slot="body"))
    assert game.pc.load == 5 and game.pc.encumbered
    rules = DeathAndTreasure()
    hits = sum(rules.check(game, "DEX", 2, "test") for _ in range(N))
    p = exact_at_most(3, 10) ** 2
    assert rules.check_chance(game.pc, "DEX", 2) == p
    assert within(hits / N, p, N)
    assert all(len(e["rolls"]) == 2 for e in kinds(events, "check"))
    assert all(e["total"] == max(sum(r) for r in e["rolls"]) for e in kinds(events, "check"))


def test_encounter_checks_are_one_in_six() -> None:
    game, events = _check_game()
    rules = DeathAndTreasure()
    hits = sum(rules.encounter_happens(game) for _ in range(N))
    assert within(hits / N, Fraction(1, 6), N)
    assert all((e["roll"] == 1) == e["encounter"] for e in kinds(events, "encounter_check"))


@pytest.mark.parametrize("cha", [5, 10, 16])
def test_reaction_bands_match_exact_odds(cha: int) -> None:
    mod = reaction_modifier(cha)
    exact: Counter[str] = Counter()
    for a, b in itertools.product(range(1, 7), repeat=2):
        exact[reaction_band(a + b + mod)] += 1
    graph = compiled(book("1 A room. THE END"), "x.txt")
    game, _ = engine(graph, None, pc=hero(CHA=cha), seed=cha)
    sampled: Counter[str] = Counter()
    for _ in range(N):
        sampled[reaction_band(game.dice.roll("2d6").total + mod)] += 1
    for band in ("hostile", "neutral", "friendly"):
        assert within(sampled[band] / N, Fraction(exact[band], 36), N), band


def test_reaction_and_surprise_modifiers_as_written() -> None:
    assert [reaction_modifier(c) for c in (5, 10, 16)] == [1, 0, -1]
    assert [surprise_chance(w) for w in (5, 10, 16)] == [3, 2, 1]
    assert [reaction_band(t) for t in (1, 4, 5, 9, 10, 13)] == [
        "hostile", "hostile", "neutral", "neutral", "friendly", "friendly"]


@pytest.mark.parametrize("odds", [1, 2, 3, 4])
def test_oracle_odds(odds: int) -> None:
    game, _ = _check_game()
    yes = sum(game.oracle(odds, "?") for _ in range(N))
    assert within(yes / N, Fraction(odds, 6), N)


def test_total_draws_what_roll_draws() -> None:
    """``Dice.total`` is ``roll(...).total``: the same numbers, in the same order, left the same state."""
    for expr in ("3d6", "d20", "2d4+1", "d8-2", "7"):
        a, b = Dice(11), Dice(11)
        for _ in range(200):
            assert a.total(expr) == b.roll(expr).total
        assert a.get_state() == b.get_state()
