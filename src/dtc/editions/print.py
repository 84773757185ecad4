"""The print edition: Markdown, and HTML laid out for paper (and a PDF with WeasyPrint: ``pip install '.[pdf]'``).

It follows the conventions of printed gamebooks: the title page with the author's introduction,
"How to play" (what the numbers mean, how this system rolls a check, S and F in words), the
encounter table and the creatures, an adventure sheet to copy, then the numbered sections in
order, each with its number large and bold and its choices read out below the text — "Great
Doors: turn to 26"; "Belfry (DEX, difficulty 2): … If you succeed, turn to 7; if you fail, turn
to 15" — instead of the raw notation (``notation=True`` keeps the notation in the text as
written). Text is set ragged-right; sections flow across pages (only short ones are kept whole,
and a number never ends a page); running heads give the first and last section on each page
(WeasyPrint; browsers print page numbers only). Author text is escaped: ``<``, ``>`` and ``&``
never reach the output as markup.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from pathlib import Path
from urllib.parse import quote

from dtc.compiled.graphjson import CompiledGraph, Creature
from dtc.editions.book import (
    CheckRules,
    asset,
    encounter_die,
    roll_label,
    stat_rows,
)
from dtc.editions.phrasing import Words, how_checks_work
from dtc.editions.prepared import Prepared, prepare
from dtc.editions.text import Piece

#: Entries shorter than this (in characters of text) are never split across pages.
SHORT = 600

_BOLD = re.compile(r"(?:\*\*|__)(.+?)(?:\*\*|__)", re.S)
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+\-*=]|[0-9]+[.)])(?=\s|$)", re.M)
#: Where a choice's notation was taken out of the prose: the space left before punctuation, doubled spaces.
_GAP = re.compile(r"[ \t]+(?=[.,;:!?)\]”’]|$)|(?<= )[ \t]+")
#: :data:`_GAP` for text without a tab, in a shape the regex engine scans faster (it starts with a
#: space): a run of spaces before punctuation or the end goes, a longer run becomes one space.
_SPACE_GAP = re.compile(r" (?: *(?=[.,;:!?)\]”’]|$)|( ) *)")


def close_gaps(text: str) -> str:
    """``text`` without the gaps :data:`_GAP` removes (the same result, about twice as fast)."""
    return _GAP.sub("", text) if "\t" in text else _SPACE_GAP.sub(r"\1", text)


def _how_lines(book: Prepared) -> list[str]:
    lines = how_checks_work(book.rules)
    if (start := book.start) is not None:  # a start that names an entry
        lines.append(f"Begin at section {start}.")
    return lines


# --- Markdown ------------------------------------------------------------------------------


#: A Markdown link or image as an author may write one: ``[words](target "title")``.
_MD_LINK = re.compile(r"(!?)\[([^\[\]\n]{0,500})\]\([ \t]*<?([^\s()<>]{0,2000})>?(?:[ \t]+\"[^\"\n]*\")?[ \t]*\)")
#: Link targets kept: a place in the book, the web, an e-mail address.
_MD_SAFE_TARGET = re.compile(r"#|https?://|mailto:", re.I)
#: What a kept link's target keeps as it is; anything else (a bracket, a quote) is %-escaped.
_URL_SAFE = "/:?#@!$&'*+,;=%-._~"


def md_text(text: str) -> str:
    """Author text made inert in Markdown: no HTML, no accidental headings, lists or tables,
    and no link or image but a link the author wrote to a place in the book (``#...``), the
    web (``http``, ``https``) or an e-mail address: such a link is written again by us; any
    other (``javascript:``, ``data:``, a reference definition) keeps only its words, and an
    image its alt text, so a reader's Markdown viewer never fetches anything."""
    if "[" not in text:  # no link can start (the pattern's scan is slow: it may begin with "!")
        return _md_inert(text)
    out: list[str] = []
    at = 0
    for m in _MD_LINK.finditer(text):
        out.append(_md_inert(text[at : m.start()]))
        image, words, target = m.groups()
        if not image and _MD_SAFE_TARGET.match(target):
            out.append(f"[{_md_inert(words)}]({quote(target, safe=_URL_SAFE)})")
        else:
            out.append(_md_inert(words))
        at = m.end()
    out.append(_md_inert(text[at:]))
    return "".join(out)


def _md_inert(text: str) -> str:
    """Text no Markdown reader makes anything of but the emphasis it shows: backslashes and
    brackets escaped (no link, image or reference can form), HTML escaped, line starts that
    would open a heading, a quote or a list escaped."""
    text = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if "\n" not in text:  # one line: one place to look
        m = _MD_LINE_START.match(text)
        return text if m is None else m.group(1) + "\\" + m.group(2) + text[m.end() :]
    return _MD_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _md_cell(text: str) -> str:
    return md_text(" ".join(text.split())).replace("|", "\\|")


def _md_piece(piece: Piece, notation: bool) -> str:
    if piece.kind == "label":
        return f"**{md_text(piece.text)}**"
    if piece.kind == "choice" and not notation:
        return ""
    return md_text(piece.text)


#: The same few phrases ("turn to ", "If you succeed, ") come back in every section: each is made inert once.
_md_said = lru_cache(maxsize=4096)(md_text)


def _md_words(words: list[Words]) -> str:
    return "".join(f"**{w.target}**" if w.target is not None else _md_said(w.text) for w in words)


def render_markdown(graph: CompiledGraph, *, notation: bool = False, prepared: Prepared | None = None) -> str:
    """The print edition in Markdown (``prepared``: the book's pieces, shared with other editions)."""
    book = prepare(graph, prepared)
    rules = book.rules
    out = [f"# {_md_cell(graph['title'] or 'Untitled adventure')}", ""]
    if author := graph["author"]:
        out += [f"*by {_md_cell(author)}*", ""]
    for intro in graph.get("introduction") or []:
        out += [md_text(intro), ""]
    out += ["## How to play", "", *(f"- {md_text(line)}" for line in _how_lines(book)), ""]
    if graph["encounters"]:
        out += ["## Encounters", "", f"Roll 1d{encounter_die(graph)}.", "", "| Roll | Encounter |", "| ---: | --- |"]
        out += [f"| {roll_label(r['low'], r['high'])} | {_md_cell(r['text'])} |" for r in graph["encounters"]]
        out.append("")
    creatures = book.creatures
    if creatures:
        out += ["## Creatures", ""]
        for c in creatures.values():
            out += [f"**{_md_cell(c['name'])}**", "", "| | |", "| --- | --- |"]
            out += [f"| {_md_cell(k)} | {_md_cell(v)} |" for k, v in stat_rows(c)]
            out.append("")
    out += ["## Adventure sheet", "", "| | |", "| --- | --- |", "| Name | |", "| HP | |", "| Turn | |"]
    out += [f"| {_md_cell(a)} | |" for a in rules.abilities]
    out += ["| Items and treasure | |", "| Notes | |", ""]
    out += ["## Sections", ""]
    for entry in book.entries:
        out += [f"### {entry['number']}", ""]
        for para in book.print_paragraphs(entry):
            text = "".join(_md_piece(p, notation) for p in para)
            out += [(text if notation else close_gaps(text)).strip(), ""]
        for name in entry["creatures"]:
            if name in creatures:
                out += [f"*{_md_cell(name)}:* " + "; ".join(f"{_md_cell(k)} {_md_cell(v)}"
                                                           for k, v in stat_rows(creatures[name])), ""]
        choices = [f"- {_md_words(words)}" for words in book.sentences(entry)]
        backs = book.returns(entry)
        if backs:
            choices.append("- Return to the section you came from: " + ", ".join(f"**{t}**" for t in backs) + ".")
        if choices:
            out += [*choices, ""]
    return "\n".join(out).rstrip() + "\n"


# --- HTML for paper ------------------------------------------------------------------------


def _inline(text: str) -> str:
    text = escape(text)
    # Bold opens with ** or __: a text with neither is kept as it is (no scan of it all).
    return _BOLD.sub(r"<strong>\1</strong>", text) if "**" in text or "__" in text else text


def _stat_table(creature: Creature) -> str:
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in stat_rows(creature))
    return f'<table class="stats"><caption>{escape(creature["name"])}</caption>{rows}</table>'


