"""The print edition: Markdown, and HTML laid out for paper (and a PDF with WeasyPrint: ``pip install '.[pdf]'``).

It follows the conventions of printed gamebooks: the title page with the author's introduction,
"How to play" (what the numbers mean, S and F in words, then each kind of roll in the system's
own words and dice, from :func:`dtc.systems.reference.describe`), the encounter table, the zones,
the hazards and the creatures, an adventure sheet to copy (the system's lines and a box for each
possession and codeword the book uses), then the numbered sections in order, each with its number
large and bold, its blocks (:func:`dtc.editions.reader.blocks`: prose with effects as sentences,
hazards, zones, pictures, its own stat blocks, its ending) and its choices read out below the text
— "Great Doors: turn to 26"; "Belfry (DEX, difficulty 2): … If you succeed, turn to 7; if you
fail, turn to 15" — instead of the raw notation (``notation=True`` keeps the notation in the text
as written), and a dice table in the back matter of a book with random branches. Text is set
ragged-right; sections flow across pages (only short ones are kept whole, and a number never ends
a page); running heads give the section a page starts in and the last one begun on it
(WeasyPrint; browsers print page numbers only). Author text is escaped: ``<``, ``>`` and ``&``
never reach the output as markup.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from functools import lru_cache
from html import escape
from pathlib import Path
from urllib.parse import quote

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Hazard
from dtc.editions.book import (
    asset,
    encounter_die,
    roll_label,
    stat_rows,
)
from dtc.editions.phrasing import Words, how_checks_work, way_out_lines
from dtc.editions.pictures import Pictures
from dtc.editions.pictures import load as load_pictures
from dtc.editions.prepared import Prepared, prepare
from dtc.editions.reader import (
    DICE_TABLE,
    ENDING_HEADS,
    Block,
    bestiary,
    blocks,
    book_rules,
    creatures_by_entry,
    entry_zone,
    fight_outcomes,
    hazard_card,
    hazard_words,
    sheet_lines,
    uses_random_branches,
    zone_rows,
)
from dtc.editions.text import Piece, paragraphs, state_words
from dtc.systems.reference import BookRules, SheetLine

#: Entries shorter than this (in characters of text) are never split across pages (a longer one
#: may be, as in a printed gamebook: at 600 the Drowned Chapel took 22 pages, with half-empty ones, at 400 21).
SHORT = 400

_BOLD = re.compile(r"(?:\*\*|__)(.+?)(?:\*\*|__)", re.S)
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+\-*=]|[0-9]+[.)])(?=\s|$)", re.M)
#: Where a choice's notation was taken out of the prose: the space left before punctuation, doubled spaces.
_GAP = re.compile(r"[ \t]+(?=[.,;:!?)\]”’]|$)|(?<= )[ \t]+")
#: :data:`_GAP` for text without a tab, in a shape the regex engine scans faster (it starts with a
#: space): a run of spaces before punctuation or the end goes, a longer run becomes one space.
_SPACE_GAP = re.compile(r" (?: *(?=[.,;:!?)\]”’]|$)|( ) *)")


#: A line end left before punctuation where a choice's notation was taken out ("Walk Across\n.").
_LINE_GAP = re.compile(r"[ \t]*\n[ \t]*(?=[.,;:!?)\]”’])")


def close_gaps(text: str) -> str:
    """``text`` without the gaps :data:`_GAP` removes (the same result, about twice as fast), and
    without a line end left before punctuation."""
    if "\n" in text:
        text = _LINE_GAP.sub("", text)
    return _GAP.sub("", text) if "\t" in text else _SPACE_GAP.sub(r"\1", text)


def _how_lines(book: Prepared) -> list[str]:
    lines = how_checks_work(book.rules)
    if (start := book.start) is not None:  # a start that names an entry
        lines.append(f"Begin at section {start}.")
        lines += way_out_lines(start)
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


def _md_block(graph: CompiledGraph, entry: Entry, block: Block, reader: BookRules, notation: bool) -> list[str]:
    if block.kind == "para":
        text = "".join(_md_piece(p, notation) for p in block.pieces)
        text = (text if notation else close_gaps(text)).strip()
        return [text, ""] if text else []
    if block.kind == "hazard":
        card = hazard_card(graph, block.name, entry["number"])
        lines = hazard_words(card, reader) if card is not None else []
        if card is not None and card["entry"] != entry["number"]:
            lines = [*lines[:1], "Its whole card is under Hazards, at the front of the book."]
        return [f"> **Hazard: {_md_cell(block.name)}**", ">", *(f"> - {md_text(line)}" for line in lines), ""]
    if block.kind == "zone":
        return [f"*Zone: {_md_cell(entry_zone(entry) or block.name)}*", ""]
    if block.kind == "image":
        return [f"*(Illustration: {_md_cell(block.alt or block.name)})*", ""]
    if block.kind == "stats" and block.creature is not None:
        c = block.creature
        ways = [f"- {md_text(said)}, turn to **{md_text(str(to))}**." for said, to in fight_outcomes(c)]
        return [f"| {_md_cell(c['name'])} | |", "| --- | --- |",
                *(f"| {_md_cell(k)} | {_md_cell(v)} |" for k, v in stat_rows(c)), "", *ways, *([""] if ways else [])]
    if block.kind == "ending":
        return [f"**{ENDING_HEADS.get(block.name, 'An ending')}**", "", "*The End*", ""]
    return []


def render_markdown(graph: CompiledGraph, *, notation: bool = False, prepared: Prepared | None = None) -> str:
    """The print edition in Markdown (``prepared``: the book's pieces, shared with other editions)."""
    book = prepare(graph, prepared)
    reader = book_rules(graph, book.rules.reader)
    out = [f"# {_md_cell(graph['title'] or 'Untitled adventure')}", ""]
    if author := graph["author"]:
        out += [f"*by {_md_cell(author)}*", ""]
    for intro in graph.get("introduction") or []:
        out += [md_text(intro), ""]
    out += ["## How to play", "", *(f"- {md_text(line)}" for line in _how_lines(book)), ""]
    for section in reader["sections"]:
        out += [f"### {md_text(section['heading'])}", ""]
        for line in section["lines"]:
            out += [md_text(line), ""]
    if graph["encounters"]:
        out += ["## Encounters", "", f"Roll 1d{encounter_die(graph)}.", "", "| Roll | Encounter |", "| ---: | --- |"]
        out += [f"| {roll_label(r['low'], r['high'])} | {_md_cell(r['text'])} |" for r in graph["encounters"]]
        out.append("")
    if zones := zone_rows(graph, reader):
        out += ["## Zones", "", "| Sections | Zone | Encounter check |", "| --- | --- | --- |"]
        out += [f"| {_md_cell(s)} | {_md_cell(z)} | {_md_cell(w)} |" for s, z, w in zones]
        out.append("")
    hazards = [h for h in graph.get("hazards") or [] if h["entry"] is None and not h["error"]]
    if hazards:
        out += ["## Hazards", ""]
        for h in hazards:
            out += [f"**Hazard: {_md_cell(h['name'])}**", ""]
            out += [*(f"- {md_text(line)}" for line in hazard_words(h, reader)), ""]
    creatures = bestiary(graph)
    if creatures:
        out += ["## Creatures", ""]
        for c in creatures:
            out += [f"| {_md_cell(c['name'])} | |", "| --- | --- |"]
            out += [f"| {_md_cell(k)} | {_md_cell(v)} |" for k, v in stat_rows(c)]
            out.append("")
    out += ["## Adventure sheet", "", "| | |", "| --- | --- |"]
    out += [f"| {_md_cell(line['label'])} | {_md_cell(line['start'])} |" for line in sheet_lines(graph, reader)]
    out += ["", "## Sections", ""]
    front = {c["name"] for c in creatures}
    placed = creatures_by_entry(graph)
    for entry in book.entries:
        out += [f"### {entry['number']}", ""]
        own = placed.get(entry["number"], [])
        for block in blocks(entry, state_words(entry, book.pieces(entry)), own, paragraphs):
            out += _md_block(graph, entry, block, reader, notation)
        named = [c for c in entry["creatures"] if c in front and all(c != o["name"] for o in own)]
        if named:
            out += [f"*Creatures here: {_md_cell(', '.join(named))} (stat blocks under Creatures).*", ""]
        choices = [f"- {_md_words(words)}" for words in book.sentences(entry)]
        backs = book.returns(entry)
        if backs:
            choices.append("- Return to the section you came from: " + ", ".join(f"**{t}**" for t in backs) + ".")
        if choices:
            out += [*choices, ""]
    if uses_random_branches(graph):
        out += ["## Dice table", "", "No dice to hand? Close your eyes and put a pencil point on the table: the face "
                "it lands on is your die.", "", "| " + " | ".join(" " for _ in DICE_TABLE[0]) + " |",
                "| " + " | ".join("---" for _ in DICE_TABLE[0]) + " |"]
        out += ["| " + " | ".join(str(f) for f in row) + " |" for row in DICE_TABLE]
    return "\n".join(out).rstrip() + "\n"


# --- HTML for paper ------------------------------------------------------------------------


#: ``*italic*``: a star that opens before a word and closes after one (``a * b`` is no emphasis).
ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")


def emphasis(text: str) -> str:
    """Escaped author text with its ``**bold**`` (or ``__bold__``) and ``*italic*`` as HTML."""
    # Bold opens with ** or __: a text with neither is kept as it is (no scan of it all).
    if "**" in text or "__" in text:
        text = _BOLD.sub(r"<strong>\1</strong>", text)
    return ITALIC.sub(r"<em>\1</em>", text) if "*" in text else text


def _inline(text: str) -> str:
    return emphasis(escape(text))


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


def _sheet(graph: CompiledGraph, reader: BookRules) -> str:
    """The adventure sheet on one page: name and hit points, the abilities two to a row, the
    system's lines, then a box for each possession and codeword the book uses, two columns each."""
    lines = sheet_lines(graph, reader)
    abilities = set(reader["abilities"])
    cells = [f'<th>{escape(x["label"])}</th><td class="blank"></td>' for x in lines if x["label"] in abilities]
    grid = "".join(f"<tr>{''.join(cells[i:i + 2])}</tr>" for i in range(0, len(cells), 2))
    rows = []
    for line in lines:
        if line["label"] in abilities or line["size"] == "box":
            continue
        start = f'<span class="start">{escape(line["start"])}</span>' if line["start"] else ""
        rows.append(f'<tr class="{line["size"]}"><th>{escape(line["label"])}</th><td class="blank">{start}</td></tr>')
    notes = rows.pop() if rows and "Notes" in rows[-1] else ""
    boxes = [x for x in lines if x["size"] == "box"]
    things = [x for x in boxes if not x["label"].startswith("☐ Codeword: ")]
    words = [x for x in boxes if x["label"].startswith("☐ Codeword: ")]

    def listed(heading: str, items: list[SheetLine], cut: str) -> str:
        if not items:
            return ""
        shown = "".join(f'<li>☐ {escape(x["label"].removeprefix(cut))}'
                        + (f' <span class="start">{escape(x["start"])}</span>' if x["start"] else "") + "</li>"
                        for x in items)
        return f'<div class="boxes"><h3>{heading}</h3><ul>{shown}</ul></div>'

    return ('<section class="sheet"><h2>Adventure sheet</h2><p>Copy this page, or write on it in pencil. '
            "Small print is what a new adventurer writes there.</p>"
            f'<table class="sheet-table">{rows[0] if rows else ""}{rows[1] if len(rows) > 1 else ""}</table>'
            f'<table class="sheet-table abilities">{grid}</table>'
            f'<table class="sheet-table">{"".join(rows[2:])}</table>'
            + listed("Possessions", things, "☐ ") + listed("Codewords", words, "☐ Codeword: ")
            + f'<table class="sheet-table">{notes}</table></section>')


def _rules_html(book: Prepared, reader: BookRules) -> list[str]:
    """How to play: the book's numbered sections, then each kind of roll in the system's words."""
    parts = ['<h2>How to play</h2><ul class="how">', *(f"<li>{escape(line)}</li>" for line in _how_lines(book)),
             "</ul>"]
    for section in reader["sections"]:
        parts.append(f'<h3>{escape(section["heading"])}</h3>')
        parts += [f"<p>{escape(line)}</p>" for line in section["lines"]]
    return parts


def hazard_html(hazard: Hazard, reader: BookRules) -> str:
    lines = "".join(f"<li>{_inline(line)}</li>" for line in hazard_words(hazard, reader))
    return f'<div class="hazard"><p class="hazard-name">Hazard: {escape(hazard["name"])}</p><ul>{lines}</ul></div>'


def date_of_build() -> str:
    """The date a book records (``SOURCE_DATE_EPOCH`` when set, for reproducible builds; else today)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = (datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit()
            else datetime.now(UTC))
    return when.date().isoformat()


def _block_html(graph: CompiledGraph, entry: Entry, block: Block, reader: BookRules, notation: bool,
                pictures: Pictures | None = None) -> str:
    if block.kind == "para":
        body = "".join(_print_piece(p, notation) for p in block.pieces)
        text = (body if notation else close_gaps(body)).strip()
        return f"<p>{text}</p>" if text else ""
    if block.kind == "hazard":
        card = hazard_card(graph, block.name, entry["number"])
        if card is not None and card["entry"] == entry["number"]:
            return hazard_html(card, reader)
        check = hazard_words(card, reader)[:1] if card is not None and card["check"] else []
        said = "".join(f"<p>{_inline(line)}</p>" for line in check)
        return (f'<div class="hazard"><p class="hazard-name">Hazard: {escape(block.name)}</p>{said}'
                "<p>Its whole card is under Hazards, at the front of the book.</p></div>")
    if block.kind == "zone":
        where = entry_zone(entry) or block.name
        return f'<p class="zone">Zone: {escape(where)}</p>'
    if block.kind == "stats" and block.creature is not None:
        ways = "".join(f'<li>{escape(said)}, turn to <strong class="turn">{escape(str(to))}</strong>.</li>'
                       for said, to in fight_outcomes(block.creature))
        return _stat_table(block.creature) + (f'<ul class="choices">{ways}</ul>' if ways else "")
    if block.kind == "image":
        picture = pictures.found.get(block.name) if pictures is not None else None
        words = f"<figcaption>{escape(block.alt)}</figcaption>" if block.alt else ""
        if picture is None:
            return f'<figure class="picture missing">{words}</figure>' if words else ""
        return f'<figure class="picture"><img src="{picture.data_uri()}" alt="{escape(block.alt)}">{words}</figure>'
    if block.kind == "ending":
        return (f'<div class="ending"><p class="ending-kind">{escape(ENDING_HEADS.get(block.name, "An ending"))}</p>'
                '<p class="the-end">The End</p></div>')
    return ""


def _dice_table_html() -> str:
    rows = "".join("<tr>" + "".join(f"<td>{face}</td>" for face in row) + "</tr>" for row in DICE_TABLE)
    return ('<section class="back"><h2>Dice table</h2><p>No dice to hand? Close your eyes and put a pencil point '
            "on the table: the face it lands on is your die. For more dice, read the faces that follow it.</p>"
            f'<table class="dice">{rows}</table></section>')


def render_print_html(graph: CompiledGraph, *, notation: bool = False, prepared: Prepared | None = None,
                      pictures: Pictures | None = None) -> str:
    """The print edition as HTML for paper (``prepared``: the book's pieces, shared with other editions;
    ``pictures``: its illustrations, read by :func:`dtc.editions.pictures.load` when not given)."""
    book = prepare(graph, prepared)
    pictures = pictures if pictures is not None else load_pictures(graph)
    reader = book_rules(graph, book.rules.reader)
    title = graph["title"] or "Untitled adventure"
    parts = ['<section class="front">', f"<h1>{escape(title)}</h1>"]
    if author := graph["author"]:
        parts.append(f'<p class="byline">by {escape(author)}</p>')
    intro = graph.get("introduction") or []
    if intro:
        parts.append('<div class="introduction">' + "".join(f"<p>{_inline(p)}</p>" for p in intro) + "</div>")
    parts += _rules_html(book, reader)
    if graph["encounters"]:
        rows = "".join(
            f'<tr><th>{roll_label(r["low"], r["high"])}</th><td>{_inline(r["text"])}</td></tr>'
            for r in graph["encounters"]
        )
        parts.append(
            f'<h2>Encounters</h2><table class="encounters"><caption>Roll 1d{encounter_die(graph)}</caption>'
            f"<thead><tr><th>Roll</th><th>Encounter</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    if zones := zone_rows(graph, reader):
        rows = "".join(f"<tr><th>{escape(s)}</th><td>{_inline(z)}</td><td>{escape(w)}</td></tr>" for s, z, w in zones)
        parts.append('<h2>Zones</h2><table class="zones"><thead><tr><th>Sections</th><th>Zone</th>'
                     f"<th>Encounter check</th></tr></thead><tbody>{rows}</tbody></table>")
    hazards = [h for h in graph.get("hazards") or [] if h["entry"] is None and not h["error"]]
    if hazards:
        parts.append('<h2>Hazards</h2><div class="hazards">')
        parts += [hazard_html(h, reader) for h in hazards]
        parts.append("</div>")
    creatures = bestiary(graph)
    if creatures:
        parts.append('<h2>Creatures</h2><div class="stat-grid">')
        parts += [_stat_table(c) for c in creatures]
        parts.append("</div>")
    parts.append("</section>")
    parts.append(_sheet(graph, reader))
    parts.append('<section class="entries">')
    front = {c["name"] for c in creatures}
    placed = creatures_by_entry(graph)
    for entry in book.entries:
        n = entry["number"]
        size = "short" if len(entry["text"]) < SHORT else "long"
        parts.append(f'<article class="entry {size}" id="entry-{n}"><h2 class="number">{n}</h2>')
        own = placed.get(n, [])
        for block in blocks(entry, state_words(entry, book.pieces(entry)), own, paragraphs):
            parts.append(_block_html(graph, entry, block, reader, notation, pictures))
        named = [c for c in entry["creatures"] if c in front and all(c != o["name"] for o in own)]
        if named:
            parts.append(f'<p class="foes">Creatures here: {escape(", ".join(named))} (stat blocks under '
                         "Creatures, at the front).</p>")
        items = [f"<li>{_html_words(words)}</li>" for words in book.sentences(entry)]
        backs = book.returns(entry)
        if backs:
            items.append("<li>Return to the section you came from: "
                         + ", ".join(f'<strong class="turn">{t}</strong>' for t in backs) + ".</li>")
        if items:
            parts.append(f'<ul class="choices">{"".join(items)}</ul>')
        parts.append("</article>")
    parts.append("</section>")
    if uses_random_branches(graph):
        parts.append(_dice_table_html())
    body = "\n".join(p for p in parts if p)
    author_meta = f'<meta name="author" content="{escape(graph["author"])}">\n' if graph["author"] else ""
    date = date_of_build()
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n{author_meta}"
        f'<meta name="description" content="A gamebook for {escape(reader["title"])}">\n'
        f'<meta name="keywords" content="gamebook, {escape(reader["title"])}">\n'
        f'<meta name="generator" content="dtc">\n<meta name="dcterms.created" content="{date}">\n'
        f'<meta name="dcterms.modified" content="{date}">\n'
        f"<style>{asset('print.css')}</style>\n</head>\n"
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
