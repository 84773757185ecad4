"""Where a ``dtc compile`` spends its time, phase by phase, in each of its processes.

    python benchmarks/compile_phases.py benchmarks/out/book-100000.txt
    python benchmarks/compile_phases.py benchmarks/out/book-10000.txt --runs 3

Runs ``dtc compile BOOK`` in this process (the installed command's own path: the same forks,
the same reading ahead), with each phase wrapped so that it prints, as it begins and ends, the
seconds since the start and this process's user and system CPU time and minor page faults
(``getrusage``); the children forked to read entries and to build the graph print the same
when they end. The JSON goes to a temporary folder, removed afterwards.

Read it for the shape of a compile, not for a timing to quote (``run.py`` times whole
processes): how long the parse takes before its child is forked, whether the two halves of the
parse end together, what the reading child read ahead before the graph's build, how the lint
and the build share the cores, and what is left after the build (the source's digest, the
write). Page faults matter on a virtual machine, where one can cost 3–20 µs: each page the
parent writes that a forked child still shares is copied.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The measuring child: wraps the phases, then runs the command.
CHILD = r"""
import os, resource, sys, time

start = time.perf_counter()


def mark(what):
    r = resource.getrusage(resource.RUSAGE_SELF)
    who = "parent" if os.getpid() == PARENT else f"child {os.getpid()}"
    sys.stderr.write(f"{time.perf_counter() - start:8.3f} s  {who:<13} {what:<28} "
                     f"user {r.ru_utime:6.2f}  sys {r.ru_stime:5.2f}  faults {r.ru_minflt:>8,}\n")
    sys.stderr.flush()


PARENT = os.getpid()
import dtc.cli.base as base
import dtc.compiler.api as api
import dtc.compiler.compile as compile_
import dtc.compiler.parallel as parallel


def wrap(module, name):
    function = getattr(module, name)

    def wrapped(*args, **kwargs):
        mark(f"{name} begins")
        try:
            return function(*args, **kwargs)
        finally:
            mark(f"{name} ends")

    setattr(module, name, wrapped)


for module, name in [(base, "load_source"), (parallel, "read_entries"), (parallel, "_receive"),
                     (api, "resolve"), (compile_, "_write_graph"), (parallel, "written_halves"),
                     (compile_, "_possessions"), (compile_, "_digest")]:
    wrap(module, name)
import dtc.cli.compile_cmd as compile_cmd

wrap(compile_cmd, "lint")
wrap(compile_cmd, "write_text")  # a pipe or a device only
collect = parallel.Ahead.collect


def collected(self):
    mark("read-ahead collect begins")
    taken = collect(self)
    mark(f"collected {len(taken):,} read ahead")
    return taken


parallel.Ahead.collect = collected
end = os._exit


def ended(status):
    mark(f"ends (status {status})")
    end(status)


os._exit = ended
sys.argv = ["dtc", "compile", sys.argv[1], "-o", sys.argv[2]]
from dtc.cli import run

mark("imports done")
try:
    run()
finally:
    mark("ends")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("book", type=Path)
    parser.add_argument("--runs", type=int, default=1, help="how many compiles to show (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "book.json"
        for run in range(args.runs):
            print(f"run {run + 1} of {args.runs}: dtc compile {args.book}", flush=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", CHILD, str(args.book), str(out)], check=False,
                           cwd=os.getcwd(), stdout=subprocess.PIPE)  # kept from the terminal, not shown
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            print(f"wall {time.perf_counter() - started:.2f} s, CPU of every process {cpu:.2f} s, "
                  f"load average {os.getloadavg()[0]:.2f}\n", flush=True)


if __name__ == "__main__":
    main()