def _print_piece(piece: Piece, notation: bool) -> str:
    if piece.kind == "label":
        return f"<strong>{escape(piece.text)}</strong>"
    if piece.kind == "choice":
        return f'<span class="notation">{escape(piece.text)}</span>' if notation else ""
    return _inline(piece.text)


def _html_words(words: list[Words]) -> str:
    return "".join(f'<strong class="turn">{w.target}</strong>' if w.target is not None else escape(w.text)
                   for w in words)


def _sheet(rules: CheckRules) -> str:
    rows = ["Name", "HP", "Turn", *rules.abilities, "Items and treasure", "Notes"]
    cells = "".join(f'<tr><th>{escape(r)}</th><td class="blank"></td></tr>' for r in rows)
    return ('<section class="sheet"><h2>Adventure sheet</h2><p>Copy this page, or write on it in pencil.</p>'
            f'<table class="sheet-table">{cells}</table></section>')


def render_print_html(graph: CompiledGraph, *, notation: bool = False, prepared: Prepared | None = None) -> str:
    """The print edition as HTML for paper (``prepared``: the book's pieces, shared with other editions)."""
    book = prepare(graph, prepared)
    rules = book.rules
    title = graph["title"] or "Untitled adventure"
    creatures = book.creatures
    parts = ['<section class="front">', f"<h1>{escape(title)}</h1>"]
    if author := graph["author"]:
        parts.append(f'<p class="byline">by {escape(author)}</p>')
    intro = graph.get("introduction") or []
    if intro:
        parts.append('<div class="introduction">' + "".join(f"<p>{_inline(p)}</p>" for p in intro) + "</div>")
    parts.append('<h2>How to play</h2><ul class="how">')
    parts += [f"<li>{escape(line)}</li>" for line in _how_lines(book)]
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
    parts.append("</section>")
    parts.append(_sheet(rules))
    parts.append('<section class="entries">')
    for entry in book.entries:
        n = entry["number"]
        size = "short" if len(entry["text"]) < SHORT else "long"
        parts.append(f'<article class="entry {size}" id="entry-{n}"><h2 class="number">{n}</h2>')
        for para in book.print_paragraphs(entry):
            body = "".join(_print_piece(p, notation) for p in para)
            parts.append(f"<p>{(body if notation else close_gaps(body)).strip()}</p>")
        names = [c for c in entry["creatures"] if c in creatures]
        parts += [_stat_table(creatures[c]) for c in names]
        items = [f"<li>{_html_words(words)}</li>" for words in book.sentences(entry)]
        backs = book.returns(entry)
        if backs:
            items.append("<li>Return to the section you came from: "
                         + ", ".join(f'<strong class="turn">{t}</strong>' for t in backs) + ".</li>")
        if items:
            parts.append(f'<ul class="choices">{"".join(items)}</ul>')
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
        import weasyprint  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return False
    weasyprint.HTML(string=html_text).write_pdf(str(target))
    return True
