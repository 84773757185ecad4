"""Time ``dtc lint`` (and optionally ``dtc compile``) as whole processes on generated books.

    python benchmarks/run.py                      # N = 400, 10,000, 100,000; 5 runs after 1 warm-up
    python benchmarks/run.py --sizes 400,10000 --runs 9 --compile
    python benchmarks/run.py --check              # exit 1 when a target is missed

Each run starts ``dtc`` afresh (interpreter start-up, imports and all), so the figures are what
an author waits for. Wall time is a monotonic clock around the child; peak memory is the child's
own maximum resident set size, read with ``os.wait4`` (the kernel's accounting, as
``/usr/bin/time -v`` reports it). A large book is read by two processes (see
``dtc.parallel``), so on Linux one more run per size, not timed, samples the memory of the
whole process tree every 20 ms: the sum of each process's proportional set size (PSS, which
counts a page the two processes share half to each, so the sum is the memory really used).
Reading PSS walks a process's page tables (30 ms for 1 GB), which would slow a timed run; it
is kept apart for that reason. The memory target is held to the larger of the two figures.
The median of the
runs is reported, with min and max to show the spread. Books missing from ``benchmarks/out/``
are generated first (see ``generate.py``). The results are printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import OUT_DIR, default_path, write_book

#: Targets on a 2-core machine: entries -> (seconds, MiB or None).
TARGETS: dict[int, tuple[float, float | None]] = {
    400: (0.5, None),
    10_000: (1.2, None),
    100_000: (12.0, 1024.0),
}
#: Books with state (``--possessions``): (entries, possessions) -> seconds.
STATE_TARGETS: dict[tuple[int, int], float] = {(400, 30): 1.0, (10_000, 50): 10.0}


@dataclass
class Run:
    wall: float
    peak_mib: float | None
    status: int
    #: The process tree's peak PSS, on the one untimed run that samples it.
    tree_mib: float | None = None


@dataclass
class Result:
    command: str
    entries: int
    size: int
    runs: list[Run]
    #: Peak PSS of the whole process tree, from one extra run that samples it (not timed).
    tree_mib: float | None = None
    #: Possessions the generated book gives and tests (0: a book without state).
    possessions: int = 0

    @property
    def median_wall(self) -> float:
        return statistics.median(r.wall for r in self.runs)

    @property
    def median_peak(self) -> float | None:
        peaks = [r.peak_mib for r in self.runs if r.peak_mib is not None]
        return statistics.median(peaks) if peaks else None

    def target(self) -> tuple[float, float | None] | None:
        if self.command != "lint":
            return None
        if self.possessions:
            seconds = STATE_TARGETS.get((self.entries, self.possessions))
            return None if seconds is None else (seconds, None)
        return TARGETS.get(self.entries)

    def target_met(self) -> bool | None:
        if self.target() is None:
            return None
        target = self.target()
        assert target is not None
        seconds, mib = target
        peak = max((p for p in (self.median_peak, self.tree_mib) if p is not None), default=None)
        return self.median_wall <= seconds and (mib is None or peak is None or peak <= mib)


def default_dtc() -> list[str]:
    """The ``dtc`` beside this interpreter, else on PATH, else the module through this Python."""
    beside = Path(sys.executable).parent / ("dtc.exe" if os.name == "nt" else "dtc")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("dtc")
    if found:
        return [found]
    return [sys.executable, "-c", "from dtc.cli import main; main()"]


def _maxrss_mib(rusage: object) -> float:
    kib = getattr(rusage, "ru_maxrss", 0)
    # Linux reports KiB, macOS bytes.
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


#: The children's environment. PYTHONDONTWRITEBYTECODE is dropped: an installed dtc has its
#: bytecode compiled at install time, and a checkout writes it on the warm-up run; with the
#: variable set, every run would compile dtc's modules again (about 0.1 s).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _pss_kib(pid: int) -> int:
    """A process's proportional set size now (Linux), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


class TreeMemory(threading.Thread):
    """Samples the summed PSS of a process and its descendants until stopped; keeps the peak."""

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak_kib = pid, interval, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            todo, total = [self.pid], 0
            while todo:
                pid = todo.pop()
                total += _pss_kib(pid)
                todo.extend(_children(pid))
            self.peak_kib = max(self.peak_kib, total)
            self.done.wait(self.interval)

    def stop(self) -> float | None:
        self.done.set()
        self.join()
        return self.peak_kib / 1024 if self.peak_kib else None


