"""`dtc simulate --failure-logs DIR`: the run log of each run that went wrong, for `dtc play --replay`.

A run goes wrong when it hits a runtime error or a book that cannot continue, or is stopped (at
its turn limit, or stuck). For each such problem the report names the first runs that showed it
(:data:`~dtc.simulate.stats.EXAMPLES` of them, with their seeds): those are the runs logged, the
first run of every problem before the second of any, up to a limit. Each is played again here, on
this process, with a run log (:mod:`dtc.runtime.replay`): a run depends on its seed alone
(``least-used`` also on what the runs before it in its batch visited, so that batch is played
again from its start up to it), and a run with a log draws the same dice and makes the same
decisions as one without, so the log is that run's. Each is checked against the report (the same
outcome, reason and entry) before it is written, atomically and never over an input, as
``DIR/BOOK-seed-N.jsonl``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dtc.runtime.log import event_line
from dtc.runtime.ruleset import Rules
from dtc.simulate.runner import Job, play_one
from dtc.simulate.stats import Problem, Run, Tally


@dataclass(frozen=True, slots=True)
class FailureLog:
    """A run log written (``path``), or a run whose log was not (``path`` None: it played otherwise)."""

    index: int
    seed: int
    problem: Problem
    path: Path | None


def chosen(tally: Tally, limit: int) -> list[tuple[int, int, Problem]]:
    """The runs to log, as (index, seed, problem): the first example of each problem in the report's
    order, then the second of each, and so on; at most ``limit``."""
    problems = tally.problem_list()
    picks: list[tuple[int, int, Problem]] = []
    taken: set[int] = set()
    for rank in range(max((len(p.examples) for p in problems), default=0)):
        for problem in problems:
            if rank < len(problem.examples) and len(picks) < limit and problem.examples[rank][0] not in taken:
                index, seed = problem.examples[rank]
                taken.add(index)
                picks.append((index, seed, problem))
    return picks


def log_name(book: str, seed: int) -> str:
    """``BOOK-seed-N.jsonl``: BOOK is the adventure's file name without its suffix (``stdin`` for ``-``)."""
    stem = "stdin" if book == "-" else Path(book).stem or "book"
    return f"{stem}-seed-{seed}.jsonl"


def _shows(run: Run, problem: Problem) -> bool:
    """Whether ``run`` ended as the report says its problem's runs did."""
    message = f"{run.reason} ({run.where})" if run.where else run.reason
    return (run.outcome, message, run.entry) == (problem.kind, problem.message, problem.entry)


def write_failure_logs(job: Job, runs: int, tally: Tally, folder: str | Path, book: str, rules: Rules, limit: int,
                       inputs: Iterable[str | Path | None] = ()) -> list[FailureLog]:
    """Play again the runs :func:`chosen` picks (at most ``limit``) with a run log each, and write the
    logs into ``folder`` (``book``: the adventure's file as given, which names them)."""
    from dtc.fileio import write_bytes
    from dtc.simulate.parallel import chunks

    picks = {index: (seed, problem) for index, seed, problem in chosen(tally, limit)}
    inputs = list(inputs)
    done: dict[int, FailureLog] = {}

    def play(index: int, seen: Counter[int | str] | None) -> None:
        if index not in picks:
            play_one(job, rules, index, seen=seen)  # a run before it, for least-used's memory
            return
        seed, problem = picks[index]
        lines: list[bytes] = []
        run = play_one(job, rules, index, seen=seen, log=lambda event: lines.append(event_line(event).encode()))
        path = None
        if _shows(run, problem):
            path = Path(folder) / log_name(book, seed)
            write_bytes(path, lines, inputs=inputs)
        done[index] = FailureLog(index, seed, problem, path)

    if job.policy == "least-used":
        for batch in chunks(runs, job.policy):
            wanted = [i for i in picks if i in batch]
            if wanted:
                seen: Counter[int | str] = Counter()
                for index in range(batch.start, max(wanted) + 1):
                    play(index, seen)
    else:
        for index in sorted(picks):
            play(index, None)
    return [done[index] for index in picks]
