"""The web edition: one self-contained HTML file that plays the book in a browser, offline.

Everything an author wrote passes through :func:`html.escape` (or :func:`~dtc.editions.book.
script_json` for the data the script reads); the page's own script is allowed by its hash in a
Content-Security-Policy that also forbids every other script and every external request.
Entries are ``<article id="entry-N">``; the script shows one at a time and follows the URL
hash, so links, back and forward work. Without the script the page reads as a plain book.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html import escape
from typing import cast

from dtc.compiled.graphjson import Choice, CompiledGraph, Creature, Entry
from dtc.editions.book import (
    CheckRules,
    asset,
    check_rules,
    creatures_by_name,
    encounter_die,
    entries_in_order,
    label_numbers,
    roll_label,
    slug,
    stat_rows,
    target_number,
)
from dtc.editions.text import Piece, exit_sentences, numbered, paragraphs, pieces
from dtc.lint.analysis import Analysis
from dtc.outcomes import the_end
from dtc.render.html import script_json

_BOLD = re.compile(r"(?:\*\*|__)(.+?)(?:\*\*|__)", re.S)
_WORDS = {1: "Needs 1 of", 2: "Needs 2 of", 3: "Needs all 3"}
#: Run first, in <head>: with scripts on, entries start hidden, so a big book is not laid out whole.
EARLY = 'document.documentElement.classList.add("js");'


def _digest(script: str) -> str:
    return base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def inline(text: str) -> str:
    """Escaped author text, with ``**bold**`` kept as bold."""
    return _BOLD.sub(r"<strong>\1</strong>", escape(text))


def link(target: int, body: str, cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<a{klass} href="#entry-{target}">{body}</a>'


class WebEdition:
    def __init__(self, graph: CompiledGraph, flowchart_svg: str | None = None) -> None:
        self.graph = graph
        self.rules: CheckRules = check_rules(graph["rules"])
        self.entries = entries_in_order(graph)
        self.numbers = {e["number"] for e in self.entries}
        self.start = Analysis.of_graph(graph).start  # None when the start names no entry
        self.creatures = creatures_by_name(graph)
        self.labels = label_numbers(graph)
        self.svg = flowchart_svg
        self.title = graph["title"] or "Untitled adventure"

    # --- page ----------------------------------------------------------------------------

    def render(self) -> str:
        script = asset("web.js")
        hashes = " ".join(f"'sha256-{_digest(s)}'" for s in (EARLY, script))
        csp = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src {hashes}; base-uri 'none'; form-action 'none'"
        )
        source = self.graph.get("source", {}).get("path") or self.title
        data = {
            "key": "dtc:" + slug(self.title) + ":" + slug(source.rsplit("/", 1)[-1]),
            "title": self.title,
            "start": self.start,
            "sides": self.rules.sides,
            "dice": {str(k): v for k, v in self.rules.dice.items()},
            "abilities": list(self.rules.abilities),
            "encounters": [
                {"low": r["low"], "high": r["high"], "text": r["text"]} for r in self.graph["encounters"]
            ],
            "encounterDie": encounter_die(self.graph),
            "possessions": list(self.graph.get("possessions", [])),
            "changes": {str(e["number"]): [[c["name"], c["amount"]] for c in e["changes"]]
                        for e in self.entries if e.get("changes")},
        }
        body = "\n".join(
            [
                self._masthead(),
                '<div class="layout">',
                '<main id="main" tabindex="-1">',
                '<p id="notice" class="notice" role="status" hidden></p>',
                self._cover(),
                *(self._entry(e) for e in self.entries),
                "</main>",
                self._sheet(),
                "</div>",
                f'<script type="application/json" id="dtc-data">{script_json(data)}</script>',
                f"<script>{script}</script>",
            ]
        )
        return (
            "<!doctype html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            '<meta name="color-scheme" content="light dark">\n'
            f'<meta name="generator" content="dtc {escape(str(self.graph.get("dtc_version", "")))}">\n'
            f"<title>{escape(self.title)}</title>\n<style>{asset('web.css')}</style>\n"
            f"<script>{EARLY}</script>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n"
        )

    def _masthead(self) -> str:
        start = self.start
        begin = f'<a href="#entry-{start}">Begin</a>' if start is not None else ""
        return (
            '<a class="skip" href="#main">Skip to the text</a>\n'
            '<header class="masthead"><a class="book" href="#cover">'
            f"{escape(self.title)}</a>"
            f'<nav aria-label="Book">{begin}<a href="#cover">Contents</a>'
            '<a href="#sheet" class="to-sheet js-only">Sheet</a></nav></header>'
        )

    # --- cover ---------------------------------------------------------------------------

    def _cover(self) -> str:
        g = self.graph
        parts = ['<section id="cover" class="page cover" aria-labelledby="cover-h">']
        parts.append(f'<h1 id="cover-h" tabindex="-1">{escape(self.title)}</h1>')
        if author := g["author"]:
            parts.append(f'<p class="byline">by {escape(author)}</p>')
        intro = g.get("introduction") or []
        if intro:
            parts.append('<div class="introduction">' + "".join(f"<p>{inline(p)}</p>" for p in intro) + "</div>")
        start = self.start
        if start is not None:
            parts.append(
                f'<p class="begin"><a class="button primary" href="#entry-{start}">Begin the adventure</a>'
                '<a class="button resume" href="#" hidden>Resume</a></p>'
            )
        parts.append(self._how_to_play())
        if g["encounters"]:
            parts.append(self._encounter_table())
        if self.creatures:
            parts.append('<h2 id="bestiary">Creatures</h2><div class="stat-grid">')
            parts += [self._stat_table(c) for c in self.creatures.values()]
            parts.append("</div>")
        if self.svg:
            parts.append(
                '<details class="flowchart"><summary>Flowchart of every entry (spoilers)</summary>'
                '<p class="chart-hint">Drawn at full size: scroll the chart to see all of it.</p>'
                '<div class="chart" tabindex="0" role="region" aria-label="Flowchart">'
                f'{_inline_svg(self.svg)}</div></details>'
            )
        parts.append("</section>")
        return "\n".join(parts)

    def _how_to_play(self) -> str:
        r = self.rules
        items = [
            "<li>Follow the links: each number is an entry. Your browser’s back button takes you back.</li>",
            '<li class="js-only">Keep your adventurer on the <a href="#sheet" class="to-sheet">adventure sheet</a>; '
            "it is saved in this browser.</li>",
        ]
        if r.dice:
            dice = ", ".join(f"{n}d{r.sides} for D{d}" for d, n in sorted(r.dice.items()))
            need = f" A check’s difficulty is how many of these it needs: {', '.join(r.options)}." if r.options else ""
            items.append(
                f"<li>Checks in {escape(r.title)} roll {escape(dice)}; a total equal to or under your ability "
                f"succeeds.{escape(need)} D0 needs nothing: just go.</li>"
            )
        return f'<h2>How to play</h2><ul class="how">{"".join(items)}</ul>'

    def _encounter_table(self) -> str:
        die = encounter_die(self.graph)
        rows = "".join(
            f'<tr><th scope="row">{roll_label(r["low"], r["high"])}</th><td>{inline(r["text"])}</td></tr>'
            for r in self.graph["encounters"]
        )
        return (
            f'<h2 id="encounters">Encounters</h2><table class="encounters"><caption>Roll 1d{die}</caption>'
            f'<thead><tr><th scope="col">Roll</th><th scope="col">Encounter</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )

    def _stat_table(self, creature: Creature) -> str:
        rows = "".join(
            f'<tr><th scope="row">{escape(k)}</th><td>{escape(v)}</td></tr>' for k, v in stat_rows(creature)
        )
        return (f'<div class="stat-card"><table class="stats"><caption>{escape(creature["name"])}</caption>'
                f"<tbody>{rows}</tbody></table></div>")

    # --- entries -------------------------------------------------------------------------

    def _entry(self, entry: Entry) -> str:
        n = entry["number"]
        paras = paragraphs(self._pieces(entry))
        body = "\n".join(f"<p>{''.join(self._piece(entry, p) for p in para)}</p>" for para in paras)
        parts = [
            f'<article id="entry-{n}" class="page entry" aria-labelledby="entry-{n}-h">',
            f'<h2 id="entry-{n}-h" class="number" tabindex="-1"><span class="vh">Entry </span>{n}</h2>',
            f'<div class="prose">{body}</div>',
        ]
        names = [c for c in entry["creatures"] if c in self.creatures]
        if names:
            parts.append('<div class="stat-grid here">')
            parts += [self._stat_table(self.creatures[name]) for name in names]
            parts.append("</div>")
        parts.append(self._panel(entry))
        parts.append("</article>")
        return "\n".join(parts)

    def _pieces(self, entry: Entry) -> list[Piece]:
        return numbered(pieces(entry), self.labels)

    def _piece(self, entry: Entry, piece: Piece) -> str:
        if piece.kind == "label":
            return f"<strong>{escape(piece.text)}</strong>"
        if piece.kind == "exit":
            t = target_number(piece.target, self.numbers)
            return link(t, escape(piece.text)) if t is not None else escape(piece.text)
        if piece.kind == "choice" and piece.index is not None:
            return self._chip(entry["choices"][piece.index])
        return inline(piece.text)

    def _chip(self, c: Choice) -> str:
        if c["error"]:
            return f'<span class="notation">{escape(c["text"])}</span>'
        if c.get("condition") is not None:
            from dtc.runtime.conditions import words

            need = f'<span class="chip-d">if {escape(words(c["condition"]))}</span> '
            bare = cast(Choice, {k: v for k, v in c.items() if k != "condition"})
            return need + self._chip(bare)
        if c.get("roll") is not None:
            roll = c["roll"]
            outs = [f'<span class="chip-d">roll {escape(roll["dice"])}</span>']
            for b in roll["branches"]:
                t = target_number(b["target"], self.numbers)
                rng = str(b["low"]) if b["low"] == b["high"] else f'{b["low"]}–{b["high"]}'
                body = f'{rng} <span aria-hidden="true">→</span><span class="vh"> entry </span>{t}'
                outs.append(link(t, body) if t is not None else f"{rng} → {escape(str(b['target']))}")
            return f'<span class="chip check">{" ".join(outs)}</span>'
        s, f = target_number(c["success"], self.numbers), target_number(c["failure"], self.numbers)
        if not c["difficulty"] and f is None:
            go = link(s, f'<span class="vh">go to entry </span>{s}') if s is not None else escape(str(c["success"]))
            return f'<span class="chip go"><span aria-hidden="true">→</span> {go}</span>'
        what = f'{escape(c["ability"])} D{c["difficulty"]}' if c["ability"] else f'D{c["difficulty"]}'
        outs = [f'<span class="chip-d">{what}</span>']
        for letter, word, t, raw in (("S", "success", s, c["success"]), ("F", "failure", f, c["failure"])):
            if t is not None:
                body = f'<span aria-hidden="true">{letter}</span><span class="vh">{word}: entry </span>{t}'
                outs.append(link(t, body, letter.lower()))
            elif raw is not None:
                outs.append(f"<span>{letter}{escape(str(raw))}</span>")
        return f'<span class="chip check">{" ".join(outs)}</span>'

    def _panel(self, entry: Entry) -> str:
        n = entry["number"]
        items: list[str] = []
        for i, c in enumerate(entry["choices"]):
            if not c["error"]:
                items.append(self._card(n, i, c))
        prose = [x["target"] for x in entry["exits"] if x["kind"] == "prose"]
        unplaced = [t for t in (target_number(x, self.numbers) for x in prose) if t is not None]
        for piece, sentence in exit_sentences(self._pieces(entry)):
            t = target_number(piece.target, self.numbers)
            if t is not None and t in unplaced:
                unplaced.remove(t)
                items.append(_go_card(t, inline(sentence)))
        items += [_go_card(t, f"Go to {t}") for t in unplaced]
        back = sorted({t for x in entry["exits"] if x["kind"] == "return"
                       and (t := target_number(x["target"], self.numbers)) is not None})
        if back:
            links = " ".join(link(t, str(t), "back") for t in back)
            items.append(f'<li class="card return"><p>Return to the entry you came from: {links}</p></li>')
        if entry["ending"]:
            items.append(f'<li class="card ending"><p class="the-end">{the_end().title()}</p>'
                         '<a class="action" href="#cover">Back to the cover</a></li>')
        if not items:
            return '<p class="stuck">This entry has no way on. <a href="#cover">Back to the cover</a></p>'
        return (f'<section class="choices" aria-labelledby="entry-{n}-c"><h3 id="entry-{n}-c">What will you do?</h3>'
                f'<ul>{"".join(items)}</ul></section>')

    def _card(self, n: int, i: int, c: Choice) -> str:
        card = self._plain_card(n, i, c)
        condition = c.get("condition")
        if condition is None:
            return card
        from dtc.runtime.conditions import words

        assert card.startswith("<li ")
        needs = f'<p class="needs">Needs: {escape(words(condition))}</p>'
        return (f'<li data-needs="{escape(json.dumps(condition))}" ' + card[len("<li "):-len("</li>")] + needs
                + "</li>")

    def _plain_card(self, n: int, i: int, c: Choice) -> str:
        roll = c.get("roll")
        if roll is not None:
            label = f"<strong>{escape(c['label'])}</strong>"
            branches = [[b["low"], b["high"], target_number(b["target"], self.numbers)] for b in roll["branches"]]
            ways = " ".join(
                link(t, f"{lo}–{hi} → {t}" if lo != hi else f"{lo} → {t}") for lo, hi, t in branches if t is not None)
            return (f'<li class="card random" data-count="{int(roll["count"])}" data-sides="{int(roll["sides"])}"'
                    f' data-branches="{escape(json.dumps(branches))}">'
                    f'<p class="card-title">{label} <span class="badge">roll {escape(roll["dice"])}</span></p>'
                    f'<div class="roller"><button type="button" class="roll-branch">Roll {escape(roll["dice"])}'
                    f'</button><p class="result" role="status" aria-live="polite"></p></div>'
                    f'<p class="outcomes">{ways}</p></li>')
        s, f = target_number(c["success"], self.numbers), target_number(c["failure"], self.numbers)
        label = f"<strong>{escape(c['label'])}</strong>"
        d = c["difficulty"] or 0
        if d == 0 and f is None:
            return _go_card(s, label) if s is not None else f'<li class="card go"><p>{label}</p></li>'
        ability = c["ability"] or ""
        badge = f"{escape(ability)} · D{d}" if ability else f"D{d}"
        rid = f"e{n}c{i}"
        dice = self.rules.roll_words(d)
        parts = [f'<li class="card check" data-d="{d}" data-ability="{escape(ability)}"'
                 f' data-s="{s if s is not None else ""}" data-f="{f if f is not None else ""}">',
                 f'<p class="card-title">{label} <span class="badge">{badge}</span></p>']
        if dice and self.rules.options:
            needs = _WORDS.get(d, f"Needs {d} of")
            parts.append(f'<p class="hint">{needs}: {escape(", ".join(self.rules.options))} '
                         f'({dice} ≤ {escape(ability or "the ability")}).</p>')
        if dice:
            chooser = ""
            if not ability:
                options = "".join(f"<option>{escape(a)}</option>" for a in self.rules.abilities)
                chooser = (f'<label class="ability-pick" for="{rid}-a">Ability</label>'
                           f'<select id="{rid}-a" class="ability">{options}</select>')
            parts.append(f'<div class="roller">{chooser}<button type="button" class="roll">Roll {dice}</button>'
                         f'<p class="result" role="status" aria-live="polite"></p></div>')
        outs = []
        if s is not None:
            outs.append(link(s, f"Success → {s}", "s"))
        if f is not None:
            outs.append(link(f, f"Failure → {f}", "f"))
        parts.append(f'<p class="outcomes">{" ".join(outs)}</p></li>')
        return "".join(parts)

    # --- sheet ---------------------------------------------------------------------------

    def _sheet(self) -> str:
        def number(field: str, label: str, value: str = "", lo: int = 0) -> str:
            return (f'<div><label for="sheet-{field}">{label}</label>'
                    f'<input id="sheet-{field}" data-field="{field}" type="number" inputmode="numeric" '
                    f'min="{lo}" value="{value}"></div>')

        def buttons(*items: tuple[str, str]) -> str:
            inner = "".join(f'<button type="button" data-act="{act}">{text}</button>' for act, text in items)
            return f'<div class="buttons">{inner}</div>'

        abilities = "".join(number("ab-" + a, escape(a)) for a in self.rules.abilities)
        parts = [
            '<aside id="sheet" class="sheet" aria-labelledby="sheet-h">',
            '<details class="sheet-box" open><summary><h2 id="sheet-h" tabindex="-1">Adventure sheet</h2></summary>',
            '<form class="sheet-form" autocomplete="off">',
            '<div><label for="sheet-name">Name</label><input id="sheet-name" data-field="name" type="text"></div>',
            "<fieldset><legend>Health and time</legend>",
            f'<div class="grid3">{number("hp", "HP")}{number("hpmax", "Max HP")}{number("turn", "Turn", "1", 1)}</div>',
            buttons(("hp-1", "−1 HP"), ("hp+1", "+1 HP"), ("turn+1", "Next turn")),
            '<label class="check-line"><input type="checkbox" data-field="autoturn" id="sheet-autoturn" checked>'
            " Count a turn with each move</label></fieldset>",
            "<fieldset><legend>Light</legend>",
            f'<div class="grid3">{number("light", "Lantern turns", "24")}{number("oil", "Oil flasks", "3")}</div>',
            buttons(("refill", "Refill lantern")),
            "</fieldset>",
        ]
        if abilities:
            parts += [
                f'<fieldset><legend>Abilities</legend><div class="abilities">{abilities}</div>',
                buttons(("roll-abilities", "Roll 3d6 for each")),
                "</fieldset>",
            ]
        possessions = self.graph.get("possessions", [])
        if possessions:
            held = "".join(number(f"has-{k}", escape(name)) for k, name in enumerate(possessions))
            parts += [f'<fieldset><legend>Possessions and codewords</legend><div class="abilities">{held}</div>'
                      "</fieldset>"]
        parts += [
            '<div><label for="sheet-items">Items and treasure</label>'
            '<textarea id="sheet-items" data-field="items" rows="4"></textarea></div>',
            buttons(("encounter", "Check for an encounter"), ("reset", "New adventurer")),
            '<p class="sheet-status" role="status" aria-live="polite"></p>',
            "</form></details></aside>",
        ]
        return "\n".join(parts)


def _go_card(target: int, body: str) -> str:
    inner = f'<span>{body}</span><span class="to">→ {target}</span>'
    return f'<li class="card go">{link(target, inner, "action")}</li>'


def _inline_svg(svg: str) -> str:
    """An SVG document as markup to place inside HTML (no XML declaration or DOCTYPE)."""
    svg = re.sub(r"^\s*<\?xml[^>]*\?>", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>[]*(\[[^\]]*\])?>", "", svg)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<script\b.*?</script\s*>", "", svg.strip(), flags=re.S | re.I)
    # The chart's nodes are id="entry-N" like the entries themselves: keep the page's ids unique.
    svg = re.sub(r'(\s)id="', r'\1id="chart-', svg)
    return re.sub(r"url\(#", "url(#chart-", svg)


def render_web(graph: CompiledGraph, flowchart_svg: str | None = None) -> str:
    """The web edition of a compiled book as HTML text."""
    return WebEdition(graph, flowchart_svg).render()
