"""The web edition plays, in a reader's own run, what the replay suites found it did not play as
``dtc play`` does (issue 39): Death & Treasure's load, one inventory for a loss, an encounter in the
middle of an action or of an arrival, and Dungeon Rules time. In headless Chromium as
tests/test_web_rules_browser.py; the page's die faces for a seed are worked out with its generator.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import Page, browser, mulberry32  # noqa: F401  (the fixture)


def faces(seed: int, *sides: int) -> list[int]:
    """The page's first die faces for ``seed``, one for each die size given."""
    gen = mulberry32(seed)
    return [1 + int(next(gen) * s) for s in sides]


def make(tmp_path: Path, text: str) -> str:
    build(compile_text(text, "book.txt").graph(), tmp_path, "book", pdf=False)
    return (tmp_path / "book.html").as_uri()


LOAD = """Title: Heavy
Rules: death-and-treasure
Start: 1

Adventure Entries

1 A cold hall. You find 20 pieces of jewelry. **Climb** the wall (STR D1, S2, F3).

2 Over the top. THE END (victory)

3 You slip. THE END
"""


def test_an_encumbered_check_is_rolled_twice_and_the_worse_kept(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Play's Character.load: a thing the book lets you find weighs what play weighs it (a piece of
    jewelry 1/5); carried past STR, every roll is made twice and the worse kept
    (death_and_treasure/play.py pc_roll). Twenty pieces weigh 4: past STR 3."""
    url = make(tmp_path, LOAD)
    with Page(browser) as page:
        page.goto(url + "?seed=3#entry-1")
        page.fill("#sheet-ab-STR", "3")
        page.fill("#sheet-items", "Rope (50 ft.), 20 jewelry")
        page.locator("#entry-1 .card.check input[value='check']").check()
        page.locator("#entry-1 .card.check button.roll").click()
        text = page.locator("#entry-1 .card.check .result").inner_text()
        first, second = faces(3, 6, 6), faces(3, 6, 6, 6, 6)[2:]
        kept = second if sum(second) > sum(first) else first
        assert text.startswith(f"Encumbered: rolled {' + '.join(map(str, first))} and {' + '.join(map(str, second))}, "
                               f"kept the worse. Rolled {' + '.join(map(str, kept))} = {sum(kept)} against STR 3"), text
    with Page(browser) as page:  # the jewelry left behind: one roll
        page.goto(url + "?seed=3#entry-1")
        page.fill("#sheet-ab-STR", "3")
        page.fill("#sheet-items", "Rope (50 ft.)")
        page.locator("#entry-1 .card.check input[value='check']").check()
        page.locator("#entry-1 .card.check button.roll").click()
        text = page.locator("#entry-1 .card.check .result").inner_text()
        assert text.startswith(f"Rolled {' + '.join(map(str, faces(3, 6, 6)))} = "), text


ROPE = """Title: Rope
Rules: death-and-treasure
Start: 1

Adventure Entries

1 A cliff. The wind takes your rope. [-rope] You can go to the **ledge** (D0, S2).

2 A ledge. **Climb down** (D0, S3, if rope), or **wait** (D0, S4).

3 Down. THE END (victory)

4 Waiting. THE END
"""


def test_a_loss_takes_the_kit_item_the_condition_reads(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """One inventory (runtime/inventory.py): the kit's "Rope (50 ft.)" opens ``if rope``, and ``[-rope]``
    with no rope possession takes it from the sheet's items."""
    url = make(tmp_path, ROPE)
    with Page(browser) as page:
        page.goto(url + "#cover")
        page.click("#cover a.button.primary")
        assert "Rope (50 ft.)" not in page.input_value("#sheet-items")
        page.locator("#entry-1 .card.go a").first.click()
        gate = page.locator("#entry-2 [data-needs]").first
        assert "closed" in (gate.get_attribute("class") or "")


INTERRUPT = """Title: Interrupted
Rules: death-and-treasure
Start: 1

Encounters
  1-6. 1 Rat

Rat HP 1 | Morale 7 | Bite d2

Adventure Entries

1 A locked grate. The **Grate** (STR D2, S2, F3).

2 Through. THE END (victory)

3 Stuck. THE END
"""


def sturdy(page: Any) -> None:
    """An adventurer of 10s with 20 HP, written on the sheet by hand (no die rolled)."""
    for ability in ("STR", "DEX", "CON", "WIS", "INT", "CHA"):
        page.fill(f"#sheet-ab-{ability}", "10")
    page.fill("#sheet-hp", "20")
    page.fill("#sheet-hpmax", "20")


