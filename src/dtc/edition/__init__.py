"""Editions of a compiled book: a web page that plays it, and a print edition.

:func:`build` writes everything ``dtc build`` makes into one folder: the compiled JSON, the
flowchart SVG (drawn by :func:`dtc.render.graph.render_svg` when Graphviz is available), the web
edition (one self-contained HTML file), and the print edition (Markdown, HTML for paper, and a
PDF when WeasyPrint is importable). Every file is written atomically.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtc.edition.print import render_markdown, render_print_html, write_pdf
from dtc.edition.web import render_web
from dtc.fileio import preflight, write_bytes, write_text

#: The files :func:`build` may write, by suffix after the book's name.
SUFFIXES = (".json", ".svg", ".html", ".md", ".print.html", ".pdf")


@dataclass(slots=True)
class BuildResult:
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def flowchart(graph: dict[str, Any]) -> tuple[str | None, str | None]:
    """(SVG text, None), or (None, why it could not be drawn)."""
    try:
        from dtc.render.graph import render_svg
    except ImportError:
        return None, "the flowchart renderer (dtc.render.graph) is not available"
    try:
        return render_svg(graph), None
    except (RuntimeError, OSError, ValueError) as exc:
        return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def build(graph: dict[str, Any], outdir: Path, name: str, *, pdf: bool = True,
          inputs: tuple[str | Path | None, ...] = ()) -> BuildResult:
    """Write the book's JSON, flowchart, web and print editions into ``outdir``.

    Nothing is written when one of the files would be refused (an input of the build, such as
    ``book.md`` built into its own folder, or a read-only file): :class:`dtc.fileio.OutputError`.
    """
    result = BuildResult()
    for suffix in SUFFIXES:
        preflight(outdir / f"{name}{suffix}", inputs)

    def write(filename: str, text: str) -> None:
        target = outdir / filename
        # A new file is published: readable by a web server (an existing one keeps its mode).
        write_text(target, text, inputs=inputs, new_mode=0o644)
        result.written.append(target)

    write(f"{name}.json", json.dumps(graph, ensure_ascii=False, indent=1) + "\n")
    svg, why = flowchart(graph)
    if svg is not None:
        write(f"{name}.svg", svg)
    else:
        result.warnings.append(f"flowchart skipped: {why}")
    write(f"{name}.html", render_web(graph, svg))
    write(f"{name}.md", render_markdown(graph))
    print_html = render_print_html(graph)
    write(f"{name}.print.html", print_html)
    if pdf:
        target = outdir / f"{name}.pdf"
        with tempfile.TemporaryDirectory(prefix=".dtc-pdf-") as scratch:
            partial = Path(scratch) / "book.pdf"
            try:
                drawn = write_pdf(print_html, partial)
            except Exception as exc:  # WeasyPrint is optional; its failure must not lose the rest
                drawn = False
                result.warnings.append(
                    f"PDF skipped: WeasyPrint failed: {str(exc).splitlines()[0] if str(exc) else exc}")
            if drawn:
                write_bytes(target, partial.read_bytes(), inputs=inputs, new_mode=0o644)
                result.written.append(target)
    return result


__all__ = ["BuildResult", "build", "flowchart", "render_markdown", "render_print_html", "render_web"]
