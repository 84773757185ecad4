"""Maze Rats Paths in the web edition, in a real browser (as tests/test_build_browser.py): the Path
written on the sheet gives advantage to the rolls of choices whose labels hold its words, whole, as
`dtc play` and `dtc odds` read them (``dtc.systems.maze_rats.paths``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dtc.compiler.api import compile_text
from dtc.editions import build
from dtc.systems.maze_rats.paths import PATHS, favoured
from helpers.browser import Page, browser  # noqa: F401  (the fixture)

LABELS = ("Climb the wall", "Recall knowledge", "Leapt across", "Block the blow", "Swinging on ropes",
          "Overbalance")
BOOK = ("Title: Paths\nRules: maze-rats\nStart: 1\n\nAdventure Entries\n\n1 "
        + ", ".join(f"**{label}** (DEX D{2 if i % 2 else 3}, S2, F3)" for i, label in enumerate(LABELS))
        + ".\n\n2 Up. THE END\n\n3 Down. THE END\n")


def test_the_sheets_path_favours_whole_words_of_the_label(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    build(compile_text(BOOK, "paths.txt").graph(), tmp_path, "paths", pdf=False)
    for path in ("Roofrunner", "roofrunner ", "Fingersmith", ""):
        name = next((n for n in PATHS if n.lower() == path.strip().lower()), None)  # the sheet ignores case
        with Page(browser) as page:
            page.goto((tmp_path / "paths.html").as_uri() + "?seed=3#entry-1")
            page.fill("#sheet-ab-DEX", "1")
            page.fill("#sheet-path", path)
            cards = page.locator("#entry-1 .card.check")
            assert cards.count() == len(LABELS)
            for i, label in enumerate(LABELS):
                card = cards.nth(i)
                card.locator("button.roll").click()
                result = card.locator(".result").inner_text()
                d = 3 if i % 2 == 0 else 2
                if name is not None and name in favoured(label):
                    assert f"Your Path, {name}, gives advantage." in result, (path, label, result)
                    assert ("kept" in result) == (d == 2), (path, label, result)  # D2 rolls as D1, D3 as D2
                else:
                    assert "Path" not in result, (path, label, result)
                    assert ("kept" in result) == (d == 3), (path, label, result)  # D3 keeps the worst two
