"""`dtc graph book.txt -o book.html`: the flowchart as one self-contained, offline HTML page.

The page holds the Graphviz SVG inline, a small script and its style, and the book's entries
as JSON: pan and zoom (wheel, drag, buttons, keys), "go to entry N", and a side panel with the
clicked entry's text, exits, entrances and lint findings. No network, no external file.

Escaping: the SVG comes from :func:`dtc.render.graph.draw`, which escapes all author text;
the title and notes go through :func:`html.escape`; the entries' JSON goes through
:func:`script_json` (no ``<``, ``>``, ``&`` or line separators inside the ``<script>``), and the
script only ever puts author text into the page with ``textContent``.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from dtc.compiled.graphjson import CompiledGraph
from dtc.render.findings import Marks
from dtc.render.model import build_book

#: The page may load nothing: no network, no other file.
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
#: How much of each entry's text the side panel shows.
PREVIEW = 1200


def script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>``, ``&``, U+2028/9."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


_PROLOG = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?", re.S)


def inline_svg(svg: str) -> str:
    """Graphviz's SVG document as an element to put inside HTML (prolog and doctype dropped)."""
    return _PROLOG.sub("", svg, count=1)


def _finding(f: dict[str, Any]) -> dict[str, Any]:
    return {"code": str(f.get("code", "")), "severity": str(f.get("severity", "")),
            "message": str(f.get("message", "")), "line": f.get("line")}


def page_data(graph: CompiledGraph, marks: Marks | None) -> dict[str, Any]:
    """What the script needs, by entry number: text preview, statuses, exits, entrances, findings."""
    book = build_book(graph)
    entries: dict[str, Any] = {}
    for number, node in book.nodes.items():
        entries[str(number)] = {"label": node.label, "tags": node.tags(), "text": node.lead(PREVIEW),
                                "creatures": [f.short() for f in node.fighters], "out": [], "in": [],
                                "findings": [_finding(f) for f in (marks.entries.get(number, []) if marks else [])]}
    for edge in book.edges:
        found = [_finding(f) for f in (marks.exits.get((edge.source, edge.index), []) if marks else [])]
        words = " ".join(w for w in (edge.check, edge.choice or "") if w)
        item = {"id": f"exit-{edge.source}-{edge.index}", "kind": edge.kind, "to": edge.target,
                "missing": edge.missing, "from": edge.source, "words": words, "findings": found}
        entries[str(edge.source)]["out"].append(item)
        if edge.target is not None:
            entries[str(edge.target)]["in"].append(item)
    return {"title": book.title, "start": book.start, "entries": entries, "linted": marks is not None,
            "elsewhere": [_finding(f) for f in marks.elsewhere] if marks else []}


