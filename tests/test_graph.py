"""`dtc graph` and dtc.render: every entry a node, every exit an edge, drawn by real Graphviz;
statuses and styles as docs/graph.md says; author text escaped in DOT, SVG and Mermaid."""

from __future__ import annotations

import copy
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.compiler.api import compile_file, compile_text
from dtc.render.graph import SFDP_ABOVE, GraphvizMissing, build_dot, draw, render, render_svg
from dtc.render.mermaid import chart, to_mermaid
from dtc.render.model import build_book, clean

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HOSTILE_TEXT = (
    'The gate <script>alert(1)</script> "quoted" {braces} back\\slash \\l \\n \\N | pipe <> '
    "&amp; &nbsp; &foo; #quot; `tick` [br] -->x %% end."
)
HOSTILE = f"""Title: Keep <script>alert("t")</script> {{x}} | \\l \\" & &nbsp; #quot; ]]> end
Start: 1

Adventure Entries

1 {HOSTILE_TEXT} Pass the **Gate "<b>" \\N** (DEX D2, S2, F3) or the <i>side</i> door (D0, S40) or
the cellar (D0, S@cellar), or go to 5.

2 A hall. Open door (D0, S4). A loop (D0, S6).

3 You fall. Return to your most recent entry.

4 Treasure! THE END

6 Round and round (D0, S7).

7 And round (D0, S6).

8 Nobody comes here (D0, S4).

9 Nothing at all.
"""


def hostile_graph() -> dict[str, Any]:
    graph = compile_text(HOSTILE, "hostile.txt").graph()
    evil = 'Ogre <script>x</script> "\\N" |{}'
    graph["creatures"].append({"name": evil, "hp": 9, "morale": None, "attacks": [{"name": "Club <b>", "damage": "d6"}],
                               "special": None, "stats": {}, "entry": 2, "line": 9})
    next(e for e in graph["entries"] if e["number"] == 2)["creatures"] = [evil]
    return graph


def books() -> list[Path]:
    return sorted((ROOT / "adventures").glob("*.txt"))


def first_entries(graph: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for e in graph["entries"]:
        out.setdefault(e["number"], e)
    return out


def svg_groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("id", ""): g for g in root.iter(f"{SVG}g") if g.get("id")}


def tooltip(group: ET.Element) -> str:
    a = next(group.iter(f"{SVG}a"))
    return a.get(f"{XLINK}title") or ""


def kinds(group: ET.Element) -> set[str]:
    return set((group.get("class") or "").split())


def check_picture(graph: dict[str, Any], svg: str) -> None:
    """Every entry a node (id entry-N), every exit an edge (id exit-N-i), classed by status/kind."""
    groups = svg_groups(svg)
    entries = first_entries(graph)
    book = build_book(graph)
    assert {k for k in groups if k.startswith("entry-")} == {f"entry-{n}" for n in entries}
    exits = {f"exit-{n}-{i}": x for n, e in entries.items() for i, x in enumerate(e["exits"])}
    assert {k for k in groups if k.startswith("exit-")} == set(exits)
    for n, node in book.nodes.items():
        classes = set(groups[f"entry-{n}"].get("class", "").split())
        for status in ("start", "ending", "dead_end", "trapped", "unreachable"):
            assert (status in classes) == getattr(node, status), (n, status, classes)
        assert ("creature" in classes) == bool(node.fighters)
        a = next(groups[f"entry-{n}"].iter(f"{SVG}a"))
        assert a.get(f"{XLINK}href") == f"#entry-{n}"
    for edge in book.edges:
        assert kinds(groups[f"exit-{edge.source}-{edge.index}"]) == {"edge", "exit", edge.kind}


# --- real Graphviz ---------------------------------------------------------------------------


def test_graphviz_is_installed() -> None:
    assert shutil.which("dot") and shutil.which("sfdp"), "install Graphviz (the README's test command does)"


@pytest.mark.parametrize("path", books(), ids=lambda p: p.name)
def test_bundled_adventures_render(path: Path) -> None:
    graph = compile_file(path).graph()
    svg = render_svg(graph)
    check_picture(graph, svg)
    dot = build_dot(graph).source
    for n in first_entries(graph):
        assert re.search(rf"^\s*e{n} \[", dot, re.M)
    validate_mermaid(to_mermaid(graph))


