"""Conditions and random branches: what the grammar reads, and how fast."""

from __future__ import annotations

from dtc.compiler.grammars import parse_notation as through_grammar
from dtc.compiler.notation import Parsed


def test_a_range_spaced_with_any_of_the_grammars_spaces_reads() -> None:
    """``RANGE`` allows the grammar's spaces around its dash, zero-width space included, which
    ``int()`` does not strip: the bounds are the range's numbers, whatever stands between."""
    parsed = through_grammar("(roll d6, 1\u200b-\u200b3 S5, 4\u00a0–\u20036 S9)")
    assert isinstance(parsed, Parsed) and parsed.roll is not None
    assert [(b.low, b.high) for b in parsed.roll.branches] == [(1, 3), (4, 6)]
