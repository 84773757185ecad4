"""`dtc lint` of a book full of gated choices, against the same book with the conditions taken out.

    python benchmarks/conditions_bench.py                    # 10,000 entries, 7 runs of each book
    python benchmarks/conditions_bench.py --size 400 --runs 11
    python benchmarks/conditions_bench.py --base main        # paired with the code on main
    python benchmarks/conditions_bench.py --new HEAD --base HEAD~3
    python benchmarks/conditions_bench.py --command compile   # dtc compile BOOK -o BOOK.json
    python benchmarks/conditions_bench.py --scores --size 2000 --base HEAD~1   # score gates too

The book is ``generate.py``'s (same size, seed 1) with one choice in three gated, in the forms
books use: ``(D0, S21, if stone key)``, ``(DEX D2, S14, F30, if rope)``,
``(D0, S9, if stone key and not alarm or 10 coins)``, names holding a keyword
(``if 2 notebook and not android part``, ``if Oracle’s Eye or not crab-bitten``), and one in ten
of the gated moves a random branch, ``(roll d6, 1-3 S5, 4-6 S5, if not crab-bitten)``. Entry 1
gives what the conditions ask for, and the last entry (an ending) what they ask the reader not
to have, so every gate opens and no exit is lost. With ``--scores`` one gate in four reads a
score instead (``if STR >= 3``, ``if CON < 19``, ``if HP >= 1``: open for every adventurer), the
case where each gated choice asks which names are the adventurer's scores. The "plain" book is the same text with every
``, if ...`` taken out and every random branch written as the move it replaced: what the
conditions cost is the difference.

Each run is a fresh ``dtc lint --ignore DT306`` process, start-up, imports and all (every gate
opens on every route, which DT306 would report at each: thousands of findings to print, the
same with and without the change measured). Wall time is a monotonic clock around it, CPU time
(user + system, the process and the children it waited for) comes from ``os.wait4``.
Medians are printed, with min and max. ``--base`` takes another ``dtc`` command or a git
reference, as ``run.py`` does; every run of this code is then followed by one of the base on the
same book; ``--new`` measures another command or reference in place of this checkout.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import OUT_DIR, generate  # noqa: E402
from run import base_command, default_dtc  # noqa: E402

#: What entry 1 gives: every condition below holds with it.
GIVES = "[+stone key, +rope, +10 coins, +2 notebook, +Oracle’s Eye, +android part]"
#: What the last entry, an ending, gives: what the conditions ask the reader not to have.
TOO_LATE = "Too late: the alarm sounds and a crab bites. [+alarm, +crab-bitten]"
#: The conditions, in turn (the last one of checks: ``, F..`` goes before it).
CONDITIONS = (
    "if stone key",
    "if rope",
    "if stone key and not alarm or 10 coins",
    "if not crab-bitten",
    "if 2 notebook and not android part or rope",
    "if Oracle’s Eye or not crab-bitten",
    "IF  Rope  AND 10 Coins",
    "if not alarm and not crab-bitten and stone key",
)
#: Every gate opens on every route, which DT306 would say of each: left out, so that the output
#: is the plain book's and the difference is the reading of the conditions.
LINT = ["--ignore", "DT306"]
NOTATION = re.compile(r"\((?P<head>(?:[A-Z]{3} )?D(?P<d>[0-9]+), S(?P<s>[0-9]+)(?:, F[0-9]+)?)\)")


#: Score gates (``--scores``): open for every adventurer, so the routes are the same.
SCORE_CONDITIONS = ("if STR >= 3", "if CON < 19", "if DEX >= 3 and stone key", "if HP >= 1")


def books(n: int, seed: int = 1, scores: bool = False) -> tuple[str, str, int]:
    """The gated book, its plain twin, and how many choices are gated."""
    text = generate(n, seed)
    rng = random.Random(f"dtc-conditions:{n}:{seed}")
    gated = 0

    def gate(m: re.Match[str]) -> str:
        nonlocal gated
        if rng.random() >= 1 / 3:
            return m.group()
        condition = CONDITIONS[gated % len(CONDITIONS)]
        if scores and gated % 4 == 3:
            condition = SCORE_CONDITIONS[(gated // 4) % len(SCORE_CONDITIONS)]
        gated += 1
        if m["d"] == "0" and rng.random() < 0.1:
            return f"(roll d6, 1-3 S{m['s']}, 4-6 S{m['s']}, {condition})"
        return f"({m['head']}, {condition})"

    head, sep, entries = text.partition("\nAdventure Entries\n")
    entries = NOTATION.sub(gate, entries)
    entries = re.sub(r"^1 ", f"1 You set out with what you need. {GIVES} ", entries, count=1, flags=re.M)
    entries = re.sub(rf"^{n} ", f"{n} {TOO_LATE} ", entries, count=1, flags=re.M)
    book = head + sep + entries
    plain = re.sub(r", (?i:if) [^()]*\)", ")", book)
    plain = re.sub(r"\(roll d6, 1-3 S([0-9]+), 4-6 S[0-9]+\)", r"(D0, S\1)", plain)
    return book, plain, gated


def once(dtc: list[str], book: Path, command: str = "lint") -> tuple[float, float]:
    """One ``dtc lint`` (or ``dtc compile``) run: (wall seconds, CPU seconds)."""
    argv = [*LINT, str(book)] if command == "lint" else [str(book), "-o", str(book.with_suffix(".json"))]
    start = time.monotonic()
    proc = subprocess.Popen([*dtc, command, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"dtc {command} {book} ended with {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--base", help="another dtc command, or a git reference (exported as run.py does)")
    ap.add_argument("--new", help="the dtc measured, as --base (default: this checkout's)")
    ap.add_argument("--command", choices=("lint", "compile"), default="lint")
    ap.add_argument("--scores", action="store_true", help="one gate in four reads a score (if STR >= 3)")
    args = ap.parse_args()
    book, plain, gated = books(args.size, scores=args.scores)
    stem = f"gated-scores-{args.size}" if args.scores else f"gated-{args.size}"
    paths = {"gated": OUT_DIR / f"{stem}.txt", "plain": OUT_DIR / f"{stem}-plain.txt"}
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    paths["gated"].write_text(book, encoding="utf-8")
    paths["plain"].write_text(plain, encoding="utf-8")
    print(f"dtc {args.command}, {args.size:,} entries, {gated:,} gated choices; {args.runs} runs of each, "
          "medians (min-max)")
    versions = {"new": base_command(args.new) if args.new else default_dtc()}
    versions |= {"base": base_command(args.base)} if args.base else {}
    for dtc in versions.values():  # a warm-up: files read once, bytecode compiled
        once(dtc, paths["plain"], args.command)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for kind, path in paths.items():
            for name, dtc in versions.items():
                times.setdefault((name, kind), []).append(once(dtc, path, args.command))
    for (name, kind), runs in times.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"  {name:>4} {kind:>5}: wall {statistics.median(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}), "
              f"CPU {statistics.median(cpus):.2f} s ({min(cpus):.2f}-{max(cpus):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
