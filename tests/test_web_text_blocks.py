"""The web edition cuts an entry's text as the print edition does (dtc.editions.reader.blocks, issue
43): a picture placed where it stands, inlined (the page stays one offline file), its words when
the file is missing; effects in words, never their notation; and How to play in the system's own
words (its reference), as the print edition has them."""

from __future__ import annotations

import base64
import re
from html import escape
from pathlib import Path

import pytest

from dtc.compiler.api import compile_file
from dtc.editions.reader import book_rules
from dtc.editions.web import render_web
from helpers import BUNDLED

#: The smallest PNG there is (a 1×1 transparent pixel).
PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kg"
                         "AAAABJRU5ErkJggg==")

BOOK = """Title: The Well Steps
Rules: death-and-treasure
Start: 1

Adventure Entries

1 Moss-slick steps wind down the inside of the old well.
Image: art/well.png | steps winding down a well shaft
A bucket hangs on its chain. [+bucket] **Climb Down** (D0, S2).

2 At the bottom a puddle holds the sky.
Image: art/gone.png | a puddle at the foot of the well
[-bucket] You leave the bucket here. THE END
"""


def _entry(html: str, n: int) -> str:
    m = re.search(rf'<article id="entry-{n}".*?</article>', html, re.S)
    assert m is not None
    return m.group()


def test_pictures_are_inlined_where_they_stand_and_effects_are_words(tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "well.png").write_bytes(PIXEL)
    book = tmp_path / "well.txt"
    book.write_text(BOOK, encoding="utf-8")
    html = render_web(compile_file(book).graph())
    first, second = _entry(html, 1), _entry(html, 2)
    uri = "data:image/png;base64," + base64.b64encode(PIXEL).decode("ascii")
    assert f'<img src="{uri}" alt="steps winding down a well shaft">' in first
    prose = first[first.index('<div class="prose">'):]
    assert prose.index("Moss-slick") < prose.index("<figure") < prose.index("A bucket hangs")
    assert "Image:" not in html and "art/well.png" not in html and "[+bucket]" not in html
    # a picture that is not there: its words, no picture and no address
    missing = '<figure class="picture missing"><figcaption>a puddle at the foot of the well</figcaption></figure>'
    assert missing in second
    assert "art/gone.png" not in second and "[-bucket]" not in second


@pytest.mark.parametrize("book", BUNDLED, ids=[b.stem for b in BUNDLED])
def test_how_to_play_is_the_systems_one_description(book: Path) -> None:
    """The cover's How to play reads the system's reference (dtc.systems.reference.describe, as the
    print edition does), kind by kind: every heading and line of it, and no copy of its own."""
    graph = compile_file(book).graph()
    html = render_web(graph)
    how = html[html.index("<h2>How to play</h2>"):html.index('<details class="replay')]
    sections = book_rules(graph)["sections"]
    assert sections
    for section in sections:
        assert f"<h3>{escape(section['heading'])}</h3>" in how
        for line in section["lines"]:
            assert f"<li>{escape(line)}</li>" in how, line
