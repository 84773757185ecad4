"""`dtc build FILE [-o build/NAME/]`: the compiled JSON, flowchart, web and print editions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dtc.cli.base import Exit, ends_cleanly, fail, guard, load_source
from dtc.cli.progress import Working
from dtc.compiled.schema import SchemaError, load_graph_json, validate
from dtc.lint.reporters import finding_line


def _pdf_possible() -> bool:
    """Whether WeasyPrint can be imported (without importing it: that takes a second)."""
    import importlib.util

    try:
        return importlib.util.find_spec("weasyprint") is not None
    except (ImportError, ValueError):  # a module put in sys.modules by hand has no spec
        return "weasyprint" in sys.modules


@click.command("build")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "output", type=click.Path(file_okay=False),
              help="Folder to write into (default build/NAME/).")
@click.option("--no-pdf", is_flag=True, help="Do not write a PDF even when WeasyPrint is installed.")
@click.option("--epub", is_flag=True, help="Also write NAME.epub: the ebook edition (EPUB 3), playable by its links.")
@click.option("--notation", is_flag=True,
              help="Keep the choice notation, as written, in the print edition's text (its choices are read out "
                   "in words below each section either way).")
@guard
@ends_cleanly
def build_cmd(file: str, output: str | None, no_pdf: bool, epub: bool, notation: bool) -> None:
    """Build the editions of FILE: NAME.json, NAME.svg (flowchart), NAME.html (web edition, one
    self-contained file that plays offline), NAME.md and NAME.print.html (print edition), and
    NAME.pdf when WeasyPrint is installed; with --epub also NAME.epub, the ebook edition.

    FILE is an adventure source (its @label entries get numbers) or a compiled .json graph. Lint
    errors are listed on stderr and make the exit status 1, but the editions are still written.
    """
    from dtc.editions import build  # imported here: other commands never load the editions

    name = "stdin" if file == "-" else Path(file).stem
    errors: list[str] = []
    with Working(f"reading {file}") as work:
        if file != "-" and Path(file).suffix.lower() == ".json":
            try:
                graph = load_graph_json(file)
            except SchemaError as exc:
                fail(str(exc))
                return
        else:
            from dtc.lint.engine import error_rules, lint_compilation

            comp = load_source(file)
            work.step("compiling the graph")
            graph = comp.graph()
            validate(graph)
            work.step("linting")
            errors = [finding_line(d) for d in lint_compilation(comp, error_rules()) if d.severity.name == "ERROR"]
        outdir = Path(output) if output else Path("build") / name
        result = build(graph, outdir, name, pdf=not no_pdf, epub=epub, notation=notation, step=work.step,
                       inputs=(file,))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for path in result.written:
        click.echo(f"wrote {path}", err=True)
    if not no_pdf and not any(p.suffix == ".pdf" for p in result.written) and not _pdf_possible():
        click.echo("note: no PDF: WeasyPrint is not installed; `pip install weasyprint` adds it "
                   "(--no-pdf: build without one and without this note)", err=True)
    for line in errors:
        click.echo(line, err=True)
    raise SystemExit(int(Exit.FINDINGS if errors else Exit.CLEAN))
