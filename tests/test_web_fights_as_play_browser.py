"""A Death & Treasure encounter and fight, played in the web edition as ``dtc play`` plays them
(issue 39): the encounter procedure (surprise, reaction, carry on / talk / fight / flee) and the fight
round by round (``play.py`` ``encounter``, ``combat.py`` ``fight``) asked as buttons with play's
labels, the page's dice drawn in play's order and each step logged as play logs it, so that
``dtc play --replay`` follows the downloaded run to the same outcome. In headless Chromium, as
tests/test_build_browser.py says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import (  # noqa: F401  (browser: the fixture)
    Page,
    answer,
    at_entry,
    begin,
    browser,
    download_run,
    through_to,
    walk_until_encounter,
)

BOOK = """Title: Rat Cellar
Rules: death-and-treasure
Start: 1

Encounters
  1-6. 1d2 Cellar Rats

Cellar Rat HP 2 | Morale 6 | Bite d2

Adventure Entries

1 Steps down into a damp cellar. **Down** the steps (D0, S2).

2 A cellar of barrels that smells of rats. **Back up** the steps (D0, S1), or on to the **Cask Room** (D0, S3).

3 A goblin guards the last cask with a spoon.
Goblin HP 1 | Morale 12 | Spoon d2 | win S4, lose S1, flee S2

