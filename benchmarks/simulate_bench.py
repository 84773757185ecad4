"""Measure ``dtc simulate``: playthroughs per second per core, and how ``--workers`` scales.

    python benchmarks/simulate_bench.py                      # every bundled adventure, the seed's
                                                             # Sample Dungeon, a 400-entry book
    python benchmarks/simulate_bench.py --runs 2000 --policies random,cautious --workers 1,2

Per core: one process plays ``--runs`` playthroughs with the full runtime (as ``dtc simulate
--workers 1`` does) and the rate is runs per CPU second of that process, which a busy machine
disturbs least; wall-clock runs/s is shown beside it. Scaling: the same runs on each worker count
of ``--workers``, wall time, the speed-up over one worker (the work is identical: runs are
seeded by index), and the CPU time of all processes per run relative to one worker (1.00 means
no parallel overhead: on an otherwise idle machine the speed-up then approaches the worker
count; on a busy one the wall-clock speed-up says more about the neighbours). Results are
printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))

from generate import default_path, write_book  # noqa: E402

from dtc.compiler.api import compile_file, compile_text  # noqa: E402
from dtc.simulate.parallel import simulate  # noqa: E402
from dtc.simulate.runner import Job, play_block  # noqa: E402
from dtc.simulate.stats import Tally  # noqa: E402

SEED_FILE = ROOT.parent / "shared" / "seeds" / "death-and-treasure-v0.1.txt"


def books(generated: int) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((ROOT / "adventures").glob("*.txt")):
        out.append((path.name, compile_file(path).graph()))
    if SEED_FILE.is_file():
        lines = SEED_FILE.read_text(encoding="utf-8").split("\n")
        start = next((i for i, line in enumerate(lines) if line.strip() == "Sample Dungeon"), None)
        if start is not None:
            out.append(("Sample Dungeon (seed)", compile_text("\n".join(lines[start:]), "sample.txt").graph()))
    else:
        print(f"(the seed documents are not at {SEED_FILE.parent}: the Sample Dungeon is left out)", file=sys.stderr)
    if generated:
        source = default_path(generated)
        if not source.is_file():
            write_book(generated, 1, source)
        cached = source.with_suffix(".json")
        if cached.is_file() and cached.stat().st_mtime >= source.stat().st_mtime:
            out.append((f"generated {generated:,}", json.loads(cached.read_text(encoding="utf-8"))))
        else:
            graph = compile_file(source).graph()
            cached.write_text(json.dumps(graph), encoding="utf-8")
            out.append((f"generated {generated:,}", graph))
    return out


def per_core(graph: dict[str, Any], policy: str, runs: int, budget: float) -> tuple[float, float, str, int]:
    """Runs per CPU second and per wall second: ``runs`` runs, or fewer when ``budget`` seconds pass."""
    job = Job(graph, policy, seed=1)
    c, w = time.process_time(), time.perf_counter()
    tally = Tally()
    while tally.runs < runs and time.perf_counter() - w < budget:
        tally.merge(play_block(job, range(tally.runs, min(runs, tally.runs + 20))))
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    common = ", ".join(f"{k} {v / tally.runs:.0%}" for k, v in tally.outcomes.most_common(3))
    return tally.runs / cpu, tally.runs / wall, common, tally.runs


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Measure dtc simulate; print Markdown tables.")
    ap.add_argument("--runs", type=int, default=1000, help="playthroughs per book and policy")
    ap.add_argument("--policies", default="random,cautious,bold,least-used")
    ap.add_argument("--budget", type=float, default=30.0, help="at most this many seconds per row")
    ap.add_argument("--generated", type=int, default=400, help="entries of the generated book (0: none)")
    ap.add_argument("--workers", default="1,2", help="worker counts for the scaling table")
    ap.add_argument("--scaling-runs", type=int, default=4000, help="playthroughs per worker count")
    args = ap.parse_args(argv)
    all_books = books(args.generated)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"up to {args.runs} runs or {args.budget:.0f} s per row\n")
    print("| book | entries | policy | runs | runs/s per core (CPU) | runs/s (wall) | commonest outcomes |")
    print("|---|---:|---|---:|---:|---:|---|")
    for name, graph in all_books:
        for policy in args.policies.split(","):
            cpu_rate, wall_rate, common, done = per_core(graph, policy, args.runs, args.budget)
            print(f"| {name} | {len(graph['entries']):,} | {policy} | {done:,} | {cpu_rate:,.0f} | {wall_rate:,.0f} "
                  f"| {common} |", flush=True)
    name, graph = all_books[-1] if not SEED_FILE.is_file() else next(
        (b for b in all_books if b[0].startswith("Sample")), all_books[-1])
    print(f"\nScaling on {name}, policy random, {args.scaling_runs} runs\n")
    print("| workers | wall s | runs/s | speed-up | CPU s, all processes | CPU per run vs 1 worker |")
    print("|---:|---:|---:|---:|---:|---:|")
    base = base_cpu = 0.0
    for k in (int(x) for x in args.workers.split(",")):
        before = _cpu()
        result = simulate(Job(graph, "random", seed=1), args.scaling_runs, k)
        cpu = _cpu() - before
        base, base_cpu = base or result.seconds, base_cpu or cpu
        print(f"| {k} | {result.seconds:.2f} | {args.scaling_runs / result.seconds:,.0f} | "
              f"{base / result.seconds:.2f}x | {cpu:.2f} | {cpu / base_cpu:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