def test_sample_dungeon_picture(sample_path: Path) -> None:
    graph = compile_file(sample_path).graph()
    svg = render_svg(graph)
    check_picture(graph, svg)
    groups = svg_groups(svg)
    book = build_book(graph)
    assert {n for n, x in book.nodes.items() if x.dead_end} == {22, 23}
    assert book.nodes[1].start and not any(x.unreachable for x in book.nodes.values())
    texts = lambda gid: " ".join(t.text or "" for t in groups[gid].iter(f"{SVG}text"))  # noqa: E731
    assert "Goblin HP 3" in texts("entry-16")
    assert "Animated Frog Statue HP 7" in texts("entry-30")
    assert "Giant Frog HP 6" in tooltip(groups["entry-23"])
    assert "DEX D3" in texts("exit-25-0") and "take the eyes" in texts("exit-25-0")
    assert "failure" in kinds(groups["exit-25-1"])
    assert "d0" in kinds(groups["exit-1-0"])  # Frog Mouth (D0, S2)
    assert "return" in kinds(groups["exit-24-0"])
    assert "prose" in kinds(groups["exit-21-0"])
    # Styles as documented: failures dashed red, returns dashed purple, prose dotted blue.
    path = lambda gid: next(groups[gid].iter(f"{SVG}path"))  # noqa: E731
    assert path("exit-25-1").get("stroke") == "#c62828" and path("exit-25-1").get("stroke-dasharray")
    assert path("exit-24-0").get("stroke") == "#6a1b9a"
    assert path("exit-21-0").get("stroke") == "#1565c0"
    assert "legend" in groups
    # The start is on the top rank: no entry is drawn above it.
    ys = {n: float(next(groups[f"entry-{n}"].iter(f"{SVG}text")).get("y", "0")) for n in book.nodes}
    assert ys[1] == min(ys.values())


def test_neighbourhood(sample_path: Path) -> None:
    graph = compile_file(sample_path).graph()
    svg = render(build_dot(graph, focus=16, depth=1), "svg").decode()
    shown = {int(k[6:]) for k in svg_groups(svg) if k.startswith("entry-")}
    assert shown == {10, 14, 16, 17, 18, 19, 20}
    assert "not shown" in tooltip(svg_groups(svg)["entry-10"])
    with pytest.raises(KeyError):
        build_dot(graph, focus=99)


def test_statuses_and_missing_targets() -> None:
    graph = hostile_graph()
    book = build_book(graph)
    nodes = book.nodes
    assert nodes[1].start and nodes[4].ending
    assert nodes[6].trapped and nodes[7].trapped and not nodes[6].unreachable
    assert nodes[8].unreachable and not nodes[8].trapped
    assert nodes[9].dead_end and nodes[9].unreachable and nodes[9].role == "dead_end"
    assert [f.short() for f in nodes[2].fighters] == ['Ogre <script>x</script> "\\N" |{} HP 9']
    assert set(book.missing) == {"40", "@cellar", "5"}
    svg = render_svg(graph)
    check_picture(graph, svg)
    groups = svg_groups(svg)
    for name, label in (("missing-40", "missing 40"), ("missing-_cellar", "missing @cellar")):
        assert "missing" in kinds(groups[name])
        assert label in "".join(t.text or "" for t in groups[name].iter(f"{SVG}text"))
        assert next(groups[name].iter(f"{SVG}polygon")).get("stroke-dasharray")


def test_hostile_text_is_escaped_everywhere() -> None:
    graph = hostile_graph()
    dot = build_dot(graph).source
    svg = render_svg(graph)
    mermaid = to_mermaid(graph)
    for out in (dot, svg, mermaid):
        assert "<script" not in out.lower()
        assert "<b>" not in out and "<i>" not in out
    root = ET.fromstring(svg)  # well-formed XML, whatever the author wrote
    groups = svg_groups(svg)
    # What the author wrote comes back exactly, backslashes included, in the tooltip.
    assert clean(HOSTILE_TEXT) in tooltip(groups["entry-1"])
    assert 'Ogre <script>x</script> "\\N" |{} HP 9' in tooltip(groups["entry-2"])
    drawn = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "<script>alert(1)</script>" in drawn and 'Keep <script>alert("t")</script> {x} | \\l \\"' in drawn
    assert 'Gate "<b>" \\N' in tooltip(groups["exit-1-0"])
    validate_mermaid(mermaid)
    assert "#lt;script#gt;alert(1)#lt;/script#gt;" in mermaid
    for fmt, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF")):
        assert render(build_dot(graph), fmt).startswith(magic)


