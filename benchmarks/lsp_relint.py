"""How long the language server takes to re-lint a book after an edit.

    python benchmarks/lsp_relint.py                 # 400 entries, 15 edits of each kind
    python benchmarks/lsp_relint.py --entries 2000 --runs 25
    python benchmarks/lsp_relint.py --check         # exit 1 when an edit's median misses 100 ms

Two measurements, both on a book from ``generate.py``:

* **in process** — :class:`dtc.lsp.workspace.Documents` (what the server calls on every change):
  incremental parse, resolve, all rules, suppressions; told how many lines each edit left alone
  at either end, as ``dtc lsp`` tells it (``untouched`` from ``lsp_edits.py``); with the cost of
  a full parse beside it;
* **over stdio** — a real ``dtc lsp`` child driven by a pygls client: the time from sending
  ``textDocument/didChange`` (the changed lines, as editors send them) to receiving the
  ``publishDiagnostics`` for that version, i.e. what an author waits for in the editor (JSON
  both ways included).

The edits: typing a word in a middle entry, inserting a line near the top (every later entry
moves down a line, so every cached span is shifted), breaking and mending a choice's notation,
and pasting a whole new entry. The median, min and max of the runs are printed as a table.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import generate
from lsp_edits import untouched

from dtc.compiler.parse import parse
from dtc.lsp.server import tune_gc
from dtc.lsp.workspace import Documents

BUDGET_MS = 100.0


def _middle_line(lines: list[str]) -> int:
    mid = len(lines) // 2
    return next(i for i in range(mid, len(lines)) if lines[i][:1].isdigit())


def edits(lines: list[str]) -> dict[str, Callable[[int], list[str]]]:
    """Each kind of edit as: run number -> the document's new lines."""
    mid = _middle_line(lines)
    top = next(i for i, ln in enumerate(lines) if ln[:1].isdigit())

    def type_word(k: int) -> list[str]:
        out = list(lines)
        out[mid] = out[mid] + f" word{k}"
        return out

    def insert_line(k: int) -> list[str]:
        out = list(lines)
        out[top:top] = [f"A new line {k} in the first entry."] * (k % 2 + 1)
        return out

    def break_notation(k: int) -> list[str]:
        out = list(lines)
        out[mid] = out[mid].replace(", S", " S", 1) if k % 2 == 0 else out[mid]
        return out

    def paste_entry(k: int) -> list[str]:
        out = list(lines)
        out[mid:mid] = [f"{100000 + k} A pasted room. Leave (D0, S1).", ""]
        return out

    return {"type a word": type_word, "insert a line at the top": insert_line,
            "break/mend notation": break_notation, "paste an entry": paste_entry}


def line_change(old: list[str], new: list[str]) -> types.TextDocumentContentChangePartial:
    """The edit as an editor sends it: the changed lines only (positions are ASCII here)."""
    prefix, suffix = untouched(old, new)
    if suffix:
        rng = types.Range(types.Position(prefix, 0), types.Position(len(old) - suffix, 0))
        return types.TextDocumentContentChangePartial(
            range=rng, text="".join(line + "\n" for line in new[prefix : len(new) - suffix]))
    start = types.Position(prefix - 1, len(old[prefix - 1])) if prefix else types.Position(0, 0)
    rng = types.Range(start, types.Position(len(old) - 1, len(old[-1])))
    return types.TextDocumentContentChangePartial(
        range=rng, text=("\n" if prefix else "") + "\n".join(new[prefix:]))


