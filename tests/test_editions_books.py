"""Every bundled book's print edition (HTML, Markdown, the PDF where WeasyPrint is installed) and
ebook, read as a reader with only the book and dice would: each kind of roll the book uses is
explained in its system's words, each hazard and stat block appears once, the sheet has the
system's lines and the book's possessions, nothing raw of the notation or the markup is left, and
the metadata is set."""

from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dtc.compiled.graphjson import CompiledGraph, Creature
from dtc.compiler.api import compile_text
from dtc.editions import build
from dtc.editions.book import stat_rows
from dtc.editions.epub import render_epub
from dtc.editions.print import render_markdown, render_print_html
from dtc.editions.reader import bestiary, book_rules, effects_words, own_creatures
from dtc.systems import find_system, get_ruleset, parse_rules
from dtc.systems.reference import describe, roll_words

ROOT = Path(__file__).resolve().parent.parent
BOOKS = sorted((ROOT / "adventures").glob("*.txt"))
NAMES = [b.stem for b in BOOKS]


@cache
def graph_of(name: str) -> CompiledGraph:
    graph: CompiledGraph = compile_text((ROOT / "adventures" / f"{name}.txt").read_text(encoding="utf-8"),
                                        f"{name}.txt").graph()
    return graph


def text_of(markup: str) -> str:
    """What a reader sees of an HTML or XHTML page: tags out, entities read, spaces joined."""
    markup = re.sub(r"<(style|head)\b.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"</?(?:strong|em|a|span)\b[^>]*>", "", markup)  # inline: no space of their own
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


@cache
def editions(name: str) -> dict[str, str]:
    graph = graph_of(name)
    archive = zipfile.ZipFile(io.BytesIO(render_epub(graph)))
    pages = [archive.read(n).decode() for n in archive.namelist() if n.endswith(".xhtml")]
    return {"print": render_print_html(graph), "md": render_markdown(graph), "epub": "\n".join(pages),
            "opf": archive.read("OEBPS/content.opf").decode()}


def _checks(graph: CompiledGraph) -> set[tuple[str | None, int]]:
    return {(c["ability"], int(c["difficulty"] or 0)) for e in graph["entries"] for c in e["choices"]
            if not c["error"] and c.get("roll") is None and (c["difficulty"] or 0) > 0}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edition", ["print", "epub", "md"])
def test_every_check_says_how_to_roll_it(name: str, edition: str) -> None:
    graph = graph_of(name)
    rules = describe(graph["rules"])
    text = text_of(editions(name)[edition]) if edition != "md" else " ".join(editions(name)["md"].split())
    for ability, difficulty in _checks(graph):
        if difficulty not in get_ruleset(graph["rules"]).difficulties:
            continue  # a mistake lint reports (the Broken Lighthouse's D4)
        words = roll_words(rules, ability, difficulty)
        assert words is not None, (ability, difficulty)
        assert words in text, (name, edition, words)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edition", ["print", "epub"])
def test_every_kind_of_roll_is_explained(name: str, edition: str) -> None:
    graph = graph_of(name)
    text = text_of(editions(name)[edition])
    for section in book_rules(graph)["sections"]:  # wandering creatures only where the book has a table
        for line in section["lines"]:
            assert line in text, (name, line)
    if graph["creatures"]:
        assert "Fights" in text
    if graph.get("hazards"):
        assert "Hazards" in text and "roll d20" in text  # Dungeon Rules hazards roll d20, as play does
    if any(c.get("roll") for e in graph["entries"] for c in e["choices"]):
        assert "Dice table" in text


def test_each_system_says_how_a_check_is_rolled() -> None:
    """The Maze Rats and Zilch books say what to roll; Dungeon Rules' AGI is a d20, not 3d6."""
    tallow = text_of(editions("the-tallow-king")["print"])
    assert "roll 2d6 and add your" in tallow and "10 or more succeeds" in tallow
    orchard = text_of(editions("the-glass-orchard")["print"])
    assert "roll 3d6, counting each 6 as 0" in orchard
    pits = text_of(editions("the-chime-pits")["print"])
    assert "roll d20: equal to or under your AGI succeeds" in pits
    assert "roll 3d6: a total equal to or under your AGI" not in pits


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edition", ["print", "epub"])
def test_hazards_and_stat_blocks_appear_once(name: str, edition: str) -> None:
    graph = graph_of(name)
    text = text_of(editions(name)[edition])
    for hazard in graph.get("hazards") or []:
        if hazard["fail"] and not hazard["error"]:
            assert text.count(f"Fail: {hazard['fail']}") == 1, hazard["name"]
    tables = [*bestiary(graph), *(c for e in graph["entries"] for c in own_creatures(graph, e))]
    markup = editions(name)[edition]
    expected = Counter(_table(c) for c in tables)
    for creature in tables:
        assert markup.count(_table(creature)) == expected[_table(creature)], creature["name"]
        assert not re.search(rf"{re.escape(creature['name'])} HP [0-9]+ ?\|", text), creature["name"]


def _table(creature: Creature) -> str:
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in stat_rows(creature))
    return f"<caption>{html.escape(creature['name'])}</caption>{rows}</table>"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("edition", ["print", "epub", "md"])
