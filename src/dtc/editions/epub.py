"""The ebook edition: EPUB 3, one XHTML section per entry, playable on any e-reader by its links.

Structure (EPUB 3.3): ``mimetype`` first and stored, ``META-INF/container.xml``, and under
``OEBPS/`` the package document (``content.opf``: metadata, manifest, spine), the navigation
document (``nav.xhtml``, also the reading order's table of contents), a cover (an SVG image and
its page), the rules in the system's words (as the print edition gives them), an adventure sheet
to copy out, one ``sNNN.xhtml`` per entry in number order (its blocks as the print edition cuts
them), the pictures the entries place, a dice table for a book with random branches, and one
stylesheet. Choices are sentences ("If you succeed, turn to 7") whose numbers link to their
sections, so a reader plays by tapping. Every text the author wrote is escaped for XML; the
archive is byte-for-byte the same for the same book built the same day (fixed timestamps, an
identifier derived from the book; its date is ``SOURCE_DATE_EPOCH``'s when set).
"""

from __future__ import annotations

import hashlib
import io
import uuid
import zipfile
from html import escape
from typing import Any

from dtc.compiled.graphjson import CompiledGraph, Creature, Entry, Hazard
from dtc.editions.book import (
    check_rules,
    creatures_by_name,
    encounter_die,
    entries_in_order,
    label_numbers,
    roll_label,
    stat_rows,
    target_number,
)
from dtc.editions.phrasing import Words, choice_sentence, how_checks_work, way_out_lines
from dtc.editions.pictures import Pictures
from dtc.editions.pictures import load as load_pictures
from dtc.editions.prepared import Prepared, prepare
from dtc.editions.print import close_gaps, date_of_build, emphasis
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
from dtc.editions.text import Piece, paragraphs

MIMETYPE = "application/epub+zip"
XHTML = "application/xhtml+xml"
#: Zip entries carry this date so the same book always gives the same bytes.
STAMP = (2000, 1, 1, 0, 0, 0)
#: The date the package records as its last modification (EPUB requires one).
MODIFIED = "2000-01-01T00:00:00Z"

CSS = """\
body { font-family: serif; line-height: 1.45; margin: 0 5%; }
h1, h2 { font-family: sans-serif; }
h1.number { text-align: center; font-size: 2.4em; margin: 1em 0 0.4em; }
p { text-align: left; margin: 0 0 0.8em; hyphens: auto; }
ul.choices { list-style: none; padding: 0; margin: 1.2em 0; }
ul.choices li { margin: 0 0 0.6em; padding-left: 1em; text-indent: -1em; }
a.turn { font-weight: bold; }
p.the-end { text-align: center; font-variant: small-caps; font-size: 1.4em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.6em 0 1em; }
th, td { border: 1px solid #888; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
.sheet td.blank { min-width: 5em; height: 1.6em; }
.cover { text-align: center; margin-top: 20%; }
.cover h1 { font-size: 2.2em; }
p.introduction { font-style: italic; }
h2 { page-break-after: avoid; break-after: avoid; }
.hazard { border: 1px solid #888; padding: 0.3em 0.8em; margin: 0.8em 0; page-break-inside: avoid; }
.hazard-name, .ending-kind { font-weight: bold; font-family: sans-serif; }
.hazard ul { margin: 0.2em 0; padding-left: 1.2em; }
p.zone, p.foes { font-style: italic; }
.ending { text-align: center; margin-top: 2em; }
.ending p.the-end { margin-top: 0.2em; }
.sheet .start { font-size: 0.8em; color: #555; }
table.dice td { text-align: center; min-width: 1.5em; }
figure.picture { margin: 1em 0; text-align: center; }
figure.picture img { max-width: 100%; }
figure.picture figcaption { font-style: italic; font-size: 0.9em; }
"""


def _x(text: Any) -> str:
    """Author text made safe for XML (also quotes, for attributes)."""
    return escape(str(text), quote=True)


