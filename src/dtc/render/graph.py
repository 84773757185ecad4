"""The book as a Graphviz flowchart: DOT built with the ``graphviz`` package, drawn by the
Graphviz programs (``dot`` for books up to :data:`SFDP_ABOVE` entries and
:data:`SFDP_EXITS_ABOVE` exits, ``sfdp`` beyond).

Escaping: every string an author wrote reaches DOT only through :func:`esc`, which turns
``& < > " ' \\`` and newlines into XML character references. No backslash ever reaches DOT (so
Graphviz's ``\\n``/``\\l``/``\\N`` escapes cannot be triggered), no quote can end a string, and no
``<...>`` value is mistaken for an HTML-like label by the ``graphviz`` package; in SVG output
Graphviz keeps the references as they are, so the SVG stays well-formed XML.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import math
import re
import subprocess
import tempfile
import threading
from operator import indexOf
from typing import Any

import graphviz

from dtc.compiled.graphjson import CompiledGraph
from dtc.lint.analysis import Analysis
from dtc.outcomes import STUCK_WORDS, the_end
from dtc.render.clusters import find_clusters, grid_columns
from dtc.render.findings import Marks, worst
from dtc.render.model import EDGE_KINDS, Book, Edge, Node, build_book, shorten, wrap
from dtc.visible import visible

#: Above this many entries the automatic layout is ``sfdp`` (``dot`` gets slow: see docs/graph.md).
SFDP_ABOVE = 800
#: Above this many exits drawn the automatic layout is ``sfdp`` too, however few the entries: a
#: 500-entry book whose every entry leads to every other (249,500 exits) was drawn by ``dot`` as
#: 227,000 connector boxes beside the arrows (95 MB of DOT), which no layout finished in minutes.
SFDP_EXITS_ABOVE = 20_000
#: A part of a ``dot`` chart that Graphviz lays out on its own (a cluster, or the whole of a
#: small book) with more exits among its entries than this is dense: crossing minimization and
#: spline routing then grow with a high power of the exits (a cluster of 45 entries with 8
#: exits each to entries of the cluster: 6 s; 20 entries each leading to every other: 1.5 s, 25:
#: 6 s, 30: 32 s, 42: minutes). Such a chart is drawn with :data:`DENSE_LIMITS` (see docs/graph.md).
DENSE_EXITS = 300
#: Graphviz's bounds on its iterations for a dense chart (crossing minimization, ranking and
#: placing) and straight arrows: 42 entries each leading to every other in 1.9 s.
DENSE_LIMITS = {"splines": "line", "mclimit": "0.1", "nslimit": "1", "nslimit1": "1"}
#: Books whose longest forward path is longer than this are ranked by fewest moves from the start.
NATURAL_DEPTH = 40
FONT = "Helvetica,Arial,sans-serif"
INSTALL_HINT = (
    "Graphviz is not installed (no `dot` program on PATH): install it with `apt-get install graphviz`, "
    "`brew install graphviz` or from https://graphviz.org/download/ (DOT and Mermaid output work without it)"
)

#: Node look per role (fill colour, border colour, extra style); see docs/graph.md.
ROLE_STYLE: dict[str, dict[str, str]] = {
    "entry": {"fillcolor": "#ffffff", "color": "#37474f"},
    "start": {"fillcolor": "#c8e6c9", "color": "#1b5e20", "penwidth": "3"},
    "ending": {"fillcolor": "#ffe082", "color": "#8d6e00", "peripheries": "2"},
    "dead_end": {"fillcolor": "#ef9a9a", "color": "#b71c1c", "penwidth": "2"},
    "trapped": {"fillcolor": "#ffcc80", "color": "#e65100", "penwidth": "2"},
    "unreachable": {"fillcolor": "#eeeeee", "color": "#9e9e9e", "fontcolor": "#757575"},
}
ROLE_WORDS = {"entry": "entry", "start": "start", "ending": f"ending ({the_end()})",
              "dead_end": STUCK_WORDS["dead_end"], "trapped": "trapped", "unreachable": "unreachable"}

#: Edge look per kind: (colour, style, arrowhead, legend text).
EDGE_STYLE: dict[str, tuple[str, str, str, str]] = {
    "success": ("#2e7d32", "bold", "normal", "check passed"),
    "failure": ("#c62828", "dashed", "normal", "check failed"),
    "d0": ("#546e7a", "solid", "normal", "D0 move"),
    "prose": ("#1565c0", "dotted", "vee", "prose exit (go to N)"),
    "return": ("#6a1b9a", "dashed", "empty", "return to previous entry"),
}
CREATURE_BG, CREATURE_FG = "#fde0dc", "#8b0000"
#: An exit with a lint error (a D4, an unknown ability, a check with no F): a red and yellow
#: double line, labelled with a warning sign and the rule code.
LINT_EDGE_COLOR = "#d50000:#ffd600:#d50000"
LINT_FG = "#b71c1c"
#: Entry numbers are drawn this large (points), the text under them at 9.
NUMBER_SIZE = "18"
#: The chances shown in the --odds legend's scale.
ODDS_SCALE = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0)
MISSING_COLOR = "#d50000"

_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
                       "\\": "&#92;", "\n": "&#10;"})
#: Tooltips: Graphviz decodes references first, then reads ``\n``/``\l``-style escapes, then
#: ``\N``/``\G``-style ones, each pass turning ``\\`` into ``\``: so one backslash is written as four.
_TOOLTIP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
                          "\\": "\\" * 4, "\n": "&#10;"})


class GraphvizMissing(RuntimeError):
    """The Graphviz programs are not installed; the message says how to install them."""


class RenderError(RuntimeError):
    """Graphviz ran but failed; the message is its first line of complaint."""


#: Graphviz refuses a quoted or HTML-like string longer than 16,384 characters ("syntax error
#: ... longer than 16384?"). Each piece of author text is cut to this many characters before it
#: is escaped (an escape is at most six characters), and a list of them (a node's creatures,
#: a tooltip's lines) to :data:`MAX_ITEMS`, so that no attribute comes near that limit.
MAX_TEXT = 1_000
MAX_ITEMS = 8


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def esc(text: str) -> str:
    """Author text made safe for an HTML-like label (``label=<...>``), cut to :data:`MAX_TEXT`."""
    # What ``cut(text).translate(_HTML)`` gives: each replacement writes none of the characters
    # replaced after it ("&" goes first), and a few replaces cost less than a translate.
    return (cut(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#39;").replace("\\", "&#92;").replace("\n", "&#10;"))


def esc_tooltip(text: str) -> str:
    """Author text made safe for a ``tooltip`` (a quoted escString) that shows it as written,
    cut to :data:`MAX_TEXT`."""
    # ``cut(text).translate(_TOOLTIP)``, as replaces (see esc)
    out = (cut(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
           .replace("'", "&#39;").replace("\\", "\\" * 4).replace("\n", "&#10;"))
    return out + " " if out.endswith("\\") else out  # never let a backslash touch the closing quote


_DOT_ID = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*|-?(\.[0-9]+|[0-9]+(\.[0-9]*)?))$")
_DOT_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


#: Values already quoted by :func:`_q` (most come back: colours, styles, classes, attribute
#: names); emptied when it grows past :data:`_QUOTED_MAX`.
_QUOTED: dict[str, str] = {}
_QUOTED_MAX = 50_000


def _q(value: str) -> str:
    """What ``graphviz.quoting.quote`` makes of ``value`` (remembered: see :data:`_QUOTED`)."""
    got = _QUOTED.get(value)
    if got is None:
        if len(_QUOTED) >= _QUOTED_MAX:
            _QUOTED.clear()
        got = _QUOTED[value] = _quote(value)
    return got


def _quote(value: str) -> str:
    """What ``graphviz.quoting.quote`` makes of ``value``, without its costs where it can tell
    sooner (a 10,000-entry book has half a million values): an HTML-like label as it is, a plain
    name as it is, anything else in quotes. A value with a quote, a backslash or a line end
    goes to the package itself."""
    if '"' in value or "\\" in value or "\n" in value:
        return str(graphviz.quoting.quote(value))
    if value.startswith("<") and value.endswith(">"):
        return value
    if _DOT_ID.match(value) and value.lower() not in _DOT_KEYWORDS:
        return value
    return f'"{value}"'


def _a_list(label: str | None, attrs: dict[str, str]) -> str:
    known = _QUOTED.get  # (a value met before costs one look-up, not a call of _q)
    items = [f"label={known(label) or _q(label)}"] if label is not None else []
    for k in sorted(attrs):
        v = attrs[k]
        if v is not None:
            items.append(f"{known(k) or _q(k)}={known(v) or _q(v)}")
    return f" [{' '.join(items)}]" if items else ""


def _node(g: graphviz.Digraph, name: str, label: str | None = None, **attrs: str) -> None:
    """``g.node(name, label, **attrs)``, the same line, written faster."""
    g.body.append(f"\t{_q(name)}{_a_list(label, attrs)}\n")


def _edge(g: graphviz.Digraph, tail: str, head: str, label: str | None = None, **attrs: str) -> None:
    """``g.edge(tail, head, label, **attrs)`` for names without ports, the same line, written faster."""
    g.body.append(f"\t{_q(tail)} -> {_q(head)}{_a_list(label, attrs)}\n")


def choose_layout(entries: int, exits: int = 0) -> str:
    """The automatic layout for a chart of ``entries`` entries and ``exits`` exits drawn."""
    return "sfdp" if entries > SFDP_ABOVE or exits > SFDP_EXITS_ABOVE else "dot"


def densest(drawn: list[Edge], cluster_of: dict[int, int]) -> int:
    """The most exits between entries of one part that Graphviz lays out on its own: a cluster
    (``cluster_of``: entry -> its cluster), or the whole chart when there are none. ``drawn``:
    the exits drawn (from an entry drawn, to one drawn or to a missing one)."""
    among: dict[int, int] = {}
    for edge in drawn:
        source, target = edge.source, edge.target
        if source == target or target is None:
            continue
        home = cluster_of.get(source, -1)
        if cluster_of.get(target, -1) == home:
            among[home] = among.get(home, 0) + 1
    return max(among.values(), default=0)


def _html(body: str) -> str:
    return f"<{body}>"


def _finding_line(f: dict[str, Any]) -> str:
    return f"{f.get('code', '')} {f.get('severity', '')}: {f.get('message', '')}"


def _tooltip(node: Node, hidden: tuple[int, int] | None, compact: bool,
             found: list[dict[str, Any]] | None = None) -> str:
    lines = [f"{node.number}" + (f" ({node.label})" if node.label else "")
             + (" - " + ", ".join(node.tags()) if node.tags() else "")]
    lines.append(node.lead(160 if compact else 400))
    for f in node.fighters[:MAX_ITEMS]:
        lines.append(f.short() + (f" Morale {f.morale}" if f.morale is not None else "")
                     + (f" | {f.attacks}" if f.attacks else ""))
    if len(node.fighters) > MAX_ITEMS:
        lines.append(f"and {len(node.fighters) - MAX_ITEMS} more")
    if hidden and any(hidden):
        lines.append(f"not shown: {hidden[0]} exits, {hidden[1]} entrances")
    lines += [_finding_line(f) for f in found or []]
    return "&#10;".join(esc_tooltip(line) for line in lines)


def _odds_cell(p: float, width: str = "") -> str:
    from dtc.odds.overlay import percent, shade

    words = esc(percent(p))
    ink = "#ffffff" if p >= 0.5 else "#0d2b45"
    size = f' WIDTH="{width}" HEIGHT="18" FIXEDSIZE="TRUE"' if width else ""
    return (f'<TD ALIGN="CENTER"{size} BGCOLOR="{shade(p)}"><FONT POINT-SIZE="10" COLOR="{ink}">'
            f"<B>{words}</B></FONT></TD>")


def _node_label(node: Node, compact: bool, hidden: tuple[int, int] | None, p: float | None = None,
                found: list[dict[str, Any]] | None = None) -> str:
    if compact:
        if p is None:
            return _html(f"<B>{node.number}</B>")
        return _html(f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1"><TR><TD><B>{node.number}'
                     f"</B></TD></TR><TR>{_odds_cell(p)}</TR></TABLE>")
    head = f'<FONT POINT-SIZE="{NUMBER_SIZE}"><B>{node.number}</B></FONT>'
    if node.label:
        head += f' <FONT POINT-SIZE="8">{esc(node.label)}</FONT>'
    if node.tags():
        head += f' <FONT POINT-SIZE="7">{esc(" · ".join(node.tags()))}</FONT>'
    rows = [f'<TR><TD ALIGN="LEFT">{head}</TD></TR>']
    text = "<BR/>".join(esc(line) for line in wrap(node.text, 26, 3))
    if text:
        rows.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="9">{text}</FONT></TD></TR>')
    if node.fighters:
        who = "<BR/>".join(esc(shorten(f.short(), 40)) for f in node.fighters[:MAX_ITEMS])
        if len(node.fighters) > MAX_ITEMS:
            who += f"<BR/>and {len(node.fighters) - MAX_ITEMS} more"
        rows.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT" BGCOLOR="{CREATURE_BG}">'
                    f'<FONT POINT-SIZE="9" COLOR="{CREATURE_FG}"><B>{who}</B></FONT></TD></TR>')
    for f in found or []:
        rows.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="8" COLOR="{LINT_FG}">&#9888; '
                    f"{esc(str(f.get('code', '')))} {esc(shorten(str(f.get('message', '')), 48))}</FONT></TD></TR>")
    if p is not None:
        rows.append(f"<TR>{_odds_cell(p)}</TR>")
    if hidden and any(hidden):
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="7" COLOR="#616161">+{hidden[0]} exits, '
                    f"+{hidden[1]} entrances not shown</FONT></TD></TR>")
    return _html('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(rows) + "</TABLE>")


def _node_attrs(node: Node, compact: bool, hidden: tuple[int, int] | None, focus: bool,
                p: float | None = None, found: list[dict[str, Any]] | None = None) -> dict[str, str]:
    attrs = dict(ROLE_STYLE[node.role])
    if node.unreachable:
        attrs["style"] = "rounded,filled,dashed"
    if node.start:
        attrs["penwidth"] = "3"
    if node.ending:
        attrs["peripheries"] = "2"
    if focus:
        attrs.update(color="#0d47a1", penwidth="4")
    classes = ["entry", *(t for t in ("start", "ending", "dead_end", "trapped", "unreachable")
                          if getattr(node, t))]
    if node.fighters:
        classes.append("creature")
    level = worst(found or [])
    if level:
        classes.append(f"lint-{level}")
    shown = [f for f in found or [] if f.get("severity") in ("error", "warning")]
    attrs.update(
        label=_node_label(node, compact, hidden, p, shown), tooltip=_tooltip(node, hidden, compact, found),
        id=f"entry-{node.number}", URL=f"#entry-{node.number}", **{"class": " ".join(classes)},
    )
    return attrs


def _edge_attrs(edge: Edge, compact: bool, found: list[dict[str, Any]] | None = None) -> dict[str, str]:
    color, style, arrow, words_for_kind = EDGE_STYLE[edge.kind]
    attrs = {"color": color, "id": f"exit-{edge.source}-{edge.index}", "class": f"exit {edge.kind}"}
    level = worst(found or [])
    if level:
        attrs["class"] += f" lint-{level}"
    if level == "error":
        attrs.update(color=LINT_EDGE_COLOR, penwidth="1.5")
    if style != "solid":
        attrs["style"] = style
    if arrow != "normal":
        attrs["arrowhead"] = arrow
    if edge.kind == "return":
        attrs["constraint"] = "false"
    if compact:  # big books: no labels, no tooltips
        return attrs
    words = [w for w in (edge.check, shorten(edge.choice or "", 24)) if w]
    serious = [f for f in found or [] if f.get("severity") in ("error", "warning")]
    lines = [esc(w) for w in words] if edge.kind in ("success", "failure", "d0") else []
    if serious:
        codes = " ".join(sorted({str(f.get("code", "")) for f in serious}))
        lines.insert(0, f'<FONT COLOR="{LINT_FG}"><B>&#9888; {esc(codes)}</B></FONT>')
    if lines:
        attrs["label"] = _html("<BR/>".join(lines))
        attrs["fontcolor"] = color
    where = edge.target if edge.target is not None else f"missing {edge.missing}"
    tip = f"{edge.source} -> {where}: {words_for_kind} {' '.join(words)}".strip()
    attrs["tooltip"] = esc_tooltip("\n".join([tip, *(_finding_line(f) for f in found or [])]))
    return attrs


def _missing_name(key: str, taken: dict[str, str]) -> str:
    """``missing-40`` for a number; for an ``@label``, ``missing-`` and its letters (made unique)."""
    if key not in taken:
        name = "missing-" + "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "_" for c in cut(key, 200))
        while name in taken.values():
            name += "_"
        taken[key] = name
    return taken[key]


def _odds_scale() -> str:
    """The --odds legend: the shading scale, a cell per chance."""
    cells = "".join(_odds_cell(p, "48") for p in ODDS_SCALE)
    return (f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3"><TR><TD COLSPAN="{len(ODDS_SCALE)}">'
            f'<FONT POINT-SIZE="9">chance of reaching the entry (random choices, a fresh adventurer); '
            f"exit labels: chance of taking it</FONT></TD></TR><TR>{cells}</TR></TABLE>")


def _legend_cluster(dot: graphviz.Digraph, odds: bool = False, lint: bool = False,
                    connectors: bool = False) -> None:
    """A two-row legend: sample nodes, then sample edges (flat, each with its meaning above)."""
    with dot.subgraph(name="cluster_legend") as lg:
        lg.attr(label="Legend", fontsize="11", style="rounded", color="#9e9e9e", id="legend")
        with lg.subgraph(name="legend_nodes") as row:
            row.attr(rank="same")
            names: list[str] = []
            for role, words in ROLE_WORDS.items():
                style = "rounded,filled" + (",dashed" if role == "unreachable" else "")
                row.node(f"legend_{role}", words, shape="box", style=style, fontsize="9", **ROLE_STYLE[role])
                names.append(f"legend_{role}")
            row.node("legend_creature", _html(f'<FONT COLOR="{CREATURE_FG}"><B>creature HP 3</B></FONT>'),
                     shape="box", style="rounded,filled", fillcolor=CREATURE_BG, color="#37474f", fontsize="9")
            row.node("legend_missing", "missing 40", shape="box", style="dashed,bold", color=MISSING_COLOR,
                     fontcolor=MISSING_COLOR, fontsize="9")
            names += ["legend_creature", "legend_missing"]
            if connectors:
                row.node("legend_connector", _html("<B>to 57</B> (in another group)"), shape="cds", style="filled",
                         fillcolor="#ffffff", color="#546e7a", fontcolor="#546e7a", fontsize="9")
                names.append("legend_connector")
            for a, b in itertools.pairwise(names):
                row.edge(a, b, style="invis")
        with lg.subgraph(name="legend_edges") as row:
            row.attr(rank="same")
            last = None
            for kind in EDGE_KINDS:
                color, style, arrow, words = EDGE_STYLE[kind]
                tail, head = f"legend_{kind}_from", f"legend_{kind}_to"
                for point in (tail, head):
                    row.node(point, "", shape="point", width="0.04", color=color)
                if last:
                    row.edge(last, tail, style="invis")
                row.edge(tail, head, label=words, color=color, fontcolor=color, style=style, arrowhead=arrow,
                         fontsize="9", minlen="2")
                last = head
            if lint:
                for point in ("legend_lint_from", "legend_lint_to"):
                    row.node(point, "", shape="point", width="0.04", color=LINT_FG)
                row.edge(last, "legend_lint_from", style="invis")
                row.edge("legend_lint_from", "legend_lint_to", label=_html("&#9888; lint error (rule code)"),
                         color=LINT_EDGE_COLOR, fontcolor=LINT_FG, penwidth="1.5", fontsize="9", minlen="2")
        lg.edge(names[0], "legend_success_from", style="invis")
        if odds:
            lg.node("legend_odds", _html(_odds_scale()), shape="plain", style="", fillcolor="white")
            lg.edge("legend_success_from", "legend_odds", style="invis")


def _legend_label(book: Book, odds: bool = False) -> str:
    cells = []
    for role, words in ROLE_WORDS.items():
        cells.append(f'<TD BGCOLOR="{ROLE_STYLE[role]["fillcolor"]}">{esc(words)}</TD>')
    cells.append(f'<TD BGCOLOR="{CREATURE_BG}"><FONT COLOR="{CREATURE_FG}">creature</FONT></TD>')
    edges = [f'<TD><FONT COLOR="{c}">{esc(w)}</FONT></TD>' for c, _, _, w in EDGE_STYLE.values()]
    return (f'<TABLE BORDER="0" CELLSPACING="2"><TR><TD COLSPAN="7"><B>{esc(book.title)}</B> '
            f'<FONT POINT-SIZE="10">{esc(book.summary())}</FONT></TD></TR>'
            f'<TR>{"".join(cells)}</TR><TR>{"".join(edges)}<TD></TD><TD></TD></TR>'
            + (f'<TR><TD COLSPAN="7">{_odds_scale()}</TD></TR>' if odds else "") + "</TABLE>")


def _hidden(book: Book, keep: set[int]) -> dict[int, tuple[int, int]]:
    """Per drawn entry: exits and entrances that lead outside the drawn neighbourhood."""
    out: dict[int, list[int]] = {n: [0, 0] for n in keep}
    for e in book.edges:
        if e.target is None:
            continue
        if e.source in keep and e.target not in keep:
            out[e.source][0] += 1
        if e.target in keep and e.source not in keep:
            out[e.target][1] += 1
    return {n: (a, b) for n, (a, b) in out.items()}


def build_dot(graph: CompiledGraph, *, focus: int | None = None, depth: int | None = None,
              layout: str = "dot", odds: dict[str, Any] | None = None,
              edge_labels: bool = True, marks: Marks | None = None,
              clusters: str = "auto", facts: Analysis | None = None) -> graphviz.Digraph:
    """The whole book, or with ``focus`` the entries up to ``depth`` (default 2) exits from it.

    ``layout`` is ``dot``, ``sfdp`` or ``auto`` (sfdp above :data:`SFDP_ABOVE` entries or
    :data:`SFDP_EXITS_ABOVE` exits; a dense ``dot`` chart gets :data:`DENSE_LIMITS`). Raises
    :class:`KeyError` when ``focus`` is not an entry number. ``odds`` (from
    :func:`dtc.odds.overlay.overlay_graph`) labels exits with percentages and prints each entry's
    chance of being reached in a shaded band (the status colours stay). ``marks``
    (:func:`dtc.render.findings.place`) draws lint findings on their entries and exits.
    ``clusters`` is ``auto`` (see :func:`dtc.render.clusters.find_clusters`) or ``none``.
    ``facts``: the graph's :meth:`Analysis.of_graph`, when the caller has it already.
    """
    from dtc.odds.overlay import edge_odds, node_odds

    book = build_book(graph, facts)
    keep = set(book.nodes) if focus is None else book.neighbourhood(focus, 2 if depth is None else depth)
    drawn = [e for e in book.edges if e.source in keep and (e.target is None or e.target in keep)]
    if layout == "auto":
        layout = choose_layout(len(keep), len(drawn))
    if layout not in ("dot", "sfdp"):
        raise ValueError(f"unknown layout {layout!r} (dot, sfdp or auto)")
    compact = layout == "sfdp"
    hidden = _hidden(book, keep) if focus is not None else {}
    groups = find_clusters(book, keep) if clusters == "auto" and focus is None and not compact else []
    cluster_of = {n: i for i, c in enumerate(groups) for n in c.members}
    # (a dense chart: see DENSE_EXITS; its look is the same but for straight arrows)
    lines = DENSE_LIMITS if not compact and densest(drawn, cluster_of) > DENSE_EXITS else {"splines": "true"}
    dot = graphviz.Digraph("adventure", engine=layout)
    dot.attr("graph", fontname=FONT, labelloc="t", tooltip=esc_tooltip(book.title), id="book", pad="0.3",
             outputorder="edgesfirst", bgcolor="white")
    if compact:
        dot.attr("graph", label=_html(_legend_label(book, odds is not None)), overlap="prism", splines="false",
                 fontsize="12")
    else:
        sub = f"entries near {focus} (depth {2 if depth is None else depth}) · " if focus is not None else ""
        dot.attr("graph", rankdir="TB", nodesep="0.3", ranksep="0.5", fontsize="16", **lines,
                 label=_html(f'<B>{esc(book.title)}</B><BR/><FONT POINT-SIZE="10">{esc(sub + book.summary())}</FONT>'))
    dot.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="10", margin="0.08,0.04")
    dot.attr("edge", fontname=FONT, fontsize="8", arrowsize="0.7")
    if not compact:
        _legend_cluster(dot, odds is not None, marks is not None and any(
            worst(found) == "error" for found in marks.exits.values()), bool(groups))
    # A deep book (see NATURAL_DEPTH) gets one rank per level, the fewest moves from the start:
    # exits further down span one rank, exits back up do not stretch the picture. Dot's own
    # ranking (best for small books) makes the longest path the height: minutes for 400 entries.
    #
    # A large book is drawn in clusters (see dtc.render.clusters) laid out in a grid: an exit to
    # another cluster ends in a small connector box ("to 57") beside its entry instead of an
    # arrow across the page, so each cluster is laid out on its own and Graphviz packs them in
    # rows (packmode array), about as wide as high, instead of one ribbon.
    levels: dict[int, int] = {}
    if not groups and focus is None and not compact and book.depth_estimate() > NATURAL_DEPTH:
        levels = book.levels()
        dot.attr("graph", forcelabels="false")
    if groups:
        dot.attr("graph", forcelabels="false", pack="24", packmode=f"array_u{grid_columns(groups)}")
    ranks: dict[int, list[str]] = {}
    places: dict[int, graphviz.Digraph] = {}
    for i, group in enumerate(groups):
        places[i] = graphviz.Digraph(name=f"cluster_{i}")
        places[i].attr(label=_html(f"<B>{esc(group.title)}</B>"), style="rounded,filled", fillcolor="#f5f7fa",
                       color="#b0bec5", fontsize="14", labeljust="l", id=f"cluster-{i}", margin="12",
                       sortv=str(i + 1))
    for number in sorted(keep):
        node = book.nodes[number]
        p = odds["entries"].get(number) if odds is not None else None
        attrs = _node_attrs(node, compact, hidden.get(number), number == focus, p,
                            marks.entries.get(number) if marks else None)
        fill = attrs["fillcolor"]
        node_odds(attrs, number, odds)  # the chance in the tooltip; the status colour stays
        attrs["fillcolor"] = fill
        _node(places.get(cluster_of.get(number, -1), dot), f"e{number}", **attrs)
        if number in levels:
            ranks.setdefault(levels[number], []).append(f"e{number}")
        elif node.start and focus is None and not compact and not groups:
            ranks[0] = [f"e{number}"]
    for level, names in sorted(ranks.items()):
        with dot.subgraph(name=f"level_{level}") as rank:
            rank.attr(rank="source" if level == 0 else "same")
            for name in names:
                rank.node(name)
    drawn_missing: dict[str, str] = {}  # missing target -> node name
    for edge in drawn:
        attrs = _edge_attrs(edge, compact, marks.exits.get((edge.source, edge.index)) if marks else None)
        edge_odds(attrs, edge.source, edge.index, odds)
        if not edge_labels:
            attrs.pop("label", None)
        home = cluster_of.get(edge.source)
        if home is not None and (edge.target is None or cluster_of.get(edge.target) != home):
            stub = f"to-{edge.source}-{edge.index}"
            where = f"to {edge.target}" if edge.target is not None else f"missing {esc(edge.missing or '')}"
            color = EDGE_STYLE[edge.kind][0] if edge.target is not None else MISSING_COLOR
            _node(places[home], stub, _html(f"<B>{where}</B>"), id=stub, shape="cds", style="filled",
                              fillcolor="#ffffff", color=color, fontcolor=color, fontsize="11", margin="0.04,0.02",
                              height="0.3", tooltip=attrs.get("tooltip", ""), URL=f"#entry-{edge.target}"
                              if edge.target is not None else f"#{stub}",
                              **{"class": "connector" + (" missing" if edge.target is None else "")})
            _edge(places[home], f"e{edge.source}", stub, **attrs)
            continue
        if edge.target is not None:
            head = f"e{edge.target}"
        else:
            assert edge.missing is not None
            if edge.missing not in drawn_missing:
                head = _missing_name(edge.missing, drawn_missing)
                dot.node(head, _html(f"missing {esc(edge.missing)}"), id=head, shape="box", style="dashed,bold",
                         color=MISSING_COLOR, fontcolor=MISSING_COLOR, **{"class": "missing"})
            head = drawn_missing[edge.missing]
        if edge.target in levels and edge.source in levels and levels[edge.target] <= levels[edge.source]:
            attrs["constraint"] = "false"
            if levels[edge.target] == levels[edge.source] and "label" in attrs:
                # Labels of edges within a rank crash dot 2.43 ("lost edge", "routesplines")
                # when two join the same entries: placed after layout instead, where they fit.
                attrs["xlabel"] = attrs.pop("label")
        _edge(dot, f"e{edge.source}", head, **attrs)
    for place in places.values():
        dot.subgraph(place)
    return dot


class Stopped(RuntimeError):
    """The drawing was stopped (:meth:`Processes.stop`) before Graphviz finished."""


class Processes:
    """Runs the Graphviz programs, each as its own process, and can stop them from another thread.

    The DOT text is handed over in an unnamed temporary file (Graphviz reads it as its standard
    input), so that no thread of ours has to feed a pipe while the layout runs; the drawing
    comes back on a pipe, its complaints on another. :meth:`stop` kills every program still
    running and refuses to start another: nothing is left running behind ``dtc``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[bytes]] = set()
        self._stopped = False

    def pipe(self, dot: graphviz.Digraph, fmt: str, *, engine: str | None = None,
             neato_no_op: int | None = None) -> bytes:
        """What ``dot.pipe(format=fmt, quiet=True, engine=engine, neato_no_op=neato_no_op)`` gives:
        the same program, arguments and input, the same exceptions (``graphviz.ExecutableNotFound``,
        ``graphviz.CalledProcessError``); :class:`Stopped` once :meth:`stop` was called."""
        cmd = ["dot", f"-K{engine or dot.engine}", f"-T{fmt}"] + ([f"-n{neato_no_op:d}"] if neato_no_op else [])
        with tempfile.TemporaryFile(prefix="dtc-graph-") as source:
            source.write(dot.source.encode(dot.encoding))
            source.seek(0)
            with self._lock:
                if self._stopped:
                    raise Stopped("the flowchart was stopped")
                try:
                    proc = subprocess.Popen(cmd, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                except FileNotFoundError:
                    raise graphviz.ExecutableNotFound(cmd) from None
                self._running.add(proc)
            try:
                out, err = proc.communicate()
            finally:
                if proc.returncode is None:  # interrupted while waiting: never leave it running
                    proc.kill()
                    proc.wait()
                with self._lock:
                    self._running.discard(proc)
        if self._stopped:
            raise Stopped("the flowchart was stopped")
        if proc.returncode:
            raise graphviz.CalledProcessError(proc.returncode, cmd, output=out, stderr=err)
        return out

    def stop(self) -> None:
        """Kill every program still running (and wait for it); start no other."""
        with self._lock:
            self._stopped = True
            running = list(self._running)
        for proc in running:
            with contextlib.suppress(OSError):
                proc.kill()
        for proc in running:
            with contextlib.suppress(OSError):
                proc.wait()


#: The :class:`Processes` a thread's drawing runs its programs with (a new one per call if unset).
_PROCESSES: contextvars.ContextVar[Processes | None] = contextvars.ContextVar("_PROCESSES", default=None)


def _pipe(dot: graphviz.Digraph, fmt: str, *, engine: str | None = None, neato_no_op: int | None = None) -> bytes:
    return (_PROCESSES.get() or Processes()).pipe(dot, fmt, engine=engine, neato_no_op=neato_no_op)


def render(dot: graphviz.Digraph, fmt: str) -> bytes:
    """Run Graphviz on ``dot`` and return the drawing (``svg``, ``png``, ``pdf``, ...)."""
    try:
        data: bytes = _pipe(dot, fmt)
    except graphviz.ExecutableNotFound:
        raise GraphvizMissing(INSTALL_HINT) from None
    except graphviz.CalledProcessError as exc:
        err = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else str(exc.stderr or "")
        status = (f"stopped by signal {-exc.returncode}" if exc.returncode < 0
                  else f"exit status {exc.returncode}")
        first = next((line for line in err.splitlines() if line.strip()), status)
        # Graphviz quotes the text it choked on, the author's: cut, control characters made visible.
        said = visible(cut(first.strip(), 200), newlines=False)
        raise RenderError(f"Graphviz ({dot.engine}) failed: {said}") from None
    if not data:
        raise RenderError(f"Graphviz ({dot.engine}) stopped without drawing anything")
    return data


#: A node in Graphviz's ``plain`` output: name (quoted when it must be), centre, width, height (inches).
_PLAIN_NODE = re.compile(r'^node ("(?:[^"\\]|\\.)*"|\S+) (\S+) (\S+) (\S+) (\S+) ', re.M)
#: Grid cells per box in a tidied layout: room to keep the force-directed shape.
ROOM = 2.0
#: The gap kept around each box in a tidied layout (inches).
GAP = 0.15


def grid_places(boxes: dict[str, tuple[float, float, float, float]]) -> dict[str, tuple[float, float]]:
    """Each box (centre x, y, width, height) moved to a cell of a grid of equal cells, as near as
    it can be to where it was: no two boxes overlap, and the picture keeps its shape.

    The layout is first scaled to about :data:`ROOM` cells per box; then, nearest the middle
    first, each box takes the free cell nearest its own place (cells tried in order of
    distance). Returns the new centres, in points.
    """
    if not boxes:
        return {}
    cw = max(b[2] for b in boxes.values()) + GAP
    ch = max(b[3] for b in boxes.values()) + GAP
    xs = [b[0] for b in boxes.values()]
    ys = [b[1] for b in boxes.values()]
    x0, y0 = min(xs), min(ys)
    area = max(max(xs) - x0, cw) * max(max(ys) - y0, ch)  # a row or a column is one cell deep
    k = math.sqrt(ROOM * len(boxes) * cw * ch / area)
    mx, my = (x0 + max(xs)) / 2, (y0 + max(ys)) / 2
    order = sorted(boxes, key=lambda n: ((boxes[n][0] - mx) ** 2 + (boxes[n][1] - my) ** 2, n))
    cells = [(round((boxes[n][0] - x0) * k / cw), round((boxes[n][1] - y0) * k / ch)) for n in order]
    # A cell (x, y) is the one number x * wide + y: a ring's radius never passes the number of
    # boxes (a ring is searched past only when all of it is taken), so no two cells share one.
    wide = 1 << (max(max(abs(x), abs(y)) for x, y in cells) + len(boxes) + 8).bit_length() + 2
    offsets: list[tuple[int, int]] = []
    steps: list[int] = []  # the offsets as numbers
    radius = 0

    def grow() -> None:  # the cells up to the next ring, nearest first
        nonlocal radius
        radius = max(4, radius * 2)
        ring = [(dx, dy) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]
        ring.sort(key=lambda d: ((d[0] * cw) ** 2 + (d[1] * ch) ** 2, d))
        offsets[:] = ring
        steps[:] = [dx * wide + dy for dx, dy in ring]

    grow()
    taken: set[int] = set()
    is_taken = taken.__contains__
    places: dict[str, tuple[float, float]] = {}
    # Where the last search from a cell ended: every offset before it is taken, and stays taken.
    resume: dict[tuple[int, int], int] = {}
    for name, (gx, gy) in zip(order, cells, strict=True):
        base = gx * wide + gy
        while True:
            first = resume.get((gx, gy), 0)
            try:  # the first offset from ``first`` on whose cell is free (the scan runs in C)
                i = first + indexOf(map(is_taken, map(base.__add__, itertools.islice(steps, first, None))), False)
                break
            except ValueError:
                grow()
                resume.clear()  # the wider ring is in another order
        resume[(gx, gy)] = i
        dx, dy = offsets[i]
        taken.add(base + steps[i])
        places[name] = ((gx + dx) * cw * 72, (gy + dy) * ch * 72)
    return places


def _tidy(dot: graphviz.Digraph, fmt: str) -> bytes:
    """A force-directed drawing without sfdp's overlap removal (most of its time on a large
    book): sfdp places the boxes as they fall, :func:`grid_places` moves them apart, and
    ``neato -n2`` draws them where they were put, with straight arrows."""
    body = list(dot.body)
    try:
        dot.body.append("\tgraph [overlap=true]\n")
        try:
            plain = _pipe(dot, "plain").decode("utf-8")
        except graphviz.ExecutableNotFound:
            raise GraphvizMissing(INSTALL_HINT) from None
        boxes = {m.group(1): (float(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5)))
                 for m in _PLAIN_NODE.finditer(plain)}
        dot.body.extend(f'\t{name} [pos="{x:.1f},{y:.1f}!"]\n' for name, (x, y) in grid_places(boxes).items())
        data: bytes = _pipe(dot, fmt, engine="neato", neato_no_op=2)
    finally:
        dot.body[:] = body
    return data


