"""Run the simulation on one core or several, with an optional progress bar.

The runs are cut into batches of consecutive runs (:func:`chunks`: at most :data:`CHUNKS` of
them, the cut depending on the number of runs alone). This process plays the first batch
itself, which warms the per-book caches (each question's odds, damage tables) as one worker
would. With more workers wanted (and, for ``auto``, when the rest of the runs would take long
enough to gain from them: :data:`AUTO_MIN_SECONDS`), it then starts ``workers - 1`` more
processes and plays on beside them; each process takes the next batch nobody has taken yet (a
shared counter), so the load balances whatever each batch costs.

Where ``fork`` exists (POSIX but macOS) and this process runs no other thread, the workers are
forked: they start with the book loaded, dtc imported and the caches warm (copy-on-write), at no
start-up cost. Elsewhere they are spawned (a fresh interpreter each, safe whatever threads this
process runs) and pay their own start-up. Each batch's :class:`~dtc.simulate.stats.Tally` is
merged in batch order, so the totals depend on the seed and the number of runs only: the same
for any number of workers, whoever finished first.

A worker that dies without reporting (killed, out of memory) loses nothing: the batches it had
taken and not sent back (a shared table says whose each batch is) are played again by this process,
which gives the same tallies, so the report is unchanged; a note says so. A worker whose rules
raised an error fails the run (:class:`WorkerFailed`): that error would recur in any process.

Progress messages go through a queue; the bar (rich, on stderr) is drawn only when asked for
(a TTY). Ctrl-C reaches every process of the terminal's group: the workers ignore it, and this
process stops them (terminate, then wait for each) before the ``KeyboardInterrupt`` goes on, so
none is left running.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Literal

from dtc.runtime.ruleset import Rules
from dtc.simulate.runner import Job, play_block
from dtc.simulate.stats import Tally

#: ``--workers auto``: the cores this process may run on, when the runs are long enough.
AUTO = "auto"
Workers = int | Literal["auto"]
#: At most this many batches: enough for any worker count to balance its load, few enough that
#: sending a batch's tally back costs nothing next to playing it.
CHUNKS = 64
#: ``least-used`` remembers what the runs of its batch visited: a batch holds at least this many.
LEAST_USED_CHUNK = 100
#: ``auto`` starts more processes only when the rest of the runs would take at least this many
#: seconds on one core (judged by the first batch, which overestimates: its caches are cold). A
#: forked worker costs 10-15 ms of CPU, but two processes running at once on a busy machine slow
#: each other; a spawned one starts a fresh interpreter importing dtc (a third of a second of CPU).
AUTO_MIN_SECONDS = {"fork": 1.0, "spawn": 3.0}
_POLL = 0.1  # seconds between checks on the workers


class WorkerFailed(RuntimeError):
    """A worker process failed: its rules raised an error."""


@dataclass(slots=True)
class Result:
    tally: Tally
    seconds: float
    workers: int
    notes: list[str] = field(default_factory=list)  # e.g. a worker that died, its batches played again


def chunks(runs: int, policy: str) -> list[range]:
    """The batches of run indexes, in order: at most :data:`CHUNKS` of (nearly) one size.

    They depend on ``runs`` and the policy alone, never on the workers: ``least-used`` remembers
    per batch, so its results depend on the cut (its batches hold at least :data:`LEAST_USED_CHUNK`
    runs); for the other policies the cut changes nothing.
    """
    if runs <= 0:
        return [range(0)]
    least = LEAST_USED_CHUNK if policy == "least-used" else 1
    size = max(least, -(-runs // CHUNKS))
    return [range(at, min(at + size, runs)) for at in range(0, runs, size)]


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity; all the machine's where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def start_method() -> str:
    """``fork`` where it exists and is safe here (POSIX but macOS, no other thread), else ``spawn``."""
    if "fork" in mp.get_all_start_methods() and sys.platform != "darwin" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _rules(job: Job) -> Rules:
    from dtc.systems import play_rules

    return play_rules(job.graph.get("rules"))


def _take(counter: Any, count: int, owner: Any = None, slot: int = 0) -> int | None:
    """The next batch nobody has taken (``None`` when all are), marked in ``owner`` as ``slot``'s."""
    with counter.get_lock():
        k = int(counter.value)
        if k >= count:
            return None
        if owner is not None:
            owner[k] = slot  # shared memory, set before the batch is played: known even if the taker dies
        counter.value = k + 1
        return k


class _Reporter:
    """A worker's progress, sent at most every :data:`_POLL` seconds (a message per run would cost)."""

    def __init__(self, out: Any) -> None:
        self.out = out
        self.pending = 0
        self.sent = time.monotonic()

    def __call__(self, k: int) -> None:
        self.pending += k
        now = time.monotonic()
        if now - self.sent >= _POLL:
            self.flush()
            self.sent = now

    def flush(self) -> None:
        if self.pending:
            self.out.put(("progress", -1, self.pending))
            self.pending = 0


