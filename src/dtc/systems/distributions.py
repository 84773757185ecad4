"""Exact dice arithmetic shared by the rulesets: distributions as Fractions, by enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache


@cache
def sum_distribution(count: int, sides: int = 6) -> dict[int, Fraction]:
    """P(sum of ``count`` dice with ``sides`` faces = s), exactly."""
    dist: Counter[int] = Counter({0: 1})
    for _ in range(count):
        nxt: Counter[int] = Counter()
        for total, ways in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] += ways
        dist = nxt
    whole = sides**count
    return {s: Fraction(w, whole) for s, w in sorted(dist.items())}


def p_sum_at_most(count: int, target: int, sides: int = 6) -> Fraction:
    """P(sum of ``count``d``sides`` <= target): a roll-under check."""
    return sum((p for s, p in sum_distribution(count, sides).items() if s <= target), Fraction(0))


def p_sum_at_least(count: int, target: int, sides: int = 6) -> Fraction:
    return sum((p for s, p in sum_distribution(count, sides).items() if s >= target), Fraction(0))
