"""What many playthroughs add up to: outcome counts, Wilson intervals, deaths per entry, coverage,
and every problem found with the seeds that reproduce it.

A :class:`Tally` is plain data that merges (worker tallies are added in worker order, so the
totals do not depend on which worker finished first) and pickles across processes.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from dtc.outcomes import RUN_OUTCOMES

#: Every way a run can end (the runtime's outcomes, :mod:`dtc.outcomes`), in report order.
OUTCOMES = (*RUN_OUTCOMES, "error")
#: Example runs kept per problem (each with its seed).
EXAMPLES = 3
#: "Goblin 2's Sword" -> "Goblin's Sword": the runtime numbers the creatures of a group.
_NUMBERED = re.compile(r"\s+[0-9]+(?='s\b)")


def cause_name(reason: str) -> str:
    """A death's cause with the creature's number in its group dropped, so causes add up."""
    return _NUMBERED.sub("", reason)


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (sensible at 0 and at n, unlike the normal one)."""
    if trials <= 0:
        return (0.0, 1.0)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


@dataclass(slots=True)
class Run:
    """One playthrough, as the tally needs it."""

    index: int
    seed: int
    outcome: str  # one of OUTCOMES
    entry: int | None
    turn: int
    reason: str
    treasure: int
    visits: dict[int, int]
    where: str = ""  # for an error: the innermost frame of dtc code (file:line)
    ending_kind: str | None = None  # for an ``ended`` run: death, victory, or None (unstated)


@dataclass(slots=True)
class Problem:
    """A runtime error or a stuck state, with how often it happened and runs that show it."""

    kind: str  # error | stopped | cannot-continue
    message: str
    entry: int | None
    count: int = 0
    examples: list[tuple[int, int]] = field(default_factory=list)  # (run index, seed)

    def key(self) -> tuple[str, str, int | None]:
        return (self.kind, self.message, self.entry)


@dataclass(slots=True)
class Tally:
    runs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    turns: Counter[str] = field(default_factory=Counter)  # total turns per outcome
    treasure_out: int = 0  # coins carried out (escaped or THE END)
    treasure_runs: int = 0  # runs that carried some out
    treasure_best: int = 0
    reached: Counter[int] = field(default_factory=Counter)  # runs that visited each entry
    visits: Counter[int] = field(default_factory=Counter)
    deaths: Counter[int] = field(default_factory=Counter)
    causes: dict[int, Counter[str]] = field(default_factory=dict)
    endings: Counter[int] = field(default_factory=Counter)
    #: Runs that ended at THE END, by the ending's kind: "death", "victory", "unstated".
    ending_kinds: Counter[str] = field(default_factory=Counter)
    problems: dict[tuple[str, str, int | None], Problem] = field(default_factory=dict)

    def add(self, run: Run) -> None:
        self.runs += 1
        self.outcomes[run.outcome] += 1
        self.turns[run.outcome] += run.turn
        if run.outcome in ("escaped", "ended"):
            self.treasure_out += run.treasure
            self.treasure_runs += run.treasure > 0
            self.treasure_best = max(self.treasure_best, run.treasure)
        for n, k in run.visits.items():
            self.reached[n] += 1
            self.visits[n] += k
        if run.outcome == "died" and run.entry is not None:
            self.deaths[run.entry] += 1
            self.causes.setdefault(run.entry, Counter())[cause_name(run.reason)] += 1
        if run.outcome == "ended" and run.entry is not None:
            self.endings[run.entry] += 1
        if run.outcome == "ended":
            self.ending_kinds[run.ending_kind or "unstated"] += 1
        if run.outcome in ("error", "stopped", "cannot-continue"):
            message = f"{run.reason} ({run.where})" if run.where else run.reason
            problem = self.problems.setdefault((run.outcome, message, run.entry),
                                               Problem(run.outcome, message, run.entry))
            problem.count += 1
            if len(problem.examples) < EXAMPLES:
                problem.examples.append((run.index, run.seed))

    def merge(self, other: Tally) -> None:
        self.runs += other.runs
        self.outcomes.update(other.outcomes)
        self.turns.update(other.turns)
        self.treasure_out += other.treasure_out
        self.treasure_runs += other.treasure_runs
        self.treasure_best = max(self.treasure_best, other.treasure_best)
        self.reached.update(other.reached)
        self.visits.update(other.visits)
        self.deaths.update(other.deaths)
        for n, c in other.causes.items():
            self.causes.setdefault(n, Counter()).update(c)
        self.endings.update(other.endings)
        self.ending_kinds.update(other.ending_kinds)
        for key, p in other.problems.items():
            mine = self.problems.setdefault(key, Problem(p.kind, p.message, p.entry))
            mine.count += p.count
            mine.examples = sorted(mine.examples + p.examples)[:EXAMPLES]

    # --- derived numbers ---------------------------------------------------------------------

    def share(self, outcome: str, confidence: float = 0.95) -> tuple[float, float, float]:
        """Proportion of runs with ``outcome`` and its Wilson interval."""
        k = self.outcomes.get(outcome, 0)
        low, high = wilson(k, self.runs, confidence)
        return (k / self.runs if self.runs else 0.0, low, high)

    def mean_turns(self, outcome: str | None = None) -> float:
        if outcome is None:
            total, n = sum(self.turns.values()), self.runs
        else:
            total, n = self.turns.get(outcome, 0), self.outcomes.get(outcome, 0)
        return total / n if n else 0.0

    def death_rows(self) -> list[dict[str, Any]]:
        """Per entry where someone died: deaths, runs that reached it, the rate, the commonest cause."""
        rows = []
        for n, d in self.deaths.items():
            cause, times = self.causes[n].most_common(1)[0]
            rows.append({"entry": n, "deaths": d, "reached": self.reached.get(n, 0),
                         "rate": d / self.reached[n] if self.reached.get(n) else 0.0,
                         "cause": cause, "cause_count": times})
        return sorted(rows, key=lambda r: (-r["deaths"], r["entry"]))

    def never_visited(self, entries: list[int]) -> list[int]:
        return [n for n in entries if not self.reached.get(n)]

    def problem_list(self) -> list[Problem]:
        order = {"error": 0, "cannot-continue": 1, "stopped": 2}
        return sorted(self.problems.values(), key=lambda p: (order.get(p.kind, 3), -p.count, p.message))
