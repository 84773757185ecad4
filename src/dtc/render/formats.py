"""The formats `dtc graph` writes: one table row each, the one place a new format is added.

A row names the format, the file suffixes that choose it, what ``--format`` help says of it, the
function that draws a :class:`Request` in it, and what the format can do: whether it draws
``--odds`` (``odds``), marks lint findings on the chart (``marks``) and needs the Graphviz programs
(``graphviz``). A producer returns the drawing (text or bytes) and any warnings for the person
running the command; it raises :class:`DrawError` for one it cannot draw. Adding a format is one
module in ``dtc/render/`` and one row in :data:`FORMATS`: ``dtc graph`` reads the names, suffixes,
help and capabilities from the table when it runs, so a format that declares no odds refuses
``--odds`` in one line, and a source is linted only for a format that marks findings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dtc.compiled.graphjson import CompiledGraph

if TYPE_CHECKING:
    from dtc.render.findings import Marks

#: GitHub refuses to draw Mermaid diagrams with more edges than this.
MERMAID_EDGE_LIMIT = 500


class DrawError(Exception):
    """A drawing that cannot be made (Graphviz missing, or refusing the graph); one line."""


@dataclass
class Request:
    """What to draw: the graph, the part of it, and what to lay over it."""

    graph: CompiledGraph
    focus: int | None = None
    depth: int | None = None
    layout: str = "auto"
    #: Mermaid text fenced for Markdown (``-o chart.md``).
    fenced: bool = False
    odds: dict[str, Any] | None = None
    marks: Marks | None = None
    #: A line the interactive page shows above the chart (why there are no findings, say).
    note: str = ""
    warnings: list[str] = field(default_factory=list)


Producer = Callable[[Request], "str | bytes"]


@dataclass(frozen=True)
class Format:
    name: str
    suffixes: tuple[str, ...]
    help: str
    produce: Producer
    #: Draws ``Request.odds`` (``dtc graph --odds``); a format without it refuses the option.
    odds: bool = False
    #: Marks lint findings (``Request.marks``); a source is linted only for such a format.
    marks: bool = False
    #: Needs the Graphviz programs (``dot``, ``sfdp``) to lay the chart out.
    graphviz: bool = False


def _mermaid(req: Request, fenced: bool) -> str:
    from dtc.render.mermaid import chart

    drawn = chart(req.graph, focus=req.focus, depth=req.depth)
    if drawn.edges > MERMAID_EDGE_LIMIT:
        req.warnings.append(f"{drawn.edges} edges; GitHub draws Mermaid charts of at most {MERMAID_EDGE_LIMIT} "
                            "(use --from N --depth K, or SVG)")
    return f"```mermaid\n{drawn.text}```\n" if fenced or req.fenced else drawn.text


def _dot(req: Request) -> str:
    from dtc.render.graph import build_dot

    return str(build_dot(req.graph, focus=req.focus, depth=req.depth, layout=req.layout, odds=req.odds,
                         marks=req.marks).source)


def _graphviz(fmt: str) -> Callable[[Request], bytes]:
    def produce(req: Request) -> bytes:
        from dtc.render.graph import GraphvizMissing, RenderError, draw

        try:
            data, warnings = draw(req.graph, fmt, focus=req.focus, depth=req.depth, layout=req.layout,
                                  odds=req.odds, marks=req.marks)
        except (GraphvizMissing, RenderError) as exc:
            raise DrawError(str(exc)) from None
        req.warnings.extend(warnings)
        return data

    return produce


def _svg(req: Request) -> str:
    return _graphviz("svg")(req).decode("utf-8")


def _html(req: Request) -> str:
    from dtc.render.html import page

    return page(req.graph, _svg(req), req.marks, req.note)


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("dot", (".dot", ".gv"), "Graphviz source", _dot, odds=True, marks=True),
    Format("svg", (".svg",), "an SVG drawing (Graphviz)", _svg, odds=True, marks=True, graphviz=True),
    Format("png", (".png",), "a PNG image (Graphviz)", _graphviz("png"), odds=True, marks=True, graphviz=True),
    Format("pdf", (".pdf",), "a PDF (Graphviz)", _graphviz("pdf"), odds=True, marks=True, graphviz=True),
    Format("html", (".html", ".htm"), "an interactive page: pan, zoom, search, lint findings", _html,
           odds=True, marks=True, graphviz=True),
    Format("mermaid", (".mmd", ".mermaid"), "a Mermaid chart", lambda req: _mermaid(req, False)),
    Format("md", (".md",), "a Mermaid chart fenced for Markdown", lambda req: _mermaid(req, True)),
)}


def by_suffix(suffix: str) -> str | None:
    """The name of the format a file suffix (``.svg``, any case) chooses, or None."""
    suffix = suffix.lower()
    return next((f.name for f in FORMATS.values() if suffix in f.suffixes), None)


def names_with(capability: str) -> list[str]:
    """The names of the formats that declare ``capability`` (``odds``, ``marks``, ``graphviz``)."""
    return [f.name for f in FORMATS.values() if getattr(f, capability)]


def produce(fmt: str, req: Request) -> str | bytes:
    """The drawing of ``req`` in format ``fmt`` (its warnings are left in ``req.warnings``)."""
    return FORMATS[fmt].produce(req)