def test_no_raw_notation_or_markup(name: str, edition: str) -> None:
    markup = editions(name)[edition]
    text = text_of(markup) if edition != "md" else markup
    assert not re.search(r"\((?:[A-Z♣♠♦♥]+ )?D[0-9], S", text)  # a choice's notation
    sections = text.split("Adventure sheet")[-1]  # (an introduction may explain the notation)
    if name != "the-broken-lighthouse":  # (whose mistakes, lint's errors, stay as written)
        assert not re.search(r"\[[ \t]*[+-][^\]]*\]", sections)  # effects in brackets
    assert not re.search(r"^(?:Hazard|Zone):.*\|", text, re.M)  # a hazard's card run on
    if edition != "md":
        assert "**" not in text and "__" not in text
    assert " ." not in text.replace(". . .", "")  # no gap before a full stop
    assert "THE END" not in text  # endings are a block of their own ("The End")


@pytest.mark.parametrize("name", NAMES)
def test_endings_are_blocks_headed_by_their_kind(name: str) -> None:
    graph = graph_of(name)
    markup = editions(name)["print"]
    endings = [e for e in graph["entries"] if e["ending"]]
    assert markup.count('<div class="ending">') == len({e["number"] for e in endings})
    for e in endings:
        kind = e.get("ending_kind")
        if kind:
            article = markup.split(f'id="entry-{e["number"]}"', 1)[1].split("</article>", 1)[0]
            assert f'<p class="ending-kind">{kind.capitalize()}</p>' in article


@pytest.mark.parametrize("name", NAMES)
def test_the_sheet_holds_the_system_and_the_book(name: str) -> None:
    graph = graph_of(name)
    base, overlays = parse_rules(graph["rules"])
    for edition in ("print", "epub"):
        text = text_of(editions(name)[edition])
        sheet = text.split("Adventure sheet", 2)[-1]
        for system in (base, *overlays):
            ref = system.reference_card()
            assert ref is not None
            for field in ref.sheet:
                assert field.label in sheet, (name, field.label)
            for ability in ref.abilities:
                assert ability in sheet
        for possession in graph.get("possessions") or []:
            if possession != "coins":
                assert possession[:1].upper() + possession[1:] in sheet or possession in sheet, possession


def test_system_sheets_differ_as_their_rules_do() -> None:
    treasure = text_of(editions("the-drowned-chapel")["print"])
    assert all(f in treasure for f in ("Defense", "Weapon", "Lantern oil", "Coins"))
    rats = text_of(editions("the-tallow-king")["print"])
    assert all(f in rats for f in ("Armour", "Attack bonus", "Health"))
    vault = text_of(editions("the-tidewater-vault")["print"])
    assert "Possessions ☐ Blessing" in vault and "☐ Brass key" in vault and "Codewords ☐ crab-bitten" in vault


def test_effects_read_as_sentences() -> None:
    assert effects_words("[-10 coins, +3 torches]") == "Cross off 10 coins and note 3 torches."
    assert effects_words("[+rope]") == "Note the rope."
    assert effects_words("[+tide-lore]") == "Note the codeword tide-lore."
    assert effects_words("[+20 coins]") == "Add 20 coins."
    vault = text_of(editions("the-tidewater-vault")["print"])
    assert "Cross off 10 coins and note 3 torches." in vault
    assert "Walk Across." in vault and "Walk Across ." not in vault
    assert "Reach In: if you do not have the codeword crab-bitten, roll one die: 1–2, turn to 12; 3–6, turn to 13." \
        in vault


