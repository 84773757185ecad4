"""Run the simulation on one core or several, with an optional progress bar.

With ``workers > 1`` each worker is a separate process (``spawn``: safe whatever threads the
parent runs) that plays one contiguous block of run indexes and sends back its
:class:`~dtc.simulate.stats.Tally`; the tallies are merged in worker order. Progress messages
go through a queue; the bar (rich, on stderr) is drawn only when asked for (a TTY).
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dtc.simulate.runner import Job, blocks, play_block
from dtc.simulate.stats import Tally

_POLL = 0.1  # seconds between checks on the workers


class WorkerFailed(RuntimeError):
    """A worker process died without reporting (killed, out of memory)."""


@dataclass(slots=True)
class Result:
    tally: Tally
    seconds: float
    workers: int


def _worker(job: Job, indexes: range, slot: int, out: Any) -> None:
    try:
        tally = play_block(job, indexes, progress=lambda k: out.put(("progress", slot, k)))
        out.put(("done", slot, tally))
    except BaseException as exc:  # pragma: no cover - reported to the parent, which fails cleanly
        out.put(("failed", slot, f"{type(exc).__name__}: {exc}"))


def simulate(job: Job, runs: int, workers: int = 1, *, progress: Callable[[int], None] | None = None) -> Result:
    """Play ``runs`` playthroughs of ``job`` on ``workers`` processes (1: in this process)."""
    parts = blocks(runs, workers)
    start = time.perf_counter()
    if len(parts) == 1:
        tally = play_block(job, parts[0], progress)
        return Result(tally, time.perf_counter() - start, 1)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(job, part, k, out), daemon=True) for k, part in enumerate(parts)]
    for p in procs:
        p.start()
    tallies: dict[int, Tally] = {}
    try:
        while len(tallies) < len(procs):
            try:
                kind, slot, payload = out.get(timeout=_POLL)
            except queue.Empty:
                dead = [k for k, p in enumerate(procs) if not p.is_alive() and k not in tallies]
                if dead and out.empty():
                    time.sleep(_POLL)  # a result may still be in flight
                    if out.empty():
                        raise WorkerFailed(f"worker {dead[0]} stopped without a result "
                                           f"(exit code {procs[dead[0]].exitcode})") from None
                continue
            if kind == "progress":
                if progress is not None:
                    progress(int(payload))
            elif kind == "done":
                tallies[slot] = payload
            else:
                raise WorkerFailed(f"worker {slot} failed: {payload}")
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
            p.join()
    total = Tally()
    for k in range(len(procs)):
        total.merge(tallies[k])
    return Result(total, time.perf_counter() - start, len(procs))


def with_progress_bar(job: Job, runs: int, workers: int, *, show: bool) -> Result:
    """:func:`simulate`, with a rich progress bar on stderr when ``show``."""
    if not show:
        return simulate(job, runs, workers)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("runs", total=runs)
        return simulate(job, runs, workers, progress=lambda k: bar.advance(task, k))