def draw(graph: CompiledGraph, fmt: str, *, focus: int | None = None, depth: int | None = None,
         layout: str = "auto", odds: dict[str, Any] | None = None,
         marks: Marks | None = None, facts: Analysis | None = None) -> tuple[bytes, list[str]]:
    """Build and render, with fallbacks; returns the drawing and warnings about any fallback.

    Should dot itself fail on a tangled book, the book is drawn again without edge labels,
    and then with sfdp. Raises :class:`GraphvizMissing`, or :class:`RenderError` if all fail.
    """
    dot = build_dot(graph, focus=focus, depth=depth, layout=layout, odds=odds, marks=marks, facts=facts)
    return _draw(dot, graph, fmt, focus=focus, depth=depth, odds=odds, marks=marks, facts=facts)


def _draw(dot: graphviz.Digraph, graph: CompiledGraph, fmt: str, *, focus: int | None, depth: int | None,
          odds: dict[str, Any] | None, marks: Marks | None, facts: Analysis | None) -> tuple[bytes, list[str]]:
    """:func:`draw` of the DOT it built first."""
    if dot.engine == "sfdp":
        with contextlib.suppress(graphviz.CalledProcessError, ValueError, OSError):
            return _tidy(dot, fmt), []
    try:
        return render(dot, fmt), []
    except RenderError as first:
        if dot.engine != "dot":
            raise
        warnings = [f"{first}; drawn again without edge labels"]
    try:
        plain = build_dot(graph, focus=focus, depth=depth, layout="dot", odds=odds, edge_labels=False,
                          marks=marks, facts=facts)
        return render(plain, fmt), warnings
    except RenderError as second:
        warnings.append(f"{second}; drawn again with sfdp")
    return render(build_dot(graph, focus=focus, depth=depth, layout="sfdp", odds=odds, marks=marks,
                            facts=facts), fmt), warnings


