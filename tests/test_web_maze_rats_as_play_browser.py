"""A Maze Rats fight an entry writes, played in the web edition as ``dtc play`` plays it (issue 39):
``maze_rats/combat.py`` ``fight`` round by round — initiative with ties rerolled, play's "Your move"
(a weapon, or try to flee) and "Attack which?" as buttons, the creatures' blows against the armour
play works out from the sheet's items, a shield to shatter, morale — the page's dice drawn in play's
order and each step logged as play logs it, so that ``dtc play --replay`` follows the downloaded run
to the same outcome. In headless Chromium, as tests/test_build_browser.py says.
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

BOOK = """Title: Candle Vault
Rules: maze-rats
Start: 1

Adventure Entries

1 A stair of soft wax winds down into the dark. **Go down** (D0, S2).

2 Three moth-men flutter up from a crate of old candles, led by a Moth Matron with a singed crown.
Moth Man HP 2 | Armor 6 | AB 0 | DEX 2 | WIL 0 | win S3, lose S4, flee S1
Moth Matron HP 4 | Armor 7 | AB 1 | DEX 1 | WIL 1

3 The crate holds a single unburnt candle, and the way home is clear. THE END (victory)

4 You wake at the foot of the stair with wax in your hair. THE END (defeat)
"""

#: The answers taken, the first offered of these: attack with the sword, the moth-man first,
#: shatter the shield when it saves a life (play offers it first then), else keep it.
PREFERRED = ("Attack with Sword", "Moth Man")


def _play(browser: Any, tmp_path: Path, seed: int, hp: int) -> tuple[list[dict[str, Any]], str, Path]:  # noqa: F811
    build(compile_text(BOOK, "vault.txt").graph(), tmp_path, "vault", pdf=False)
    book = tmp_path / "vault.txt"
    book.write_text(BOOK, encoding="utf-8")
    with Page(browser) as page:
        page.goto((tmp_path / "vault.html").as_uri() + f"?seed={seed}#cover")
        begin(page, {"STR": "1", "DEX": "2", "WIL": "0"}, hp)
        page.locator("#entry-1 .card.go a").first.click()
        at_entry(page, 2)
        for _ in range(400):
            if not answer(page, PREFERRED):
                break
        fight = page.locator("#entry-2 .encounter-play").last.inner_text()
        page.locator("#entry-2 .encounter-play a.fight-exit").click()
        page.wait_for_timeout(50)
        log = tmp_path / f"run-{seed}.jsonl"
        download_run(page, log)
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()], fight, log


def test_a_maze_rats_fight_played_in_the_page_replays_in_play(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    for seed in range(1, 12):
        events, fight, log = _play(browser, tmp_path, seed, 12)
        if [e for e in events if e["event"] == "move"][-1].get("how") == "win":
            break
    else:
        raise AssertionError("no won fight in seeds 1-11")
    assert "A fight: Moth Man 1 (2 health), Moth Man 2 (2 health)" not in fight  # (one of each block: no count)
    assert "Round 1: initiative" in fight and "Your move" not in fight, fight
    asked = {e["question"] for e in events if e["event"] == "decision"}
    assert {"menu", "combat", "target"} <= asked, asked
    kinds = {e["event"] for e in events}
    assert {"fight", "attack", "defeated", "morale", "fight_end"} <= kinds, kinds
    sheet = events[0]["sheet"]
    assert {i["name"]: i["kind"] for i in sheet["items"]}["Sword"] == "weapon"
    assert {i["name"]: i["kind"] for i in sheet["items"]}["Light armour"] == "armour"
    assert events[-1]["event"] == "end", events[-1]
    assert any(e["event"] == "move" and e.get("how") in ("win", "lose", "flee") for e in events)
    result = CliRunner().invoke(main, ["play", str(tmp_path / "vault.txt"), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


def test_a_lost_maze_rats_fight_comes_to_at_the_lose_entry_and_replays(browser: Any,  # noqa: F811
                                                                      tmp_path: Path) -> None:
    """With 1 health the moth-men's first hit would kill: the book leads on (lose S4), as play takes it."""
    for seed in range(1, 12):
        events, fight, log = _play(browser, tmp_path, seed, 1)
        moves = [e for e in events if e["event"] == "move"]
        if moves[-1].get("how") == "lose":
            break
    else:
        raise AssertionError("no lost fight in seeds 1-11")
    assert "The fight is lost: you come to with 1 HP" in fight, fight
    # the first blow that would kill is stopped by the shield (offered first then, as play offers it)
    shield = [e["choice"] for e in events if e["event"] == "decision" and e["question"] == "shield"]
    assert shield[0] == "shatter" and "Your shield shatters." in fight, fight
    result = CliRunner().invoke(main, ["play", str(tmp_path / "vault.txt"), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


WANDERING = """Title: Moth Stair
Rules: maze-rats
Start: 1

Encounters
  1-6. 2 Moth Men

Moth Man HP 2 | Armor 6 | AB 0 | DEX 1 | WIL 0

Adventure Entries

1 The top of a wax stair. **Down** (D0, S2).

2 A landing where moths circle a dead candle. **Up** (D0, S1), or on to the **door** (D0, S3).

3 A door of old wood, and daylight beyond it. THE END (victory)
"""


def test_a_maze_rats_wandering_encounter_played_in_the_page_replays_in_play(browser: Any,  # noqa: F811
                                                                           tmp_path: Path) -> None:
    """play.py MazeRats.encounter: the reaction (d6), a hostile band's WIL roll against surprise, else
    play's questions (carry on, talk them round, attack first, slip away), and the fight after it."""
    build(compile_text(WANDERING, "stair.txt").graph(), tmp_path, "stair", pdf=False)
    book = tmp_path / "stair.txt"
    book.write_text(WANDERING, encoding="utf-8")
    with Page(browser) as page:
        page.goto((tmp_path / "stair.html").as_uri() + "?seed=4#cover")
        begin(page, {"STR": "1", "DEX": "2", "WIL": "0"}, 20)
        assert walk_until_encounter(page, 40), "no encounter in 40 turns"  # the moths: 1-in-6 a turn
        assert "Reaction: d6 = " in page.locator(".page.current .encounter-play").inner_text()
        # through it (attacking first, when they are not hostile), then to the door
        through_to(page, 3, ("Attack first", *PREFERRED))
        assert page.locator("#entry-3.current").count(), page.inner_text(".page.current")
        log = tmp_path / "run.jsonl"
        download_run(page, log)
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    kinds = {e["event"] for e in events}
    assert {"encounter", "reaction", "fight", "attack", "fight_end"} <= kinds, kinds
    assert events[-1]["event"] == "end"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


BEAM = """Title: Wax Beam
Rules: maze-rats
Start: 1

Adventure Entries

1 A loft of old candles. **Cross the beam** (D0, S2).

2 A beam of old wax cracks under you. Make a DEX check. On a failure, you fall and lose d3 HP. A
moth-man waits at the far end. Follow the combat rules. If you win, go to 3.
Moth Man HP 2 | Armor 6 | AB 0 | DEX 1 | WIL 0

3 Down a ladder and out. THE END (victory)
"""


def test_a_danger_roll_beside_a_maze_rats_fight_is_rolled_as_play_rolls_it(browser: Any,  # noqa: F811
                                                                           tmp_path: Path) -> None:
    """effects.apply with MazeRats.check: the entry's DEX danger roll (D2: 2d6 + DEX against 10), the
    fall's damage on a failure only, then the fight; the run replays in play."""
    build(compile_text(BEAM, "beam.txt").graph(), tmp_path, "beam", pdf=False)
    book = tmp_path / "beam.txt"
    book.write_text(BEAM, encoding="utf-8")
    failed = won = False
    for seed in range(1, 16):
        with Page(browser) as page:
            page.goto((tmp_path / "beam.html").as_uri() + f"?seed={seed}#cover")
            begin(page, {"STR": "2", "DEX": "0", "WIL": "1"}, 20)
            page.locator("#entry-1 .card.go a").first.click()
            at_entry(page, 2)
            while answer(page, PREFERRED):
                pass
            said = page.locator("#entry-2 .encounter-play").last.inner_text()
            assert "Make a DEX check (DEX): Rolled " in said, said
            page.locator("#entry-2 .encounter-play a.fight-exit").click()
            page.wait_for_timeout(50)
            log = tmp_path / f"beam-{seed}.jsonl"
            download_run(page, log)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        checks = [e for e in events if e["event"] == "check"]
        assert [c["ability"] for c in checks] == ["DEX"], checks
        result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
        assert result.exit_code == 0 and "same outcome" in result.output, result.output
        failed = failed or not checks[0]["success"]
        won = won or any(e["event"] == "move" and e.get("how") == "win" for e in events)
        if failed and won:
            break
    assert failed and won, "no failed danger roll and no won fight in seeds 1-15"