@pytest.mark.parametrize("name", NAMES)
def test_metadata_is_set(name: str) -> None:
    graph = graph_of(name)
    page = editions(name)["print"]
    assert '<html lang="en">' in page and re.search(r'<meta name="dcterms.created" content="[0-9-]{10}">', page)
    opf = editions(name)["opf"]
    assert "<dc:language>en</dc:language>" in opf and re.search(r"<dc:date>[0-9-]{10}</dc:date>", opf)
    if graph["author"]:
        assert f'<meta name="author" content="{html.escape(graph["author"])}">' in page
        assert f"<dc:creator>{html.escape(graph['author'])}</dc:creator>" in opf


def test_the_description_is_plain_data_for_every_system() -> None:
    """Every built-in system describes itself, and the description survives JSON as it is."""
    import json

    for name in ("death-and-treasure", "maze-rats", "zilch", "death-and-treasure + dungeon-rules"):
        rules = describe(name)
        assert json.loads(json.dumps(rules)) == rules
        assert rules["parts"] and rules["sections"] and rules["sheet"]
    assert find_system("zilch") is not None


def _pdf_pages(pdf: Path) -> list[tuple[str, list[str]]] | None:
    """Each page of the PDF as (its running head, its body's lines): pdftotext where installed
    (the head is its first line), else pypdfium2 where importable (which reads the head last,
    before the page number)."""
    if shutil.which("pdftotext"):
        out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, timeout=60,
                             check=True).stdout
        pages = [[line.strip() for line in page.splitlines() if line.strip()] for page in out.split("\f")]
        return [(lines[0], lines[1:-1]) if len(lines) > 2 else ("", lines) for lines in pages]
    try:
        import pypdfium2  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    document: Any = pypdfium2.PdfDocument(str(pdf))
    found = []
    for i in range(len(document)):
        lines = [line.strip() for line in document[i].get_textpage().get_text_range().splitlines() if line.strip()]
        headed = len(lines) > 2 and re.fullmatch(r"[0-9]+(?: [0-9]+)?", lines[-2]) is not None
        found.append((lines[-2], lines[:-2]) if headed else ("", lines[:-1]))  # (the front matter has none)
    return found


@pytest.mark.parametrize("name", ["the-chime-pits", "the-glass-orchard", "the-tidewater-vault"])
def test_the_pdf_reads_as_the_book(name: str, tmp_path: Path) -> None:
    """The PDF holds the rules, the hazards once, the sheet, its metadata, and running heads that
    name the section each page starts in (a section carried over, not the next one begun)."""
    pytest.importorskip("weasyprint", reason="WeasyPrint is optional")
    build(graph_of(name), tmp_path, name, pdf=True)
    pages = _pdf_pages(tmp_path / f"{name}.pdf")
    if pages is None:
        pytest.skip("neither pdftotext nor pypdfium2 reads the PDF here")
    whole = " ".join(" ".join(" ".join(body) for _, body in pages).split())
    assert "How to play" in whole and "Adventure sheet" in whole and "Fights" in whole
    for hazard in graph_of(name).get("hazards") or []:
        assert whole.count(" ".join(f"Fail: {hazard['fail']}".split())) == 1
    sheet = [" ".join(body) for _, body in pages if "Adventure sheet" in " ".join(body)]
    assert sheet and "Notes" in sheet[0]  # the sheet on one page, its last line too
    numbers = {e["number"] for e in graph_of(name)["entries"]}
    current = 0
    for head, body in pages:
        heads = [int(w) for w in head.split() if w.isdigit()]
        begun = [int(line) for line in body if line.isdigit() and int(line) in numbers]
        if current and len(heads) == 2:
            expected = begun[0] if begun and body[0] == str(begun[0]) else current
            assert heads[0] == expected, (heads, current, begun)
        if begun:
            current = max(begun)
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(tmp_path / f"{name}.pdf")], capture_output=True, text=True,
                               timeout=60, check=True).stdout
        assert "yes" in fonts  # embedded


FERRY = """Title: The Ferry Test
Rules: death-and-treasure
Start with: 20 gold crowns, lamp
Limits: gold crowns 50
Start: 1

Adventure Entries

1 A ferry. [+1d10*3 gold crowns] [may +rope] [-rope?] Pay the **Ferryman** (D0, S2, -3 gold crowns, if gold
crowns >= 3). Or **Swim** (D0, S3, if CON >= 12). [+once stone key] **Buy a Lamp** (D0, S2, buy 5 gold crowns).

2 Across. [-all gold crowns] THE END (victory)

3 Wet. THE END (death)
"""


