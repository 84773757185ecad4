"""Exact probability helpers that both the game systems' odds and the runtime's menu use."""

from __future__ import annotations

from fractions import Fraction


def worse_of_two(p: Fraction) -> Fraction:
    """Chance of success when a roll is made twice and the worse kept (both must succeed)."""
    return p * p
