"""`dtc compile FILE [-o OUT] [--validate]`: write the compiled graph as JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click

from dtc import runmode
from dtc.cli.base import Beside, Exit, ends_cleanly, fail, finish, guard, load_source, output_option
from dtc.cli.progress import Working
from dtc.compiler.compile import effects_ahead
from dtc.diagnostics import Diagnostic
from dtc.fileio import preflight, replacing, write_text
from dtc.lint.configuration import ConfigError, config_for
from dtc.lint.engine import error_rules
from dtc.lint.engine import lint_compilation as lint
from dtc.lint.reporters import finding_line


@click.command("compile")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_option("Where to write the JSON (default build/NAME.json; '-' for stdout).")
@click.option("--validate", is_flag=True,
              help="Check the graph against schemas/adventure.schema.json before writing it.")
@guard
@ends_cleanly  # a stop removes the file being written and the process writing beside this one
def compile_cmd(file: str, output: str | None, validate: bool) -> None:
    """Compile FILE to the JSON graph every other command reads.

    The graph is written even when the source has lint errors (so it can still be played where
    it can); the errors are listed on stderr and the exit status is then 1. The compiler's
    output always satisfies the schema (the test suite checks it on every bundled book);
    --validate checks it again on this one, at about a second per 10,000 entries.
    """
    target = Path(output) if output and output != "-" else Path("build") / (Path(file).stem + ".json")
    if output != "-":
        preflight(target, [file])
    linted: list[list[Diagnostic]] = []
    with Working(f"parsing {file}") as work:
        # a large book's reading child reads effects ahead (dtc.compiler.parallel.Ahead)
        mode = runmode.current() if validate else replace(runmode.current(), read_ahead=effects_ahead)
        with runmode.running(mode):
            comp = load_source(file)
        settings = None
        if file != "-":
            try:
                settings = config_for(file).settings_for(file)
            except ConfigError as exc:
                fail(str(exc))
                return
            settings.apply(comp.doc)  # the configured default ruleset, when the file names none
        work.step("compiling the graph")
        if validate:
            from dtc.compiled.schema import SchemaError
            from dtc.compiled.schema import validate as check

            graph = comp.graph()
            work.step("checking the graph against its schema")
            try:
                check(graph)
            except SchemaError as exc:
                fail(f"error: {file}: the compiled graph does not satisfy the schema: {exc}", Exit.FINDINGS)
            # Compact: Python's encoder is three times slower with indentation on a large book.
            data: str | None
            data = json.dumps(graph, ensure_ascii=False, separators=(",", ":")) + "\n"
        elif output == "-":
            data = comp.graph_json("\n")  # the same text, each entry encoded where it is built
        else:
            def lint_here() -> None:
                linted.append(lint(comp, error_rules(settings), settings=settings))

            # Both cores stay busy while the book is linted. A large book's reading child is
            # still reading effects ahead (dtc.compiler.parallel.Ahead): the lint runs now,
            # beside it. Else it runs while a second process starts on the graph's entries
            # (for a large book; see dtc.compiler.parallel.halves).
            if (ahead := comp.doc.ahead) is not None:
                try:
                    lint_here()
                except BaseException:
                    ahead.collect()  # stop the reading child and reap it before the error goes on
                    raise
            # A regular file is written as the graph is built, each process writing its own
            # entries (dtc.compiler.parallel.written_halves); a pipe or a device, in order, once
            # the text is made, as standard output is.
            with replacing(target, inputs=[file]) as fd:
                if fd is not None:
                    comp.write_graph_json(fd, "\n", meanwhile=None if linted else lint_here)
                    data = None
                else:
                    data = comp.graph_json("\n")
    # Else the book is linted while the graph is written: the write is mostly the system's work.
    linting = None if linted else Beside(lambda: lint(comp, error_rules(settings), settings=settings))
    if output == "-":
        click.echo(data, nl=False)
    else:
        if data is not None:  # (else written above)
            write_text(target, data, inputs=[file])
        click.echo(f"wrote {target}", err=True)
    with Working("linting"):
        found = linted[0] if linting is None else linting.result()
        errors = [d for d in found if d.severity.name == "ERROR"]
    for d in errors:
        click.echo(finding_line(d), err=True)
    finish(int(Exit.FINDINGS if errors else Exit.CLEAN))
