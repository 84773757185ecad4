"""CPU time the language server spends re-linting a book after one edit, at several sizes.

    python benchmarks/lsp_edits.py                              # 400, 10,000 and 100,000 entries
    python benchmarks/lsp_edits.py --sizes 400,10000 --runs 9
    PYTHONPATH=/path/to/old/checkout/src python benchmarks/lsp_edits.py   # the previous code, paired
    python benchmarks/lsp_edits.py --check                      # exit 1 if a median misses 100 ms

Each size's book comes from ``generate.py`` (the default, forward-flowing shape). The book is
opened in :class:`dtc.lsp.workspace.Documents` (what ``dtc lsp`` calls on every change: parse,
resolve, every rule, suppressions), then each kind of edit is made ``--runs`` times, each time
to the unedited book, and undone before the next (the undo is an edit too, but is not timed):

* **insert a line at the top** — a sentence added to the first entry: every later line moves;
* **type a word mid-book** — a word added to a line of the middle entry;
* **delete an entry** — the middle entry's lines removed (its number goes missing);
* **paste an entry** — a new entry, with a choice, pasted before the middle entry.

Then the **outline after lines inserted**: the document outline's reply (``textDocument/
documentSymbol``, which editors ask for after every change) built, converted and written as JSON
as ``dtc lsp`` sends it, after lines are added to the first entry (one more each run, so that
the entries below stand somewhere new every time, as they do while an author types). It is a
request, not a re-lint, so it is not held to the 100 ms budget.

Each change is passed on with the count of lines it left alone at either end, as ``dtc lsp``
works it out from the editor's changes (older versions, which take no such count, compare the
text). Only the time inside ``Documents.update`` is measured, as CPU time (``time.process_time``:
user + system of this process), since the machine may be shared; wall time is printed beside
it. The API is the same in older versions, so pointing ``PYTHONPATH`` at an older checkout's
``src`` measures the previous code on the same books in the same sitting.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import generate

import dtc
from dtc.lsp.server import tune_gc
from dtc.lsp.workspace import Documents

BUDGET_MS = 100.0
URI = "file:///bench/book.dtc.txt"


def _heads(lines: list[str]) -> list[int]:
    """Indexes of lines that open an entry (a number after a blank line) below the header."""
    header = next(i for i, ln in enumerate(lines) if ln.strip().lower().endswith("entries"))
    return [i for i in range(header + 1, len(lines)) if lines[i][:1].isdigit() and not lines[i - 1].strip()]


def edits(lines: list[str]) -> dict[str, Callable[[int], list[str]]]:
    """Each kind of edit as: run number -> the book's lines after that one edit."""
    heads = _heads(lines)
    top = heads[0]
    middle = heads[len(heads) // 2]
    end_of_middle = heads[len(heads) // 2 + 1] if len(heads) // 2 + 1 < len(heads) else len(lines)

    def insert_line(k: int) -> list[str]:
        return [*lines[:top + 1], f"A new line {k} in the first entry.", *lines[top + 1:]]

    def type_word(k: int) -> list[str]:
        out = list(lines)
        out[middle] = out[middle] + f" word{k}"
        return out

    def delete_entry(k: int) -> list[str]:
        return lines[:middle] + lines[end_of_middle:]

    def paste_entry(k: int) -> list[str]:
        return [*lines[:middle], f"{900000 + k} A pasted room. Leave (D0, S1).", "", *lines[middle:]]

    return {"insert a line at the top": insert_line, "type a word mid-book": type_word,
            "delete an entry": delete_entry, "paste an entry": paste_entry}


def untouched(old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines at the start and at the end an edit left alone (what ``dtc lsp`` works out
    from an editor's changes and passes on)."""
    lead = 0
    while lead < min(len(old), len(new)) and old[lead] == new[lead]:
        lead += 1
    trail = 0
    while trail < min(len(old), len(new)) - lead and old[-1 - trail] == new[-1 - trail]:
        trail += 1
    return lead, trail


def measure(entries: int, runs: int) -> dict[str, dict[str, float]]:
    text = generate(entries)
    gc.collect()
    tune_gc()  # as `dtc lsp` does at start-up
    docs = Documents()
    out: dict[str, dict[str, float]] = {}

    told = "unchanged" in inspect.signature(docs.update).parameters  # as `dtc lsp` tells it

    def timed(new_text: str, version: int, unchanged: tuple[int, int] | None = None) -> tuple[float, float]:
        extra = {"unchanged": unchanged} if told and unchanged is not None else {}
        wall, cpu = time.perf_counter(), time.process_time()
        docs.update(URI, new_text, version, **extra)
        return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000

    outline_reply = outline_reply_of(docs)
    version = 1
    cpu, wall = timed(text, version)
    out["open (cold)"] = {"cpu": cpu, "wall": wall, "min": cpu, "max": cpu, "runs": 1}
    lines = text.split("\n")
    for name, edit in edits(lines).items():
        cpus, walls = [], []
        for k in range(runs):
            version += 1
            edited = edit(k)
            cpu, wall = timed("\n".join(edited), version, untouched(lines, edited))
            cpus.append(cpu)
            walls.append(wall)
            version += 1
            timed(text, version, untouched(edited, lines))  # undo, not counted
        out[name] = {"cpu": statistics.median(cpus), "wall": statistics.median(walls),
                     "min": min(cpus), "max": max(cpus), "runs": runs}
    cpus, walls = [], []
    top = _heads(lines)[0]
    for k in range(runs):
        version += 1
        # k + 1 lines: every entry below stands somewhere new each run (no copy moved there before)
        edited = [*lines[:top + 1], *(f"A new line {k}.{j} in the first entry." for j in range(k + 1)),
                  *lines[top + 1:]]
        timed("\n".join(edited), version, untouched(lines, edited))  # not counted
        wall, cpu = time.perf_counter(), time.process_time()
        outline_reply()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
        version += 1
        timed(text, version, untouched(edited, lines))
    out["outline after lines inserted"] = {"cpu": statistics.median(cpus), "wall": statistics.median(walls),
                                          "min": min(cpus), "max": max(cpus), "runs": runs}
    return out


def outline_reply_of(docs: Documents) -> Callable[[], str]:
    """The document outline's reply as ``dtc lsp`` sends it: the symbols, converted by the
    server's converter and written as JSON (older versions build typed symbols, which pygls's
    own converter converts)."""
    from lsprotocol import types
    from pygls.protocol import default_converter

    from dtc.lsp import navigation, server

    wrap: Callable[[Any], Any] = getattr(server, "JSONReply", lambda symbols: symbols)
    converter = getattr(server, "_converter", default_converter)()

    def reply() -> str:
        snap = docs.get(URI)
        assert snap is not None
        message = types.DocumentSymbolResponse(id=1, result=wrap(navigation.document_symbols(snap)))
        return json.dumps(converter.unstructure(message))

    return reply


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="400,10000,100000", help="comma-separated entry counts")
    ap.add_argument("--runs", type=int, default=7, help="timed runs per edit and size")
    ap.add_argument("--json", type=Path, help="also write the figures here as JSON")
    ap.add_argument("--check", action="store_true",
                    help=f"exit 1 if an edit's median CPU time at 10,000 entries or fewer exceeds {BUDGET_MS:.0f} ms")
    args = ap.parse_args()
    print(f"dtc {dtc.__version__} from {Path(dtc.__file__).resolve().parent}\n")
    print("| entries | edit | CPU ms (median) | min | max | wall ms (median) | runs |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    results: dict[int, dict[str, dict[str, float]]] = {}
    missed = []
    for size in (int(s) for s in args.sizes.split(",")):
        results[size] = measure(size, args.runs)
        for name, row in results[size].items():
            print(f"| {size:,} | {name} | {row['cpu']:.1f} | {row['min']:.1f} | {row['max']:.1f} "
                  f"| {row['wall']:.1f} | {row['runs']:.0f} |", flush=True)
            if size <= 10_000 and not name.startswith(("open", "outline")) and row["cpu"] > BUDGET_MS:
                missed.append((size, name, row["cpu"]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for size, name, ms in missed:
        print(f"MISSED: {size:,} entries: {name}: median {ms:.1f} ms CPU > {BUDGET_MS:.0f} ms", file=sys.stderr)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