def run_once(argv: list[str], timeout: float | None, tree: bool = False) -> tuple[Run, str]:
    """Start ``argv``, wait for it, and return its figures and the tail of its stderr; with
    ``tree``, also the peak memory of its process tree (sampled: the run is slower)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=CHILD_ENV)
        sampler = TreeMemory(proc.pid) if tree and os.path.exists(f"/proc/{proc.pid}/smaps_rollup") else None
        if sampler is not None:
            sampler.start()
        tree_mib: float | None = None
        if hasattr(os, "wait4") and timeout is None:
            _, status, rusage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            code = os.waitstatus_to_exitcode(status)
            proc.returncode = code  # reaped here; keep Popen from waiting again
            peak: float | None = _maxrss_mib(rusage)
        else:
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise SystemExit(f"error: `{' '.join(argv)}` took longer than {timeout:g} s") from None
            wall = time.perf_counter() - start
            peak = None
        if sampler is not None:
            tree_mib = sampler.stop()
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip().splitlines()[-3:]
    return Run(wall, peak, code, tree_mib), "\n".join(tail)


def measure(command: str, dtc: list[str], entries: int, path: Path, runs: int, warmup: int,
            timeout: float | None) -> Result:
    if command == "lint":
        argv = [*dtc, "lint", str(path)]
    else:
        argv = [*dtc, "compile", str(path), "-o", str(path.with_suffix(".json"))]
    ok = {0, 1}  # clean, or findings; 2 means the file could not be read
    result = Result(command, entries, path.stat().st_size, [])
    for i in range(warmup + runs):
        run, tail = run_once(argv, timeout)
        if run.status not in ok:
            raise SystemExit(f"error: `{' '.join(argv)}` exited {run.status}: {tail or '(no message)'}")
        if i >= warmup:
            result.runs.append(run)
        print(f"  {command} {entries:>7,}: run {i + 1}/{warmup + runs} {run.wall:7.3f} s"
              + (" (warm-up)" if i < warmup else ""), file=sys.stderr)
    if timeout is None and os.path.exists("/proc/self/smaps_rollup"):
        run, _ = run_once(argv, timeout, tree=True)
        result.tree_mib = run.tree_mib
        print(f"  {command} {entries:>7,}: memory of all processes {run.tree_mib or 0:,.0f} MiB (untimed run)",
              file=sys.stderr)
    return result


def table(results: list[Result]) -> str:
    rows = [
        "| command | entries | file size | median wall (s) | min–max (s) | peak RSS (MiB) "
        "| all processes, PSS (MiB) | µs/entry | target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        walls = [x.wall for x in r.runs]
        peak, tree = r.median_peak, r.tree_mib
        target = ""
        state = f" ({r.possessions} possessions)" if r.possessions else ""
        goals = r.target()
        if goals is not None:
            seconds, mib = goals
            goal = f"≤ {seconds:g} s" + (f", ≤ {mib:,.0f} MiB" if mib else "")
            target = f"{goal}: {'met' if r.target_met() else 'MISSED'}"
        rows.append(
            f"| {r.command} | {r.entries:,}{state} | {r.size / 1e6:.2f} MB | {r.median_wall:.3f} | "
            f"{min(walls):.3f}–{max(walls):.3f} | {'n/a' if peak is None else f'{peak:,.0f}'} | "
            f"{'n/a' if tree is None else f'{tree:,.0f}'} | {r.median_wall / r.entries * 1e6:,.0f} | {target} |"
        )
    return "\n".join(rows)


def describe(dtc: list[str]) -> str:
    try:
        done = subprocess.run([*dtc, "--version"], capture_output=True, text=True, timeout=60)
        version = done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        version = "dtc (version unknown)"
    return (f"{version}; Python {platform.python_version()} on {platform.system()} {platform.machine()}, "
            f"{os.cpu_count()} CPUs")


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of entry counts: {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("entry counts must be at least 1")
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time dtc lint on generated books; print a Markdown table.")
    ap.add_argument("--sizes", type=parse_sizes, default=[400, 10_000, 100_000],
                    help="entry counts separated by commas (default 400,10000,100000)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per size (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--compile", action="store_true", help="also time `dtc compile` at each size")
    ap.add_argument("--regenerate", action="store_true", help="rewrite the books even if present")
    ap.add_argument("--dtc", help="the dtc command to time (default: the one beside this Python)")
    ap.add_argument("--timeout", type=float, help="seconds allowed per run (peak RSS is then not read)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a lint target is missed")
    ap.add_argument("--possessions", type=parse_sizes,
                    help="books with state: possessions per size, in the order of --sizes (400,10000 and 30,50)")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be at least 1 and --warmup at least 0")
    dtc = args.dtc.split() if args.dtc else default_dtc()

    print(f"dtc benchmark: {describe(dtc)}", file=sys.stderr)
    results: list[Result] = []
    state = args.possessions or [0] * len(args.sizes)
    if len(state) != len(args.sizes):
        ap.error("--possessions needs one count per size")
    for n, p in zip(args.sizes, state, strict=True):
        path = default_path(n, args.seed, p)
        if args.regenerate or not path.is_file():
            print(f"  generating {path.relative_to(OUT_DIR.parent.parent)} ...", file=sys.stderr)
            write_book(n, args.seed, path, p)
        for command in ("lint", "compile") if args.compile else ("lint",):
            result = measure(command, dtc, n, path, args.runs, args.warmup, args.timeout)
            result.possessions = p
            results.append(result)
    print(f"\n{describe(dtc)}; median of {args.runs} runs after {args.warmup} warm-up.\n")
    print(table(results))
    missed = [r for r in results if r.target_met() is False]
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
