"""Paired runs of one ``dtc`` command under two source trees, alternating, in one sitting.

    python benchmarks/paired.py BEFORE/src AFTER/src -- lint benchmarks/out/book-10000.txt
    python benchmarks/paired.py BEFORE/src AFTER/src --pairs 15 -- compile benchmarks/out/book-400.txt -o -

Each pair runs ``python -m dtc ARGS`` with ``PYTHONPATH`` set to the first tree, then to the
second (which goes first alternates from pair to pair), and reads each child's CPU time (user +
system, from ``os.wait4``) and wall time. It prints the medians and the median of the per-pair
ratios (after / before), the figure to quote for a change: the two trees see the same machine
within each pair, so a busy hour shifts both. Output of the command goes to a temporary file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def once(src: str, args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``python -m dtc ARGS`` with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": src}
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "dtc", *args], env=env, stdout=out, stderr=out,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"dtc {' '.join(args)} failed under {src}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--pairs", type=int, default=9)
    argv = sys.argv[1:]
    if "--" not in argv:
        ap.error("give the dtc command's arguments after --")
    cut = argv.index("--")
    ns = ap.parse_args(argv[:cut])
    args = argv[cut + 1 :]
    once(ns.before, args)  # a warm-up of each, untimed
    once(ns.after, args)
    cpu: dict[str, list[float]] = {"before": [], "after": []}
    wall: dict[str, list[float]] = {"before": [], "after": []}
    for k in range(ns.pairs):
        order = [("before", ns.before), ("after", ns.after)]
        for name, src in order if k % 2 == 0 else order[::-1]:
            c, w = once(src, args)
            cpu[name].append(c)
            wall[name].append(w)
    ratios = [a / b for a, b in zip(cpu["after"], cpu["before"], strict=True)]
    print(f"dtc {' '.join(args)}: {ns.pairs} pairs")
    for name in ("before", "after"):
        print(f"  {name:6}  CPU median {statistics.median(cpu[name]):.3f} s (min {min(cpu[name]):.3f}, "
              f"max {max(cpu[name]):.3f}), wall median {statistics.median(wall[name]):.3f} s")
    print(f"  after / before, CPU: median of the pairs' ratios {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
