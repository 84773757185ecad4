#!/usr/bin/env python3
"""Regenerate the pictures of the print edition's pages in docs/img/, one per game system.

    python scripts/print_pages.py

Builds, in a temporary folder, the PDF of one bundled book of each system (``dtc build``, which
needs WeasyPrint: ``pip install '.[pdf]'``) and draws four of its pages side by side into
``docs/img/print-SYSTEM.png``: the title page, the first page of "How to play", the adventure
sheet and the first page of sections. The pages are drawn by pypdfium2 (``pip install
pypdfium2``); Pillow puts them side by side. Nothing is fetched from the network.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
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


def main() -> int:
    try:
        import pypdfium2
        from PIL import Image
    except ImportError as exc:
        print(f"print_pages: {exc.name} is not installed (pip install pypdfium2 pillow)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="dtc-print-pages-") as scratch:
        for system, book in BOOKS.items():
            subprocess.run([sys.executable, "-m", "dtc", "build", str(ROOT / "adventures" / f"{book}.txt"), "-o",
                            scratch], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
