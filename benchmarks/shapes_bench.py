"""Time ``dtc lint``, ``dtc compile`` and ``dtc odds`` as whole processes on books of every shape.

    python benchmarks/shapes_bench.py                          # every shape at 400 and 10,000 entries
    python benchmarks/shapes_bench.py --shapes grid,hub,corridor --sizes 400,10000,100000
    python benchmarks/shapes_bench.py --vs HEAD                 # paired with the committed code: A B A B
    python benchmarks/shapes_bench.py --python /path/to/other/.venv/bin/python --commands lint,odds

The books come from ``generate.py`` (``--shape``), written to ``benchmarks/out/`` when missing: the
graphs a reader wanders long in (``long-walk``, ``long-walk-out``, ``grid``, ``hub``, ``corridor``)
and the books with state (``many-flags``, ``gamebook``; a gamebook always has 350 sections).
``odds`` reads the book's compiled graph, as ``run.py`` times it: ``compile`` writes it (once,
untimed, when ``compile`` is not among the commands), so the odds column is its own work.

Every run starts ``dtc`` afresh. Wall time is a monotonic clock around the child; CPU time is the
change in ``resource.getrusage(RUSAGE_CHILDREN)`` (user + system) across the run, which counts
the processes the child waited for too. A run that takes longer than ``--timeout`` is killed
(with its process group) and reported as "timeout", and the command is not run again on that
book. With ``--vs`` (a git reference, exported once into ``benchmarks/out/`` and run with this
Python) or ``--python`` (another interpreter with dtc installed), every run of this checkout is
followed by one of the other on the same book, so both see the same machine. The medians are
printed as a Markdown table, each command also as a multiple of ``dtc lint`` on the same book.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import default_path, write_book  # noqa: E402
from run import CHILD_ENV, default_dtc, describe, export_base  # noqa: E402

SHAPES = ("long-walk", "long-walk-out", "grid", "hub", "corridor", "many-flags", "gamebook")
COMMANDS = ("compile", "lint", "odds")
#: A gamebook has as many sections as a published one, whatever the sizes asked for.
GAMEBOOK = 350
LAUNCH = "import sys; sys.argv[0] = 'dtc'; from dtc.cli import run; sys.exit(run())"


@dataclass
class Side:
    """One dtc to time: this checkout (A) or the one it is paired with (B)."""

    name: str
    argv: list[str]
    #: What the compiled graph of a book is called for this side (each side compiles its own).
    suffix: str = ".json"


@dataclass
class Cell:
    """The runs of one command on one book by one side."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    timeout: bool = False
    failed: str = ""

    @property
    def wall(self) -> float | None:
        return statistics.median(self.walls) if self.walls and not self.timeout else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus and not self.timeout else None


