"""The print edition: Markdown, and HTML laid out for paper (and a PDF when WeasyPrint is there).

Entries come in number order with their choice labels in bold, after the rules summary, the
encounter table and the creatures' stat blocks. Entries shorter than :data:`SHORT` characters
are marked ``break-inside: avoid`` so a page break never splits them; headings never end a
page. Author text is escaped: ``<``, ``>`` and ``&`` never reach the output as markup.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

from dtc.edition.book import (
    CheckRules,
    asset,
    check_rules,
    creatures_by_name,
    encounter_die,
    entries_in_order,
    label_numbers,
    roll_label,
    stat_rows,
)
from dtc.edition.text import Piece, numbered, paragraphs, pieces, state_words

#: Entries shorter than this (in characters of text) are never split across pages.
SHORT = 1400

_BOLD = re.compile(r"(?:\*\*|__)(.+?)(?:\*\*|__)", re.S)
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+\-*=]|[0-9]+[.)])(?=\s|$)", re.M)


def _rules_lines(rules: CheckRules) -> list[str]:
    lines = ["Each number is an entry: read the entry a choice or a check sends you to."]
    if rules.dice:
        dice = ", ".join(f"{n}d{rules.sides} for D{d}" for d, n in sorted(rules.dice.items()))
        lines.append(f"Checks in {rules.title} roll {dice}; a total equal to or under your ability succeeds.")
        if rules.options:
            lines.append(f"A check's difficulty is how many of these it needs: {', '.join(rules.options)}.")
        lines.append("D0 needs nothing: just go.")
    return lines


# --- Markdown ------------------------------------------------------------------------------


def md_text(text: str) -> str:
    """Author text made inert in Markdown: no HTML, no accidental headings, lists or tables."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _md_cell(text: str) -> str:
    return md_text(" ".join(text.split())).replace("|", "\\|")


def _md_piece(piece: Piece) -> str:
    if piece.kind == "label":
        return f"**{md_text(piece.text)}**"
    return md_text(piece.text)


def render_markdown(graph: dict[str, Any]) -> str:
    rules = check_rules(graph["rules"])
    labels = label_numbers(graph)
    out = [f"# {_md_cell(graph['title'] or 'Untitled adventure')}", ""]
    if graph.get("author"):
        out += [f"*by {_md_cell(graph['author'])}*", ""]
    out += ["## How to play", "", *(f"- {line}" for line in _rules_lines(rules))]
    if graph["start"] is not None:
        out.append(f"- Begin at entry **{graph['start']}**.")
    out.append("")
    if graph["encounters"]:
        out += ["## Encounters", "", f"Roll 1d{encounter_die(graph)}.", "", "| Roll | Encounter |", "| ---: | --- |"]
        out += [f"| {roll_label(r['low'], r['high'])} | {_md_cell(r['text'])} |" for r in graph["encounters"]]
        out.append("")
    creatures = creatures_by_name(graph)
    if creatures:
        out += ["## Creatures", ""]
        for c in creatures.values():
            out += [f"**{_md_cell(c['name'])}**", "", "| | |", "| --- | --- |"]
            out += [f"| {_md_cell(k)} | {_md_cell(v)} |" for k, v in stat_rows(c)]
            out.append("")
    out += ["## Entries", ""]
    for entry in entries_in_order(graph):
        out += [f"### {entry['number']}", ""]
        for para in paragraphs(state_words(entry, numbered(pieces(entry), labels))):
            out += ["".join(_md_piece(p) for p in para).strip(), ""]
        for name in entry["creatures"]:
            if name in creatures:
                out += [f"*{_md_cell(name)}:* " + "; ".join(f"{_md_cell(k)} {_md_cell(v)}"
                                                           for k, v in stat_rows(creatures[name])), ""]
    return "\n".join(out).rstrip() + "\n"


# --- HTML for paper ------------------------------------------------------------------------


def _inline(text: str) -> str:
    return _BOLD.sub(r"<strong>\1</strong>", escape(text))


def _stat_table(creature: dict[str, Any]) -> str:
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in stat_rows(creature))
    return f'<table class="stats"><caption>{escape(creature["name"])}</caption>{rows}</table>'


def _print_piece(piece: Piece) -> str:
    if piece.kind == "label":
        return f"<strong>{escape(piece.text)}</strong>"
    if piece.kind == "choice":
        return f'<span class="notation">{escape(piece.text)}</span>'
    return _inline(piece.text)


def render_print_html(graph: dict[str, Any]) -> str:
    rules = check_rules(graph["rules"])
    labels = label_numbers(graph)
    title = graph["title"] or "Untitled adventure"
    creatures = creatures_by_name(graph)
    parts = ['<section class="front">', f"<h1>{escape(title)}</h1>"]
    if graph.get("author"):
        parts.append(f'<p class="byline">by {escape(graph["author"])}</p>')
    parts.append('<h2>How to play</h2><ul class="how">')
    parts += [f"<li>{escape(line)}</li>" for line in _rules_lines(rules)]
    if graph["start"] is not None:
        parts.append(f"<li>Begin at entry <strong>{graph['start']}</strong>.</li>")
    parts.append("</ul>")
    if graph["encounters"]:
        rows = "".join(
            f'<tr><th>{roll_label(r["low"], r["high"])}</th><td>{_inline(r["text"])}</td></tr>'
            for r in graph["encounters"]
        )
        parts.append(
            f'<h2>Encounters</h2><table class="encounters"><caption>Roll 1d{encounter_die(graph)}</caption>'
            f"<thead><tr><th>Roll</th><th>Encounter</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    if creatures:
        parts.append('<h2>Creatures</h2><div class="stat-grid">')
        parts += [_stat_table(c) for c in creatures.values()]
        parts.append("</div>")
    parts.append('</section><section class="entries">')
    for entry in entries_in_order(graph):
        n = entry["number"]
        size = "short" if len(entry["text"]) < SHORT else "long"
        parts.append(f'<article class="entry {size}" id="entry-{n}"><h2 class="number">{n}</h2>')
        for para in paragraphs(state_words(entry, numbered(pieces(entry), labels))):
            body = "".join(_print_piece(p) for p in para)
            parts.append(f"<p>{body.strip()}</p>")
        names = [c for c in entry["creatures"] if c in creatures]
        parts += [_stat_table(creatures[c]) for c in names]
        parts.append("</article>")
    parts.append("</section>")
    body = "\n".join(parts)
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{asset('print.css')}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def write_pdf(html_text: str, target: Path) -> bool:
    """Write a PDF with WeasyPrint when it is installed; False when it is not."""
    try:
        import weasyprint  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return False
    weasyprint.HTML(string=html_text).write_pdf(str(target))
    return True