def _worker(job: Job, plan: list[range], counter: Any, owner: Any, out: Any, parent: int, slot: int,
            report: bool) -> None:
    """A worker: plays the batches nobody has taken until none is left (or its parent is gone: it
    looks a hundred times a batch)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops every worker
    # A forked worker starts with the parent's way of taking a stop (dtc.cli.base.ends_cleanly);
    # its own is the default: it ends at once when the parent stops it.
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held back while the workers started
    try:
        rules = _rules(job)
        reporter = _Reporter(out) if report else None

        def progress(k: int) -> None:  # every hundredth of a batch (200 runs at most)
            if os.getppid() != parent:  # the parent was killed (SIGKILL): no one to play for
                os._exit(1)
            if reporter is not None:
                reporter(k)

        while os.getppid() == parent and (k := _take(counter, len(plan), owner, slot)) is not None:
            tally = play_block(job, plan[k], progress, rules=rules)
            if reporter is not None:
                reporter.flush()
            out.put(("done", k, tally))
    except BaseException as exc:  # pragma: no cover - reported to the parent, which fails cleanly
        out.put(("failed", slot, f"{type(exc).__name__}: {exc}"))


def workers_for(workers: Workers, plan: list[range], first_seconds: float, method: str = "fork") -> int:
    """How many processes play (this one included), the first batch having taken ``first_seconds``
    of CPU time and the workers to be started by ``method``."""
    left = len(plan) - 1  # batches still to play
    if workers == AUTO:
        played = len(plan[0]) or 1
        rest = first_seconds * sum(len(p) for p in plan[1:]) / played
        want = usable_cores() if rest >= AUTO_MIN_SECONDS.get(method, 3.0) else 1
    else:
        want = int(workers)
    return max(1, min(want, left))


def simulate(job: Job, runs: int, workers: Workers = 1, *, progress: Callable[[int], None] | None = None,
             method: str | None = None) -> Result:
    """Play ``runs`` playthroughs of ``job`` on up to ``workers`` processes (this one included).

    ``workers``: a number, or ``"auto"`` (:func:`usable_cores`, when the runs are long enough to
    gain from them). ``method``: ``"fork"`` or ``"spawn"`` (default: :func:`start_method`).
    """
    plan = chunks(runs, job.policy)
    rules = _rules(job)
    tallies: list[Tally | None] = [None] * len(plan)
    start = time.perf_counter()
    cpu = time.process_time()
    tallies[0] = play_block(job, plan[0], progress, rules=rules)
    method = method or start_method()  # after the first batch: a thread may have ended meanwhile
    count = workers_for(workers, plan, time.process_time() - cpu, method)
    if count <= 1:
        for k in range(1, len(plan)):
            tallies[k] = play_block(job, plan[k], progress, rules=rules)
    notes: list[str] = []
    if count > 1:
        count = _play_beside(job, plan, rules, tallies, count - 1, progress, method, notes)
    total = Tally()
    for tally in tallies:
        assert tally is not None
        total.merge(tally)
    return Result(total, time.perf_counter() - start, count, notes)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Ctrl-C held back while the workers start: each starts with it blocked (a fork and an exec
    keep the signal mask) and ignores it before letting it through; in this process a Ctrl-C
    pressed meanwhile arrives as soon as they are up, and is not lost."""
    if not hasattr(signal, "pthread_sigmask"):  # no POSIX signal masks: the workers ignore it when they run
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _play_beside(job: Job, plan: list[range], rules: Rules, tallies: list[Tally | None], extra: int,
                 progress: Callable[[int], None] | None, method: str, notes: list[str]) -> int:
    """Start ``extra`` workers and play the batches left beside them; fills ``tallies`` (and
    ``notes``, when a worker died). Returns how many processes played (this one included: fewer
    when a worker could not be started)."""
    ctx: Any = mp.get_context(method)
    counter = ctx.Value("i", 1)  # batch 0 is played
    owner = ctx.Array("i", len(plan), lock=False)  # who took each batch (0: this process); under counter's lock
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(job, plan, counter, owner, out, os.getpid(), slot,
                                               progress is not None),
                         daemon=True) for slot in range(1, extra + 1)]  # this process is worker 0
    started: list[Any] = []

    def replay(k: int) -> None:  # a dead worker's batch, played here: the same tally
        tallies[k] = play_block(job, plan[k], None, rules=rules)

    waiting = _Waiting(out, started, tallies, progress, owner, replay, notes)
    try:
        forked = method == "fork"
        if forked:
            sys.stdout.flush()
            sys.stderr.flush()
            gc.freeze()  # the book and the caches: no collection in a worker touches (and copies) them
        try:
            with _sigint_held():
                for p in procs:
                    try:
                        p.start()
                    except OSError:  # no more processes (a limit, no memory): play with those started
                        break
                    started.append(p)
        finally:
            if forked:
                gc.unfreeze()
        mine = waiting.checking(progress)
        while (k := _take(counter, len(plan), owner, 0)) is not None:
            tallies[k] = play_block(job, plan[k], mine, rules=rules)
            waiting.check()
        waiting.wait()
    finally:
        _stop(started, clean=waiting.complete())
        out.close()
    return 1 + len(started)


