"""Illustrations: an ``Image:`` line (or a Markdown image) in an entry is recorded in the compiled
graph and placed in the print edition (embedded) and the ebook (a file of its own); a picture
outside the book's folder, of another kind, or missing is left out with one warning line."""

from __future__ import annotations

import base64
import io
import zipfile
from pathlib import Path

from click.testing import CliRunner

from dtc.cli import main
from test_build_epub import check_structure

#: A 1×1 PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
                       "AAAABJRU5ErkJggg==")
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'

BOOK = """Title: The Painted Stair
Start: 1

Adventure Entries

1 A stair goes down into the dark.
Image: art/stair.png | a stair going <down> & round
Go **Down** (D0, S2) or **Back** (D0, S3).

2 ![a red door](art/door.svg) A door at the foot. THE END

3 Outside again.
Image: ../outside.png
Image: art/gone.png | a picture nobody drew
Image: art/notes.txt
THE END
"""


def built(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "stair.png").write_bytes(PNG)
    (tmp_path / "art" / "door.svg").write_bytes(SVG)
    (tmp_path / "art" / "notes.txt").write_text("not a picture", encoding="utf-8")
    (tmp_path / "book.txt").write_text(BOOK, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(tmp_path / "book.txt"), "-o", str(out), "--no-pdf", "--epub"])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_pictures_are_recorded_and_placed(tmp_path: Path) -> None:
    import json

    out, _ = built(tmp_path)
    graph = json.loads((out / "book.json").read_text(encoding="utf-8"))
    assert graph["format_version"] == 3
    assert graph["entries"][0]["images"] == [{"src": "art/stair.png", "alt": "a stair going <down> & round",
                                              "line": 7}]
    assert graph["entries"][1]["images"] == [{"src": "art/door.svg", "alt": "a red door", "line": 10}]
    page = (out / "book.print.html").read_text(encoding="utf-8")
    assert page.count('<figure class="picture"><img src="data:image/png;base64,') == 1
    assert page.count('<img src="data:image/svg+xml;base64,') == 1
    assert "a stair going &lt;down&gt; &amp; round" in page and "<down>" not in page
    assert "Image:" not in page and "![" not in page and "art/stair.png" not in page
    assert "a picture nobody drew" in page  # a missing picture keeps its words
    archive = zipfile.ZipFile(io.BytesIO((out / "book.epub").read_bytes()))
    pages = check_structure((out / "book.epub").read_bytes())  # every picture listed in the manifest
    assert archive.read("OEBPS/images/picture-1.png") == PNG and archive.read("OEBPS/images/picture-2.svg") == SVG
    assert pages["OEBPS/s1.xhtml"] is not None
    first = archive.read("OEBPS/s1.xhtml").decode()
    assert '<img src="images/picture-1.png" alt="a stair going &lt;down&gt; &amp; round"/>' in first
    assert 'media-type="image/svg+xml"' in archive.read("OEBPS/content.opf").decode()
    markdown = (out / "book.md").read_text(encoding="utf-8")
    assert "*(Illustration: a red door)*" in markdown and "![" not in markdown


def test_pictures_outside_the_book_are_left_out_with_a_warning(tmp_path: Path) -> None:
    out, said = built(tmp_path)
    lines = [line for line in said.splitlines() if "left out" in line]
    assert len(lines) == 3, said
    assert "book.txt:13:1: picture '../outside.png' left out:" in lines[0]
    assert "book.txt:14:1: picture 'art/gone.png' left out: no such file beside the book" in lines[1]
    assert "book.txt:15:1: picture 'art/notes.txt' left out: not a picture" in lines[2]
    assert not (out / "outside.png").exists()