def in_process(text: str, runs: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall-clock and CPU milliseconds per edit kind (CPU time shows the work on a busy machine)."""
    tune_gc()  # as `dtc lsp` does at start-up
    docs = Documents()
    uri = "file:///bench/book.dtc.txt"
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}

    def timed(name: str, action: Callable[[], object]) -> None:
        started, started_cpu = time.perf_counter(), time.process_time()
        action()
        wall.setdefault(name, []).append((time.perf_counter() - started) * 1000)
        cpu.setdefault(name, []).append((time.process_time() - started_cpu) * 1000)

    timed("open (cold)", lambda: docs.update(uri, text, 1))
    for _ in range(max(3, runs // 3)):
        timed("full parse only (baseline)", lambda: parse(text))
    lines = text.split("\n")
    version = 1
    told = "unchanged" in inspect.signature(docs.update).parameters  # as `dtc lsp` tells it
    current = lines
    for name, edit in edits(lines).items():
        for k in range(runs):
            version += 1
            new_lines = edit(k)
            extra = {"unchanged": untouched(current, new_lines)} if told else {}
            new_text = "\n".join(new_lines)
            timed(name, lambda: docs.update(uri, new_text, version, **extra))  # noqa: B023 - called at once
            current = new_lines
    return wall, cpu


async def over_stdio(text: str, runs: int) -> dict[str, list[float]]:
    client = LanguageClient("dtc-bench", "1")
    waiting: dict[int, asyncio.Future[None]] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        fut = waiting.pop(params.version or 0, None)
        if fut is not None and not fut.done():
            fut.set_result(None)

    await client.start_io(sys.executable, "-m", "dtc", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = "file:///bench/book.dtc.txt"
    loop = asyncio.get_running_loop()
    timings: dict[str, list[float]] = {}

    current = text.split("\n")

    async def send(version: int, new_lines: list[str] | None) -> float:
        nonlocal current
        waiting[version] = loop.create_future()
        started = time.perf_counter()
        if new_lines is None:
            client.text_document_did_open(types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="dtc", version=version, text=text)))
        else:
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[line_change(current, new_lines)]))
            current = new_lines
        await asyncio.wait_for(waiting[version], timeout=60)
        return (time.perf_counter() - started) * 1000

    timings["open (cold)"] = [await send(1, None)]
    version = 1
    for name, edit in edits(text.split("\n")).items():
        spent = []
        for k in range(runs):
            version += 1
            spent.append(await send(version, edit(k)))
        timings[name] = spent
    # The server's copy, built from the incremental changes, must be the text we meant.
    assert "\n".join(current) == "\n".join(edit(runs - 1))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return timings


def table(title: str, timings: dict[str, list[float]], cpu: dict[str, list[float]] | None = None) -> str:
    extra = " CPU ms (median) |" if cpu else ""
    out = [f"### {title}", "", f"| edit | median ms | min | max | runs |{extra}",
           "|---|---:|---:|---:|---:|" + ("---:|" if cpu else "")]
    for name, ms in timings.items():
        row = f"| {name} | {statistics.median(ms):.1f} | {min(ms):.1f} | {max(ms):.1f} | {len(ms)} |"
        if cpu:
            row += f" {statistics.median(cpu[name]):.1f} |"
        out.append(row)
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", type=int, default=400)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--check", action="store_true", help=f"exit 1 if an edit's median exceeds {BUDGET_MS:.0f} ms")
    ap.add_argument("--no-stdio", action="store_true", help="only the in-process measurement")
    args = ap.parse_args()
    text = generate(args.entries)
    print(f"Book: {args.entries} entries, {len(text):,} characters, {text.count(chr(10)) + 1:,} lines\n")
    wall, cpu = in_process(text, args.runs)
    results = {"in process (Documents.update)": wall}
    print(table("in process (Documents.update)", wall, cpu) + "\n")
    if not args.no_stdio:
        title = "over stdio (didChange -> publishDiagnostics)"
        results[title] = asyncio.run(over_stdio(text, args.runs))
        print(table(title, results[title]) + "\n")
    missed = [
        (title, name, statistics.median(ms))
        for title, timings in results.items()
        for name, ms in timings.items()
        if not name.startswith(("open", "full")) and statistics.median(ms) > BUDGET_MS
    ]
    for title, name, ms in missed:
        print(f"MISSED: {title}: {name}: median {ms:.1f} ms > {BUDGET_MS:.0f} ms", file=sys.stderr)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
