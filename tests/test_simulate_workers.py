"""`dtc simulate --workers`: batches, forked and spawned workers, the same totals for any number of
workers, a worker that fails or dies, and Ctrl-C leaving no process behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.simulate import Job, parallel, simulate
from dtc.simulate.parallel import CHUNKS, LEAST_USED_CHUNK, WorkerFailed, chunks, workers_for
from dtc.simulate.runner import play_block
from dtc.simulate.stats import Tally
from helpers import ROOT, alive, sigint_default, terminated

BOOK = """Test Book

Adventure Entries

1 A gate. The left door (D0, S2), the right door (D0, S3), a hatch (D0, S4).

2 A hall. On (D0, S5), back (D0, S1).

3 A cell. On (D0, S5), back (D0, S1).

4 A pit. On (D0, S6), back (D0, S1).

5 A vault. THE END

6 A well. THE END
"""
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"
FORK = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def job(policy: str = "random", seed: int = 11) -> Job:
    return Job(compile_text(BOOK, "book.txt").graph(), policy, seed=seed, max_turns=200)


def test_batches_depend_on_the_runs_alone() -> None:
    for runs in (1, 7, 64, 65, 200, 10_000, 100_001):
        for policy in ("random", "least-used"):
            plan = chunks(runs, policy)
            assert [i for part in plan for i in part] == list(range(runs))
            assert len(plan) <= CHUNKS
            assert len({len(p) for p in plan[:-1]}) <= 1  # one size, the last one shorter
    assert all(len(p) >= LEAST_USED_CHUNK for p in chunks(10_000, "least-used"))
    assert chunks(12, "least-used") == [range(12)]
    assert len(chunks(200, "random")) == 50


def test_how_many_processes() -> None:
    plan = chunks(1000, "random")
    assert workers_for(1, plan, 10.0) == 1
    assert workers_for(3, plan, 0.0) == 3
    assert workers_for(5, chunks(3, "random"), 1.0) == 2  # no more processes than batches left
    assert workers_for("auto", plan, 0.0001) == 1  # the rest would take a moment: not worth a process
    assert workers_for("auto", plan, 1.0) == parallel.usable_cores()
    assert workers_for("auto", plan, 0.02, "fork") == parallel.usable_cores()  # 1.26 s left: worth a fork
    assert workers_for("auto", plan, 0.02, "spawn") == 1  # not worth starting interpreters


def _same(a: Tally, b: Tally) -> None:
    assert a == b
    assert list(a.outcomes.items()) == list(b.outcomes.items())  # even the order the report reads them in


@FORK
@pytest.mark.parametrize("policy", ["random", "least-used"])
def test_forked_workers_give_the_same_totals(policy: str) -> None:
    j = job(policy)
    one = simulate(j, 450, 1)
    assert one.workers == 1
    for k in (2, 3):
        many = simulate(j, 450, k, method="fork")
        assert many.workers == k
        _same(one.tally, many.tally)


def test_spawned_workers_give_the_same_totals() -> None:
    j = job("least-used", seed=4)
    one = simulate(j, 300, 1)
    two = simulate(j, 300, 2, method="spawn")
    assert two.workers == 2
    _same(one.tally, two.tally)


def test_one_worker_plays_batch_by_batch() -> None:
    """For every policy but least-used, the totals are those of one block of all the runs."""
    j = job("random", seed=9)
    _same(simulate(j, 300, 1).tally, play_block(j, range(300)))
    lu = job("least-used", seed=9)
    whole = Tally()
    for part in chunks(300, "least-used"):
        whole.merge(play_block(lu, part))
    _same(simulate(lu, 300, 1).tally, whole)


def test_progress_counts_every_run() -> None:
    seen: list[int] = []
    simulate(job(), 300, 2, progress=seen.append, method="fork" if hasattr(os, "fork") else "spawn")
    assert sum(seen) == 300


def _failing_in_children(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Make play_block fail in any process but this one (a forked worker inherits the patch).

    This process dawdles over its first batches after the first, so that the workers surely take
    some (a worker that takes none has nothing to fail on)."""
    here = os.getpid()
    real = parallel.play_block
    calls = [0]

    def play(*args: Any, **kwargs: Any) -> Tally:
        if os.getpid() != here:
            if how == "die":
                os._exit(3)
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("the rules broke")
        calls[0] += 1
        if 1 < calls[0] <= 4:
            time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "play_block", play)


@FORK
def test_a_failing_worker_stops_the_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    _failing_in_children(monkeypatch, "raise")
    before = _children(os.getpid())
    with pytest.raises(WorkerFailed, match=re.escape("worker 1 failed: RuntimeError: the rules broke")):
        simulate(job(), 2000, 2, method="fork")
    assert _children(os.getpid()) == before  # the workers were stopped and waited for