class _Waiting:
    """This process's side of the queue: collects the batches' tallies, passes progress on, and
    notices a worker that failed or died."""

    def __init__(self, out: Any, procs: list[Any], tallies: list[Tally | None],
                 progress: Callable[[int], None] | None, owner: Any, replay: Callable[[int], None],
                 notes: list[str]) -> None:
        self.out = out
        self.procs = procs
        self.tallies = tallies
        self.progress = progress
        self.owner = owner
        self.replay = replay
        self.notes = notes
        self.checked = time.monotonic()

    def complete(self) -> bool:
        return all(t is not None for t in self.tallies)

    def _handle(self, message: tuple[str, int, Any]) -> None:
        kind, slot, payload = message
        if kind == "progress":
            if self.progress is not None:
                self.progress(int(payload))
        elif kind == "done":
            self.tallies[slot] = payload
        else:
            raise WorkerFailed(f"worker {slot} failed: {payload}")

    def check(self) -> None:
        """Take whatever the workers sent, without waiting."""
        self.checked = time.monotonic()
        while True:
            try:
                message = self.out.get_nowait()
            except queue.Empty:
                return
            self._handle(message)

    def checking(self, progress: Callable[[int], None] | None) -> Callable[[int], None]:
        """This process's own progress callback: passes it on, and now and then takes the workers' messages."""
        def step(k: int) -> None:
            if progress is not None:
                progress(k)
            if time.monotonic() - self.checked >= _POLL:
                self.check()
        return step

    def wait(self) -> None:
        """Wait for the batches the workers still play (and play those a dead worker lost)."""
        noticed = time.monotonic()
        while not self.complete():
            with suppress(queue.Empty):
                self._handle(self.out.get(timeout=_POLL))
            if time.monotonic() - noticed >= _POLL:  # even while progress keeps arriving
                noticed = time.monotonic()
                self._notice_dead()

    def _orphans(self, slots: set[int]) -> list[int]:
        """The batches the workers in ``slots`` took and never sent back."""
        return [k for k, t in enumerate(self.tallies) if t is None and self.owner[k] in slots]

    def _notice_dead(self) -> None:
        """Batches a worker that stopped had taken and not sent back are played again here."""
        slots = {i + 1: p for i, p in enumerate(self.procs) if p.exitcode is not None}
        if not slots or not self._orphans(set(slots)):
            return
        time.sleep(_POLL)  # a result may still be in flight
        self.check()
        lost = self._orphans(set(slots))
        if not lost:
            return
        for slot in sorted({self.owner[k] for k in lost}):
            mine = [k for k in lost if self.owner[k] == slot]
            self.notes.append(f"worker {slot} stopped without a result (exit code {slots[slot].exitcode}): "
                              f"its {_batches(len(mine))} played again by the main process; the report is unchanged")
            for k in mine:
                self.replay(k)
                self.check()


def _batches(count: int) -> str:
    return "batch was" if count == 1 else f"{count} batches were"


def _stop(procs: list[Any], *, clean: bool) -> None:
    """Every worker ended and waited for: given a moment to exit when all went well, else stopped."""
    deadline = time.monotonic() + (1.0 if clean else 0.0)
    for p in procs:
        if p.is_alive():
            p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.terminate()
        p.join()


def with_progress_bar(job: Job, runs: int, workers: Workers, *, show: bool) -> Result:
    """:func:`simulate`, with a rich progress bar on stderr when ``show``.

    The bar is redrawn as progress arrives (no refresh thread: forking beside a thread is unsafe).
    """
    if not show:
        return simulate(job, runs, workers)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task("runs", total=runs)
        drawn, pending = [0.0], [0]

        def advance(k: int) -> None:  # the bar is moved and redrawn ten times a second at most
            pending[0] += k
            now = time.monotonic()
            if now - drawn[0] >= _POLL:
                drawn[0] = now
                bar.advance(task, pending[0])
                pending[0] = 0
                bar.refresh()

        result = simulate(job, runs, workers, progress=advance)
        bar.advance(task, pending[0])
        bar.refresh()
        return result
