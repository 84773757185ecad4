"""What a flowchart of the book shows, worked out from the compiled graph dict alone.

The renderers (:mod:`dtc.render.graph` for Graphviz, :mod:`dtc.render.mermaid`) only draw a
:class:`Book`: one :class:`Node` per entry number with its status (start, ending, dead end,
unreachable, trapped) and creatures, one :class:`Edge` per exit, and a "missing" target for
every exit that names no entry. Nothing here imports the parser: the compiled JSON is enough.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Exit, Roll
from dtc.lint.analysis import Analysis
from dtc.outcomes import STUCK_WORDS, the_end

if TYPE_CHECKING:
    import networkx as nx

#: Edge kinds, in legend order. ``d0`` is a success exit whose choice has difficulty 0.
EDGE_KINDS = ("success", "failure", "d0", "prose", "return")

#: Control characters (but the whitespace ones), surrogates and non-characters: XML cannot hold them.
#: In two: the first plane's (one table lookup a character), then the other planes' non-characters.
_UNSAFE_BMP = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
_UNSAFE_ASTRAL = re.compile(
    "[" + "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(1, 17)) + "]")


def clean(text: str) -> str:
    """Author text without what no output format can carry: control characters (whitespace,
    newlines included, becomes single spaces), lone surrogates and non-characters."""
    text = _UNSAFE_BMP.sub("", text)
    # A character beyond the first plane takes four bytes in UTF-16, any other two (a lone
    # surrogate too, with "surrogatepass"): encoding is a tenth of the cost of ``max(text)``.
    if len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text):
        text = _UNSAFE_ASTRAL.sub("", text)
    return " ".join(text.split())  # str.split() splits at what ``\s`` matches


_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")


def plain(text: str) -> str:
    """Clean ``text`` without the author's emphasis markup: ``**bold**``, ``__bold__`` and
    ``*italic*`` keep their words and lose the stars (a lone ``*`` stays)."""
    if "**" in text or "__" in text:  # (each pattern needs its marks: a text without them is kept as it is)
        text = _BOLD.sub(lambda m: m.group(1) or m.group(2), text)
    return _ITALIC.sub(r"\1", text) if "*" in text else text


def shorten(text: str, limit: int) -> str:
    """Clean ``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,.;:") + "…"


def wrap(text: str, width: int, lines: int) -> list[str]:
    """The first words of clean ``text`` in at most ``lines`` lines of about ``width`` characters."""
    return textwrap.wrap(text, width, max_lines=lines, placeholder=" …", break_on_hyphens=False)


@dataclass(frozen=True, slots=True)
class Fighter:
    """A creature an entry holds or names: its stat-block name and hit points (None: no block)."""

    name: str
    hp: int | None
    morale: int | None = None
    attacks: str = ""

    def short(self) -> str:
        return f"{self.name} HP {self.hp}" if self.hp is not None else f"{self.name} (no stat block)"


