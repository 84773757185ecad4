"""`dtc simulate`: many playthroughs with the full `dtc play` runtime, no keyboard.

:func:`dtc.simulate.parallel.simulate` plays them (on several processes if asked) and returns a
:class:`dtc.simulate.stats.Tally`: outcomes with Wilson intervals, deaths per entry, treasure,
coverage, and every runtime error or stuck run with the seed that replays it.
:mod:`dtc.simulate.report` prints it as text or JSON.
"""

from __future__ import annotations

from dtc.simulate.parallel import Result, simulate
from dtc.simulate.runner import POLICY_NAMES, Job, run_seed
from dtc.simulate.stats import Tally, wilson

__all__ = ["POLICY_NAMES", "Job", "Result", "Tally", "run_seed", "simulate", "wilson"]
