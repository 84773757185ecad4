"""`dtc build FILE [-o build/NAME/]`: the compiled JSON, flowchart, web and print editions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dtc.cli.base import Exit, fail, guard, load_source
from dtc.schema import SchemaError, load_json, validate


@click.command("build")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "output", type=click.Path(file_okay=False),
              help="Folder to write into (default build/NAME/).")
@click.option("--no-pdf", is_flag=True, help="Do not write a PDF even when WeasyPrint is installed.")
@guard
def build_cmd(file: str, output: str | None, no_pdf: bool) -> None:
    """Build the editions of FILE: NAME.json, NAME.svg (flowchart), NAME.html (web edition, one
    self-contained file that plays offline), NAME.md and NAME.print.html (print edition), and
    NAME.pdf when WeasyPrint is installed.

    FILE is an adventure source (its @label entries get numbers) or a compiled .json graph. Lint
    errors are listed on stderr and make the exit status 1, but the editions are still written.
    """
    from dtc.edition import build  # imported here: other commands never load the editions

    name = "stdin" if file == "-" else Path(file).stem
    errors: list[str] = []
    if file != "-" and Path(file).suffix.lower() == ".json":
        try:
            graph: dict[str, Any] = load_json(file, "adventure")
        except SchemaError as exc:
            fail(str(exc))
            return
    else:
        from dtc.lint import lint_compilation

        comp = load_source(file)
        graph = comp.graph()
        validate(graph)
        errors = [
            f"{d.path}:{d.span.line}:{d.span.column}: {d.code} [{d.severity}] {d.message}"
            for d in lint_compilation(comp)
            if d.severity.name == "ERROR"
        ]
    outdir = Path(output) if output else Path("build") / name
    result = build(graph, outdir, name, pdf=not no_pdf, inputs=(file,))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    for path in result.written:
        click.echo(f"wrote {path}", err=True)
    for line in errors:
        click.echo(line, err=True)
    raise SystemExit(int(Exit.FINDINGS if errors else Exit.CLEAN))
