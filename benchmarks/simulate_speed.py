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

Scaling: ``--scaling-runs`` playthroughs of one book with 1 and with 2 workers (or ``--workers``),
wall time and the CPU time of every process (this one and its finished children). On a machine
other work shares, the wall-clock speed-up says as much about the neighbours as about dtc; the
CPU time per playthrough against one worker's (1.00: the workers add no work) is what the code
controls. Results are Markdown tables.
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


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def scaling(book: Path, runs: int, workers: list[int]) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from dtc.compiler.api import compile_file
    from dtc.simulate.parallel import simulate
    from dtc.simulate.runner import Job

    graph = compile_file(book).graph()
    print(f"\nScaling: {book.name}, policy random, {runs:,} playthroughs\n")
    print("| workers | wall s | speed-up (wall) | CPU s, all processes | CPU per playthrough vs 1 worker |")
    print("|---:|---:|---:|---:|---:|")
    base_wall = base_cpu = 0.0
    for k in workers:
        before = _cpu()
        result = simulate(Job(graph, "random", seed=1), runs, k)
        cpu = _cpu() - before
        base_wall, base_cpu = base_wall or result.seconds, base_cpu or cpu
        print(f"| {k} | {result.seconds:.2f} | {base_wall / result.seconds:.2f}x | {cpu:.2f} | "
              f"{cpu / base_cpu:.2f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="dtc simulate: playthroughs per CPU second per bundled book.")
    ap.add_argument("--runs", type=int, default=300, help="playthroughs per repeat (a tenth on Zilch)")
    ap.add_argument("--repeats", type=int, default=5, help="repeats per book and policy")
    ap.add_argument("--policies", default="random", help="comma-separated: random,cautious,bold,least-used")
    ap.add_argument("--books", default="", help="only books whose file name contains one of these (comma-separated)")
    ap.add_argument("--against", metavar="REV", help="also measure the code of this git revision")
    ap.add_argument("--scaling-runs", type=int, default=2000, help="playthroughs for the scaling table (0: none)")
    ap.add_argument("--scaling-book", default="the-drowned-chapel", help="book of the scaling table")
    ap.add_argument("--workers", default="1,2", help="worker counts for the scaling table")
    args = ap.parse_args(argv)
    wanted = [w for w in args.books.split(",") if w]
    books = [b for b in BOOKS if not wanted or any(w in b.name for w in wanted)]
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.runs} playthroughs x {args.repeats} repeats per row (a tenth on {', '.join(SLOW)})\n")
    with tempfile.TemporaryDirectory() as tmp:
        other = export(args.against, Path(tmp)) if args.against else None
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
    if args.scaling_runs:
        book = next((b for b in BOOKS if args.scaling_book in b.name), BOOKS[0])
        scaling(book, args.scaling_runs, [int(k) for k in args.workers.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