def test_a_dense_chart_is_drawn_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dot's work grows with a high power of the exits among the entries it lays out together:
    a dense chart gets Graphviz's bounds and straight arrows, a sparse one keeps dot's curves,
    and a book with very many exits is laid out by sfdp however few its entries."""
    import dtc.render.graph as graph_module
    from helpers import benchmark

    dense = compile_text(benchmark("generate").every_door(30), "dense.txt").graph()  # 841 exits among 30 entries
    dot = build_dot(dense, layout="auto")
    assert dot.engine == "dot" and "splines=line" in dot.source and "mclimit=0.1" in dot.source
    check_picture(dense, render(dot, "svg").decode())  # (minutes without the bounds)
    sparse = compile_file(ROOT / "adventures" / "the-drowned-chapel.txt").graph()
    source = build_dot(sparse, layout="auto").source
    assert "splines=true" in source and "mclimit" not in source
    assert graph_module.densest(build_book(dense).edges, {}) == 841
    assert graph_module.choose_layout(500, 249_500) == "sfdp" and graph_module.choose_layout(500, 3_000) == "dot"
    monkeypatch.setattr(graph_module, "SFDP_EXITS_ABOVE", 800)
    assert build_dot(dense, layout="auto").engine == "sfdp"
    assert build_dot(dense, layout="dot").engine == "dot"  # asked for: kept


def test_control_characters_never_reach_the_output() -> None:
    graph = hostile_graph()
    graph["entries"][0]["text"] = "bell\x07 esc\x1b[31m nul-less \ud800 surrogate \ufffe and\ttab\nnewline"
    graph["title"] = "T\x0c\x01"
    svg = render_svg(graph)
    ET.fromstring(svg)
    assert "bell esc[31m nul-less surrogate and tab newline" in tooltip(svg_groups(svg)["entry-1"])
    validate_mermaid(to_mermaid(graph))


def test_big_books_pick_their_layout() -> None:
    def chain(n: int) -> dict[str, Any]:
        graph = compile_text("Adventure Entries\n\n1 Go (D0, S2).\n\n2 End. THE END\n").graph()
        proto = graph["entries"][0]
        entries = []
        for i in range(1, n + 1):
            e = copy.deepcopy(proto)
            e.update(number=i, text=f"Room {i}", ending=i == n)
            e["exits"] = [] if i == n else [dict(proto["exits"][0], target=i + 1)]
            entries.append(e)
        graph["entries"] = entries
        return graph

    assert build_dot(chain(20), layout="auto").engine == "dot"
    assert build_dot(chain(SFDP_ABOVE + 1), layout="auto").engine == "sfdp"
    deep = chain(60)  # deeper than dot's own ranking handles fast: one rank per move from the start
    dot = build_dot(deep)
    assert "rank=same" in dot.source
    check_picture(deep, render(dot, "svg").decode())
    sfdp = build_dot(deep, layout="sfdp")
    check_picture(deep, render(sfdp, "svg").decode())
    data, warnings = draw(deep, "svg")
    assert data.startswith(b"<?xml") and warnings == []


# --- Mermaid -----------------------------------------------------------------------------------

_LABEL = r'"[^"]*"'
_SHAPE = rf"(?:\[{_LABEL}\]|\(\[{_LABEL}\]\)|\[\[{_LABEL}\]\])"
_NODE = rf"[A-Za-z]\w*{_SHAPE}"
_ARROW = r"(?:-->|==>|-\.->)"
MERMAID_LINES = {
    "node": re.compile(rf"^\s*(?P<id>[A-Za-z]\w*){_SHAPE}$"),
    "edge": re.compile(rf"^\s*(?P<a>{_NODE}|[A-Za-z]\w*) {_ARROW}(?:\|{_LABEL}\|)? (?P<b>{_NODE}|[A-Za-z]\w*)$"),
    "classDef": re.compile(r"^\s*classDef [a-z_]+ [a-z-]+:[#\w. ]+(?:,[a-z-]+:[#\w. ]+)*$"),
    "class": re.compile(r"^\s*class [A-Za-z]\w*(?:,[A-Za-z]\w*)* [a-z_]+$"),
    "linkStyle": re.compile(r"^\s*linkStyle \d+(?:,\d+)* [a-z-]+:[#\w. ]+(?:,[a-z-]+:[#\w. ]+)*$"),
    "subgraph": re.compile(rf"^\s*subgraph [a-z_]+\[{_LABEL}\]$"),
    "direction": re.compile(r"^\s*direction (?:LR|TB|TD)$"),
    "end": re.compile(r"^\s*end$"),
    "comment": re.compile(r"^\s*%% [^\n]*$"),
}


def validate_mermaid(text: str) -> None:
    """The flowchart subset dtc writes: each line one statement of a known kind, ids defined
    before use, no raw quote/bracket/pipe/angle bracket inside a label."""
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "flowchart TD"
    defined: set[str] = set()
    links = 0
    depth = 0
    for line in lines[1:]:
        kind = next((k for k, rx in MERMAID_LINES.items() if rx.match(line)), None)
        assert kind, f"not a statement dtc writes: {line!r}"
        for label in re.findall(_LABEL, line):
            assert not re.search(r"[<>{}|\[\]`\\]", label.replace("<br/>", "")), label
            assert not re.search(r"#(?!(?:quot|lt|gt|amp|\d+);)", label), label
        if kind == "node":
            defined.add(MERMAID_LINES["node"].match(line)["id"])  # type: ignore[index]
        elif kind == "edge":
            m = MERMAID_LINES["edge"].match(line)
            assert m
            for side in (m["a"], m["b"]):
                ident = re.match(r"[A-Za-z]\w*", side)[0]  # type: ignore[index]
                if side != ident:
                    defined.add(ident)
                assert ident in defined, f"{ident} used before it is defined"
            links += 1
        elif kind == "class":
            for ident in line.split()[1].split(","):
                assert ident in defined, ident
        elif kind == "linkStyle":
            assert all(int(i) < links for i in line.split()[1].split(","))
        elif kind == "subgraph":
            depth += 1
        elif kind == "end":
            depth -= 1
            assert depth >= 0
    assert depth == 0


def test_mermaid_sample(sample_path: Path) -> None:
    graph = compile_file(sample_path).graph()
    drawn = chart(graph)
    validate_mermaid(drawn.text)
    assert drawn.edges == sum(len(e["exits"]) for e in first_entries(graph).values()) + 5  # + the legend's
    assert re.search(r'^\s*e1\(\["1 · START<br/>', drawn.text, re.M)  # the start is a stadium
    assert re.search(r"^\s*class e22,e23,legend_dead_end dead_end$", drawn.text, re.M)
    assert re.search(r'^\s*e25 ==>\|"DEX D3 · take the eyes"\| e29$', drawn.text, re.M)
    focus = chart(graph, focus=16, depth=1)
    validate_mermaid(focus.text)
    assert set(re.findall(r"^\s*e(\d+)\[", focus.text, re.M)) == {"10", "14", "16", "17", "18", "19", "20"}


def test_mermaid_validator_catches_mistakes() -> None:
    with pytest.raises(AssertionError):
        validate_mermaid('flowchart TD\n    e1["a " b"]\n')
    with pytest.raises(AssertionError):
        validate_mermaid('flowchart TD\n    e1["<script>"]\n')
    with pytest.raises(AssertionError):
        validate_mermaid('flowchart TD\n    e1 --> e2\n')


# --- the command ------------------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["graph", *args])


def test_cli_formats_follow_the_extension(tmp_path: Path, sample_path: Path) -> None:
    out = run(str(sample_path))
    assert out.exit_code == 0 and out.stdout.startswith("digraph adventure {")
    for name, magic in (("g.svg", b"<?xml"), ("g.png", b"\x89PNG"), ("g.pdf", b"%PDF"), ("g.dot", b"digraph"),
                        ("g.gv", b"digraph"), ("g.mmd", b"flowchart TD"), ("g.md", b"```mermaid\nflowchart TD")):
        target = tmp_path / name
        target.write_text("old")
        res = run(str(sample_path), "-o", str(target))
        assert res.exit_code == 0, res.output
        assert target.read_bytes().startswith(magic), name
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp files left
    res = run(str(sample_path), "--format", "svg")
    assert res.exit_code == 0 and "<svg" in res.stdout
    res = run(str(sample_path), "-o", str(tmp_path / "g.xyz"))
    assert res.exit_code == 2 and "use --format" in res.output


def test_cli_reads_compiled_json(tmp_path: Path, sample_path: Path) -> None:
    compiled = tmp_path / "s.json"
    compiled.write_text(json.dumps(compile_file(sample_path).graph()), encoding="utf-8")
    res = run(str(compiled), "-o", str(tmp_path / "s.svg"))
    assert res.exit_code == 0, res.output
    check_picture(json.loads(compiled.read_text()), (tmp_path / "s.svg").read_text())
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "dtc-adventure", "format_version": 1, "entries": "no"}))
    res = run(str(broken))
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1 and "broken.json" in res.output
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    res = run(str(garbage))
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_focus_and_misuse(sample_path: Path) -> None:
    res = run(str(sample_path), "--from", "16", "--depth", "1", "--format", "mermaid")
    assert res.exit_code == 0
    assert set(re.findall(r"^\s*e(\d+)\[", res.stdout, re.M)) == {"10", "14", "16", "17", "18", "19", "20"}
    for args, words in ((["--from", "99"], "no entry 99"), (["--depth", "2"], "--depth needs --from"),
                        (["--layout", "neato"], "Invalid value")):
        res = run(str(sample_path), *args)
        assert res.exit_code == 2 and words in res.output
    res = run("no-such-file.txt")
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_without_graphviz(tmp_path: Path, sample_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    for fmt in ("svg", "png", "pdf"):
        res = run(str(sample_path), "--format", fmt, "-o", str(tmp_path / f"g.{fmt}"))
        assert res.exit_code == 2, res.output
        assert len(res.output.strip().splitlines()) == 1 and "install" in res.output and "graphviz" in res.output
        assert not (tmp_path / f"g.{fmt}").exists()
    assert run(str(sample_path)).stdout.startswith("digraph")
    assert run(str(sample_path), "--format", "mermaid").stdout.startswith("flowchart TD")
    with pytest.raises(GraphvizMissing):
        render_svg(compile_file(sample_path).graph())


def test_draw_falls_back_when_dot_fails(sample_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dtc.render.graph as rg

    real = rg.render
    calls: list[tuple[str, bool]] = []

    def flaky(dot: Any, fmt: str) -> bytes:
        calls.append((dot.engine, bool(re.search(r"->[^\n]*\blabel=<", dot.source))))
        if dot.engine == "dot":
            raise rg.RenderError("Graphviz (dot) failed: lost e1 e2 edge")
        return real(dot, fmt)

    monkeypatch.setattr(rg, "render", flaky)
    data, warnings = draw(compile_file(sample_path).graph(), "svg")
    assert [engine for engine, _ in calls] == ["dot", "dot", "sfdp"]
    assert calls[0][1] and not calls[1][1]  # the second try has no edge labels
    assert len(warnings) == 2 and "without edge labels" in warnings[0]
    check_picture(compile_file(sample_path).graph(), data.decode())


_PIECES = ["word", " ", "  ", "\n", "\t", "\x00", "\x85", "é", "\U0001fffe", "x" * 40, ".", "\ud800"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from([*_PIECES, "*", "**", "_", "__"]), max_size=80).map("".join),
       st.lists(st.sampled_from(_PIECES), max_size=80).map("".join),
       st.sampled_from([1, 5, 24, 40, 160]))
def test_a_nodes_lead_is_its_shortened_text(start: str, rest: str, limit: int) -> None:
    """Node.lead reads only the start of a long text, and gives what shortening the whole clean
    text gives (emphasis anywhere in the start, none or some in the rest)."""
    from dtc.render.model import Node, plain, shorten

    for raw in (start + rest, start + rest + "*", rest + start):
        assert Node(1, raw).lead(limit) == shorten(plain(clean(raw)), limit)