def _prose(text: str) -> str:
    """Author prose for the page: escaped, ``**bold**`` as bold and ``*italic*`` as italic."""
    return emphasis(_x(text))


def _page(title: str, body: str, *, epub_type: str | None = None, lang: str = "en") -> str:
    """An XHTML page; its content is one ``main`` landmark, so a screen reader can go straight to it."""
    kind = f' epub:type="{epub_type}"' if epub_type else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
        f'lang="{lang}" xml:lang="{lang}">\n<head>\n<meta charset="utf-8"/>\n<title>{_x(title)}</title>\n'
        '<link rel="stylesheet" type="text/css" href="book.css"/>\n</head>\n'
        f"<body{kind}>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def section_file(number: int) -> str:
    return f"s{number}.xhtml"


def _words(words: list[Words]) -> str:
    return "".join(f'<a class="turn" href="{section_file(w.target)}">{w.target}</a>' if w.target is not None
                   else _x(w.text) for w in words)


def _piece(piece: Piece, numbers: set[int]) -> str:
    if piece.kind == "label":
        return f"<strong>{_x(piece.text)}</strong>"
    if piece.kind == "choice":
        return ""  # read out below the text, in words
    if piece.kind == "exit":
        t = target_number(piece.target, numbers)
        return f'<a href="{section_file(t)}">{_x(piece.text)}</a>' if t is not None else _x(piece.text)
    return _prose(piece.text)


