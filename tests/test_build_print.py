"""The print edition: Markdown, HTML for paper, and the optional PDF."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import types
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dtc.compiler.api import compile_text
from dtc.editions import build, render_markdown, render_print_html
from dtc.editions.book import asset
from dtc.editions.print import SHORT
from helpers.tower import CARVING, HALL, TOWER, tower_graph

#: Entries written out of order, one long one, and markup that must stay inert.
SHUFFLED = """\
Title: Order <b>matters</b>

Adventure Entries

3 Third. # not a heading
- not a list item either. THE END

1 First. Take the **Door** (D0, S2) or the | pipe | (D1, S3, F2).

2 Second. {long} Go to 3.
"""


def shuffled_graph() -> dict[str, Any]:
    return compile_text(SHUFFLED.replace("{long}", "Words go on. " * 150), "order.txt").graph()


def test_markdown_entries_in_number_order_with_bold_labels() -> None:
    md = render_markdown(shuffled_graph())
    heads = re.findall(r"^### (\d+)$", md, re.M)
    assert heads == ["1", "2", "3"]
    assert "**Door**" in md and "(D0, S2)" not in md  # the notation is read out below, in words
    assert "- Door: turn to **2**." in md
    assert "**Door** (D0, S2)" in render_markdown(shuffled_graph(), notation=True)
    assert md.startswith("# Order &lt;b&gt;matters&lt;/b&gt;\n")


def test_markdown_keeps_author_text_inert() -> None:
    md = render_markdown(tower_graph())
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in md and "<script" not in md
    assert "&lt;img src=x onerror=" in md and "<img" not in md
    shuffled = render_markdown(shuffled_graph())
    assert "\\- not a list item" in shuffled  # a line of prose never becomes a list item


def test_markdown_tables() -> None:
    md = render_markdown(tower_graph())
    assert "| Roll | Encounter |" in md and "| 2–3 | 1 Gull Swarm |" in md
    assert "Roll 1d4." in md
    assert "| Gull Swarm | |" in md and "| Special | blinds you on a 6 |" in md
    hall = md.split("\n### 5\n", 1)[1].split("\n### ", 1)[0]
    assert "| Crabman | |\n| --- | --- |\n| HP | 4 |" in hall  # the stat block in its entry, as a table
    assert "Crabman HP 4" not in md  # and never again as raw text


def test_labels_print_as_numbers() -> None:
    for text in (render_markdown(tower_graph()), render_print_html(tower_graph()).split("</style>")[1]):
        assert "@" not in text.replace("tests@example.org", "")
        assert "(DEX D2, S3, F4)" not in text and f"Return to {HALL}." in text
        assert re.search(r"If you succeed, turn to (\*\*|<strong class=\"turn\">)3(\*\*|</strong>); "
                         r"if you fail, turn to (\*\*|<strong class=\"turn\">)4", text)


def test_print_html_order_breaks_and_escaping() -> None:
    html = render_print_html(shuffled_graph())
    order = re.findall(r'<article class="entry (short|long)" id="entry-(\d+)">', html)
    assert [n for _, n in order] == ["1", "2", "3"]
    sizes = dict((n, size) for size, n in order)
    assert sizes == {"1": "short", "2": "long", "3": "short"}
    assert "<strong>Door</strong>" in html and "(D0, S2)" not in html
    assert '<li>Door: turn to <strong class="turn">2</strong>.</li>' in html
    assert '<span class="notation">(D0, S2)</span>' in render_print_html(shuffled_graph(), notation=True)
    assert "Order &lt;b&gt;matters&lt;/b&gt;" in html
    css = asset("print.css")
    assert re.search(r"\.entry\.short\s*\{[^}]*break-inside:\s*avoid", css)
    assert re.search(r"\.entry \.number\s*\{[^}]*break-after:\s*avoid", css)
    assert len("Words go on. " * 150) > SHORT


def test_print_html_tables_and_rules() -> None:
    html = render_print_html(tower_graph())
    assert '<table class="encounters"><caption>Roll 1d4</caption>' in html
    hall = html.split(f'id="entry-{HALL}"', 1)[1].split("</article>", 1)[0]
    assert "<caption>Crabman</caption><tr><th>HP</th><td>4</td></tr>" in hall
    assert "An ability check rolls 2d6 at difficulty 1, 3d6 at difficulty 2 and 4d6 at difficulty 3" in html
    assert "Crabman HP 4" not in html
    assert "S and F" in html and 'class="sheet"' in html  # the notation explained; an adventure sheet
    carving = html.split(f'id="entry-{CARVING}"', 1)[1].split("</article>", 1)[0]
    assert "&lt;script&gt;" in carving and "<script" not in html


def test_sample_dungeon_print_edition(sample_text: str) -> None:
    graph = compile_text(sample_text, "sample.txt").graph()
    html = render_print_html(graph)
    assert len(re.findall(r'<article class="entry', html)) == 31
    assert "<strong>Frog Mouth</strong>" in html
    md = render_markdown(graph)
    assert len(re.findall(r"^### [0-9]+$", md, re.M)) == 31


class _FakeHTML:
    def __init__(self, string: str) -> None:
        self.string = string

    def write_pdf(self, target: str) -> None:
        if "FAIL" in self.string:
            Path(target).write_bytes(b"%PDF-partial")
            raise ValueError("cannot lay out\nsecond line")
        Path(target).write_bytes(b"%PDF-1.7 fake " + self.string[:20].encode())


def test_pdf_written_when_weasyprint_is_importable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", types.SimpleNamespace(HTML=_FakeHTML))
    result = build(tower_graph(), tmp_path, "tower")
    pdf = tmp_path / "tower.pdf"
    assert pdf in result.written and pdf.read_bytes().startswith(b"%PDF")
    assert not list(tmp_path.glob(".*.tmp"))


def test_pdf_failure_keeps_the_rest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", types.SimpleNamespace(HTML=_FakeHTML))
    graph = tower_graph()
    graph["title"] = "FAIL"
    result = build(graph, tmp_path, "tower")
    assert not (tmp_path / "tower.pdf").exists() and not list(tmp_path.glob(".*"))
    assert result.warnings[-1] == "PDF skipped: WeasyPrint failed: cannot lay out"
    assert (tmp_path / "tower.print.html").exists()


def test_no_pdf_without_weasyprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import fails
    result = build(tower_graph(), tmp_path, "tower")
    assert not (tmp_path / "tower.pdf").exists() and not result.warnings[1:]


def test_real_weasyprint_pdf(tmp_path: Path) -> None:
    pytest.importorskip("weasyprint", reason="WeasyPrint is optional")
    build(compile_text(TOWER, "tower.txt").graph(), tmp_path, "tower")
    assert (tmp_path / "tower.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) reads the PDF's pages")
def test_real_pdf_reads_like_a_gamebook(tmp_path: Path) -> None:
    """Running heads name the first and last section of each page; choices are read out in words."""
    pytest.importorskip("weasyprint", reason="WeasyPrint is optional")
    chapel = Path(__file__).resolve().parent.parent / "adventures" / "the-drowned-chapel.txt"
    build(compile_text(chapel.read_text(encoding="utf-8"), "chapel.txt").graph(), tmp_path, "chapel")
    pages = subprocess.run(["pdftotext", "-layout", str(tmp_path / "chapel.pdf"), "-"], capture_output=True,
                           text=True, timeout=60, check=True).stdout.split("\f")
    with_sections = [p for p in pages if re.search(r"turn to [0-9]+", p)]
    assert with_sections, "no page reads a choice out"
    for page in with_sections:
        lines = [line for line in page.strip().splitlines() if line.strip()]
        head = lines[0].split()
        numbers = [int(line) for line in lines[1:-1] if line.strip().isdigit()]  # the last is the page number
        assert len(head) == 2 and all(w.isdigit() for w in head), head  # first and last section
        if numbers:  # the first is the section the page starts in, carried over or begun at its top
            assert int(head[0]) <= min(numbers) and int(head[1]) == max(numbers), (head, numbers)
    text = "".join(pages)
    assert "If you succeed, turn to 7; if you fail, turn to 15." in " ".join(text.split())
    assert "Adventure sheet" in text


def test_the_introduction_is_in_every_edition() -> None:
    src = ("Title: The Gull Stair\nStart: 1\n\nThe Gull Stair\n\nA short climb for one <adventurer>.\nBring rope.\n\n"
           "Nobody has come back.\n\nAdventure Entries\n\n1 Up you go. THE END\n")
    graph = compile_text(src, "gull.txt").graph()
    assert graph["introduction"] == ["A short climb for one <adventurer>. Bring rope.", "Nobody has come back."]
    from dtc.editions.epub import render_epub
    from dtc.editions.web import render_web

    shown = "A short climb for one &lt;adventurer&gt;. Bring rope."
    assert shown in render_markdown(graph) and shown in render_print_html(graph) and shown in render_web(graph)
    cover = zipfile.ZipFile(io.BytesIO(render_epub(graph))).read("OEBPS/cover.xhtml").decode()
    assert shown in cover and "Nobody has come back." in cover


_OLD_GAP = re.compile(r"[ \t]+(?=[.,;:!?)\]”’]|$)|(?<= )[ \t]+")


@given(st.text(alphabet=" \t\n.,)’”ab*", max_size=40))
def test_close_gaps_is_the_gap_regex(text: str) -> None:
    """The faster gap closer gives what the one regex gave, tabs, line ends and punctuation included."""
    from dtc.editions.print import close_gaps

    without_line_gaps = re.sub(r"[ \t]*\n[ \t]*(?=[.,;:!?)\]”’])", "", text)
    assert close_gaps(text) == _OLD_GAP.sub("", without_line_gaps)
