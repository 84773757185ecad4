"""The ebook edition (``dtc build --epub``): a valid EPUB 3 whose links play the book.

A structural check always runs (archive order, package document, manifest and spine, navigation,
every page well-formed XML, every link landing on a page of the book, author text escaped);
epubcheck runs too where it is installed; Chromium opens the pages and follows a choice.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.editions.epub import MIMETYPE, render_epub
from helpers.browser import browser  # noqa: F401 - the fixture
from helpers.runtime import compiled

ROOT = Path(__file__).resolve().parent.parent
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"
NS = {"opf": "http://www.idpf.org/2007/opf", "x": "http://www.w3.org/1999/xhtml",
      "dc": "http://purl.org/dc/elements/1.1/", "c": "urn:oasis:names:tc:opendocument:xmlns:container"}

HOSTILE = """Title: <script>alert(1)</script> & "Friends"
Author: O'Brien <b>&amp;</b>
Start: 1

Adventure Entries

1 A **door** <img src=x onerror=alert(2)> & a gap (DEX D2, S2, F3). Or go to 3.

2 Out. THE END

3 Home & dry. THE END
"""


def chapel_epub(tmp_path: Path) -> Path:
    result = CliRunner().invoke(main, ["build", str(CHAPEL), "-o", str(tmp_path), "--no-pdf", "--epub"])
    assert result.exit_code == 0, result.output
    return tmp_path / "the-drowned-chapel.epub"


def check_structure(data: bytes) -> dict[str, ElementTree.Element]:
    """Everything an EPUB 3 reading system relies on; the parsed XHTML pages by archive name."""
    archive = zipfile.ZipFile(__import__("io").BytesIO(data))
    infos = archive.infolist()
    assert infos[0].filename == "mimetype" and infos[0].compress_type == zipfile.ZIP_STORED
    assert archive.read("mimetype") == MIMETYPE.encode() and not infos[0].extra
    names = set(archive.namelist())
    container = ElementTree.fromstring(archive.read("META-INF/container.xml"))
    rootfile = container.find(".//c:rootfile", NS)
    assert rootfile is not None
    opf_name = rootfile.attrib["full-path"]
    package = ElementTree.fromstring(archive.read(opf_name))
    assert package.attrib["version"] == "3.0"
    meta = package.find("opf:metadata", NS)
    assert meta is not None
    ident = meta.find("dc:identifier", NS)
    assert ident is not None and ident.attrib["id"] == package.attrib["unique-identifier"] and ident.text
    assert meta.find("dc:title", NS) is not None and meta.find("dc:language", NS) is not None
    assert any(m.attrib.get("property") == "dcterms:modified" for m in meta.findall("opf:meta", NS))
    base = PurePosixPath(opf_name).parent
    manifest = {i.attrib["id"]: i for i in package.findall("opf:manifest/opf:item", NS)}
    for item in manifest.values():
        assert str(base / item.attrib["href"]) in names, item.attrib["href"]
    assert [i for i in manifest.values() if "nav" in i.attrib.get("properties", "").split()]
    spine = [r.attrib["idref"] for r in package.findall("opf:spine/opf:itemref", NS)]
    assert spine and all(ref in manifest for ref in spine)
    pages: dict[str, ElementTree.Element] = {}
    for item in manifest.values():
        if item.attrib["media-type"] == "application/xhtml+xml":
            name = str(base / item.attrib["href"])
            pages[name] = ElementTree.fromstring(archive.read(name))  # well-formed XML, or this raises
    listed = {str(base / i.attrib["href"]) for i in manifest.values()}
    for name, page in pages.items():
        for a in page.iter(f"{{{NS['x']}}}a"):
            href = a.attrib["href"].split("#")[0]
            if href:
                assert str(PurePosixPath(name).parent / href) in listed, f"{name} links to {href}"
        assert page.find(".//x:script", NS) is None
        assert not [e for e in page.iter() if any(k.startswith("on") for k in e.attrib)]
    return pages


def test_the_chapel_builds_a_valid_epub(tmp_path: Path) -> None:
    data = chapel_epub(tmp_path).read_bytes()
    pages = check_structure(data)
    sections = [n for n in pages if re.fullmatch(r"s[0-9]+\.xhtml", PurePosixPath(n).name)]
    graph = compiled(CHAPEL.read_text(encoding="utf-8"))
    assert len(sections) == len({e["number"] for e in graph["entries"]})
    text = ElementTree.tostring(pages["OEBPS/s1.xhtml"], encoding="unicode", method="text")
    assert "If you succeed, turn to 7; if you fail, turn to 15." in text
    assert "(DEX D2, S7, F15)" not in text  # the notation is read out in words, not printed raw
    assert "**" not in text


def test_the_same_book_gives_the_same_bytes(tmp_path: Path) -> None:
    graph = compiled(CHAPEL.read_text(encoding="utf-8"))
    assert render_epub(graph) == render_epub(graph)


def test_author_text_is_escaped() -> None:
    pages = check_structure(render_epub(compiled(HOSTILE)))
    first = ElementTree.tostring(pages["OEBPS/s1.xhtml"], encoding="unicode", method="text")
    assert "<img src=x onerror=alert(2)>" in first  # shown as text, not markup
    nav = ElementTree.tostring(pages["OEBPS/nav.xhtml"], encoding="unicode", method="text")
    assert "<script>alert(1)</script>" in nav


def epubcheck() -> list[str] | None:
    """How to run epubcheck here (Debian ships it as a jar), or None."""
    found = shutil.which("epubcheck")
    if found is None:
        return None
    if Path(found).resolve().suffix == ".jar":
        java = shutil.which("java")
        return [java, "-jar", str(Path(found).resolve())] if java else None
    return [found]


@pytest.mark.skipif(epubcheck() is None, reason="epubcheck is not installed (apt-get install epubcheck)")
def test_epubcheck_finds_nothing(tmp_path: Path) -> None:
    path = chapel_epub(tmp_path)  # one book: epubcheck starts a Java VM, half a minute here
    done = subprocess.run([*(epubcheck() or []), str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_reader_plays_it_by_its_links_in_chromium(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    data = chapel_epub(tmp_path).read_bytes()
    out = tmp_path / "unpacked"
    zipfile.ZipFile(__import__("io").BytesIO(data)).extractall(out)
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "OEBPS" / "s1.xhtml").as_uri())
    assert page.locator("h1.number").inner_text() == "1"
    page.locator("a.turn", has_text="7").first.click()
    page.wait_for_url("**/s7.xhtml")
    assert page.locator("h1.number").inner_text() == "7"
    page.goto((out / "OEBPS" / "nav.xhtml").as_uri())
    assert page.locator("nav#toc a", has_text="Adventure sheet").count() == 1
    context.close()
    assert errors == []
