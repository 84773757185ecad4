#!/usr/bin/env python3
"""Regenerate the pictures of the print edition's pages in docs/img/, one per game system.

    python scripts/print_pages.py

Builds, in a temporary folder, the PDF of one bundled book of each system (``dtc build``, which
needs WeasyPrint: ``pip install '.[pdf]'``) and draws four of its pages side by side into
``docs/img/print-SYSTEM.png``: the title page, the first page of "How to play", the adventure
sheet and the first page of sections. The pages are drawn by pypdfium2 (``pip install
pypdfium2``); Pillow puts them side by side. Where Playwright and Chromium are installed
(``DTC_CHROMIUM``, default /usr/bin/chromium) it also photographs section 6 of The Chime Pits'
ebook (a hazard's block) into ``docs/img/epub-dungeon-rules.png``. Nothing is fetched from the
network.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
#: The book that shows each system.
BOOKS = {"death-and-treasure": "the-drowned-chapel", "maze-rats": "the-tallow-king", "zilch": "the-glass-orchard",
         "dungeon-rules": "the-chime-pits"}
SCALE = 0.8


def _pages(pdf: Any) -> list[int]:
    """The title page, the first of "How to play", the adventure sheet and the first sections."""
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    how = next((i for i, t in enumerate(texts) if "How to play" in t), 0)
    sheet = next((i for i, t in enumerate(texts) if "Adventure sheet" in t and "Copy this page" in t), how)
    return [0, how if how else 1, sheet, min(sheet + 1, len(texts) - 1)]


def ebook_page(scratch: Path) -> None:
    """Section 6 of The Chime Pits' ebook, as an e-reader's page (skipped without Playwright)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("print_pages: Playwright is not installed; the ebook's page is not redrawn", file=sys.stderr)
        return
    subprocess.run([sys.executable, "-m", "dtc", "build", str(ROOT / "adventures" / "the-chime-pits.txt"), "-o",
                    str(scratch), "--no-pdf", "--epub"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    unpacked = scratch / "epub"
    with zipfile.ZipFile(scratch / "the-chime-pits.epub") as archive:
        archive.extractall(unpacked)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("DTC_CHROMIUM", "/usr/bin/chromium"),
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 560, "height": 520})
        page.goto((unpacked / "OEBPS" / "s6.xhtml").as_uri())
        target = IMG / "epub-dungeon-rules.png"
        page.screenshot(path=str(target))
        browser.close()
    print(f"wrote {target.relative_to(ROOT)}")


def main() -> int:
    try:
        import pypdfium2  # type: ignore[import-untyped, import-not-found, unused-ignore]
        from PIL import Image
    except ImportError as exc:
        print(f"print_pages: {exc.name} is not installed (pip install pypdfium2 pillow)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="dtc-print-pages-") as scratch:
        for system, book in BOOKS.items():
            subprocess.run([sys.executable, "-m", "dtc", "build", str(ROOT / "adventures" / f"{book}.txt"), "-o",
                            scratch], check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            pdf = pypdfium2.PdfDocument(str(Path(scratch) / f"{book}.pdf"))
            shots = [pdf[i].render(scale=SCALE).to_pil() for i in dict.fromkeys(_pages(pdf))]
            gap = 12
            sheet = Image.new("RGB", (sum(s.width for s in shots) + gap * (len(shots) + 1),
                                      max(s.height for s in shots) + 2 * gap), "#d8d8d8")
            x = gap
            for shot in shots:
                sheet.paste(shot, (x, gap))
                x += shot.width + gap
            target = IMG / f"print-{system}.png"
            sheet.save(target, optimize=True)
            print(f"wrote {target.relative_to(ROOT)}")
        ebook_page(Path(scratch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