def test_the_published_forms_read_as_sentences() -> None:
    """Random amounts, a loss if held, all of a name, once, may, effects on a choice, compared
    conditions and scores, and what the reader starts with and may hold, all in words."""
    graph: CompiledGraph = compile_text(FERRY, "ferry.txt").graph()
    for page in (text_of(render_print_html(graph)), " ".join(render_markdown(graph).split())):
        for said in ("Roll 1d10 and multiply it by 3: add that many gold crowns.", "You may note the rope.",
                     "Cross off the rope if you have it.", "Note the stone key (only the first time you read this).",
                     "Cross off all your gold crowns.",
                     "Ferryman: if you have 3 gold crowns, cross off 3 gold crowns, then turn to",
                     "Swim: if your CON is 12 or more, turn to"):
            assert said in page, said
        assert "[" not in page.split("Sections")[-1]
    sheet = text_of(render_print_html(graph)).split("Adventure sheet", 1)[1]
    assert "Gold crowns 20; at most 50" in sheet and "☐ Lamp start with it" in sheet and "☐ Stone key" in sheet


@pytest.mark.parametrize("name", NAMES)
def test_every_ebook_is_well_formed(name: str) -> None:
    """Every bundled book's ebook, with its new pages (the dice table) and blocks, keeps the
    structure an EPUB 3 reading system relies on."""
    from test_build_epub import check_structure

    pages = check_structure(render_epub(graph_of(name)))
    assert "OEBPS/rules.xhtml" in pages and "OEBPS/sheet.xhtml" in pages
    if any(c.get("roll") for e in graph_of(name)["entries"] for c in e["choices"]):
        assert "OEBPS/dice.xhtml" in pages


def test_emphasis_is_shown_never_its_marks() -> None:
    src = ("Title: Marks\nStart: 1\n\nAdventure Entries\n\n1 A **Stone Stair** winds *down*; 2 * 3 stays, "
           "and so does a lone *. Go on (D0, S2).\n\n2 Done. THE END\n")
    graph: CompiledGraph = compile_text(src, "marks.txt").graph()
    page = render_print_html(graph)
    archive = zipfile.ZipFile(io.BytesIO(render_epub(graph)))
    for markup in (page, archive.read("OEBPS/s1.xhtml").decode()):
        assert "<strong>Stone Stair</strong>" in markup and "<em>down</em>" in markup
        assert "2 * 3 stays" in markup and "a lone *." in markup and "**" not in markup


def test_a_hazard_written_in_its_section_is_shown_there_once() -> None:
    src = ("Title: Inline Hazard\nRules: death-and-treasure + dungeon-rules\nStart: 1\n\nAdventure Entries\n\n"
           "1 A shaft.\nHazard: Loose Rungs | Check: AGI D2 | Fail: you slip, 1d6 damage | Pass: you hold on\n"
           "Climb **Down** (D0, S2).\n\n2 Down. THE END\n")
    graph: CompiledGraph = compile_text(src, "shaft.txt").graph()
    for markup in (render_print_html(graph), "\n".join(
            zipfile.ZipFile(io.BytesIO(render_epub(graph))).read(n).decode() for n in ("OEBPS/rules.xhtml",
                                                                                      "OEBPS/s1.xhtml"))):
        text = text_of(markup)
        assert text.count("Fail: you slip, 1d6 damage.") == 1
        assert "Hazard: Loose Rungs Check: AGI, difficulty 2: roll d20: equal to or under your AGI succeeds." in text
        assert "| Check" not in text


def test_a_fights_outcomes_on_its_stat_block_are_read_out() -> None:
    """Where a fight leads, written on the stat block (``win S2, lose S3``: a creature's ``exits``),
    is read out under its table, never left raw in the prose."""
    src = ("Title: Toll\nStart: 1\n\nAdventure Entries\n\n1 A bandit bars the bridge.\n"
           "Bridge Bandit HP 3 | Morale 7 | Knife d4\n\n2 Across. THE END\n\n3 Robbed. THE END\n")
    graph: CompiledGraph = compile_text(src, "toll.txt").graph()
    creature: Any = graph["creatures"][0]
    creature["exits"] = {"lose": 3, "win": 2}
    page = text_of(render_print_html(graph))
    assert ("Knife d4 If you win, turn to 2. If you lose (the fight would kill you: instead you come to with 1 HP), "
            "turn to 3.") in page
    assert "Bridge Bandit HP 3 |" not in page
    first = zipfile.ZipFile(io.BytesIO(render_epub(graph))).read("OEBPS/s1.xhtml").decode()
    assert '<li>If you win, turn to <a class="turn" href="s2.xhtml">2</a>.</li>' in first
    assert "- If you lose (the fight would kill you: instead you come to with 1 HP), turn to **3**." in \
        render_markdown(graph)