class _Book:
    def __init__(self, graph: CompiledGraph, prepared: Prepared | None = None,
                 pictures: Pictures | None = None) -> None:
        self.graph = graph
        self.pictures = pictures if pictures is not None else load_pictures(graph)
        self.prepared = prepare(graph, prepared)
        self.title = " ".join(str(graph.get("title") or "Untitled adventure").split())
        self.author = " ".join(str(graph.get("author") or "").split())
        self.rules = check_rules(graph.get("rules") or "")
        self.reader = book_rules(graph, self.rules.reader)
        self.dice = uses_random_branches(graph)
        self.placed = creatures_by_entry(graph)  # each entry's own stat blocks, found once
        self.front = {c["name"] for c in bestiary(graph)}
        self.date = date_of_build()
        self.entries = entries_in_order(graph)
        self.numbers = {e["number"] for e in self.entries}
        self.labels = label_numbers(graph)
        self.creatures = creatures_by_name(graph)
        digest = hashlib.sha256(f"{self.title}\0{self.author}\0{graph.get('source', '')}".encode()).digest()
        self.identifier = f"urn:uuid:{uuid.UUID(bytes=digest[:16], version=5)}"

    # --- pages -------------------------------------------------------------------------------

    def cover_svg(self) -> str:
        lines = _wrap(self.title, 22)[:4]
        ys = range(300, 300 + 70 * len(lines), 70)
        title = "".join(f'<text x="300" y="{y}" font-size="52" text-anchor="middle" font-family="serif" '
                        f'fill="#f4ecd8">{_x(line)}</text>' for y, line in zip(ys, lines, strict=False))
        by = (f'<text x="300" y="760" font-size="30" text-anchor="middle" font-family="serif" fill="#e0d2b0">'
              f"{_x(self.author)}</text>") if self.author else ""
        return ('<?xml version="1.0" encoding="utf-8"?>\n'
                '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900">'
                '<rect width="600" height="900" fill="#2b2118"/>'
                '<rect x="30" y="30" width="540" height="840" fill="none" stroke="#c9a227" stroke-width="4"/>'
                f"{title}{by}</svg>\n")

    def cover_page(self) -> str:
        by = f'<p class="byline">by {_x(self.author)}</p>' if self.author else ""
        intro = "".join(f'<p class="introduction">{_prose(p)}</p>' for p in self.graph.get("introduction") or [])
        body = (f'<section class="cover" epub:type="cover"><img src="cover.svg" alt="{_x(self.title)}" '
                f'style="max-width:100%;max-height:60vh"/><h1>{_x(self.title)}</h1>{by}</section>{intro}')
        return _page(self.title, body, epub_type="frontmatter")

    def rules_page(self) -> str:
        items = [f"<p>{_x(line)}</p>" for line in how_checks_work(self.rules)]
        start = self.graph.get("start")
        if isinstance(start, int) and start in self.numbers:
            items.append(f'<p>Begin at <a class="turn" href="{section_file(start)}">section {start}</a>.</p>')
            items += [f"<p>{_x(line)}</p>" for line in way_out_lines(start)]
        parts = ["<section epub:type=\"preface\"><h1>How to play</h1>", *items]
        for section in self.reader["sections"]:
            parts.append(f"<h2>{_x(section['heading'])}</h2>")
            parts += [f"<p>{_x(line)}</p>" for line in section["lines"]]
        if self.graph.get("encounters"):
            rows = "".join(f"<tr><td>{roll_label(r['low'], r['high'])}</td><td>{_x(r['text'])}</td></tr>"
                           for r in self.graph["encounters"])
            parts.append(f"<h2>Encounters</h2><p>Roll 1d{encounter_die(self.graph)}.</p>"
                         f"<table><tr><th>Roll</th><th>Encounter</th></tr>{rows}</table>")
        if zones := zone_rows(self.graph, self.reader):
            rows = "".join(f"<tr><td>{_x(s)}</td><td>{_x(z)}</td><td>{_x(w)}</td></tr>" for s, z, w in zones)
            parts.append("<h2>Zones</h2><table><tr><th>Sections</th><th>Zone</th><th>Encounter check</th></tr>"
                         f"{rows}</table>")
        hazards = [h for h in self.graph.get("hazards") or [] if h["entry"] is None and not h["error"]]
        if hazards:
            parts.append('<h2 id="hazards">Hazards</h2>')
            parts += [self.hazard(h) for h in hazards]
        creatures = bestiary(self.graph)
        if creatures:
            parts.append('<h2 id="creatures">Creatures</h2>')
            parts += [self.stats(c) for c in creatures]
        parts.append("</section>")
        return _page("How to play", "\n".join(parts))

    def hazard(self, hazard: Hazard) -> str:
        lines = "".join(f"<li>{_x(line)}</li>" for line in hazard_words(hazard, self.reader))
        return f'<div class="hazard"><p class="hazard-name">Hazard: {_x(hazard["name"])}</p><ul>{lines}</ul></div>'

    @staticmethod
    def stats(creature: Creature) -> str:
        rows = "".join(f"<tr><th>{_x(k)}</th><td>{_x(v)}</td></tr>" for k, v in stat_rows(creature))
        return f'<table class="stats"><caption>{_x(creature["name"])}</caption>{rows}</table>'

    def sheet_page(self) -> str:
        rows = []
        for line in sheet_lines(self.graph, self.reader):
            start = f'<span class="start">{_x(line["start"])}</span>' if line["start"] else ""
            rows.append(f'<tr><th>{_x(line["label"])}</th><td class="blank">{start}</td></tr>')
        body = ("<section><h1>Adventure sheet</h1><p>Copy this page, or keep it on paper beside you. Small print "
                f'is what a new adventurer writes there.</p><table class="sheet">{"".join(rows)}</table></section>')
        return _page("Adventure sheet", body)

    def dice_page(self) -> str:
        rows = "".join("<tr>" + "".join(f"<td>{face}</td>" for face in row) + "</tr>" for row in DICE_TABLE)
        body = ("<section epub:type=\"appendix\"><h1>Dice table</h1><p>No dice to hand? Close your eyes and "
                "tap the table: the face you land on is your die. For more dice, read the faces that follow it.</p>"
                f'<table class="dice">{rows}</table></section>')
        return _page("Dice table", body)

    def block(self, entry: Entry, block: Block) -> str:
        if block.kind == "para":
            body = close_gaps("".join(_piece(p, self.numbers) for p in block.pieces)).strip()
            return f"<p>{body}</p>" if body else ""
        if block.kind == "hazard":
            card = hazard_card(self.graph, block.name, entry["number"])
            if card is not None and card["entry"] == entry["number"]:
                return self.hazard(card)
            check = hazard_words(card, self.reader)[:1] if card is not None and card["check"] else []
            said = "".join(f"<p>{_x(line)}</p>" for line in check)
            return (f'<div class="hazard"><p class="hazard-name">Hazard: {_x(block.name)}</p>{said}'
                    '<p>Its whole card is under <a href="rules.xhtml#hazards">Hazards</a>.</p></div>')
        if block.kind == "zone":
            return f'<p class="zone">Zone: {_x(entry_zone(entry) or block.name)}</p>'
        if block.kind == "stats" and block.creature is not None:
            ways = []
            for said, to in fight_outcomes(block.creature):
                t = target_number(to, self.numbers)
                number = f'<a class="turn" href="{section_file(t)}">{t}</a>' if t is not None else _x(to)
                ways.append(f"<li>{_x(said)}, turn to {number}.</li>")
            return self.stats(block.creature) + (f'<ul class="choices">{"".join(ways)}</ul>' if ways else "")
        if block.kind == "image":
            picture = self.pictures.found.get(block.name)
            words = f"<figcaption>{_x(block.alt)}</figcaption>" if block.alt else ""
            if picture is None:
                return f'<figure class="picture">{words}</figure>' if words else ""
            return f'<figure class="picture"><img src="{picture.name}" alt="{_x(block.alt)}"/>{words}</figure>'
        if block.kind == "ending":
            return (f'<div class="ending"><p class="ending-kind">{_x(ENDING_HEADS.get(block.name, "An ending"))}</p>'
                    '<p class="the-end">The End</p></div>')
        return ""

    def entry_page(self, entry: Entry) -> str:
        n = entry["number"]
        parts = [f'<section epub:type="chapter" id="section-{n}"><h1 class="number">{n}</h1>']
        own = self.placed.get(n, [])
        parts += [self.block(entry, b) for b in blocks(entry, self.prepared.pieces(entry), own, paragraphs)]
        front = self.front
        named = [c for c in entry["creatures"] if c in front and all(c != o["name"] for o in own)]
        if named:
            parts.append(f'<p class="foes">Creatures here: {_x(", ".join(named))} (see '
                         '<a href="rules.xhtml#creatures">Creatures</a>).</p>')
        choices = [choice_sentence(c, self.rules, self.numbers, self.labels)
                   for c in entry["choices"] if not c.get("error")]
        backs = sorted({t for x in entry["exits"] if x["kind"] == "return"
                        and (t := target_number(x["target"], self.numbers)) is not None})
        items = [f"<li>{_words(words)}</li>" for words in choices]
        if backs:
            links = ", ".join(f'<a class="turn" href="{section_file(t)}">{t}</a>' for t in backs)
            items.append(f"<li>Return to the section you came from: {links}.</li>")
        if items:
            parts.append(f'<ul class="choices">{"".join(items)}</ul>')
        parts.append("</section>")
        return _page(f"{self.title}: {n}", "\n".join(p for p in parts if p))

    def nav(self) -> str:
        items = ['<li><a href="cover.xhtml">Cover</a></li>', '<li><a href="rules.xhtml">How to play</a></li>',
                 '<li><a href="sheet.xhtml">Adventure sheet</a></li>']
        numbers = [e["number"] for e in self.entries]
        if numbers:
            groups = [numbers[i:i + 50] for i in range(0, len(numbers), 50)]
            inner = "".join(f'<li><a href="{section_file(g[0])}">Sections {g[0]}–{g[-1]}</a></li>'
                            if len(g) > 1 else f'<li><a href="{section_file(g[0])}">Section {g[0]}</a></li>'
                            for g in groups)
            items.append(f'<li><a href="{section_file(numbers[0])}">Sections</a><ol>{inner}</ol></li>')
        if self.dice:
            items.append('<li><a href="dice.xhtml">Dice table</a></li>')
        landmarks = ('<nav epub:type="landmarks" hidden="hidden"><ol>'
                     '<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>'
                     '<li><a epub:type="bodymatter" href="rules.xhtml">How to play</a></li></ol></nav>')
        body = (f'<nav epub:type="toc" id="toc"><h1>{_x(self.title)}</h1><ol>{"".join(items)}</ol></nav>'
                f"{landmarks}")
        return _page("Contents", body)

    def package(self) -> str:
        manifest = [
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
            '<item id="css" href="book.css" media-type="text/css"/>',
            '<item id="cover-image" href="cover.svg" media-type="image/svg+xml" properties="cover-image"/>',
            f'<item id="cover" href="cover.xhtml" media-type="{XHTML}"/>',
            f'<item id="rules" href="rules.xhtml" media-type="{XHTML}"/>',
            f'<item id="sheet" href="sheet.xhtml" media-type="{XHTML}"/>',
        ]
        spine = ['<itemref idref="cover"/>', '<itemref idref="nav"/>', '<itemref idref="rules"/>',
                 '<itemref idref="sheet"/>']
        for e in self.entries:
            n = e["number"]
            manifest.append(f'<item id="s{n}" href="{section_file(n)}" media-type="{XHTML}"/>')
            spine.append(f'<itemref idref="s{n}"/>')
        for n, picture in enumerate(self.pictures.found.values(), 1):
            manifest.append(f'<item id="picture-{n}" href="{picture.name}" media-type="{picture.media_type}"/>')
        if self.dice:
            manifest.append(f'<item id="dice" href="dice.xhtml" media-type="{XHTML}"/>')
            spine.append('<itemref idref="dice"/>')
        creator = f"<dc:creator>{_x(self.author)}</dc:creator>" if self.author else ""
        creator += f"\n<dc:date>{self.date}</dc:date>\n<dc:subject>gamebook</dc:subject>"
        creator += f"\n<dc:description>A gamebook for {_x(self.reader['title'])}</dc:description>"
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="en">\n'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
            f'<dc:identifier id="book-id">{self.identifier}</dc:identifier>\n'
            f"<dc:title>{_x(self.title)}</dc:title>\n<dc:language>en</dc:language>\n{creator}\n"
            f'<meta property="dcterms:modified">{MODIFIED}</meta>\n'
            "</metadata>\n"
            f"<manifest>\n{chr(10).join(manifest)}\n</manifest>\n"
            f"<spine>\n{chr(10).join(spine)}\n</spine>\n</package>\n"
        )


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[: width * 2])
    return lines or [""]