def come_through(page: Any) -> None:
    """Answer the encounter the page plays as play does (Death & Treasure) until it is over: carry
    on where the creatures let you, else attack (a 1 HP rat against 20 HP)."""
    for _ in range(100):
        asked = page.locator(".page.current .encounter-play button.ep-option")
        if not asked.count():
            return
        carry = page.locator(".page.current .encounter-play button.ep-option", has_text="Carry on")
        (carry if carry.count() else asked.first).click()
    raise AssertionError("the encounter never ended")


def test_an_encounter_interrupts_an_action_until_the_reader_comes_through(browser: Any,  # noqa: F811
                                                                          tmp_path: Path) -> None:
    """Play's Engine._choice: a turn spent on an action brings its encounter check, and an encounter
    then is played out (as play plays it) before the action goes on, by itself once the reader has
    come through (fleeing or falling, it is never finished); its choices wait meanwhile."""
    url = make(tmp_path, INTERRUPT)
    seed = next(s for s in range(200) if faces(s, 6)[0] == 1)
    with Page(browser) as page:
        page.goto(url + f"?seed={seed}#entry-1")
        sturdy(page)
        card = page.locator("#entry-1 .card.check")
        card.locator("input[value='turn+check']").check()
        card.locator("button.roll").click()
        assert "An encounter comes in the middle of it" in card.locator(".result").inner_text()
        assert card.locator("a.continue").count() == 0
        box = page.locator("#entry-1 .encounter-play")
        assert "Surprise: rolled" in box.inner_text() and box.locator("button.ep-option").count() >= 2
        come_through(page)
        text = card.locator(".result").inner_text()
        assert "Rolled" in text and card.locator("a.continue").count() == 1, text


CLOCK = """Title: Clock
Rules: death-and-treasure + dungeon-rules
Start: 1

Zones
  1-2. Quiet
  3. Perilous

Encounters
  1-6. 1 Rat

Rat HP 1 | Morale 7 | Bite d2

Adventure Entries

1 A quiet hall. Go on to the **gallery** (D0, S2).

2 A quiet gallery. Go on to the **pit** (D0, S3).

3 The pit's edge. **Leave** (D0, S4).

4 Out. THE END
"""


def test_dungeon_rules_minutes_and_checks_at_the_zones_intervals(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Dungeon Rules time (dungeon_rules/play.py): a room at the standard pace takes 10 minutes and
    a quiet zone checks every 30 minutes, so the first move rolls no encounter die; the perilous
    zone's 10-minute interval has passed twice when the second move ends there: two checks."""
    url = make(tmp_path, CLOCK)
    with Page(browser) as page:
        page.goto(url + "?seed=5#cover")
        page.click("button[data-act='roll-abilities']")
        page.click("#cover a.button.primary")
        # play's pace question at the first zone (choose_pace), asked on the page: a standard advance
        page.locator("#entry-1 .encounter-play button.ep-option", has_text="Standard advance").click()
        page.locator("#entry-1 .card.go a").first.click()
        assert page.input_value("#sheet-minutes") == "10"
        assert "Encounter" not in page.locator("#entry-2 .arrival").inner_text()
        page.locator("#entry-2 .card.go a").first.click()
        assert page.input_value("#sheet-minutes") == "20"
        arrival = page.locator("#entry-3 .arrival").inner_text()
        assert re.search(r"[Rr]olled \d, \d \((?:encounter )?on 1–2\)", arrival), arrival


ARRIVAL = """Title: Ambush
Rules: death-and-treasure
Start: 1

Encounters
  1-6. 1 Rat

Rat HP 1 | Morale 7 | Bite d2

Adventure Entries

1 A gate. Go through to the **yard** (D0, S2).

2 A yard. A key lies in the mud. [+iron key] Go on to the **door** (D0, S3).

3 The door. THE END (victory)
"""


def test_an_encounter_on_arrival_comes_before_the_entrys_possessions(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Play's Engine._arrive: the arrival's turn and its encounter check come before the entry's
    effects, and a flight from the encounter leaves them undone: the page keeps them back until the
    reader has come through the encounter it plays as play does."""
    url = make(tmp_path, ARRIVAL)
    seed = next(s for s in range(200) if faces(s, 6)[0] == 1)
    with Page(browser) as page:
        page.goto(url + f"?seed={seed}#entry-1")
        sturdy(page)
        page.locator("#entry-1 .card.go a").first.click()
        arrival = page.locator("#entry-2 .arrival")
        assert "Encounter!" in arrival.inner_text()
        assert page.input_value("#sheet-has-0") in ("", "0")
        come_through(page)
        assert page.input_value("#sheet-has-0") == "1"
        assert "button" not in arrival.inner_html()
