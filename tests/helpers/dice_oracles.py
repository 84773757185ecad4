"""Exact probabilities by brute-force enumeration: the tests' independent oracle for the rulesets."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

D6 = range(1, 7)


def enumerate_danger(bonus: int, keep: str) -> Fraction:
    """Maze Rats: 2d6 (or the best/worst two of 3d6) + bonus >= 10, counted outcome by outcome."""
    count = 2 if keep == "plain" else 3
    wins = 0
    for dice in product(D6, repeat=count):
        kept = sorted(dice, reverse=keep == "best")[:2] if count == 3 else list(dice)
        wins += sum(kept) + bonus >= 10
    return Fraction(wins, 6**count)


def enumerate_zilch(skill: int) -> dict[str, Fraction]:
    """Zilch: 3d6 with sixes as zero against ``skill``, by degree of success."""
    out = {"critical success": 0, "success": 0, "failure": 0, "critical failure": 0}
    for dice in product(D6, repeat=3):
        r = sum(0 if d == 6 else d for d in dice)
        if (r == 0 and skill > 2) or r <= skill - 5:
            out["critical success"] += 1
        elif (r == 15 and skill < 14) or r > skill + 5:
            out["critical failure"] += 1
        elif r <= skill:
            out["success"] += 1
        else:
            out["failure"] += 1
    return {k: Fraction(v, 216) for k, v in out.items()}
