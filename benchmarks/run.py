"""Time every ``dtc`` command as a whole process on generated books.

    python benchmarks/run.py                      # lint at N = 400, 10,000, 100,000; 5 runs after 1 warm-up
    python benchmarks/run.py --sizes 400,10000 --runs 9 --compile
    python benchmarks/run.py --commands lint,compile,odds --shapes forward,cross --sizes 400,10000
    python benchmarks/run.py --commands lint,odds --base "/path/to/old/venv/bin/dtc"   # paired A/B
    python benchmarks/run.py --commands all --shapes forward,cross --base main --markdown table.md
    python benchmarks/run.py --check              # exit 1 when a target is missed

The commands: ``lint``, ``compile``, ``graph`` (to DOT), ``odds`` and ``simulate`` (100 seeded
playthroughs; both read the compiled graph), ``build`` (every edition but the PDF), ``renumber``
(a fresh copy of the book each run) and ``lsp`` (start the server, open the book, type a word,
get the diagnostics, shut down: ``lsp_session.py``). ``--base`` takes another ``dtc`` command or
a git reference: the code at that reference is exported beside the books and run with this
Python, so ``--base main`` pairs every run with the code on ``main``. A command whose run takes
longer than ``--max-seconds`` is skipped at that size and the table says so.

Every command is also shown as a multiple of ``dtc lint`` on the same book (measured in the same
sitting). ``odds`` reads the book's compiled graph (``book-N.json``, compiled once before its
runs). With ``--base``, every timed run of the command is followed by one of the base command
on the same book, so that the two see the same machine, and the table adds the base's median
and the ratio of the two.

Each run starts ``dtc`` afresh (interpreter start-up, imports and all), so the figures are what
an author waits for. Wall time is a monotonic clock around the child; peak memory is the child's
own maximum resident set size, read with ``os.wait4`` (the kernel's accounting, as
``/usr/bin/time -v`` reports it). A large book is read by two processes (see
``dtc.compiler.parallel``), so on Linux one more run per size, not timed, samples the memory of the
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import OUT_DIR, SHAPES, default_path, write_book

COMMANDS = ("lint", "compile", "graph", "odds", "simulate", "build", "renumber", "lsp")
#: Playthroughs of ``simulate`` per run (seeded, so that every run plays the same games).
SIMULATE_RUNS = 100
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

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
    #: User + system CPU time of the child and the children it waited for (``os.wait4``).
    cpu: float | None = None


@dataclass
class Result:
    command: str
    entries: int
    size: int
    runs: list[Run]
    #: Peak PSS of the whole process tree, from one extra run that samples it (not timed).
    tree_mib: float | None = None
    shape: str = "forward"
    #: Runs of the base command (``--base``), each right after the matching run above.
    base_runs: list[Run] | None = None
    #: The median wall time of ``dtc lint`` on the same book (for the ratio).
    lint_wall: float | None = None
    #: Possessions the generated book gives and tests (0: a book without state).
    possessions: int = 0
    #: The median CPU time of ``dtc lint`` on the same book (for the ratio).
    lint_cpu: float | None = None
    #: Why the command was not timed at this size (it took too long), or empty.
    skipped: str = ""

    def label(self) -> str:
        return f"{self.entries:,}" + ("" if self.shape == "forward" else f" {self.shape}") + (
            f" ({self.possessions} possessions)" if self.possessions else "")

    @property
    def median_wall(self) -> float:
        return statistics.median(r.wall for r in self.runs) if self.runs else float("nan")

    @property
    def base_wall(self) -> float | None:
        return statistics.median(r.wall for r in self.base_runs) if self.base_runs else None

    @property
    def median_cpu(self) -> float | None:
        cpus = [r.cpu for r in self.runs if r.cpu is not None]
        return statistics.median(cpus) if cpus else None

    @property
    def base_cpu(self) -> float | None:
        cpus = [r.cpu for r in self.base_runs or [] if r.cpu is not None]
        return statistics.median(cpus) if cpus else None

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


class TimedOut(Exception):
    """A run took longer than it was allowed (the child was killed)."""


def run_once(argv: list[str], timeout: float | None, tree: bool = False) -> tuple[Run, str]:
    """Start ``argv``, wait for it, and return its figures and the tail of its stderr; with
    ``tree``, also the peak memory of its process tree (sampled: the run is slower). Raises
    :class:`TimedOut` when it runs longer than ``timeout`` seconds."""
    # What the command prints goes to a temporary file of ours (never to a device).
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as printed:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=printed, stderr=err, env=CHILD_ENV,
                                start_new_session=True)
        sampler = TreeMemory(proc.pid) if tree and os.path.exists(f"/proc/{proc.pid}/smaps_rollup") else None
        if sampler is not None:
            sampler.start()
        tree_mib: float | None = None
        peak: float | None = None
        cpu: float | None = None
        if hasattr(os, "wait4"):
            while True:
                pid, status, rusage = os.wait4(proc.pid, 0 if timeout is None else os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() - start > (timeout or 0.0):
                    _kill(proc)
                    if sampler is not None:
                        sampler.stop()
                    raise TimedOut(f"`{' '.join(argv)}` took longer than {timeout:g} s")
                time.sleep(0.01)
            wall = time.perf_counter() - start
            code = os.waitstatus_to_exitcode(status)
            proc.returncode = code  # reaped here; keep Popen from waiting again
            peak = _maxrss_mib(rusage)
            cpu = rusage.ru_utime + rusage.ru_stime
        else:
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill(proc)
                raise TimedOut(f"`{' '.join(argv)}` took longer than {timeout:g} s") from None
            wall = time.perf_counter() - start
        if sampler is not None:
            tree_mib = sampler.stop()
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip().splitlines()[-3:]
    return Run(wall, peak, code, tree_mib, cpu), "\n".join(tail)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """End a run that took too long, with the children it started (its own process group)."""
    try:
        os.killpg(proc.pid, 9)
    except (OSError, AttributeError):
        proc.kill()
    proc.wait()


def book_json(path: Path) -> Path:
    return path.with_suffix(".json")


def argv_for(command: str, dtc: list[str], path: Path) -> list[str]:
    stem = path.stem
    if command == "lint":
        return [*dtc, "lint", str(path)]
    if command == "compile":
        return [*dtc, "compile", str(path), "-o", str(book_json(path))]
    if command == "graph":
        return [*dtc, "graph", str(path), "-o", str(path.with_suffix(".dot"))]
    if command == "odds":
        return [*dtc, "odds", str(book_json(path))]
    if command == "simulate":
        return [*dtc, "simulate", str(book_json(path)), "--runs", str(SIMULATE_RUNS), "--seed", "1"]
    if command == "build":
        return [*dtc, "build", str(path), "-o", str(path.parent / f"build-{stem}"), "--no-pdf"]
    if command == "renumber":
        return [*dtc, "renumber", str(path.parent / f"renumber-{stem}.txt")]
    if command == "lsp":
        return [sys.executable, str(HERE / "lsp_session.py"), str(path), *dtc]
    raise ValueError(f"unknown command {command!r}")


def prepare(command: str, path: Path) -> None:
    """What a run needs in place first, outside the timing: renumber gets a fresh copy of the book."""
    if command == "renumber":
        copy = path.parent / f"renumber-{path.stem}.txt"
        shutil.copyfile(path, copy)
        copy.with_name(copy.stem + ".map.json").unlink(missing_ok=True)


def measure(command: str, dtc: list[str], entries: int, path: Path, runs: int, warmup: int,
            timeout: float | None, shape: str = "forward", base: list[str] | None = None,
            tree: bool = True) -> Result:
    """Time ``command``; raises :class:`TimedOut` when a run (the first, usually) takes too long."""
    argv = argv_for(command, dtc, path)
    base_argv = argv_for(command, base, path) if base else None
    ok = {0, 1}  # clean, or findings; 2 means the file could not be read
    result = Result(command, entries, path.stat().st_size, [], shape=shape, base_runs=[] if base else None)
    for i in range(warmup + runs):
        pairs = [(argv, result.runs, "")] + ([(base_argv, result.base_runs, " base")] if base_argv else [])
        for args, into, tag in pairs:
            assert args is not None and into is not None
            prepare(command, path)
            run, tail = run_once(args, timeout)
            if run.status not in ok:
                raise SystemExit(f"error: `{' '.join(args)}` exited {run.status}: {tail or '(no message)'}")
            if i >= warmup:
                into.append(run)
            print(f"  {command}{tag} {shape} {entries:>7,}: run {i + 1}/{warmup + runs} {run.wall:7.3f} s"
                  f" (CPU {run.cpu or 0:.2f} s)" + (" (warm-up)" if i < warmup else ""), file=sys.stderr)
    if tree and os.path.exists("/proc/self/smaps_rollup"):
        prepare(command, path)
        run, _ = run_once(argv, timeout, tree=True)
        result.tree_mib = run.tree_mib
        print(f"  {command} {entries:>7,}: memory of all processes {run.tree_mib or 0:,.0f} MiB (untimed run)",
              file=sys.stderr)
    return result


def table(results: list[Result]) -> str:
    paired = any(r.base_runs for r in results)
    rows = [
        "| command | entries | file size | median wall (s) | min–max (s) | peak RSS (MiB) "
        "| all processes, PSS (MiB) | µs/entry | × lint | CPU (s) |"
        + (" base (s) | ÷ base | base CPU (s) | CPU ÷ base |" if paired else "") + " target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|---:|" if paired else "") + "---|",
    ]
    for r in results:
        if r.skipped:
            rows.append(f"| {r.command} | {r.label()} | {r.size / 1e6:.2f} MB | {r.skipped} |"
                        + " |" * (8 + (4 if paired else 0)))
            continue
        walls = [x.wall for x in r.runs]
        peak, tree = r.median_peak, r.tree_mib
        target = ""
        goals = r.target() if r.shape == "forward" else None
        if goals is not None:
            seconds, mib = goals
            goal = f"≤ {seconds:g} s" + (f", ≤ {mib:,.0f} MiB" if mib else "")
            target = f"{goal}: {'met' if r.target_met() else 'MISSED'}"
        times_lint = "" if not r.lint_wall else f"{r.median_wall / r.lint_wall:.1f}×"
        base = ""
        if paired:
            b, bc, c = r.base_wall, r.base_cpu, r.median_cpu
            base = (" n/a | n/a |" if b is None else f" {b:.3f} | {r.median_wall / b:.2f} |")
            base += (" n/a | n/a |" if bc is None or c is None else f" {bc:.2f} | {c / bc:.2f} |")
        cpu = "n/a" if r.median_cpu is None else f"{r.median_cpu:.2f}"
        rows.append(
            f"| {r.command} | {r.label()} | {r.size / 1e6:.2f} MB | {r.median_wall:.3f} | "
            f"{min(walls):.3f}–{max(walls):.3f} | {'n/a' if peak is None else f'{peak:,.0f}'} | "
            f"{'n/a' if tree is None else f'{tree:,.0f}'} | {r.median_wall / r.entries * 1e6:,.0f} | "
            f"{times_lint} | {cpu} |"
            f"{base} {target} |"
        )
    return "\n".join(rows)


def summary(results: list[Result]) -> str:
    """The README's table: per book and command, times and multiples of lint, and the base's CPU."""
    paired = any(r.base_runs for r in results)
    rows = [
        "| book | command | wall | × lint | CPU | CPU × lint | peak RSS |"
        + (" CPU, base | CPU ÷ base |" if paired else ""),
        "|---|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if paired else ""),
    ]
    for r in results:
        book = f"{r.entries:,}, {'cross-linked' if r.shape == 'cross' else r.shape}"
        if r.skipped:
            rows.append(f"| {book} | {r.command} | {r.skipped} | | | | |" + (" | |" if paired else ""))
            continue
        cpu = r.median_cpu
        lint_x = f"{r.median_wall / r.lint_wall:.1f}×" if r.lint_wall else ""
        cpu_x = f"{cpu / r.lint_cpu:.1f}×" if cpu is not None and r.lint_cpu else ""
        peak = max((p for p in (r.median_peak, r.tree_mib) if p is not None), default=None)
        row = (f"| {book} | {r.command} | {_seconds(r.median_wall)} | {lint_x} | "
               f"{'n/a' if cpu is None else _seconds(cpu)} | {cpu_x} | "
               f"{'n/a' if peak is None else f'{peak:,.0f} MiB'} |")
        if paired:
            bc = r.base_cpu
            row += (" n/a | n/a |" if bc is None or cpu is None else f" {_seconds(bc)} | {cpu / bc:.2f} |")
        rows.append(row)
    return "\n".join(rows)


def _seconds(value: float) -> str:
    return f"{value:.3f} s" if value < 1 else f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def export_base(ref: str) -> list[str]:
    """The ``dtc`` of git reference ``ref``: its tree exported under ``benchmarks/out/`` (once
    per commit) and run with this Python, its ``src/`` first on the path."""
    try:
        sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit(f"error: --base {ref!r} is neither a dtc command nor a git reference") from None
    where = OUT_DIR / f"base-{sha[:12]}"
    if not (where / "src" / "dtc").is_dir():
        print(f"  exporting {ref} ({sha[:12]}) to {where.relative_to(ROOT)} ...", file=sys.stderr)
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    launch = (f"import sys; sys.path.insert(0, {str(where / 'src')!r}); sys.argv[0] = 'dtc'; "
              "from dtc.cli import run; sys.exit(run())")
    return [sys.executable, "-c", launch]


def base_command(text: str) -> list[str]:
    """``--base``: a command (a path, or words separated by spaces), else a git reference."""
    words = text.split()
    if len(words) > 1 or shutil.which(words[0]) or Path(words[0]).is_file():
        return words
    return export_base(text)


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


def parse_choices(allowed: tuple[str, ...]) -> Any:
    def parse(text: str) -> list[str]:
        names = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [n for n in names if n not in allowed]
        if not names or unknown:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)} (separated by commas)")
        return names
    return parse


def heading(args: argparse.Namespace, dtc: list[str]) -> str:
    return (f"{describe(dtc)}; median of {args.runs} runs after {args.warmup} warm-up"
            + (f" ({args.runs_large or args.runs} and none at 100,000 entries)" if max(args.sizes) >= 100_000 else "")
            + (f"; paired against {args.base}" if args.base else "") + ".")


def write_markdown(path: Path, title: str, made: str, results: list[Result]) -> None:
    path.write_text(f"{title}\n\n`{made}`\n\n{summary(results)}\n", encoding="utf-8")


def parse_commands(text: str) -> list[str]:
    return list(COMMANDS) if text.strip() == "all" else parse_choices(COMMANDS)(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time dtc's commands on generated books; print a Markdown table.")
    ap.add_argument("--sizes", type=parse_sizes, default=[400, 10_000, 100_000],
                    help="entry counts separated by commas (default 400,10000,100000)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per size (default 5)")
    ap.add_argument("--runs-large", type=int, default=None,
                    help="timed runs at 100,000 entries and more (default: --runs)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1; none at 100,000 and more)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--compile", action="store_true", help="also time `dtc compile` at each size")
    ap.add_argument("--commands", type=parse_commands, default=None,
                    help=f"commands to time, separated by commas ({', '.join(COMMANDS)}; or all; default lint)")
    ap.add_argument("--shapes", type=parse_choices(SHAPES), default=["forward"],
                    help="book shapes, separated by commas (forward, cross; default forward)")
    ap.add_argument("--base", help="a second dtc command, or a git reference, to pair every run with "
                    "(the code before a change)")
    ap.add_argument("--no-tree", action="store_true",
                    help="skip the untimed run that samples the memory of all processes (saves a run per row)")
    ap.add_argument("--regenerate", action="store_true", help="rewrite the books even if present")
    ap.add_argument("--dtc", help="the dtc command to time (default: the one beside this Python)")
    ap.add_argument("--timeout", type=float, help="seconds allowed per run (peak RSS is then not read)")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="skip a command at a size when one run takes longer than this (the table says so)")
    ap.add_argument("--markdown", type=Path, help="also write the summary table (and how it was made) to this file")
    ap.add_argument("--check", action="store_true", help="exit 1 if a lint target is missed")
    ap.add_argument("--possessions", type=parse_sizes,
                    help="books with state: possessions per size, in the order of --sizes (400,10000 and 30,50)")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be at least 1 and --warmup at least 0")
    dtc = args.dtc.split() if args.dtc else default_dtc()

    base = base_command(args.base) if args.base else None
    commands = args.commands or (["lint", "compile"] if args.compile else ["lint"])
    print(f"dtc benchmark: {describe(dtc)}", file=sys.stderr)
    if base:
        print(f"paired against: {describe(base)}", file=sys.stderr)
    results: list[Result] = []
    made = "python benchmarks/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    title = heading(args, dtc)
    state = args.possessions or [0] * len(args.sizes)
    if len(state) != len(args.sizes):
        ap.error("--possessions needs one count per size")
    limit = args.max_seconds or args.timeout
    for shape in args.shapes:
        for n, possessions in zip(args.sizes, state, strict=True):
            path = default_path(n, args.seed, shape, possessions)
            if args.regenerate or not path.is_file():
                print(f"  generating {path.relative_to(OUT_DIR.parent.parent)} ...", file=sys.stderr)
                write_book(n, args.seed, path, shape, possessions)
            large = n >= 100_000
            runs = (args.runs_large or args.runs) if large else args.runs
            warmup = 0 if large and args.warmup == 1 else args.warmup
            if {"odds", "simulate"} & set(commands) and "compile" not in commands:
                run_once(argv_for("compile", dtc, path), None)  # the graph odds and simulate read
            lint_wall = lint_cpu = None
            for command in ["lint", *(c for c in COMMANDS[1:] if c in commands)]:
                try:
                    if command == "lint" and "lint" not in commands:
                        # the ratio needs lint's time; timed like the rest but left out of the table
                        timed = measure("lint", dtc, n, path, runs, warmup, limit, shape, tree=not args.no_tree)
                        lint_wall, lint_cpu = timed.median_wall, timed.median_cpu
                        continue
                    result = measure(command, dtc, n, path, runs, warmup, limit, shape, base,
                                     tree=not args.no_tree)
                except TimedOut:
                    if command not in commands:
                        continue  # lint, timed only for the ratio: the rows say nothing of it
                    result = Result(command, n, path.stat().st_size, [], shape=shape,
                                    skipped=f"skipped: a run takes over {limit:g} s")
                    print(f"  {command} {shape} {n:>7,}: {result.skipped}", file=sys.stderr)
                if command == "lint" and result.runs:
                    lint_wall, lint_cpu = result.median_wall, result.median_cpu
                result.lint_wall, result.lint_cpu = lint_wall, lint_cpu
                result.possessions = possessions
                results.append(result)
                if args.markdown:  # after every row, so that a long run stopped early keeps its figures
                    write_markdown(args.markdown, title, made, results)
    print(f"\n{title}\n")
    print(table(results))
    if args.markdown:
        write_markdown(args.markdown, title, made, results)
        print(f"\nwrote {args.markdown}", file=sys.stderr)
    missed = [r for r in results if r.target_met() is False]
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
