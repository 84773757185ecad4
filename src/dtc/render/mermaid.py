"""The book as a Mermaid flowchart (``flowchart TD``) that GitHub and GitLab draw as is.

Only a small subset of Mermaid is written, one statement a line: node definitions
(``e12["..."]``), edges (``e1 ==>|"..."| e2``), ``classDef``/``class``/``linkStyle`` lines,
``subgraph``/``direction``/``end`` for the legend, and ``%%`` comments. Every label is a quoted
string whose author text is written with Mermaid's entity codes (``#quot;``, ``#lt;``, ``#35;``),
so no quote, bracket, pipe or tag the author wrote can end a label or reach the page as markup.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtc.compiled.graphjson import CompiledGraph
from dtc.outcomes import STUCK_WORDS, the_end
from dtc.render.model import EDGE_KINDS, Book, Edge, Node, build_book, clean, shorten, wrap

_CODES = {'"': "#quot;", "#": "#35;", "&": "#amp;", "<": "#lt;", ">": "#gt;", "|": "#124;", "\\": "#92;",
          "{": "#123;", "}": "#125;", "[": "#91;", "]": "#93;", "`": "#96;"}
_TABLE = str.maketrans(_CODES)

#: Class definitions: node roles (as in the Graphviz drawing), creatures, missing targets.
CLASS_DEFS = {
    "entry": "fill:#ffffff,stroke:#37474f,color:#000000",
    "start": "fill:#c8e6c9,stroke:#1b5e20,stroke-width:3px,color:#000000",
    "ending": "fill:#ffe082,stroke:#8d6e00,stroke-width:3px,color:#000000",
    "dead_end": "fill:#ef9a9a,stroke:#b71c1c,stroke-width:2px,color:#000000",
    "trapped": "fill:#ffcc80,stroke:#e65100,stroke-width:2px,color:#000000",
    "unreachable": "fill:#eeeeee,stroke:#9e9e9e,stroke-dasharray:5 5,color:#616161",
    "creature": "fill:#fde0dc,stroke:#8b0000,color:#8b0000",
    "missing": "fill:#ffffff,stroke:#d50000,stroke-width:2px,stroke-dasharray:5 5,color:#d50000",
    "legend_point": "fill:#ffffff,stroke:#ffffff,color:#ffffff",
}
#: Edge kinds: (arrow, link style, legend words).
LINKS = {
    "success": ("==>", "stroke:#2e7d32,stroke-width:3px", "check passed"),
    "failure": ("-.->", "stroke:#c62828,stroke-width:1.5px", "check failed"),
    "d0": ("-->", "stroke:#546e7a,stroke-width:1px", "D0 move"),
    "prose": ("-.->", "stroke:#1565c0,stroke-width:2px,stroke-dasharray:2 4", "prose exit (go to N)"),
    "return": ("-.->", "stroke:#6a1b9a,stroke-width:1.5px,stroke-dasharray:10 4", "return to previous entry"),
}
LEGEND_WORDS = {"entry": "entry", "start": "start", "ending": f"ending ({the_end()})",
                "dead_end": STUCK_WORDS["dead_end"], "trapped": "trapped", "unreachable": "unreachable",
                "creature": "creature HP 3", "missing": "missing 40"}


def esc(text: str) -> str:
    """Author text for a quoted Mermaid label: cleaned, with entity codes for special characters."""
    return clean(text).translate(_TABLE)


def _shape(role: str, label: str) -> str:
    if role == "start":
        return f'(["{label}"])'
    if role == "ending":
        return f'[["{label}"]]'
    return f'["{label}"]'


@dataclass(slots=True)
class Chart:
    text: str
    edges: int  # how many edges the chart draws, legend included (GitHub refuses more than 500)


def _node_line(node: Node) -> str:
    head = " · ".join([str(node.number), *([esc(node.label)] if node.label else []), *node.tags()])
    parts = [head, *(esc(line) for line in wrap(node.text, 28, 3))]
    parts += [esc("⚔ " + shorten(f.short(), 40)) for f in node.fighters]
    return f"    e{node.number}{_shape(node.role, '<br/>'.join(parts))}"


def _edge_line(edge: Edge, head: str) -> str:
    arrow = LINKS[edge.kind][0]
    words = [w for w in (edge.check, shorten(edge.choice or "", 24)) if w]
    if words and edge.kind in ("success", "failure", "d0"):
        return f'    e{edge.source} {arrow}|"{esc(" · ".join(words))}"| {head}'
    return f"    e{edge.source} {arrow} {head}"


def _legend(lines: list[str], kinds: list[str], classes: dict[str, list[str]]) -> None:
    lines += ['    subgraph legend["Legend"]', "        direction LR"]
    for role, words in LEGEND_WORDS.items():
        lines.append(f"        legend_{role}{_shape(role, words)}")
        classes.setdefault(role, []).append(f"legend_{role}")
    for kind in EDGE_KINDS:
        arrow, _, words = LINKS[kind]
        lines.append(f'        legend_{kind}_a[" "] {arrow}|"{words}"| legend_{kind}_b[" "]')
        classes.setdefault("legend_point", []).extend([f"legend_{kind}_a", f"legend_{kind}_b"])
        kinds.append(kind)
    lines.append("    end")


def chart(graph: CompiledGraph, *, focus: int | None = None, depth: int | None = None,
          legend: bool = True) -> Chart:
    """The Mermaid flowchart of the book, or of the neighbourhood of entry ``focus``."""
    book: Book = build_book(graph)
    keep = set(book.nodes) if focus is None else book.neighbourhood(focus, 2 if depth is None else depth)
    lines = ["flowchart TD", f"    %% {esc(book.title)}: {esc(book.summary())}"]
    classes: dict[str, list[str]] = {}
    kinds: list[str] = []  # the kind of each link, in order, for linkStyle
    for number in sorted(keep):
        node = book.nodes[number]
        lines.append(_node_line(node))
        role = "creature" if node.role == "entry" and node.fighters else node.role
        classes.setdefault(role, []).append(f"e{number}")
    missing: dict[str, str] = {}
    for edge in book.edges:
        if edge.source not in keep or (edge.target is not None and edge.target not in keep):
            continue
        if edge.target is not None:
            head = f"e{edge.target}"
        else:
            key = edge.missing or "?"
            if key not in missing:
                missing[key] = f"m{len(missing) + 1}"
                lines.append(f'    {missing[key]}["missing {esc(key)}"]')
                classes.setdefault("missing", []).append(missing[key])
            head = missing[key]
        lines.append(_edge_line(edge, head))
        kinds.append(edge.kind)
    if legend:
        _legend(lines, kinds, classes)
    for name, style in CLASS_DEFS.items():
        lines.append(f"    classDef {name} {style}")
    for name, ids in classes.items():
        lines.append(f"    class {','.join(ids)} {name}")
    for kind in EDGE_KINDS:
        indexes = [str(i) for i, k in enumerate(kinds) if k == kind]
        if indexes:
            lines.append(f"    linkStyle {','.join(indexes)} {LINKS[kind][1]}")
    return Chart("\n".join(lines) + "\n", len(kinds))


def to_mermaid(graph: CompiledGraph, *, focus: int | None = None, depth: int | None = None) -> str:
    """The Mermaid flowchart text (see :func:`chart`)."""
    return chart(graph, focus=focus, depth=depth).text
