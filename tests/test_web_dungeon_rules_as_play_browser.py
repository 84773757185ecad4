"""Death & Treasure with the Dungeon Rules overlay, played in the web edition as ``dtc play`` plays
it (issue 39): a wandering encounter and its fight under the clock (``dungeon_rules/play.py``: the
overlay's encounter and its wrapped fight, with the fight's 10 minutes, combat noise, the alarm and
fresh blood), an entry's hazard met on arrival as ``hazards.py`` meets it (the gear question, the
d20 check of the better ability, a failure's damage), and a fight an entry writes with its loot
(``loot.py``: the beaten creature's EL, the worth and its mix, each part offered), each step logged
as play logs it, so that ``dtc play --replay`` follows the downloaded run to the same outcome. In
headless Chromium, as tests/test_build_browser.py says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import Page, answer, at_entry, begin, browser  # noqa: F401  (the fixture)

BOOK = """Title: The Bell Cellar
Rules: death-and-treasure + dungeon-rules
Start: 1

Zones
  1-2. Perilous
  3-4. Minor lair

Encounters
  1-6. 1 Mire Toad

Mire Toad HP 2 | Morale 5 | Tongue d2 | EL 1

Hazard: Loose Stair | Check: AGI D2 | Fail: the step slides, 1d2 damage | Pass: you keep your feet | Mitigation: rope

Adventure Entries

1 A stair winds down from the bell tower into a wet cellar. Go **down** the stair (D0, S2).

2 The lower flight of the stair is cracked and slick with moss.
Hazard: Loose Stair
Climb **back up** (D0, S1), or wade on to the **vault** (D0, S3).

3 A toad the size of a dog squats on the bell-ringers' strongbox and puffs itself up at you.
Mire Toad HP 2 | Morale 5 | Tongue d2 | win S4, lose S1, flee S2

4 The strongbox is yours, and the bells ring you home. THE END (victory)
"""

#: The answers taken, the first offered of these: fight, attack, face the hazard, take the loot.
PREFERRED = ("Fight", "Attack with", "Face it", "Take it")
SCORES = dict.fromkeys(("STR", "DEX", "CON", "WIS", "INT", "CHA", "AGI", "LUCK", "WORLDSWAY"), "12")


def _answer_all(page: Any) -> None:
    while answer(page, PREFERRED):
        pass


def _here(page: Any) -> int:
    return int(page.evaluate("document.querySelector('.page.current').id.slice(6)"))


def _to_and_fro(page: Any) -> None:
    """One step on the stair between entries 1 and 2: a flight where one is offered, else the entry's
    first way on; then every question the page asks answered."""
    here = _here(page)
    flight = page.locator(".page.current .encounter-play a.flee-to")
    if flight.count():
        flight.first.click()
        page.wait_for_timeout(50)
    else:
        page.locator(f"#entry-{here} .card.go a").first.click()
        at_entry(page, 3 - here)
    _answer_all(page)


def test_an_encounter_a_hazard_and_a_fight_with_loot_under_the_clock_replay_in_play(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    build(compile_text(BOOK, "cellar.txt").graph(), tmp_path, "cellar", pdf=False)
    book = tmp_path / "cellar.txt"
    book.write_text(BOOK, encoding="utf-8")
    with Page(browser) as page:
        page.goto((tmp_path / "cellar.html").as_uri() + "?seed=4#cover")
        # a new adventurer (play's kit: its lantern lit, its rope), made sturdy and given a sword
        page.locator("details.sheet-box").evaluate("d => d.open = true")
        page.click("button[data-act='roll-abilities']")
        page.fill("#sheet-items", page.input_value("#sheet-items") + ", Sword")
        assert "Rope" in page.input_value("#sheet-items")
        begin(page, SCORES, 40)
        _answer_all(page)  # play's pace question at the first zone: a standard advance (the first offered)
        met, hazards = False, 0
        for _ in range(40):  # back and forth on the stair until a wandering encounter has come
            _to_and_fro(page)  # (the encounter the move brought, then, not fled, the hazard on arrival at 2)
            boxes = page.locator(".page.current .encounter-play")
            met = met or any("Surprise: rolled" in boxes.nth(n).inner_text() for n in range(boxes.count()))
            if _here(page) == 2 and not page.locator("#entry-2 a.flee-to").count():
                hazard = page.locator("#entry-2 .encounter-play", has_text="Hazard: Loose Stair")
                assert hazard.count(), page.inner_text("#entry-2")
                # the page meets it as play does: no reader's roll button beside it
                assert not page.locator("#entry-2 button.roll-hazard").is_visible()
                hazards += 1
            if met and _here(page) == 2 and hazards:
                break
        assert met and hazards, "no encounter and hazard in 40 moves"
        # On to the vault: the toad the entry writes, fought on arrival; its loot; the win.
        page.locator("#entry-2 .card.go a").last.click()
        at_entry(page, 3)
        _answer_all(page)
        fight = page.locator("#entry-3 .encounter-play").last.inner_text()
        assert "Mire Toad is defeated." in fight and "Loot of an EL 1 encounter" in fight, fight
        page.locator("#entry-3 .encounter-play .fight-win a").click()
        at_entry(page, 4)
        with page.expect_download() as download:
            page.click("button[data-act='download']")
        log = tmp_path / "run.jsonl"
        download.value.save_as(log)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    asked = {e["question"] for e in events if e["event"] == "decision"}
    assert {"menu", "pace", "hazard", "combat", "take"} <= asked, asked
    assert next(e["choice"] for e in events if e["event"] == "decision" and e["question"] == "pace") == "pace:standard"
    kinds = {e["event"] for e in events}
    assert {"encounter", "surprise", "fight", "attack", "defeated", "fight_end", "check", "roll"} <= kinds, kinds
    assert events[-1]["event"] == "end" and events[-1]["outcome"] == "ended"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


def test_once_the_log_has_stopped_the_hazard_is_the_readers_to_roll_again(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Where the page no longer keeps the run's log (here the lantern refilled by hand), a hazard met
    again is the reader's: its own roll button shows again, and the page meets it no more."""
    build(compile_text(BOOK, "cellar.txt").graph(), tmp_path, "cellar", pdf=False)
    with Page(browser) as page:
        page.goto((tmp_path / "cellar.html").as_uri() + "?seed=4#cover")
        page.locator("details.sheet-box").evaluate("d => d.open = true")
        page.click("button[data-act='roll-abilities']")
        begin(page, SCORES, 40)
        _answer_all(page)
        for _ in range(20):  # until the page has met the hazard at 2 (not fled from an encounter first)
            _to_and_fro(page)
            if page.locator("#entry-2.current .encounter-play", has_text="Hazard: Loose Stair").count():
                break
        assert not page.locator("#entry-2 button.roll-hazard").is_visible()
        page.click("button[data-act='refill']")  # the reader's hand on the sheet: the log stops
        page.locator("#entry-2 .card.go a").first.click()
        at_entry(page, 1)
        page.locator("#entry-1 .card.go a").first.click()
        at_entry(page, 2)
        assert page.locator("#entry-2 button.roll-hazard").is_visible()
        assert not page.locator("#entry-2 .encounter-play", has_text="Hazard: Loose Stair").count()