@FORK
@pytest.mark.parametrize("workers", [2, 3])
def test_a_dead_workers_batches_are_played_again(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """A worker killed mid-batch (here: every worker, at its first batch) loses nothing: this
    process plays its batches again, and the report is the one of a single process."""
    alone = simulate(job(seed=5), 2000, 1)
    _failing_in_children(monkeypatch, "die")
    before = _children(os.getpid())
    seen: list[int] = []
    result = simulate(job(seed=5), 2000, workers, method="fork", progress=seen.append)
    _same(result.tally, alone.tally)
    assert result.notes and all("stopped without a result (exit code 3)" in n and "played again" in n
                                for n in result.notes)
    assert sum(seen) <= 2000
    assert _children(os.getpid()) == before


@FORK
def test_a_worker_killed_by_a_signal_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same with a real SIGKILL in the middle of a batch (as the out-of-memory killer sends)."""
    alone = simulate(job(seed=6), 2000, 1)
    _failing_in_children(monkeypatch, "kill")
    result = simulate(job(seed=6), 2000, 2, method="fork")
    _same(result.tally, alone.tally)
    assert result.notes == [f"worker 1 stopped without a result (exit code {-signal.SIGKILL}): its batch was "
                            "played again by the main process; the report is unchanged"]


def test_cli_workers_option(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    outs = []
    for workers in ("1", "2", "auto", "AUTO"):
        r = CliRunner().invoke(main, ["simulate", str(path), "-n", "150", "--seed", "3", "--workers", workers,
                                      "--format", "json"])
        assert r.exit_code == 0, r.output
        outs.append(r.stdout)
    for bad in ("0", "two", "-1"):
        r = CliRunner().invoke(main, ["simulate", str(path), "-n", "5", "--workers", bad])
        assert r.exit_code == 2
        assert "--workers" in r.stderr and "Traceback" not in r.stderr

    import json

    def body(text: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(text)
        for key in ("seconds", "runs_per_second", "workers"):
            data.pop(key, None)
        return data

    assert all(body(o) == body(outs[0]) for o in outs)


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux's /proc)."""
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids.update(int(k) for k in (task / "children").read_text().split())
        except OSError:
            continue
    return kids


@pytest.mark.skipif(not Path("/proc/self/task").exists() or sys.platform != "linux", reason="needs Linux's /proc")
def test_ctrl_c_stops_every_worker() -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while two workers play:
    the documented message and exit 130, and no worker left running."""
    proc = subprocess.Popen([sys.executable, "-m", "dtc", "simulate", str(CHAPEL), "-n", "50000",
                             "--seed", "1", "--workers", "3", "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=sigint_default)
    workers = _workers_of(proc)
    try:
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    assert "stopped: interrupted (no report)" in err and "Traceback" not in err
    assert out == ""
    assert not _still_running(workers, 5)


def _started_with_workers() -> tuple[subprocess.Popen[str], set[int]]:
    """``dtc simulate`` (the installed command's path) of the Drowned Chapel with two workers
    beside it, once both run: 64,000 runs, in batches of 1,000 that each take a worker 5 s (its
    runs are slowed; this process's are not, so the first batch, played before the workers
    start, is quick)."""
    import textwrap

    script = textwrap.dedent(f"""
        import os, sys, time
        import dtc.simulate.runner as runner
        main, real = os.getpid(), runner.play_one
        def slow(*args, **kwargs):
            if os.getpid() != main:
                time.sleep(0.005)
            return real(*args, **kwargs)
        runner.play_one = slow
        sys.argv = ["dtc", "simulate", {str(CHAPEL)!r}, "-n", "64000", "--seed", "1", "--workers", "3",
                    "--no-progress"]
        from dtc.cli import run
        run()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    return proc, _workers_of(proc)


def _workers_of(proc: subprocess.Popen[str]) -> set[int]:
    """The two workers of `dtc simulate` ``proc``, once both run (its process group killed, and
    the test failed, if they never start)."""
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
        time.sleep(0.05)
        workers = _children(proc.pid)
    if len(workers) < 2:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        pytest.fail("the workers never started")
    return workers


def _still_running(workers: set[int], seconds: float) -> list[int]:
    """Those of ``workers`` still running after up to ``seconds`` (each then killed: a failing
    test leaves none behind)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(map(alive, workers)):
        time.sleep(0.05)
    running = [pid for pid in workers if alive(pid)]
    for pid in running:
        os.kill(pid, signal.SIGKILL)
    return running


@pytest.mark.skipif(not Path("/proc/self/task").exists() or sys.platform != "linux", reason="needs Linux's /proc")
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGKILL"])
def test_a_stopped_simulation_leaves_no_worker(stop: str) -> None:
    """SIGTERM to `dtc simulate` alone (as ``kill`` sends it, not to the group) while two workers
    play: it ends as Ctrl-C ends it, status 143 and no traceback, and stops the workers, which
    would otherwise play on to the end of their batches. SIGKILL, which nothing can catch: each
    worker notices within a hundredth of its batch that its parent is gone, and ends."""
    proc, workers = _started_with_workers()
    try:
        if stop == "SIGTERM":
            terminated(proc)
        else:
            proc.kill()
            proc.wait(timeout=30)  # (not its output: the workers hold its pipes while they run)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert not _still_running(workers, 2)


@FORK
def test_workers_that_cannot_start_leave_the_work_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.process

    def refuse(self: Any) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    one = simulate(job(), 300, 1)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse)
    two = simulate(job(), 300, 2, method="fork")
    assert two.workers == 1
    _same(one.tally, two.tally)
