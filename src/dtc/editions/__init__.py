"""Editions of a compiled book: a web page that plays it, and a print edition.

:func:`build` writes everything ``dtc build`` makes into one folder: the compiled JSON, the
flowchart SVG (drawn by :func:`dtc.render.graph.render_svg` when Graphviz is available), the web
edition (one self-contained HTML file), and the print edition (Markdown, HTML for paper, and a
PDF when WeasyPrint is importable). Every file is written atomically.
"""

from __future__ import annotations

import contextlib
import gc
import json
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dtc.compiled.graphjson import CompiledGraph
from dtc.editions.pictures import load as load_pictures
from dtc.editions.prepared import Prepared
from dtc.editions.print import render_markdown, render_print_html, write_pdf
from dtc.editions.web import chart_block, render_web, render_web_around_chart
from dtc.fileio import preflight, write_bytes, write_text
from dtc.lint.analysis import Analysis

if TYPE_CHECKING:
    from dtc.render.graph import Drawing

#: The files :func:`build` may write, by suffix after the book's name.
SUFFIXES = (".json", ".svg", ".html", ".md", ".print.html", ".pdf", ".epub")


@dataclass(slots=True)
class BuildResult:
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def flowchart(graph: CompiledGraph, facts: Analysis | None = None) -> tuple[str | None, str | None]:
    """(SVG text, None), or (None, why it could not be drawn)."""
    try:
        from dtc.render.graph import render_svg
    except ImportError:
        return None, "the flowchart renderer (dtc.render.graph) is not available"
    try:
        return render_svg(graph, facts), None
    except (RuntimeError, OSError, ValueError) as exc:
        return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


@contextmanager
def _no_collector() -> Iterator[None]:
    """The cyclic garbage collector paused: the editions make hundreds of thousands of short-lived
    strings, lists and tuples, and each of its passes would walk them all again (about a twentieth
    of a 10,000-entry build). Reference counting still frees them. Not around the PDF: WeasyPrint
    is not ours."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _start_flowchart(graph: CompiledGraph, facts: Analysis) -> tuple[Drawing | None, str | None]:
    """The flowchart being drawn in the background (its DOT built at once), or (None, why not)."""
    try:
        from dtc.render.graph import Drawing
    except ImportError:
        return None, "the flowchart renderer (dtc.render.graph) is not available"
    try:
        return Drawing(graph, facts), None
    except (RuntimeError, OSError, ValueError) as exc:
        return None, _why(exc)


def _why(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _editions(graph: CompiledGraph, name: str, epub: bool, notation: bool, step: Callable[[str], None],
              write: Callable[[str, str | bytes], None], result: BuildResult, base: Path | None = None) -> str:
    """Write the JSON, the flowchart, the web, Markdown and paper editions (and the ebook);
    returns the paper edition's HTML (for the PDF).

    Graphviz lays the flowchart out in its own process while the editions that do not show it
    are written (on two cores the build then takes about as long as the longer of the two); the
    web edition, which does, is written last. Leaving early (an error, Ctrl-C) kills Graphviz.
    """
    facts = Analysis.of_graph(graph)  # the entries' facts, worked out once for the chart and the editions
    step("drawing the flowchart (Graphviz lays it out)")
    drawing, why = _start_flowchart(graph, facts)
    with drawing or contextlib.nullcontext():
        # Compact: a file for programs (Python's encoder is three times slower with indentation).
        write(f"{name}.json", json.dumps(graph, ensure_ascii=False, separators=(",", ":")) + "\n")
        book = Prepared(graph, facts)  # each entry's pieces and sentences, worked out once for every edition
        pictures = load_pictures(graph, base)  # the illustrations, read once for print and the ebook
        result.warnings += pictures.warnings
        step("writing the print edition")
        write(f"{name}.md", render_markdown(graph, notation=notation, prepared=book))
        print_html = render_print_html(graph, notation=notation, prepared=book, pictures=pictures)
        write(f"{name}.print.html", print_html)
        if epub:
            from dtc.editions.epub import render_epub

            step("writing the ebook")
            write(f"{name}.epub", render_epub(graph, prepared=book, pictures=pictures))
        step("writing the web edition")
        before, after = render_web_around_chart(graph, prepared=book, pictures=pictures)
        svg: str | None = None
        if drawing is not None:
            if not drawing.done():
                step("waiting for Graphviz to finish the flowchart")
            try:
                svg = drawing.svg()
            except (RuntimeError, OSError, ValueError) as exc:
                why = _why(exc)
        if svg is None:
            result.warnings.append(f"flowchart skipped: {why}")
            write(f"{name}.html", before + after)
        else:
            # The chart is saved (most of that is waiting for the disk) while the page takes it in.
            failed: list[BaseException] = []

            def save(text: str = svg) -> None:
                try:
                    write(f"{name}.svg", text)
                except BaseException as exc:  # handed to the build below
                    failed.append(exc)

            saving = threading.Thread(target=save, name="dtc-save-chart")
            saving.start()
            try:
                page = before + chart_block(svg) + after
            finally:
                saving.join()
            if failed:
                raise failed[0]
            write(f"{name}.html", page)
    # Listed in the order a reader looks for them (the chart was written late, to wait less).
    order = {suffix: i for i, suffix in enumerate((".json", ".svg", ".html", ".md", ".print.html", ".epub"))}
    result.written.sort(key=lambda path: order.get(path.name[len(name):], len(order)))
    return print_html


def build(graph: CompiledGraph, outdir: Path, name: str, *, pdf: bool = True, epub: bool = False,
          notation: bool = False, step: Callable[[str], None] | None = None,
          inputs: tuple[str | Path | None, ...] = ()) -> BuildResult:
    """Write the book's JSON, flowchart, web and print editions (and the ebook) into ``outdir``.

    Nothing is written when one of the files would be refused (an input of the build, such as
    ``book.md`` built into its own folder, or a read-only file): :class:`dtc.fileio.OutputError`.

    ``notation`` keeps the choice notation in the print edition's text, as written; ``step`` is told
    of each part as it starts (for a progress line).
    """
    result = BuildResult()
    for suffix in SUFFIXES:
        if suffix != ".epub" or epub:
            preflight(outdir / f"{name}{suffix}", inputs)
    step = step or (lambda _: None)

    def write(filename: str, text: str | bytes) -> None:
        target = outdir / filename
        # A new file is published: readable by a web server (an existing one keeps its mode).
        if isinstance(text, bytes):
            write_bytes(target, text, inputs=inputs, new_mode=0o644)
        else:
            write_text(target, text, inputs=inputs, new_mode=0o644)
        result.written.append(target)

    with _no_collector():
        source = inputs[0] if inputs else None  # the book: its illustrations are beside it
        base = Path(source).parent if source is not None and str(source).endswith(".txt") else None
        print_html = _editions(graph, name, epub, notation, step, write, result, base)
    if pdf:
        step("writing the PDF")
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
