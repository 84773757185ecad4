"""``dtc simulate`` speed on every bundled book, paired against another version of the code.

    python benchmarks/simulate_speed.py                         # this checkout only
    python benchmarks/simulate_speed.py --against HEAD~5        # and the code of a git revision
    python benchmarks/simulate_speed.py --runs 400 --repeats 7 --policies random,cautious

Per book and policy, one process plays ``--runs`` seeded playthroughs (``dtc simulate --workers
1``'s path, :func:`dtc.simulate.runner.play_block`) ``--repeats`` times and reports playthroughs
per CPU second (``time.process_time``: a machine shared with other work disturbs it least), the
best and the median of the repeats. With ``--against REV`` the same measurement runs on the code
of that revision (``git archive`` into a temporary folder, imported from there, in its own
process), interleaved with this checkout's, repeat by repeat, so both see the same load; the
ratio column is this checkout's median over the other's. Books whose runs are slow (the Zilch
book) play a tenth of ``--runs``.

Scaling: ``--scaling-runs`` playthroughs of one book (or ``--scaling BOOK:RUNS[:REPEATS],...``) with 1 and
with 2 workers (or ``--workers 1,2,auto``), each in a fresh process, interleaved, ``--scaling-repeats``
times (with ``--against REV``, that code too): the wall time and CPU time of the simulation (the
process and its workers), and the CPU time of the whole process (interpreter, imports, compiling
the book), each against 1 worker's in the same repeat, with the load average. On a machine other
work shares, the wall-clock speed-up says as much about the neighbours as about dtc; the CPU time
against one worker's (1.00: the workers add no work) is what the code controls.
``--scaling-only`` skips the speed table. Results are Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BOOKS = sorted((ROOT / "adventures").glob("*.txt"))
SLOW = ("the-glass-orchard",)  # Zilch: a tenth of the runs

#: The measuring child: imports dtc from the folder given, plays, prints JSON with CPU seconds.
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from dtc.compiler.api import compile_file
from dtc.simulate.runner import Job, play_block
book, policy, runs = Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
graph = compile_file(book).graph()
play_block(Job(graph, policy, seed=1), range(2))  # warm: imports, caches of the first run
cpu = time.process_time()
tally = play_block(Job(graph, policy, seed=1), range(runs))
cpu = time.process_time() - cpu
print(json.dumps({"cpu": cpu, "runs": runs, "outcomes": dict(tally.outcomes)}))
"""


def measure(src: Path, book: Path, policy: str, runs: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(src), str(book), policy, str(runs)],
                         check=True, capture_output=True, text=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def export(rev: str, into: Path) -> Path:
    """The ``src`` folder of git revision ``rev`` (with the grammar and schemas beside it, as in a
    checkout), unpacked under ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src", "grammar", "schemas"], check=True,
                             capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


#: The scaling child: plays with ``simulate(job, runs, workers)`` of the code in the folder given and
#: prints JSON: the wall time and the CPU time of the simulation alone (this process and its workers).
SCALE_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from dtc.compiler.api import compile_file
from dtc.simulate.parallel import simulate
from dtc.simulate.runner import Job
book, runs, workers = Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
graph = compile_file(book).graph()
def cpu():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
before, start = cpu(), time.perf_counter()
result = simulate(Job(graph, "random", seed=1), runs, workers if workers == "auto" else int(workers))
wall, used = time.perf_counter() - start, cpu() - before
print(json.dumps({"wall": wall, "cpu": used, "workers": result.workers, "outcomes": dict(result.tally.outcomes)}))
"""


def _children_cpu() -> float:
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def scale_once(src: Path, book: Path, runs: int, workers: str) -> dict[str, float]:
    """One fresh process: its whole CPU time (interpreter, imports, compiling the book, the
    simulation, its workers), and the wall and CPU time of the simulation alone."""
    before = _children_cpu()
    out = subprocess.run([sys.executable, "-c", SCALE_CHILD, str(src), str(book), str(runs), workers],
                         check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout)
    result["process"] = _children_cpu() - before
    return result


