"""What safe file handling costs: dtc.fileread against a plain read, dtc.fileio against a plain write.

    python benchmarks/fileio_bench.py                 # 8.5 MB (a 10,000-entry book) and a 20 kB save
    python benchmarks/fileio_bench.py --runs 50

Reads are timed on a file of the size of the 10,000-entry book, writes on one of the size of a
save (what `dtc play` writes after every step, with its backup). Everything happens in a
temporary folder on the file system of the current directory (so fsync costs what it will).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dtc import fileio, fileread


def timed(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn`` in milliseconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def plain_write(path: Path, data: bytes) -> None:
    """Temporary file, fsync, rename: the least an atomic write does."""
    tmp = path.with_name(path.name + ".plain.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--book-bytes", type=int, default=8_500_000)
    parser.add_argument("--save-bytes", type=int, default=20_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=".") as folder:
        book = Path(folder) / "book.txt"
        book.write_bytes(b"1 You stand at a gate. Go to 2.\n\n" * (args.book_bytes // 33))
        save = Path(folder) / "game.json"
        data = b"x" * args.save_bytes
        rows = [
            ("read book: Path.read_bytes", timed(book.read_bytes, args.runs)),
            ("read book: fileread.read_bytes", timed(lambda: fileread.read_bytes(book, "source"), args.runs)),
            ("write save: temp+fsync+rename", timed(lambda: plain_write(save, data), args.runs)),
            ("write save: fileio.write_bytes", timed(lambda: fileio.write_bytes(save, data), args.runs)),
            ("write save: fileio, backup", timed(lambda: fileio.write_bytes(save, data, backup=True), args.runs)),
        ]
    for name, ms in rows:
        print(f"{name:34} {ms:8.2f} ms")


if __name__ == "__main__":
    main()
