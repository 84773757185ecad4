"""`dtc odds`: the exact odds of every check and path of an adventure.

:func:`compute_odds` takes a compiled graph and returns an :class:`Odds`: each choice's chance
(for one adventurer or, exactly, over every freshly rolled one), the best way to meet each
difficulty and its encounter risk, and the book treated as an absorbing Markov chain (solved with
sparse linear algebra): the probability of each ending, of escaping, of getting stuck, and of
visiting each entry. :mod:`dtc.odds.report` prints it as text or JSON.
"""

from __future__ import annotations

from dtc.odds.analyze import ChoiceOdds, Hazard, Odds, compute_odds
from dtc.odds.chain import POLICIES
from dtc.odds.checks import APPROACHES

__all__ = ["APPROACHES", "POLICIES", "ChoiceOdds", "Hazard", "Odds", "compute_odds"]