4 The cask is yours. THE END (victory)
"""

def _edition(text: str, folder: Path, stem: str) -> Path:
    """The book ``text`` written as ``folder/STEM.txt`` (for play's replay) and its web edition
    built beside it as ``STEM.html``; the book's path."""
    book = folder / f"{stem}.txt"
    book.write_text(text, encoding="utf-8")
    build(compile_text(text, book.name).graph(), folder, stem, pdf=False)
    return book


#: The answers taken, the first offered of these: talk, ask the Oracle, fight, attack.
PREFERRED = ("Talk", "Ask the Oracle", "Possible", "Fight", "Attack with")


def test_an_encounter_and_a_fight_played_in_the_page_replay_in_play(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    book = _edition(BOOK, tmp_path, "cellar")
    with Page(browser) as page:
        page.goto((tmp_path / "cellar.html").as_uri() + "?seed=11#cover")
        begin(page, dict.fromkeys(("STR", "DEX", "CON", "WIS", "INT", "CHA"), "12"), 40)
        assert walk_until_encounter(page, 40), "no encounter in 40 turns"  # the rats: 1-in-6 a turn
        box = page.locator(".page.current .encounter-play")
        assert "Surprise: rolled" in box.inner_text() and "Reaction: 2d6" in box.inner_text()
        for _ in range(100):
            if not answer(page, PREFERRED):
                break
        # Through the encounter (or fled from it): on to the goblin's cask room, fought on arrival.
        through_to(page, 3, PREFERRED, 10)
        assert page.locator("#entry-3.current").count(), page.inner_text(".page.current")
        while answer(page, PREFERRED):
            pass
        fight = page.locator("#entry-3 .encounter-play").last.inner_text()
        assert "A fight: Goblin (1 HP)." in fight and "Goblin is defeated." in fight, fight
        page.locator("#entry-3 .encounter-play .fight-win a").click()
        at_entry(page, 4)
        log = tmp_path / "run.jsonl"
        download_run(page, log)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    # (seed 11: the rats are not hostile; talking, the Oracle says you share no tongue: a fight
    # against two of them, one attacked by choice, a morale roll; then the goblin on arrival)
    asked = {e["question"] for e in events if e["event"] == "decision"}
    assert asked == {"menu", "encounter", "language", "oracle", "combat", "target"}, asked
    kinds = {e["event"] for e in events}
    assert {"surprise", "reaction", "oracle", "talk", "fight", "attack", "morale", "defeated", "fight_end"} <= kinds
    assert events[-1]["event"] == "end" and events[-1]["outcome"] == "ended"
    assert events[-2]["event"] == "move" and events[-2]["how"] == "win"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


TREASURE = """Title: Idol
Rules: death-and-treasure
Start: 1

Adventure Entries

1 A shrine. Step **inside** (D0, S2).

2 On the altar you find a golden idol (500 coins). **Leave** the shrine (D0, S3).

3 Home with what you carry. THE END (victory)
"""


def test_a_treasure_is_offered_as_far_as_the_sacks_hold_it_and_replays_in_play(browser: Any,  # noqa: F811
                                                                                tmp_path: Path) -> None:
    """Play's effects._find in Death & Treasure: with no sack there is no room ("Leave it" or dump
    the backpack's kit), the kit dumped the backpack holds weight 6 (the lantern and the knife kept,
    the oil gone with the kit), and the idol is taken; the run replays in play."""
    book = _edition(TREASURE, tmp_path, "idol")
    with Page(browser) as page:
        page.goto((tmp_path / "idol.html").as_uri() + "?seed=3#cover")
        page.click("button[data-act='roll-abilities']")
        page.click("#cover a.button.primary")
        at_entry(page, 1)
        page.locator("#entry-1 .card.go a").first.click()
        at_entry(page, 2)
        find = page.locator("#entry-2 .arrival .find")
        assert [" ".join(t.split()) for t in find.locator("button").all_inner_texts()] == [
            "Leave it (no room: treasure is carried in sacks)",
            "Dump your backpack's standard kit (rope, rations, water, oil...) to make room for weight 6"]
        find.locator("button.find-dump").click()
        items = page.input_value("#sheet-items")
        assert "Rope" not in items and "Lantern" in items and "Knife" in items, items
        assert page.input_value("#sheet-oil") == "0"
        assert page.locator("#entry-2 .arrival .find button").all_inner_texts() == ["Take it", "Leave it"]
        page.locator("#entry-2 .arrival button.find-take").click()
        assert "golden idol" in page.input_value("#sheet-items")
        page.locator("#entry-2 .card.go a").first.click()
        at_entry(page, 3)
        log = tmp_path / "run.jsonl"
        download_run(page, log)
    answers = [e["choice"] for e in map(json.loads, log.read_text(encoding="utf-8").splitlines())
               if e["event"] == "decision" and e["question"] == "take"]
    assert answers == ["dump", "take"]
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


RAT = "Cellar Rat HP 2 | Morale 6 | Bite d2"
RIVALS = BOOK.replace("  1-6. 1d2 Cellar Rats", "  1-6. 1 Cellar Rat fighting 1 Cave Toad").replace(
    RAT, RAT + "\nCave Toad HP 2 | Morale 6 | Tongue d2")


def test_two_groups_at_odds_are_slipped_past_as_play_does(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A row of two groups at odds ("1 Cellar Rat fighting 1 Cave Toad"): the page asks play's
    question (slip past, or attack either) and the run replays in play to the same outcome."""
    book = _edition(RIVALS, tmp_path, "rivals")
    with Page(browser) as page:
        page.goto((tmp_path / "rivals.html").as_uri() + "?seed=5#cover")
        begin(page, dict.fromkeys(("STR", "DEX", "CON", "WIS", "INT", "CHA"), "12"), 40)
        walk_until_encounter(page, 60)  # until the two groups come
        box = page.locator(".page.current .encounter-play")
        assert "busy with each other" in box.inner_text(), box.inner_text()
        assert page.locator(".page.current .encounter-play button.ep-option").all_inner_texts()[:3] == [
            "Slip past while they fight", "Attack the Cellar Rat", "Attack the Cave Toad"]
        answer(page, ("Slip past",))
        assert "You slip past." in box.inner_text()
        log = tmp_path / "run.jsonl"
        download_run(page, log)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert any(e["event"] == "encounter_end" and e.get("result") == "slipped past" for e in events)
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "replayed" in result.output and "differ" not in result.output, result.output


TOAD = ("Giant Toad HP 12 | Morale 2 | Tongue d2 | Special: swallows whoever its tongue catches unless a DEX "
        "check saves them; inside, 1d2 damage each round; 3 or more damage cuts you free and kills it.")
FROG = f"""Title: Frog Pool
Rules: death-and-treasure
Start: 1

{TOAD}

Adventure Entries

1 A pool of black water under the roots. Wade **In** (D0, S2).

2 A toad the size of a cart heaves itself out of the water.
{TOAD} | win S3, lose S1, flee S1

3 The pool is quiet again. THE END (victory)
"""


def test_a_creature_that_swallows_is_fought_as_play_fights_it(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A creature whose Special swallows (combat.py ``_inside``): a DEX check when its blow lands, its
    digestion each round inside, only a hand-to-hand blow from inside, and a blow of the damage the
    Special names cuts you out. The page plays it (it used to hand it to the fight helper and stop the
    log); the run replays in play to the same outcome."""
    book = _edition(FROG, tmp_path, "frog")
    swallowed = 0
    for seed in range(12):
        with Page(browser) as page:
            page.goto((tmp_path / "frog.html").as_uri() + f"?seed={seed}#cover")
            # DEX 3: the check not to be swallowed fails nearly always; STR 12 to cut your way out
            begin(page, {"STR": "12", "DEX": "3", "CON": "12", "WIS": "12", "INT": "12", "CHA": "12"}, 40)
            page.locator("#entry-1 .card.go a").first.click()
            at_entry(page, 2)
            while answer(page, ("Attack with",)):
                pass
            text = page.locator("#entry-2 .encounter-play").last.inner_text()
            won = page.locator("#entry-2 .encounter-play .fight-win a")
            if won.count():
                won.click()
                at_entry(page, 3)
            log = tmp_path / f"run-{seed}.jsonl"
            download_run(page, log)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
        assert result.exit_code == 0 and "replayed" in result.output, (seed, result.output)
        if "swallows you whole" in text and ": inside the Giant Toad;" in text:
            # swallowed, and a round inside: the run played to its end replays to the same outcome
            assert events[-1]["event"] == "end" and "same outcome" in result.output, (seed, text, result.output)
            swallowed += 1
        if swallowed >= 2:
            break
    assert swallowed >= 2, "no seed of twelve was swallowed"


CHEST = """Title: Trapped Chest
Rules: death-and-treasure
Start: 1

Adventure Entries

1 A low vault. Open the **chest** (D0, S2).

2 A needle springs from the lock. Make a DEX check to pull your hand back. On a failure, take d4 damage.
Inside the chest you find 30 coins and a jade comb (40 coins). **Leave** the vault (D0, S3).

3 Out in the air with what you carry. THE END (victory)
"""


def test_an_entry_with_a_check_and_a_find_is_played_in_order_and_replays_in_play(browser: Any,  # noqa: F811
                                                                                 tmp_path: Path) -> None:
    """An entry whose text asks for a check and also holds finds (effects.apply, in order): the check
    rolled, its damage on a failure, then "Take it?" for each find as far as the sacks hold it, the
    kit dumped to make room. The page used to stop the run's log at such an entry; the run replays in
    play to the same outcome."""
    book = _edition(CHEST, tmp_path, "chest")
    with Page(browser) as page:
        page.goto((tmp_path / "chest.html").as_uri() + "?seed=4#cover")
        begin(page, dict.fromkeys(("STR", "DEX", "CON", "WIS", "INT", "CHA"), "10"), 20)
        page.locator("#entry-1 .card.go a").first.click()
        at_entry(page, 2)
        box = page.locator("#entry-2 .encounter-play").last
        assert "Make a DEX check" in box.inner_text(), box.inner_text()
        while answer(page, ("Dump your backpack", "Take it", "Take ")):
            pass
        assert "30 coins" in page.input_value("#sheet-items") or "coins" in page.input_value("#sheet-items")
        page.locator("#entry-2 .card.go a").first.click()
        at_entry(page, 3)
        log = tmp_path / "run.jsonl"
        download_run(page, log)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    answers = [e["choice"] for e in events if e["event"] == "decision" and e["question"] == "take"]
    assert answers[0] == "dump" and answers.count("take") == 2, answers
    assert any(e["event"] == "check" for e in events) and events[-1]["event"] == "end"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output