def scaling(spec: list[tuple[Path, int, int]], workers: list[str], other: Path | None, label: str) -> None:
    """Per book: each worker count in a fresh process, interleaved repeat by repeat (and with the
    code of ``other`` when given), medians; the CPU ratio is taken per repeat against 1 worker."""
    codes = [("this checkout", ROOT / "src")] + ([(label, other)] if other is not None else [])
    print("\nScaling: policy random, medians of the repeats; load average (1 min) at the start and end")
    print("\n| code | book | runs | workers | wall s | speed-up (wall) | CPU s, simulation | CPU vs 1 worker | "
          "CPU s, whole process | whole vs 1 worker | repeats | load |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for book, runs, repeats in spec:
        got: dict[tuple[str, str], list[dict[str, float]]] = {}
        load = [os.getloadavg()[0]]
        for _ in range(repeats):
            for name, src in codes:
                for k in workers:
                    if k == "auto" and src != ROOT / "src":
                        continue  # older code knows only numbers
                    got.setdefault((name, k), []).append(scale_once(src, book, runs, k))
        load.append(os.getloadavg()[0])
        for name, _src in codes:
            base = got[(name, workers[0])]
            for k in workers:
                rows = got.get((name, k))
                if not rows:
                    continue
                wall = statistics.median(r["wall"] for r in rows)
                ratio = statistics.median(r["cpu"] / b["cpu"] for r, b in zip(rows, base, strict=True))
                whole = statistics.median(r["process"] / b["process"] for r, b in zip(rows, base, strict=True))
                speed = statistics.median(b["wall"] / r["wall"] for r, b in zip(rows, base, strict=True))
                used = sorted({int(r["workers"]) for r in rows})
                print(f"| {name} | {book.stem} | {runs:,} | {k} ({'/'.join(map(str, used))}) | {wall:.2f} | "
                      f"{speed:.2f}x | {statistics.median(r['cpu'] for r in rows):.2f} | {ratio:.3f} | "
                      f"{statistics.median(r['process'] for r in rows):.2f} | {whole:.3f} | {len(rows)} | "
                      f"{load[0]:.1f}–{load[1]:.1f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="dtc simulate: playthroughs per CPU second per bundled book.")
    ap.add_argument("--runs", type=int, default=300, help="playthroughs per repeat (a tenth on Zilch)")
    ap.add_argument("--repeats", type=int, default=5, help="repeats per book and policy")
    ap.add_argument("--policies", default="random", help="comma-separated: random,cautious,bold,least-used")
    ap.add_argument("--books", default="", help="only books whose file name contains one of these (comma-separated)")
    ap.add_argument("--against", metavar="REV", help="also measure the code of this git revision")
    ap.add_argument("--scaling-runs", type=int, default=2000, help="playthroughs for the scaling table (0: none)")
    ap.add_argument("--scaling-book", default="the-drowned-chapel", help="book of the scaling table")
    ap.add_argument("--scaling", metavar="BOOK:RUNS[:REPEATS],...", default="",
                    help="books and runs of the scaling table (instead of --scaling-book and --scaling-runs)")
    ap.add_argument("--scaling-repeats", type=int, default=3, help="repeats of each scaling row")
    ap.add_argument("--scaling-only", action="store_true", help="only the scaling table")
    ap.add_argument("--workers", default="1,2",
                    help="worker counts for the scaling table (the first is the base; auto allowed)")
    args = ap.parse_args(argv)
    wanted = [w for w in args.books.split(",") if w]
    books = [b for b in BOOKS if not wanted or any(w in b.name for w in wanted)]
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.runs} playthroughs x {args.repeats} repeats per row (a tenth on {', '.join(SLOW)})\n")
    with tempfile.TemporaryDirectory() as tmp:
        other = export(args.against, Path(tmp)) if args.against else None
        if not args.scaling_only:
            table(args, books, other)
        items = [item.split(":") for item in args.scaling.split(",") if item]
        if not items and args.scaling_runs:
            items = [[args.scaling_book, str(args.scaling_runs)]]
        spec = [(_book(i[0]), int(i[1]), int(i[2]) if len(i) > 2 else args.scaling_repeats) for i in items]
        if spec:
            scaling(spec, args.workers.split(","), other, args.against or "")
    return 0


def _book(name: str) -> Path:
    return next((b for b in BOOKS if name in b.name), BOOKS[0])


def table(args: argparse.Namespace, books: list[Path], other: Path | None) -> None:
    """Playthroughs per CPU second, per book and policy (and against ``other``'s code)."""
    head = "| book | policy | runs/CPU s (best) | runs/CPU s (median) |"
    rule = "|---|---|---:|---:|"
    if other is not None:
        head += f" {args.against}: best | {args.against}: median | ratio (median) |"
        rule += "---:|---:|---:|"
    print(head)
    print(rule)
    for book in books:
        runs = max(1, args.runs // 10) if book.stem in SLOW else args.runs
        for policy in args.policies.split(","):
            mine: list[float] = []
            theirs: list[float] = []
            for _ in range(args.repeats):
                r = measure(ROOT / "src", book, policy, runs)
                mine.append(runs / float(r["cpu"]))  # type: ignore[arg-type]
                if other is not None:
                    t = measure(other, book, policy, runs)
                    theirs.append(runs / float(t["cpu"]))  # type: ignore[arg-type]
            row = f"| {book.stem} | {policy} | {max(mine):,.0f} | {statistics.median(mine):,.0f} |"
            if theirs:
                row += (f" {max(theirs):,.1f} | {statistics.median(theirs):,.1f} | "
                        f"{statistics.median(mine) / statistics.median(theirs):.1f}x |")
            print(row, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
