"""A fight's exits in the web edition, as ``dtc play`` takes them (``runtime.effects._fight``): a stat
block's ``win S2, lose S4, flee S3`` read out under its table as links, its prose exits labelled
by the outcome (never by the stat block's text); a won fight points to its ``win`` entry; a blow
that would kill leaves the reader at 1 HP pointed to ``lose`` instead of ending the run. In
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


def _fight(page: Any) -> Any:
    fight = page.locator("#entry-1 details.fight")
    fight.locator("summary").click()
    return fight


def test_the_outcomes_are_read_out_and_label_the_ways_on(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 1) + "?seed=3#entry-1")
        outcomes = page.locator("#entry-1 .fight-outcomes").inner_text()
        assert outcomes.startswith("If you win, turn to 2. If you lose (the fight would kill you"), outcomes
        assert "If you flee (as the fight rules say), turn to 3." in outcomes
        labels = page.locator("#entry-1 .choices .card.go").all_inner_texts()
        assert [" ".join(t.split()) for t in labels] == ["If you win → 2", "If you lose → 4", "If you flee → 3"]
        assert "|" not in page.locator("#entry-1 .choices:not(.ending)").inner_text()


def test_a_won_fight_points_to_its_win_entry(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 1) + "?seed=3#entry-1")
        page.fill("#sheet-ab-STR", "20")  # d20 − 1 ≤ 20: always a hit, and the ogre has 1 HP
        page.fill("#sheet-hp", "8")
        fight = _fight(page)
        fight.locator("button[data-fight='attack']").click()
        text = fight.locator(".result").inner_text()
        assert "It is defeated. The fight is won: turn to 2." in text, text
        assert page.locator("#entry-1 .fight-outcomes .fight-win.reached").count() == 1
        page.locator("#entry-1 .fight-outcomes .fight-win a").click()
        assert_at(page, "entry-2")


def test_a_blow_that_would_kill_leads_to_the_lose_entry_at_1_hp(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Page(browser) as page:
        page.goto(make(tmp_path, 30) + "?seed=5#entry-1")
        page.fill("#sheet-hp", "2")
        page.fill("#sheet-hpmax", "8")
        page.fill("#sheet-defense", "0")  # every blow gets past Defense 0, and 3d6 kills at 2 HP
        fight = _fight(page)
        fight.locator("button[data-fight='defend']").click()
        text = fight.locator(".result").inner_text()
        assert "The fight is lost: you come to with 1 HP. Turn to 4." in text, text
        assert "You die" not in text
        assert page.input_value("#sheet-hp") == "1"
        assert page.locator("#entry-1 .run-over").count() == 0
        assert page.locator("#entry-1 .fight-outcomes .fight-lose.reached").count() == 1
        page.locator("#entry-1 .fight-outcomes .fight-lose a").click()
        assert_at(page, "entry-4")
