"""An entry's illustrations, read from beside the book for the print edition and the ebook.

The compiled graph records where each illustration is (``images``: the file as the author wrote
it, relative to the book's source file) and its words. :func:`load` reads the files once per
build: only a file beside the book or below its folder (no absolute path, no ``..``, no address),
of a kind every reader shows (PNG, JPEG, GIF, SVG, WebP), and not over :data:`MAX_BYTES`; any
other is left out with a warning (file:line: why), and the edition shows the picture's words
instead. The print edition embeds each picture (a ``data:`` address: the HTML stays one file);
the ebook carries it as a file of its own.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from dtc.compiled.graphjson import CompiledGraph

#: The kinds of picture every edition shows, by suffix.
MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".svg": "image/svg+xml", ".webp": "image/webp"}
#: The largest picture read (a bigger one is left out, with a warning).
MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture read for the editions: its bytes, kind, and its name inside an ebook."""

    src: str
    media_type: str
    data: bytes
    name: str

    def data_uri(self) -> str:
        return f"data:{self.media_type};base64,{base64.b64encode(self.data).decode('ascii')}"


@dataclass(slots=True)
class Pictures:
    """The book's pictures by ``src``, and why any was left out."""

    found: dict[str, Picture] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _why_not(src: str) -> str | None:
    """Why ``src`` is not a file the editions may read, or None."""
    if "://" in src or src.startswith(("data:", "//", "/", "\\")) or ":" in src.split("/")[0]:
        return "only a file beside the book or in a folder below it is placed (not an address or an absolute path)"
    parts = PurePosixPath(src.replace("\\", "/")).parts
    if ".." in parts:
        return "only a file beside the book or in a folder below it is placed ('..' leaves the book's folder)"
    if PurePosixPath(src).suffix.lower() not in MEDIA_TYPES:
        return f"not a picture every reader shows (one of {', '.join(sorted(MEDIA_TYPES))})"
    return None


def load(graph: CompiledGraph, base: Path | None = None) -> Pictures:
    """Read every picture the book places (``base``: the book's folder; by default the folder of
    its source path as compiled)."""
    out = Pictures()
    wanted = [(image, entry["number"]) for entry in graph["entries"] for image in entry.get("images") or []]
    if not wanted:
        return out
    folder = base if base is not None else Path(graph["source"]["path"] or ".").parent
    book = graph["source"]["path"] or "book"
    for image, _ in wanted:
        src = image["src"]
        if src in out.found:
            continue
        why = _why_not(src)
        path = folder / src
        if why is None:
            try:
                if not path.is_file():
                    why = "no such file beside the book"
                elif path.stat().st_size > MAX_BYTES:
                    why = f"larger than {MAX_BYTES // (1024 * 1024)} MB"
            except OSError as exc:
                why = exc.strerror or type(exc).__name__
        if why is None:
            try:
                data = path.read_bytes()
            except OSError as exc:
                why = exc.strerror or type(exc).__name__
            else:
                suffix = PurePosixPath(src).suffix.lower()
                out.found[src] = Picture(src, MEDIA_TYPES[suffix], data, f"images/picture-{len(out.found) + 1}{suffix}")
                continue
        out.warnings.append(f"{book}:{image['line']}:1: picture '{src}' left out: {why}")
    return out
