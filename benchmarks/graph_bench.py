"""`dtc graph` and `dtc build` of a large book, with Graphviz's time measured apart from dtc's.

    python benchmarks/graph_bench.py                       # 10,000 entries, 3 runs each
    python benchmarks/graph_bench.py --size 400 --runs 5
    python benchmarks/graph_bench.py --base ../dtc-base/src  # paired: new, base, new, base...
    python benchmarks/graph_bench.py --shape cross          # the cross-linked book
    python benchmarks/graph_bench.py --shape dense --size 500 --commands graph --timeout 300
                                                           # every entry leads to every other

Each run is a fresh process that starts the command as the console script does (`dtc graph
BOOK -o BOOK.svg`, `dtc build BOOK -o DIR --no-pdf`) and reports, from the kernel's own
accounting, the CPU time (user + system) of dtc itself (``RUSAGE_SELF``) and of the Graphviz
programs it ran (``RUSAGE_CHILDREN``), with the wall time. CPU time, not wall time, is what to
compare on a busy machine. ``--base`` puts another checkout's ``src`` first on the path, so the
previous code runs in the same sitting, alternating with the new. As the console script does,
what the compiler built is frozen for the garbage collector (``RunMode.freeze``); the entries
are read in one process, so that a forked reader's time is not counted as Graphviz's.

``--shape dense`` is a book of ``--size`` entries each of which leads to every other (500 entries:
249,500 exits), the shape whose chart ``dot`` did not finish in minutes; ``--timeout`` stops a run
(SIGTERM, so that dtc stops Graphviz too) after that many seconds and reports it as such.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, os, resource, sys, time
sys.argv = ["dtc", *sys.argv[1:]]
from dtc.cli import main
try:
    from dtc import runmode
    mode = runmode.running(runmode.RunMode(freeze=True))
except ImportError:  # a checkout from before dtc.runmode (--base): the module switch
    import contextlib
    from dtc.compiler import api
    api.freeze_after_build = True
    mode = contextlib.nullcontext()
start = time.monotonic()
try:
    with mode:
        main.main(args=sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
wall = time.monotonic() - start
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"dtc": me.ru_utime + me.ru_stime, "graphviz": kids.ru_utime + kids.ru_stime, "wall": wall}),
      file=sys.stderr)
"""


def once(src: str | None, argv: list[str], timeout: float | None = None) -> dict[str, float]:
    """One run's CPU and wall times; with ``timeout``, a run stopped then has ``"over": timeout``."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    start = time.monotonic()
    with subprocess.Popen([sys.executable, "-c", CHILD, *argv], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()  # dtc takes SIGTERM as Ctrl-C: it stops Graphviz before it ends
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
            return {"dtc": float("nan"), "graphviz": float("nan"), "wall": time.monotonic() - start,
                    "over": float(timeout or 0)}
    last = err.strip().splitlines()[-1] if err.strip() else ""
    try:
        return dict(json.loads(last))
    except ValueError:
        raise SystemExit(f"the run failed: {err[-2000:]}") from None


def dense_book(n: int, path: Path) -> None:
    """``generate.every_door(n)``, written to ``path``."""
    sys.path.insert(0, str(HERE))
    from generate import every_door

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(every_door(n), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--base", help="another checkout's src folder, run alternately with this one")
    ap.add_argument("--commands", default="graph,build")
    ap.add_argument("--shape", choices=("forward", "cross", "dense"), default="forward")
    ap.add_argument("--timeout", type=float, help="seconds after which a run is stopped and reported as such")
    args = ap.parse_args()
    book = HERE / "out" / ("book-" + ("" if args.shape == "forward" else f"{args.shape}-") + f"{args.size}.txt")
    if args.shape == "dense" and not book.exists():
        dense_book(args.size, book)
    elif not book.exists():
        subprocess.run([sys.executable, str(HERE / "generate.py"), str(args.size), "--shape", args.shape,
                        "-o", str(book)], check=True)
    versions = {"new": str(HERE.parent / "src")} | ({"base": args.base} if args.base else {})
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="dtc-graph-bench-") as scratch:
        for run in range(args.runs):
            for command in args.commands.split(","):
                for name, src in versions.items():
                    out = Path(scratch) / f"{name}-{command}-{run}"
                    argv = (["graph", str(book), "-o", str(out.with_suffix(".svg"))] if command == "graph"
                            else ["build", str(book), "-o", str(out), "--no-pdf"])
                    r = once(src, argv, args.timeout)
                    results.setdefault((command, name), []).append(r)
                    if "over" in r:
                        print(f"{command} {name} run {run + 1}: stopped after {r['over']:.0f} s", file=sys.stderr)
                        continue
                    print(f"{command} {name} run {run + 1}: dtc {r['dtc']:.2f} s, Graphviz {r['graphviz']:.2f} s, "
                          f"wall {r['wall']:.1f} s", file=sys.stderr)
    print(f"| {args.size:,} entries, {args.shape} | code | dtc CPU | Graphviz CPU | total CPU | wall |")
    print("|---|---|---:|---:|---:|---:|")
    for (command, name), every in results.items():
        rs = [r for r in every if "over" not in r]
        if not rs:
            print(f"| `dtc {command}` | {name} | | | | every run stopped after {every[0]['over']:.0f} s |")
            continue
        def med(key: str, rs: list[dict[str, float]] = rs) -> float:
            return statistics.median(r[key] for r in rs)
        total = statistics.median(r["dtc"] + r["graphviz"] for r in rs)
        print(f"| `dtc {command}` | {name} | {med('dtc'):.2f} s | {med('graphviz'):.2f} s | {total:.2f} s "
              f"| {med('wall'):.1f} s |")


if __name__ == "__main__":
    main()