def page(graph: CompiledGraph, svg: str, marks: Marks | None, note: str) -> str:
    """The whole HTML page. ``note`` says where the lint findings came from (or why there are none)."""
    data = page_data(graph, marks)
    title = html.escape(data["title"])
    counts = {"error": 0, "warning": 0, "info": 0}
    if marks:  # a finding about a choice sits on each of its exits: count it once
        unique = {id(f): f for found in [*marks.entries.values(), *marks.exits.values(), marks.elsewhere]
                  for f in found}
        for f in unique.values():
            counts[str(f.get("severity"))] = counts.get(str(f.get("severity")), 0) + 1
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>{title} · flowchart</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<form id="goto" role="search">
<label for="entry-number">Go to entry</label>
<input id="entry-number" name="n" inputmode="numeric" autocomplete="off" size="6" placeholder="N">
<button type="submit">Go</button>
<output id="goto-message" aria-live="polite"></output>
</form>
<div class="zoom" role="group" aria-label="Zoom">
<button type="button" id="zoom-in" aria-label="Zoom in">+</button>
<button type="button" id="zoom-out" aria-label="Zoom out">&minus;</button>
<button type="button" id="zoom-fit">Fit</button>
</div>
<p class="note" id="lint-note">{html.escape(note)}</p>
</header>
<main>
<div id="viewport" tabindex="0" role="region" aria-label="Flowchart" aria-describedby="chart-keys">
{inline_svg(svg)}
</div>
<aside id="panel" aria-live="polite" hidden>
<button type="button" id="panel-close" aria-label="Close the panel">&times;</button>
<h2 id="panel-title"></h2>
<p id="panel-tags"></p>
<p id="panel-text"></p>
<ul id="panel-creatures"></ul>
<h3>Findings</h3><ul id="panel-findings"></ul>
<h3>Exits</h3><ul id="panel-out"></ul>
<h3>Entrances</h3><ul id="panel-in"></ul>
</aside>
</main>
<footer><p class="keys" id="chart-keys">Drag the chart or use the arrow keys to move it, + and &minus; to zoom,
0 to fit, / to search, Esc to clear.
Errors {counts["error"]}, warnings {counts["warning"]}, info {counts["info"]}.</p></footer>
<script type="application/json" id="dtc-chart">{script_json(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


STYLE = """
*{box-sizing:border-box}
html,body{margin:0;height:100%;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b}
body{display:flex;flex-direction:column}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.4rem .8rem;
  border-bottom:1px solid #ccc;background:#fafafa}
h1{font-size:1.1rem;margin:0}
header form,header .zoom{display:flex;gap:.3rem;align-items:center}
input,button{font:inherit;padding:.2rem .5rem}
button{cursor:pointer;border:1px solid #888;border-radius:4px;background:#fff}
button:focus-visible,input:focus-visible,#viewport:focus-visible{outline:3px solid #1565c0;outline-offset:1px}
.note{margin:0;color:#555;font-size:.9rem}
#goto-message{color:#b71c1c}
main{flex:1;display:flex;min-height:0}
#viewport{flex:1;overflow:auto;position:relative;background:#fff;touch-action:none}
#viewport.js{overflow:hidden;cursor:grab}
#viewport.js.dragging{cursor:grabbing}
#viewport.js>svg{width:100%;height:100%;display:block}
#panel{width:min(26rem,40vw);overflow:auto;border-left:1px solid #ccc;padding:.5rem 1rem;background:#fdfdfd;
  position:relative}
#panel h2{margin:.2rem 0;font-size:1.6rem}
#panel h3{font-size:.95rem;margin:.8rem 0 .2rem}
#panel ul{margin:0;padding-left:1.2rem}
#panel-close{position:absolute;right:.5rem;top:.5rem}
#panel-tags{font-weight:600;color:#555;margin:0}
.finding-error{color:#b71c1c}.finding-warning{color:#8d4a00}.finding-info{color:#455a64}
.keys{margin:0;padding:.2rem .8rem;font-size:.8rem;color:#555;border-top:1px solid #ddd}
svg.focus g.node:not(.hl):not(.nb),svg.focus g.edge:not(.in):not(.out){opacity:.2}
g.node.hl>a>path,g.node.hl>a>polygon,g.node.hl path,g.node.hl polygon{stroke:#0d47a1;stroke-width:4px}
g.edge.in path,g.edge.out path{stroke-width:3px}
g.node.found path,g.node.found polygon{stroke:#ff6f00;stroke-width:6px}
@media (max-width:700px){main{flex-direction:column}
  #panel{width:auto;max-height:45vh;border-left:0;border-top:1px solid #ccc}}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("dtc-chart").textContent);
  var view = document.getElementById("viewport");
  var svg = view.querySelector("svg");
  if (!svg) return;
  view.classList.add("js");
  var full = svg.viewBox.baseVal;
  var home = {x: full.x, y: full.y, w: full.width, h: full.height};
  svg.removeAttribute("width"); svg.removeAttribute("height");
  var vb = {x: home.x, y: home.y, w: home.w, h: home.h};
  function apply() { svg.setAttribute("viewBox", vb.x + " " + vb.y + " " + vb.w + " " + vb.h); }
  function aspect() { var r = view.getBoundingClientRect(); return r.height > 0 ? r.width / r.height : 1; }
  function fit() {
    var a = aspect(), w = home.w, h = home.h;
    if (w / h > a) { h = w / a; } else { w = h * a; }
    vb = {x: home.x - (w - home.w) / 2, y: home.y - (h - home.h) / 2, w: w, h: h};
    apply();
  }
  function reaspect() {  // the viewport changed shape (the panel, a resize): same centre and width
    var h = vb.w / aspect(), cy = vb.y + vb.h / 2;
    vb = {x: vb.x, y: cy - h / 2, w: vb.w, h: h};
    apply();
  }
  function toUser(cx, cy) {
    var r = view.getBoundingClientRect();
    return {x: vb.x + (cx - r.left) * vb.w / r.width, y: vb.y + (cy - r.top) * vb.h / r.height};
  }
  function zoom(f, cx, cy) {
    var r = view.getBoundingClientRect();
    if (cx === undefined) { cx = r.left + r.width / 2; cy = r.top + r.height / 2; }
    var p = toUser(cx, cy);
    var w = Math.min(Math.max(vb.w / f, 20), home.w * 20);
    var k = w / vb.w;
    vb = {x: p.x - (p.x - vb.x) * k, y: p.y - (p.y - vb.y) * k, w: w, h: vb.h * k};
    apply();
  }
  function pan(dx, dy) { vb.x += dx * vb.w; vb.y += dy * vb.h; apply(); }
  view.addEventListener("wheel", function (e) {
    e.preventDefault();
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
  }, {passive: false});
  var drag = null;
  view.addEventListener("pointerdown", function (e) {
    if (e.button !== 0) return;
    drag = {x: e.clientX, y: e.clientY, moved: false};
  });
  window.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true; view.classList.add("dragging");
    var r = view.getBoundingClientRect();
    vb.x -= dx * vb.w / r.width; vb.y -= dy * vb.h / r.height;
    drag.x = e.clientX; drag.y = e.clientY; apply();
  });
  window.addEventListener("pointerup", function () {
    if (drag && drag.moved) { view.dataset.dragged = "1"; }
    drag = null; view.classList.remove("dragging");
  });
  document.getElementById("zoom-in").addEventListener("click", function () { zoom(1.4); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom(1 / 1.4); });
  document.getElementById("zoom-fit").addEventListener("click", fit);
  var input = document.getElementById("entry-number");
  document.addEventListener("keydown", function (e) {
    if (e.target === input || e.ctrlKey || e.metaKey || e.altKey) return;
    var k = e.key, used = true;
    if (k === "ArrowLeft") pan(-0.1, 0);
    else if (k === "ArrowRight") pan(0.1, 0);
    else if (k === "ArrowUp") pan(0, -0.1);
    else if (k === "ArrowDown") pan(0, 0.1);
    else if (k === "+" || k === "=") zoom(1.4);
    else if (k === "-" || k === "_") zoom(1 / 1.4);
    else if (k === "0") fit();
    else if (k === "/") input.focus();
    else if (k === "Escape") clear();
    else used = false;
    if (used) e.preventDefault();
  });

  function node(n) { return document.getElementById("entry-" + n); }
  function clear() {
    svg.classList.remove("focus");
    svg.querySelectorAll(".hl,.nb,.in,.out,.found").forEach(function (el) {
      el.classList.remove("hl", "nb", "in", "out", "found");
    });
    var panel = document.getElementById("panel");
    if (!panel.hidden) { panel.hidden = true; reaspect(); }
  }
  function centre(n, scale) {
    var el = node(n);
    if (!el) return false;
    reaspect();
    var r = el.getBoundingClientRect(), p = toUser(r.left + r.width / 2, r.top + r.height / 2);
    var w = Math.min(vb.w, Math.max(r.width * vb.w / view.getBoundingClientRect().width * (scale || 6), 200));
    var h = w / aspect();
    vb = {x: p.x - w / 2, y: p.y - h / 2, w: w, h: h};
    apply();
    return true;
  }
  function item(list, text, cls) {
    var li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    list.appendChild(li);
    return li;
  }
  function link(li, n) {
    var a = document.createElement("a");
    a.href = "#entry-" + n; a.textContent = "entry " + n;
    a.addEventListener("click", function (e) { e.preventDefault(); show(n, true); });
    li.textContent = ""; li.appendChild(a);
    return li;
  }
  function findings(list, found, seen) {
    found.forEach(function (f) {
      var key = f.code + " " + f.line + " " + f.message;
      if (seen[key]) return;
      seen[key] = true;
      item(list, "\u26a0 " + f.code + " " + f.severity + ": " + f.message, "finding-" + f.severity);
    });
  }
  function show(n, move) {
    var e = data.entries[String(n)];
    if (!e) return false;
    clear();
    svg.classList.add("focus");
    var el = node(n);
    if (el) el.classList.add("hl");
    e.out.forEach(function (x) {
      var edge = document.getElementById(x.id); if (edge) edge.classList.add("out");
      var t = x.to !== null ? node(x.to) : null; if (t) t.classList.add("nb");
      var stub = document.getElementById(x.id.replace(/^exit-/, "to-")); if (stub) stub.classList.add("nb");
    });
    e.in.forEach(function (x) {
      var edge = document.getElementById(x.id); if (edge) edge.classList.add("in");
      var s = node(x.from); if (s) s.classList.add("nb");
    });
    document.getElementById("panel-title").textContent = "Entry " + n + (e.label ? " (@" + e.label + ")" : "");
    document.getElementById("panel-tags").textContent = e.tags.join(" · ");
    document.getElementById("panel-text").textContent = e.text;
    var cr = document.getElementById("panel-creatures"); cr.textContent = "";
    e.creatures.forEach(function (c) { item(cr, c); });
    var fl = document.getElementById("panel-findings"); fl.textContent = "";
    var seen = {};
    findings(fl, e.findings, seen);
    e.out.forEach(function (x) { findings(fl, x.findings, seen); });
    if (!fl.children.length) item(fl, data.linted ? "none" : "not linted (see the note at the top)");
    var out = document.getElementById("panel-out"); out.textContent = "";
    e.out.forEach(function (x) {
      var li = item(out, "");
      var words = x.kind + (x.words ? " (" + x.words + ")" : "") + " \u2192 ";
      if (x.to !== null) { link(li, x.to); li.insertBefore(document.createTextNode(words), li.firstChild); }
      else li.textContent = words + "missing " + x.missing;
    });
    if (!e.out.length) item(out, "none");
    var inn = document.getElementById("panel-in"); inn.textContent = "";
    e.in.forEach(function (x) {
      var li = link(item(inn, ""), x.from);
      li.appendChild(document.createTextNode(" (" + x.kind + (x.words ? ", " + x.words : "") + ")"));
    });
    if (!e.in.length) item(inn, "none");
    var panel = document.getElementById("panel");
    if (panel.hidden) { panel.hidden = false; reaspect(); }
    if (move) centre(n);
    return true;
  }
  svg.addEventListener("click", function (e) {
    var a = e.target.closest("a"); if (a) e.preventDefault();
    if (view.dataset.dragged) { delete view.dataset.dragged; return; }
    var g = e.target.closest("g.node.entry");
    var stub = e.target.closest("g.node.connector");
    if (g) show(g.id.slice(6), false);
    else if (stub) {
      var m = /^to-(\d+)-(\d+)$/.exec(stub.id), x = m && data.entries[m[1]].out[Number(m[2])];
      if (x && x.to !== null) show(x.to, true);
    } else clear();
  });
  document.getElementById("panel-close").addEventListener("click", clear);
  document.getElementById("goto").addEventListener("submit", function (e) {
    e.preventDefault();
    var n = input.value.trim().replace(/^#/, "");
    var msg = document.getElementById("goto-message");
    if (!/^\d+$/.test(n) || !data.entries[String(Number(n))]) { msg.textContent = "no entry " + n; return; }
    msg.textContent = "";
    n = String(Number(n));
    show(n, true);
    var el = node(n); if (el) el.classList.add("found");
    view.focus({preventScroll: true});  // the keys now move the chart
  });
  window.addEventListener("resize", reaspect);
  fit();
  var hash = /^#entry-(\d+)$/.exec(location.hash);
  if (hash) show(hash[1], true);
})();
"""
