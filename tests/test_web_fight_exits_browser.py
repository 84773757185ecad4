"""A fight's exits in the web edition, as ``dtc play`` takes them (``runtime.effects._fight``): a stat
block's ``win S2, lose S4, flee S3`` read out under its table as links, its prose exits labelled
by the outcome (never by the stat block's text); the fight, played on arrival as play plays it
(Death & Treasure), points to its ``win`` entry when won; a blow that would kill leaves the
reader at 1 HP pointed to ``lose`` instead of ending the run. In
headless Chromium, as tests/test_build_browser.py says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import Page, assert_at, browser  # noqa: F401  (the fixture)

BRIDGE = """Title: Ogre Bridge
Rules: death-and-treasure
Start: 1

Adventure Entries

1 An ogre squats on the plank bridge, picking its teeth with a fence post.
Ogre HP {hp} | Morale 12 | Club 3d6 | win S2, lose S4, flee S3

2 You cross over the ogre's snoring bulk. THE END (victory)

3 You walk the long way home round the marsh. THE END

4 You wake in a ditch with a sore head and no memory of the bridge. **Go Home** (D0, S3).
"""


def make(tmp_path: Path, hp: int) -> str:
    build(compile_text(BRIDGE.format(hp=hp), "bridge.txt").graph(), tmp_path, "bridge", pdf=False)
    return (tmp_path / "bridge.html").as_uri()


def _answer(page: Any, *labels: str) -> None:
    """Answer the fight the page plays as play does with the first of ``labels`` it offers."""
    for label in labels:
        button = page.locator("#entry-1 .encounter-play button.ep-option", has_text=label)
        if button.count():
            button.first.click()
            return
    raise AssertionError(f"none of {labels} is offered: {page.locator('#entry-1 .encounter-play').inner_text()}")


def test_the_outcomes_are_read_out_and_label_the_ways_on(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 1) + "?seed=3#entry-1")
        outcomes = page.locator("#entry-1 .fight-outcomes").inner_text()
        assert outcomes.startswith("If you win, turn to 2. If you lose (the fight would kill you"), outcomes
        assert "If you flee (as the fight rules say), turn to 3." in outcomes
        labels = page.locator("#entry-1 .choices .card.go").all_inner_texts()
        assert [" ".join(t.split()) for t in labels] == ["If you win → 2", "If you lose → 4", "If you flee → 3"]
        assert "|" not in page.locator("#entry-1 .choices:not(.ending)").inner_text()


def _reader(page: Any, strength: str, hp: str) -> None:
    page.fill("#sheet-ab-STR", strength)
    page.fill("#sheet-hp", hp)
    page.fill("#sheet-hpmax", "30")
    page.goto(page.url.split("#")[0] + "#entry-1")  # the fight, played as play plays it, on arrival


def test_a_won_fight_points_to_its_win_entry(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 1) + "?seed=3#cover")
        _reader(page, "20", "30")  # d20 − 1 ≤ 20: always a hit, and the ogre has 1 HP; its 3d6 never kill
        _answer(page, "Attack with")
        text = page.locator("#entry-1 .encounter-play").inner_text()
        assert "Ogre is defeated." in text and "The fight is won: turn to 2" in text, text
        assert page.locator("#entry-1 .fight-outcomes .fight-win.reached").count() == 1
        page.locator("#entry-1 .encounter-play .fight-win a").click()
        assert_at(page, "entry-2")


def test_a_blow_that_would_kill_leads_to_the_lose_entry_at_1_hp(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 30) + "?seed=5#cover")
        _reader(page, "10", "2")  # the ogre's 3d6 kill at 2 HP; with DEX 0 every escape fails
        for _ in range(60):
            if page.locator("#entry-1 .encounter-play .fight-lose a").count():
                break
            _answer(page, "Try to escape", "Run")
        text = page.locator("#entry-1 .encounter-play").inner_text()
        assert "You come to with 1 HP: turn to 4" in text, text
        assert "You die" not in text
        assert page.input_value("#sheet-hp") == "1"
        assert page.locator("#entry-1 .run-over").count() == 0
        assert page.locator("#entry-1 .fight-outcomes .fight-lose.reached").count() == 1
        page.locator("#entry-1 .encounter-play .fight-lose a").click()
        assert_at(page, "entry-4")
