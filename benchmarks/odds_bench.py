"""Time ``dtc odds`` (the exact chain) on generated books of 400, 10,000 and 100,000 entries.

    python benchmarks/odds_bench.py                       # N = 400, 10,000, 100,000; 3 runs each
    python benchmarks/odds_bench.py --sizes 400,10000 --runs 5

Books come from ``generate.py`` (written to ``benchmarks/out/`` when missing) and are compiled
once in this process; each book's compiled graph is cached next to it as ``book-N.json`` (plain
JSON, read back without schema validation), so the timing covers what ``dtc odds`` itself does:
reading the options, the fresh-adventurer chances, the sparse solve, reach probabilities and
the per-choice table. CPU time (this process) is reported beside wall time: on a shared machine
the CPU time is the steadier figure. The median of the runs is printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from generate import default_path, write_book  # noqa: E402

from dtc.odds import one_blas_thread  # noqa: E402

one_blas_thread()  # as `dtc odds` does
from dtc.compiler.api import compile_file  # noqa: E402
from dtc.odds import compute_odds  # noqa: E402


def graph_for(n: int, seed: int) -> dict[str, Any]:
    source = default_path(n, seed)
    if not source.is_file():
        write_book(n, seed, source)
    cached = source.with_suffix(".json")
    if cached.is_file() and cached.stat().st_mtime >= source.stat().st_mtime:
        data: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return data
    print(f"compiling {source.name} (once; cached as {cached.name}) ...", file=sys.stderr)
    graph = compile_file(source).graph()
    cached.write_text(json.dumps(graph), encoding="utf-8")
    return graph


def measure(graph: dict[str, Any], policy: str, runs: int) -> tuple[float, float, str, int]:
    cpu, wall = [], []
    method, unknown = "", 0
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        odds = compute_odds(graph, policy=policy)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        method = odds.method
        unknown = sum(1 for r in odds.reach.values() if r is None)
    return statistics.median(cpu), statistics.median(wall), method, unknown


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time dtc odds on generated books; print a Markdown table.")
    ap.add_argument("--sizes", default="400,10000,100000", help="comma-separated entry counts")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per size and policy (median reported)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed")
    ap.add_argument("--policies", default="random,cautious")
    args = ap.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    print(f"Python {platform.python_version()} on {platform.machine()}; median of {args.runs} runs\n")
    print("| entries | policy | reader | CPU s | wall s | entries without exact reach |")
    print("|---:|---|---|---:|---:|---:|")
    for n in sizes:
        graph = graph_for(n, args.seed)
        compute_odds(graph)  # warm-up: imports, caches
        for policy in args.policies.split(","):
            cpu, wall, method, unknown = measure(graph, policy, args.runs)
            print(f"| {n:,} | {policy} | {method} | {cpu:.2f} | {wall:.2f} | {unknown:,} |", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process: {peak:,.0f} MiB (includes the compiled graphs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
