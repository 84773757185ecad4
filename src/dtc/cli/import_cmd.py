"""`dtc import FILE [-o BOOK.txt] [--from twee|gamebookformat|aon]` and `dtc export BOOK --to FORMAT`."""

from __future__ import annotations

from pathlib import Path

import click

from dtc.cli.base import Exit, ends_cleanly, fail, finish, guard, load_graph, output_option
from dtc.fileio import OutputError, preflight, write_text
from dtc.fileread import ReadError, read_bytes
from dtc.interop.api import READERS, WRITERS, ImportFailed, export_book, import_book
from dtc.visible import visible


def _write(target: str, text: str, source: str) -> None:
    """``text`` to stdout (``-``) or written whole to ``target`` (never over ``source``)."""
    if target == "-":
        click.echo(text, nl=False)
    else:
        write_text(target, text, inputs=[source])


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_option("Where to write the book (default: FILE with the suffix .txt; '-' for stdout).")
@click.option("--from", "source_format", type=click.Choice(READERS),
              help="The format of FILE: twee (Twine's Twee 3, SugarCube or Harlowe), gamebookformat, or aon "
                   "(Project Aon's gamebook XML). Default: told by the suffix (.tw .twee .gamebook .xml) or the "
                   "first lines.")
@guard
@ends_cleanly
def import_cmd(file: str, output: str | None, source_format: str | None) -> None:
    """Bring a book written for another tool into dtc's notation (docs/import.md).

    Entries keep the numbers the source gives them; the others are @labels, which dtc renumber
    numbers. Every construct not mapped is kept as text and listed on stderr with its line in
    FILE; the last line counts what was mapped and what was not. The book written is compiled
    again, and any entry whose exits do not read as the source's is listed too.

    Exit status: 0 everything was mapped, 1 the book was written but something was kept as
    text, 2 FILE cannot be read or imported.
    """
    target = output or ("-" if file == "-" else str(Path(file).with_suffix(".txt")))
    try:
        preflight(target, [file])
        data = read_bytes(file, "source", stdin=True)
        imported = import_book("<stdin>" if file == "-" else file, data, source_format)
    except ReadError as exc:
        fail(visible(f"{exc.path}: error: {exc.message}", newlines=False))
        return
    except ImportFailed as exc:
        fail(visible(str(exc), newlines=False))
        return
    except OutputError as exc:
        fail(visible(str(exc), newlines=False))
        return
    shown = "<stdin>" if file == "-" else file
    for finding in sorted(imported.book.findings, key=lambda f: (f.line, f.column)):
        click.echo(visible(f"{shown}:{finding.line}:{finding.column}: {finding.severity}: {finding.message}",
                           newlines=False), err=True)
    try:
        _write(target, imported.text, file)
    except OutputError as exc:
        fail(visible(str(exc), newlines=False))
        return
    where = "" if target == "-" else f"; wrote {target}"
    click.echo(visible(f"{shown} ({imported.book.source}): {imported.book.summary()}{where}", newlines=False),
               err=True)
    finish(int(Exit.FINDINGS if imported.book.unmapped else Exit.CLEAN))


@click.command("export")
@click.argument("book", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--to", "target_format", type=click.Choice(WRITERS), required=True,
              help="twee: Twee 3 for SugarCube (possessions as variables, conditions as <<if>>, random branches "
                   "with random()); gamebookformat: a .gamebook file.")
@output_option("Write to this file instead of stdout.")
@guard
@ends_cleanly
def export_cmd(book: str, target_format: str, output: str | None) -> None:
    """Write BOOK (a source, or a compiled graph .json) for another tool (docs/import.md).

    dtc import reads what this writes back to the same graph. What the format cannot say is
    listed on stderr as a warning (gamebookformat has no checks, no 'or' and no kinds of
    ending). Exit status: 0 written, 1 written with warnings, 2 BOOK cannot be read.
    """
    target = output or "-"
    try:
        preflight(target, [book])
    except OutputError as exc:
        fail(visible(str(exc), newlines=False))
        return
    graph = load_graph(book)
    exported = export_book(graph, target_format)
    for warning in dict.fromkeys(exported.warnings):
        click.echo(visible(f"{book}: warning: {warning}", newlines=False), err=True)
    try:
        _write(target, exported.text if exported.text.endswith("\n") else exported.text + "\n", book)
    except OutputError as exc:
        fail(visible(str(exc), newlines=False))
        return
    if target != "-":
        click.echo(visible(f"wrote {target}", newlines=False), err=True)
    finish(int(Exit.FINDINGS if exported.warnings else Exit.CLEAN))
