"""The reader's word on the web edition's sheet, in its run log as ``dtc play`` takes it: the sheet's
−1 HP and +1 HP at an entry's choices are play's *Adjust* (``hp -1``, ``hp +1``), its *Next turn*
is play's *Spend a turn*, and a find's *Take it* / *Leave it* is play's ``take`` decision, so
``dtc play --replay`` of the downloaded run follows them to the same outcome. In headless Chromium,
as tests/test_build_browser.py says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from dtc.cli import main
from dtc.compiled.schema import validate
from dtc.compiler.api import compile_text
from dtc.editions import build
from helpers.browser import Page, browser  # noqa: F401  (the fixture)

LANE = """Title: Lamplighter Lane
Rules: death-and-treasure
Start: 1

1 The lamplighter's ladder leans on the first post of the lane. **Climb to the Lamp** (D0, S2).

2 You light the lamp; the wick spits and catches. **Walk On** (D0, S3).

3 The last lamp burns and the lane is bright to its end. THE END (victory)
"""


def test_hp_and_turns_changed_on_the_sheet_replay_in_play(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    book = tmp_path / "lane.txt"
    book.write_text(LANE, encoding="utf-8")
    build(compile_text(LANE, str(book)).graph(), tmp_path / "out", "lane", pdf=False)
    with Page(browser, accept_downloads=True) as page:
        page.goto((tmp_path / "out" / "lane.html").as_uri() + "?seed=2")
        page.locator("details.sheet-box").evaluate("d => d.open = true")
        page.click("button[data-act='roll-abilities']")
        page.click("#cover a.button.primary")
        page.click("button[data-act='hp-1']")
        page.click("button[data-act='hp-1']")
        page.click("button[data-act='turn+1']")
        page.click("#entry-1 .card.go a")
        page.click("button[data-act='hp+1']")
        page.click("#entry-2 .card.go a")
        with page.expect_download() as download:
            page.click("button[data-act='download']")
        status = page.text_content(".sheet-status") or ""
        log = tmp_path / "lane-run.jsonl"
        download.value.save_as(log)
    assert "stops at" not in status, status
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for event in events:
        validate(event, "run-log")
    assert [e["text"] for e in events if e["event"] == "adjust"] == ["hp -1", "hp -1", "hp +1"]
    assert [e["choice"] for e in events if e["event"] == "decision"].count("wait") == 1
    assert events[-1]["event"] == "end"
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output


NEST = """Title: The Magpie's Nest
Rules: maze-rats
Start: 1

Adventure Entries

1 A magpie's nest sits in the crook of the chimney. **Reach into the Nest** (D0, S2).

2 Among the twigs you find a silver spoon and 12 coins. **Climb Down** (D0, S3). **Reach in Again** (D0, S2).

3 You drop back to the lane with the magpie scolding you. THE END (victory)
"""


def test_finds_are_offered_as_play_offers_them_and_replay(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """play's find (effects._find): "Take it?" for each thing the text finds, once a run; a way on
    taken without an answer leaves what waits. The log of such a run replays in play."""
    book = tmp_path / "nest.txt"
    book.write_text(NEST, encoding="utf-8")
    build(compile_text(NEST, str(book)).graph(), tmp_path / "out", "nest", pdf=False)
    with Page(browser, accept_downloads=True) as page:
        page.goto((tmp_path / "out" / "nest.html").as_uri() + "?seed=4")
        page.locator("details.sheet-box").evaluate("d => d.open = true")
        page.click("button[data-act='roll-abilities']")
        page.click("#cover a.button.primary")
        page.click("#entry-1 .card.go a")
        arrival = page.locator("#entry-2 .arrival")
        assert "You find a silver spoon." in arrival.inner_text()
        arrival.locator("button.find-take").click()
        assert "silver spoon" in page.input_value("#sheet-items").lower()
        assert "You find 12 coins." in arrival.inner_text()
        page.click("#entry-2 .card.go >> nth=1")  # Reach in Again: the coins are left, nothing is found twice
        assert page.locator("#entry-2 .arrival button.find-take").count() == 0
        page.click("#entry-2 .card.go >> nth=0")
        with page.expect_download() as download:
            page.click("button[data-act='download']")
        status = page.text_content(".sheet-status") or ""
        log = tmp_path / "nest-run.jsonl"
        download.value.save_as(log)
    assert "stops at" not in status, status
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    for event in events:
        validate(event, "run-log")
    assert [(e["question"], e["choice"]) for e in events if e["event"] == "decision" and e["question"] == "take"] == [
        ("take", "take"), ("take", "leave")]
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 0 and "same outcome" in result.output, result.output
