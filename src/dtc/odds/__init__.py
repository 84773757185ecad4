"""`dtc odds`: the exact odds of every check and path of an adventure.

:func:`compute_odds` takes a compiled graph and returns an :class:`Odds`: each choice's chance
(for one adventurer or, exactly, over every freshly rolled one), the best way to meet each
difficulty and its encounter risk, and the book treated as an absorbing Markov chain (solved with
sparse linear algebra): the probability of each ending, of escaping, of getting stuck, and of
visiting each entry. :mod:`dtc.odds.report` prints it as text or JSON.

Importing this package is cheap: numpy and scipy load only when the odds are computed (so
``dtc graph`` without ``--odds`` never pays for them).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dtc.odds.analyze import ChoiceOdds, Hazard, Odds, compute_odds

POLICIES = {
    "random": "the reader picks uniformly among an entry's options",
    "likeliest": "the reader picks the options most likely to succeed (uniformly among ties)",
}
#: Older names of the policies: ``uniform`` was ``random``'s name here before every command used one.
POLICY_ALIASES = {"uniform": "random"}

__all__ = ["POLICIES", "POLICY_ALIASES", "ChoiceOdds", "Hazard", "Odds", "compute_odds", "one_blas_thread"]

#: The variables the BLAS libraries numpy ships with (OpenBLAS) or may be built on (MKL) read.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread() -> None:
    """Ask numpy's BLAS for one thread, unless the user chose a number (call before numpy loads).

    The odds' dense work is many small blocks (a component's inverse, the block-tridiagonal
    sweep), where extra BLAS threads only wait on each other: on a busy 2-core machine a
    10,000-entry book's solve took three times as long with them. The one-shot ``dtc odds``
    command calls this; a program that imports :mod:`dtc.odds` keeps its own setting.
    """
    if "numpy" in sys.modules:
        return
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


def __getattr__(name: str) -> Any:
    if name in ("ChoiceOdds", "Hazard", "Odds", "compute_odds"):
        from dtc.odds import analyze

        return getattr(analyze, name)
    raise AttributeError(name)