@dataclass(slots=True)
class Node:
    """An entry; ``text`` and ``label`` are :func:`clean` (as are every string of Fighter and Edge).

    ``raw`` is the entry's text as written; :attr:`text`, cleaned and without emphasis marks, is
    worked out on first use (a large book's chart shows only the first words: :meth:`lead`)."""

    number: int
    raw: str
    label: str | None = None
    start: bool = False
    ending: bool = False
    dead_end: bool = False
    unreachable: bool = False
    trapped: bool = False
    fighters: list[Fighter] = field(default_factory=list)
    #: ``THE END (death)`` / ``(victory)``: the kind of ending, when the book says.
    ending_kind: str | None = None
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The text, :func:`clean` and :func:`plain`."""
        if self._text is None:
            self._text = plain(clean(self.raw))
        return self._text

    def lead(self, limit: int) -> str:
        """``shorten(self.text, limit)``, worked out from the start of the text alone when that
        gives the same: cut at a space or line end, past which there is no ``*`` or ``_`` (so
        no emphasis reaches across the cut), the start cleaned gives the clean text's own start
        (cleaning goes word by word), and once it is longer than ``limit`` the rest is never read."""
        raw = self.raw
        if self._text is None and len(raw) > 2 * limit + 64:
            at = limit + limit // 2 + 32
            ends = [i for i in (raw.find(" ", at), raw.find("\n", at)) if i != -1]
            if ends:
                rest = raw[min(ends):]
                if "*" not in rest and "_" not in rest:
                    head = plain(clean(raw[: min(ends)]))
                    if len(head) > limit:
                        return shorten(head, limit)
        return shorten(self.text, limit)

    @property
    def role(self) -> str:
        """The status that colours the node (the most urgent one when several apply)."""
        for name in ("dead_end", "trapped", "ending", "start", "unreachable"):
            if getattr(self, name):
                return name
        return "entry"

    def tags(self) -> list[str]:
        """Every status that applies, as words for a label or tooltip."""
        names = {"start": "START", "ending": the_end(self.ending_kind), "dead_end": STUCK_WORDS["dead_end"].upper(),
                 "trapped": "TRAPPED", "unreachable": "UNREACHABLE"}
        return [word for attr, word in names.items() if getattr(self, attr)]


@dataclass(frozen=True, slots=True)
class Edge:
    """One exit: from entry ``source`` to entry ``target``, or to the missing target ``missing``."""

    source: int
    index: int  # position in the entry's exits
    kind: str  # one of EDGE_KINDS
    target: int | None
    missing: str | None = None
    ability: str | None = None
    difficulty: int | None = None
    choice: str | None = None
    #: State, in words: the choice's condition (``if stone key``) and, for a branch of a random
    #: branch, its range and chance (``d6 1-2: 33%``).
    state: str | None = None

    @property
    def check(self) -> str:
        """``DEX D3`` (or ``D1`` without an ability) for check edges, else empty; then the state."""
        check = ""
        if self.kind in ("success", "failure") and self.difficulty is not None:
            check = f"{self.ability} D{self.difficulty}" if self.ability else f"D{self.difficulty}"
        return " ".join(w for w in (check, self.state or "") if w)


@dataclass(slots=True)
class Book:
    title: str
    start: int | None
    nodes: dict[int, Node]
    edges: list[Edge]
    missing: list[str]  # the targets that name no entry, as written ("40", "@cellar")
    #: Built on first use (see :attr:`digraph`): a large book's chart needs no graph of it, and
    #: importing networkx alone takes a few tenths of a second.
    _digraph: nx.MultiDiGraph[int] | None = field(default=None, repr=False, compare=False)

    @property
    def digraph(self) -> nx.MultiDiGraph[int]:
        """Entries and the exits between them (one edge per exit to an entry, in order)."""
        if self._digraph is None:
            import networkx as nx

            g: nx.MultiDiGraph[int] = nx.MultiDiGraph()
            g.add_nodes_from(self.nodes)
            for edge in self.edges:
                if edge.target is not None:
                    g.add_edge(edge.source, edge.target)
            self._digraph = g
        return self._digraph

    def counts(self) -> dict[str, int]:
        n = self.nodes.values()
        return {
            "entries": len(self.nodes),
            "endings": sum(x.ending for x in n),
            "dead ends": sum(x.dead_end for x in n),
            "trapped": sum(x.trapped for x in n),
            "unreachable": sum(x.unreachable for x in n),
            "missing": len(self.missing),
        }

    def summary(self) -> str:
        parts = [f"{v} {k}" for k, v in self.counts().items() if v or k in ("entries", "endings")]
        if self.start is None or self.start not in self.nodes:
            parts.append("no start entry")
        return " · ".join(parts)

    def levels(self) -> dict[int, int]:
        """Fewest moves from the start to each reachable entry (the start is level 0)."""
        if self.start is None or self.start not in self.nodes:
            return {}
        import networkx as nx

        return dict(nx.single_source_shortest_path_length(self.digraph, self.start))

    def depth_estimate(self) -> int:
        """About how many ranks Graphviz's own ranking needs: the longest path once the exits
        back (found by a depth-first search from the start, then from the other entries) are
        dropped."""
        import networkx as nx

        dag: nx.DiGraph[int] = nx.DiGraph()
        dag.add_nodes_from(self.nodes)
        state: dict[int, int] = {}  # 1 on the search path, 2 done
        roots = ([self.start] if self.start in self.nodes else []) + sorted(self.nodes)
        for root in roots:
            if root in state:
                continue
            state[root] = 1
            stack = [(root, iter(sorted(set(self.digraph.successors(root)))))]
            while stack:
                here, todo = stack[-1]
                there = next(todo, None)
                if there is None:
                    state[here] = 2
                    stack.pop()
                elif state.get(there) != 1:  # not an exit back up the search path
                    dag.add_edge(here, there)
                    if there not in state:
                        state[there] = 1
                        stack.append((there, iter(sorted(set(self.digraph.successors(there))))))
        return int(nx.dag_longest_path_length(dag))

    def neighbourhood(self, focus: int, depth: int) -> set[int]:
        """Entry ``focus`` with everything up to ``depth`` exits away, forwards and backwards."""
        if focus not in self.nodes:
            raise KeyError(focus)
        import networkx as nx

        ahead = nx.single_source_shortest_path_length(self.digraph, focus, cutoff=depth)
        behind = nx.single_source_shortest_path_length(self.digraph.reverse(copy=False), focus, cutoff=depth)
        return set(ahead) | set(behind)


def _fighters(entry: Entry, blocks: list[Creature]) -> list[Fighter]:
    found = []
    for name in entry["creatures"]:
        key = name.casefold()
        same = [b for b in blocks if b["name"].casefold() == key]
        block = next((b for b in same if b.get("entry") == entry["number"]), same[0] if same else None)
        if block is None:
            found.append(Fighter(clean(name), None))
        else:
            attacks = ", ".join(f"{a['name']} {a['damage']}" for a in block.get("attacks", []))
            found.append(Fighter(clean(block["name"]), block["hp"], block.get("morale"), clean(attacks)))
    return found


def _edge(number: int, index: int, exit_: Exit, entry: Entry, known: dict[int, Node]) -> Edge:
    kind: str = exit_["kind"]
    at = exit_["choice"]
    choice = entry["choices"][at] if isinstance(at, int) and at < len(entry["choices"]) else None
    difficulty = choice["difficulty"] if choice else None
    if kind == "success" and difficulty == 0:
        kind = "d0"
    state = []
    if choice is not None and choice.get("condition") is not None:
        from dtc.runtime.conditions import words

        state.append(clean(f"if {words(choice['condition'])}"))
    if choice is not None and choice.get("changes"):  # a choice's effects (docs/format.md)
        from dtc.runtime.conditions import as_written, change_words

        state.append(clean(("then " if state else "") + ", ".join(change_words(ch)
                                                                   for ch in as_written(choice["changes"]))))
    if kind == "random" and choice is not None and choice.get("roll") is not None:
        kind = "d0"  # drawn as a move the dice make, labelled with the range and its chance
        state.append(_branch_words(choice["roll"], exit_["target"], index, entry))
    raw = exit_["target"]
    target = raw if isinstance(raw, int) and raw in known else None
    return Edge(
        source=number,
        index=index,
        kind=kind if kind in EDGE_KINDS else "prose",
        target=target,
        missing=None if target is not None else clean(str(raw)),
        ability=choice["ability"] if choice else None,
        difficulty=difficulty,
        choice=plain(clean(choice["label"])) if choice else None,
        state=" ".join(state) or None,
    )


def _branch_words(roll: Roll, target: Any, index: int, entry: Entry) -> str:
    """``d6 1-2: 33%`` for the branch of a random branch that exit ``index`` is."""
    from dtc.odds.options import totals

    nth = sum(1 for x in entry["exits"][:index] if x["kind"] == "random" and x.get("choice") ==
              entry["exits"][index].get("choice"))
    branches = roll["branches"]
    if nth >= len(branches):
        return f"roll {clean(roll['dice'])}"
    b = branches[nth]
    rng = str(b["low"]) if b["low"] == b["high"] else f"{b['low']}-{b['high']}"
    if not (1 <= roll["count"] <= 100 and 1 <= roll["sides"] <= 1000):
        return f"{clean(roll['dice'])} {rng}"
    chances = totals(roll["count"], roll["sides"])
    p = sum(chances.get(t, 0.0) for t in range(max(b["low"], roll["count"]),
                                                min(b["high"], roll["count"] * roll["sides"]) + 1))
    return f"{clean(roll['dice'])} {rng}: {p:.0%}"


def build_book(graph: CompiledGraph, facts: Analysis | None = None) -> Book:
    """Classify every entry and exit of a compiled graph (a dict satisfying the schema).

    ``facts``: the graph's :meth:`Analysis.of_graph`, when the caller has it already."""
    entries: dict[int, Entry] = {}
    for entry in graph["entries"]:
        entries.setdefault(entry["number"], entry)  # a duplicated number: the first one counts
    nodes = {n: Node(n, e["text"], clean(label) if (label := e["label"]) else None,
                     ending=bool(e["ending"]), ending_kind=e.get("ending_kind"))
             for n, e in entries.items()}
    blocks = list(graph.get("creatures", []))
    edges: list[Edge] = []
    missing: dict[str, None] = {}
    for number, entry in entries.items():
        nodes[number].fighters = _fighters(entry, blocks)
        for index, exit_ in enumerate(entry["exits"]):
            edge = _edge(number, index, exit_, entry, nodes)
            edges.append(edge)
            if edge.target is None and edge.missing is not None:
                missing.setdefault(edge.missing)

    if facts is None:
        facts = Analysis.of_graph(graph)  # the same facts lint reports (DT201, DT202, DT203)
    start = facts.start
    if start is not None:
        nodes[start].start = True
    for number, node in nodes.items():
        node.dead_end = number in facts.dead_ends
        node.unreachable = number in facts.unreachable
        node.trapped = number in facts.trapped
    title = clean(graph["title"] or "") or "Untitled adventure"
    return Book(title, graph["start"], nodes, edges, list(missing))