def render_svg(graph: CompiledGraph, facts: Analysis | None = None) -> str:
    """The whole book as SVG text (layout chosen by size); each node is ``id="entry-N"``.
    ``facts``: the graph's :meth:`Analysis.of_graph`, when the caller has it already.

    Raises :class:`GraphvizMissing` without the Graphviz programs, :class:`RenderError` if
    Graphviz fails (both are :class:`RuntimeError`).
    """
    return draw(graph, "svg", facts=facts)[0].decode("utf-8")


class Drawing:
    """The whole book's SVG (as :func:`render_svg` draws it) being drawn while the caller does
    other work: the DOT is built at once, in the caller's thread; Graphviz then runs as its own
    process, watched by a thread of ours that does only what lies between its runs.

    :meth:`svg` waits for the drawing; :meth:`stop` kills whatever of Graphviz still runs. Use
    it as a context manager, so that leaving early (an error, Ctrl-C) stops the drawing::

        with Drawing(graph, facts) as drawing:
            ...  # other work
            svg = drawing.svg()
    """

    def __init__(self, graph: CompiledGraph, facts: Analysis | None = None) -> None:
        dot = build_dot(graph, layout="auto", facts=facts)
        self._processes = Processes()
        self._svg: str | None = None
        self._error: BaseException | None = None
        context = contextvars.copy_context()
        context.run(_PROCESSES.set, self._processes)
        self._thread = threading.Thread(target=context.run, args=(self._draw, dot, graph, facts),
                                        name="dtc-flowchart", daemon=True)
        self._thread.start()

    def _draw(self, dot: graphviz.Digraph, graph: CompiledGraph, facts: Analysis | None) -> None:
        try:
            data = _draw(dot, graph, "svg", focus=None, depth=None, odds=None, marks=None, facts=facts)[0]
            self._svg = data.decode("utf-8")
        except BaseException as exc:  # handed to the caller by svg()
            self._error = exc

    def done(self) -> bool:
        """Whether the drawing has ended (drawn or failed)."""
        return not self._thread.is_alive()

    def svg(self) -> str:
        """The SVG text, once Graphviz has drawn it; raises what :func:`render_svg` would."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._svg is not None
        return self._svg

    def stop(self) -> None:
        """Kill Graphviz if it still runs, and wait for the drawing's thread to end."""
        self._processes.stop()
        self._thread.join()

    def __enter__(self) -> Drawing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
