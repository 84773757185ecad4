"""`dtc compile FILE [-o OUT]`: write the compiled graph as JSON, schema-checked."""

from __future__ import annotations

import json
from pathlib import Path

import click

from dtc.cli.base import Exit, fail, finish, guard, load_source, output_option
from dtc.config import ConfigError, config_for
from dtc.fileio import preflight, write_text
from dtc.lint import lint_compilation
from dtc.schema import validate


@click.command("compile")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_option("Where to write the JSON (default build/NAME.json; '-' for stdout).")
@guard
def compile_cmd(file: str, output: str | None) -> None:
    """Compile FILE to the JSON graph every other command reads.

    The graph is written even when the source has lint errors (so it can still be played where
    it can); the errors are listed on stderr and the exit status is then 1.
    """
    target = Path(output) if output and output != "-" else Path("build") / (Path(file).stem + ".json")
    if output != "-":
        preflight(target, [file])
    comp = load_source(file)
    settings = None
    if file != "-":
        try:
            settings = config_for(file).settings_for(file)
        except ConfigError as exc:
            fail(str(exc))
            return
        settings.apply(comp.doc)  # the configured default ruleset, when the file names none
    graph = comp.graph()
    validate(graph)
    # Compact: Python's encoder is three times slower with indentation on a large book.
    data = json.dumps(graph, ensure_ascii=False, separators=(",", ":")) + "\n"
    if output == "-":
        click.echo(data, nl=False)
    else:
        write_text(target, data, inputs=[file])
        click.echo(f"wrote {target}", err=True)
    errors = [d for d in lint_compilation(comp, settings=settings) if d.severity.name == "ERROR"]
    for d in errors:
        click.echo(f"{d.path}:{d.span.line}:{d.span.column}: {d.code} [{d.severity}] {d.message}", err=True)
    finish(int(Exit.FINDINGS if errors else Exit.CLEAN))