CONTAINER = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
    '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n'
    "</container>\n"
)


def render_epub(graph: CompiledGraph, *, prepared: Prepared | None = None, pictures: Pictures | None = None) -> bytes:
    """The book as an EPUB 3 archive (bytes); ``prepared``: the book's pieces, shared with other editions;
    ``pictures``: its illustrations (read by :func:`dtc.editions.pictures.load` when not given)."""
    book = _Book(graph, prepared, pictures)
    files: list[tuple[str, str]] = [
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", book.package()),
        ("OEBPS/nav.xhtml", book.nav()),
        ("OEBPS/book.css", CSS),
        ("OEBPS/cover.svg", book.cover_svg()),
        ("OEBPS/cover.xhtml", book.cover_page()),
        ("OEBPS/rules.xhtml", book.rules_page()),
        ("OEBPS/sheet.xhtml", book.sheet_page()),
    ]
    files += [(f"OEBPS/{section_file(e['number'])}", book.entry_page(e)) for e in book.entries]
    if book.dice:
        files.append(("OEBPS/dice.xhtml", book.dice_page()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        first = zipfile.ZipInfo("mimetype", STAMP)
        first.compress_type = zipfile.ZIP_STORED
        archive.writestr(first, MIMETYPE)
        for name, text in files:
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8"))
        for picture in book.pictures.found.values():
            info = zipfile.ZipInfo(f"OEBPS/{picture.name}", STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, picture.data)
    return out.getvalue()
