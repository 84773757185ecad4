"""`dtc graph FILE [-o OUT] [--format ...] [--from N] [--depth K] [--layout dot|sfdp]`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from dtc.cli.base import Exit, ends_cleanly, fail, guard, load_graph, load_source, output_option
from dtc.cli.progress import Working
from dtc.compiled.graphjson import CompiledGraph
from dtc.fileio import preflight, write_bytes, write_text
from dtc.render.formats import FORMATS as GRAPH_FORMATS
from dtc.render.formats import by_suffix, names_with

if TYPE_CHECKING:
    from dtc.compiler.api import Compilation
    from dtc.render.findings import Marks


class _Formats(click.Choice[str]):
    """``--format``'s choices: the rows of :data:`dtc.render.formats.FORMATS` when the command runs,
    so a format added there is a choice with no edit here."""

    def __init__(self) -> None:
        super().__init__(tuple(GRAPH_FORMATS))

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(GRAPH_FORMATS)

    @choices.setter
    def choices(self, value: object) -> None:  # click's __init__ sets it; the table is the truth
        pass


def _format_help() -> str:
    return ("Output format: " + "; ".join(f"{f.name}: {f.help}" for f in GRAPH_FORMATS.values())
            + ". Default: from the output's extension, else dot.")


class _FormatOption(click.Option):
    """``--format``, whose help lists the formats of the table when help is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = _format_help()
        return super().get_help_record(ctx)


def _format(fmt: str | None, output: str | None) -> str:
    if fmt:
        return fmt
    if output is None or output == "-":
        return "dot"
    found = by_suffix(Path(output).suffix)
    if found is None:
        fail(f"error: cannot tell the format from '{output}'; use --format ({', '.join(GRAPH_FORMATS)})")
        raise AssertionError  # unreachable: fail exits
    return found


def _write_bytes(path: Path, data: bytes, inputs: list[str]) -> None:
    write_bytes(path, data, inputs=inputs)


def _lint(file: str, comp: Compilation) -> list[dict[str, Any]]:
    """The findings `dtc lint FILE` reports (its configuration file included), as dicts."""
    from dtc.lint.configuration import Config, ConfigError, config_for
    from dtc.lint.engine import lint_compilation

    try:
        settings = (Config(None) if file == "-" else config_for(file, None)).settings_for(file)
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable
    return [d.to_dict() for d in lint_compilation(comp, settings=settings)]


def _produce(graph: CompiledGraph, fmt: str, focus: int | None, depth: int | None, layout: str,
             fenced: bool, odds: dict[str, Any] | None = None, marks: Marks | None = None,
             note: str = "") -> str | bytes:
    """The drawing in format ``fmt`` (a row of :data:`dtc.render.formats.FORMATS`); warnings on stderr."""
    from dtc.render.formats import DrawError, Request, produce

    req = Request(graph, focus=focus, depth=depth, layout=layout, fenced=fenced, odds=odds, marks=marks, note=note)
    try:
        data = produce(fmt, req)
    except DrawError as exc:
        fail(f"error: {exc}")
        raise  # unreachable
    for warning in req.warnings:
        click.echo(f"warning: {warning}", err=True)
    return data


@click.command("graph")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@output_option("Where to write the drawing (default: stdout).")
@click.option("--format", "fmt", cls=_FormatOption, type=_Formats(), default=None, help=_format_help())
@click.option("--from", "focus", type=int, default=None, metavar="N",
              help="Draw only the neighbourhood of entry N.")
@click.option("--depth", type=click.IntRange(min=0), default=None, metavar="K",
              help="With --from: how many exits away, both ways (default 2).")
@click.option("--odds", "with_odds", is_flag=True,
              help="Label exits with the chance of taking them and shade entries by the chance of reaching "
                   "them (dtc odds: the random policy, a freshly rolled adventurer).")
@click.option("--no-lint", is_flag=True,
              help="Do not run the linter on a source (by default its findings are marked on the chart).")
@click.option("--layout", type=click.Choice(["dot", "sfdp"]), default=None,
              help="Graphviz layout (default: dot, or sfdp for books over 800 entries or 20,000 exits).")
@guard
@ends_cleanly
def graph_cmd(file: str, output: str | None, fmt: str | None, focus: int | None, depth: int | None,
              layout: str | None, with_odds: bool, no_lint: bool) -> None:
    """Draw FILE (an adventure source, or a compiled .json graph) as a flowchart.

    Entries are boxes that show their first words; start, endings, dead ends, trapped and
    unreachable entries and creatures are coloured, and a legend says how. Formats: dot, svg,
    png, pdf, html (these need Graphviz installed) and mermaid (for GitHub/GitLab markdown).
    A source is linted and its findings marked on entries and exits (not in Mermaid).
    """
    if depth is not None and focus is None:
        fail("error: --depth needs --from N")
    fmt = _format(fmt, output)
    kind = GRAPH_FORMATS[fmt]
    if with_odds and not kind.odds:
        fail(f"error: --odds draws with {', '.join(names_with('odds'))}, not {fmt}")
    preflight(output, [file])
    with Working(f"reading {file}") as work:
        marks: Marks | None = None
        note = ""
        if file.lower().endswith(".json"):
            graph = load_graph(file)
            note = "A compiled .json graph: no lint findings (draw the source to see them)."
        else:
            from dtc.compiled.schema import validate

            comp = load_source(file)
            graph = comp.graph()
            validate(graph)
            if no_lint or not kind.marks:
                note = "Lint findings not shown (--no-lint)." if no_lint else ""
            else:
                from dtc.render.findings import place

                work.step("linting")
                found = _lint(file, comp)
                marks = place(graph, found)
                note = f"Lint findings marked: {len(found)}." if found else "dtc lint found nothing."
        if focus is not None and not any(e["number"] == focus for e in graph["entries"]):
            fail(f"error: --from {focus}: no entry {focus} in {file}")
        odds = None
        if with_odds:
            from dtc.odds.overlay import overlay_graph

            work.step("computing the odds")
            try:
                odds = overlay_graph(graph)
            except ValueError as exc:
                fail(f"error: --odds: {exc}")
        work.step(f"drawing {len(graph['entries']):,} entries"
                  + (" (Graphviz lays them out)" if kind.graphviz else ""))
        from dtc.compiler.api import no_gc_pauses

        with no_gc_pauses():  # hundreds of thousands of short-lived strings and lists: no collector passes
            data = _produce(graph, fmt, focus, depth, layout or "auto",
                            fenced=bool(output) and Path(str(output)).suffix.lower() == ".md", odds=odds,
                            marks=marks, note=note)
    if output is None or output == "-":
        if isinstance(data, str):
            click.echo(data, nl=not data.endswith("\n"))
        elif sys.stdout.isatty():
            fail(f"error: not writing {fmt.upper()} to a terminal; use -o FILE")
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
    else:
        target = Path(output)
        if isinstance(data, str):
            write_text(target, data, inputs=[file])
        else:
            _write_bytes(target, data, [file])
        click.echo(f"wrote {target}", err=True)
    raise SystemExit(int(Exit.CLEAN))