@dataclass
class Row:
    shape: str
    entries: int
    size: int
    #: command -> side name -> cell
    cells: dict[str, dict[str, Cell]] = field(default_factory=dict)


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], timeout: float) -> tuple[float, float, int | None, str]:
    """Run ``argv`` to its end: (wall s, CPU s, exit status or None on a timeout, stderr's tail).
    What it prints goes to a temporary file (never to a device)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        before = cpu_children()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=CHILD_ENV,
                                start_new_session=True)
        try:
            status: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()
            proc.wait()
            status = None
        wall = time.perf_counter() - start
        cpu = cpu_children() - before
        err.seek(0)
        tail = "\n".join(err.read().decode("utf-8", "replace").strip().splitlines()[-3:])
    return wall, cpu, status, tail


def argv_for(command: str, side: Side, book: Path) -> list[str]:
    graph = str(book.with_suffix(side.suffix))
    if command == "compile":
        return [*side.argv, "compile", str(book), "-o", graph]
    if command == "lint":
        return [*side.argv, "lint", str(book)]
    return [*side.argv, "odds", graph]


def book_for(shape: str, n: int, seed: int, out: Path | None, regenerate: bool) -> Path:
    path = default_path(n, seed, shape)
    if out is not None:
        path = out / path.name
    if regenerate or not path.is_file():
        print(f"  generating {path.name} ...", file=sys.stderr, flush=True)
        write_book(n, seed, path, shape)
    return path


def measure(row: Row, book: Path, commands: list[str], sides: list[Side], runs: int, warmup: int,
            timeout: float) -> None:
    if "odds" in commands and "compile" not in commands:
        for side in sides:  # the graph odds reads, untimed
            _, _, status, tail = run_once(argv_for("compile", side, book), timeout)
            if status not in (0, 1):
                print(f"  {side.name}: compile of {book.name} failed: {tail}", file=sys.stderr)
    for command in [c for c in COMMANDS if c in commands]:
        cells = row.cells.setdefault(command, {side.name: Cell() for side in sides})
        for i in range(warmup + runs):
            for side in sides:
                cell = cells[side.name]
                if cell.timeout or cell.failed:
                    continue
                wall, cpu, status, tail = run_once(argv_for(command, side, book), timeout)
                note = " (warm-up)" if i < warmup else ""
                if status is None:
                    cell.timeout = True
                    note = f" timeout after {timeout:g} s"
                elif status not in (0, 1):  # 1: lint found errors; 2: the file could not be read
                    cell.failed = f"exit {status}"
                    note = f" failed (exit {status}): {tail}"
                elif i >= warmup:
                    cell.walls.append(wall)
                    cell.cpus.append(cpu)
                print(f"  {command:<7} {side.name} {row.shape} {row.entries:>7,}: run {i + 1}/{warmup + runs} "
                      f"{wall:7.2f} s, CPU {cpu:6.2f} s{note}", file=sys.stderr, flush=True)


def _s(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _x(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}" if a is not None and b else ""


def _time(cell: Cell, value: float | None) -> str:
    return "timeout" if cell.timeout else cell.failed or _s(value)


def table(rows: list[Row], sides: list[str]) -> str:
    """A Markdown table: a line per book and command, medians of wall and CPU time, the multiple of
    lint (CPU), and with a second side its times and the ratio A ÷ B."""
    paired = len(sides) > 1
    head = "| shape | entries | MB | command | wall s | CPU s | × lint, wall | × lint, CPU |"
    rule = "|---|---:|---:|---|---:|---:|---:|---:|"
    if paired:
        head += " B wall s | B CPU s | B × lint, CPU | A ÷ B, wall | A ÷ B, CPU |"
        rule += "---:|---:|---:|---:|---:|"
    lines = [head, rule]
    for row in rows:
        lint = row.cells.get("lint", {})
        for command in COMMANDS:
            if command not in row.cells:
                continue
            a = row.cells[command][sides[0]]
            la = lint[sides[0]] if lint and command != "lint" else None
            line = (f"| {row.shape} | {row.entries:,} | {row.size / 1e6:.1f} | {command} | {_time(a, a.wall)} | "
                    f"{_time(a, a.cpu)} | {_x(a.wall, la.wall) if la else ''} | {_x(a.cpu, la.cpu) if la else ''} |")
            if paired:
                b = row.cells[command][sides[1]]
                lb = lint[sides[1]] if lint and command != "lint" else None
                line += (f" {_time(b, b.wall)} | {_time(b, b.cpu)} | {_x(b.cpu, lb.cpu) if lb else ''} | "
                         f"{_x(a.wall, b.wall)} | {_x(a.cpu, b.cpu)} |")
            lines.append(line)
    return "\n".join(lines)


def _names(allowed: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [p.strip() for p in text.split(",") if p.strip()]
        if not names or any(n not in allowed for n in names):
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)} (separated by commas)")
        return names
    return parse


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(p.replace("_", "")) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of entry counts: {text!r}") from None
    if not sizes or min(sizes) < 50:
        raise argparse.ArgumentTypeError("entry counts must be at least 50")
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time dtc lint, compile and odds on books of every shape; "
                                 "print a Markdown table.")
    ap.add_argument("--shapes", type=_names(SHAPES), default=list(SHAPES),
                    help=f"shapes separated by commas (default all: {', '.join(SHAPES)})")
    ap.add_argument("--sizes", type=_sizes, default=[400, 10_000],
                    help="entry counts separated by commas (default 400,10000; the gamebook is always 350)")
    ap.add_argument("--commands", type=_names(COMMANDS), default=list(COMMANDS),
                    help="commands separated by commas (default compile,lint,odds)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per command and book (default 3; median)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1; none at 100,000+)")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds a run may take before it is killed and reported as timeout (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    other = ap.add_mutually_exclusive_group()
    other.add_argument("--vs", metavar="REV", help="pair every run with the dtc of this git reference")
    other.add_argument("--python", metavar="PATH", type=Path,
                       help="pair every run with the dtc installed for this Python")
    ap.add_argument("--out", type=Path, help="where the books are (default benchmarks/out)")
    ap.add_argument("--regenerate", action="store_true", help="write the books again even if present")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.warmup < 0 or args.timeout <= 0:
        ap.error("--runs must be at least 1, --warmup at least 0 and --timeout positive")
    sides = [Side("A", default_dtc())]
    if args.vs:
        sides.append(Side("B", export_base(args.vs), ".vs.json"))
    elif args.python:
        sides.append(Side("B", [str(args.python), "-c", LAUNCH], ".vs.json"))
    for side in sides:
        print(f"{side.name}: {describe(side.argv)}", file=sys.stderr)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    for shape in args.shapes:
        for n in [GAMEBOOK] if shape == "gamebook" else args.sizes:
            book = book_for(shape, n, args.seed, args.out, args.regenerate)
            row = Row(shape, n, book.stat().st_size)
            warmup = 0 if n >= 100_000 else args.warmup
            measure(row, book, args.commands, sides, args.runs, warmup, args.timeout)
            rows.append(row)
    made = "python benchmarks/shapes_bench.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"\n`{made}`: A is {describe(sides[0].argv)}"
          + (f"; B is {args.vs or args.python}, each run of A followed by one of B" if len(sides) > 1 else "")
          + f"; median of {args.runs} runs; odds reads the compiled graph.\n")
    print(table(rows, [s.name for s in sides]))
    print(f"\n{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
