"""Time reading one entry that counts creatures many times, to show the cost is linear.

    python benchmarks/mentions_bench.py                         # n = 25,000 .. 200,000
    python benchmarks/mentions_bench.py --sizes 1000,10000 --runs 5

An entry of *n* sentences ``3 Goblins attack.`` (or *n* counts in one sentence, ``--one``) is
parsed (what ``dtc lint`` and the language server do: the prose numbers, which counts are in a
fight) and its effects read (what ``dtc compile`` adds). Each once cost time quadratic in *n*
(200,000 counts: 42 s to lint). The table gives the median CPU time and the time per count,
which stays flat when the cost is linear.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from dtc.compiler.api import compile_text
from dtc.compiler.read_effects import extract_effects


def book(n: int, one_sentence: bool) -> str:
    unit = "3 Goblins, " if one_sentence else "3 Goblins attack. "
    return "Goblin HP 3 | Sword d6\n\nAdventure Entries\n\n1 " + unit * n + "(D0, S2).\n\n2 THE END\n"


def measure(n: int, runs: int, one_sentence: bool) -> tuple[float, float]:
    text = book(n, one_sentence)
    parse, effects = [], []
    for _ in range(runs):
        t = time.process_time()
        comp = compile_text(text)
        parse.append(time.process_time() - t)
        assert len(comp.doc.entries[0].mentions) == n
        t = time.process_time()
        extract_effects(comp.doc.entries[0].text, ["Goblin"])
        effects.append(time.process_time() - t)
    return statistics.median(parse), statistics.median(effects)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sizes", default="25000,50000,100000,200000", help="counts per entry (comma-separated)")
    ap.add_argument("--runs", type=int, default=3, help="runs per size (default 3)")
    ap.add_argument("--one", action="store_true", help="all counts in one sentence")
    args = ap.parse_args(argv)
    print("| counts | parse (CPU s) | µs/count | effects (CPU s) | µs/count |")
    print("|---|---|---|---|---|")
    for n in (int(s) for s in args.sizes.split(",")):
        parse, effects = measure(n, args.runs, args.one)
        print(f"| {n:,} | {parse:.2f} | {parse / n * 1e6:.1f} | {effects:.2f} | {effects / n * 1e6:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
